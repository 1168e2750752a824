/* record: what a run leaves in the store: the run row (machine, kernel,
 * config), each section's effective options and monitors, every sample and
 * failure as it arrives, and the run's final status. */
#ifndef KBENCH_RECORD_H
#define KBENCH_RECORD_H

#include <stdint.h>

#include "lib/strbuf.h"

struct child;
struct config;
struct kernel_info;
struct monitor_values;
struct plan;
struct plan_section;
struct run_info;
struct store;
struct wl_sample;

/* Create the run row for plan p of config c, named name (NULL: the kernel
 * release), with every section's effective options and monitors; prepare
 * the monitors and say once what they cannot measure here. *run_id is set
 * as soon as the row exists. Return 0, or -1 after printing why. */
int record_begin_run(struct store *s, const struct plan *p, const struct config *c,
		     const char *name, int64_t *run_id);
/* record_begin_run() of a run whose samples run elsewhere (a guest):
 * the kernel facts are ki's, not this machine's, the name defaults to
 * ki's release, and facts(arg, s, run_id) adds the run's own facts in
 * the same transaction. */
int record_begin_run_on(struct store *s, const struct plan *p, const struct config *c,
			const char *name, const struct kernel_info *ki,
			int (*facts)(void *arg, struct store *s, int64_t run_id), void *arg,
			int64_t *run_id);
/* Close the run with status ("complete", "interrupted", "failed") and the
 * time now. Return 0 or -1. */
int record_finish_run(struct store *s, int64_t run_id, const char *status);

/* Per-section monitor figures (the slab caches before the first sample
 * and after the last), stored as row `when`, iteration 0. Return 0 or -1. */
int record_section_monitors(struct store *s, int64_t run_id, const struct plan_section *ps,
			    const char *when, const struct monitor_values *mv);
/* One sample of ps in round `round` (from 1): its results, the
 * workload's extras and the monitor values mv, timed by the child c, in
 * one transaction. A negative iteration -k is the round's warm-up sample
 * k: stored marked as one, its results and times only. Return 0 or -1. */
int record_sample(struct store *s, int64_t run_id, const struct plan_section *ps,
		  int round, int iteration, const struct wl_sample *smp, const struct child *c,
		  const struct monitor_values *mv);
/* How round `round` of row `row` of ps (iterations = auto) ended: the
 * samples it stored, the relative CI half-width reached (NaN: unknown)
 * and whether the target was met. Return 0 or -1. */
int record_row_result(struct store *s, int64_t run_id, const struct plan_section *ps,
		      long long row, int round, int iterations, double ci_reached, int met);
/* A failed sample of row `row` (iteration negative for a warm-up) and why.
 * Return 0 or -1. */
int record_failure(struct store *s, int64_t run_id, const struct plan_section *ps,
		   long long row, int iteration, const char *reason);

/* A resumed run: mark run_id running again and prepare the monitors of
 * p, saying once what they cannot measure (the run holds why already).
 * Return 0, or -1 after printing why. */
int record_resume_run(struct store *s, const struct plan *p, int64_t run_id);
/* Why run ri cannot be continued here (measured on another machine or,
 * when kernel is set, another kernel: a run measured in a guest has the
 * guest's), appended to why; nothing when it can. Return 0, or -1 after
 * an error (this machine's or kernel's facts unreadable). */
int record_other_system(const struct run_info *ri, int kernel, struct strbuf *why);

/* Where a run puts what its store could not take (a store that stays
 * locked, a full disk): a recovery file, a store of the same schema with
 * the run's row (same uuid) and facts, for `kbench recover FILE`. */
struct record_recovery {
	struct store *s;	/* the recovery file; NULL once closed */
	int64_t run_id;		/* the run in it */
	struct strbuf path;	/* empty: none could be made (or, in
				 * memory, none is written yet) */
	char *beside;		/* in memory: the store it is saved beside */
	char uuid[40];		/* in memory: the run's, to name the file */
};

/* Create a recovery file for run ri of plan p, as ri was read from the
 * store at store_path: beside the store, else in $TMPDIR (or /tmp).
 * Return 0, or -1 after saying why none could be made. */
int record_recovery_open(const char *store_path, const struct run_info *ri,
			 const struct plan *p, struct record_recovery *rec);
/* The same, kept in memory: a copy of everything this process stores
 * for the run, saved to a file (as record_recovery_open places it, beside
 * store_path) only by record_recovery_close: what stays of a run whose
 * store was truncated or replaced under it. Return 0, or -1 after saying
 * why. */
int record_recovery_open_memory(const char *store_path, const struct run_info *ri,
				const struct plan *p, struct record_recovery *rec);
/* Close the recovery file's run with status, then the file (rec->path
 * stays; one kept in memory is saved to a file, whose path it is).
 * Return 0 or -1. */
int record_recovery_close(struct record_recovery *rec, const char *status);
void record_recovery_release(struct record_recovery *rec);
/* The in-memory copy could not take what the store took: say so, and
 * keep none from here on. */
void record_copy_failed(struct record_recovery *copy, int64_t run_id);

/* What a run's writer did, for the messages of a store that failed. */
struct record_tally {
	long stored;		/* samples this process stored */
	long before;		/* samples stored before it resumed the run */
	long rescued;		/* samples the store did not take, in rec */
	int saved;		/* things written to the recovery file rec */
	int damaged;		/* the store was damaged: rec is the copy of
				 * all this process stored */
};

/* The store s failed during run run_id: close rec (status failed), mark
 * the run failed where s still lets it, and say what the store kept and
 * where the rest is (for a damaged store: that it may hold nothing, and
 * that rec holds all this process measured). */
void record_report_store_failure(struct store *s, int64_t run_id, struct record_recovery *rec,
				 const struct record_tally *t);
/* The run ended (status) but the store could not take its status: rec
 * (closed with it) carries it; a damaged store is said as above. */
void record_report_unfinished(struct store *s, int64_t run_id, struct record_recovery *rec,
			      const struct record_tally *t, const char *status);

#endif
