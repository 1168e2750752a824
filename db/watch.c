/* watch: watches, their cycles, verdicts and mails in the store (SQL for
 * kbench watch: its cycle, its resume and its --status). */
#include "config.h"
#include "db/watch.h"
#include "db/internal.h"
#include "db/store.h"
#include "lib/xalloc.h"
#include "machine/sysinfo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const step_names[WATCH_NSTEPS] = {
	[WATCH_STEP_FETCH] = "fetch",
	[WATCH_STEP_BUILD] = "build",
	[WATCH_STEP_EXPERIMENT] = "experiment",
	[WATCH_STEP_BISECT] = "bisect",
	[WATCH_STEP_MAIL] = "mail",
	[WATCH_STEP_DONE] = "done",
};

const char *watch_step_name(enum watch_step step)
{
	return (unsigned)step < WATCH_NSTEPS ? step_names[step] : NULL;
}

int watch_step_from_name(const char *name)
{
	for (int i = 0; i < WATCH_NSTEPS; i++)
		if (name && !strcmp(name, step_names[i]))
			return i;
	return -1;
}

static void rollback(struct store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static double col_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static const char *col_text(sqlite3_stmt *st, int i)
{
	const char *v = (const char *)sqlite3_column_text(st, i);

	return v ? v : "";
}

/* Step a query of one id; return 0 with *id set, 1 none, or -1. */
static int one_id(struct store *s, sqlite3_stmt *st, int64_t *id, const char *what)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		return 0;
	}
	if (rc == SQLITE_DONE)
		return 1;
	return store_db_error(s, what);
}

int store_watch_find(struct store *s, const char *tree, const char *remote, const char *branch,
		     int64_t *id)
{
	sqlite3_stmt *st = NULL;
	char *host = sysinfo_hostname();
	int rc;

	*id = 0;
	rc = store_prepare(s, "SELECT id FROM watches WHERE hostname = ? AND tree = ? AND "
			   "remote = ? AND branch = ?", &st);
	if (!rc) {
		store_bind_text(st, 1, host);
		store_bind_text(st, 2, tree);
		store_bind_text(st, 3, remote);
		store_bind_text(st, 4, branch);
		rc = one_id(s, st, id, "cannot look for the watch");
	}
	sqlite3_finalize(st);
	free(host);
	return rc;
}

int store_watch_get(struct store *s, const char *tree, const char *remote, const char *branch,
		    const char *config_name, const char *config_text, const char *now,
		    int64_t *id)
{
	sqlite3_stmt *st = NULL;
	char *host = sysinfo_hostname();
	int rc = -1;

	*id = 0;
	if (store_exec_locking(s, "BEGIN IMMEDIATE", "cannot lock the store to record a watch"))
		goto out;
	if (store_prepare(s, "INSERT INTO watches(hostname, tree, remote, branch, config_name, "
			  "config_text, created_at) VALUES (?,?,?,?,?,?,?) "
			  "ON CONFLICT (hostname, tree, remote, branch) DO UPDATE SET "
			  "config_name = excluded.config_name, config_text = excluded.config_text",
			  &st))
		goto out;
	store_bind_text(st, 1, host);
	store_bind_text(st, 2, tree);
	store_bind_text(st, 3, remote);
	store_bind_text(st, 4, branch);
	store_bind_text(st, 5, config_name);
	store_bind_text(st, 6, config_text);
	store_bind_text(st, 7, now);
	if (store_step_done(s, st, "cannot record the watch"))
		goto out;
	sqlite3_finalize(st);
	st = NULL;
	if (store_prepare(s, "SELECT id FROM watches WHERE hostname = ? AND tree = ? AND "
			  "remote = ? AND branch = ?", &st))
		goto out;
	store_bind_text(st, 1, host);
	store_bind_text(st, 2, tree);
	store_bind_text(st, 3, remote);
	store_bind_text(st, 4, branch);
	if (one_id(s, st, id, "cannot read the watch back"))
		goto out;
	sqlite3_finalize(st);
	st = NULL;
	rc = store_exec(s, "COMMIT", "cannot commit the watch");
out:
	sqlite3_finalize(st);
	free(host);
	if (rc) {
		rollback(s);
		*id = 0;
	}
	return rc;
}

void watch_info_release(struct watch_info *w)
{
	free(w->hostname);
	free(w->tree);
	free(w->remote);
	free(w->branch);
	free(w->config_name);
	free(w->created_at);
	memset(w, 0, sizeof(*w));
}

