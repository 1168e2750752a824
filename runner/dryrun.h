/* dryrun: what `kbench run --dry-run` prints: the plan, each section's
 * effective keys and an estimate of how long the run will take. */
#ifndef KBENCH_DRYRUN_H
#define KBENCH_DRYRUN_H

#include <stddef.h>

struct config;
struct plan;
struct store;

/* Print plan p of config c on stdout: its table (sections, workloads,
 * iterations, warm-up, rows, samples), the effective keys of each section
 * (those set and the defaults that matter: pin, duration, iterations,
 * warmup, timeout, rounds when the section has them) and the estimated
 * duration of each section over all its rounds, from the plan where the
 * workload knows a sample's length a priori and from the last complete
 * run with the same effective options on this host in s (NULL: no store
 * to look in). Return 0, or -1 after an error reading s. */
int dryrun_print(const struct plan *p, const struct config *c, struct store *s);

/* The estimate dryrun_print() totals, printing nothing: *seconds over the
 * sections with one, *unknown the count of those without. Return 0, or
 * -1 after an error reading s. */
int dryrun_estimate(const struct plan *p, struct store *s, double *seconds, int *unknown);

/* Seconds as dryrun_print() writes a duration ("12.0 s", "3:20",
 * "1:02:03") into buf. */
void dryrun_format_duration(double s, char *buf, size_t len);

#endif
