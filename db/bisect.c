/* bisect: bisections, their commits and their steps in the store (SQL for
 * bisect/bisect_run.c and kbench bisect's --list, --log and --report). */
#include "config.h"
#include "db/bisect.h"
#include "db/internal.h"
#include "db/store.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "machine/sysinfo.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void rollback(struct store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

static void bind_writer(sqlite3_stmt *st, int first)
{
	struct run_writer w;
	char *host = sysinfo_hostname();

	run_writer_self(&w);
	store_bind_text(st, first, host);
	sqlite3_bind_int64(st, first + 1, w.pid);
	store_bind_text(st, first + 2, *w.boot_id ? w.boot_id : NULL);
	sqlite3_bind_int64(st, first + 3, (int64_t)w.start_ticks);
	free(host);
}

int store_begin_bisect(struct store *s, const struct bisect_record *b, int64_t *id)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;

	*id = 0;
	if (store_exec_locking(s, "BEGIN IMMEDIATE", "cannot lock the store to record a bisection"))
		return -1;
	if (store_prepare(s, "INSERT INTO bisects(uuid, tree, good, bad, good_ref, bad_ref, "
			  "config_name, config_text, settings, command, section, row, status, "
			  "hostname, pid, boot_id, start_ticks, started_at) VALUES "
			  "(?,?,?,?,?,?,?,?,?,?,?,?,'running',?,?,?,?,?)", &st))
		goto out;
	store_bind_text(st, 1, b->uuid);
	store_bind_text(st, 2, b->tree);
	store_bind_text(st, 3, b->good);
	store_bind_text(st, 4, b->bad);
	store_bind_text(st, 5, b->good_ref);
	store_bind_text(st, 6, b->bad_ref);
	store_bind_text(st, 7, b->config_name);
	store_bind_text(st, 8, b->config_text);
	store_bind_text(st, 9, b->settings);
	store_bind_text(st, 10, b->command);
	store_bind_text(st, 11, b->section);
	store_bind_text(st, 12, b->row);
	bind_writer(st, 13);
	store_bind_text(st, 17, b->started_at);
	if (store_step_done(s, st, "cannot record the bisection"))
		goto out;
	*id = sqlite3_last_insert_rowid(s->db);
	sqlite3_finalize(st);
	st = NULL;
	if (store_prepare(s, "INSERT INTO bisect_commits(bisect_id, idx, commit_id, subject, "
			  "author, parents) VALUES (?,?,?,?,?,?)", &st))
		goto out;
	for (size_t i = 0; i < b->ncommits; i++) {
		sqlite3_bind_int64(st, 1, *id);
		sqlite3_bind_int64(st, 2, b->commits[i].idx);
		store_bind_text(st, 3, b->commits[i].id);
		store_bind_text(st, 4, b->commits[i].subject ? b->commits[i].subject : "");
		store_bind_text(st, 5, b->commits[i].author ? b->commits[i].author : "");
		sqlite3_bind_int(st, 6, b->commits[i].parents);
		if (store_step_done(s, st, "cannot record the commits of the bisection"))
			goto out;
	}
	rc = store_exec(s, "COMMIT", "cannot commit the bisection");
out:
	sqlite3_finalize(st);
	if (rc) {
		rollback(s);
		*id = 0;
	}
	return rc;
}

int store_set_bisect_row(struct store *s, int64_t id, const char *section, const char *row,
			 double regression_pct)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE bisects SET section = ?, row = ?, regression_pct = ? "
			  "WHERE id = ?", &st))
		return -1;
	store_bind_text(st, 1, section);
	store_bind_text(st, 2, row);
	if (isfinite(regression_pct))
		sqlite3_bind_double(st, 3, regression_pct);
	else
		sqlite3_bind_null(st, 3);
	sqlite3_bind_int64(st, 4, id);
	rc = store_step_done(s, st, "cannot record the bisection's row");
	sqlite3_finalize(st);
	return rc;
}

