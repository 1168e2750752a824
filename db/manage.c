/* manage: runs removed and renamed (kbench rm, kbench rename). A run goes
 * whole, in one transaction: its samples, monitor values, failures, facts
 * and row results, its note with its row, the experiment row of an A/B
 * experiment whose last run it was, and its machine when no other run
 * names it. A run whose writer is at work is never touched. */
#include "config.h"
#include "db/store.h"
#include "db/internal.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/* Refuse run r while its writer may be at work. */
static int check_not_running(const struct run_info *r, const char *doing)
{
	if (strcmp(r->status, "running"))
		return 0;
	return error("run @%lld '%s' is still running; %s it when it has finished",
		     (long long)r->id, r->name, doing);
}

/* One integer a statement of one bound id returns. */
static int count_of(struct store *s, const char *sql, int64_t id, int64_t *n)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*n = 0;
	if (store_prepare(s, sql, &st))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : store_db_error(s, "cannot count what a run holds");
}

/* The experiment run id is an arm of: its uuid (malloc'd, NULL: none),
 * its name and id in this store (NULL and 0 when only the arms' runs
 * came, by import). */
static int run_experiment(struct store *s, int64_t id, char **uuid, char **name, int64_t *eid)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*uuid = *name = NULL;
	*eid = 0;
	if (store_prepare(s, "SELECT u.value, e.name, e.id FROM run_meta u "
			  "LEFT JOIN experiments e ON e.uuid = u.value "
			  "WHERE u.run_id = ? AND u.section = '' AND u.key = 'experiment-uuid'",
			  &st))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*uuid = xstrdup((const char *)sqlite3_column_text(st, 0));
		if (sqlite3_column_type(st, 1) != SQLITE_NULL) {
			*name = xstrdup((const char *)sqlite3_column_text(st, 1));
			*eid = sqlite3_column_int64(st, 2);
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read a run's experiment");
	return 0;
}

static int listed(const int64_t *ids, size_t n, int64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

/* An arm's run goes only with every other run of its experiment in this
 * store: the experiment's verdict pairs its arms round by round. */
static int check_arms_listed(struct store *s, const struct run_removal *r, const int64_t *ids,
			     size_t n)
{
	struct strbuf missing = STRBUF_INIT, all = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "SELECT run_id FROM run_meta WHERE section = '' AND "
			  "key = 'experiment-uuid' AND value = ? ORDER BY run_id", &st))
		return -1;
	store_bind_text(st, 1, r->experiment_uuid);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		strbuf_addf(&all, " @%lld", (long long)id);
		if (!listed(ids, n, id))
			strbuf_addf(&missing, "%s@%lld", missing.len ? ", " : "", (long long)id);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		rc = store_db_error(s, "cannot read the runs of an experiment");
	else if (missing.len)
		rc = error("run @%lld '%s' is an arm of experiment '%s': its other runs (%s) "
			   "must go with it (kbench rm%s)", (long long)r->run_id, r->name,
			   r->experiment ? r->experiment : r->experiment_uuid, missing.buf,
			   all.buf);
	else
		rc = 0;
	strbuf_release(&missing);
	strbuf_release(&all);
	return rc;
}

/* What removing run id takes, into *r; refused while it runs or when
 * it leaves arms of its experiment behind. */
static int describe_removal(struct store *s, int64_t id, const int64_t *ids, size_t n,
			    struct run_info *info, struct run_removal *r)
{
	static const char *const counts[] = {
		"SELECT count(*) FROM samples WHERE run_id = ?",
		"SELECT count(*) FROM monitor_values WHERE run_id = ?",
		"SELECT count(*) FROM failures WHERE run_id = ?",
		"SELECT count(*) FROM run_meta WHERE run_id = ?",
	};
	int64_t *into[] = { &r->samples, &r->monitor_values, &r->failures, &r->facts };

	if (store_get_run(s, id, info) || check_not_running(info, "remove"))
		return -1;
	r->run_id = id;
	r->name = info->name;
	r->hostname = info->hostname;
	r->started_at = info->started_at;
	r->status = info->status;
	r->note = info->notes != NULL;
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (count_of(s, counts[i], id, into[i]))
			return -1;
	if (run_experiment(s, id, &r->experiment_uuid, &r->experiment, &r->experiment_id))
		return -1;
	if (r->experiment_uuid && check_arms_listed(s, r, ids, n))
		return -1;
	return 0;
}

static void removal_release(struct run_removal *r, struct run_info *info)
{
	free(r->experiment_uuid);
	free(r->experiment);
	memset(r, 0, sizeof(*r));
	run_info_release(info);
}

/* Delete run id and what is its own; its experiment row (eid, 0: none)
 * once no run of it is left, its machine once no run names it. */