int store_each_watch(struct store *s, int (*cb)(const struct watch_info *w, void *arg),
		     void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc, stop = 0;

	if (store_prepare(s, "SELECT id, hostname, tree, remote, branch, config_name, created_at "
			  "FROM watches ORDER BY id", &st))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct watch_info w = {
			.id = sqlite3_column_int64(st, 0),
			.hostname = store_column_dup(st, 1),
			.tree = store_column_dup(st, 2),
			.remote = store_column_dup(st, 3),
			.branch = store_column_dup(st, 4),
			.config_name = store_column_dup(st, 5),
			.created_at = store_column_dup(st, 6),
		};

		stop = cb(&w, arg);
		watch_info_release(&w);
		if (stop)
			break;
	}
	sqlite3_finalize(st);
	if (!stop && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read the watches");
	return 0;
}

/* The writer's columns, as bisections and runs hold them. */
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

int store_watch_begin_cycle(struct store *s, int64_t watch_id, const char *started_at,
			    int64_t *id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*id = 0;
	if (store_prepare(s, "INSERT INTO watch_cycles(watch_id, step, state, hostname, pid, "
			  "boot_id, start_ticks, started_at) VALUES (?, 'fetch', 'running', "
			  "?,?,?,?,?)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, watch_id);
	bind_writer(st, 2);
	store_bind_text(st, 6, started_at);
	rc = store_step_done(s, st, "cannot record the cycle");
	if (!rc)
		*id = sqlite3_last_insert_rowid(s->db);
	sqlite3_finalize(st);
	return rc;
}

int store_watch_resume_cycle(struct store *s, int64_t id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE watch_cycles SET state = 'running', finished_at = NULL, "
			  "hostname = ?, pid = ?, boot_id = ?, start_ticks = ? WHERE id = ?", &st))
		return -1;
	bind_writer(st, 1);
	sqlite3_bind_int64(st, 5, id);
	rc = store_step_done(s, st, "cannot mark the cycle running");
	sqlite3_finalize(st);
	return rc;
}

int store_watch_cycle_step(struct store *s, int64_t id, enum watch_step step)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE watch_cycles SET step = ? WHERE id = ?", &st))
		return -1;
	store_bind_text(st, 1, watch_step_name(step));
	sqlite3_bind_int64(st, 2, id);
	rc = store_step_done(s, st, "cannot record the cycle's step");
	sqlite3_finalize(st);
	return rc;
}

int store_watch_cycle_tips(struct store *s, int64_t id, const char *old_tip,
			   const char *new_tip)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE watch_cycles SET old_tip = coalesce(?, old_tip), "
			  "new_tip = coalesce(?, new_tip) WHERE id = ?", &st))
		return -1;
	store_bind_text(st, 1, old_tip);
	store_bind_text(st, 2, new_tip);
	sqlite3_bind_int64(st, 3, id);
	rc = store_step_done(s, st, "cannot record the cycle's tips");
	sqlite3_finalize(st);
	return rc;
}

int store_watch_cycle_links(struct store *s, int64_t id, int64_t experiment_id,
			    int64_t bisect_id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE watch_cycles SET "
			  "experiment_id = CASE WHEN ?1 > 0 THEN ?1 ELSE experiment_id END, "
			  "bisect_id = CASE WHEN ?2 > 0 THEN ?2 ELSE bisect_id END WHERE id = ?3",
			  &st))
		return -1;
	sqlite3_bind_int64(st, 1, experiment_id);
	sqlite3_bind_int64(st, 2, bisect_id);
	sqlite3_bind_int64(st, 3, id);
	rc = store_step_done(s, st, "cannot record the cycle's experiment");
	sqlite3_finalize(st);
	return rc;
}

int store_watch_end_cycle(struct store *s, int64_t id, const char *state, const char *result,
			  const char *error, const char *finished_at)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE watch_cycles SET state = ?1, result = ?2, error = ?3, "
			  "finished_at = ?4, "
			  "step = CASE WHEN ?1 = 'complete' THEN 'done' ELSE step END "
			  "WHERE id = ?5", &st))
		return -1;
	store_bind_text(st, 1, state);
	store_bind_text(st, 2, result);
	store_bind_text(st, 3, error);
	store_bind_text(st, 4, finished_at);
	sqlite3_bind_int64(st, 5, id);
	rc = store_step_done(s, st, "cannot record the end of the cycle");
	sqlite3_finalize(st);
	return rc;
}

