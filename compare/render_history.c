/* render_history: kbench history's series in text (a line per run and a
 * sparkline), CSV, JSON and a self-contained HTML page, and the report of
 * kbench regressions. */
#include "config.h"
#include "compare/render.h"
#include "compare/history.h"
#include "compare/work.h"
#include "lib/clock.h"
#include "lib/csv.h"
#include "lib/html.h"
#include "lib/json.h"
#include "lib/name.h"
#include "lib/plot.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int history_format_parse(const char *name, enum history_format *f)
{
	static const char *const names[] = {
		[HISTORY_FORMAT_TEXT] = "text",
		[HISTORY_FORMAT_CSV] = "csv",
		[HISTORY_FORMAT_JSON] = "json",
		[HISTORY_FORMAT_HTML] = "html",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i], name)) {
			*f = (enum history_format)i;
			return 0;
		}
	return -1;
}

static int shown(const struct history_view *v, const struct history_point *p)
{
	return !v->since || strcmp(p->started_at, v->since) >= 0;
}

/* The change point that starts at point i, or NULL. */
static const struct changepoint *change_at(const struct history_series *hs, size_t i)
{
	for (size_t k = 0; k < hs->ncps; k++)
		if (hs->cps[k].index == i)
			return &hs->cps[k];
	return NULL;
}

static int decimals(const struct history_series *hs)
{
	return !strcmp(hs->unit, "s") ? 4 : 2;
}

/* How the change points of h were found and what their % is, as the
 * text and html say it (two lines; sep goes between them). */
static void method_note(const struct history *h, const char *sep, struct strbuf *out)
{
	int mean = h->stat == HISTORY_STAT_MEAN;

	strbuf_addf(out, "E-Divisive means with a t-test, p < %g, window %zu, on each run's %s",
		    h->params.max_pvalue, h->params.window,
		    mean ? "mean" : "best sample (Min, Max when higher is better)");
	if (h->params.min_magnitude > 0)
		strbuf_addf(out, ", changes over %g%%", h->params.min_magnitude * 100);
	strbuf_addf(out, ";%s%% is the change of %s, + is better.", sep,
		    mean ? "the mean" : "the runs' best samples");
}

/* "2026-11-29T23:52:28Z" -> "2026-11-29 23:52" */
static void short_date(char *buf, size_t len, const char *iso)
{
	snprintf(buf, len, "%.10s %.5s", iso, strlen(iso) > 11 ? iso + 11 : "");
}

/* Append s right-aligned in width columns (UTF-8 characters). */
static void pad_left(struct strbuf *out, const char *s, int width)
{
	int cols = 0;

	for (const char *p = s; *p; p++)
		cols += ((unsigned char)*p & 0xc0) != 0x80;
	for (; cols < width; cols++)
		strbuf_addch(out, ' ');
	strbuf_addstr(out, s);
}

/* The sparkline of the values the change points were found on. */
static void sparkline(const struct history *h, const struct history_series *hs,
		      const struct history_view *v, struct strbuf *out)
{
	static const char *const blocks[] = { "\u2581", "\u2582", "\u2583", "\u2584",
					      "\u2585", "\u2586", "\u2587", "\u2588" };
	static const char ascii[] = "_.-~=+*#";
	double lo = INFINITY, hi = -INFINITY;
	int d = decimals(hs);

	for (size_t i = 0; i < hs->npoints; i++) {
		double y = history_point_value(h, &hs->points[i]);

		if (shown(v, &hs->points[i]) && isfinite(y)) {
			lo = fmin(lo, y);
			hi = fmax(hi, y);
		}
	}
	if (lo > hi)
		return;
	strbuf_addstr(out, "trend ");
	for (size_t i = 0; i < hs->npoints; i++) {
		const struct history_point *p = &hs->points[i];
		double y = history_point_value(h, p);
		int level = 0;

		if (!shown(v, p))
			continue;
		if (!isfinite(y)) {
			strbuf_addch(out, ' ');
			continue;
		}
		if (hi > lo)
			level = (int)((y - lo) / (hi - lo) * 7 + 0.5);
		if (v->unicode)
			strbuf_addstr(out, blocks[level]);
		else
			strbuf_addch(out, ascii[level]);
	}
	strbuf_addf(out, "  (%s, oldest first; min %.*f, max %.*f)\n", history_stat_name(h, hs),
		    d, lo, d, hi);
}

