/* watch_html: the HTML page of kbench watch --status: the cycles of each
 * watch in a table, then the parts the table links to: each cycle's
 * experiment compared, each bisection's report. */
#include "config.h"
#include "views/watch_html.h"
#include "views/bisect_report.h"
#include "views/experiment_view.h"
#include "compare/compare.h"
#include "compare/render.h"
#include "db/store.h"
#include "db/watch.h"
#include "lib/html.h"
#include "lib/plot.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A cycle's parts below the tables. */
struct part {
	int64_t cycle_id, experiment_id, bisect_id;
	char *old_tip, *new_tip;
};

struct page {
	struct store *s;
	int64_t watch_id;
	struct strbuf body;
	struct plot_page pg;
	struct part *parts;
	size_t nparts, alloc;
	size_t ncycles;
	int rc;
};

/* A commit as the table shows it: its first 12 digits. */
static void add_commit(struct strbuf *out, const char *id)
{
	char shortid[13];

	snprintf(shortid, sizeof(shortid), "%s", id);
	strbuf_addstr(out, "<code>");
	html_escape(out, shortid);
	strbuf_addstr(out, "</code>");
}

static int add_verdict(const struct watch_verdict *v, void *arg)
{
	struct strbuf *out = arg;

	strbuf_addstr(out, v->regression ? "<b>" : "");
	html_escape(out, v->section);
	strbuf_addch(out, ' ');
	html_escape(out, v->row);
	strbuf_addstr(out, ": ");
	html_escape(out, v->verdict);
	if (isfinite(v->change_pct))
		strbuf_addf(out, " %+.2f%%", v->change_pct);
	if (!v->gating)
		strbuf_addstr(out, " (not gating)");
	if (v->culprit && *v->culprit) {
		strbuf_addstr(out, ", first bad ");
		add_commit(out, v->culprit);
	}
	strbuf_addstr(out, v->regression ? "</b><br>\n" : "<br>\n");
	return 0;
}

static int add_mail(const struct watch_mail *m, void *arg)
{
	struct strbuf *out = arg;

	if (!strcmp(m->state, "sent")) {
		strbuf_addstr(out, "sent ");
		html_escape(out, m->sent_at);
		strbuf_addstr(out, "<br><code>");
		html_escape(out, m->message_id);
		strbuf_addstr(out, "</code>");
	} else {
		strbuf_addf(out, "pending (%d tr%s)", m->attempts, m->attempts == 1 ? "y" : "ies");
		if (*m->last_error) {
			strbuf_addstr(out, ": ");
			html_escape(out, m->last_error);
		}
	}
	strbuf_addstr(out, "<br>\n");
	return 0;
}

static int add_cycle(const struct watch_cycle *c, void *arg)
{
	struct page *p = arg;
	struct strbuf *out = &p->body;
	int parted = c->experiment_id > 0 || c->bisect_id > 0;

	p->ncycles++;
	strbuf_addf(out, "<tr id=\"cycle%lld\"><td class=\"num\">%lld</td><td>",
		    (long long)c->id, (long long)c->id);
	html_escape(out, c->started_at);
	strbuf_addstr(out, "</td><td>");
	html_escape(out, c->hostname);
	strbuf_addstr(out, "</td><td>");
	if (*c->old_tip) {
		add_commit(out, c->old_tip);
		strbuf_addstr(out, " &rarr; ");
	}
	if (*c->new_tip)
		add_commit(out, c->new_tip);
	if (c->experiment_id > 0)
		strbuf_addf(out, "<br><a href=\"#cycle%lld-experiment\">comparison</a>",
			    (long long)c->id);
	strbuf_addstr(out, "</td><td>");
	if (*c->result)
		html_escape(out, c->result);
	else
		strbuf_addf(out, "%s at %s", c->state, watch_step_name(c->step));
	if (*c->error) {
		strbuf_addstr(out, "<br>");
		html_escape(out, c->error);
	}
	strbuf_addstr(out, "</td><td>");
	if (store_watch_each_verdict(p->s, c->id, add_verdict, out))
		return p->rc = -1;
	strbuf_addstr(out, "</td><td>");
	if (c->bisect_id > 0)
		strbuf_addf(out, "<a href=\"#cycle%lld-bisect\">report</a>", (long long)c->id);
	strbuf_addstr(out, "</td><td>");
	if (store_watch_each_mail(p->s, 0, c->id, 0, add_mail, out))
		return p->rc = -1;
	strbuf_addstr(out, "</td></tr>\n");
	if (parted) {
		struct part *pt;

		ALLOC_GROW(p->parts, p->nparts + 1, p->alloc);
		pt = &p->parts[p->nparts++];
		pt->cycle_id = c->id;
		pt->experiment_id = c->experiment_id;
		pt->bisect_id = c->bisect_id;
		pt->old_tip = xstrdup(c->old_tip);
		pt->new_tip = xstrdup(c->new_tip);
	}
	return 0;
}