void watch_cycle_release(struct watch_cycle *c)
{
	free(c->old_tip);
	free(c->new_tip);
	free(c->state);
	free(c->result);
	free(c->error);
	free(c->hostname);
	free(c->started_at);
	free(c->finished_at);
	memset(c, 0, sizeof(*c));
}

#define CYCLE_COLUMNS \
	"c.id, c.watch_id, c.old_tip, c.new_tip, c.step, c.state, c.result, c.error, " \
	"c.experiment_id, c.bisect_id, c.hostname, c.pid, c.boot_id, c.start_ticks, " \
	"c.started_at, c.finished_at FROM watch_cycles c "

static void fill_cycle(struct store *s, sqlite3_stmt *st, struct watch_cycle *c)
{
	int step;

	memset(c, 0, sizeof(*c));
	c->id = sqlite3_column_int64(st, 0);
	c->watch_id = sqlite3_column_int64(st, 1);
	c->old_tip = store_column_dup(st, 2);
	c->new_tip = store_column_dup(st, 3);
	step = watch_step_from_name(col_text(st, 4));
	c->step = step < 0 ? WATCH_STEP_FETCH : (enum watch_step)step;
	c->state = store_column_dup(st, 5);
	c->result = store_column_dup(st, 6);
	c->error = store_column_dup(st, 7);
	c->experiment_id = sqlite3_column_int64(st, 8);
	c->bisect_id = sqlite3_column_int64(st, 9);
	c->hostname = store_column_dup(st, 10);
	c->started_at = store_column_dup(st, 14);
	c->finished_at = store_column_dup(st, 15);
	if (!strcmp(c->state, "running")) {
		c->alive = run_writer_alive(s, c->hostname, sqlite3_column_int64(st, 11),
					    (const char *)sqlite3_column_text(st, 12),
					    (uint64_t)sqlite3_column_int64(st, 13));
		if (!c->alive) {
			free(c->state);
			c->state = xstrdup("interrupted");
		}
	}
}

/* The first row of st (bound) into *c: 0, 1 none, or -1. */
static int one_cycle(struct store *s, sqlite3_stmt *st, struct watch_cycle *c)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW) {
		fill_cycle(s, st, c);
		return 0;
	}
	if (rc == SQLITE_DONE)
		return 1;
	return store_db_error(s, "cannot read the cycle");
}

