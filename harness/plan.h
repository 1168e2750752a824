/* plan: configs turned into a plan (sections x rows x iterations), every
 * section resolved to its workload and validated before anything runs. */
#ifndef KBENCH_PLAN_H
#define KBENCH_PLAN_H

#include <stddef.h>

struct config;
struct conf_entry;
struct conf_section;
struct monitor_set;
struct pin_topo;
struct pin_plan;
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

#endif