int store_finish_bisect(struct store *s, int64_t id, const char *status, const char *result,
			const char *first_bad, const char *finished_at)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE bisects SET status = ?, result = ?, first_bad = ?, "
			  "finished_at = ? WHERE id = ?", &st))
		return -1;
	store_bind_text(st, 1, status);
	store_bind_text(st, 2, result);
	store_bind_text(st, 3, first_bad);
	store_bind_text(st, 4, finished_at);
	sqlite3_bind_int64(st, 5, id);
	rc = store_step_done(s, st, "cannot record the end of the bisection");
	sqlite3_finalize(st);
	return rc;
}

int store_resume_bisect(struct store *s, int64_t id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE bisects SET status = 'running', finished_at = NULL, "
			  "hostname = ?, pid = ?, boot_id = ?, start_ticks = ? WHERE id = ?", &st))
		return -1;
	bind_writer(st, 1);
	sqlite3_bind_int64(st, 5, id);
	rc = store_step_done(s, st, "cannot mark the bisection running");
	sqlite3_finalize(st);
	return rc;
}

static double col_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

void bisect_info_release(struct bisect_info *b)
{
	free(b->uuid);
	free(b->tree);
	free(b->good);
	free(b->bad);
	free(b->good_ref);
	free(b->bad_ref);
	free(b->config_name);
	free(b->config_text);
	free(b->settings);
	free(b->command);
	free(b->section);
	free(b->row);
	free(b->status);
	free(b->result);
	free(b->first_bad);
	free(b->hostname);
	free(b->started_at);
	free(b->finished_at);
	memset(b, 0, sizeof(*b));
}

#define BISECT_COLUMNS \
	"b.id, b.uuid, b.tree, b.good, b.bad, b.good_ref, b.bad_ref, b.config_name, " \
	"b.config_text, b.settings, b.command, b.section, b.row, b.regression_pct, " \
	"b.status, b.result, b.first_bad, b.hostname, b.pid, b.boot_id, b.start_ticks, " \
	"b.started_at, b.finished_at, " \
	"(SELECT count(*) FROM bisect_steps x WHERE x.bisect_id = b.id) FROM bisects b "

static int fill_bisect(struct store *s, sqlite3_stmt *st, struct bisect_info *b)
{
	memset(b, 0, sizeof(*b));
	b->id = sqlite3_column_int64(st, 0);
	b->uuid = store_column_dup(st, 1);
	b->tree = store_column_dup(st, 2);
	b->good = store_column_dup(st, 3);
	b->bad = store_column_dup(st, 4);
	b->good_ref = store_column_dup(st, 5);
	b->bad_ref = store_column_dup(st, 6);
	b->config_name = store_column_dup(st, 7);
	b->config_text = store_column_dup(st, 8);
	b->settings = store_column_dup(st, 9);
	b->command = store_column_dup(st, 10);
	b->section = store_column_dup(st, 11);
	b->row = store_column_dup(st, 12);
	b->regression_pct = col_real(st, 13);
	b->status = store_column_dup(st, 14);
	b->result = store_column_dup(st, 15);
	b->first_bad = store_column_dup(st, 16);
	b->hostname = store_column_dup(st, 17);
	b->started_at = store_column_dup(st, 21);
	b->finished_at = store_column_dup(st, 22);
	b->steps = sqlite3_column_int(st, 23);
	if (!strcmp(b->status, "running")) {
		b->alive = run_writer_alive(s, b->hostname, sqlite3_column_int64(st, 18),
					    (const char *)sqlite3_column_text(st, 19),
					    (uint64_t)sqlite3_column_int64(st, 20));
		if (!b->alive) {
			free(b->status);
			b->status = xstrdup("interrupted");
		}
	}
	return 0;
}