static int add_watch(const struct watch_info *w, void *arg)
{
	struct page *p = arg;
	struct strbuf *out = &p->body;

	if (p->watch_id && w->id != p->watch_id)
		return 0;
	strbuf_addf(out, "<h2 id=\"watch%lld\">", (long long)w->id);
	html_escape(out, w->hostname);
	strbuf_addstr(out, ": ");
	html_escape(out, w->branch);
	strbuf_addstr(out, " of ");
	html_escape(out, w->remote);
	strbuf_addstr(out, "</h2>\n<p>Tree ");
	html_escape(out, w->tree);
	strbuf_addstr(out, ", config ");
	html_escape(out, w->config_name);
	strbuf_addstr(out, ", watched since ");
	html_escape(out, w->created_at);
	strbuf_addstr(out, ".</p>\n<table class=\"cycles\">\n<tr><th>cycle</th><th>started (UTC)</th><th>host</th>"
		      "<th>tips tested</th><th>result</th><th>verdict per row</th>"
		      "<th>bisection</th><th>mail</th></tr>\n");
	if (store_watch_each_cycle(p->s, w->id, add_cycle, p) || p->rc)
		return p->rc = -1;
	strbuf_addstr(out, "</table>\n");
	return 0;
}

/* The comparison of an experiment's arms, its first arm the baseline. */
static void add_experiment(struct page *p, const struct part *pt)
{
	const struct compare_options opt = { .monitors = CMP_MONITORS_SUMMARY };
	struct experiment_view v;
	struct cmp_model model;
	struct strbuf id = STRBUF_INIT;
	int64_t *ids = NULL;
	size_t n = 0;

	memset(&v, 0, sizeof(v));
	strbuf_addf(&p->body, "<h2 id=\"cycle%lld-experiment\">Cycle %lld: ",
		    (long long)pt->cycle_id, (long long)pt->cycle_id);
	add_commit(&p->body, pt->old_tip);
	strbuf_addstr(&p->body, " against ");
	add_commit(&p->body, pt->new_tip);
	strbuf_addstr(&p->body, "</h2>\n");
	if (experiment_view_load(p->s, pt->experiment_id, &v)) {
		strbuf_addstr(&p->body, "<p>The experiment cannot be read from this store.</p>\n");
		goto out;
	}
	ids = xcalloc(v.nruns ? v.nruns : 1, sizeof(*ids));
	for (size_t i = 0; i < v.nruns; i++)
		ids[n++] = v.runs[i].run_id;
	if (n < 2) {
		strbuf_addstr(&p->body, "<p>Experiment ");
		html_escape(&p->body, v.info.name);
		strbuf_addstr(&p->body, ": its arms' runs are not in this store (kbench fleet "
			      "collect brings them).</p>\n");
		goto out;
	}
	if (compare_build_runs(p->s, ids, n, &opt, &model)) {
		strbuf_addstr(&p->body, "<p>Its comparison cannot be made.</p>\n");
		goto out;
	}
	strbuf_addf(&id, "cycle%lld-", (long long)pt->cycle_id);
	render_html_body(&model, id.buf, &p->pg, &p->body);
	model_release(&model);
out:
	free(ids);
	strbuf_release(&id);
	experiment_view_release(&v);
}

static void add_bisection(struct page *p, const struct part *pt)
{
	struct strbuf report = STRBUF_INIT;

	strbuf_addf(&p->body, "<h2 id=\"cycle%lld-bisect\">Cycle %lld: bisection</h2>\n",
		    (long long)pt->cycle_id, (long long)pt->cycle_id);
	if (bisect_report_text(p->s, pt->bisect_id, &report, NULL)) {
		strbuf_addstr(&p->body, "<p>Its report cannot be made from this store.</p>\n");
	} else {
		strbuf_addstr(&p->body, "<pre>");
		html_escape(&p->body, report.buf);
		strbuf_addstr(&p->body, "</pre>\n");
	}
	strbuf_release(&report);
}

int watch_html_page(struct store *s, int64_t watch_id, struct strbuf *out)
{
	struct page p = { .s = s, .watch_id = watch_id, .body = STRBUF_INIT,
			  .pg = PLOT_PAGE_INIT };
	struct strbuf title = STRBUF_INIT;

	if (s && watch_id >= 0 && (store_each_watch(s, add_watch, &p) || p.rc)) {
		p.rc = -1;
		goto out;
	}
	if (!p.ncycles)
		strbuf_addstr(&p.body, "<p>No cycle yet: 'kbench watch CONFIG' runs one.</p>\n");
	for (size_t i = 0; i < p.nparts; i++) {
		if (p.parts[i].experiment_id > 0)
			add_experiment(&p, &p.parts[i]);
		if (p.parts[i].bisect_id > 0)
			add_bisection(&p, &p.parts[i]);
	}
	strbuf_addf(&title, "kbench watch: %zu cycle%s", p.ncycles, p.ncycles == 1 ? "" : "s");
	html_page_begin(out, title.buf);
	strbuf_addstr(out, "<h1>");
	html_escape(out, title.buf);
	strbuf_addstr(out, "</h1>\n");
	plot_page_note(&p.pg, out);
	strbuf_add(out, p.body.buf, p.body.len);
	html_page_end(out);
out:
	for (size_t i = 0; i < p.nparts; i++) {
		free(p.parts[i].old_tip);
		free(p.parts[i].new_tip);
	}
	free(p.parts);
	strbuf_release(&p.body);
	strbuf_release(&title);
	return p.rc;
}
