/* report: what a command prints when its runs end (views/report.c). */
#ifndef KBENCH_VIEWS_REPORT_H
#define KBENCH_VIEWS_REPORT_H

#include "compare/compare.h"	/* enum compare_format */

#include <stdint.h>

struct experiment;
struct store;

/* After a run: print its table, and a comparison with the previous
 * complete run of the same config on this machine when there is one.
 * Return 0, or -1 after printing why. */
int report_run(struct store *s, int64_t run_id);

/* After an experiment (kbench ab, kbench vm with arms): print the
 * comparison of its arms' runs in s, in format, as kbench compare of them
 * prints it. Return 0, or -1 after printing why. */
int report_experiment(struct store *s, const struct experiment *e,
		      enum compare_format format);

#endif