int store_get_bisect(struct store *s, int64_t id, struct bisect_info *b)
{
	sqlite3_stmt *st = NULL;
	int rc;

	memset(b, 0, sizeof(*b));
	if (store_prepare(s, "SELECT " BISECT_COLUMNS "WHERE b.id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		rc = fill_bisect(s, st, b) ? -1 : 0;
	else if (rc == SQLITE_DONE)
		rc = 1;
	else
		rc = store_db_error(s, "cannot read the bisection");
	sqlite3_finalize(st);
	return rc;
}

int store_find_bisect(struct store *s, const char *sel, int64_t *id, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	const char *num = sel && (*sel == '#' || *sel == '@') ? sel + 1 : sel;
	char *end = NULL;
	long long v = 0;
	int rc;

	*id = 0;
	errno = 0;
	if (num && *num)
		v = strtoll(num, &end, 10);
	if (!sel || !*sel) {
		if (store_prepare(s, "SELECT id FROM bisects ORDER BY id DESC LIMIT 1", &st))
			return -1;
	} else if (*num && !*end && !errno && v > 0) {
		if (store_prepare(s, "SELECT id FROM bisects WHERE id = ?", &st))
			return -1;
		sqlite3_bind_int64(st, 1, v);
	} else {
		if (store_prepare(s, "SELECT id FROM bisects WHERE length(?1) >= 4 AND "
				  "substr(uuid, 1, length(?1)) = lower(?1) ORDER BY id DESC "
				  "LIMIT 1", &st))
			return -1;
		store_bind_text(st, 1, sel);
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE)
		store_db_error(s, "cannot look for the bisection");
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc == SQLITE_DONE) {
		if (!sel || !*sel)
			strbuf_addstr(err, "no bisection in the store (kbench bisect --tree DIR "
				      "--good REF --bad REF -c CONFIG starts one)");
		else
			strbuf_addf(err, "no bisection '%s' in the store (kbench bisect --list "
				    "lists them)", sel);
	}
	return -1;
}

int store_each_bisect(struct store *s, int (*cb)(const struct bisect_info *b, void *arg),
		      void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc, stop = 0;

	if (store_prepare(s, "SELECT " BISECT_COLUMNS "ORDER BY b.id", &st))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct bisect_info b;

		fill_bisect(s, st, &b);
		stop = cb(&b, arg);
		bisect_info_release(&b);
		if (stop)
			break;
	}
	sqlite3_finalize(st);
	if (!stop && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read the bisections");
	return stop;
}

int store_each_bisect_commit(struct store *s, int64_t id,
			     int (*cb)(const struct bisect_commit *c, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc, stop = 0;

	if (store_prepare(s, "SELECT idx, commit_id, subject, author, parents FROM bisect_commits "
			  "WHERE bisect_id = ? ORDER BY idx", &st))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct bisect_commit c = {
			.idx = (long)sqlite3_column_int64(st, 0),
			.id = (const char *)sqlite3_column_text(st, 1),
			.subject = (const char *)sqlite3_column_text(st, 2),
			.author = (const char *)sqlite3_column_text(st, 3),
			.parents = sqlite3_column_int(st, 4),
		};

		if ((stop = cb(&c, arg)))
			break;
	}
	sqlite3_finalize(st);
	if (!stop && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read the commits of the bisection");
	return stop;
}

int store_begin_bisect_step(struct store *s, const struct bisect_step *step)
{
	sqlite3_stmt *st = NULL;
	int rc;

	/* A step begun before and stopped part way (no verdict) begins
	 * again: the same number, a new experiment. */
	if (store_prepare(s, "INSERT INTO bisect_steps(bisect_id, step, commit_id, good_commit, "
			  "bad_commit, started_at) VALUES (?,?,?,?,?,?) "
			  "ON CONFLICT(bisect_id, step) DO UPDATE SET commit_id = excluded.commit_id, "
			  "good_commit = excluded.good_commit, bad_commit = excluded.bad_commit, "
			  "started_at = excluded.started_at, experiment_id = NULL, rounds = NULL, "
			  "reason = NULL, accel = NULL, finished_at = NULL "
			  "WHERE bisect_steps.verdict IS NULL", &st))
		return -1;
	sqlite3_bind_int64(st, 1, step->bisect_id);
	sqlite3_bind_int(st, 2, step->step);
	store_bind_text(st, 3, step->commit);
	store_bind_text(st, 4, step->good);
	store_bind_text(st, 5, step->bad);
	store_bind_text(st, 6, step->started_at);
	rc = store_step_done(s, st, "cannot record the bisection's step");
	sqlite3_finalize(st);
	return rc;
}

int store_set_bisect_step_experiment(struct store *s, int64_t bisect_id, int step,
				     int64_t experiment_id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE bisect_steps SET experiment_id = ? WHERE bisect_id = ? "
			  "AND step = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, experiment_id);
	sqlite3_bind_int64(st, 2, bisect_id);
	sqlite3_bind_int(st, 3, step);
	rc = store_step_done(s, st, "cannot record the step's experiment");
	sqlite3_finalize(st);
	return rc;
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

int store_finish_bisect_step(struct store *s, const struct bisect_step *step)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE bisect_steps SET verdict = ?, reason = ?, rounds = ?, "
			  "vs_good_pct = ?, vs_good_p = ?, vs_bad_pct = ?, vs_bad_p = ?, "
			  "accel = ?, finished_at = ? WHERE bisect_id = ? AND step = ?", &st))
		return -1;
	store_bind_text(st, 1, step->verdict);
	store_bind_text(st, 2, step->reason);
	if (step->rounds > 0)
		sqlite3_bind_int(st, 3, step->rounds);
	else
		sqlite3_bind_null(st, 3);
	bind_real(st, 4, step->vs_good_pct);
	bind_real(st, 5, step->vs_good_p);
	bind_real(st, 6, step->vs_bad_pct);
	bind_real(st, 7, step->vs_bad_p);
	store_bind_text(st, 8, step->accel);
	store_bind_text(st, 9, step->finished_at);
	sqlite3_bind_int64(st, 10, step->bisect_id);
	sqlite3_bind_int(st, 11, step->step);
	rc = store_step_done(s, st, "cannot record the step's verdict");
	sqlite3_finalize(st);
	return rc;
}

