/* t2200-changepoint: the change-point detector on synthetic series made
 * with GSL's Mersenne twister and fixed seeds: the t-test of two segments,
 * steps in 3% noise, two shifts, pure noise, base-changed-base series
 * (x2 and +25%), A/A series with drift, an outlier run, what every change
 * point reported must satisfy, the noise gate and the edge cases.
 * Covers: lib/changepoint.c */
#include "config.h"
#include "lib/changepoint.h"
#include "tests/tap.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NSEEDS 100

static const struct changepoint_params defaults = CHANGEPOINT_PARAMS_INIT;

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol * fmax(1, fabs(b));
}

static void test_compare(void)
{
	const double a[] = { 1, 2, 3, 4 }, b[] = { 3, 4, 5, 6 };
	const double one[] = { 1 }, two[] = { 2 };
	const double flat1[] = { 5, 5, 5 }, flat2[] = { 7, 7, 7 };
	struct changepoint cp;

	ok(changepoint_first_pass_pvalue(0.001) == 0.01 &&
	   changepoint_first_pass_pvalue(0.1) == 0.2 &&
	   changepoint_first_pass_pvalue(0.6) == 0.6,
	   "first pass p: x10 below 0.05, x2 below 0.5, else as given");

	/* means 2.5 and 4.5, sd (divisor n) sqrt(1.25), pooled variance
	 * (3 * 1.25 + 3 * 1.25) / 6, t = -2 / sqrt(1.25 / 2), df 6; p is twice
	 * the t density integrated (Simpson's rule) from |t| on. */
	changepoint_compare(a, 4, b, 4, &cp);
	ok(cp.n_before == 4 && cp.n_after == 4 && cp.mean_before == 2.5 && cp.mean_after == 4.5,
	   "segment sizes and means");
	ok(near(cp.sd_before, sqrt(1.25), 1e-12) && near(cp.sd_after, sqrt(1.25), 1e-12),
	   "standard deviations with divisor n (numpy's std)");
	ok(near(cp.t, -2.5298221281347035, 1e-12), "pooled Student t (%.17g)", cp.t);
	ok(near(cp.p, 0.0446904253, 1e-8), "two-sided p with df n1 + n2 - 2 (%.6g)", cp.p);
	ok(near(cp.magnitude, 0.8, 1e-12), "magnitude max(|4.5/2.5-1|, |2.5/4.5-1|) (%g)",
	   cp.magnitude);

	changepoint_compare(one, 1, two, 1, &cp);
	ok(cp.p == 1 && cp.t == 0, "two points in all: p = 1");
	changepoint_compare(flat1, 3, flat1, 3, &cp);
	ok(cp.p == 1, "two constant, equal sides: p = 1");
	changepoint_compare(flat1, 3, flat2, 3, &cp);
	ok(cp.p == 0 && isinf(cp.t), "two constant, different sides: p = 0");
}

/* x[i] = level(i) + N(0, sd), seeded. */
static void fill(gsl_rng *r, unsigned long seed, double *x, size_t n, const size_t *at,
		 const double *levels, size_t nlevels, double sd)
{
	gsl_rng_set(r, seed);
	for (size_t i = 0, l = 0; i < n; i++) {
		while (l + 1 < nlevels && i >= at[l])
			l++;
		x[i] = levels[l] + gsl_ran_gaussian(r, sd);
	}
}

static int has_index(const struct changepoint *cps, size_t n, size_t want, size_t tol)
{
	for (size_t i = 0; i < n; i++)
		if (cps[i].index + tol >= want && cps[i].index <= want + tol)
			return 1;
	return 0;
}

