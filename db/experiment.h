/* experiment: the store's side of A/B experiments (kbench ab): the
 * experiment row its arms' runs point to, and the journal of the knobs
 * it changes, written before the first change so that a knob left
 * changed by a writer that died can be put back. */
#ifndef KBENCH_DB_EXPERIMENT_H
#define KBENCH_DB_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

struct run_writer;
struct store;
struct strbuf;

struct experiment_record {
	const char *uuid;
	const char *name;
	const char *config_name;
	const char *arms;		/* arm names, separated by blanks */
	int rounds;
	const char *arm_order;		/* "abba" or "shuffle" */
	int has_seed;
	uint64_t seed;
	const char *started_at;		/* UTC, ISO 8601 */
	const char *design;		/* a sequential design; NULL: fixed rounds */
};

/* Record a new experiment, status running. Return 0 with *id set, or -1. */
int store_begin_experiment(struct store *s, const struct experiment_record *e, int64_t *id);
/* Close experiment id with status ("complete", "interrupted", "failed").
 * Return 0 or -1. */
int store_finish_experiment(struct store *s, int64_t id, const char *status,
			    const char *finished_at);

/* Experiment id still marked running has lost its writer: mark it
 * interrupted at finished_at. Return 0 or -1. */
int store_experiment_abandoned(struct store *s, int64_t id, const char *finished_at);

/* Experiment id ended after its first rounds rounds (a sequential design
 * that decided early): its design is cut to them. Return 0 or -1. */
int store_set_experiment_rounds(struct store *s, int64_t id, int rounds);

/* Experiment id, closed, runs again (kbench ab --resume). Return 0 or -1. */
int store_resume_experiment(struct store *s, int64_t id);

/* An experiment as read. */
struct experiment_info {
	int64_t id;
	char *uuid, *name, *config_name;
	char *arms;			/* arm names, separated by blanks */
	int rounds;
	char *arm_order;
	int has_seed;
	uint64_t seed;
	char *started_at, *finished_at;	/* finished_at "" while running */
	char *status;			/* as shown: every arm's writer gone reads
					 * "interrupted" */
	int64_t nruns, nsamples;	/* of its arms' runs in this store */
	char *design;			/* NULL: a fixed number of rounds */
};

void experiment_info_release(struct experiment_info *x);

/* Experiment id into *x. Return 0, 1 when there is none, or -1. */
int store_get_experiment(struct store *s, int64_t id, struct experiment_info *x);

/* Resolve an experiment selector: "@ID", "#ID" or ID; a name, its latest
 * experiment; a uuid prefix (4 hex digits or more). Return 0 with *id
 * set, or -1 with err saying why (a name none has: with the closest
 * stored name, "did you mean"; a store error is printed). */
int store_find_experiment(struct store *s, const char *sel, int64_t *id, struct strbuf *err);

/* Call cb for every experiment, oldest first; a non-zero return stops the
 * walk and is returned. Return 0 or -1 after an error. */
int store_each_experiment(struct store *s, int (*cb)(const struct experiment_info *x, void *arg),
			  void *arg);

/* A run of an experiment's arm, as read. */
struct experiment_run {
	int64_t run_id;
	const char *arm;
	int rounds;		/* rounds it holds samples of */
};

/* Call cb for every run of experiment uuid (the runs whose facts name
 * it), oldest first; a non-zero return stops the walk and is returned.
 * Return 0 or -1 after an error. */
int store_each_experiment_run(struct store *s, const char *uuid,
			      int (*cb)(const struct experiment_run *r, void *arg), void *arg);

/* One row of one look of an experiment with a sequential design (its
 * mean row of an arm against the first arm; the table experiment_looks
 * of docs/schema.md). */
struct experiment_look {
	int look;			/* from 1 */
	int rounds;
	const char *arm, *section, *row, *stat;
	double pct, lo_pct, hi_pct;	/* NaN: unknown */
	double t, bound;
	const char *decision;		/* change, no change, go on, cannot tell */
	int watched;
	const char *looked_at;		/* UTC, ISO 8601 */
};

/* Store the rows l[0..n-1] of a look of experiment id in one transaction.
 * Return 0 or -1. */
int store_add_experiment_looks(struct store *s, int64_t id, const struct experiment_look *l,
			       size_t n);

/* Call cb for every look row of experiment id, by look, arm (as stored),
 * section and row; a non-zero return stops the walk and is returned.
 * Return 0 or -1 after an error. */
int store_each_experiment_look(struct store *s, int64_t id,
			       int (*cb)(const struct experiment_look *l, void *arg), void *arg);

/* A knob's original value, as journalled. */
struct knob_original {
	const char *path;
	const char *original;
	const char *written;	/* the values the experiment may write, one a line */
};

/* Journal the original values k[0..n-1] of experiment id, written by w on
 * hostname, in one transaction committed before this returns (a path
 * journalled already for id keeps its first value). Return 0 or -1. */
int store_journal_knobs(struct store *s, int64_t id, const struct knob_original *k, size_t n,
			const char *hostname, const struct run_writer *w, const char *written_at);
/* Drop the journal row of path for experiment id (path NULL: all of its
 * rows): the knob holds its original value again. Return 0 or -1. */
int store_journal_forget(struct store *s, int64_t id, const char *path);

/* One journal row, as read. */
struct journal_row {
	int64_t experiment_id;
	const char *path;
	const char *original;
	const char *written;	/* NULL: journalled before schema version 11 */
	const char *hostname;
	int64_t pid;
	int alive;		/* its writer may still be at work (liveness.c) */
	int here;		/* written on this host */
	int other_boot;		/* here, but before the machine last booted: the
				 * knob was reset by the boot (and a sysfs path
				 * may name something else now) */
};

/* Call cb for every journal row, by experiment then path; a non-zero
 * return stops the walk and is returned. Return 0 or -1 after an error. */
int store_each_journal(struct store *s, int (*cb)(const struct journal_row *r, void *arg),
		       void *arg);

#endif
