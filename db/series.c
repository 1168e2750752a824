/* series: what the store holds of runs over time: a metric's samples
 * over the runs of a host and config (history, the between-run noise),
 * the work a run measured (its effective options that change it), each
 * run's per-row summaries, and the recent runs of a machine. */
#include "config.h"
#include "db/store.h"
#include "db/internal.h"
#include "db/series.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

static int series_sample_row(struct store *s, sqlite3_stmt *st, void *ctx)
{
	const struct row_cb *c = ctx;
	const char *better = (const char *)sqlite3_column_text(st, 10);
	const char *unit = (const char *)sqlite3_column_text(st, 9);
	const char *config = (const char *)sqlite3_column_text(st, 4);
	const char *kernel = (const char *)sqlite3_column_text(st, 5);
	struct series_sample r = {
		.run_id = sqlite3_column_int64(st, 0),
		.uuid = (const char *)sqlite3_column_text(st, 1),
		.run_name = (const char *)sqlite3_column_text(st, 2),
		.hostname = (const char *)sqlite3_column_text(st, 3),
		.config_name = config ? config : "",
		.kernel_release = kernel ? kernel : "",
		.started_at = (const char *)sqlite3_column_text(st, 6),
		.section = (const char *)sqlite3_column_text(st, 7),
		.row = (const char *)sqlite3_column_text(st, 8),
		.unit = unit ? unit : "",
		.higher_better = better && !strcmp(better, "higher"),
		.value = sqlite3_column_double(st, 11),
	};

	(void)s;
	return c->fn.series_sample(&r, c->arg) != 0;
}

int store_each_series_sample(struct store *s, const struct series_filter *f,
			     int (*cb)(const struct series_sample *r, void *arg), void *arg)
{
	struct row_cb c = { .fn.series_sample = cb, .arg = arg };
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc;

	strbuf_addstr(&sql, "SELECT r.id, r.uuid, r.name, m.hostname, r.config_name, "
		      "r.kernel_release, r.started_at, s.section, s.row, s.unit, s.better, "
		      "s.value FROM runs r JOIN machines m ON m.id = r.machine_id "
		      "JOIN samples s ON s.run_id = r.id WHERE r.status = 'complete' "
		      "AND s.warmup = 0");
	if (f->host)
		strbuf_addstr(&sql, " AND m.hostname = :host");
	if (f->config)
		strbuf_addstr(&sql, " AND r.config_name = :config");
	if (f->section)
		strbuf_addstr(&sql, " AND s.section = :section");
	if (f->row)
		strbuf_addstr(&sql, " AND s.row = :row");
	strbuf_addstr(&sql, " ORDER BY r.id");
	rc = store_prepare(s, sql.buf, &st);
	strbuf_release(&sql);
	if (rc)
		return -1;
	if (f->host)
		store_bind_text(st, sqlite3_bind_parameter_index(st, ":host"), f->host);
	if (f->config)
		store_bind_text(st, sqlite3_bind_parameter_index(st, ":config"), f->config);
	if (f->section)
		store_bind_text(st, sqlite3_bind_parameter_index(st, ":section"), f->section);
	if (f->row)
		store_bind_text(st, sqlite3_bind_parameter_index(st, ":row"), f->row);
	return store_step_rows(s, st, "cannot read the series", series_sample_row, &c);
}

/* Keys of the runner that change how often or how a run measures, not
 * what each sample measures: an override of one of them leaves a run in
 * the same series. */
static const char *const runner_only_keys[] = {
	"iterations", "warmup", "timeout", "rounds", "sample_order", "seed", "ci_target",
	"min_iterations", "max_iterations", "monitors", "perf_events", "order",
};

/* SQL for the effective options of run `id_expr` that the config text
 * does not hold and that change the work: the -o overrides (but of the
 * runner-only keys) and an A/B arm's keys (but its description), sorted,
 * one "KEY=VALUE" a line; NULL when none. */
static void work_options_sql(struct strbuf *sql, const char *id_expr)
{
	strbuf_addf(sql, "(SELECT group_concat(x, char(10)) FROM (SELECT CASE WHEN k.key = "
		    "'override' THEN k.value ELSE substr(k.key, 5) || '=' || ifnull(k.value, '') "
		    "END AS x FROM run_meta k WHERE k.run_id = %s AND k.section = '' AND "
		    "((k.key LIKE 'arm %%' AND k.key <> 'arm description') OR (k.key = 'override'",
		    id_expr);
	for (size_t i = 0; i < sizeof(runner_only_keys) / sizeof(runner_only_keys[0]); i++)
		strbuf_addf(sql, " AND k.value NOT LIKE '%s=%%' AND k.value NOT LIKE '%%.%s=%%'",
			    runner_only_keys[i], runner_only_keys[i]);
	strbuf_addstr(sql, ")) ORDER BY x))");
}

