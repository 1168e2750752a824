/* watch: the store's side of kbench watch: watches (a branch of a tree a
 * host follows), their cycles and the step each reached, each row's
 * verdict in a cycle, and the mails a cycle queued, kept until sent. */
#ifndef KBENCH_DB_WATCH_H
#define KBENCH_DB_WATCH_H

#include <stddef.h>
#include <stdint.h>

struct store;

/* The watch of this host on (tree, remote, branch): found, or created
 * with config_name; its config_text set to the one given. Return 0 with
 * *id set, or -1. */
int store_watch_get(struct store *s, const char *tree, const char *remote, const char *branch,
		    const char *config_name, const char *config_text, const char *now,
		    int64_t *id);

/* The watch of this host on (tree, remote, branch), without creating it.
 * Return 0 with *id set, 1 when there is none, or -1. */
int store_watch_find(struct store *s, const char *tree, const char *remote, const char *branch,
		     int64_t *id);

struct watch_info {
	int64_t id;
	char *hostname, *tree, *remote, *branch, *config_name, *created_at;
};

void watch_info_release(struct watch_info *w);

/* Call cb for every watch, oldest first; cb returns non-zero to stop.
 * Return 0, or -1. */
int store_each_watch(struct store *s, int (*cb)(const struct watch_info *w, void *arg),
		     void *arg);

/* The steps of a cycle, in the order they are reached. */
enum watch_step {
	WATCH_STEP_FETCH,
	WATCH_STEP_BUILD,
	WATCH_STEP_EXPERIMENT,
	WATCH_STEP_BISECT,
	WATCH_STEP_MAIL,
	WATCH_STEP_DONE,
	WATCH_NSTEPS
};

/* The step's name as stored ("fetch", ...), NULL for none. */
const char *watch_step_name(enum watch_step step);
/* The step named name, or -1. */
int watch_step_from_name(const char *name);

struct watch_cycle {
	int64_t id, watch_id;
	char *old_tip, *new_tip;	/* "" while unknown */
	enum watch_step step;
	char *state;			/* running, complete, failed; a running
					 * one whose writer is gone reads
					 * "interrupted" */
	int alive;			/* marked running and its writer may be at
					 * work */
	char *result, *error;		/* "" while none */
	int64_t experiment_id, bisect_id;	/* 0: none */
	char *hostname, *started_at, *finished_at;	/* finished_at "" while
							 * running */
};

void watch_cycle_release(struct watch_cycle *c);

/* Begin a cycle of watch watch_id at step fetch, running, written by the
 * calling process. Return 0 with *id set, or -1. */
int store_watch_begin_cycle(struct store *s, int64_t watch_id, const char *started_at,
			    int64_t *id);

/* Cycle id, not finished, runs again in the calling process. Return 0 or
 * -1. */
int store_watch_resume_cycle(struct store *s, int64_t id);

/* Record the step cycle id reached. Return 0 or -1. */
int store_watch_cycle_step(struct store *s, int64_t id, enum watch_step step);

/* Record the tips of cycle id (either may be NULL: left as it is).
 * Return 0 or -1. */
int store_watch_cycle_tips(struct store *s, int64_t id, const char *old_tip,
			   const char *new_tip);

/* Record the experiment (experiment_id > 0) or the bisection (bisect_id
 * > 0) of cycle id; 0 leaves it as it is. Return 0 or -1. */
int store_watch_cycle_links(struct store *s, int64_t id, int64_t experiment_id,
			    int64_t bisect_id);

/* End cycle id: state "complete" (step done) or "failed" (the step stays
 * the one that failed), with result (see docs/schema.md) and error (NULL:
 * none). Return 0 or -1. */
int store_watch_end_cycle(struct store *s, int64_t id, const char *state, const char *result,
			  const char *error, const char *finished_at);

/* Cycle id into *c. Return 0, 1 when there is none, or -1. */
int store_watch_get_cycle(struct store *s, int64_t id, struct watch_cycle *c);

/* The latest cycle of watch watch_id still marked running, into *c.
 * Return 0, 1 when there is none, or -1. */
