/* history: series built from the store's samples (one point per complete
 * run: Hmean or Amean and its 95% CI, and the best sample), their change
 * points and regressions; render_history.c shows them. */
#include "config.h"
#include "compare/history.h"
#include "compare/stats.h"
#include "compare/work.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The samples of one row of the run being read. */
struct group {
	char *section, *row, *unit;
	int higher_better;
	double *values;
	size_t n, alloc;
};

/* What history_read keeps while the store streams samples. */
struct builder {
	struct history *h;
	/* The run being read (its strings in one block the history owns) and
	 * its rows. */
	int64_t run_id;
	const char *uuid, *run_name, *host, *config, *kernel, *started_at;
	struct group *groups;
	size_t ngroups, groups_alloc;
	/* The t quantiles of 95% CIs by degrees of freedom, 0 until needed. */
	double *tq;
	size_t ntq;
};

static uint64_t fnv1a(uint64_t h, const char *s)
{
	/* Each string with its NUL, so that ("ab", "c") and ("a", "bc") differ. */
	do {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	} while (*s++);
	return h;
}

static uint64_t series_hash(const char *host, const char *config, const char *section,
			    const char *row)
{
	return fnv1a(fnv1a(fnv1a(fnv1a(0xcbf29ce484222325ULL, host), config), section), row);
}

static int series_is(const struct history_series *hs, const char *host, const char *config,
		     const char *section, const char *row)
{
	return !strcmp(hs->row, row) && !strcmp(hs->section, section) &&
	       !strcmp(hs->config, config) && !strcmp(hs->host, host);
}

static void slots_grow(struct history *h)
{
	size_t n = h->nslots ? h->nslots * 2 : 64;
	size_t *slots = xcalloc(n, sizeof(*slots));

	for (size_t i = 0; i < h->n; i++) {
		const struct history_series *hs = &h->series[i];
		size_t j = series_hash(hs->host, hs->config, hs->section, hs->row) & (n - 1);

		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = i + 1;
	}
	free(h->slots);
	h->slots = slots;
	h->nslots = n;
}

/* The series of group g of the current run, made if new. */
static struct history_series *series_for(struct builder *b, const struct group *g)
{
	struct history *h = b->h;
	struct history_series *hs;
	size_t j;

	if (2 * (h->n + 1) > h->nslots)
		slots_grow(h);
	for (j = series_hash(b->host, b->config, g->section, g->row) & (h->nslots - 1);
	     h->slots[j]; j = (j + 1) & (h->nslots - 1))
		if (series_is(&h->series[h->slots[j] - 1], b->host, b->config, g->section, g->row))
			return &h->series[h->slots[j] - 1];
	ALLOC_GROW(h->series, h->n + 1, h->alloc);
	hs = &h->series[h->n++];
	memset(hs, 0, sizeof(*hs));
	hs->host = xstrdup(b->host);
	hs->config = xstrdup(b->config);
	hs->section = xstrdup(g->section);
	hs->row = xstrdup(g->row);
	hs->unit = xstrdup(g->unit);
	hs->work = xstrdup("");
	hs->higher_better = g->higher_better;
	h->slots[j] = h->n;
	return hs;
}

/* t(0.975, df), computed once per df. */
static double t_quantile(struct builder *b, size_t df)
{
	if (df >= b->ntq) {
		size_t n = df + 16;

		b->tq = xreallocarray(b->tq, n, sizeof(*b->tq));
		memset(b->tq + b->ntq, 0, (n - b->ntq) * sizeof(*b->tq));
		b->ntq = n;
	}
	if (!b->tq[df])
		b->tq[df] = gsl_cdf_tdist_Qinv(0.025, (double)df);
	return b->tq[df];
}

/* The mean of the row's direction and the half-width of its 95% CI:
 * t(0.975, n-1) s / sqrt(n) for Amean; for Hmean the same on 1/x, carried
 * to the scale of x by the delta method (H^2 times). */
static void point_stats(struct builder *b, const double *x, size_t n, int higher_better,
			double *mean, double *ci)
{
	double q;

	*ci = NAN;
	*mean = higher_better ? stats_hmean(x, n) : stats_amean(x, n);
	if (n < 2 || isnan(*mean))
		return;
	q = t_quantile(b, n - 1);
	if (higher_better) {
		double *inv = xcalloc(n, sizeof(*inv));

		for (size_t i = 0; i < n; i++)
			inv[i] = 1 / x[i];
		*ci = q * stats_stddev(inv, n) / sqrt((double)n) * *mean * *mean;
		free(inv);
	} else {
		*ci = q * stats_stddev(x, n) / sqrt((double)n);
	}
}

