/* experiment: experiments and their knob journal in the store (SQL for
 * experiment/experiment.c and experiment/knob.c). */
#include "config.h"
#include "db/experiment.h"
#include "db/internal.h"
#include "db/store.h"
#include "lib/strbuf.h"
#include "lib/suggest.h"
#include "lib/xalloc.h"
#include "machine/sysinfo.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int store_begin_experiment(struct store *s, const struct experiment_record *e, int64_t *id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*id = 0;
	if (store_prepare(s, "INSERT INTO experiments(uuid, name, config_name, arms, rounds, "
			  "arm_order, seed, started_at, status, design) "
			  "VALUES (?,?,?,?,?,?,?,?,'running',?)", &st))
		return -1;
	store_bind_text(st, 9, e->design);
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
			  "pid, boot_id, start_ticks, written_at, written) VALUES (?,?,?,?,?,?,?,?,?) "
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
		store_bind_text(st, 9, k[i].written ? k[i].written : "");
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
			  "start_ticks, written FROM knob_journal ORDER BY experiment_id, rowid", &st)) {
		free(host);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *boot = (const char *)sqlite3_column_text(st, 5);
		struct journal_row r = {
			.experiment_id = sqlite3_column_int64(st, 0),
			.path = (const char *)sqlite3_column_text(st, 1),
			.original = (const char *)sqlite3_column_text(st, 2),
			.written = (const char *)sqlite3_column_text(st, 7),
			.hostname = (const char *)sqlite3_column_text(st, 3),
			.pid = sqlite3_column_int64(st, 4),
		};

		r.here = !strcmp(r.hostname, host);
		r.other_boot = r.here && store_other_boot(s, boot);
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

void experiment_info_release(struct experiment_info *x)
{
	free(x->uuid);
	free(x->name);
	free(x->config_name);
	free(x->arms);
	free(x->arm_order);
	free(x->started_at);
	free(x->finished_at);
	free(x->status);
	free(x->design);
	memset(x, 0, sizeof(*x));
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v) || isinf(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

int store_add_experiment_looks(struct store *s, int64_t id, const struct experiment_look *l,
			       size_t n)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if (store_exec_locking(s, "BEGIN IMMEDIATE", "cannot lock the store to record a look"))
		return -1;
	if (store_prepare(s, "INSERT OR REPLACE INTO experiment_looks(experiment_id, look, rounds, "
			  "arm, section, row, stat, pct, lo_pct, hi_pct, t, bound, decision, "
			  "watched, looked_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", &st))
		goto out;
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int(st, 2, l[i].look);
		sqlite3_bind_int(st, 3, l[i].rounds);
		store_bind_text(st, 4, l[i].arm);
		store_bind_text(st, 5, l[i].section);
		store_bind_text(st, 6, l[i].row);
		store_bind_text(st, 7, l[i].stat);
		bind_real(st, 8, l[i].pct);
		bind_real(st, 9, l[i].lo_pct);
		bind_real(st, 10, l[i].hi_pct);
		bind_real(st, 11, l[i].t);
		bind_real(st, 12, l[i].bound);
		store_bind_text(st, 13, l[i].decision);
		sqlite3_bind_int(st, 14, l[i].watched);
		store_bind_text(st, 15, l[i].looked_at);
		if (store_step_done(s, st, "cannot record a look of the experiment"))
			goto out;
	}
	rc = store_exec(s, "COMMIT", "cannot commit a look of the experiment");
out:
	sqlite3_finalize(st);
	if (rc && !sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

static double column_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

int store_each_experiment_look(struct store *s, int64_t id,
			       int (*cb)(const struct experiment_look *l, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc, stop = 0;

	if (store_prepare(s, "SELECT look, rounds, arm, section, row, stat, pct, lo_pct, hi_pct, "
			  "t, bound, decision, watched, looked_at FROM experiment_looks "
			  "WHERE experiment_id = ? ORDER BY look, rowid", &st))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct experiment_look l = {
			.look = sqlite3_column_int(st, 0),
			.rounds = sqlite3_column_int(st, 1),
			.arm = (const char *)sqlite3_column_text(st, 2),
			.section = (const char *)sqlite3_column_text(st, 3),
			.row = (const char *)sqlite3_column_text(st, 4),
			.stat = (const char *)sqlite3_column_text(st, 5),
			.pct = column_real(st, 6),
			.lo_pct = column_real(st, 7),
			.hi_pct = column_real(st, 8),
			.t = column_real(st, 9),
			.bound = column_real(st, 10),
			.decision = (const char *)sqlite3_column_text(st, 11),
			.watched = sqlite3_column_int(st, 12),
			.looked_at = (const char *)sqlite3_column_text(st, 13),
		};

		stop = cb(&l, arg);
	}
	if (!stop && rc != SQLITE_DONE)
		stop = store_db_error(s, "cannot read the looks of the experiment");
	sqlite3_finalize(st);
	return stop;
}

/* Whether a writer of an arm's run of experiment uuid, still marked
 * running, may be at work. Return 1, 0, or -1 after an error. */
static int arm_writer_alive(struct store *s, const char *uuid)
{
	sqlite3_stmt *st = NULL;
	int rc, alive = 0;

	if (store_prepare(s, "SELECT m.hostname, r.pid, r.boot_id, r.pid_start_ticks FROM runs r "
			  "LEFT JOIN machines m ON m.id = r.machine_id "
			  "JOIN run_meta u ON u.run_id = r.id AND u.section = '' AND "
			  "u.key = 'experiment-uuid' AND u.value = ? WHERE r.status = 'running'",
			  &st))
		return -1;
	store_bind_text(st, 1, uuid);
	while (!alive && (rc = sqlite3_step(st)) == SQLITE_ROW)
		alive = run_writer_alive(s, (const char *)sqlite3_column_text(st, 0),
					 sqlite3_column_int64(st, 1),
					 (const char *)sqlite3_column_text(st, 2),
					 (uint64_t)sqlite3_column_int64(st, 3));
	if (!alive && rc != SQLITE_DONE)
		alive = store_db_error(s, "cannot read the runs of an experiment");
	sqlite3_finalize(st);
	return alive;
}

#define EXPERIMENT_COLUMNS \
	"e.id, e.uuid, e.name, e.config_name, e.arms, e.rounds, e.arm_order, e.seed, " \
	"e.started_at, e.finished_at, e.status, e.design, " \
	"(SELECT count(*) FROM run_meta u WHERE u.section = '' AND " \
	"u.key = 'experiment-uuid' AND u.value = e.uuid), " \
	"(SELECT count(*) FROM samples x JOIN run_meta u ON u.run_id = x.run_id AND " \
	"u.section = '' AND u.key = 'experiment-uuid' AND u.value = e.uuid " \
	"WHERE x.warmup = 0) " \
	"FROM experiments e "

static int fill_experiment(struct store *s, sqlite3_stmt *st, struct experiment_info *x)
{
	int alive;

	memset(x, 0, sizeof(*x));
	x->id = sqlite3_column_int64(st, 0);
	x->uuid = store_column_dup(st, 1);
	x->name = store_column_dup(st, 2);
	x->config_name = store_column_dup(st, 3);
	x->arms = store_column_dup(st, 4);
	x->rounds = sqlite3_column_int(st, 5);
	x->arm_order = store_column_dup(st, 6);
	x->has_seed = sqlite3_column_type(st, 7) != SQLITE_NULL;
	x->seed = (uint64_t)sqlite3_column_int64(st, 7);
	x->started_at = store_column_dup(st, 8);
	x->finished_at = store_column_dup(st, 9);
	x->status = store_column_dup(st, 10);
	x->design = sqlite3_column_type(st, 11) == SQLITE_NULL ? NULL : store_column_dup(st, 11);
	x->nruns = sqlite3_column_int64(st, 12);
	x->nsamples = sqlite3_column_int64(st, 13);
	/* Marked running with every arm's writer gone: it was killed (a
	 * journal of knobs would have been restored and marked it already). */
	if (!strcmp(x->status, "running") && x->nruns) {
		if ((alive = arm_writer_alive(s, x->uuid)) < 0)
			return -1;
		if (!alive) {
			free(x->status);
			x->status = xstrdup("interrupted");
		}
	}
	return 0;
}

int store_get_experiment(struct store *s, int64_t id, struct experiment_info *x)
{
	sqlite3_stmt *st = NULL;
	int rc;

	memset(x, 0, sizeof(*x));
	if (store_prepare(s, "SELECT " EXPERIMENT_COLUMNS "WHERE e.id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		rc = fill_experiment(s, st, x) ? -1 : 0;
	else if (rc == SQLITE_DONE)
		rc = 1;
	else
		rc = store_db_error(s, "cannot read the experiment");
	sqlite3_finalize(st);
	return rc;
}

/* Append " (did you mean 'NAME'?)" to err when a stored experiment's
 * name is close to sel, the name that names none (as for runs). */
static void suggest_experiment(struct store *s, const char *sel, struct strbuf *err)
{
	struct suggest sg = SUGGEST_INIT(sel);
	struct strbuf best = STRBUF_INIT;
	sqlite3_stmt *st = NULL;

	if (store_prepare(s, "SELECT DISTINCT name FROM experiments ORDER BY 1", &st))
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);

		suggest_add(&sg, name);
		if (name && sg.best == name) {
			strbuf_reset(&best);
			strbuf_addstr(&best, name);
			sg.best = best.buf;
		}
	}
	sqlite3_finalize(st);
	if (sg.best)
		strbuf_addf(err, " (did you mean '%s'?)", sg.best);
	strbuf_release(&best);
}

int store_find_experiment(struct store *s, const char *sel, int64_t *id, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	const char *num = *sel == '#' || *sel == '@' ? sel + 1 : sel;
	char *end;
	long long v;
	int rc;

	*id = 0;
	errno = 0;
	v = strtoll(num, &end, 10);
	if (*num && !*end && !errno && v > 0) {
		if (store_prepare(s, "SELECT id FROM experiments WHERE id = ?", &st))
			return -1;
		sqlite3_bind_int64(st, 1, v);
	} else {
		/* A name: its latest experiment; else a uuid prefix. */
		if (store_prepare(s, "SELECT id FROM experiments WHERE name = ?1 OR "
				  "(length(?1) >= 4 AND substr(uuid, 1, length(?1)) = lower(?1)) "
				  "ORDER BY name = ?1 DESC, id DESC LIMIT 1", &st))
			return -1;
		store_bind_text(st, 1, sel);
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE)
		store_db_error(s, "cannot look for the experiment");
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	/* Said as a run that is not there is (db/query.c). */
	if (rc == SQLITE_DONE && num != sel)
		strbuf_addf(err, "no experiment %s in %s (see kbench experiments)", sel, s->path);
	else if (rc == SQLITE_DONE) {
		strbuf_addf(err, "no experiment named '%s' in %s (see kbench experiments)", sel,
			    s->path);
		suggest_experiment(s, sel, err);
	}
	return -1;
}

int store_each_experiment(struct store *s, int (*cb)(const struct experiment_info *x, void *arg),
			  void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc, stop = 0;

	if (store_prepare(s, "SELECT " EXPERIMENT_COLUMNS "ORDER BY e.id", &st))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct experiment_info x;

		if (fill_experiment(s, st, &x)) {
			experiment_info_release(&x);
			stop = -1;
			break;
		}
		stop = cb(&x, arg);
		experiment_info_release(&x);
		if (stop)
			break;
	}
	sqlite3_finalize(st);
	if (!stop && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read the experiments");
	return stop;
}

int store_each_experiment_run(struct store *s, const char *uuid,
			      int (*cb)(const struct experiment_run *r, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc, stop = 0;

	if (store_prepare(s, "SELECT u.run_id, a.value, (SELECT count(DISTINCT round) FROM "
			  "samples x WHERE x.run_id = u.run_id AND x.warmup = 0) FROM run_meta u JOIN run_meta a "
			  "ON a.run_id = u.run_id AND a.section = '' AND a.key = 'arm' "
			  "WHERE u.section = '' AND u.key = 'experiment-uuid' AND u.value = ? "
			  "ORDER BY u.run_id", &st))
		return -1;
	store_bind_text(st, 1, uuid);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct experiment_run r = {
			.run_id = sqlite3_column_int64(st, 0),
			.arm = (const char *)sqlite3_column_text(st, 1),
			.rounds = sqlite3_column_int(st, 2),
		};

		if ((stop = cb(&r, arg)))
			break;
	}
	sqlite3_finalize(st);
	if (!stop && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read the runs of an experiment");
	return stop;
}

int store_resume_experiment(struct store *s, int64_t id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE experiments SET status = 'running', finished_at = NULL "
			  "WHERE id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = store_step_done(s, st, "cannot mark the experiment running");
	sqlite3_finalize(st);
	return rc;
}

int store_set_experiment_rounds(struct store *s, int64_t id, int rounds)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE experiments SET rounds = ? WHERE id = ?", &st))
		return -1;
	sqlite3_bind_int(st, 1, rounds);
	sqlite3_bind_int64(st, 2, id);
	rc = store_step_done(s, st, "cannot record the experiment's rounds");
	sqlite3_finalize(st);
	return rc;
}
