/* history: metrics over time. A series is one row of one section of one
 * config on one host, a point per complete run (its mean and 95% CI); the
 * change points of each series, its regressions, and their renderings
 * (kbench history, kbench regressions). */
#ifndef KBENCH_HISTORY_H
#define KBENCH_HISTORY_H

#include "compare/changepoint.h"
#include "db/store.h"

#include <stddef.h>
#include <stdint.h>

struct strbuf;

/* One run of a series. The strings belong to the history, shared by the
 * points of one run. */
struct history_point {
	int64_t run_id;
	const char *uuid;
	const char *run_name;
	const char *kernel_release;
	const char *started_at;	/* UTC, ISO 8601 */
	size_t n;		/* samples */
	double mean;		/* Hmean when higher is better, else Amean */
	double ci95;		/* half-width of the mean's 95% CI; NaN below 2
				 * samples or without a mean */
};

struct history_series {
	char *host, *config, *section, *row, *unit;
	int higher_better;
	struct history_point *points;	/* oldest first (start time, then id) */
	size_t npoints, alloc;
	struct changepoint *cps;	/* cps[i].index indexes points */
	size_t ncps;
};

/* The series read, in order of first appearance. */
struct history {
	struct history_series *series;
	size_t n, alloc;
	struct changepoint_params params;
	/* Series by key while reading: a series index + 1, 0 when free. */
	size_t *slots;
	size_t nslots;
	/* The strings of the runs read, one block a run. */
	char **run_strings;
	size_t nrun_strings, run_strings_alloc;
};

/* Start an empty history whose change points will be found with params. */
void history_init(struct history *h, const struct changepoint_params *params);
/* The change point parameters kbench history and regressions take as
 * option text, --p-value and --window (NULL: not given), into params.
 * Returns 0, or -1 after printing why. */
int history_params_parse(const char *pvalue, const char *window,
			 struct changepoint_params *params);
/* Add the series matching f from the store (a series read before is not
 * read twice). Returns 0, or -1 after printing why. */
int history_read(struct store *s, const struct series_filter *f, struct history *h);
/* Put each series' points in time order and find its change points. */
void history_finish(struct history *h);
void history_release(struct history *h);

/* The direction-normalised change of a change point in percent, as kbench
 * compare shows it (positive: better). */
double history_change_pct(const struct history_series *hs, const struct changepoint *cp);
/* Whether a change point makes the metric worse. */
int history_change_worse(const struct history_series *hs, const struct changepoint *cp);

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

#define HISTORY_FORMAT_VERSION 1

/* A series whose metric got worse: its latest change point for the worse. */
struct history_regression {
	const struct history_series *series;
	const struct changepoint *cp;
};

/* For every series of h, the latest change point that makes it worse and
 * whose first run started at or after since (NULL: any), into *out
 * (malloc'd; NULL when none); returns how many. */
size_t history_regressions(const struct history *h, const char *since,
			   struct history_regression **out);

/* Append the regressions found in h (n of them) and a summary line. */
void history_render_regressions(const struct history *h, const struct history_regression *r,
				size_t n, struct strbuf *out);

#endif
