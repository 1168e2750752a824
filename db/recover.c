/* recover: what lets a run go on after something stopped it: recovery
 * files (a store of the same schema holding what a run could not write
 * into its own, loaded back with `kbench recover`), and the reads and
 * writes that resume an interrupted or failed run in place. */
#include "config.h"
#include "db/store.h"
#include "db/internal.h"
#include "lib/error.h"
#include "lib/strbuf.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int exec(struct store *s, const char *sql, const char *what)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return store_db_error(s, what);
	return 0;
}

int store_create_recovery(const char *path, struct store **out)
{
	char pragma[64];

	if (store_open(path, out))
		return -1;
	/* One file, nothing beside it: it may be mailed or copied as it is. */
	snprintf(pragma, sizeof(pragma), "PRAGMA application_id = %d", STORE_RECOVERY_APP_ID);
	if (exec(*out, "PRAGMA journal_mode=DELETE", "cannot leave WAL mode") ||
	    exec(*out, pragma, "cannot mark the recovery file")) {
		store_close(*out);
		*out = NULL;
		return -1;
	}
	(*out)->wal = 0;
	return 0;
}

int store_save_copy(struct store *s, const char *path)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "VACUUM INTO ?", &st))
		return -1;
	sqlite3_bind_text(st, 1, path, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error("cannot write '%s': %s", path, sqlite3_errmsg(s->db));
	return 0;
}

/* Step a statement that returns one integer; -1 on no row or an error. */
static int64_t query_int(struct store *s, const char *sql, const char *what)
{
	sqlite3_stmt *st = NULL;
	int64_t v = -1;

	if (store_prepare(s, sql, &st))
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	else
		store_db_error(s, what);
	sqlite3_finalize(st);
	return v;
}

/* Is the attached `rec` a recovery file this build reads, holding one run? */
static int check_recovery_file(struct store *s, const char *path)
{
	int64_t app, version, runs;

	app = query_int(s, "PRAGMA rec.application_id", "cannot read the recovery file");
	if (app < 0)
		return -1;
	if (app != STORE_RECOVERY_APP_ID)
		return error("%s: not a kbench recovery file", path);
	version = query_int(s, "PRAGMA rec.user_version", "cannot read the recovery file");
	if (version != STORE_SCHEMA_VERSION)
		return error("%s: a recovery file of schema version %lld; this kbench reads "
			     "version %d", path, (long long)version, STORE_SCHEMA_VERSION);
	runs = query_int(s, "SELECT count(*) FROM rec.runs", "cannot read the recovery file");
	if (runs != 1)
		return error("%s: a recovery file holds one run, this one %lld", path,
			     (long long)runs);
	return 0;
}

/* Run one INSERT ... SELECT from `rec` into the store for run_id (bound
 * as ?1); add the rows it inserted to *n. */
static int copy_rows(struct store *s, const char *sql, int64_t run_id, int64_t *n,
		     const char *what)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, sql, &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_error(s, what);
	if (n)
		*n += sqlite3_changes(s->db);
	return 0;
}

/* Create the recovery file's run in the store (it never reached it):
 * machine, run row and facts. */
static int create_run(struct store *s, int64_t *run_id)
{
	if (exec(s, "INSERT INTO main.machines(hostname, cpu_model, cpus, cores, packages, "
		 "numa_nodes, mem_bytes, topology_xml, fingerprint) "
		 "SELECT hostname, cpu_model, cpus, cores, packages, numa_nodes, mem_bytes, "
		 "topology_xml, fingerprint FROM rec.machines WHERE true "
		 "ON CONFLICT(fingerprint) DO NOTHING", "cannot record the machine") ||
	    exec(s, "INSERT INTO main.runs(uuid, name, machine_id, kernel_release, "
		 "kernel_version, kernel_cmdline, config_name, config_text, kbench_version, "
		 "started_at, finished_at, status, notes) "
		 "SELECT r.uuid, r.name, (SELECT m.id FROM main.machines m "
		 "JOIN rec.machines x ON x.fingerprint = m.fingerprint WHERE x.id = r.machine_id), "
		 "r.kernel_release, r.kernel_version, r.kernel_cmdline, r.config_name, "
		 "r.config_text, r.kbench_version, r.started_at, r.finished_at, "
		 "CASE r.status WHEN 'running' THEN 'interrupted' ELSE r.status END, r.notes "
		 "FROM rec.runs r", "cannot record the run"))
		return -1;
	*run_id = sqlite3_last_insert_rowid(s->db);
	return copy_rows(s, "INSERT INTO main.run_meta(run_id, section, key, value) "
			 "SELECT ?1, section, key, value FROM rec.run_meta", *run_id, NULL,
			 "cannot record the run's facts");
}

