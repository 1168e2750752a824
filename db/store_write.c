/* store_write: what a run writes into the store: its machine, the run
 * itself, its facts, each sample set with its monitor values (one
 * transaction a set), failures, notes, row results and what a fleet
 * collected. */
#include "config.h"
#include "db/store.h"
#include "db/internal.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "machine/sysinfo.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int machine_id(struct store *s, const struct machine_info *m, int64_t *id)
{
	struct strbuf what = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if (store_prepare(s, "INSERT INTO machines(hostname, cpu_model, cpus, cores, packages, "
		    "numa_nodes, mem_bytes, topology_xml, fingerprint) "
		    "VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT(fingerprint) DO NOTHING", &st))
		return -1;
	store_bind_text(st, 1, m->hostname);
	store_bind_text(st, 2, m->cpu_model);
	sqlite3_bind_int(st, 3, m->cpus);
	sqlite3_bind_int(st, 4, m->cores);
	sqlite3_bind_int(st, 5, m->packages);
	sqlite3_bind_int(st, 6, m->numa_nodes);
	sqlite3_bind_int64(st, 7, (sqlite3_int64)m->mem_bytes);
	store_bind_text(st, 8, m->topology_xml);
	store_bind_text(st, 9, m->fingerprint);
	strbuf_addf(&what, "cannot record the machine '%s'", m->hostname);
	if (store_step_done(s, st, what.buf))
		goto out;
	sqlite3_finalize(st);
	st = NULL;
	if (store_prepare(s, "SELECT id FROM machines WHERE fingerprint = ?", &st))
		goto out;
	store_bind_text(st, 1, m->fingerprint);
	if (sqlite3_step(st) != SQLITE_ROW) {
		store_db_error(s, what.buf);
		goto out;
	}
	*id = sqlite3_column_int64(st, 0);
	rc = 0;
out:
	sqlite3_finalize(st);
	strbuf_release(&what);
	return rc;
}

int store_begin_run(struct store *s, const struct machine_info *m,
		    const struct kernel_info *k, const struct run_record *r,
		    int64_t *run_id)
{
	struct strbuf what = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int64_t mid;
	int rc = -1;

	strbuf_addf(&what, "cannot record run '%s'", r->name);
	if (store_exec_locking(s, "BEGIN IMMEDIATE", what.buf))
		goto out;
	if (machine_id(s, m, &mid))
		goto out;
	if (store_prepare(s, "INSERT INTO runs(uuid, name, machine_id, kernel_release, "
		    "kernel_version, kernel_cmdline, config_name, config_text, "
		    "kbench_version, started_at, status, pid, boot_id, pid_start_ticks) "
		    "VALUES (?,?,?,?,?,?,?,?,?,?,'running',?,?,?)", &st))
		goto out;
	store_bind_text(st, 1, r->uuid);
	store_bind_text(st, 2, r->name);
	sqlite3_bind_int64(st, 3, mid);
	store_bind_text(st, 4, k->release);
	store_bind_text(st, 5, k->version);
	store_bind_text(st, 6, k->cmdline);
	store_bind_text(st, 7, r->config_name);
	store_bind_text(st, 8, r->config_text);
	store_bind_text(st, 9, r->kbench_version);
	store_bind_text(st, 10, r->started_at);
	if (r->writer) {
		sqlite3_bind_int64(st, 11, (sqlite3_int64)r->writer->pid);
		store_bind_text(st, 12, *r->writer->boot_id ? r->writer->boot_id : NULL);
		if (r->writer->start_ticks)
			sqlite3_bind_int64(st, 13, (sqlite3_int64)r->writer->start_ticks);
	} else {
		sqlite3_bind_int64(st, 11, (sqlite3_int64)getpid());
	}
	if (store_step_done(s, st, what.buf))
		goto out;
	*run_id = sqlite3_last_insert_rowid(s->db);
	if (r->facts && r->facts(s, *run_id, r->facts_arg))
		goto out;
	rc = store_exec(s, "COMMIT", what.buf);
out:
	sqlite3_finalize(st);
	if (rc) {
		store_rollback(s);
		*run_id = 0;	/* nothing of it was stored */
	}
	strbuf_release(&what);
	return rc;
}

int store_finish_run(struct store *s, int64_t run_id, const char *status,
		     const char *finished_at)
{
	struct strbuf what = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE runs SET status = ?, finished_at = ? WHERE id = ?", &st))
		return -1;
	store_bind_text(st, 1, status);
	store_bind_text(st, 2, finished_at);
	sqlite3_bind_int64(st, 3, run_id);
	strbuf_addf(&what, "cannot mark run @%lld %s", (long long)run_id, status);
	rc = store_step_done(s, st, what.buf);
	sqlite3_finalize(st);
	strbuf_release(&what);
	return rc;
}

