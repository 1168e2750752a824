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

/* The order of a section's samples within one round (key sample_order). */
enum sample_order {
	ORDER_ROWS,	/* each row's samples back to back */
	ORDER_ROUNDS,	/* one sample of each row in turn */
	ORDER_SHUFFLE,	/* the round's samples in a seeded random order */
};

struct plan_section {
	const struct conf_section *cs;
	const struct workload_ops *ops;
	struct wl_params *params;
	int iterations;		/* per row per round; with auto_iterations, the cap */
	int warmup;
	int rounds;		/* times the plan is gone through (rounds = N) */
	enum sample_order order;
	int auto_iterations;	/* iterations = auto: stop at ci_target */
	double ci_target;	/* half-width of the 95% CI over the mean, a fraction */
	int min_iterations, max_iterations;
	uint64_t seed;		/* of the shuffle; set for every section */
	const struct conf_entry *seed_key;	/* NULL: the run's seed */
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
	uint64_t seed;		/* the run's order seed: [global] seed, else drawn */
	int shuffled;		/* some section has sample_order = shuffle */
	int rounds;		/* the most rounds of any section */
};

/* Validate every section of c (selected by the PCRE2 pattern only, or all)
 * against its workload's option table, and refuse a plan of more than
 * PLAN_MAX_SAMPLES samples, naming the section that takes it over. Errors
 * name file, line, section and key; return 0 or -1. */
int plan_build(struct config *c, const char *only, struct plan *out);
/* plan_build() with pin policies computed on topo (NULL: this machine),
 * which the plan owns from then on: a guest's (kernel/vm.h). */
int plan_build_on(struct config *c, const char *only, struct pin_topo *topo, struct plan *out);
/* plan_build() of the sections of c named in names[0..n-1] (those of a
 * run being resumed), in config order. Return 0 or -1. */
int plan_build_sections(struct config *c, const char *const *names, size_t n,
			struct plan *out);
void plan_release(struct plan *p);
/* The entry of the runner's own option `name` ("timeout", "iterations"...),
 * valid in every section, or NULL: direct mode parses its --timeout with
 * it, so that both accept the same values. */
const struct wl_option *plan_runner_option(const char *name);
/* The runner's own keys, which every section takes: a table ending in a
 * NULL name. */
const struct wl_option *plan_runner_options(void);
/* The workload of section cs of c (its workload key, else its name up
 * to the first '-'); NULL: none. */
const struct workload_ops *plan_section_workload(const struct conf_section *cs,
						 const struct config *c);
/* Samples the plan will run, warm-up included (at most PLAN_MAX_SAMPLES
 * once plan_build accepted it). */
int64_t plan_total_samples(const struct plan *p);
/* The name of a sample order as configs write it ("rows", "rounds",
 * "shuffle"), the one spelling stored and printed. */
const char *plan_order_name(enum sample_order order);

/* The order of the counted samples of ps in round `round` (from 1): into
 * slots[0..nrows*iterations-1], row indices, each row iterations times.
 * A shuffle is a Fisher-Yates shuffle driven by splitmix64 seeded from
 * ps->seed, the section's name and the round, so the same seed gives the
 * same order on any build and machine. */
void plan_round_order(const struct plan_section *ps, int round, size_t *slots);
/* The splitmix64 generator (Steele, Lea, Flood 2014): advance *state and
 * return the next 64-bit value. */
uint64_t plan_splitmix64(uint64_t *state);

/* The stop rule of iterations = auto. The half-width of the 95%
 * confidence interval of the mean of n samples (Student t with n - 1
 * degrees of freedom) relative to |mean|, from their mean and sum of
 * squared deviations m2; NaN when n < 2 or the mean is 0. */
double plan_ci_relative(long n, double mean, double m2);
/* Whether a row of ps with n samples so far is done: the target met with
 * at least min_iterations samples (*met set to 1), or the cap reached. */
int plan_row_done(const struct plan_section *ps, long n, double mean, double m2, int *met);

/* Call fn(name, arg) with each row of p as compare and a look name it,
 * SECTION/ROW, ROW as stored: the row's label ("4"), or NAME-label for a
 * workload's named metric ("send-64"), until it returns non-zero; return
 * that, or 0. */
int plan_each_row_name(const struct plan *p, int (*fn)(const char *name, void *arg),
		       void *arg);

#endif