/* Samples, monitor values and failures of the file not yet in run_id:
 * loading a file twice adds nothing the second time. */
static int copy_measurements(struct store *s, int64_t run_id, struct store_recovered *out)
{
	return copy_rows(s, "INSERT INTO main.samples(run_id, section, workload, row, iteration, "
			 "value, unit, better, started_at, duration_ns, user_ns, sys_ns, flag, round, "
			 "warmup) "
			 "SELECT ?1, x.section, x.workload, x.row, x.iteration, x.value, x.unit, "
			 "x.better, x.started_at, x.duration_ns, x.user_ns, x.sys_ns, x.flag, x.round, "
			 "x.warmup FROM rec.samples x WHERE NOT EXISTS (SELECT 1 FROM main.samples y "
			 "WHERE y.run_id = ?1 AND y.section = x.section AND y.row = x.row "
			 "AND y.iteration = x.iteration AND y.round = x.round) ORDER BY x.rowid",
			 run_id, &out->samples, "cannot store a sample") ||
	       copy_rows(s, "INSERT INTO main.monitor_values(run_id, section, row, iteration, "
			 "source, key, kind, value) "
			 "SELECT ?1, x.section, x.row, x.iteration, x.source, x.key, x.kind, x.value "
			 "FROM rec.monitor_values x WHERE NOT EXISTS (SELECT 1 FROM "
			 "main.monitor_values y WHERE y.run_id = ?1 AND y.section = x.section "
			 "AND y.row = x.row AND y.iteration = x.iteration AND y.source = x.source "
			 "AND y.key = x.key) ORDER BY x.rowid", run_id, &out->monitors,
			 "cannot store a monitor value") ||
	       copy_rows(s, "INSERT INTO main.failures(run_id, section, row, iteration, reason, at) "
			 "SELECT ?1, x.section, x.row, x.iteration, x.reason, x.at "
			 "FROM rec.failures x WHERE NOT EXISTS (SELECT 1 FROM main.failures y "
			 "WHERE y.run_id = ?1 AND y.section = x.section AND y.row = x.row "
			 "AND y.iteration = x.iteration AND y.reason = x.reason) ORDER BY x.rowid",
			 run_id, &out->failures, "cannot record a failure") ||
	       copy_rows(s, "INSERT INTO main.row_results(run_id, section, row, round, "
			 "iterations, ci_target, ci_reached, met) "
			 "SELECT ?1, x.section, x.row, x.round, x.iterations, x.ci_target, "
			 "x.ci_reached, x.met FROM rec.row_results x WHERE NOT EXISTS (SELECT 1 "
			 "FROM main.row_results y WHERE y.run_id = ?1 AND y.section = x.section "
			 "AND y.row = x.row AND y.round = x.round) ORDER BY x.rowid", run_id, NULL,
			 "cannot record a row result");
}

static int recover(struct store *s, const char *path, struct store_recovered *out, int dry_run);

int store_recover(struct store *s, const char *path, struct store_recovered *out)
{
	return recover(s, path, out, 0);
}

int store_recover_dry(struct store *s, const char *path, struct store_recovered *out)
{
	return recover(s, path, out, 1);
}

