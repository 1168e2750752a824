/* experiment: experiments and their knob journal in the store (SQL for
 * runner/experiment.c and runner/knob.c). */
#include "config.h"
#include "db/experiment.h"
#include "db/internal.h"
#include "db/store.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "machine/sysinfo.h"

#include <stdlib.h>
#include <string.h>

int store_begin_experiment(struct store *s, const struct experiment_record *e, int64_t *id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*id = 0;
	if (store_prepare(s, "INSERT INTO experiments(uuid, name, config_name, arms, rounds, "
			  "arm_order, seed, started_at, status) VALUES (?,?,?,?,?,?,?,?,'running')",
			  &st))
		return -1;
	store_bind_text(st, 1, e->uuid);
	store_bind_text(st, 2, e->name);
	store_bind_text(st, 3, e->config_name);
	store_bind_text(st, 4, e->arms);
	sqlite3_bind_int(st, 5, e->rounds);
	store_bind_text(st, 6, e->arm_order);
	if (e->has_seed)
		sqlite3_bind_int64(st, 7, (int64_t)e->seed);
	else
		sqlite3_bind_null(st, 7);
	store_bind_text(st, 8, e->started_at);
	rc = store_step_done(s, st, "cannot record the experiment");
	sqlite3_finalize(st);
	if (!rc)
		*id = sqlite3_last_insert_rowid(s->db);
	return rc;
}

int store_finish_experiment(struct store *s, int64_t id, const char *status,
			    const char *finished_at)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE experiments SET status = ?, finished_at = ? WHERE id = ?",
			  &st))
		return -1;
	store_bind_text(st, 1, status);
	store_bind_text(st, 2, finished_at);
	sqlite3_bind_int64(st, 3, id);
	rc = store_step_done(s, st, "cannot set the experiment's status");
	sqlite3_finalize(st);
	return rc;
}

int store_experiment_abandoned(struct store *s, int64_t id, const char *finished_at)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE experiments SET status = 'interrupted', finished_at = ? "
			  "WHERE id = ? AND status = 'running'", &st))
		return -1;
	store_bind_text(st, 1, finished_at);
	sqlite3_bind_int64(st, 2, id);
	rc = store_step_done(s, st, "cannot mark the experiment interrupted");
	sqlite3_finalize(st);
	return rc;
}

int store_journal_knobs(struct store *s, int64_t id, const struct knob_original *k, size_t n,
			const char *hostname, const struct run_writer *w, const char *written_at)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if (store_exec_locking(s, "BEGIN IMMEDIATE", "cannot lock the store to journal knobs"))
		return -1;
	if (store_prepare(s, "INSERT INTO knob_journal(experiment_id, path, original, hostname, "
			  "pid, boot_id, start_ticks, written_at) VALUES (?,?,?,?,?,?,?,?) "
			  "ON CONFLICT(experiment_id, path) DO NOTHING", &st))
		goto out;
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(st, 1, id);
		store_bind_text(st, 2, k[i].path);
		store_bind_text(st, 3, k[i].original);
		store_bind_text(st, 4, hostname);
		sqlite3_bind_int64(st, 5, w->pid);
		store_bind_text(st, 6, w->boot_id);
		sqlite3_bind_int64(st, 7, (int64_t)w->start_ticks);
		store_bind_text(st, 8, written_at);
		if (store_step_done(s, st, "cannot journal a knob"))
			goto out;
	}
	rc = store_exec(s, "COMMIT", "cannot commit the knob journal");
out:
	sqlite3_finalize(st);
	if (rc && !sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int store_journal_forget(struct store *s, int64_t id, const char *path)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, path ? "DELETE FROM knob_journal WHERE experiment_id = ? AND path = ?" :
			  "DELETE FROM knob_journal WHERE experiment_id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (path)
		store_bind_text(st, 2, path);
	rc = store_step_done(s, st, "cannot clear the knob journal");
	sqlite3_finalize(st);
	return rc;
}

int store_each_journal(struct store *s, int (*cb)(const struct journal_row *r, void *arg),
		       void *arg)
{
	sqlite3_stmt *st = NULL;
	char *host = sysinfo_hostname();
	int rc, stop = 0;

	if (store_prepare(s, "SELECT experiment_id, path, original, hostname, pid, boot_id, "
			  "start_ticks FROM knob_journal ORDER BY experiment_id, rowid", &st)) {
		free(host);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *boot = (const char *)sqlite3_column_text(st, 5);
		struct journal_row r = {
			.experiment_id = sqlite3_column_int64(st, 0),
			.path = (const char *)sqlite3_column_text(st, 1),
			.original = (const char *)sqlite3_column_text(st, 2),
			.hostname = (const char *)sqlite3_column_text(st, 3),
			.pid = sqlite3_column_int64(st, 4),
		};

		r.here = !strcmp(r.hostname, host);
		r.alive = run_writer_alive(s, r.hostname, r.pid, boot,
					   (uint64_t)sqlite3_column_int64(st, 6));
		if ((stop = cb(&r, arg)))
			break;
	}
	sqlite3_finalize(st);
	free(host);
	if (!stop && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read the knob journal");
	return stop;
}