static void text_series(const struct history *h, const struct history_series *hs,
			const struct history_view *v, struct strbuf *out)
{
	const char *pm = v->unicode ? "\u00b1" : "+-";
	int d = decimals(hs);
	struct strbuf cell = STRBUF_INIT;

	strbuf_addf(out, "%s %s on %s, config %s%s%s: %s%s%s%s, %s is better\n",
		    name_printable(hs->section), name_printable(hs->row),
		    name_printable(hs->host), name_printable(hs->config), *hs->work ? ", " : "",
		    name_printable(hs->work), history_mean_name(hs), *hs->unit ? " (" : "",
		    hs->unit, *hs->unit ? ")" : "", hs->higher_better ? "higher" : "lower");
	strbuf_addf(out, "%-16s  %-24s %-22s %12s %11s %12s %4s\n", "date", "run", "kernel",
		    history_mean_name(hs), "95% CI", history_best_name(hs), "n");
	for (size_t i = 0; i < hs->npoints; i++) {
		const struct history_point *p = &hs->points[i];
		const struct changepoint *cp = change_at(hs, i);
		char date[32];

		if (!shown(v, p))
			continue;
		short_date(date, sizeof(date), p->started_at);
		strbuf_addf(out, "%-16s  %-24s %-22s %12.*f ", date, name_printable(p->run_name),
			    name_printable(p->kernel_release), d, p->mean);
		strbuf_reset(&cell);
		if (isnan(p->ci95))
			strbuf_addstr(&cell, "-");
		else
			strbuf_addf(&cell, "%s%.*f", pm, d, p->ci95);
		pad_left(out, cell.buf, 11);
		strbuf_addf(out, " %12.*f %4zu", d, p->best, p->n);
		if (cp)
			strbuf_addf(out, "  <- %+.2f%% %s, p %.2g", history_change_pct(hs, cp),
				    history_change_worse(hs, cp) ? "worse" : "better", cp->p);
		strbuf_addch(out, '\n');
	}
	sparkline(h, hs, v, out);
	strbuf_release(&cell);
}

static void history_text(const struct history *h, const struct history_view *v,
			struct strbuf *out)
{
	for (size_t i = 0; i < h->n; i++) {
		if (i)
			strbuf_addch(out, '\n');
		text_series(h, &h->series[i], v, out);
	}
	if (h->n) {
		strbuf_addstr(out, "\nChange points (<-): ");
		method_note(h, "\n", out);
		strbuf_addch(out, '\n');
	}
}

/* Fields each followed by its comma, control characters escaped. */
static void csv_fields(struct strbuf *out, const char *const *fields, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		csv_field(out, name_printable(fields[i]));
		strbuf_addch(out, ',');
	}
}

static void history_csv(const struct history *h, const struct history_view *v,
		       struct strbuf *out)
{
	strbuf_addf(out, "# kbench history csv %d; e-divisive p %g window %zu statistic %s\n",
		    HISTORY_FORMAT_VERSION, h->params.max_pvalue, h->params.window,
		    history_stat_option(h));
	strbuf_addstr(out, "host,config,section,row,work,unit,better,stat,run_id,uuid,run,kernel,"
		      "started_at,n,mean,ci95,change_pct,change_p,best\n");
	for (size_t i = 0; i < h->n; i++) {
		const struct history_series *hs = &h->series[i];
		const char *series[] = {
			hs->host, hs->config, hs->section, hs->row, hs->work, hs->unit,
			hs->higher_better ? "higher" : "lower", history_mean_name(hs),
		};

		for (size_t k = 0; k < hs->npoints; k++) {
			const struct history_point *p = &hs->points[k];
			const struct changepoint *cp = change_at(hs, k);
			const char *run[] = { p->uuid, p->run_name, p->kernel_release, p->started_at };

			if (!shown(v, p))
				continue;
			csv_fields(out, series, sizeof(series) / sizeof(series[0]));
			strbuf_addf(out, "%lld,", (long long)p->run_id);
			csv_fields(out, run, sizeof(run) / sizeof(run[0]));
			strbuf_addf(out, "%zu,", p->n);
			csv_number(out, p->mean);
			strbuf_addch(out, ',');
			csv_number(out, p->ci95);
			strbuf_addch(out, ',');
			if (cp) {
				csv_number(out, history_change_pct(hs, cp));
				strbuf_addch(out, ',');
				csv_number(out, cp->p);
			} else {
				strbuf_addch(out, ',');
			}
			strbuf_addch(out, ',');
			csv_number(out, p->best);
			strbuf_addch(out, '\n');
		}
	}
}