/* Turn the rows of the run read into points of their series. */
static void flush_run(struct builder *b)
{
	for (size_t i = 0; i < b->ngroups; i++) {
		struct group *g = &b->groups[i];
		struct history_series *hs = series_for(b, g);
		struct history_point *p;

		ALLOC_GROW(hs->points, hs->npoints + 1, hs->alloc);
		p = &hs->points[hs->npoints++];
		p->run_id = b->run_id;
		p->uuid = b->uuid;
		p->run_name = b->run_name;
		p->kernel_release = b->kernel;
		p->started_at = b->started_at;
		p->config_text = p->options = p->values = NULL;
		p->n = g->n;
		point_stats(b, g->values, g->n, hs->higher_better, &p->mean, &p->ci95);
		p->best = g->values[0];
		for (size_t k = 1; k < g->n; k++)
			p->best = hs->higher_better ? fmax(p->best, g->values[k])
						    : fmin(p->best, g->values[k]);
		free(g->section);
		free(g->row);
		free(g->unit);
		free(g->values);
	}
	b->ngroups = 0;
}

/* Copy the n strings src (NULL reads as "") into one block the history
 * owns, each *dst[i] pointing at its copy. */
static void history_keep_strings(struct history *h, const char *const *src, const char **const *dst,
				 size_t n)
{
	size_t len = 0;
	char *block, *p;

	for (size_t i = 0; i < n; i++)
		len += strlen(src[i] ? src[i] : "") + 1;
	block = p = xmalloc(len);
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(src[i] ? src[i] : "") + 1;

		memcpy(p, src[i] ? src[i] : "", l);
		*dst[i] = p;
		p += l;
	}
	ALLOC_GROW(h->run_strings, h->nrun_strings + 1, h->run_strings_alloc);
	h->run_strings[h->nrun_strings++] = block;
}

/* Keep the strings of run r in one block of the history. */
static void start_run(struct builder *b, const struct series_sample *r)
{
	const char *src[] = { r->uuid, r->run_name, r->hostname, r->config_name,
			      r->kernel_release, r->started_at };
	const char **dst[] = { &b->uuid, &b->run_name, &b->host, &b->config, &b->kernel,
			       &b->started_at };

	history_keep_strings(b->h, src, dst, 6);
	b->run_id = r->run_id;
}

static int add_sample(const struct series_sample *r, void *arg)
{
	struct builder *b = arg;
	struct group *g = NULL;

	if (!b->run_name || r->run_id != b->run_id) {
		flush_run(b);
		start_run(b, r);
	}
	/* A run has few rows: look from the last one added. */
	for (size_t i = b->ngroups; i-- > 0;)
		if (!strcmp(b->groups[i].row, r->row) && !strcmp(b->groups[i].section, r->section)) {
			g = &b->groups[i];
			break;
		}
	if (!g) {
		ALLOC_GROW(b->groups, b->ngroups + 1, b->groups_alloc);
		g = &b->groups[b->ngroups++];
		*g = (struct group){
			.section = xstrdup(r->section),
			.row = xstrdup(r->row),
			.unit = xstrdup(r->unit),
			.higher_better = r->higher_better,
		};
	}
	ALLOC_GROW(g->values, g->n + 1, g->alloc);
	g->values[g->n++] = r->value;
	return 0;
}

static int cmp_points(const void *a, const void *b)
{
	const struct history_point *x = a, *y = b;
	int c = strcmp(x->started_at, y->started_at);

	if (c)
		return c;
	return (x->run_id > y->run_id) - (x->run_id < y->run_id);
}

/* Change points of one series, found on the points that have a value. */
static void series_detect(const struct history *h, struct history_series *hs)
{
	double *x = xcalloc(hs->npoints ? hs->npoints : 1, sizeof(*x));
	size_t *at = xcalloc(hs->npoints ? hs->npoints : 1, sizeof(*at));
	size_t n = 0;

	for (size_t i = 0; i < hs->npoints; i++) {
		x[n] = history_point_value(h, &hs->points[i]);
		if (isfinite(x[n]))
			at[n++] = i;
	}
	changepoint_detect(x, n, &h->params, &hs->cps, &hs->ncps);
	for (size_t i = 0; i < hs->ncps; i++)
		hs->cps[i].index = at[hs->cps[i].index];
	free(x);
	free(at);
}

void history_init(struct history *h, const struct changepoint_params *params)
{
	memset(h, 0, sizeof(*h));
	h->params = *params;
	h->stat = HISTORY_STAT_BEST;
}

/* --statistic's words, by enum history_stat. */
static const char *const stat_options[] = {
	[HISTORY_STAT_BEST] = "best",
	[HISTORY_STAT_MEAN] = "mean",
};

