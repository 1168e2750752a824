/* plan: configs turned into a plan (sections x rows x iterations), every
 * section resolved to its workload and validated before anything runs. */
#ifndef KBENCH_PLAN_H
#define KBENCH_PLAN_H

#include <stddef.h>
#include <stdint.h>

struct config;
struct conf_entry;
struct conf_section;
struct monitor_set;
struct pin_topo;
struct pin_plan;
struct wl_option;
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
	const struct conf_entry *timeout_key;	/* NULL: the default timeout */
	struct pin_plan *pin;	/* from the workload's `pin` option; NULL: none */
};

/* The most samples one plan may hold, warm-up included: far beyond any
 * real run, and small enough that counts fit an int wherever they go. */
#define PLAN_MAX_SAMPLES 10000000

struct plan {
	struct plan_section *sections;
	size_t n;
	struct pin_topo *topo;	/* this machine, shared by the sections' pin plans */
};

/* Validate every section of c (selected by the PCRE2 pattern only, or all)
 * against its workload's option table, and refuse a plan of more than
 * PLAN_MAX_SAMPLES samples, naming the section that takes it over. Errors
 * name file, line, section and key; return 0 or -1. */
int plan_build(struct config *c, const char *only, struct plan *out);
/* plan_build() of the sections of c named in names[0..n-1] (those of a
 * run being resumed), in config order. Return 0 or -1. */
int plan_build_sections(struct config *c, const char *const *names, size_t n,
			struct plan *out);
void plan_release(struct plan *p);
/* The entry of the runner's own option `name` ("timeout", "iterations"...),
 * valid in every section, or NULL: direct mode parses its --timeout with
 * it, so that both accept the same values. */
const struct wl_option *plan_runner_option(const char *name);
/* Samples the plan will run, warm-up included (at most PLAN_MAX_SAMPLES
 * once plan_build accepted it). */
int64_t plan_total_samples(const struct plan *p);

#endif