static void json_change(struct json *j, const struct history *h,
			const struct history_series *hs, const struct changepoint *cp)
{
	const struct history_point *p = &hs->points[cp->index];

	json_object_begin(j);
	json_key_int(j, "index", (long long)cp->index);
	json_key_int(j, "run_id", p->run_id);
	json_key_string(j, "run", name_printable(p->run_name));
	json_key_string(j, "started_at", p->started_at);
	json_key_string(j, "of", history_stat_name(h, hs));
	json_key_double(j, "mean_before", cp->mean_before);
	json_key_double(j, "mean_after", cp->mean_after);
	json_key_int(j, "runs_before", (long long)cp->n_before);
	json_key_int(j, "runs_after", (long long)cp->n_after);
	json_key_double(j, "change_pct", history_change_pct(hs, cp));
	json_key_string(j, "direction", history_change_worse(hs, cp) ? "worse" : "better");
	json_key_double(j, "magnitude", cp->magnitude);
	json_key_double(j, "t", cp->t);
	json_key_double(j, "p", cp->p);
	json_object_end(j);
}

/* The "method" key: how the change points were found. */
static void json_method(struct json *j, const struct history *h)
{
	json_key(j, "method");
	json_object_begin(j);
	json_key_string(j, "name", "e-divisive means, t-test");
	json_key_int(j, "window", (long long)h->params.window);
	json_key_double(j, "max_pvalue", h->params.max_pvalue);
	json_key_double(j, "min_magnitude", h->params.min_magnitude);
	json_key_double(j, "noise_factor", h->params.noise_factor);
	json_key_int(j, "min_segment", (long long)h->params.min_segment);
	json_key_string(j, "statistic", history_stat_option(h));
	json_object_end(j);
}

static void json_series_head(struct json *j, const struct history_series *hs)
{
	json_key_string(j, "host", name_printable(hs->host));
	json_key_string(j, "config", name_printable(hs->config));
	json_key_string(j, "section", name_printable(hs->section));
	json_key_string(j, "row", name_printable(hs->row));
	json_key_string(j, "work", name_printable(hs->work));
	{
		struct strbuf kind = STRBUF_INIT;

		/* The runs of a series measured on one kind. */
		run_kind_describe(hs->npoints ? hs->points[0].kind : "", &kind);
		json_key_string(j, "kind", kind.buf);
		strbuf_release(&kind);
	}
	json_key_string(j, "unit", hs->unit);
	json_key_string(j, "better", hs->higher_better ? "higher" : "lower");
	json_key_string(j, "stat", history_mean_name(hs));
}

static void history_json(const struct history *h, const struct history_view *v,
			struct strbuf *out)
{
	struct json j;