static int recover(struct store *s, const char *path, struct store_recovered *out, int dry_run)
{
	struct run_info ri = { .id = 0 };
	sqlite3_stmt *st = NULL;
	struct stat sb;
	int attached = 0, in_tx = 0, rc = -1;

	memset(out, 0, sizeof(*out));
	/* ATTACH would create a missing file. */
	if (stat(path, &sb))
		return error("cannot open recovery file '%s': %s", path, strerror(errno));
	if (store_prepare(s, "ATTACH DATABASE ? AS rec", &st))
		return -1;
	store_bind_text(st, 1, path);
	if (sqlite3_step(st) != SQLITE_DONE) {
		error("cannot open recovery file '%s': %s", path, sqlite3_errmsg(s->db));
		goto out;
	}
	attached = 1;
	if (check_recovery_file(s, path))
		goto out;
	sqlite3_finalize(st);
	if (store_prepare(s, "SELECT r.uuid, (SELECT m.id FROM main.runs m WHERE m.uuid = r.uuid) "
			  "FROM rec.runs r", &st))
		goto out;
	if (sqlite3_step(st) != SQLITE_ROW) {
		store_db_error(s, "cannot read the recovery file's run");
		goto out;
	}
	snprintf(out->uuid, sizeof(out->uuid), "%s", (const char *)sqlite3_column_text(st, 0));
	out->run_id = sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
	st = NULL;
	if (out->run_id) {
		if (store_get_run(s, out->run_id, &ri))
			goto out;
		/* Its writer's own samples could collide with the file's. */
		if (!strcmp(ri.status, "running")) {
			error("run @%lld is still being written; recover '%s' once it has "
			      "stopped", (long long)out->run_id, path);
			goto out;
		}
	}
	if (exec(s, "BEGIN IMMEDIATE", "cannot start a transaction"))
		goto out;
	in_tx = 1;
	if (!out->run_id) {
		if (create_run(s, &out->run_id))
			goto out;
		out->created = 1;
	}
	if (copy_measurements(s, out->run_id, out))
		goto out;
	/* A run left marked running (its writer could not even mark it
	 * failed) takes the status its writer gave the recovery file. */
	if (copy_rows(s, "UPDATE main.runs SET "
		      "status = (SELECT CASE status WHEN 'running' THEN 'interrupted' "
		      "ELSE status END FROM rec.runs), "
		      "finished_at = (SELECT finished_at FROM rec.runs) "
		      "WHERE id = ?1 AND status = 'running'", out->run_id, NULL,
		      "cannot mark the run finished"))
		goto out;
	if (copy_rows(s, "UPDATE main.runs SET nsamples = " STORE_COUNT_SAMPLES("?1")
		      " WHERE id = ?1", out->run_id, NULL, "cannot count the run's samples"))
		goto out;
	/* A dry run has counted what the load adds: none of it stays. */
	if (dry_run) {
		rc = 0;
		goto out;
	}
	if (exec(s, "COMMIT", "cannot commit the recovered run"))
		goto out;
	in_tx = 0;
	rc = 0;
out:
	sqlite3_finalize(st);
	if (in_tx)
		exec(s, "ROLLBACK", "cannot roll back");
	if (attached)
		sqlite3_exec(s->db, "DETACH DATABASE rec", NULL, NULL, NULL);
	run_info_release(&ri);
	return rc;
}

int store_resume_run(struct store *s, int64_t run_id)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if (store_prepare(s, "UPDATE runs SET status = 'running', finished_at = NULL, pid = ? "
			  "WHERE id = ? AND status != 'complete'", &st))
		return -1;
	sqlite3_bind_int64(st, 1, (sqlite3_int64)getpid());
	sqlite3_bind_int64(st, 2, run_id);
	if (sqlite3_step(st) != SQLITE_DONE)
		store_db_error(s, "cannot mark the run running again");
	else if (!sqlite3_changes(s->db))
		error("%s: run @%lld is complete or gone: nothing to resume", s->path,
		      (long long)run_id);
	else
		rc = 0;
	sqlite3_finalize(st);
	return rc;
}

int store_latest_run_named(struct store *s, const char *name, int64_t *run_id, int *found)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*found = 0;
	if (store_prepare(s, "SELECT id FROM runs WHERE name = ? ORDER BY id DESC LIMIT 1", &st))
		return -1;
	store_bind_text(st, 1, name);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*run_id = sqlite3_column_int64(st, 0);
		*found = 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_error(s, "cannot look up runs");
	return 0;
}
