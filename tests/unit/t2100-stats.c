/* t2100-stats: the formulas of compare/stats.c against hand-checked values,
 * mmtests' edge cases and reference p-values.
 * Covers: compare/stats.c */
#include "config.h"
#include "compare/stats.h"
#include "tests/tap.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol * (fabs(b) > 1 ? fabs(b) : 1);
}

static void means(void)
{
	double x[] = { 1, 2, 4 }, neg[] = { 1, -2, 4 }, one[] = { 7 };
	struct stats_summary s;

	ok(near(stats_amean(x, 3), 7.0 / 3, 1e-12), "amean");
	ok(near(stats_hmean(x, 3), 1.7142857142857142, 1e-12), "hmean = n / sum(1/x)");
	ok(near(stats_gmean(x, 3), 2, 1e-12), "gmean = (prod x)^(1/n)");
	ok(near(stats_stddev(x, 3), 1.5275252316519468, 1e-12), "stddev divides by n-1");
	ok(isnan(stats_hmean(neg, 3)) && isnan(stats_gmean(neg, 3)),
	   "hmean and gmean undefined with a sample <= 0");
	ok(isnan(stats_stddev(one, 1)), "stddev undefined for n = 1");
	stats_summarise(x, 3, 1, &s);
	ok(near(s.hstddev, 0.9163242579854549, 1e-12), "hstddev: delta method, divisor n");
	ok(near(s.hcoeffvar, 100 * 0.9163242579854549 / 1.7142857142857142, 1e-12),
	   "hcoeffvar = 100 hstddev / hmean");
	ok(s.mean == s.hmean && s.spread == s.hstddev && s.min == 1 && s.max == 4,
	   "higher is better: Hmean row, true extremes");
	stats_summarise(one, 1, 0, &s);
	ok(s.coeffvar == 0 && s.mean == 7 && s.bamean95 == 7,
	   "n = 1: CoeffVar 0 (undefined sd reads 0), BAmean-95 of the one sample");
	stats_summarise(neg, 3, 1, &s);
	ok(isnan(s.mean) && isnan(s.hstddev) && s.min == -2, "Hmean row NaN with a negative sample");
}

static void best_means(void)
{
	double x[30];
	struct stats_summary s;

	for (int i = 0; i < 30; i++)
		x[i] = i + 1;
	/* lower is better: best = the smallest int(0.95n) */
	stats_summarise(x, 10, 0, &s);
	ok(s.bamean95 == 5, "n = 10 keeps the best 9 (lower better)");
	stats_summarise(x, 5, 0, &s);
	ok(s.bamean95 == 2.5, "n = 5 keeps the best 4");
	stats_summarise(x, 30, 0, &s);
	ok(s.bamean95 == 14.5, "n = 30 keeps the best 28");
	stats_summarise(x, 10, 1, &s);
	ok(s.bamean95 == 6 && near(s.bhmean95, 9 / (1.0/2 + 1.0/3 + 1.0/4 + 1.0/5 + 1.0/6 +
						     1.0/7 + 1.0/8 + 1.0/9 + 1.0/10), 1e-12),
	   "higher better: best 9 are the largest; BHmean-95 is their hmean");
}

static void percentages(void)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%7.2f", stats_pndiff(1.1313, 0.7853));
	ok(!strcmp(buf, " -44.06"), "seed: hackbench Amean 0.7853 -> 1.1313 is -44.06%% (%s)", buf);
	snprintf(buf, sizeof(buf), "%7.2f", stats_pdiff(121092.94, 127045.79));
	ok(!strcmp(buf, "  -4.69"), "seed: TCP_RR Hmean 127045.79 -> 121092.94 is -4.69%% (%s)", buf);
	ok(stats_pdiff(5, 5) == 0 && stats_pndiff(5, 5) == 0, "equal values: 0%%");
	ok(stats_pdiff(0, 5) == 0, "pdiff: new 0 reads 0%% (mmtests)");
	ok(stats_pdiff(5, 0) == 100 && stats_pdiff(5, NAN) == 100, "pdiff: base 0 or NaN reads 100%%");
	ok(stats_pndiff(0, 5) == 100, "pndiff: new 0 reads 100%%");
	ok(stats_pndiff(5, 0) == -99, "pndiff: base 0 reads -99%%");
	ok(stats_pdiff(2, 1) == 100 && stats_pndiff(2, 1) == -100 && stats_pndiff(0.5, 1) == 50,
	   "asymmetric scale: twice as slow -100%%, twice as fast +50%%");
}