static void test_step(gsl_rng *r)
{
	const size_t at[] = { 40 };
	const double levels[] = { 100, 109 }, small[] = { 100, 105 };
	size_t hits[80] = { 0 }, found = 0, within = 0, mode = 0, clean = 0, gated = 0;
	double x[80];

	/* A 9% step at 40 in 3% Gaussian noise: the step is 3 sd, so
	 * E-Divisive's split lands on it or a few points off. */
	for (unsigned long seed = 1; seed <= NSEEDS; seed++) {
		struct changepoint *cps;
		size_t n;

		fill(r, seed, x, 80, at, levels, 2, 3);
		changepoint_detect(x, 80, &defaults, &cps, &n);
		found += n > 0;
		within += has_index(cps, n, 40, 5);
		for (size_t i = 0; i < n; i++)
			hits[cps[i].index]++;
		free(cps);
	}
	for (size_t i = 1; i < 80; i++)
		if (hits[i] > hits[mode])
			mode = i;
	ok(found == NSEEDS, "9%% step in 3%% noise: a change point in every seed (%zu)", found);
	ok(mode == 40, "... most often at index 40, the first point after the step (%zu, %zu "
	   "times)", mode, hits[mode]);
	ok(within >= 90, "... within 5 points of it in %zu of %d seeds", within, NSEEDS);

	/* The same step in 0.5% noise is found exactly. */
	for (unsigned long seed = 1; seed <= NSEEDS; seed++) {
		struct changepoint *cps;
		size_t n;

		fill(r, seed, x, 80, at, levels, 2, 0.5);
		changepoint_detect(x, 80, &defaults, &cps, &n);
		clean += has_index(cps, n, 40, 0);
		free(cps);
	}
	ok(clean == NSEEDS, "9%% step in 0.5%% noise: found at exactly 40 in %zu of %d seeds",
	   clean, NSEEDS);

	/* A 5% step in 3% noise is 1.7 sd: its t-test passes on 40 points a
	 * side, but it is within twice the series' noise, so mostly gated. */
	for (unsigned long seed = 1; seed <= NSEEDS; seed++) {
		struct changepoint *cps;
		size_t n;

		fill(r, seed, x, 80, at, small, 2, 3);
		changepoint_detect(x, 80, &defaults, &cps, &n);
		gated += n == 0;
		free(cps);
	}
	ok(gated >= 50, "5%% step in 3%% noise (1.7 sd): not reported in %zu of %d seeds, the "
	   "step being within 2 sd of the series' noise", gated, NSEEDS);
}

static void test_two_shifts(gsl_rng *r)
{
	const size_t at[] = { 30, 60 };
	const double levels[] = { 100, 110, 95 };
	size_t both = 0, exact = 0;
	double x[90];

	for (unsigned long seed = 1; seed <= NSEEDS; seed++) {
		struct changepoint *cps;
		size_t n;

		fill(r, seed, x, 90, at, levels, 3, 3);
		changepoint_detect(x, 90, &defaults, &cps, &n);
		both += has_index(cps, n, 30, 3) && has_index(cps, n, 60, 3);
		exact += has_index(cps, n, 30, 0) && has_index(cps, n, 60, 0);
		free(cps);
	}
	ok(both == NSEEDS, "+10%% at 30, -14%% at 60 in 3%% noise: both found (within 3 "
	   "points) in %zu of %d seeds", both, NSEEDS);
	ok(exact >= 80, "... both at their exact index in %zu", exact);
}

/* Pure noise. The p of the split E-Divisive picks is not corrected for
 * the picking, so a few noise series in a hundred do show a change point
 * at p 0.001 whose step also exceeds twice the noise (docs/statistics.md);
 * this bounds how many. */
static void test_noise(gsl_rng *r)
{
	const double level[] = { 100 };
	char seen[256] = "";
	size_t with = 0, strong = 1, len = 0;
	double x[80];

	for (unsigned long seed = 1; seed <= NSEEDS; seed++) {
		struct changepoint *cps;
		size_t n;

		fill(r, seed, x, 80, NULL, level, 1, 3);
		changepoint_detect(x, 80, &defaults, &cps, &n);
		if (n) {
			with++;
			if (len < sizeof(seen) - 32)
				len += snprintf(seen + len, sizeof(seen) - len, " %lu@%zu", seed,
						cps[0].index);
		}
		for (size_t i = 0; i < n; i++)
			strong &= cps[i].p < defaults.max_pvalue;
		free(cps);
	}
	ok(with <= 6, "pure 3%% noise: %zu of %d seeds show a change point (seed@index:%s)",
	   with, NSEEDS, seen);
	ok(strong, "... and each one it keeps has p below 0.001");
}


/* x[i] = level(i) * (1 + N(0, cv)): relative noise as benchmarks show. */
static void fill_rel(gsl_rng *r, unsigned long seed, double *x, size_t n, const size_t *at,
		     const double *levels, size_t nlevels, double cv)
{
	gsl_rng_set(r, seed);
	for (size_t i = 0, l = 0; i < n; i++) {
		while (l + 1 < nlevels && i >= at[l])
			l++;
		x[i] = levels[l] * (1 + gsl_ran_gaussian(r, cv));
	}
}

/* 8 runs of the base, 8 changed, 8 of the base again: each change is
 * tested on its own segments ([0,8) against [8,16)), not against the rest
 * of the interval, which holds the base again and weakens the test. */