int history_stat_parse(const char *name, enum history_stat *stat)
{
	for (size_t i = 0; i < sizeof(stat_options) / sizeof(stat_options[0]); i++)
		if (!strcmp(name, stat_options[i])) {
			*stat = (enum history_stat)i;
			return 0;
		}
	return error("invalid --statistic '%s': expected best (each run's best sample) or mean",
		     name);
}

const char *history_stat_option(const struct history *h)
{
	return stat_options[h->stat];
}

const char *history_mean_name(const struct history_series *hs)
{
	return hs->higher_better ? "Hmean" : "Amean";
}

const char *history_best_name(const struct history_series *hs)
{
	return hs->higher_better ? "Max" : "Min";
}

const char *history_stat_name(const struct history *h, const struct history_series *hs)
{
	return h->stat == HISTORY_STAT_MEAN ? history_mean_name(hs) : history_best_name(hs);
}

double history_point_value(const struct history *h, const struct history_point *p)
{
	/* A run's best sample is a value only where its mean is (Hmean is
	 * undefined with a sample <= 0, and so is the run). */
	if (!isfinite(p->mean))
		return NAN;
	return h->stat == HISTORY_STAT_MEAN ? p->mean : p->best;
}

/* What the runs read measured: their work strings, in order of id. */
struct works {
	struct history *h;
	struct run_work *v;
	size_t n, alloc;
};

static int add_work(const struct run_work *w, void *arg)
{
	struct works *ws = arg;
	struct run_work *rw;
	const char *src[] = { w->config_text, w->options, w->values, w->kind };

	ALLOC_GROW(ws->v, ws->n + 1, ws->alloc);
	rw = &ws->v[ws->n++];
	rw->run_id = w->run_id;
	history_keep_strings(ws->h, src, (const char **[]){ &rw->config_text, &rw->options,
							   &rw->values, &rw->kind }, 4);
	return 0;
}

static int cmp_work_id(const void *key, const void *elt)
{
	int64_t id = *(const int64_t *)key, other = ((const struct run_work *)elt)->run_id;

	return (id > other) - (id < other);
}

/* Give each point of h that lacks them its run's work strings, read from
 * the store for the runs of f ("" for a run that completed since its
 * samples were read). Returns 0, or -1 after printing why. */
static int read_work(struct store *s, const struct series_filter *f, struct history *h)
{
	struct works ws = { .h = h };
	int rc = store_each_run_work(s, f, add_work, &ws);

	for (size_t i = 0; !rc && i < h->n; i++)
		for (size_t k = 0; k < h->series[i].npoints; k++) {
			struct history_point *p = &h->series[i].points[k];
			const struct run_work *rw;

			if (p->config_text)
				continue;
			rw = bsearch(&p->run_id, ws.v, ws.n, sizeof(*ws.v), cmp_work_id);
			p->config_text = rw ? rw->config_text : "";
			p->options = rw ? rw->options : "";
			p->values = rw ? rw->values : "";
			p->kind = rw ? rw->kind : "";
		}
	free(ws.v);
	return rc;
}

int history_read(struct store *s, const struct series_filter *f, struct history *h)
{
	struct builder b = { .h = h };
	int rc;

	rc = store_each_series_sample(s, f, add_sample, &b);
	flush_run(&b);
	free(b.groups);
	free(b.tq);
	return rc ? rc : read_work(s, f, h);
}

/* Free the series of h and the index of them; h keeps its runs'
 * strings. */
static void history_release_series(struct history *h)
{
	for (size_t i = 0; i < h->n; i++) {
		struct history_series *hs = &h->series[i];

		free(hs->points);
		free(hs->cps);
		free(hs->host);
		free(hs->config);
		free(hs->section);
		free(hs->row);
		free(hs->unit);
		free(hs->work);
	}
	free(h->series);
	free(h->slots);
	h->series = NULL;
	h->n = h->alloc = 0;
	h->slots = NULL;
	h->nslots = 0;
}

static struct run_work point_work(const struct history_point *p)
{
	return (struct run_work){ .config_text = p->config_text, .options = p->options,
				  .values = p->values, .kind = p->kind };
}

/* The value of key (klen bytes) of section in values ("SECTION.KEY=VALUE"
 * lines), its length in *len; NULL when values has none. */
