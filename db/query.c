/* query: the read paths of the store: runs listed, fetched and resolved
 * from selectors; a run's samples, monitor values, failures and facts
 * streamed to callbacks. Readers never write. */
#include "config.h"
#include "db/store.h"
#include "db/internal.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return xstrdup(t ? (const char *)t : "");
}

void run_info_release(struct run_info *r)
{
	free(r->name);
	free(r->hostname);
	free(r->cpu_model);
	free(r->fingerprint);
	free(r->kernel_release);
	free(r->kernel_version);
	free(r->kernel_cmdline);
	free(r->config_name);
	free(r->config_text);
	free(r->kbench_version);
	free(r->started_at);
	free(r->finished_at);
	free(r->status);
	memset(r, 0, sizeof(*r));
}

#define RUN_COLUMNS \
	"r.id, r.uuid, r.name, m.hostname, m.cpu_model, m.cpus, m.cores, m.mem_bytes, " \
	"m.fingerprint, r.kernel_release, r.kernel_version, r.kernel_cmdline, " \
	"r.config_name, r.config_text, r.kbench_version, r.started_at, r.finished_at, " \
	"r.status, r.pid, " \
	"(SELECT count(*) FROM samples s WHERE s.run_id = r.id), " \
	"(SELECT count(*) FROM failures f WHERE f.run_id = r.id) " \
	"FROM runs r LEFT JOIN machines m ON m.id = r.machine_id "

/* A run still marked running whose writer is gone on this host was killed. */
static int writer_alive(const char *hostname, int64_t pid)
{
	char host[256] = "";

	if (pid <= 0)
		return 0;
	gethostname(host, sizeof(host) - 1);
	if (strcmp(host, hostname))
		return 1;	/* cannot tell for another host */
	return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

static void fill_run(sqlite3_stmt *st, struct run_info *r)
{
	const unsigned char *uuid = sqlite3_column_text(st, 1);

	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(st, 0);
	snprintf(r->uuid, sizeof(r->uuid), "%s", uuid ? (const char *)uuid : "");
	r->name = col_dup(st, 2);
	r->hostname = col_dup(st, 3);
	r->cpu_model = col_dup(st, 4);
	r->cpus = sqlite3_column_int(st, 5);
	r->cores = sqlite3_column_int(st, 6);
	r->mem_bytes = (uint64_t)sqlite3_column_int64(st, 7);
	r->fingerprint = col_dup(st, 8);
	r->kernel_release = col_dup(st, 9);
	r->kernel_version = col_dup(st, 10);
	r->kernel_cmdline = col_dup(st, 11);
	r->config_name = col_dup(st, 12);
	r->config_text = col_dup(st, 13);
	r->kbench_version = col_dup(st, 14);
	r->started_at = col_dup(st, 15);
	r->finished_at = col_dup(st, 16);
	r->status = col_dup(st, 17);
	if (!strcmp(r->status, "running") &&
	    !writer_alive(r->hostname, sqlite3_column_int64(st, 18))) {
		free(r->status);
		r->status = xstrdup("interrupted");
	}
	r->nsamples = sqlite3_column_int64(st, 19);
	r->nfailures = sqlite3_column_int64(st, 20);
}

int store_each_run(struct store *s, const struct run_filter *f,
		   int (*cb)(const struct run_info *r, void *arg), void *arg)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc, n = 0;

	strbuf_addstr(&sql, "SELECT " RUN_COLUMNS "WHERE 1");
	if (f && f->name)
		strbuf_addstr(&sql, " AND r.name = :name");
	if (f && f->host)
		strbuf_addstr(&sql, " AND m.hostname = :host");
	if (f && f->config)
		strbuf_addstr(&sql, " AND r.config_name = :config");
	if (f && f->since)
		strbuf_addstr(&sql, " AND r.started_at >= :since");
	if (f && f->limit > 0)
		strbuf_addstr(&sql, " AND r.id IN (SELECT id FROM runs ORDER BY id DESC LIMIT :limit)");
	strbuf_addstr(&sql, " ORDER BY r.id");
	rc = store_prepare(s, sql.buf, &st);
	strbuf_release(&sql);
	if (rc)
		return -1;
	if (f) {
		if (f->name)
			store_bind_text(st, sqlite3_bind_parameter_index(st, ":name"), f->name);
		if (f->host)
			store_bind_text(st, sqlite3_bind_parameter_index(st, ":host"), f->host);
		if (f->config)
			store_bind_text(st, sqlite3_bind_parameter_index(st, ":config"), f->config);
		if (f->since)
			store_bind_text(st, sqlite3_bind_parameter_index(st, ":since"), f->since);
		if (f->limit > 0)
			sqlite3_bind_int(st, sqlite3_bind_parameter_index(st, ":limit"), f->limit);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct run_info r;
		int stop;

		fill_run(st, &r);
		stop = cb(&r, arg);
		run_info_release(&r);
		n++;
		if (stop)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		sqlite3_finalize(st);
		return store_db_error(s, "cannot list runs");
	}
	sqlite3_finalize(st);
	return 0;
}