/* The facts of the run's own section that say where it measured: kbench
 * vm's accelerator, icount shift, vCPUs and memory. A native run has
 * none. */
static const char *const kind_keys[] = {
	"vm.accel", "vm.icount", "vm.memory_mib", "vm.vcpus",
};

/* SQL for where run `id_expr` measured: its kind_keys facts, sorted, one
 * "KEY=VALUE" a line; NULL for a native run. */
static void kind_sql(struct strbuf *sql, const char *id_expr)
{
	strbuf_addf(sql, "(SELECT group_concat(x, char(10)) FROM (SELECT k.key || '=' || "
		    "ifnull(k.value, '') AS x FROM run_meta k WHERE k.run_id = %s AND "
		    "k.section = '' AND k.key IN (", id_expr);
	for (size_t i = 0; i < sizeof(kind_keys) / sizeof(kind_keys[0]); i++)
		strbuf_addf(sql, "%s'%s'", i ? ", " : "", kind_keys[i]);
	strbuf_addstr(sql, ") ORDER BY x))");
}

/* The one text value that the SQL sql_of writes for run `run_id`,
 * appended to out with `end` after it (nothing when NULL). Return 0, or
 * -1 after saying it cannot read `what`. */
static int read_run_text(struct store *s, int64_t run_id,
			 void (*sql_of)(struct strbuf *sql, const char *id_expr), const char *end,
			 const char *what, struct strbuf *out)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc;

	strbuf_addstr(&sql, "SELECT ");
	sql_of(&sql, "?1");
	rc = store_prepare(s, sql.buf, &st);
	strbuf_release(&sql);
	if (rc)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		strbuf_addf(out, "%s%s", (const char *)sqlite3_column_text(st, 0), end);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_error(s, what);
	return 0;
}

int store_run_work_options(struct store *s, int64_t run_id, struct strbuf *out)
{
	return read_run_text(s, run_id, work_options_sql, "",
			     "cannot read the run's effective options", out);
}

/* SQL for the effective values of run `id_expr`'s sections that change
 * the work (all keys but the runner-only ones), sorted, one
 * "SECTION.KEY=VALUE" a line; NULL when none. */
static void work_values_sql(struct strbuf *sql, const char *id_expr)
{
	strbuf_addf(sql, "(SELECT group_concat(x, char(10)) FROM (SELECT v.section || '.' || "
		    "v.key || '=' || ifnull(v.value, '') AS x FROM run_meta v WHERE v.run_id = %s "
		    "AND v.section <> '' AND v.key NOT IN (", id_expr);
	for (size_t i = 0; i < sizeof(runner_only_keys) / sizeof(runner_only_keys[0]); i++)
		strbuf_addf(sql, "%s'%s'", i ? ", " : "", runner_only_keys[i]);
	strbuf_addstr(sql, ") ORDER BY x))");
}

int store_run_work_values(struct store *s, int64_t run_id, struct strbuf *out)
{
	return read_run_text(s, run_id, work_values_sql, "\n",
			     "cannot read the run's effective values", out);
}

int store_run_kind(struct store *s, int64_t run_id, struct strbuf *out)
{
	return read_run_text(s, run_id, kind_sql, "", "cannot read where the run measured",
			     out);
}

static const char *text_or_empty(sqlite3_stmt *st, int col)
{
	const char *t = (const char *)sqlite3_column_text(st, col);

	return t ? t : "";
}

static int run_work_row(struct store *s, sqlite3_stmt *st, void *ctx)
{
	const struct row_cb *c = ctx;
	const struct run_work w = {
		.run_id = sqlite3_column_int64(st, 0),
		.config_text = text_or_empty(st, 1),
		.options = text_or_empty(st, 2),
		.values = text_or_empty(st, 3),
		.kind = text_or_empty(st, 4),
	};

	(void)s;
	return c->fn.run_work(&w, c->arg) != 0;
}

int store_each_run_work(struct store *s, const struct series_filter *f,
			int (*cb)(const struct run_work *w, void *arg), void *arg)
{
	struct row_cb c = { .fn.run_work = cb, .arg = arg };
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc;

	strbuf_addstr(&sql, "SELECT r.id, r.config_text, ");
	work_options_sql(&sql, "r.id");
	strbuf_addstr(&sql, ", ");
	work_values_sql(&sql, "r.id");
	strbuf_addstr(&sql, ", ");
	kind_sql(&sql, "r.id");
	strbuf_addstr(&sql, " FROM runs r JOIN machines m ON m.id = r.machine_id "
		      "WHERE r.status = 'complete'");
	if (f->host)
		strbuf_addstr(&sql, " AND m.hostname = :host");
	if (f->config)
		strbuf_addstr(&sql, " AND r.config_name = :config");
	strbuf_addstr(&sql, " ORDER BY r.id");
	rc = store_prepare(s, sql.buf, &st);
	strbuf_release(&sql);
	if (rc)
		return -1;
	if (f->host)
		store_bind_text(st, sqlite3_bind_parameter_index(st, ":host"), f->host);
	if (f->config)
		store_bind_text(st, sqlite3_bind_parameter_index(st, ":config"), f->config);
	return store_step_rows(s, st, "cannot read what the runs measured", run_work_row, &c);
}

