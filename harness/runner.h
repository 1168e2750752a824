/* runner: turns configs into a plan (sections x rows x iterations),
 * validated before anything runs, then runs each sample in a forked child
 * and commits what it measured at once. */
#ifndef KBENCH_RUNNER_H
#define KBENCH_RUNNER_H

#include <stddef.h>
#include <stdint.h>

struct config;
struct conf_entry;
struct conf_section;
struct monitor_set;
struct monitor_values;
struct pin_topo;
struct strbuf;
struct store;
struct wl_params;
struct workload_ops;

struct plan_section {
	const struct conf_section *cs;
	const struct workload_ops *ops;
	struct wl_params *params;
	int iterations;
	int warmup;
	double timeout_s;
	const long long *rows;	/* owned by params */
	size_t nrows;
	struct monitor_set *monitors;	/* the `monitors` of this section */
	const struct conf_entry *monitors_key, *perf_events_key;	/* NULL: default */
	struct pin_plan *pin;	/* from the workload's `pin` option; NULL: none */
};

struct plan {
	struct plan_section *sections;
	size_t n;
	struct pin_topo *topo;	/* this machine, shared by the sections' pin plans */
};

/* Validate every section of c (selected by the PCRE2 pattern only, or all)
 * against its workload's option table. Errors name file, line, section and
 * key; return 0 or -1. */
int plan_build(struct config *c, const char *only, struct plan *out);
void plan_release(struct plan *p);
/* Samples the plan will run, warm-up included. */
int plan_total_samples(const struct plan *p);

struct run_request {
	const char *name;	/* run name */
	int dry_run;		/* print the plan only */
};

/* Run the plan into s as a new run; *run_id is set as soon as the run is
 * recorded. Return 0 when the run completed, 1 when it finished with
 * failed samples only, 128+signal when interrupted, -1 on a setup error. */
int plan_execute(struct plan *p, struct config *c, struct store *s,
		 const struct run_request *req, int64_t *run_id);

/* One sample of one row, in a forked child with a timeout, for direct mode
 * and the runner alike. On failure reason says why and -1 is returned. */
struct wl_sample;
struct child;
int run_sample(const struct workload_ops *ops, const struct wl_params *params,
	       long long row, double timeout_s, struct wl_sample *out,
	       struct child *c, struct strbuf *reason);
/* run_sample() with the monitors of ms around it (NULL: none): they are
 * read before the fork, attached to the held child, and read after the
 * reap; their values are added to mv. */
int run_sample_monitored(const struct workload_ops *ops, const struct wl_params *params,
			 long long row, double timeout_s, struct monitor_set *ms,
			 struct monitor_values *mv, struct wl_sample *out,
			 struct child *c, struct strbuf *reason);

#endif