int store_get_run(struct store *s, int64_t run_id, struct run_info *out)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "SELECT " RUN_COLUMNS "WHERE r.id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		fill_run(st, out);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return error("%s: no run #%lld", s->path, (long long)run_id);
	return 0;
}

/* Run a query binding one text parameter; collect the integer column 0. */
static int collect_ids(struct store *s, const char *sql, const char *p1, const char *p2,
		       int64_t **ids, size_t *n)
{
	sqlite3_stmt *st = NULL;
	size_t alloc = 0;
	int rc;

	*n = 0;
	*ids = NULL;
	if (store_prepare(s, sql, &st))
		return -1;
	if (p1)
		store_bind_text(st, 1, p1);
	if (p2)
		store_bind_text(st, 2, p2);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ALLOC_GROW(*ids, *n + 1, alloc);
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_error(s, "cannot look up runs");
	return 0;
}

int store_runs_named(struct store *s, const char *name, int64_t **ids, size_t *n)
{
	return collect_ids(s, "SELECT id FROM runs WHERE name = ? AND status = 'complete' "
			   "ORDER BY id", name, NULL, ids, n);
}

int store_resolve_run(struct store *s, const char *sel, int64_t *run_id,
		      struct strbuf *err)
{
	int64_t *ids = NULL;
	size_t n = 0;
	int rc = -1;

	if (sel[0] == '#') {
		char *end;
		long long id = strtoll(sel + 1, &end, 10);

		if (!sel[1] || *end) {
			strbuf_addf(err, "invalid run id '%s': expected #NUMBER", sel);
			return -1;
		}
		if (collect_ids(s, "SELECT id FROM runs WHERE id = CAST(? AS INTEGER)",
				sel + 1, NULL, &ids, &n))
			goto out;
		if (!n) {
			strbuf_addf(err, "no run %s in %s", sel, s->path);
			goto out;
		}
		*run_id = id;
		rc = 0;
		goto out;
	}
	if (strchr(sel, '@')) {
		char *name = xstrdup(sel), *host = strrchr(name, '@');

		*host++ = '\0';
		rc = collect_ids(s, "SELECT r.id FROM runs r JOIN machines m ON m.id = r.machine_id "
				 "WHERE r.name = ? AND m.hostname = ? AND r.status = 'complete' "
				 "ORDER BY r.id DESC LIMIT 1", name, host, &ids, &n);
		free(name);
		if (rc)
			goto out;
		rc = -1;
		if (!n) {
			strbuf_addf(err, "no complete run named '%s' in %s", sel, s->path);
			goto out;
		}
		*run_id = ids[0];
		rc = 0;
		goto out;
	}
	/* A name first: names are what people type. */
	if (collect_ids(s, "SELECT id FROM runs WHERE name = ? AND status = 'complete' "
			"ORDER BY id DESC LIMIT 1", sel, NULL, &ids, &n))
		goto out;
	if (n) {
		*run_id = ids[0];
		rc = 0;
		goto out;
	}
	free(ids);
	ids = NULL;
	if (strlen(sel) >= 4 && strspn(sel, "0123456789abcdef-") == strlen(sel)) {
		struct strbuf like = STRBUF_INIT;

		strbuf_addf(&like, "%s%%", sel);
		rc = collect_ids(s, "SELECT id FROM runs WHERE uuid LIKE ? LIMIT 2",
				 like.buf, NULL, &ids, &n);
		strbuf_release(&like);
		if (rc)
			goto out;
		rc = -1;
		if (n == 1) {
			*run_id = ids[0];
			rc = 0;
			goto out;
		}
		if (n > 1) {
			strbuf_addf(err, "run uuid prefix '%s' is ambiguous: give more digits", sel);
			goto out;
		}
	}
	free(ids);
	ids = NULL;
	if (!collect_ids(s, "SELECT id FROM runs WHERE name = ? ORDER BY id DESC LIMIT 1",
			 sel, NULL, &ids, &n) && n)
		strbuf_addf(err, "run '%s' has no complete run (use #%lld to pick an "
			    "unfinished one)", sel, (long long)ids[0]);
	else
		strbuf_addf(err, "no run named '%s' in %s (see kbench runs)", sel, s->path);
out:
	free(ids);
	return rc;
}