int store_add_meta(struct store *s, int64_t run_id, const char *section,
		   const char *key, const char *value)
{
	struct strbuf what = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "INSERT INTO run_meta(run_id, section, key, value) VALUES (?,?,?,?)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	store_bind_text(st, 2, section ? section : "");
	store_bind_text(st, 3, key);
	store_bind_text(st, 4, value);
	strbuf_addf(&what, "cannot record '%s' of [%s] of run @%lld", key, section ? section : "",
		    (long long)run_id);
	rc = store_step_done(s, st, what.buf);
	sqlite3_finalize(st);
	strbuf_release(&what);
	return rc;
}

#define MONITOR_INSERT "INSERT INTO monitor_values(run_id, section, row, iteration, " \
	"source, key, kind, value) VALUES "
#define MONITOR_ROW "(?,?,?,?,?,?,?,?)"
#define MONITOR_COLS 8

/* The statements that store monitor values: one row, and a batch. */
static int prepare_monitor_inserts(struct store *s)
{
	struct strbuf sql = STRBUF_INIT;
	int rc = 0;

	if (!s->ins_monitor)
		rc = store_prepare(s, MONITOR_INSERT MONITOR_ROW, &s->ins_monitor);
	if (!rc && !s->ins_monitors) {
		strbuf_addstr(&sql, MONITOR_INSERT);
		for (int i = 0; i < STORE_MONITOR_BATCH; i++)
			strbuf_addstr(&sql, i ? "," MONITOR_ROW : MONITOR_ROW);
		rc = store_prepare(s, sql.buf, &s->ins_monitors);
	}
	strbuf_release(&sql);
	return rc;
}

/* Bind monitor value m of set as the row whose first parameter is base. */
static int bind_monitor(struct store *s, sqlite3_stmt *st, int base, int64_t run_id,
			const struct sample_set *set, const struct monitor_record *m)
{
	if (!monitor_kind_name(m->kind)) {
		s->last_error = STORE_ERROR_OTHER;
		return error("%s: BUG: monitor value '%s/%s' has no kind", s->path, m->source,
			     m->key);
	}
	sqlite3_bind_int64(st, base, run_id);
	sqlite3_bind_text(st, base + 1, set->section, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, base + 2, m->row, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, base + 3, set->iteration);
	sqlite3_bind_text(st, base + 4, m->source, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, base + 5, m->key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, base + 6, monitor_kind_name(m->kind), -1, SQLITE_STATIC);
	sqlite3_bind_double(st, base + 7, m->value);
	return 0;
}

/* Store set's monitor values, STORE_MONITOR_BATCH rows to a statement
 * while that many are left. The strings are bound without copies: they
 * outlive the steps. Return 0, or -1 after an error message. */
static int add_monitors(struct store *s, int64_t run_id, const struct sample_set *set,
			const char *what)
{
	size_t i = 0;

	while (i < set->nmonitors) {
		int batch = set->nmonitors - i >= STORE_MONITOR_BATCH;
		sqlite3_stmt *st = batch ? s->ins_monitors : s->ins_monitor;
		size_t n = batch ? STORE_MONITOR_BATCH : 1;
		int rc;

		for (size_t j = 0; j < n; j++)
			if (bind_monitor(s, st, (int)j * MONITOR_COLS + 1, run_id, set,
					 &set->monitors[i + j])) {
				sqlite3_clear_bindings(st);
				return -1;
			}
		rc = store_step_done(s, st, what);
		sqlite3_clear_bindings(st);
		if (rc)
			return -1;
		i += n;
	}
	return 0;
}

