/* noise: between-run noise and the decision built on it. A replicate is
 * one run of a row (or one round of a run of 3 rounds or more); its mean
 * varies by the between-run variance plus the within-run variance over n.
 * Pure functions on numbers; docs/statistics.md gives every formula. */
#ifndef KBENCH_NOISE_H
#define KBENCH_NOISE_H

#include <stddef.h>

/* One replicate of one row, on the test's scale (x for Amean rows, 1/x
 * for Hmean rows). */
struct noise_replicate {
	size_t group;		/* replicates of one group measured the same
				 * thing: same host, config and kernel */
	size_t n;		/* samples */
	double mean;
	double m2;		/* sum of squared deviations from mean */
	int calibration;	/* made by kbench calibrate */
};

/* Summarise x[0..n-1] as a replicate of group (m2 computed in two
 * passes). */
void noise_replicate_of(const double *x, size_t n, size_t group, struct noise_replicate *out);

/* Fewer degrees of freedom than this between runs of one group: the
 * between-run noise is unknown. 2 means three runs of one kernel, or two
 * kernels with two runs each. */
#define NOISE_MIN_DF 2

/* What the replicates of a series say about the noise of a row. Only
 * groups of two or more replicates count: a lone replicate says nothing
 * about the spread of its group. */
struct noise_estimate {
	int known;		/* df >= NOISE_MIN_DF */
	size_t runs;		/* replicates in groups of two or more */
	size_t groups;		/* those groups */
	size_t calibration;	/* of the runs, made by kbench calibrate */
	double df;		/* runs - groups */
	double mean;		/* mean of those replicates' means */
	double run_var;		/* S^2: pooled variance of a replicate's mean
				 * around its group's mean */
	double within_var;	/* pooled within-replicate variance */
	double within_df;	/* its degrees of freedom, sum(n - 1) */
	double within_part;	/* mean of m2/(n-1)/n: what within-replicate
				 * noise adds to S^2 */
	double between_var;	/* max(0, run_var - within_part) */
	/* The same as CoeffVars: 100 * sd / |mean|. */
	double run_cv, within_cv, between_cv;
};

/* Estimate the noise from r[0..n-1] (in any order). Everything is NaN
 * and known 0 when there are not enough replicates. */
void noise_estimate(const struct noise_replicate *r, size_t n, struct noise_estimate *out);

/* The outcome of the between-run test of new against base. */
struct noise_decision {
	double diff;		/* mean of new's replicate means - base's */
	double se;		/* its standard error */
	double t, df, p;	/* Satterthwaite's df; two-sided p */
	int significant;	/* p < alpha */
};

/* Test the replicate means of new[0..kn-1] against base[0..kb-1] with
 * the between-run variance of est (which must be known) and each side's
 * own pooled within-replicate variance (est's when a side has none).
 * Returns 0, or -1 when a side has no replicate. */
int noise_test(const struct noise_replicate *base, size_t kb,
	       const struct noise_replicate *new_reps, size_t kn,
	       const struct noise_estimate *est, double alpha, struct noise_decision *out);

/* The smallest difference of means that the test detects with
 * probability power at level alpha, with k replicates of n samples a
 * side: (t(1-alpha/2, df) + t(power, df)) * se, where se^2 = 2
 * (between_var / k + within_var / (k n)) and df is Satterthwaite's
 * (between_df for the first part, k (n - 1) a side for the second).
 * between_var 0 gives the within-run test's; between_df is then unused.
 * NaN when it cannot be told (n < 2 or k 0). */
double noise_mde(double between_var, double between_df, double within_var,
		 size_t n, size_t k, double alpha, double power);

/* The power the minimum detectable effect is quoted at. */
#define NOISE_POWER 0.8

#endif
