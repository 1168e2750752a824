/* runner/sample_run: one sample of a row, run and read back, with its
 * monitors around it (runner/runner.c runs a plan's samples through it). */
#ifndef KBENCH_SAMPLE_RUN_H
#define KBENCH_SAMPLE_RUN_H

#include <signal.h>

struct child;
struct monitor_set;
struct monitor_values;
struct strbuf;
struct wl_params;
struct wl_sample;
struct workload_ops;

/* Run one sample of row as run_sample() does (runner/runner.h), with the
 * monitors of ms around it (NULL: none; their values added to mv) and
 * stopped early when *stop becomes non-zero (a signal). Return 0 with out
 * filled, or -1 with the reason in reason. */
int run_sample_monitored(const struct workload_ops *ops, const struct wl_params *params,
			 long long row, double timeout_s, volatile sig_atomic_t *stop,
			 struct monitor_set *ms, struct monitor_values *mv,
			 struct wl_sample *out, struct child *c, struct strbuf *reason);

/* While a plan runs (between begin and end), its samples are served by
 * one kbench-sample process instead of one spawned a sample; end stops
 * that process. */
void sample_serve_begin(void);
void sample_serve_end(void);

#endif
