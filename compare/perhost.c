/* perhost: kbench compare --per-host BASE NEW: the comparison of the two
 * runs on every host that has both (results imported from a fleet), each
 * host's lines prefixed with its name as per-machine tables are posted on
 * linux-mm, then per section how many hosts it got better, worse or
 * within noise on. */
#include "config.h"
#include "compare/compare.h"
#include "compare/render.h"
#include "compare/render_common.h"
#include "db/store.h"
#include "lib/html.h"
#include "lib/name.h"
#include "lib/plot.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define PERHOST_WIDTH 80

struct hosts {
	char **v;
	size_t n, alloc;
};

static int add_host(const struct run_info *r, void *arg)
{
	struct hosts *h = arg;

	if (strcmp(r->status, "complete") || !r->hostname)
		return 0;
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->v[i], r->hostname))
			return 0;
	ALLOC_GROW(h->v, h->n + 1, h->alloc);
	h->v[h->n++] = xstrdup(r->hostname);
	return 0;
}

static void hosts_release(struct hosts *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->v[i]);
	free(h->v);
	memset(h, 0, sizeof(*h));
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The hosts with a complete run named base and one named new, sorted. */
static int hosts_with_both(struct store *s, const char *base, const char *new_name,
			   struct hosts *both)
{
	struct hosts hb = { .n = 0 }, hn = { .n = 0 };
	struct run_filter f = { .name = base };
	int rc = -1;

	if (store_each_run(s, &f, add_host, &hb))
		goto out;
	f.name = new_name;
	if (store_each_run(s, &f, add_host, &hn))
		goto out;
	for (size_t i = 0; i < hb.n; i++)
		for (size_t j = 0; j < hn.n; j++)
			if (!strcmp(hb.v[i], hn.v[j])) {
				ALLOC_GROW(both->v, both->n + 1, both->alloc);
				both->v[both->n++] = xstrdup(hb.v[i]);
			}
	if (both->n)
		qsort(both->v, both->n, sizeof(*both->v), cmp_names);
	rc = 0;
out:
	hosts_release(&hb);
	hosts_release(&hn);
	return rc;
}

/* How the hosts went, per section. */
struct tally {
	char *section;
	size_t better, worse, noise, mixed, cannot, untested;
};

struct tallies {
	struct tally *v;
	size_t n, alloc;
	size_t nhosts;		/* hosts counted */
	struct plot_page *pg;	/* html: the page's charts */
};

/* Count the verdict of each section of a host's comparison: better when
 * some mean row is significantly better and none worse, worse likewise,
 * mixed when both, cannot tell when neither and some row cannot tell
 * (a section is not "within noise" while a row's change could hide in
 * it), within noise when rows were tested and none changed
 * significantly, untested when none could be tested. */
static void tally_host(const struct cmp_model *m, struct tallies *t)
{
	for (size_t i = 0; i < m->nsections; i++) {
		const struct cmp_section *s = &m->sections[i];
		struct tally *ty = NULL;
		size_t better = 0, worse = 0, tested = 0, cannot = 0;

		for (size_t k = 0; k < t->n && !ty; k++)
			if (!strcmp(t->v[k].section, s->name))
				ty = &t->v[k];
		if (!ty) {
			ALLOC_GROW(t->v, t->n + 1, t->alloc);
			ty = &t->v[t->n++];
			*ty = (struct tally){ .section = xstrdup(s->name) };
		}
		for (size_t r = 0; r < s->nrows; r++) {
			const struct cmp_row *row = &s->rows[r];
			const char *v = render_verdict(row, &row->cells[1]);

			if (!strcmp(v, "better"))
				better++;
			else if (!strcmp(v, "worse"))
				worse++;
			else if (!strcmp(v, "within noise"))
				tested++;
			else if (!strcmp(v, "cannot tell"))
				cannot++;
		}
		if (better && worse)
			ty->mixed++;
		else if (better)
			ty->better++;
		else if (worse)
			ty->worse++;
		else if (cannot)
			ty->cannot++;
		else if (tested)
			ty->noise++;
		else
			ty->untested++;
	}
	t->nhosts++;
}