int store_watch_get_cycle(struct store *s, int64_t id, struct watch_cycle *c)
{
	sqlite3_stmt *st = NULL;
	int rc;

	memset(c, 0, sizeof(*c));
	if (store_prepare(s, "SELECT " CYCLE_COLUMNS "WHERE c.id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = one_cycle(s, st, c);
	sqlite3_finalize(st);
	return rc;
}

int store_watch_unfinished_cycle(struct store *s, int64_t watch_id, struct watch_cycle *c)
{
	sqlite3_stmt *st = NULL;
	int rc;

	memset(c, 0, sizeof(*c));
	if (store_prepare(s, "SELECT " CYCLE_COLUMNS "WHERE c.watch_id = ? AND "
			  "c.state = 'running' ORDER BY c.id DESC LIMIT 1", &st))
		return -1;
	sqlite3_bind_int64(st, 1, watch_id);
	rc = one_cycle(s, st, c);
	sqlite3_finalize(st);
	return rc;
}

/* The first column of the first row of sql (?1 bound to watch_id),
 * malloc'd into *out, NULL when none. Return 0 or -1. */
static int one_tip(struct store *s, const char *sql, int64_t watch_id, char **out)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	if (store_prepare(s, sql, &st))
		return -1;
	sqlite3_bind_int64(st, 1, watch_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = store_column_dup(st, 0);
	else if (rc != SQLITE_DONE)
		store_db_error(s, "cannot read the watch's tips");
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

int store_watch_tips(struct store *s, int64_t watch_id, char **tested, char **seen)
{
	char *t = NULL, *n = NULL;

	if (one_tip(s, "SELECT new_tip FROM watch_cycles WHERE watch_id = ?1 AND result IN "
		    "('baseline', 'no-regression', 'regression') ORDER BY id DESC LIMIT 1",
		    watch_id, &t) ||
	    one_tip(s, "SELECT new_tip FROM watch_cycles WHERE watch_id = ?1 AND "
		    "new_tip IS NOT NULL AND result IS NOT NULL ORDER BY id DESC LIMIT 1",
		    watch_id, &n)) {
		free(t);
		return -1;
	}
	if (tested)
		*tested = t;
	else
		free(t);
	if (seen)
		*seen = n;
	else
		free(n);
	return 0;
}

int store_watch_each_cycle(struct store *s, int64_t watch_id,
			   int (*cb)(const struct watch_cycle *c, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc, stop = 0;

	if (store_prepare(s, "SELECT " CYCLE_COLUMNS "WHERE ?1 = 0 OR c.watch_id = ?1 "
			  "ORDER BY c.id", &st))
		return -1;
	sqlite3_bind_int64(st, 1, watch_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct watch_cycle c;

		fill_cycle(s, st, &c);
		stop = cb(&c, arg);
		watch_cycle_release(&c);
		if (stop)
			break;
	}
	sqlite3_finalize(st);
	if (!stop && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read the cycles");
	return 0;
}

int store_watch_add_verdicts(struct store *s, int64_t cycle_id, const struct watch_verdict *v,
			     size_t n)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if (store_exec_locking(s, "BEGIN IMMEDIATE", "cannot lock the store to record verdicts"))
		return -1;
	if (store_prepare(s, "INSERT OR REPLACE INTO watch_verdicts(cycle_id, section, row, "
			  "verdict, change_pct, p, gating, regression, bisect_id, culprit) "
			  "VALUES (?,?,?,?,?,?,?,?,?,?)", &st))
		goto out;
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(st, 1, cycle_id);
		store_bind_text(st, 2, v[i].section);
		store_bind_text(st, 3, v[i].row);
		store_bind_text(st, 4, v[i].verdict);
		bind_real(st, 5, v[i].change_pct);
		bind_real(st, 6, v[i].p);
		sqlite3_bind_int(st, 7, !!v[i].gating);
		sqlite3_bind_int(st, 8, !!v[i].regression);
		if (v[i].bisect_id > 0)
			sqlite3_bind_int64(st, 9, v[i].bisect_id);
		else
			sqlite3_bind_null(st, 9);
		store_bind_text(st, 10, v[i].culprit && *v[i].culprit ? v[i].culprit : NULL);
		if (store_step_done(s, st, "cannot record a verdict of the cycle"))
			goto out;
	}
	rc = store_exec(s, "COMMIT", "cannot commit the verdicts");
out:
	sqlite3_finalize(st);
	if (rc)
		rollback(s);
	return rc;
}

int store_watch_verdict_bisect(struct store *s, int64_t cycle_id, const char *section,
			       const char *row, int64_t bisect_id, const char *culprit)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE watch_verdicts SET "
			  "bisect_id = CASE WHEN ?1 > 0 THEN ?1 ELSE bisect_id END, "
			  "culprit = coalesce(?2, culprit) "
			  "WHERE cycle_id = ?3 AND section = ?4 AND row = ?5", &st))
		return -1;
	sqlite3_bind_int64(st, 1, bisect_id);
	store_bind_text(st, 2, culprit);
	sqlite3_bind_int64(st, 3, cycle_id);
	store_bind_text(st, 4, section);
	store_bind_text(st, 5, row);
	rc = store_step_done(s, st, "cannot record the bisection of a row");
	sqlite3_finalize(st);
	return rc;
}

