/* noise: between-run noise and the decision built on it. A replicate is
 * one run of a row, or one round of a run of 3 rounds or more; rounds are
 * nested in their run, so a row's mean has three sources of noise: the
 * run's offset, the round's offset within the run and the samples'. Pure
 * functions on numbers; docs/statistics.md gives every formula. */
#ifndef KBENCH_NOISE_H
#define KBENCH_NOISE_H

#include <stddef.h>
#include <stdint.h>

/* One replicate of one row, on the test's scale (x for Amean rows, 1/x
 * for Hmean rows). */
struct noise_replicate {
	size_t group;		/* replicates of one group measured the same
				 * thing: same host, config, effective options
				 * and kernel */
	int64_t run;		/* the run: replicates of one run are its
				 * rounds (any number identifying the run);
				 * 0: a run of its own */
	size_t n;		/* samples */
	double mean;
	double m2;		/* sum of squared deviations from mean */
	int calibration;	/* made by kbench calibrate */
};

/* Summarise x[0..n-1] as a replicate of group (m2 computed in two
 * passes); its run is 0. */
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
	size_t runs;		/* runs in groups of two runs or more */
	size_t rounds;		/* their replicates (rounds; a run without
				 * rounds is one) */
	size_t groups;		/* those groups */
	size_t calibration;	/* of the runs, made by kbench calibrate */
	double df;		/* runs - groups: of the run level */
	double mean;		/* mean of those runs' means */
	double run_var;		/* S^2: pooled variance of a run's mean (the
				 * mean of its rounds' means) around its
				 * group's mean */
	double within_var;	/* pooled within-replicate variance */
	double within_df;	/* its degrees of freedom, sum(n - 1) */
	double round_var;	/* sigma_r^2: between rounds of one run, less
				 * what the samples add; 0 without rounds */
	double round_df;	/* sum(R - 1) over the runs */
	double within_part;	/* what round and sample noise add to S^2:
				 * mean of round_var/R + within_var sum(1/n)/R^2 */
	double between_var;	/* sigma_b^2 = max(0, run_var - within_part) */
	/* The same as CoeffVars: 100 * sd / |mean|. */
	double run_cv, within_cv, between_cv, round_cv;
	/* The run whose mean lies furthest from its group's median, in
	 * robust sds (1.4826 MAD), when that is above NOISE_OUTLIER_Z in a
	 * group of NOISE_OUTLIER_MIN_RUNS runs or more: flagged, kept. */
	int64_t outlier_run;	/* 0: none */
	double outlier_z;
};

/* An outlier run: further than this many robust sds from the median of
 * its group's run means, in a group of at least this many runs. */
#define NOISE_OUTLIER_Z 5.0
#define NOISE_OUTLIER_MIN_RUNS 5

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

/* Test the run means of new[0..kn-1] against base[0..kb-1] (replicates
 * with the same run are its rounds; a run's mean is the mean of its
 * rounds' means) with the between-run and between-round variances of est
 * (which must be known) and each side's own pooled within-replicate
 * variance (est's when a side has none):
 *   Var = sigma_b^2 (1/k_B + 1/k_N)
 *       + per side (sigma_r^2 sum(1/R_j) + s_w^2 sum_j sum_r(1/n_jr)/R_j^2) / k^2
 * so rounds narrow only the round and sample parts. Returns 0, or -1
 * when a side has no replicate. */
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

/* The minimum detectable difference of a test whose difference has
 * standard error se on df degrees of freedom: (t(1-alpha/2) + t(power)) se.
 * NaN when se or df is not a number. */
double noise_mde_se(double se, double df, double alpha, double power);

/* The paired test of an interleaved experiment: d[0..n-1] are the
 * differences new - base of the arms' round means, the run offset and the
 * round's shared state cancelled; a Student t on their mean with n - 1 df.
 * Returns 0, or -1 with fewer than 2 differences. */
int noise_paired_test(const double *d, size_t n, double alpha, struct noise_decision *out);

/* The fewest rounds (3 to max_rounds) with which a paired test of
 * differences of sd sd_d detects a mean difference of target at power;
 * 0 when even max_rounds do not, or sd_d is unknown. */
size_t noise_rounds_needed(double sd_d, double target, double alpha, double power,
			   size_t max_rounds);

/* The fewest runs a side (at most max_runs) with which a difference of
 * rel (a fraction of |est->mean|) is detected at power, rounds rounds of
 * n samples a run; 0 when even max_runs do not or the noise is unknown. */
size_t noise_runs_needed(const struct noise_estimate *est, double rel, int rounds, size_t n,
			 double alpha, double power, size_t max_runs);

/* The power the minimum detectable effect is quoted at. */
#define NOISE_POWER 0.8

#endif