static void test_base_changed_base(gsl_rng *r)
{
	const size_t at[] = { 8, 16 };
	const double x2[] = { 100, 200, 100 }, up25[] = { 100, 125, 100 };
	size_t both2 = 0, found25 = 0, first = 1;
	double x[24];

	for (unsigned long seed = 1; seed <= NSEEDS; seed++) {
		struct changepoint *cps;
		size_t n;

		fill_rel(r, seed, x, 24, at, x2, 3, 0.05);
		changepoint_detect(x, 24, &defaults, &cps, &n);
		both2 += n == 2 && cps[0].index == 8 && cps[1].index == 16;
		for (size_t i = 0; i < n; i++)
			first &= cps[i].index == 8 || cps[i].index == 16;
		free(cps);
		fill_rel(r, seed, x, 24, at, up25, 3, 0.05);
		changepoint_detect(x, 24, &defaults, &cps, &n);
		found25 += has_index(cps, n, 8, 0);
		free(cps);
	}
	ok(both2 >= NSEEDS - 2, "x2 for runs 8-15 of 24 in 5%% noise: changes at 8 and 16 in %zu "
	   "of %d seeds", both2, NSEEDS);
	ok(found25 >= 90, "+25%% for runs 8-15 of 24 in 5%% noise: found at 8 in %zu of %d seeds",
	   found25, NSEEDS);
	ok(first, "... and every change point reported there is the first run of a new level "
	   "(8 or 16), never a run before it");

	/* The held-out case: with the rest of the interval, [0,8) against
	 * [8,24) fails the first pass; its own segments pass. */
	{
		const double base[] = { 100, 102, 98, 101, 99, 103, 97, 100 };
		struct changepoint whole, own, *cps;
		double y[24];
		size_t n;

		for (size_t i = 0; i < 24; i++)
			y[i] = base[i % 8] * (i >= 8 && i < 16 ? 2 : 1);
		changepoint_compare(y, 8, y + 8, 16, &whole);
		changepoint_compare(y, 8, y + 8, 8, &own);
		changepoint_detect(y, 24, &defaults, &cps, &n);
		ok(whole.p > 0.01 && own.p < 1e-6 && n == 2 && cps[0].index == 8 &&
		   cps[1].index == 16, "the first candidate is tested on its own segments "
		   "(p %.2g, against %.2g with the rest): changes at 8 and 16", own.p, whole.p);
		free(cps);
	}
}

/* A/A series of 16 runs: nothing changed. In 3% white noise the few
 * alarms are the selection of the best split that the t-test does not
 * correct for; with drift-like noise (a slow drift of 0.2% a run and runs
 * in pairs of similar machine state) the noise gate takes only some of
 * them away: that rate is printed, not yet bounded (docs/statistics.md). */
static void test_aa(gsl_rng *r)
{
	size_t white = 0, drift = 0;
	double x[16];

	for (unsigned long seed = 1; seed <= NSEEDS; seed++) {
		struct changepoint *cps;
		size_t n;
		double state = 0;

		gsl_rng_set(r, seed);
		for (size_t i = 0; i < 16; i++)
			x[i] = 100 + gsl_ran_gaussian(r, 3);
		changepoint_detect(x, 16, &defaults, &cps, &n);
		white += n > 0;
		free(cps);
		for (size_t i = 0; i < 16; i++) {
			if (i % 2 == 0)
				state = gsl_ran_gaussian(r, 2);
			x[i] = 100 * (1 + 0.002 * i) + state + gsl_ran_gaussian(r, 2);
		}
		changepoint_detect(x, 16, &defaults, &cps, &n);
		drift += n > 0;
		free(cps);
	}
	ok(white <= 5, "A/A, 16 runs in 3%% white noise: %zu of %d seeds report a change", white,
	   NSEEDS);
	diag("A/A, 16 runs with drift and paired machine states: %zu of %d seeds report a "
	     "change", drift, NSEEDS);
}

/* One outlier run in a flat series: E-Divisive may cut on both sides of
 * it; each of those change points has a segment of one run, so none is
 * reported (min_segment 2). The newest run alone is no change either. */
static void test_outlier_run(gsl_rng *r)
{
	struct changepoint_params one = defaults;
	size_t cut = 0, kept = 0, last = 0;
	double x[16];

	one.min_segment = 1;
	for (unsigned long seed = 1; seed <= NSEEDS; seed++) {
		struct changepoint *cps;
		size_t n;

		gsl_rng_set(r, seed);
		for (size_t i = 0; i < 16; i++)
			x[i] = 100 + gsl_ran_gaussian(r, 1);
		x[10] = 110;
		changepoint_detect(x, 16, &one, &cps, &n);
		cut += has_index(cps, n, 10, 0) && has_index(cps, n, 11, 0);
		free(cps);
		changepoint_detect(x, 16, &defaults, &cps, &n);
		kept += n;
		free(cps);
		x[10] = 100;
		x[15] = 110;
		changepoint_detect(x, 16, &defaults, &cps, &n);
		last += n;
		free(cps);
	}
	ok(cut >= NSEEDS / 2, "segments of 1 allowed: an outlier run at 10 is cut out as two "
	   "changes (10 and 11) in %zu of %d seeds", cut, NSEEDS);
	ok(kept == 0, "segments of 2 or more: no change point around it (%zu in %d seeds)", kept,
	   NSEEDS);
	ok(last == 0, "nor at the newest run alone (%zu in %d seeds)", last, NSEEDS);
}