int store_previous_run(struct store *s, int64_t run_id, int64_t *prev, int *found)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*found = 0;
	if (store_prepare(s, "SELECT p.id FROM runs p, runs r WHERE r.id = ?1 AND p.id < r.id "
		    "AND p.config_name = r.config_name AND p.machine_id = r.machine_id "
		    "AND p.status = 'complete' ORDER BY p.id DESC LIMIT 1", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*prev = sqlite3_column_int64(st, 0);
		*found = 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_error(s, "cannot look up the previous run");
	return 0;
}

int store_each_sample(struct store *s, int64_t run_id,
		      int (*cb)(const struct sample_row *r, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "SELECT section, workload, row, iteration, value, unit, better, "
		    "duration_ns, user_ns, sys_ns, flag FROM samples WHERE run_id = ? "
		    "ORDER BY rowid", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct sample_row r;
		const unsigned char *better = sqlite3_column_text(st, 6);

		r.section = (const char *)sqlite3_column_text(st, 0);
		r.workload = (const char *)sqlite3_column_text(st, 1);
		r.row = (const char *)sqlite3_column_text(st, 2);
		r.iteration = sqlite3_column_int(st, 3);
		r.value = sqlite3_column_double(st, 4);
		r.unit = (const char *)sqlite3_column_text(st, 5);
		r.higher_better = better && !strcmp((const char *)better, "higher");
		r.duration_ns = sqlite3_column_int64(st, 7);
		r.user_ns = sqlite3_column_int64(st, 8);
		r.sys_ns = sqlite3_column_int64(st, 9);
		r.flag = (const char *)sqlite3_column_text(st, 10);
		if (!r.unit)
			r.unit = "";
		if (cb(&r, arg))
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read samples");
	return 0;
}

/* The kind stored in column i; returns 0, or -1 after printing why (the
 * schema's CHECK should make that impossible). */
static int column_kind(struct store *s, sqlite3_stmt *st, int i, enum monitor_kind *kind)
{
	const char *name = (const char *)sqlite3_column_text(st, i);

	for (int k = 0; k < MONITOR_NKINDS; k++)
		if (name && !strcmp(name, monitor_kind_name(k))) {
			*kind = k;
			return 0;
		}
	return error("%s: unknown monitor value kind '%s'", s->path, name ? name : "(null)");
}

int store_each_monitor(struct store *s, int64_t run_id,
		       int (*cb)(const struct monitor_row *r, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc, bad = 0;

	if (store_prepare(s, "SELECT section, row, iteration, source, key, kind, value "
		    "FROM monitor_values WHERE run_id = ? ORDER BY rowid", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct monitor_row r;

		r.section = (const char *)sqlite3_column_text(st, 0);
		r.row = (const char *)sqlite3_column_text(st, 1);
		r.iteration = sqlite3_column_int(st, 2);
		r.source = (const char *)sqlite3_column_text(st, 3);
		r.key = (const char *)sqlite3_column_text(st, 4);
		if ((bad = column_kind(s, st, 5, &r.kind)))
			break;
		r.value = sqlite3_column_double(st, 6);
		if (cb(&r, arg))
			break;
	}
	sqlite3_finalize(st);
	if (bad)
		return -1;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read monitor values");
	return 0;
}

int store_each_monitor_summary(struct store *s, int64_t run_id,
			       int (*cb)(const struct monitor_summary *m, void *arg),
			       void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc, bad = 0;

	if (store_prepare(s, "SELECT section, row, source, key, kind, avg(value), min(value), "
		    "max(value), count(*) FROM monitor_values WHERE run_id = ? AND iteration > 0 "
		    "GROUP BY section, row, source, key, kind ORDER BY min(rowid)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct monitor_summary m;

		m.section = (const char *)sqlite3_column_text(st, 0);
		m.row = (const char *)sqlite3_column_text(st, 1);
		m.source = (const char *)sqlite3_column_text(st, 2);
		m.key = (const char *)sqlite3_column_text(st, 3);
		if ((bad = column_kind(s, st, 4, &m.kind)))
			break;
		m.mean = sqlite3_column_double(st, 5);
		m.min = sqlite3_column_double(st, 6);
		m.max = sqlite3_column_double(st, 7);
		m.n = sqlite3_column_int64(st, 8);
		if (cb(&m, arg))
			break;
	}
	sqlite3_finalize(st);
	if (bad)
		return -1;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_error(s, "cannot summarise monitor values");
	return 0;
}

int store_each_section_count(struct store *s, int64_t run_id,
			     int (*cb)(const struct section_count *c, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "SELECT section, count(*), count(nullif(flag, '')) FROM samples "
		    "WHERE run_id = ? GROUP BY section ORDER BY min(rowid)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct section_count c;

		c.section = (const char *)sqlite3_column_text(st, 0);
		c.samples = sqlite3_column_int64(st, 1);
		c.flagged = sqlite3_column_int64(st, 2);
		if (cb(&c, arg))
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_error(s, "cannot count samples");
	return 0;
}

int store_each_failure(struct store *s, int64_t run_id,
		       int (*cb)(const struct failure_row *r, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "SELECT section, row, iteration, reason FROM failures "
		    "WHERE run_id = ? ORDER BY rowid", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct failure_row r;

		r.section = (const char *)sqlite3_column_text(st, 0);
		r.row = (const char *)sqlite3_column_text(st, 1);
		r.iteration = sqlite3_column_int(st, 2);
		r.reason = (const char *)sqlite3_column_text(st, 3);
		if (cb(&r, arg))
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read failures");
	return 0;
}

int store_each_meta(struct store *s, int64_t run_id,
		    int (*cb)(const char *section, const char *key, const char *value, void *arg),
		    void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "SELECT section, key, value FROM run_meta WHERE run_id = ? ORDER BY rowid", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(st, 2);

		if (cb((const char *)sqlite3_column_text(st, 0),
		       (const char *)sqlite3_column_text(st, 1),
		       v ? (const char *)v : "", arg))
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read run facts");
	return 0;
}

/* A column that may be NULL, as a double (NaN for NULL). */
static double col_double(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

int store_each_run_row_summary(struct store *s, const int64_t *run_ids, size_t n,
			       int series_runs,
			       int (*cb)(const struct run_row_summary *r, void *arg), void *arg)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
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
	/* The group: what a run measured. One pass over the samples: the
	 * sums of squares come from raw moments (m2 = sum x^2 - n mean^2),
	 * which loses digits only for spreads below 1e-6 of the mean. */
	strbuf_addstr(&sql, "), g AS (SELECT id, dense_rank() OVER (ORDER BY machine_id, "
		      "config_name, config_text, kernel_release, kernel_version, kernel_cmdline) "
		      "AS grp, EXISTS (SELECT 1 FROM run_meta k WHERE k.run_id = hist.id AND "
		      "k.section = '' AND k.key = 'calibration') AS calib FROM hist) "
		      "SELECT s.run_id, g.grp, g.calib, s.section, s.row, max(s.unit), "
		      "max(s.better = 'higher'), count(*), avg(s.value), "
		      "sum(s.value * s.value) - sum(s.value) * avg(s.value), "
		      "CASE WHEN min(s.value) > 0 THEN avg(1.0 / s.value) END, "
		      "CASE WHEN min(s.value) > 0 THEN sum(1.0 / (s.value * s.value)) - "
		      "sum(1.0 / s.value) * avg(1.0 / s.value) END "
		      "FROM samples s JOIN g ON g.id = s.run_id "
		      "GROUP BY s.run_id, s.section, s.row ORDER BY g.grp, s.run_id, min(s.rowid)");
	rc = store_prepare(s, sql.buf, &st);
	strbuf_release(&sql);
	if (rc)
		return -1;
	for (size_t i = 0; i < n; i++)
		sqlite3_bind_int64(st, (int)i + 1, run_ids[i]);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct run_row_summary r = {
			.run_id = sqlite3_column_int64(st, 0),
			.group = sqlite3_column_int64(st, 1),
			.calibration = sqlite3_column_int(st, 2),
			.section = (const char *)sqlite3_column_text(st, 3),
			.row = (const char *)sqlite3_column_text(st, 4),
			.unit = (const char *)sqlite3_column_text(st, 5),
			.higher_better = sqlite3_column_int(st, 6),
			.n = sqlite3_column_int64(st, 7),
			.mean = col_double(st, 8),
			.m2 = col_double(st, 9),
			.inv_mean = col_double(st, 10),
			.inv_m2 = col_double(st, 11),
		};

		if (!r.unit)
			r.unit = "";
		if (cb(&r, arg))
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_error(s, "cannot summarise the runs of a series");
	return 0;
}