static const char *work_value(const char *values, const char *section, const char *key,
			      size_t klen, size_t *len)
{
	size_t slen = strlen(section);

	for (const char *l = values; *l;) {
		size_t n = strcspn(l, "\n");

		if (n > slen + klen + 1 && !strncmp(l, section, slen) && l[slen] == '.' &&
		    !strncmp(l + slen + 1, key, klen) && l[slen + 1 + klen] == '=') {
			*len = n - (slen + klen + 2);
			return l + slen + klen + 2;
		}
		l += n + (l[n] == '\n');
	}
	return NULL;
}

/* The values of the latest run of series hs. */
static const char *latest_values(const struct history_series *hs)
{
	return hs->points[hs->npoints - 1].values;
}

/* Whether the latest run of a series of parts[0..n-1] other than parts[i]
 * has key (klen bytes) of their section with a value other than v (vlen
 * bytes). */
static int value_differs(const struct history_series *parts, size_t n, size_t i,
			 const char *key, size_t klen, const char *v, size_t vlen)
{
	for (size_t k = 0; k < n; k++) {
		size_t olen;
		const char *ov;

		if (k == i)
			continue;
		ov = work_value(latest_values(&parts[k]), parts[i].section, key, klen, &olen);
		if (ov && (olen != vlen || strncmp(ov, v, vlen)))
			return 1;
	}
	return 0;
}

/* How many series of parts[0..n-1] other than parts[i] measured on the
 * kind of parts[i] (the runs of a series share theirs), and on another
 * one (*others). */
static size_t same_kind(const struct history_series *parts, size_t n, size_t i,
			size_t *others)
{
	size_t same = 0;

	*others = 0;
	for (size_t k = 0; k < n; k++) {
		if (k == i)
			continue;
		if (run_kinds_differ(parts[k].points[0].kind, parts[i].points[0].kind))
			++*others;
		else
			same++;
	}
	return same;
}

/* The work of each of the n series at parts, which share a host, config,
 * section and row: where its runs measured when some other series'
 * measured elsewhere ("native", "guest (TCG, 2 vCPUs, 512 MiB)"), then
 * the keys of the section whose value in its latest run some other
 * series' latest run has another value of, "KEY=VALUE, ...". When
 * neither tells it apart, its options, else its first run. */
static void label_parts(struct history_series *parts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct history_series *hs = &parts[i];
		size_t slen = strlen(hs->section);
		struct strbuf sb = STRBUF_INIT;
		size_t others, same = same_kind(parts, n, i, &others), kind_len;

		if (others)
			run_kind_describe(hs->points[0].kind, &sb);
		kind_len = sb.len;
		for (const char *l = latest_values(hs); *l;) {
			size_t len = strcspn(l, "\n"), eq = strcspn(l, "=");

			/* "SECTION.KEY=VALUE" of the series' section */
			if (eq < len && eq > slen + 1 && !strncmp(l, hs->section, slen) &&
			    l[slen] == '.' &&
			    value_differs(parts, n, i, l + slen + 1, eq - slen - 1, l + eq + 1,
					  len - eq - 1))
				strbuf_addf(&sb, "%s%.*s", sb.len ? ", " : "",
					    (int)(len - slen - 1), l + slen + 1);
			l += len + (l[len] == '\n');
		}
		if (sb.len == kind_len && (!kind_len || same))
			for (const char *o = hs->points[0].options; *o;) {
				size_t len = strcspn(o, "\n");

				strbuf_addf(&sb, "%s%.*s", sb.len ? ", " : "", (int)len, o);
				o += len + (o[len] == '\n');
			}
		if (!sb.len)
			strbuf_addf(&sb, "as run %s", hs->points[0].run_name);
		free(hs->work);
		hs->work = strbuf_detach(&sb);
	}
}

/* Series hs, its points in time order, as the series of the runs that
 * measured the same work, appended to *out: each run joins the one whose
 * latest run did the same work as it (the latest such), else starts
 * one. hs is left empty. */
static void split_by_work(struct history_series *hs, struct history_series **out, size_t *n,
			  size_t *alloc)
{
	size_t first = *n;

	for (size_t i = 0; i < hs->npoints; i++) {
		const struct history_point *p = &hs->points[i];
		const struct run_work pw = point_work(p);
		struct history_series *to = NULL;

		for (size_t k = first; k < *n; k++) {
			struct history_series *o = &(*out)[k];
			const struct history_point *last = &o->points[o->npoints - 1];
			const struct run_work lw = point_work(last);

			if (!run_work_differs(&lw, &pw, hs->section) &&
			    (!to || cmp_points(last, &to->points[to->npoints - 1]) > 0))
				to = o;
		}
		if (!to) {
			ALLOC_GROW(*out, *n + 1, *alloc);
			to = &(*out)[(*n)++];
			*to = (struct history_series){
				.host = xstrdup(hs->host), .config = xstrdup(hs->config),
				.section = xstrdup(hs->section), .row = xstrdup(hs->row),
				.unit = xstrdup(hs->unit), .work = xstrdup(""),
				.higher_better = hs->higher_better,
			};
		}
		ALLOC_GROW(to->points, to->npoints + 1, to->alloc);
		to->points[to->npoints++] = *p;
	}
	if (*n - first > 1)
		label_parts(*out + first, *n - first);
}

