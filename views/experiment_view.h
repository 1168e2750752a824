/* experiment_view: an A/B experiment as kbench show and kbench experiments
 * print it: its design and status, its arms with their runs, and what an
 * arm's run holds of it (the arm's keys, every knob file as read back). */
#ifndef KBENCH_EXPERIMENT_VIEW_H
#define KBENCH_EXPERIMENT_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "db/experiment.h"

struct json;
struct store;

struct view_run {
	int64_t run_id;
	char *arm;
	char *status;		/* as shown */
	int64_t nsamples;
	int rounds;		/* rounds it holds samples of */
	/* A kernel arm's boots (vm.boot_s.round-R): how many, the shortest
	 * and the longest in seconds. */
	int nboots;
	double boot_lo, boot_hi;
};

struct view_fact {
	char *key, *value;
};

/* A row of a look of a sequential experiment, as stored. */
struct view_look {
	int look, rounds, watched;
	char *arm, *section, *row, *stat, *decision;
	double pct, lo_pct, hi_pct, t, bound;
};

struct experiment_view {
	struct experiment_info info;	/* info.id 0: not in this store (imported) */
	char *uuid;
	struct view_run *runs;		/* its arms' runs in this store */
	size_t nruns, runs_alloc;
	struct view_look *looks;	/* a sequential design's, in order */
	size_t nlooks, looks_alloc;
	/* Of one arm's run (experiment_view_of_run()): */
	int64_t run_id;			/* 0: none */
	char *arm;
	struct view_fact *keys;		/* the arm's keys, as written */
	size_t nkeys, keys_alloc;
	struct view_fact *knobs;	/* knob file, value read back */
	size_t nknobs, knobs_alloc;
};

/* The experiment run_id is an arm of, from the run's facts and, where
 * this store holds it, the experiment's row and its other runs. Return
 * 0, 1 when the run is no arm of an experiment, or -1 after an error. */
int experiment_view_of_run(struct store *s, int64_t run_id, struct experiment_view *v);

/* Experiment id of this store with its arms' runs. Return 0, or -1 after
 * an error. */
int experiment_view_load(struct store *s, int64_t id, struct experiment_view *v);

void experiment_view_release(struct experiment_view *v);

/* The view as text: the design, status and arms (marking the run the
 * view was made of), then that run's arm keys and knobs, files of one
 * attribute under one directory counted together by value. */
void experiment_view_print(const struct experiment_view *v);

/* The view as the members of a JSON object the caller opened. */
void experiment_view_json(struct json *j, const struct experiment_view *v);

#endif