static void add_line(const char *line, void *arg)
{
	strbuf_addf(arg, "%s\n", line);
}

static void add_html_line(const char *line, void *arg)
{
	strbuf_addstr(arg, "<li>");
	html_escape(arg, line);
	strbuf_addstr(arg, "</li>\n");
}

static void summary(const struct tallies *t, size_t nhosts, int html, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(out, "%sSummary of %zu host%s, the mean rows of each section:%s\n",
		    html ? "<p>" : "", nhosts, nhosts == 1 ? "" : "s",
		    html ? "</p>\n<ul class=\"summary\">" : "");
	for (size_t i = 0; i < t->n; i++) {
		const struct tally *ty = &t->v[i];

		strbuf_addf(&sb, "%s: better on %zu, worse on %zu, within noise on %zu",
			    ty->section, ty->better, ty->worse, ty->noise);
		if (ty->mixed)
			strbuf_addf(&sb, ", mixed on %zu", ty->mixed);
		if (ty->cannot)
			strbuf_addf(&sb, ", cannot tell on %zu", ty->cannot);
		if (ty->untested)
			strbuf_addf(&sb, ", untested on %zu", ty->untested);
		if (html)
			add_html_line(sb.buf, out);
		else
			render_wrapped(&sb, PERHOST_WIDTH, add_line, out);
		strbuf_reset(&sb);
	}
	if (html)
		strbuf_addstr(out, "</ul>\n");
	strbuf_release(&sb);
}

/* Append body to out with every line prefixed by prefix; an empty line
 * stays empty. */
static void add_prefixed(struct strbuf *out, const char *prefix, const struct strbuf *body)
{
	for (const char *p = body->buf; *p;) {
		size_t len = strcspn(p, "\n");

		strbuf_addf(out, "%s%.*s\n", len ? prefix : "", (int)len, p);
		p += len + (p[len] == '\n');
	}
}

/* The html report: the summary, the hosts linked to their parts, then
 * those (body); as a page of its own when frame is set. */
static void html_per_host(const struct hosts *hosts, const char *base, const char *new_name,
			  struct tallies *t, const struct strbuf *body, int frame,
			  struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "kbench compare --per-host: %s vs %s", base, new_name);
	if (frame) {
		html_page_begin(out, sb.buf);
		strbuf_addstr(out, "<h1>");
		html_escape(out, sb.buf);
		strbuf_addstr(out, "</h1>\n");
		plot_page_note(t->pg, out);
	}
	summary(t, hosts->n, 1, out);
	strbuf_addstr(out, "<p>Hosts:");
	for (size_t i = 0; i < hosts->n; i++) {
		strbuf_addf(out, "%s <a href=\"#host%zu\">", i ? "," : "", i);
		html_escape(out, hosts->v[i]);
		strbuf_addstr(out, "</a>");
	}
	strbuf_addstr(out, "</p>\n");
	strbuf_add(out, body->buf, body->len);
	if (frame)
		html_page_end(out);
	strbuf_release(&sb);
}

/* One host's part of the report, appended to out; the footer of the first
 * host goes to footer. */
static int one_host(struct store *s, const char *host, const char *base,
		    const char *new_name, const struct compare_options *opt,
		    enum compare_format f, struct strbuf *out, struct strbuf *footer,
		    struct tallies *t)
{
	struct strbuf sel[2] = { STRBUF_INIT, STRBUF_INIT }, body = STRBUF_INIT;
	struct strbuf prefix = STRBUF_INIT;
	const char *selectors[2];
	struct cmp_model model;
	int rc = -1;

