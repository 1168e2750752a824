/* render: the renderers of compare/, each formatting a finished result
 * and querying nothing: the comparison's formats, registered in one
 * table (render.c), and those of a history and its regressions. */
#ifndef KBENCH_RENDER_H
#define KBENCH_RENDER_H

#include <stddef.h>

struct cmp_model;
struct history;
struct history_regression;
struct strbuf;

/* The formats a comparison renders to (kbench compare --format). */
enum compare_format {
	COMPARE_FORMAT_TEXT,
	COMPARE_FORMAT_MARKDOWN,
	COMPARE_FORMAT_CSV,
	COMPARE_FORMAT_JSON,
	COMPARE_FORMAT_BRIEF,
	COMPARE_FORMAT_HTML,
	COMPARE_NFORMATS
};

/* The renderers: each formats a finished model into out. */
struct renderer {
	const char *name;	/* as given to --format */
	int (*render)(const struct cmp_model *m, struct strbuf *out);
};

/* Indexed by enum compare_format, then a NULL name. */
extern const struct renderer renderers[];
/* The renderer named name, or NULL. */
const struct renderer *renderer_find(const char *name);
/* The renderers' names in the table's order, for messages: "text,
 * markdown, ... or html", appended to sb. */
void renderer_names(struct strbuf *sb);

int render_text(const struct cmp_model *m, struct strbuf *out);
int render_markdown(const struct cmp_model *m, struct strbuf *out);
int render_csv(const struct cmp_model *m, struct strbuf *out);
int render_json(const struct cmp_model *m, struct strbuf *out);
int render_brief(const struct cmp_model *m, struct strbuf *out);
/* One self-contained page: tables, charts drawn by gnuplot (when there is
 * one; the page says so when not), everything from the store escaped. */
int render_html(const struct cmp_model *m, struct strbuf *out);
struct plot_page;
/* The page's content of render_html without its frame and title: the
 * facts, the runs' notes, the sections (ids prefixed by id_prefix; a
 * prefix other than "" puts their headings a level lower and leaves out
 * the paragraph on reading the plots) and the footer, its charts
 * numbered on pg. For a page of several comparisons. */
void render_html_body(const struct cmp_model *m, const char *id_prefix, struct plot_page *pg,
		      struct strbuf *out);
/* render_brief, with the closing note on the verdicts only if note_too
 * (what a + verdict means is said whenever one is printed). */
int render_brief_layout(const struct cmp_model *m, int note_too, struct strbuf *out);

/* How render_text_layout lays a comparison out. */
enum text_footer {
	TEXT_FOOTER_ALL,	/* what the stars and signs mean, and footnotes */
	TEXT_FOOTER_NOTES,	/* the footnotes only (rows left untested, the
				 * noise between runs, noisy means) */
	TEXT_FOOTER_NONE,
};

struct text_layout {
	size_t width;			/* columns a line may take */
	enum text_footer footer;
};

/* The text format (render_text is this with 80 columns and every footer
 * line): the header block, then each section's table in column groups
 * that fit width, its blocks, and the footer. */
int render_text_layout(const struct cmp_model *m, const struct text_layout *l,
		       struct strbuf *out);

/* The JSON and CSV format version. */
#define CMP_FORMAT_VERSION 1

/* ---- history (render_history.c) ---- */

enum history_format {
	HISTORY_FORMAT_TEXT,
	HISTORY_FORMAT_CSV,
	HISTORY_FORMAT_JSON,
	HISTORY_FORMAT_HTML,
};

/* The format named name ("text", "csv", "json", "html"); 0, or -1 when
 * none. */
int history_format_parse(const char *name, enum history_format *f);

/* How a history is shown. */
struct history_view {
	const char *since;	/* only runs started at or after it (ISO prefix
				 * comparison); NULL: all */
	int unicode;		/* text: block characters and +- as one glyph */
};

/* Append h to out in format f: per series, one line per run (date, name,
 * kernel, mean, 95% CI, samples) with its change points marked, then a
 * sparkline of the means (text); a record per run (csv); everything
 * (json); one self-contained page with a chart per series drawn by
 * gnuplot (the means and their CIs over time, change points marked, the
 * run and kernel of each point on hover) and its table (html). The
 * machine-readable formats carry HISTORY_FORMAT_VERSION. */
void history_render(const struct history *h, enum history_format f,
		    const struct history_view *v, struct strbuf *out);

#define HISTORY_FORMAT_VERSION 3

/* What kbench regressions found in h: its regressions (r, n of them:
 * history_regressions) and changes of work (w, nw of them:
 * history_work_changes), from since on (NULL: all). */
struct regressions_report {
	const struct history *h;
	const char *since;
	const struct history_regression *r;
	size_t n;
	const struct history_work_change *w;
	size_t nw;
	/* For regression r, the command that bisects it into cmd, or a
	 * note saying why there is none into note (both left empty: nothing
	 * to say); NULL: none. Called with bisect_arg. */
	void (*bisect)(const struct history_regression *r, void *bisect_arg, struct strbuf *cmd,
		       struct strbuf *note);
	void *bisect_arg;
};

/* Append rr in format f, text or json: each regression (its change, the
 * runs either side and the bisect command or note), each change of work (the keys that changed and
 * the runs either side) and a summary line (text); a kbench-regressions
 * document (json, REGRESSIONS_FORMAT_VERSION). */
void history_render_regressions(const struct regressions_report *rr, enum history_format f,
				struct strbuf *out);
/* Find the regressions and changes of work of h since since (NULL: all)
 * and append them to out as history_render_regressions does. Returns how
 * many regressions it found. */
size_t history_report_regressions(const struct history *h, const char *since,
				  enum history_format f, struct strbuf *out);

#define REGRESSIONS_FORMAT_VERSION 1

#endif