/* One run's samples of one row (and round), summed as they are read. */
struct row_sums {
	char *section, *row, *unit;
	int round, higher_better;
	int64_t first;		/* the rowid of its first sample */
	int64_t n;
	double sum, sumsq, min, inv_sum, inv_sumsq;
};

struct run_sums {
	struct row_sums *v;
	size_t n, alloc, hint;
};

static int by_first_sample(const void *a, const void *b)
{
	const struct row_sums *x = a, *y = b;

	return (x->first > y->first) - (x->first < y->first);
}

static struct row_sums *row_sums_of(struct run_sums *rs, const char *section, const char *row,
				    int round, int64_t rowid)
{
	struct row_sums *g;

	/* A run's samples of a row mostly come one after another. */
	for (size_t k = 0; k < rs->n; k++) {
		g = &rs->v[(rs->hint + k) % rs->n];
		if (g->round == round && !strcmp(g->row, row) && !strcmp(g->section, section)) {
			rs->hint = (size_t)(g - rs->v);
			return g;
		}
	}
	ALLOC_GROW(rs->v, rs->n + 1, rs->alloc);
	g = &rs->v[rs->n];
	*g = (struct row_sums){ .section = xstrdup(section), .row = xstrdup(row),
				.round = round, .first = rowid, .min = INFINITY };
	rs->hint = rs->n++;
	return g;
}

static void run_sums_clear(struct run_sums *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		free(rs->v[i].section);
		free(rs->v[i].row);
		free(rs->v[i].unit);
	}
	rs->n = rs->hint = 0;
}

/* Summarise run r's samples (st: its samples, bound and reset by the
 * caller) per row, and per round when it has 3 rounds or more, and hand
 * each summary to cb in the order of its first sample. Returns 0, 1 when
 * cb stopped, or -1. The sums are those the SQL aggregates gave (m2 =
 * sum x^2 - n mean^2, which loses digits only for spreads below 1e-6 of
 * the mean), read in one pass over the run's samples in the index's
 * order: no sort of the samples, whose cost grew with the series. */
static int summarise_run(struct store *s, sqlite3_stmt *st, struct run_row_summary *r,
			 int by_round, struct run_sums *rs,
			 int (*cb)(const struct run_row_summary *r, void *arg), void *arg)
{
	int rc, stop = 0;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *section = (const char *)sqlite3_column_text(st, 0);
		const char *row = (const char *)sqlite3_column_text(st, 1);
		const char *unit = (const char *)sqlite3_column_text(st, 3);
		double x = sqlite3_column_double(st, 5);
		struct row_sums *g = row_sums_of(rs, section ? section : "", row ? row : "",
						 by_round ? sqlite3_column_int(st, 2) : 0,
						 sqlite3_column_int64(st, 6));

		if (unit && (!g->unit || strcmp(unit, g->unit) > 0)) {
			free(g->unit);
			g->unit = xstrdup(unit);
		}
		g->higher_better |= sqlite3_column_int(st, 4);
		g->n++;
		g->sum += x;
		g->sumsq += x * x;
		if (x < g->min)
			g->min = x;
		g->inv_sum += 1.0 / x;
		g->inv_sumsq += 1.0 / (x * x);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_db_error(s, "cannot summarise the runs of a series");
	qsort(rs->v, rs->n, sizeof(*rs->v), by_first_sample);
	for (size_t i = 0; i < rs->n && !stop; i++) {
		const struct row_sums *g = &rs->v[i];
		double n = (double)g->n, mean = g->sum / n;

		r->section = g->section;
		r->row = g->row;
		r->unit = g->unit ? g->unit : "";
		r->higher_better = g->higher_better;
		r->n = g->n;
		r->mean = mean;
		r->m2 = g->sumsq - g->sum * mean;
		r->inv_mean = g->min > 0 ? g->inv_sum / n : NAN;
		r->inv_m2 = g->min > 0 ? g->inv_sumsq - g->inv_sum * r->inv_mean : NAN;
		stop = cb(r, arg) != 0;
	}
	run_sums_clear(rs);
	return stop;
}