static int delete_run(struct store *s, int64_t id, int64_t eid)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc = -1, step;

	for (size_t i = 0; i < STORE_NRUN_TABLES; i++)
		strbuf_addf(&sql, "DELETE FROM %s WHERE run_id = ?1;", store_run_tables[i]);
	/* One statement at a time: sqlite3_prepare takes the first. */
	for (const char *p = sql.buf; *p;) {
		const char *tail = NULL;

		if (sqlite3_prepare_v2(s->db, p, -1, &st, &tail) != SQLITE_OK) {
			store_db_error(s, "cannot remove the run");
			goto out;
		}
		sqlite3_bind_int64(st, 1, id);
		if (store_step_done(s, st, "cannot remove the run"))
			goto out;
		sqlite3_finalize(st);
		st = NULL;
		p = tail;
	}
	if (store_prepare(s, "DELETE FROM runs WHERE id = ?1 RETURNING machine_id", &st))
		goto out;
	sqlite3_bind_int64(st, 1, id);
	step = sqlite3_step(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE) {
		store_db_error(s, "cannot remove the run");
		goto out;
	}
	if (step == SQLITE_ROW) {
		int64_t machine = sqlite3_column_int64(st, 0);

		sqlite3_finalize(st);
		st = NULL;
		if (store_prepare(s, "DELETE FROM machines WHERE id = ?1 AND NOT EXISTS "
				  "(SELECT 1 FROM runs WHERE machine_id = ?1)", &st))
			goto out;
		sqlite3_bind_int64(st, 1, machine);
		if (store_step_done(s, st, "cannot remove the run's machine"))
			goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	/* The experiment goes with its last arm's run, its looks first. */
	for (int i = 0; eid && i < 2; i++) {
		strbuf_reset(&sql);
		strbuf_addf(&sql, "DELETE FROM %s WHERE %s = ?1 AND NOT EXISTS "
			    "(SELECT 1 FROM experiments x JOIN run_meta m ON m.section = '' AND "
			    "m.key = 'experiment-uuid' AND m.value = x.uuid WHERE x.id = ?1) AND "
			    "NOT EXISTS (SELECT 1 FROM knob_journal WHERE experiment_id = ?1) AND "
			    "NOT EXISTS (SELECT 1 FROM bisect_steps WHERE experiment_id = ?1) AND "
			    "NOT EXISTS (SELECT 1 FROM watch_cycles WHERE experiment_id = ?1)",
			    i ? "experiments" : "experiment_looks", i ? "id" : "experiment_id");
		if (store_prepare(s, sql.buf, &st))
			goto out;
		sqlite3_bind_int64(st, 1, eid);
		if (store_step_done(s, st, "cannot remove the run's experiment"))
			goto out;
		sqlite3_finalize(st);
		st = NULL;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	strbuf_release(&sql);
	return rc;
}

/* Give up the transaction after a failure already reported. */
static void rollback(struct store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

int store_remove_runs(struct store *s, const int64_t *ids, size_t n, int dry_run,
		      int (*cb)(const struct run_removal *r, void *arg), void *arg)
{
	int rc = -1;

	/* Checked and removed under the write lock: no writer can take a
	 * run up again (resume) between the check and the removal. */
	if (store_exec_locking(s, dry_run ? "BEGIN" : "BEGIN IMMEDIATE",
			       "cannot lock the store to remove runs"))
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct run_removal r = { 0 };
		struct run_info info;
		int failed = describe_removal(s, ids[i], ids, n, &info, &r) ||
			(cb && cb(&r, arg));

		if (!failed && !dry_run)
			failed = delete_run(s, ids[i], r.experiment_id);
		removal_release(&r, &info);
		if (failed)
			goto out;
	}
	if (dry_run)
		rc = store_exec(s, "ROLLBACK", "cannot end the transaction");
	else
		rc = store_exec(s, "COMMIT", "cannot commit the removal");
out:
	if (rc)
		rollback(s);
	return rc;
}

int store_rename_run(struct store *s, int64_t run_id, const char *name, int dry_run)
{
	struct run_info info;
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if (dry_run) {
		if (store_get_run(s, run_id, &info))
			return -1;
		rc = check_not_running(&info, "rename");
		run_info_release(&info);
		return rc;
	}
	if (store_exec_locking(s, "BEGIN IMMEDIATE", "cannot lock the store to rename a run"))
		return -1;
	if (store_get_run(s, run_id, &info))
		goto out;
	if (check_not_running(&info, "rename"))
		goto release;
	if (store_prepare(s, "UPDATE runs SET name = ? WHERE id = ?", &st))
		goto release;
	store_bind_text(st, 1, name);
	sqlite3_bind_int64(st, 2, run_id);
	if (store_step_done(s, st, "cannot rename the run"))
		goto release;
	rc = store_exec(s, "COMMIT", "cannot commit the new name");
release:
	run_info_release(&info);
out:
	sqlite3_finalize(st);
	if (rc)
		rollback(s);
	return rc;
}
