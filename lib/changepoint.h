/* changepoint: change points in a series of values (one per run, in time
 * order) by E-Divisive means with a Student t-test filter, as Hunter and
 * Apache Otava find them; deterministic. The method is in docs/statistics.md. */
#ifndef KBENCH_CHANGEPOINT_H
#define KBENCH_CHANGEPOINT_H

#include <stddef.h>

struct changepoint_params {
	size_t window;		/* points per E-Divisive window, >= 2 */
	double max_pvalue;	/* a change point's t-test p must be below it */
	double min_magnitude;	/* ... or its magnitude above it */
	/* A change point's step |mean_after - mean_before| must exceed
	 * noise_factor times the series' between-run noise (see
	 * changepoint_noise_sd); 0 turns the gate off. */
	double noise_factor;
	/* Points each side of a change point must hold at least; 1 allows a
	 * change point on each side of one outlier point. */
	size_t min_segment;
};

/* Hunter's and Otava's defaults (window 50, p 0.001, magnitude 0), a
 * step of more than 2 between-run sds and 2 points a segment. */
#define CHANGEPOINT_NOISE_FACTOR 2.0
#define CHANGEPOINT_MIN_SEGMENT 2
#define CHANGEPOINT_PARAMS_INIT { .window = 50, .max_pvalue = 0.001, .min_magnitude = 0.0, \
				  .noise_factor = CHANGEPOINT_NOISE_FACTOR, \
				  .min_segment = CHANGEPOINT_MIN_SEGMENT }

/* A change point and the t-test of the segments either side of it (from
 * the previous change point, or the start, to the next one, or the end). */
struct changepoint {
	size_t index;		/* the first point of the new segment */
	size_t n_before, n_after;
	double mean_before, mean_after;	/* arithmetic means of the segments */
	double sd_before, sd_after;	/* their standard deviations, divisor n */
	double t;		/* Student's t, pooled variance, df n1 + n2 - 2 */
	double p;		/* two-sided; 1 when the sides hold <= 2 points */
	double magnitude;	/* max(|after/before - 1|, |before/after - 1|) */
	double noise_sd;	/* the series' between-run noise it was gated on */
};

/* The between-run noise of x[0..n-1] cut at the ascending change point
 * indexes at[0..nat-1]: a robust sd of the runs about their segment's
 * median, 1.4826 times the median absolute deviation pooled over the
 * segments. Deviations are taken within segments, so a step does not
 * inflate it, drift within a segment does, and the median ignores a few
 * outlier runs. NaN with fewer than 2 runs in segments of 2 or more. */
double changepoint_noise_sd(const double *x, size_t n, const size_t *at, size_t nat);

/* The p-value of the first (split) pass for a final max_pvalue: ten times
 * it below 0.05, twice it below 0.5, else itself (Otava's rule). */
double changepoint_first_pass_pvalue(double max_pvalue);

/* The change points of x[0..n-1], by increasing index, into *out (malloc'd,
 * NULL when there is none) and *nout. p->window must be at least 2. */
void changepoint_detect(const double *x, size_t n, const struct changepoint_params *p,
			struct changepoint **out, size_t *nout);

/* Fill cp's statistics (all but index) from the segments before[0..nb-1]
 * and after[0..na-1], each at least one point long. */
void changepoint_compare(const double *before, size_t nb, const double *after, size_t na,
			 struct changepoint *cp);

#endif