static void tests(void)
{
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 6, 8, 10 };
	double a3[] = { 1, 2, 3 }, b3[] = { 4, 5, 6 };
	double a4[] = { 1, 2, 3, 4 }, b4[] = { 5, 6, 7, 8 };
	double a5[] = { 1, 2, 3, 4, 5 }, b5[] = { 6, 7, 8, 9, 10 };
	double t1[] = { 1, 2, 2, 3, 5 }, t2[] = { 2, 4, 6, 8, 9 };
	double hb[] = { 10, 11, 9, 10.5, 9.5 }, hn[] = { 12, 13, 11, 12.5, 11.5 };
	double same[] = { 3, 3, 3 }, two[] = { 1, 2 }, zero[] = { 0, 1, 2 };
	double t, df, p, u;
	const char *method;
	struct stats_test_result r;

	stats_welch(y, 5, x, 5, &t, &df, &p);
	ok(near(t, 1.8973665961010275, 1e-9) && near(p, 0.10753119493062718, 1e-9),
	   "welch t and p match scipy ttest_ind(equal_var=False)");
	stats_mann_whitney(a3, 3, b3, 3, &u, &p, &method);
	ok(u == 0 && near(p, 0.1, 1e-12) && !strcmp(method, "exact"), "U exact, 3 vs 3: p = 0.1");
	stats_mann_whitney(a4, 4, b4, 4, &u, &p, &method);
	ok(near(p, 0.02857142857142857, 1e-12), "U exact, 4 vs 4: p = 0.0286");
	stats_mann_whitney(a5, 5, b5, 5, &u, &p, &method);
	ok(near(p, 0.007936507936507936, 1e-12), "U exact, 5 vs 5: p = 0.0079");
	stats_mann_whitney(t1, 5, t2, 5, &u, &p, &method);
	ok(u == 4 && near(p, 0.09068836617120415, 1e-9) && !strcmp(method, "normal"),
	   "U with ties: normal approximation, tie and continuity corrected");

	stats_test(STATS_TEST_WELCH, hb, 5, hn, 5, 1, 0.05, &r);
	ok(r.done && near(r.p, 0.005819777003535934, 1e-9) && r.significant && r.statistic > 0,
	   "Hmean rows: Welch on 1/x");
	stats_test(STATS_TEST_WELCH, two, 2, x, 5, 0, 0.05, &r);
	ok(!r.done && r.reason && strstr(r.reason, "fewer than 3"), "n < 3 on a side: no test");
	stats_test(STATS_TEST_WELCH, zero, 3, x, 3, 1, 0.05, &r);
	ok(!r.done && strstr(r.reason, "Hmean"), "Hmean row with a zero sample: no test");
	stats_test(STATS_TEST_WELCH, same, 3, same, 3, 0, 0.05, &r);
	ok(r.done && r.p == 1 && !r.significant, "identical samples: p = 1, no star");
	stats_test(STATS_TEST_MWU, same, 3, same, 3, 0, 0.05, &r);
	ok(r.done && r.p == 1 && !r.significant, "identical samples, U test: p = 1");

	/* CI rule: mean 10 vs 15, sd 1 each: |5| > 1.96 * 2 */
	{
		double b[] = { 9, 10, 11 }, n1[] = { 14, 15, 16 }, n2[] = { 12, 13, 14 };

		stats_test(STATS_TEST_CI, b, 3, n1, 3, 0, 0.05, &r);
		ok(r.done && r.significant && near(r.statistic, -5 / (2 * 1.959963984540054), 1e-9),
		   "CI rule: intervals apart -> star");
		stats_test(STATS_TEST_CI, b, 3, n2, 3, 0, 0.05, &r);
		ok(r.done && !r.significant, "CI rule: |3| < 3.92 -> no star");
		stats_test(STATS_TEST_TTEST, b, 3, n2, 3, 0, 0.10, &r);
		ok(r.done && r.df == 4 && near(r.statistic, 3 / sqrt(2.0 / 3), 1e-12) && r.significant,
		   "2018-2024 t-test: df = n1+n2-2, SE from both sds");
	}
	stats_test(STATS_TEST_MWU, a3, 3, b3, 3, 0, 0.05, &r);
	ok(r.done && !r.significant && r.reason && strstr(r.reason, "U test"),
	   "U test, 3 vs 3 at alpha 0.05: no star possible, and said so");
	stats_test(STATS_TEST_MWU, a5, 5, b5, 5, 0, 0.05, &r);
	ok(r.done && r.significant && !r.reason, "U test, 5 vs 5 apart: starred");
	ok(stats_test_find("mwu") && stats_test_find("ttest")->default_alpha == 0.10 &&
	   !stats_test_find("bogus"), "test table: names and default alphas");
}

int main(void)
{
	means();
	best_means();
	percentages();
	tests();
	return done_testing();
}