int store_add_sample_set(struct store *s, int64_t run_id, const struct sample_set *set)
{
	struct strbuf what = STRBUF_INIT;

	if (set->nsamples)
		strbuf_addf(&what, "cannot store %s %d of [%s] row %s",
			    set->warmup ? "warm-up" : "sample",
			    set->warmup ? -set->iteration : set->iteration, set->section,
			    set->samples[0].row);
	else
		strbuf_addf(&what, "cannot store the monitor values of [%s] (%s)", set->section,
			    set->nmonitors ? set->monitors[0].row : "none");
	if (!s->ins_sample &&
	    store_prepare(s, "INSERT INTO samples(run_id, section, workload, row, iteration, value, "
		    "unit, better, started_at, duration_ns, user_ns, sys_ns, flag, round, warmup) "
		    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", &s->ins_sample))
		goto fail;
	if (prepare_monitor_inserts(s))
		goto fail;
	if (store_exec_locking(s, "BEGIN IMMEDIATE", what.buf))
		goto fail;
	for (size_t i = 0; i < set->nsamples; i++) {
		const struct sample_record *r = &set->samples[i];
		sqlite3_stmt *st = s->ins_sample;

		sqlite3_bind_int64(st, 1, run_id);
		store_bind_text(st, 2, set->section);
		store_bind_text(st, 3, set->workload);
		store_bind_text(st, 4, r->row);
		sqlite3_bind_int(st, 5, set->iteration);
		sqlite3_bind_double(st, 6, r->value);
		store_bind_text(st, 7, r->unit);
		store_bind_text(st, 8, r->higher_better ? "higher" : "lower");
		sqlite3_bind_int64(st, 9, set->started_ns);
		sqlite3_bind_int64(st, 10, set->duration_ns);
		sqlite3_bind_int64(st, 11, set->user_ns);
		sqlite3_bind_int64(st, 12, set->sys_ns);
		store_bind_text(st, 13, set->flag);
		sqlite3_bind_int(st, 14, set->round > 0 ? set->round : 1);
		sqlite3_bind_int(st, 15, set->warmup != 0);
		if (store_step_done(s, st, what.buf))
			goto fail;
	}
	/* The run's count goes with the sample: a listing reads no sample. */
	if (set->nsamples && !set->warmup) {
		if (!s->count_sample &&
		    store_prepare(s, "UPDATE runs SET nsamples = nsamples + 1 WHERE id = ?",
				  &s->count_sample))
			goto fail;
		sqlite3_bind_int64(s->count_sample, 1, run_id);
		if (store_step_done(s, s->count_sample, what.buf))
			goto fail;
	}
	if (add_monitors(s, run_id, set, what.buf))
		goto fail;
	if (store_exec(s, "COMMIT", what.buf))
		goto fail;
	strbuf_release(&what);
	return 0;
fail:
	store_rollback(s);
	strbuf_release(&what);
	return -1;
}

int store_add_failure(struct store *s, int64_t run_id, const char *section,
		      const char *row, int iteration, const char *reason)
{
	struct strbuf what = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "INSERT INTO failures(run_id, section, row, iteration, reason, at) "
		    "VALUES (?,?,?,?,?,strftime('%Y-%m-%dT%H:%M:%SZ','now'))", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	store_bind_text(st, 2, section);
	store_bind_text(st, 3, row);
	sqlite3_bind_int(st, 4, iteration);
	store_bind_text(st, 5, reason);
	strbuf_addf(&what, "cannot record the failure of %s %d of [%s] row %s",
		    iteration < 0 ? "warm-up" : "sample", iteration < 0 ? -iteration : iteration,
		    section, row);
	rc = store_step_done(s, st, what.buf);
	sqlite3_finalize(st);
	strbuf_release(&what);
	return rc;
}

int store_set_note(struct store *s, int64_t run_id, const char *text, int append)
{
	sqlite3_stmt *st = NULL;
	int rc;

	/* Appending starts a new line, unless there is nothing to follow. */
	if (store_prepare(s, "UPDATE runs SET notes = CASE "
		    "WHEN ?2 AND ?1 = '' THEN notes "
		    "WHEN ?2 AND notes IS NOT NULL AND notes <> '' THEN notes || char(10) || ?1 "
		    "ELSE nullif(?1, '') END WHERE id = ?3", &st))
		return -1;
	store_bind_text(st, 1, text ? text : "");
	sqlite3_bind_int(st, 2, append != 0);
	sqlite3_bind_int64(st, 3, run_id);
	rc = store_step_done(s, st, "cannot write the run's note");
	sqlite3_finalize(st);
	if (!rc && sqlite3_changes(s->db) != 1)
		rc = error("%s: no run @%lld", s->path, (long long)run_id);
	return rc;
}

int store_fleet_add_collected(struct store *s, const struct fleet_collected *c)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "INSERT OR REPLACE INTO fleet_collected(source, path, size_bytes, "
		    "modified_at, collected_at, runs_added) VALUES (?, ?, ?, ?, ?, ?)", &st))
		return -1;
	store_bind_text(st, 1, c->source);
	store_bind_text(st, 2, c->path);
	if (c->size_bytes >= 0)
		sqlite3_bind_int64(st, 3, c->size_bytes);
	else
		sqlite3_bind_null(st, 3);
	store_bind_text(st, 4, c->modified_at);
	store_bind_text(st, 5, c->collected_at);
	sqlite3_bind_int64(st, 6, c->runs_added);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_error(s, "cannot record a collected bundle");
	return 0;
}

int store_add_row_result(struct store *s, int64_t run_id, const struct row_result *r)
{
	struct strbuf what = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "INSERT INTO row_results(run_id, section, row, round, iterations, "
			  "ci_target, ci_reached, met) VALUES (?,?,?,?,?,?,?,?)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	store_bind_text(st, 2, r->section);
	store_bind_text(st, 3, r->row);
	sqlite3_bind_int(st, 4, r->round);
	sqlite3_bind_int(st, 5, r->iterations);
	sqlite3_bind_double(st, 6, r->ci_target);
	if (isnan(r->ci_reached))
		sqlite3_bind_null(st, 7);
	else
		sqlite3_bind_double(st, 7, r->ci_reached);
	sqlite3_bind_int(st, 8, r->met != 0);
	strbuf_addf(&what, "cannot record how round %d of [%s] row %s ended", r->round,
		    r->section, r->row);
	rc = store_step_done(s, st, what.buf);
	sqlite3_finalize(st);
	strbuf_release(&what);
	return rc;
}