int store_each_bisect_step(struct store *s, int64_t id,
			   int (*cb)(const struct bisect_step *st, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc, stop = 0;

	if (store_prepare(s, "SELECT step, commit_id, good_commit, bad_commit, experiment_id, "
			  "rounds, verdict, reason, vs_good_pct, vs_good_p, vs_bad_pct, vs_bad_p, "
			  "accel, started_at, finished_at FROM bisect_steps WHERE bisect_id = ? "
			  "ORDER BY step", &st))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct bisect_step x = {
			.bisect_id = id,
			.step = sqlite3_column_int(st, 0),
			.commit = (const char *)sqlite3_column_text(st, 1),
			.good = (const char *)sqlite3_column_text(st, 2),
			.bad = (const char *)sqlite3_column_text(st, 3),
			.experiment_id = sqlite3_column_int64(st, 4),
			.rounds = sqlite3_column_int(st, 5),
			.verdict = (const char *)sqlite3_column_text(st, 6),
			.reason = (const char *)sqlite3_column_text(st, 7),
			.vs_good_pct = col_real(st, 8),
			.vs_good_p = col_real(st, 9),
			.vs_bad_pct = col_real(st, 10),
			.vs_bad_p = col_real(st, 11),
			.accel = (const char *)sqlite3_column_text(st, 12),
			.started_at = (const char *)sqlite3_column_text(st, 13),
			.finished_at = (const char *)sqlite3_column_text(st, 14),
		};

		if ((stop = cb(&x, arg)))
			break;
	}
	sqlite3_finalize(st);
	if (!stop && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read the steps of the bisection");
	return stop;
}