	strbuf_addf(&sel[0], "%s@%s", base, host);
	strbuf_addf(&sel[1], "%s@%s", new_name, host);
	selectors[0] = sel[0].buf;
	selectors[1] = sel[1].buf;
	if (compare_build(s, selectors, 2, opt, &model))
		goto out;
	if (f == COMPARE_FORMAT_HTML) {
		strbuf_addf(&prefix, "host%zu-", t->nhosts);
		strbuf_addf(out, "<section id=\"host%zu\">\n<h2>", t->nhosts);
		strbuf_addf(&body, "%s: %s vs %s", host, base, new_name);
		html_escape(out, body.buf);
		strbuf_addstr(out, "</h2>\n");
		render_html_body(&model, prefix.buf, t->pg, out);
		strbuf_addstr(out, "</section>\n");
	} else {
		strbuf_addf(out, "%s: %s vs %s\n", name_printable(host), base, new_name);
	}
	if (f == COMPARE_FORMAT_BRIEF) {
		render_brief_layout(&model, 0, &body);
		strbuf_add(out, body.buf, body.len);
	} else if (f == COMPARE_FORMAT_TEXT) {
		const struct text_layout l = {
			.width = PERHOST_WIDTH > strlen(host) + 41 ?
				PERHOST_WIDTH - strlen(host) - 1 : 40,
			.footer = TEXT_FOOTER_NOTES,
		};

		render_text_layout(&model, &l, &body);
		strbuf_addf(&prefix, "%s-", name_printable(host));
		add_prefixed(out, prefix.buf, &body);
	}
	if (!footer->len)
		render_footer_parts(&model, PERHOST_WIDTH, FOOTER_TEST, add_line, footer);
	tally_host(&model, t);
	model_release(&model);
	rc = 0;
out:
	strbuf_release(&sel[0]);
	strbuf_release(&sel[1]);
	strbuf_release(&body);
	strbuf_release(&prefix);
	return rc;
}

/* compare_per_host, its html as a page of its own unless pg is given (the
 * page's charts, on which the caller's page counts them). */
static int per_host(struct store *s, const char *base, const char *new_name,
		    const struct compare_options *opt, enum compare_format f,
		    struct plot_page *pg, struct strbuf *out)
{
	struct plot_page own = PLOT_PAGE_INIT;
	struct hosts hosts = { .n = 0 };
	struct tallies t = { .n = 0, .pg = pg ? pg : &own };
	struct strbuf footer = STRBUF_INIT, body = STRBUF_INIT;
	int html = f == COMPARE_FORMAT_HTML, rc = -1;

	if (f != COMPARE_FORMAT_TEXT && f != COMPARE_FORMAT_BRIEF && !html)
		return error("--per-host prints text, brief or html, not %s", renderers[f].name);
	for (int i = 0; i < 2; i++) {
		const char *name = i ? new_name : base;

		if (name[0] == '#' || strchr(name, '@'))
			return error("--per-host compares runs by name on each host, not '%s'",
				     name);
	}
	if (hosts_with_both(s, base, new_name, &hosts))
		goto out;
	if (!hosts.n) {
		error("no host has complete runs named both '%s' and '%s'", base, new_name);
		goto out;
	}
	for (size_t i = 0; i < hosts.n; i++) {
		if (i && !html)
			strbuf_addch(out, '\n');
		if (one_host(s, hosts.v[i], base, new_name, opt, f, html ? &body : out, &footer,
			     &t))
			goto out;
	}
	if (html) {
		html_per_host(&hosts, base, new_name, &t, &body, !pg, out);
	} else {
		strbuf_addch(out, '\n');
		summary(&t, hosts.n, 0, out);
		strbuf_addch(out, '\n');
		strbuf_add(out, footer.buf, footer.len);
	}
	rc = 0;
out:
	for (size_t i = 0; i < t.n; i++)
		free(t.v[i].section);
	free(t.v);
	hosts_release(&hosts);
	strbuf_release(&footer);
	strbuf_release(&body);
	return rc;
}

int compare_per_host(struct store *s, const char *base, const char *new_name,
		     const struct compare_options *opt, enum compare_format f,
		     struct strbuf *out)
{
	return per_host(s, base, new_name, opt, f, NULL, out);
}

int compare_per_host_html(struct store *s, const char *base, const char *new_name,
			  const struct compare_options *opt, struct plot_page *pg,
			  struct strbuf *out)
{
	return per_host(s, base, new_name, opt, COMPARE_FORMAT_HTML, pg, out);
}