void history_finish(struct history *h)
{
	struct history_series *series = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < h->n; i++) {
		struct history_series *hs = &h->series[i];

		qsort(hs->points, hs->npoints, sizeof(*hs->points), cmp_points);
		split_by_work(hs, &series, &n, &alloc);
	}
	history_release_series(h);
	h->series = series;
	h->n = n;
	h->alloc = alloc;
	for (size_t i = 0; i < h->n; i++)
		series_detect(h, &h->series[i]);
}

void history_release(struct history *h)
{
	history_release_series(h);
	for (size_t i = 0; i < h->nrun_strings; i++)
		free(h->run_strings[i]);
	free(h->run_strings);
	memset(h, 0, sizeof(*h));
}

double history_change_pct(const struct history_series *hs, const struct changepoint *cp)
{
	return hs->higher_better ? stats_pdiff(cp->mean_after, cp->mean_before)
				 : stats_pndiff(cp->mean_after, cp->mean_before);
}

int history_change_worse(const struct history_series *hs, const struct changepoint *cp)
{
	return hs->higher_better ? cp->mean_after < cp->mean_before
				 : cp->mean_after > cp->mean_before;
}

int history_params_parse(const char *pvalue, const char *window, const char *min_change,
			 struct changepoint_params *params)
{
	char *end;

	if (min_change) {
		double pct = strtod(min_change, &end);

		if (!*min_change || *end || !(pct >= 0 && pct < 1e6))
			return error("invalid --min-change '%s': expected a percentage, 0 or more "
				     "(e.g. 5)", min_change);
		params->min_magnitude = pct / 100;
	}

	if (pvalue) {
		double p = strtod(pvalue, &end);

		if (!*pvalue || *end || !(p > 0 && p < 1))
			return error("invalid --p-value '%s': expected a number between 0 and 1",
				     pvalue);
		params->max_pvalue = p;
	}
	if (window) {
		long w = strtol(window, &end, 10);

		if (!*window || *end || w < 2 || w > 100000)
			return error("invalid --window '%s': expected a whole number of runs, "
				     "at least 2", window);
		params->window = (size_t)w;
	}
	return 0;
}

size_t history_regressions(const struct history *h, const char *since,
			   struct history_regression **out)
{
	size_t n = 0, alloc = 0;

	*out = NULL;
	for (size_t i = 0; i < h->n; i++) {
		const struct history_series *hs = &h->series[i];

		for (size_t k = hs->ncps; k-- > 0;) {
			const struct changepoint *cp = &hs->cps[k];

			if (since && strcmp(hs->points[cp->index].started_at, since) < 0)
				break;
			if (!history_change_worse(hs, cp))
				continue;
			ALLOC_GROW(*out, n + 1, alloc);
			(*out)[n++] = (struct history_regression){ .series = hs, .cp = cp };
			break;
		}
	}
	return n;
}

static int same_row(const struct history_series *a, const struct history_series *b)
{
	return series_is(a, b->host, b->config, b->section, b->row);
}

size_t history_work_changes(const struct history *h, const char *since,
			    struct history_work_change **out)
{
	size_t n = 0, alloc = 0;

	*out = NULL;
	for (size_t i = 0, end; i < h->n; i = end) {
		const struct history_series *last;
		struct history_work_change c = { .before = NULL };

		for (end = i + 1; end < h->n && same_row(&h->series[i], &h->series[end]); end++)
			;
		if (end - i < 2)
			continue;
		/* The newest series of the row (they are in order of their
		 * first run), and the run before its first among the others. */
		last = &h->series[end - 1];
		c.after_series = last;
		c.after = &last->points[0];
		for (size_t j = i; j < end - 1; j++) {
			const struct history_series *hs = &h->series[j];

			for (size_t k = hs->npoints; k-- > 0;)
				if (cmp_points(&hs->points[k], c.after) < 0) {
					if (!c.before || cmp_points(&hs->points[k], c.before) > 0) {
						c.before = &hs->points[k];
						c.before_series = hs;
					}
					break;
				}
		}
		if (!c.before || (since && strcmp(c.after->started_at, since) < 0))
			continue;
		ALLOC_GROW(*out, n + 1, alloc);
		(*out)[n++] = c;
	}
	return n;
}