	json_init(&j, out);
	json_document_begin(&j, "kbench-history", HISTORY_FORMAT_VERSION);
	json_method(&j, h);
	json_key(&j, "series");
	json_array_begin(&j);
	for (size_t i = 0; i < h->n; i++) {
		const struct history_series *hs = &h->series[i];

		json_newline(&j);
		json_object_begin(&j);
		json_series_head(&j, hs);
		json_key(&j, "points");
		json_array_begin(&j);
		for (size_t k = 0; k < hs->npoints; k++) {
			const struct history_point *p = &hs->points[k];

			if (!shown(v, p))
				continue;
			json_newline(&j);
			json_object_begin(&j);
			json_key_int(&j, "run_id", p->run_id);
			json_key_string(&j, "uuid", p->uuid);
			json_key_string(&j, "run", name_printable(p->run_name));
			json_key_string(&j, "kernel_release", name_printable(p->kernel_release));
			json_key_string(&j, "started_at", p->started_at);
			json_key_int(&j, "n", (long long)p->n);
			json_key_double(&j, "mean", p->mean);
			json_key_double(&j, "ci95", p->ci95);
			json_key_double(&j, "best", p->best);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_key(&j, "change_points");
		json_array_begin(&j);
		for (size_t k = 0; k < hs->ncps; k++)
			if (shown(v, &hs->points[hs->cps[k].index]))
				json_change(&j, h, hs, &hs->cps[k]);
		json_array_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
	strbuf_addch(out, '\n');
}

static void history_html(const struct history *h, const struct history_view *v,
			struct strbuf *out);

void history_render(const struct history *h, enum history_format f,
		    const struct history_view *v, struct strbuf *out)
{
	switch (f) {
	case HISTORY_FORMAT_TEXT:
		history_text(h, v, out);
		break;
	case HISTORY_FORMAT_CSV:
		history_csv(h, v, out);
		break;
	case HISTORY_FORMAT_JSON:
		history_json(h, v, out);
		break;
	case HISTORY_FORMAT_HTML:
		history_html(h, v, out);
		break;
	}
}

static void run_line(struct strbuf *out, const char *what, const struct history_point *p)
{
	char date[32];

	short_date(date, sizeof(date), p->started_at);
	strbuf_addf(out, "  %s @%lld %s (%s) %s\n", what, (long long)p->run_id,
		    name_printable(p->run_name), name_printable(p->kernel_release), date);
}

/* Whether changes of work a and b are the same but for their row. */
static int same_work_change(const struct history_work_change *a,
			    const struct history_work_change *b)
{
	const struct history_series *x = a->after_series, *y = b->after_series;

	return a->before->run_id == b->before->run_id && a->after->run_id == b->after->run_id &&
	       !strcmp(x->host, y->host) && !strcmp(x->config, y->config) &&
	       !strcmp(x->section, y->section) && !strcmp(x->work, y->work) &&
	       !strcmp(a->before_series->work, b->before_series->work);
}

static void regressions_text(const struct regressions_report *rr, struct strbuf *out)
{
	const struct history *h = rr->h;
	struct strbuf cmd = STRBUF_INIT, note = STRBUF_INIT;

	for (size_t i = 0; i < rr->n; i++) {
		const struct history_series *hs = rr->r[i].series;
		const struct changepoint *cp = rr->r[i].cp;
		int d = decimals(hs);

		strbuf_addf(out, "%s %s on %s, config %s%s%s: %s %.*f -> %.*f%s%s (%+.2f%%), p %.2g\n",
			    name_printable(hs->section), name_printable(hs->row),
			    name_printable(hs->host), name_printable(hs->config),
			    *hs->work ? ", " : "", name_printable(hs->work), history_stat_name(h, hs),
			    d, cp->mean_before, d, cp->mean_after, *hs->unit ? " " : "", hs->unit,
			    history_change_pct(hs, cp), cp->p);
		run_line(out, "last run before:", &hs->points[cp->index - 1]);
		run_line(out, "first run after:", &hs->points[cp->index]);
		if (rr->bisect) {
			strbuf_reset(&cmd);
			strbuf_reset(&note);
			rr->bisect(&rr->r[i], rr->bisect_arg, &cmd, &note);
			if (cmd.len)
				strbuf_addf(out, "  bisect it: %s\n", cmd.buf);
			if (note.len)
				strbuf_addf(out, "  %s\n", note.buf);
		}
	}
	strbuf_release(&cmd);
	strbuf_release(&note);
	/* A change of work usually changes every row of a section at once:
	 * one entry for the rows it changed together. */
	for (size_t i = 0, end; i < rr->nw; i = end) {
		const struct history_work_change *w = &rr->w[i];
		const struct history_series *hs = w->after_series;

		strbuf_addf(out, "%s %s", name_printable(hs->section), name_printable(hs->row));
		for (end = i + 1; end < rr->nw && same_work_change(w, &rr->w[end]); end++)
			strbuf_addf(out, ", %s", name_printable(rr->w[end].after_series->row));
		strbuf_addf(out, " on %s, config %s: the %s changed, ", name_printable(hs->host),
			    name_printable(hs->config),
			    run_kinds_differ(w->before->kind, w->after->kind) ? "kind" : "work");
		strbuf_addf(out, "%s -> ", name_printable(w->before_series->work));
		strbuf_addf(out, "%s (a new series, not a regression)\n", name_printable(hs->work));
		run_line(out, "last run before:", w->before);
		run_line(out, "first run after:", w->after);
	}
	strbuf_addf(out, "%zu regression%s in %zu series", rr->n, rr->n == 1 ? "" : "s", h->n);
	if (rr->nw)
		strbuf_addf(out, ", %zu change%s of work", rr->nw, rr->nw == 1 ? "" : "s");
	strbuf_addch(out, '\n');
}

static void json_run(struct json *j, const char *key, const struct history_point *p)
{
	json_key(j, key);
	json_object_begin(j);
	json_key_int(j, "run_id", p->run_id);
	json_key_string(j, "uuid", p->uuid);
	json_key_string(j, "run", name_printable(p->run_name));
	json_key_string(j, "kernel_release", name_printable(p->kernel_release));
	json_key_string(j, "started_at", p->started_at);
	json_object_end(j);
}

static void regressions_json(const struct regressions_report *rr, struct strbuf *out)
{
	const struct history *h = rr->h;
	struct strbuf cmd = STRBUF_INIT, note = STRBUF_INIT;
	struct json j;

	json_init(&j, out);
	json_document_begin(&j, "kbench-regressions", REGRESSIONS_FORMAT_VERSION);
	json_method(&j, h);
	json_key_string(&j, "since", rr->since);
	json_key_int(&j, "series", (long long)h->n);
	json_key(&j, "regressions");
	json_array_begin(&j);
	for (size_t i = 0; i < rr->n; i++) {
		const struct history_series *hs = rr->r[i].series;
		const struct changepoint *cp = rr->r[i].cp;

		json_newline(&j);
		json_object_begin(&j);
		json_series_head(&j, hs);
		json_key(&j, "change");
		json_change(&j, h, hs, cp);
		json_run(&j, "before", &hs->points[cp->index - 1]);
		json_run(&j, "after", &hs->points[cp->index]);
		if (rr->bisect) {
			strbuf_reset(&cmd);
			strbuf_reset(&note);
			rr->bisect(&rr->r[i], rr->bisect_arg, &cmd, &note);
		}
		json_key_string(&j, "bisect", cmd.len ? cmd.buf : NULL);
		json_key_string(&j, "bisect_note", note.len ? note.buf : NULL);
		json_object_end(&j);
	}
	json_array_end(&j);
	strbuf_release(&cmd);
	strbuf_release(&note);
	json_key(&j, "work_changes");
	json_array_begin(&j);
	for (size_t i = 0; i < rr->nw; i++) {
		const struct history_work_change *w = &rr->w[i];
		const struct history_series *hs = w->after_series;

		json_newline(&j);
		json_object_begin(&j);
		json_key_string(&j, "host", name_printable(hs->host));
		json_key_string(&j, "config", name_printable(hs->config));
		json_key_string(&j, "section", name_printable(hs->section));
		json_key_string(&j, "row", name_printable(hs->row));
		json_key_string(&j, "work_before", name_printable(w->before_series->work));
		json_key_string(&j, "work_after", name_printable(hs->work));
		json_run(&j, "before", w->before);
		json_run(&j, "after", w->after);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
	strbuf_addch(out, '\n');
}

void history_render_regressions(const struct regressions_report *rr, enum history_format f,
				struct strbuf *out)
{
	if (f == HISTORY_FORMAT_JSON)
		regressions_json(rr, out);
	else
		regressions_text(rr, out);
}

size_t history_report_regressions(const struct history *h, const char *since,
				  enum history_format f, struct strbuf *out)
{
	struct regressions_report rr = { .h = h, .since = since };
	struct history_regression *r;
	struct history_work_change *w;

	rr.n = history_regressions(h, since, &r);
	rr.nw = history_work_changes(h, since, &w);
	rr.r = r;
	rr.w = w;
	history_render_regressions(&rr, f, out);
	free(r);
	free(w);
	return rr.n;
}

/* ---- html ---- */

#define HTML_LINE_RGB 0x0072b2
#define HTML_WORSE_RGB 0xc62828
#define HTML_BETTER_RGB 0x2e7d32
#define HTML_BEST_RGB 0xd55e00
/* A page of more series than this has no chart per series (gnuplot would
 * take seconds): the overview shows them all. */
#define HTML_CHARTS_MAX 24
#define STR(x) XSTR(x)
#define XSTR(x) #x

static void series_title(const struct history_series *hs, struct strbuf *sb)
{
	strbuf_addf(sb, "%s %s on %s, config %s%s%s", hs->section, hs->row, hs->host, hs->config,
		    *hs->work ? ", " : "", hs->work);
}

static void html_chart(const struct history *h, const struct history_series *hs,
		       const struct history_view *v, struct plot_page *pg, struct strbuf *out)
{
	struct plot p;
	struct plot_series *ps, *best = NULL;
	struct strbuf sb = STRBUF_INIT, caption = STRBUF_INIT;
	double lo = INFINITY, hi = -INFINITY, prev = NAN;
	int d = decimals(hs);

	plot_init(&p);
	p.xaxis = PLOT_X_TIME;
	plot_set_xlabel(&p, "run started (UTC)");
	strbuf_addf(&sb, "%s%s%s%s", history_mean_name(hs), *hs->unit ? " (" : "", hs->unit,
		    *hs->unit ? ")" : "");
	plot_set_ylabel(&p, sb.buf);
	series_title(hs, &caption);
	ps = plot_add_series(&p, PLOT_ERRORLINES, HTML_LINE_RGB, caption.buf);
	/* The values the change points were found on, when not the means. */
	if (h->stat == HISTORY_STAT_BEST)
		best = plot_add_series(&p, PLOT_MARKS, HTML_BEST_RGB, history_best_name(hs));
	for (size_t i = 0; i < hs->npoints; i++) {
		const struct history_point *pt = &hs->points[i];
		const struct changepoint *cp = change_at(hs, i);
		double t = clock_parse_iso_utc(pt->started_at);
		char date[32];

		if (!shown(v, pt) || !isfinite(t))
			continue;
		short_date(date, sizeof(date), pt->started_at);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s, kernel %s, %s: %s %.*f", pt->run_name, pt->kernel_release,
			    date, history_mean_name(hs), d, pt->mean);
		if (isfinite(pt->ci95))
			strbuf_addf(&sb, " +- %.*f", d, pt->ci95);
		strbuf_addf(&sb, "%s%s, %s %.*f%s%s, %zu sample%s", *hs->unit ? " " : "", hs->unit,
			    history_best_name(hs), d, pt->best, *hs->unit ? " " : "", hs->unit,
			    pt->n, pt->n == 1 ? "" : "s");
		if (isfinite(pt->mean)) {
			plot_add_point(ps, t, pt->mean, pt->mean - pt->ci95, pt->mean + pt->ci95,
				       sb.buf);
			if (best)
				plot_add_point(best, t, pt->best, NAN, NAN, sb.buf);
			lo = fmin(lo, t);
			hi = fmax(hi, t);
		}
		if (cp) {
			/* Between the last run before the change and the first after. */
			double at = isfinite(prev) ? (prev + t) / 2 : t;
			int worse = history_change_worse(hs, cp);

			strbuf_reset(&sb);
			strbuf_addf(&sb, "%+.2f%% %s", history_change_pct(hs, cp),
				    worse ? "worse" : "better");
			plot_add_marker(&p, at, worse ? HTML_WORSE_RGB : HTML_BETTER_RGB, sb.buf);
		}
		prev = t;
	}
	if (!ps->n)
		goto out;
	/* A day either side of a lone run; else a little room. */
	p.xmin = hi > lo ? lo - (hi - lo) * 0.03 : lo - 86400;
	p.xmax = hi > lo ? hi + (hi - lo) * 0.03 : hi + 86400;
	strbuf_addf(&caption, ": %s over time (line, 95%% CI)", history_mean_name(hs));
	if (best)
		strbuf_addf(&caption, " and each run's %s (circles, the values change points "
			    "are found on)", history_best_name(hs));
	strbuf_addf(&caption, ", %s is better", hs->higher_better ? "higher" : "lower");
	plot_figure(pg, &p, caption.buf, out);
out:
	plot_release(&p);
	strbuf_release(&sb);
	strbuf_release(&caption);
}

static void html_cell(struct strbuf *out, const char *cls, const char *text)
{
	strbuf_addf(out, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	html_escape(out, text);
	strbuf_addstr(out, "</td>");
}

static void html_table(const struct history_series *hs, const struct history_view *v,
		       struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	int d = decimals(hs);

	strbuf_addf(out, "<table class=\"history\">\n<thead><tr><th>date</th><th>run</th>"
		    "<th>kernel</th><th>%s</th><th>95%% CI</th><th>%s</th><th>n</th>"
		    "<th>change</th></tr></thead>\n<tbody>\n", history_mean_name(hs),
		    history_best_name(hs));
	for (size_t i = 0; i < hs->npoints; i++) {
		const struct history_point *p = &hs->points[i];
		const struct changepoint *cp = change_at(hs, i);
		const char *cls = cp ? history_change_worse(hs, cp) ? "worse" : "better" : NULL;
		char date[32];

		if (!shown(v, p))
			continue;
		short_date(date, sizeof(date), p->started_at);
		strbuf_addstr(out, "<tr>");
		html_cell(out, NULL, date);
		html_cell(out, NULL, p->run_name);
		html_cell(out, NULL, p->kernel_release);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%.*f", d, p->mean);
		html_cell(out, "num", sb.buf);
		strbuf_reset(&sb);
		if (isnan(p->ci95))
			strbuf_addch(&sb, '-');
		else
			strbuf_addf(&sb, "\u00b1%.*f", d, p->ci95);
		html_cell(out, "num", sb.buf);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%.*f", d, p->best);
		html_cell(out, "num", sb.buf);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%zu", p->n);
		html_cell(out, "num", sb.buf);
		strbuf_reset(&sb);
		if (cp)
			strbuf_addf(&sb, "%+.2f%% %s, p %.2g", history_change_pct(hs, cp), cls,
				    cp->p);
		html_cell(out, cls, sb.buf);
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</tbody>\n</table>\n");
	strbuf_release(&sb);
}

/* The change points of series i (numbered from 1) in the page: what each
 * compared, and how to compare the two runs around it. */
static void html_changes(const struct history *h, const struct history_series *hs, size_t i,
			 const struct history_view *v, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	int d = decimals(hs);

	for (size_t k = 0; k < hs->ncps; k++) {
		const struct changepoint *cp = &hs->cps[k];
		const struct history_point *a = &hs->points[cp->index - 1];
		const struct history_point *b = &hs->points[cp->index];

		if (!shown(v, b))
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "Change point %zu: %s %.*f over %zu runs, then %.*f over %zu runs "
			    "from %s on (%+.2f%% %s, p %.2g). The runs around it compare with: "
			    "kbench compare @%lld @%lld", k + 1, history_stat_name(h, hs), d,
			    cp->mean_before, cp->n_before, d, cp->mean_after, cp->n_after,
			    b->run_name, history_change_pct(hs, cp),
			    history_change_worse(hs, cp) ? "worse" : "better", cp->p,
			    (long long)a->run_id, (long long)b->run_id);
		strbuf_addf(out, "<p class=\"change\" id=\"series%zu-cp%zu\">", i, k + 1);
		html_escape(out, sb.buf);
		strbuf_addstr(out, "</p>\n");
	}
	strbuf_release(&sb);
}

/* Series i of the overview: a small multiple linked to its part of the
 * page, its change points marked and linked to theirs. */
static void html_multiple(const struct history *h, const struct history_series *hs, size_t i,
			  const struct history_view *v, struct strbuf *out)
{
	double *x = xcalloc(hs->npoints + 1, sizeof(*x)), *y = xcalloc(hs->npoints + 1, sizeof(*y));
	struct plot_spark_mark *marks = xcalloc(hs->ncps + 1, sizeof(*marks));
	char **texts = xcalloc(2 * hs->ncps + 1, sizeof(*texts));
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0, nmarks = 0;
	double prev = NAN;

	for (size_t k = 0; k < hs->npoints; k++) {
		const struct changepoint *cp = change_at(hs, k);
		double t = clock_parse_iso_utc(hs->points[k].started_at);

		if (!shown(v, &hs->points[k]))
			continue;
		x[n] = t;
		y[n++] = history_point_value(h, &hs->points[k]);
		if (cp && isfinite(t)) {
			int worse = history_change_worse(hs, cp);

			strbuf_reset(&sb);
			strbuf_addf(&sb, "%+.2f%% %s from %s", history_change_pct(hs, cp),
				    worse ? "worse" : "better", hs->points[k].run_name);
			texts[2 * nmarks] = strbuf_detach(&sb);
			strbuf_addf(&sb, "#series%zu-cp%zu", i, (size_t)(cp - hs->cps) + 1);
			texts[2 * nmarks + 1] = strbuf_detach(&sb);
			marks[nmarks] = (struct plot_spark_mark){
				.x = isfinite(prev) ? (prev + t) / 2 : t,
				.rgb = worse ? HTML_WORSE_RGB : HTML_BETTER_RGB,
				.title = texts[2 * nmarks], .href = texts[2 * nmarks + 1],
			};
			nmarks++;
		}
		prev = t;
	}
	series_title(hs, &sb);
	strbuf_addf(out, "<figure><a href=\"#series%zu\">", i);
	html_escape(out, sb.buf);
	strbuf_addstr(out, "</a><br>");
	plot_spark_svg(out, x, y, n, marks, nmarks, 200, 48, sb.buf);
	strbuf_addf(out, "<figcaption>%zu run%s, %zu change%s</figcaption></figure>\n", n,
		    n == 1 ? "" : "s", nmarks, nmarks == 1 ? "" : "s");
	for (size_t k = 0; k < 2 * nmarks; k++)
		free(texts[k]);
	free(texts);
	free(marks);
	free(x);
	free(y);
	strbuf_release(&sb);
}

static void history_html(const struct history *h, const struct history_view *v,
			struct strbuf *out)
{
	struct plot_page pg = PLOT_PAGE_INIT;
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "kbench history: ");
	if (h->n == 1)
		series_title(&h->series[0], &sb);
	else
		strbuf_addf(&sb, "%zu series", h->n);
	html_page_begin(out, sb.buf);
	strbuf_addstr(out, "<h1>");
	html_escape(out, sb.buf);
	strbuf_addstr(out, "</h1>\n");
	strbuf_reset(&sb);
	method_note(h, " ", &sb);
	strbuf_addf(out, "<p>One point per complete run: its mean (Hmean when higher is "
		    "better, else Amean) with the 95%% confidence interval%s. Change points "
		    "(dashed lines, and the change column): ", h->stat == HISTORY_STAT_BEST ?
		    ", and a circle for its best sample" : "");
	html_escape(out, sb.buf);
	strbuf_addstr(out, " Hover over a point for its run and kernel.</p>\n");
	if (h->n > 1) {
		strbuf_addf(out, "<h2>Overview</h2>\n<p>Every series, the values its change points "
			    "are found on, oldest first; a "
			    "bar marks a change point (red worse, green better) and links to it.%s"
			    "</p>\n<div class=\"multiples\">\n", h->n > HTML_CHARTS_MAX ?
			    " Past " STR(HTML_CHARTS_MAX) " series, the series below have their "
			    "tables and no chart: ask for fewer (--section, --row, --host) to "
			    "have them." : "");
		for (size_t i = 0; i < h->n; i++)
			html_multiple(h, &h->series[i], i + 1, v, out);
		strbuf_addstr(out, "</div>\n");
	}
	if (h->n <= HTML_CHARTS_MAX)
		plot_page_note(&pg, out);
	for (size_t i = 0; i < h->n; i++) {
		const struct history_series *hs = &h->series[i];

		strbuf_addf(out, "<section id=\"series%zu\">\n<h2>", i + 1);
		strbuf_reset(&sb);
		series_title(hs, &sb);
		strbuf_addf(&sb, ": %s%s%s%s, %s is better", history_mean_name(hs),
			    *hs->unit ? " (" : "", hs->unit, *hs->unit ? ")" : "",
			    hs->higher_better ? "higher" : "lower");
		html_escape(out, sb.buf);
		strbuf_addstr(out, "</h2>\n");
		if (h->n <= HTML_CHARTS_MAX)
			html_chart(h, hs, v, &pg, out);
		html_table(hs, v, out);
		html_changes(h, hs, i + 1, v, out);
		strbuf_addstr(out, "</section>\n");
	}
	html_page_end(out);
	strbuf_release(&sb);
}