/* Whatever the series, every change point reported has p below the
 * threshold, segments of min_segment points or more, a step above
 * noise_factor times the noise and a magnitude above the minimum: a
 * removal makes its neighbours' segments longer, and they are tested
 * again. Series of steps, outlier runs and drift, seeded. */
static void test_invariants(gsl_rng *r)
{
	struct changepoint_params floor = defaults;
	size_t bad = 0, reported = 0, floored = 0;
	double x[40];

	floor.min_magnitude = 0.08;
	for (unsigned long seed = 1; seed <= 5 * NSEEDS; seed++) {
		const struct changepoint_params *p = seed % 2 ? &defaults : &floor;
		struct changepoint *cps;
		double level = 100;
		size_t n;

		gsl_rng_set(r, seed);
		for (size_t i = 0; i < 40; i++) {
			if (gsl_rng_uniform(r) < 0.1)
				level *= 1 + gsl_ran_gaussian(r, 0.1);
			x[i] = level * (1 + 0.002 * i) + gsl_ran_gaussian(r, 2);
			if (gsl_rng_uniform(r) < 0.08)
				x[i] *= 1.5;
		}
		changepoint_detect(x, 40, p, &cps, &n);
		for (size_t i = 0; i < n; i++) {
			size_t a = i ? cps[i - 1].index : 0, b = i + 1 < n ? cps[i + 1].index : 40;

			bad += !(cps[i].p < p->max_pvalue) || cps[i].index - a < p->min_segment ||
			       b - cps[i].index < p->min_segment ||
			       !(fabs(cps[i].mean_after - cps[i].mean_before) >
				 p->noise_factor * cps[i].noise_sd) ||
			       !(cps[i].magnitude > p->min_magnitude);
			floored += p == &floor;
		}
		reported += n;
		free(cps);
	}
	ok(reported > 100 && floored > 20 && bad == 0, "every change point reported (%zu, %zu "
	   "with a minimum magnitude of 8%%) has p < P, segments of 2, a step above 2 sd of noise "
	   "and a magnitude above the minimum: %zu do not", reported, floored, bad);
}

static void test_noise_sd(void)
{
	const double x[] = { 10, 11, 9, 10, 20, 21, 19, 20 };
	const size_t at[] = { 4 };

	/* Deviations from each segment's median (10, 20): 0 1 1 0 0 1 1 0,
	 * median 0.5, times 1.4826. */
	ok(near(changepoint_noise_sd(x, 8, at, 1), 0.7413, 1e-12),
	   "the series' noise: 1.4826 MAD about each segment's median (%g)",
	   changepoint_noise_sd(x, 8, at, 1));
	ok(isnan(changepoint_noise_sd(x, 1, NULL, 0)), "... NaN from one run");
}

static void test_edges(void)
{
	const double flat[] = { 3, 3, 3, 3, 3, 3, 3, 3 };
	const double steps[] = { 1, 1, 1, 1, 2, 2, 2, 2 };
	struct changepoint_params tiny = { .window = 2, .max_pvalue = 0.001 };
	struct changepoint *cps = (struct changepoint *)1, *again;
	size_t n = 99, n2;

	changepoint_detect(flat, 0, &defaults, &cps, &n);
	ok(n == 0 && cps == NULL, "an empty series has none");
	changepoint_detect(flat, 1, &defaults, &cps, &n);
	ok(n == 0 && cps == NULL, "one point has none");
	changepoint_detect(flat, 8, &defaults, &cps, &n);
	ok(n == 0, "a constant series has none");
	changepoint_detect(steps, 8, &defaults, &cps, &n);
	ok(n == 1 && cps[0].index == 4 && cps[0].p == 0 && cps[0].mean_before == 1 &&
	   cps[0].mean_after == 2, "a noiseless step: at its first new point, p 0");
	changepoint_detect(steps, 8, &defaults, &again, &n2);
	ok(n2 == n && !memcmp(cps, again, n * sizeof(*cps)), "the same series, the same answer");
	free(cps);
	free(again);
	changepoint_detect(steps, 8, &tiny, &cps, &n);
	ok(n == 0, "windows of 2 points cannot split a step of 4 and 4");
	free(cps);
}

int main(void)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	test_compare();
	test_step(r);
	test_two_shifts(r);
	test_noise(r);
	test_base_changed_base(r);
	test_aa(r);
	test_outlier_run(r);
	test_invariants(r);
	test_noise_sd();
	test_edges();
	gsl_rng_free(r);
	return done_testing();
}
