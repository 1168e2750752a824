/* bisect_monitors: the monitors (perf counters, vmstat, slab, rusage) of
 * a bisection's first bad commit against its parent's, as LKP's reports
 * list perf-stat deltas: per key of the bisected row, the mean per sample
 * of each side and the change, for the keys whose samples differ beyond
 * their noise (Welch's t-test). */
#include "config.h"
#include "views/bisect_monitors.h"
#include "compare/stats.h"
#include "db/store.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One key's values per sample, of each side. */
struct mkey {
	char *source, *key;
	double *v[2];
	size_t n[2], alloc[2];
};

struct mkeys {
	struct mkey *k;
	size_t n, alloc;
	const char *section, *row;
	int side;
};

static void add_value(struct mkeys *m, const struct monitor_row *r, int side)
{
	struct mkey *k = NULL;

	/* Per-sample values only: a section's snapshot (iteration 0) and a
	 * level read before or after are not a sample's figure. */
	if (r->iteration <= 0 || strcmp(r->section, m->section) || strcmp(r->row, m->row) ||
	    r->kind == MONITOR_KIND_BEFORE || r->kind == MONITOR_KIND_AFTER || !isfinite(r->value))
		return;
	for (size_t i = 0; i < m->n && !k; i++)
		if (!strcmp(m->k[i].source, r->source) && !strcmp(m->k[i].key, r->key))
			k = &m->k[i];
	if (!k) {
		ALLOC_GROW(m->k, m->n + 1, m->alloc);
		k = &m->k[m->n++];
		memset(k, 0, sizeof(*k));
		k->source = xstrdup(r->source);
		k->key = xstrdup(r->key);
	}
	ALLOC_GROW(k->v[side], k->n[side] + 1, k->alloc[side]);
	k->v[side][k->n[side]++] = r->value;
}

static int add_stored(const struct monitor_row *r, void *arg)
{
	struct mkeys *m = arg;

	add_value(m, r, m->side);
	return 0;
}

static void mkeys_release(struct mkeys *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->k[i].source);
		free(m->k[i].key);
		free(m->k[i].v[0]);
		free(m->k[i].v[1]);
	}
	free(m->k);
}

static void rule(struct strbuf *out)
{
	strbuf_addf(out, "(a key is listed when Welch's t-test on its values per sample, %d "
		    "or more a side, gives p < %g; the change is the culprit's mean against "
		    "its parent's, + more)", STATS_MIN_SAMPLES, BISECT_MONITOR_ALPHA);
}

/* The keys of m with both sides, tested; the table of those that
 * changed. */
static int table(const struct mkeys *m, const char *base_name, const char *new_name,
		 struct strbuf *out)
{
	struct strbuf rows = STRBUF_INIT;
	size_t tested = 0, changed = 0;

	for (size_t i = 0; i < m->n; i++) {
		const struct mkey *k = &m->k[i];
		double t, df, p, mb, mn, pct;

		if (k->n[0] < STATS_MIN_SAMPLES || k->n[1] < STATS_MIN_SAMPLES)
			continue;
		tested++;
		mb = stats_amean(k->v[0], k->n[0]);
		mn = stats_amean(k->v[1], k->n[1]);
		if (mb == mn || stats_welch(k->v[0], k->n[0], k->v[1], k->n[1], &t, &df, &p) ||
		    !(p < BISECT_MONITOR_ALPHA))
			continue;
		changed++;
		pct = mb != 0 ? (mn - mb) / fabs(mb) * 100 : NAN;
		strbuf_addf(&rows, "  %14.6g %14.6g ", mb, mn);
		if (isfinite(pct))
			strbuf_addf(&rows, "%+9.1f%%", pct);
		else
			strbuf_addf(&rows, "%10s", "new");
		strbuf_addf(&rows, "  %.2g  %s.%s\n", p, k->source, k->key);
	}
	if (!tested) {
		strbuf_addf(out, "No monitor key has %d samples a side to compare.\n",
			    STATS_MIN_SAMPLES);
	} else if (!changed) {
		if (tested == 1)
			strbuf_addstr(out, "The one monitor key compared did not change beyond its "
				      "noise ");
		else
			strbuf_addf(out, "None of the %zu monitor keys compared changed beyond "
				    "its noise ", tested);
		rule(out);
		strbuf_addstr(out, ".\n");
	} else {
		strbuf_addf(out, "%zu of the %zu monitor key%s compared changed beyond their "
			    "noise ", changed, tested, tested == 1 ? "" : "s");
		rule(out);
		strbuf_addf(out, ":\n\n  %14s %14s %10s  %-6s %s\n", base_name, new_name, "change",
			    "p", "monitor");
		strbuf_add(out, rows.buf, rows.len);
	}
	strbuf_release(&rows);
	return (int)changed;
}

/* What m holds, said: none recorded, or the table. */
static int finish(const struct mkeys *m, const char *base_name, const char *new_name,
		  struct strbuf *out)
{
	if (!m->n) {
		strbuf_addstr(out, "No monitors were recorded for these runs (a run in a QEMU guest "
			      "records none: docs/vm.md).\n");
		return 0;
	}
	return table(m, base_name, new_name, out);
}

int bisect_monitor_changes(const struct monitor_row *base, size_t nbase,
			   const struct monitor_row *new_rows, size_t nnew, const char *section,
			   const char *row, const char *base_name, const char *new_name,
			   struct strbuf *out)
{
	struct mkeys m = { .section = section, .row = row };
	int rc;

	for (size_t i = 0; i < nbase; i++)
		add_value(&m, &base[i], 0);
	for (size_t i = 0; i < nnew; i++)
		add_value(&m, &new_rows[i], 1);
	rc = finish(&m, base_name, new_name, out);
	mkeys_release(&m);
	return rc;
}

int bisect_monitor_text(struct store *s, int64_t base_run, int64_t new_run, const char *section,
			const char *row, const char *base_name, const char *new_name,
			struct strbuf *out)
{
	struct mkeys m = { .section = section, .row = row };
	int rc = -1;

	if (store_each_monitor(s, base_run, add_stored, &m) < 0)
		goto out;
	m.side = 1;
	if (store_each_monitor(s, new_run, add_stored, &m) < 0)
		goto out;
	rc = finish(&m, base_name, new_name, out);
out:
	mkeys_release(&m);
	return rc;
}