int store_each_run_row_summary(struct store *s, const int64_t *run_ids, size_t n,
			       int series_runs,
			       int (*cb)(const struct run_row_summary *r, void *arg), void *arg)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL, *samples = NULL;
	struct run_sums rs = { .v = NULL };
	int rc;

	if (!n)
		return 0;
	strbuf_addstr(&sql, "WITH pick(id) AS (VALUES ");
	for (size_t i = 0; i < n; i++)
		strbuf_addstr(&sql, i ? ", (?)" : "(?)");
	strbuf_addstr(&sql, "), hist AS (SELECT r.* FROM runs r WHERE r.status = 'complete' AND ");
	if (series_runs > 0)
		/* The given runs, and the latest of each one's series: the
		 * cost of a comparison must not grow with the store. */
		strbuf_addf(&sql, "(r.id IN (SELECT id FROM pick) OR r.id IN (SELECT id FROM "
			    "(SELECT r2.id, row_number() OVER (PARTITION BY r2.machine_id, "
			    "r2.config_name ORDER BY r2.id DESC) AS recent FROM runs r2 "
			    "WHERE r2.status = 'complete' AND EXISTS (SELECT 1 FROM runs p JOIN "
			    "pick ON pick.id = p.id WHERE p.machine_id IS r2.machine_id AND "
			    "p.config_name IS r2.config_name)) WHERE recent <= %d))", series_runs);
	else
		strbuf_addstr(&sql, "r.id IN (SELECT id FROM pick)");
	/* The group: what a run measured. */
	strbuf_addstr(&sql, "), w AS MATERIALIZED (SELECT hist.*, ");
	work_options_sql(&sql, "hist.id");
	strbuf_addstr(&sql, " AS work, ");
	kind_sql(&sql, "hist.id");
	strbuf_addstr(&sql, " AS kind FROM hist");
	strbuf_addstr(&sql, ") SELECT id, dense_rank() OVER (ORDER BY machine_id, config_name, "
		      "config_text, work, kind, kernel_release, kernel_version, kernel_cmdline) "
		      "AS grp, "
		      "EXISTS (SELECT 1 FROM run_meta k WHERE k.run_id = w.id AND k.section = '' "
		      "AND k.key = 'calibration'), (SELECT max(x.round) FROM samples x WHERE "
		      "x.run_id = w.id AND x.warmup = 0) FROM w ORDER BY grp, id");
	rc = store_prepare(s, sql.buf, &st);
	strbuf_release(&sql);
	if (rc)
		return -1;
	for (size_t i = 0; i < n; i++)
		sqlite3_bind_int64(st, (int)i + 1, run_ids[i]);
	if (store_prepare(s, "SELECT section, row, round, unit, better = 'higher', value, rowid "
			  "FROM samples WHERE run_id = ? AND warmup = 0", &samples)) {
		sqlite3_finalize(st);
		return -1;
	}
	rc = 0;
	while (!rc) {
		struct run_row_summary r;
		int step = sqlite3_step(st);

		if (step != SQLITE_ROW) {
			if (step != SQLITE_DONE)
				rc = store_db_error(s, "cannot summarise the runs of a series");
			break;
		}
		memset(&r, 0, sizeof(r));
		r.run_id = sqlite3_column_int64(st, 0);
		r.group = sqlite3_column_int64(st, 1);
		r.calibration = sqlite3_column_int(st, 2);
		sqlite3_bind_int64(samples, 1, r.run_id);
		/* A run of 3 rounds or more: each round is a replicate. */
		rc = summarise_run(s, samples, &r, sqlite3_column_int(st, 3) >= 3, &rs, cb, arg);
	}
	run_sums_clear(&rs);
	free(rs.v);
	sqlite3_finalize(samples);
	sqlite3_finalize(st);
	return rc < 0 ? -1 : 0;
}

static int recent_run_row(struct store *s, sqlite3_stmt *st, void *ctx)
{
	const struct row_cb *c = ctx;
	const unsigned char *name = sqlite3_column_text(st, 1);

	(void)s;
	return c->fn.recent_run(sqlite3_column_int64(st, 0), name ? (const char *)name : "",
				c->arg) != 0;
}

int store_each_recent_run(struct store *s, const char *fingerprint, int64_t before, int limit,
			  int (*cb)(int64_t id, const char *config_name, void *arg), void *arg)
{
	struct row_cb c = { .fn.recent_run = cb, .arg = arg };
	sqlite3_stmt *st = NULL;

	if (store_prepare(s, "SELECT r.id, r.config_name FROM runs r, machines m "
		    "WHERE r.machine_id = m.id AND m.fingerprint = ?1 AND r.status = 'complete' "
		    "AND (?2 = 0 OR r.id < ?2) ORDER BY r.id DESC LIMIT ?3", &st))
		return -1;
	sqlite3_bind_text(st, 1, fingerprint, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, before);
	sqlite3_bind_int(st, 3, limit);
	return store_step_rows(s, st, "cannot look up the previous runs", recent_run_row, &c);
}