int store_watch_unfinished_cycle(struct store *s, int64_t watch_id, struct watch_cycle *c);

/* The tip the next cycle of watch_id tests against: the new tip of its
 * latest cycle that tested one (result baseline, no-regression or
 * regression), malloc'd into *tip; and the tip it saw last: the new tip
 * of its latest cycle that ended with a result (a tip that failed to
 * build included; one whose experiment failed is tried again), into
 * *seen. Either may be NULL (not wanted); each is
 * set to NULL when there is none. Return 0 or -1. */
int store_watch_tips(struct store *s, int64_t watch_id, char **tested, char **seen);

/* Call cb for every cycle of watch watch_id (0: of every watch), oldest
 * first; cb returns non-zero to stop. Return 0, or -1. */
int store_watch_each_cycle(struct store *s, int64_t watch_id,
			   int (*cb)(const struct watch_cycle *c, void *arg), void *arg);

struct watch_verdict {
	const char *section, *row;
	const char *verdict;		/* better, worse, within noise, cannot tell, untested */
	double change_pct;		/* new tip's change, % of the old tip's
					 * mean, positive: better; NaN unknown */
	double p;			/* NaN unknown */
	int gating, regression;
	int64_t bisect_id;		/* 0: none */
	const char *culprit;		/* NULL or "": none */
};

/* Record the verdicts of cycle id (replacing any recorded before for the
 * same rows), in one transaction. Return 0 or -1. */
int store_watch_add_verdicts(struct store *s, int64_t cycle_id, const struct watch_verdict *v,
			     size_t n);

/* Record the bisection of a row of cycle cycle_id (bisect_id > 0; 0 left
 * as it is) and the culprit it found (NULL: left as it is). Return 0 or
 * -1. */
int store_watch_verdict_bisect(struct store *s, int64_t cycle_id, const char *section,
			       const char *row, int64_t bisect_id, const char *culprit);

/* Call cb for every verdict of cycle cycle_id, in the order stored (the
 * strings live until cb returns); cb returns non-zero to stop. Return 0,
 * or -1. */
int store_watch_each_verdict(struct store *s, int64_t cycle_id,
			     int (*cb)(const struct watch_verdict *v, void *arg), void *arg);

struct watch_mail {
	int64_t id, watch_id, cycle_id;
	const char *kind;		/* report or failure */
	const char *section, *row;	/* a failure: "" and fetch or build */
	const char *culprit;		/* a report's first bad commit, a
					 * failure's tip */
	const char *subject, *message_id;
	const char *message;		/* the whole message, headers and body */
	const char *state;		/* pending or sent */
	int attempts;
	const char *last_error;		/* "" none */
	const char *queued_at, *sent_at;	/* sent_at "" while pending */
};

/* Queue mail m (its kind, section, row, culprit, subject, message_id,
 * message, queued_at) for watch watch_id from cycle cycle_id, pending.
 * Return 0 with *id set, 1 when a mail of the same watch, kind, section,
 * row and culprit was queued before (sent or not: nothing is queued,
 * *id is that mail's), or -1. */
int store_watch_queue_mail(struct store *s, int64_t watch_id, int64_t cycle_id,
			   const struct watch_mail *m, int64_t *id);

/* Mail id was sent at sent_at. Return 0 or -1. */
int store_watch_mail_sent(struct store *s, int64_t id, const char *sent_at);

/* A try to send mail id failed, for error: it stays pending, one attempt
 * more. Return 0 or -1. */
int store_watch_mail_failed(struct store *s, int64_t id, const char *error);

/* Call cb for the mails of watch watch_id that are pending (pending_only)
 * or of cycle cycle_id (watch_id 0), oldest first (the strings live until
 * cb returns); cb returns non-zero to stop. Return 0, or -1. */
int store_watch_each_mail(struct store *s, int64_t watch_id, int64_t cycle_id,
			  int pending_only, int (*cb)(const struct watch_mail *m, void *arg),
			  void *arg);

#endif