int store_watch_each_verdict(struct store *s, int64_t cycle_id,
			     int (*cb)(const struct watch_verdict *v, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc, stop = 0;

	if (store_prepare(s, "SELECT section, row, verdict, change_pct, p, gating, regression, "
			  "bisect_id, culprit FROM watch_verdicts WHERE cycle_id = ? "
			  "ORDER BY rowid", &st))
		return -1;
	sqlite3_bind_int64(st, 1, cycle_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct watch_verdict v = {
			.section = col_text(st, 0),
			.row = col_text(st, 1),
			.verdict = col_text(st, 2),
			.change_pct = col_real(st, 3),
			.p = col_real(st, 4),
			.gating = sqlite3_column_int(st, 5),
			.regression = sqlite3_column_int(st, 6),
			.bisect_id = sqlite3_column_int64(st, 7),
			.culprit = col_text(st, 8),
		};

		if ((stop = cb(&v, arg)))
			break;
	}
	sqlite3_finalize(st);
	if (!stop && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read the verdicts");
	return 0;
}

int store_watch_queue_mail(struct store *s, int64_t watch_id, int64_t cycle_id,
			   const struct watch_mail *m, int64_t *id)
{
	sqlite3_stmt *st = NULL;
	int rc = -1, changed;

	*id = 0;
	if (store_exec_locking(s, "BEGIN IMMEDIATE", "cannot lock the store to queue a mail"))
		return -1;
	if (store_prepare(s, "INSERT OR IGNORE INTO watch_mails(watch_id, cycle_id, kind, "
			  "section, row, culprit, subject, message_id, message, state, queued_at) "
			  "VALUES (?,?,?,?,?,?,?,?,?,'pending',?)", &st))
		goto out;
	sqlite3_bind_int64(st, 1, watch_id);
	sqlite3_bind_int64(st, 2, cycle_id);
	store_bind_text(st, 3, m->kind);
	store_bind_text(st, 4, m->section ? m->section : "");
	store_bind_text(st, 5, m->row ? m->row : "");
	store_bind_text(st, 6, m->culprit ? m->culprit : "");
	store_bind_text(st, 7, m->subject);
	store_bind_text(st, 8, m->message_id);
	store_bind_text(st, 9, m->message);
	store_bind_text(st, 10, m->queued_at);
	if (store_step_done(s, st, "cannot queue the mail"))
		goto out;
	changed = sqlite3_changes(s->db);
	sqlite3_finalize(st);
	st = NULL;
	if (store_prepare(s, "SELECT id FROM watch_mails WHERE watch_id = ? AND kind = ? AND "
			  "section = ? AND row = ? AND culprit = ?", &st))
		goto out;
	sqlite3_bind_int64(st, 1, watch_id);
	store_bind_text(st, 2, m->kind);
	store_bind_text(st, 3, m->section ? m->section : "");
	store_bind_text(st, 4, m->row ? m->row : "");
	store_bind_text(st, 5, m->culprit ? m->culprit : "");
	if (one_id(s, st, id, "cannot read the queued mail back"))
		goto out;
	sqlite3_finalize(st);
	st = NULL;
	if (store_exec(s, "COMMIT", "cannot commit the mail"))
		goto out;
	rc = changed ? 0 : 1;
out:
	sqlite3_finalize(st);
	if (rc < 0) {
		rollback(s);
		*id = 0;
	}
	return rc;
}

int store_watch_mail_sent(struct store *s, int64_t id, const char *sent_at)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE watch_mails SET state = 'sent', sent_at = ?, "
			  "attempts = attempts + 1 WHERE id = ?", &st))
		return -1;
	store_bind_text(st, 1, sent_at);
	sqlite3_bind_int64(st, 2, id);
	rc = store_step_done(s, st, "cannot record the mail as sent");
	sqlite3_finalize(st);
	return rc;
}

int store_watch_mail_failed(struct store *s, int64_t id, const char *error)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE watch_mails SET attempts = attempts + 1, last_error = ? "
			  "WHERE id = ?", &st))
		return -1;
	store_bind_text(st, 1, error);
	sqlite3_bind_int64(st, 2, id);
	rc = store_step_done(s, st, "cannot record the mail's failure");
	sqlite3_finalize(st);
	return rc;
}

int store_watch_each_mail(struct store *s, int64_t watch_id, int64_t cycle_id,
			  int pending_only, int (*cb)(const struct watch_mail *m, void *arg),
			  void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc, stop = 0;

	if (store_prepare(s, "SELECT id, watch_id, cycle_id, kind, section, row, culprit, "
			  "subject, message_id, message, state, attempts, last_error, queued_at, "
			  "sent_at FROM watch_mails WHERE (?1 = 0 OR watch_id = ?1) AND "
			  "(?2 = 0 OR cycle_id = ?2) AND (?3 = 0 OR state = 'pending') "
			  "ORDER BY id", &st))
		return -1;
	sqlite3_bind_int64(st, 1, watch_id);
	sqlite3_bind_int64(st, 2, cycle_id);
	sqlite3_bind_int(st, 3, !!pending_only);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct watch_mail m = {
			.id = sqlite3_column_int64(st, 0),
			.watch_id = sqlite3_column_int64(st, 1),
			.cycle_id = sqlite3_column_int64(st, 2),
			.kind = col_text(st, 3),
			.section = col_text(st, 4),
			.row = col_text(st, 5),
			.culprit = col_text(st, 6),
			.subject = col_text(st, 7),
			.message_id = col_text(st, 8),
			.message = col_text(st, 9),
			.state = col_text(st, 10),
			.attempts = sqlite3_column_int(st, 11),
			.last_error = col_text(st, 12),
			.queued_at = col_text(st, 13),
			.sent_at = col_text(st, 14),
		};

		if ((stop = cb(&m, arg)))
			break;
	}
	sqlite3_finalize(st);
	if (!stop && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read the mails");
	return 0;
}
