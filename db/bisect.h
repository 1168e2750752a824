/* bisect: the store's side of kbench bisect: a bisection (its tree, ends,
 * configs and options), the commits it listed when it began, and its
 * steps, each tied to the experiment it ran, so that a stopped bisection
 * resumes from what is stored and its log is printed from it. */
#ifndef KBENCH_DB_BISECT_H
#define KBENCH_DB_BISECT_H

#include <stddef.h>
#include <stdint.h>

struct run_writer;
struct store;
struct strbuf;

/* A commit of a bisection: idx -1 the good end, 0 the oldest one it can
 * name, the bad end last. */
struct bisect_commit {
	long idx;
	const char *id;		/* full commit id */
	const char *subject;
	const char *author;	/* "Name <address>" */
	int parents;		/* 2 or more: a merge */
};

struct bisect_record {
	const char *uuid;
	const char *tree;
	const char *good, *bad;		/* commit ids */
	const char *good_ref, *bad_ref;	/* as given */
	const char *config_name, *config_text;
	const char *settings;		/* "key=value" lines */
	const char *command;
	const char *section, *row;	/* NULL: chosen at the first step */
	const char *started_at;		/* UTC, ISO 8601 */
	const struct bisect_commit *commits;	/* the good end first, then idx 0... */
	size_t ncommits;
};

/* Record a new bisection, status running, written by the calling process,
 * with its commits, in one transaction. Return 0 with *id set, or -1. */
int store_begin_bisect(struct store *s, const struct bisect_record *b, int64_t *id);

/* The row bisection id decides on, and its change from the good end to
 * the bad one (%, positive: better). Return 0 or -1. */
int store_set_bisect_row(struct store *s, int64_t id, const char *section, const char *row,
			 double regression_pct);

/* Close bisection id: status "complete" with result ("found", "skipped",
 * "no-regression") and first_bad (NULL: none), or "interrupted" or
 * "failed" (result and first_bad NULL). Return 0 or -1. */
int store_finish_bisect(struct store *s, int64_t id, const char *status, const char *result,
			const char *first_bad, const char *finished_at);

/* Bisection id, not complete, runs again in the calling process. Return 0
 * or -1. */
int store_resume_bisect(struct store *s, int64_t id);

struct bisect_info {
	int64_t id;
	char *uuid, *tree, *good, *bad, *good_ref, *bad_ref;
	char *config_name, *config_text, *settings, *command;
	char *section, *row;		/* "" while not chosen */
	double regression_pct;		/* NaN while unknown */
	char *status;			/* a running one whose writer is gone reads
					 * "interrupted" */
	int alive;			/* marked running and its writer may be at work */
	char *result, *first_bad;	/* "" while none */
	char *hostname;
	char *started_at, *finished_at;	/* finished_at "" while running */
	int steps;			/* steps recorded */
};

void bisect_info_release(struct bisect_info *b);

/* Bisection id into *b. Return 0, 1 when there is none, or -1. */
int store_get_bisect(struct store *s, int64_t id, struct bisect_info *b);

/* Resolve a bisection selector: "#ID" or ID, a uuid prefix (4 hex digits
 * or more); NULL or "" the latest one. Return 0 with *id set, or -1 with
 * err saying why (a store error is printed). */
int store_find_bisect(struct store *s, const char *sel, int64_t *id, struct strbuf *err);

/* Call cb for every bisection, oldest first; a non-zero return stops the
 * walk and is returned. Return 0 or -1 after an error. */
int store_each_bisect(struct store *s, int (*cb)(const struct bisect_info *b, void *arg),
		      void *arg);

/* Call cb for each commit of bisection id in idx order, the good end
 * first. Return 0, the callback's non-zero value, or -1 after an error. */
int store_each_bisect_commit(struct store *s, int64_t id,
			     int (*cb)(const struct bisect_commit *c, void *arg), void *arg);

/* A step as recorded; the strings are the store's until the callback
 * returns. */
struct bisect_step {
	int64_t bisect_id;
	int step;
	const char *commit;
	const char *good, *bad;		/* the ends it ran beside */
	int64_t experiment_id;		/* 0: none */
	int rounds;
	const char *verdict;		/* NULL: not decided (running, or stopped) */
	const char *reason;		/* NULL: none */
	double vs_good_pct, vs_good_p, vs_bad_pct, vs_bad_p;	/* NaN: none */
	const char *accel;		/* NULL: unknown */
	const char *started_at, *finished_at;
};

/* Record step s->step of bisection s->bisect_id as begun (commit, ends,
 * started_at; the rest is ignored): a step of that number recorded before
 * without a verdict (stopped part way) is begun again, its experiment
 * forgotten. Return 0 or -1. */
int store_begin_bisect_step(struct store *s, const struct bisect_step *step);

/* The experiment a step runs. Return 0 or -1. */
int store_set_bisect_step_experiment(struct store *s, int64_t bisect_id, int step,
				     int64_t experiment_id);

/* Record a step's outcome: verdict, reason, rounds, the verdicts' figures,
 * accel and finished_at of st. Return 0 or -1. */
int store_finish_bisect_step(struct store *s, const struct bisect_step *st);

/* Call cb for each step of bisection id in order. Return 0, the
 * callback's non-zero value, or -1 after an error. */
int store_each_bisect_step(struct store *s, int64_t id,
			   int (*cb)(const struct bisect_step *st, void *arg), void *arg);

#endif
