/* stats: summary statistics of one sample vector and the two-sample
 * significance tests used by kbench compare. Formulas and the places where
 * they match mmtests are documented in docs/statistics.md. */
#ifndef KBENCH_STATS_H
#define KBENCH_STATS_H

#include <stddef.h>

/* Everything kbench reports about one row of one run. NaN marks a value
 * that is undefined for the samples (e.g. Hmean with a sample <= 0). */
struct stats_summary {
	size_t n;
	double min, max;
	double amean, hmean, gmean;
	double stddev;		/* sample sd around amean, divisor n-1 */
	double hstddev;		/* delta-method sd of hmean, divisor n */
	double coeffvar;	/* 100 * stddev / amean */
	double hcoeffvar;	/* 100 * hstddev / hmean */
	double bamean95;	/* amean of the best int(0.95n) samples */
	double bhmean95;	/* hmean of the same samples */
	/* The pair shown for the row's direction: hmean/hstddev/hcoeffvar/
	 * bhmean95 when higher is better, the arithmetic ones otherwise. */
	double mean, spread, cv, bmean95;
};

/* Summarise x[0..n-1]; higher_better picks the best-first order and the
 * mean type. x is not modified. n may be 0 (everything NaN). */
void stats_summarise(const double *x, size_t n, int higher_better,
		     struct stats_summary *out);

double stats_amean(const double *x, size_t n);
/* NaN when any x <= 0 or n == 0. */
double stats_hmean(const double *x, size_t n);
double stats_gmean(const double *x, size_t n);
/* NaN when n <= 1. */
double stats_stddev(const double *x, size_t n);

/* mmtests' percentage difference: pdiff when higher is better
 * (new/base*100 - 100), pndiff when lower is better (100 - new/base*100),
 * with its edge cases for zero and NaN. Positive always means better. */
double stats_pdiff(double new_value, double base);
double stats_pndiff(double new_value, double base);

enum stats_test_kind {
	STATS_TEST_WELCH,	/* Welch's t-test, two-sided (on 1/x for Hmean) */
	STATS_TEST_MWU,		/* Mann-Whitney U, two-sided */
	STATS_TEST_CI,		/* mmtests (2024-): the 1.96-sd intervals do not overlap */
	STATS_TEST_TTEST,	/* mmtests (2018-2024): t with df n1+n2-2 */
};

/* Fewer samples than this on a side: no test, no star. */
#define STATS_MIN_SAMPLES 3

struct stats_test_desc {
	enum stats_test_kind kind;
	const char *name;	/* as given to --test */
	const char *title;	/* as named in the table footer */
	double default_alpha;
};

/* The table of tests, in --test order, NULL-name terminated. */
extern const struct stats_test_desc stats_tests[];
const struct stats_test_desc *stats_test_find(const char *name);

/* The outcome of one test of a run against the baseline. */
struct stats_test_result {
	int done;		/* 0: not tested (see reason) */
	const char *reason;	/* why not tested, or (done) why no star is
				 * possible; static text */
	double statistic;	/* t, U of the new run, or the CI ratio */
	double df;		/* t-tests: degrees of freedom; NaN otherwise */
	double p;		/* two-sided p-value; NaN for the CI rule */
	const char *method;	/* "exact" or "normal" for MWU, else NULL */
	int significant;
};

/* Test base[0..nb-1] against new[0..nn-1] on the mean row of a metric.
 * higher_better selects Hmean (Welch then runs on 1/x, the CI rule on the
 * harmonic sd). alpha is the significance level. An untestable pair is
 * not an error: out->done is 0 and out->reason says why. */
void stats_test(enum stats_test_kind kind, const double *base, size_t nb,
		const double *new_values, size_t nn, int higher_better,
		double alpha, struct stats_test_result *out);

/* Building blocks, exposed for the unit tests. p-values are two-sided.
 * Each returns 0, or -1 when a side is too small to test (Welch: fewer
 * than 2 samples; U: none). */
int stats_welch(const double *x, size_t nx, const double *y, size_t ny,
		double *t, double *df, double *p);
int stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
		       double *u, double *p, const char **method);

#endif
