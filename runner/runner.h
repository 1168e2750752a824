/* runner: runs a plan (runner/plan.h) as a new run, each sample in a
 * forked child with a timeout, committing what it measured at once; and
 * one sample alone, for direct mode. */
#ifndef KBENCH_RUNNER_H
#define KBENCH_RUNNER_H

#include <signal.h>
#include <stdint.h>

struct child;
struct config;
struct kernel_info;
struct monitor_set;
struct monitor_values;
struct plan;
struct plan_section;
struct store;
struct strbuf;
struct wl_params;
struct wl_sample;
struct workload_ops;

/* Where a run's samples go when not to this machine's kernel: a guest
 * booted under QEMU (kernel/vm.h). */
struct sample_executor {
	/* Run one sample of row of ps, as run_sample() does: 0 with out and
	 * c's times filled, -1 with the reason in reason, or -2 when the
	 * executor is gone (the reason says how): the run stops there and
	 * is marked failed. *stop set (a signal) ends the wait. */
	int (*run)(void *arg, const struct plan_section *ps, long long row,
		   struct wl_sample *out, struct child *c, struct strbuf *reason,
		   volatile sig_atomic_t *stop);
	/* Facts stored with the run's row, in its transaction (may be NULL). */
	int (*facts)(void *arg, struct store *s, int64_t run_id);
	const struct kernel_info *kernel;	/* recorded instead of this machine's */
	void *arg;
};

struct run_request {
	const char *name;	/* run name; NULL: the kernel release */
	int64_t resume;		/* a run of this plan to resume in place; 0: a new run */
	/* An experiment (experiment/experiment.h) runs each arm's plan one round
	 * at a time into the arm's run, resumed for each round after the
	 * first. */
	int round;		/* run only this round (from 1); 0: every round */
	int next_round;		/* resume is the run this process ran the round
				 * before of: resume it quietly */
	int keep_running;	/* leave a run that completes marked running: more
				 * rounds follow, resumed into it */
	const char *tag;	/* before each progress line ("round 2/6 base"); NULL: none */
	/* Called once a new run is recorded, before its first sample (NULL:
	 * none): facts of the run that must be there whatever happens next.
	 * Non-zero (after saying why) fails the run before any sample. */
	int (*facts)(struct store *s, int64_t run_id, void *arg);
	void *facts_arg;
	const struct sample_executor *exec;	/* NULL: samples run here */
	/* Called before each sample (warm set for a warm-up) and after it
	 * (after set); NULL: none. An experiment's arm starts its background
	 * load there (experiment/background.h) and checks that it lives.
	 * Non-zero, with why, fails the sample (recorded with why) and ends
	 * the run there, failed. */
	int (*around_sample)(void *arg, int warm, int after, struct strbuf *why);
	void *around_arg;
	/* The command that runs the rest of an interrupted run, named in
	 * the message that says it was interrupted ("kbench run --resume");
	 * NULL: none is named. */
	const char *resume_cmd;
};

/* The samples, warm-ups included, that run run_id of plan p still needs
 * in round `round` (from 1): 0 when the store holds that round whole (an
 * experiment's resume boots no guest for it). Return the count, or -1
 * after an error. */
int64_t plan_round_left(struct plan *p, struct store *s, int64_t run_id, int round);

/* Run the plan into s as a new run, or into the run req->resume, running
 * only the (section, row, iteration) samples it does not hold yet (a row
 * with samples left runs its warm-up again); *run_id is set as soon as the
 * run is recorded. When the store fails the run stops, keeps what it
 * stored, and what was in hand goes to a recovery file (record.h) whose
 * path is printed. Return 0 when the run completed, 1 when it finished
 * with failed samples only, 128+signal when interrupted, -1 when the
 * store failed or on a setup error. */
int plan_execute(struct plan *p, struct config *c, struct store *s,
		 const struct run_request *req, int64_t *run_id);

/* One sample of one row, in a forked child with a timeout, for direct mode
 * and the runner alike. On failure reason says why and -1 is returned. */
int run_sample(const struct workload_ops *ops, const struct wl_params *params,
	       long long row, double timeout_s, struct wl_sample *out,
	       struct child *c, struct strbuf *reason);

#endif
