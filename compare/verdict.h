/* verdict: the mean rows of one stored run against another, each with its
 * change and the decision kbench compare prints for it (the paired test
 * when both runs are arms of one experiment): what kbench bisect reads
 * from each of its steps. */
#ifndef KBENCH_VERDICT_H
#define KBENCH_VERDICT_H

#include <stdint.h>

struct store;

struct row_verdict {
	const char *section, *row;	/* the model's, valid in the callback */
	const char *stat;		/* "Amean" or "Hmean" */
	const char *unit;
	int higher_better;
	int decimals;			/* as the tables print the row's values */
	double base_mean, new_mean;
	double pct;			/* new against base, % of base; + is better */
	double p;			/* two-sided p-value; NaN: untested */
	int significant;
	int paired;			/* decided by the paired test of an experiment */
	double t, df;			/* the paired test's t and degrees of freedom
					 * (rounds paired - 1), + when new is better;
					 * NaN: not paired */
	const char *verdict;		/* better, worse, within noise, cannot tell,
					 * untested */
	/* Paired in an experiment with a sequential design: the look of its
	 * rounds (-1: none), its decision (enum seq_decision), the bound on
	 * |t|, the repeated confidence interval of pct, and the rounds that
	 * would have decided when it cannot tell (0: unknown). */
	int seq_look, seq_decision, seq_rounds_needed;
	double seq_bound, seq_lo_pct, seq_hi_pct;
};

/* Call cb for the mean row of every row that run base and run new share,
 * as kbench compare #BASE #NEW decides it; a non-zero return stops the
 * walk and is returned. Return 0, or -1 after saying why (a run that is
 * not there, a store error). */
int compare_each_row_verdict(struct store *s, int64_t base, int64_t new_run,
			     int (*cb)(const struct row_verdict *v, void *arg), void *arg);

#endif
