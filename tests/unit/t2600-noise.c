/* t2600-noise: the between-run noise estimate, the test of run means that
 * uses it and its minimum detectable effect, on constructed series: drift
 * between runs of one kernel gives no star, a real shift gives one; the
 * model cannot tell without an estimate and stars with * with one; the
 * paired test of an A/B experiment's rounds from their means alone.
 * Covers: compare/noise.c compare/decide.c compare/paired.c compare/model.c */
#include "config.h"
#include "compare/decide.h"
#include "compare/model.h"
#include "compare/noise.h"
#include "compare/paired.h"
#include "compare/stats.h"
#include "db/series.h"
#include "db/store.h"
#include "tests/tap.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define SAMPLES 8

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol * (fabs(b) > 1 ? fabs(b) : 1);
}

/* The samples of a run whose mean is mean and whose sd is sd * 1.07 (a
 * fixed, symmetric pattern). */
static void run_samples(double mean, double sd, double *x)
{
	static const double z[SAMPLES] = { -1.5, -1, -0.5, 0, 0, 0.5, 1, 1.5 };

	for (int i = 0; i < SAMPLES; i++)
		x[i] = mean + sd * z[i];
}

static void replicate(double mean, double sd, size_t group, struct noise_replicate *r)
{
	double x[SAMPLES];

	run_samples(mean, sd, x);
	noise_replicate_of(x, SAMPLES, group, r);
}

static void estimate_by_hand(void)
{
	/* Group 1: means 1, 2, 3; group 2: 10, 12; group 3: a lone run. Each
	 * run has 2 samples mean +- 0.5 (m2 = 0.5). */
	static const struct { size_t group; double mean; } runs[] = {
		{ 1, 1 }, { 1, 2 }, { 2, 10 }, { 1, 3 }, { 3, 100 }, { 2, 12 },
	};
	struct noise_replicate r[N(runs)];
	struct noise_estimate e;

	for (size_t i = 0; i < N(runs); i++) {
		double x[2] = { runs[i].mean - 0.5, runs[i].mean + 0.5 };

		noise_replicate_of(x, 2, runs[i].group, &r[i]);
	}
	r[0].calibration = r[2].calibration = r[4].calibration = 1;
	noise_estimate(r, N(runs), &e);
	ok(e.runs == 5 && e.groups == 2 && e.df == 3 && e.calibration == 2,
	   "a lone run does not count: 5 runs, 2 groups, df 3, 2 calibration (got %zu, %zu, %g, %zu)",
	   e.runs, e.groups, e.df, e.calibration);
	/* SS within groups = (1 + 0 + 1) + (1 + 1) = 4 over df 3. */
	ok(near(e.run_var, 4.0 / 3, 1e-12), "S^2 pools the spread of run means around their "
	   "group's mean: 4/3 (got %.15g)", e.run_var);
	ok(near(e.within_var, 0.5, 1e-12) && e.within_df == 5,
	   "within-run variance pooled: 0.5 with df 5 (got %g, df %g)", e.within_var, e.within_df);
	/* E[S^2] = sigma_b^2 + sigma_w^2 / n: 4/3 - 0.5/2. */
	ok(near(e.between_var, 4.0 / 3 - 0.25, 1e-12),
	   "between-run variance = S^2 - within / n = 13/12 (got %.15g)", e.between_var);
	ok(e.known && near(e.mean, 28.0 / 5, 1e-12), "known (df >= 2), mean 5.6 (got %g)", e.mean);
	ok(near(e.run_cv, 100 * sqrt(4.0 / 3) / 5.6, 1e-12) &&
	   near(e.within_cv, 100 * sqrt(0.5) / 5.6, 1e-12) &&
	   near(e.between_cv, 100 * sqrt(13.0 / 12) / 5.6, 1e-12),
	   "the three as CoeffVars of the mean: %g, %g, %g", e.run_cv, e.within_cv, e.between_cv);

	noise_estimate(r, 2, &e);
	ok(!e.known && e.df == 1, "two runs of one kernel: df 1, unknown (got df %g)", e.df);
	noise_estimate(r, 0, &e);
	ok(!e.known && e.runs == 0 && isnan(e.run_var), "no runs: unknown, NaN");

	/* Runs far apart with tight samples: the within part is small and
	 * the between part is nearly all of S^2; tight runs alike: 0. */
	{
		struct noise_replicate q[3];

		replicate(1.0, 0.001, 7, &q[0]);
		replicate(1.0, 0.001, 7, &q[1]);
		replicate(1.0, 0.001, 7, &q[2]);
		noise_estimate(q, 3, &e);
		ok(e.known && e.between_var == 0,
		   "identical run means: between-run variance truncated at 0 (got %g)",
		   e.between_var);
	}
}

/* Six runs of one kernel that drift (one 24% slow), 8 samples each with a
 * small within-run spread, as measured on a busy 2-CPU machine. */
static const double drift[] = { 1.00, 1.05, 0.97, 1.24, 1.02, 0.99 };
#define WITHIN_SD 0.02

static void drift_without_change(void)
{
	struct noise_replicate hist[N(drift)];
	struct noise_estimate e;
	struct noise_decision d;
	double a[SAMPLES], b[SAMPLES], t, df, p;
	int starred = 0;

	for (size_t i = 0; i < N(drift); i++)
		replicate(drift[i], WITHIN_SD, 1, &hist[i]);
	noise_estimate(hist, N(drift), &e);
	ok(e.known && e.df == 5, "six runs of one kernel: df 5");
	/* Every consecutive pair: the within-run test stars the drift, the
	 * test of run means does not. */
	for (size_t i = 0; i + 1 < N(drift); i++) {
		noise_test(&hist[i], 1, &hist[i + 1], 1, &e, 0.05, &d);
		starred += d.significant;
	}
	ok(starred == 0, "drift without change: no consecutive pair starred (got %d of 5)",
	   starred);
	run_samples(drift[2], WITHIN_SD, a);
	run_samples(drift[3], WITHIN_SD, b);
	stats_welch(b, SAMPLES, a, SAMPLES, &t, &df, &p);
	noise_test(&hist[2], 1, &hist[3], 1, &e, 0.05, &d);
	ok(p < 1e-6 && !d.significant && d.p > 0.05,
	   "the 24%% slow run: Welch on samples p = %.3g (starred), run means p = %.3g (not)",
	   p, d.p);
	ok(near(d.diff, 0.27, 1e-9) && d.t > 0, "the difference is new - base on run means "
	   "(%g)", d.diff);
}

static void real_shift(void)
{
	/* A steadier baseline kernel (run means within 3%), then the new
	 * kernel: 3 runs 25% slower. */
	static const double base[] = { 1.00, 1.03, 0.98, 1.02, 0.99, 1.01 };
	struct noise_replicate hist[N(base) + 3];
	struct noise_estimate e;
	struct noise_decision d;
	size_t nh = 0;
	int starred = 0;

	for (size_t i = 0; i < N(base); i++)
		replicate(base[i], WITHIN_SD, 1, &hist[nh++]);
	replicate(1.25, WITHIN_SD, 2, &hist[nh++]);
	replicate(1.27, WITHIN_SD, 2, &hist[nh++]);
	replicate(1.24, WITHIN_SD, 2, &hist[nh++]);
	noise_estimate(hist, nh, &e);
	ok(e.known && e.groups == 2 && e.df == 7,
	   "a shift between kernels stays out of the estimate: 2 kernels, df 7 (got %g)", e.df);
	for (size_t i = 0; i < N(base); i++) {
		noise_test(&hist[i], 1, &hist[N(base)], 1, &e, 0.05, &d);
		starred += d.significant;
	}
	ok(starred == (int)N(base), "a real 25%% shift: starred against every baseline run "
	   "(%d of %zu)", starred, N(base));
	/* Several runs a side: the test is on run means. */
	noise_test(hist, 3, &hist[N(base)], 3, &e, 0.05, &d);
	ok(d.significant && near(d.diff, (1.25 + 1.27 + 1.24) / 3 - (1.00 + 1.03 + 0.98) / 3, 1e-9),
	   "three runs a side: the difference of the means of run means (%g), starred", d.diff);
	/* The drifting series of one kernel hides a 10% shift of one run. */
	for (size_t i = 0; i < N(drift); i++)
		replicate(drift[i], WITHIN_SD, 1, &hist[i]);
	replicate(1.10, WITHIN_SD, 2, &hist[N(drift)]);
	noise_estimate(hist, N(drift) + 1, &e);
	noise_test(&hist[0], 1, &hist[N(drift)], 1, &e, 0.05, &d);
	ok(!d.significant, "10%% within a drift of 24%%: not starred (p %.3g)", d.p);
}

static void test_by_hand(void)
{
	/* Two runs of 2 samples each (m2 0.5, within variance 0.5), between
	 * variance 1 with df 4: Var = 1 * (1 + 1) + 0.5/2 + 0.5/2 = 2.5. */
	struct noise_estimate e = { .known = 1, .df = 4, .between_var = 1,
				    .within_var = 0.5, .within_df = 10 };
	struct noise_replicate b = { .n = 2, .mean = 10, .m2 = 0.5 };
	struct noise_replicate n = { .n = 2, .mean = 14, .m2 = 0.5 };
	struct noise_decision d;
	/* Satterthwaite: 2.5^2 / (2^2/4 + 0.25^2/1 + 0.25^2/1) */
	double df = 6.25 / (1 + 0.0625 + 0.0625);

	noise_test(&b, 1, &n, 1, &e, 0.05, &d);
	ok(near(d.se, sqrt(2.5), 1e-12) && near(d.t, 4 / sqrt(2.5), 1e-12) && near(d.df, df, 1e-12),
	   "se^2 = between (1/kb + 1/kn) + within/n a side: se %g, t %g, df %g (want %g)",
	   d.se, d.t, d.df, df);
	/* t(5.556) = 2.5298: p between 0.04 and 0.05 */
	ok(d.p > 0.04 && d.p < 0.05 && d.significant, "p two-sided from t(df): %g", d.p);
	n.mean = 10;
	noise_test(&b, 1, &n, 1, &e, 0.05, &d);
	ok(d.t == 0 && near(d.p, 1, 1e-12) && !d.significant, "equal means: t 0, p 1");
	ok(noise_test(&b, 0, &n, 1, &e, 0.05, &d) == -1, "a side without runs: -1");
}

static void mde_by_hand(void)
{
	/* Within only: sd 1, 6 samples a side: se = sqrt(2/6), df = 10;
	 * t(0.975, 10) = 2.228139, t(0.8, 10) = 0.879058. */
	double m = noise_mde(0, 0, 1, 6, 1, 0.05, 0.8);

	ok(near(m, (2.228139 + 0.879058) * sqrt(2.0 / 6), 1e-5),
	   "MDE within-run, n 6: (t.975 + t.8)(df 10) * sqrt(2/6) = 1.79394 (got %.6f)", m);
	/* Between only: variance 1 with df 5, one run a side: se = sqrt(2);
	 * t(0.975, 5) = 2.570582, t(0.8, 5) = 0.919544. */
	m = noise_mde(1, 5, 0, 6, 1, 0.05, 0.8);
	ok(near(m, (2.570582 + 0.919544) * sqrt(2), 1e-5),
	   "MDE between-run, df 5: (t.975 + t.8) * sqrt(2) = 4.93580 (got %.6f)", m);
	/* Four runs a side halve the between part: se = sqrt(2/4). */
	m = noise_mde(1, 5, 0, 6, 4, 0.05, 0.8);
	ok(near(m, (2.570582 + 0.919544) * sqrt(0.5), 1e-5),
	   "MDE with 4 runs a side: se sqrt(2/4) (got %.6f)", m);
	ok(isnan(noise_mde(1, 5, 1, 1, 1, 0.05, 0.8)), "one sample a run: MDE untold");
	ok(noise_mde(0, 0, 0, 5, 1, 0.05, 0.8) == 0, "no noise at all: MDE 0");
}

/* ---- the model's decision ---- */

static void add_run(struct cmp_model *m, size_t col, double mean, double sd)
{
	double x[SAMPLES];
	struct sample_row r = { .section = "hb", .workload = "hackbench", .row = "1",
				.unit = "s", .higher_better = 0 };

	run_samples(mean, sd, x);
	model_set_run(m, col, col ? "new" : "base", (int64_t)col + 1, NULL, "host", NULL, 2,
		      "6.1.0", NULL, "hb", NULL);
	model_begin_run(m);
	for (int i = 0; i < SAMPLES; i++) {
		r.value = x[i];
		r.iteration = i + 1;
		model_add_sample(m, col, &r);
	}
}

static void add_history(struct cmp_model *m, int64_t group, double mean, double sd)
{
	struct noise_replicate rep;
	struct run_row_summary h = { .group = group, .section = "hb", .row = "1", .unit = "s" };

	replicate(mean, sd, 0, &rep);
	h.n = rep.n;
	h.mean = rep.mean;
	h.m2 = rep.m2;
	h.inv_mean = h.inv_m2 = NAN;
	model_add_history(m, &h);
}

static void model_decision(void)
{
	const struct stats_test_desc *welch = stats_test_find("welch");
	struct cmp_model m;
	const struct cmp_cell *cell;
	double mde_within;

	/* No history: Welch on the samples, significant, marked within-run. */
	model_init(&m, 2, welch, 0.05);
	add_run(&m, 0, drift[2], WITHIN_SD);
	add_run(&m, 1, drift[3], WITHIN_SD);
	model_finish(&m);
	cell = &m.sections[0].rows[0].cells[1];
	ok(cell->test.significant && decide_within_only(cell) &&
	   cell->method == CMP_METHOD_WITHIN && cell->verdict == CMP_VERDICT_CANNOT_TELL &&
	   !m.sections[0].rows[0].noise.known,
	   "no history: within-run test, significant, cannot tell (method %d, verdict %d)",
	   (int)cell->method, (int)cell->verdict);
	ok(!m.sections[0].rows[0].cells[0].noisy && !cell->noisy,
	   "CoeffVar ~2.3%% < 5%%: not marked noisy");
	mde_within = m.sections[0].rows[0].mde_pct;
	ok(mde_within > 1 && mde_within < 5, "the within-run MDE: %.2f%%", mde_within);
	model_release(&m);

	/* The same runs with the series' history: no star. */
	model_init(&m, 2, welch, 0.05);
	add_run(&m, 0, drift[2], WITHIN_SD);
	add_run(&m, 1, drift[3], WITHIN_SD);
	for (size_t i = 0; i < N(drift); i++)
		add_history(&m, 1, drift[i], WITHIN_SD);
	model_finish(&m);
	cell = &m.sections[0].rows[0].cells[1];
	ok(!cell->test.significant && cell->method == CMP_METHOD_BETWEEN &&
	   m.sections[0].rows[0].noise.runs == N(drift),
	   "with 6 runs of history: between-run test, no star (p %g)", cell->test.p);
	ok(m.sections[0].rows[0].mde_pct > 4 * mde_within,
	   "the MDE with between-run noise (%.1f%%) is far above the within-run one",
	   m.sections[0].rows[0].mde_pct);
	model_release(&m);

	/* --within-run: the old decision, starred with *. */
	model_init(&m, 2, welch, 0.05);
	m.within_run = 1;
	add_run(&m, 0, drift[2], WITHIN_SD);
	add_run(&m, 1, drift[3], WITHIN_SD);
	model_finish(&m);
	cell = &m.sections[0].rows[0].cells[1];
	ok(cell->test.significant && cell->method == CMP_METHOD_WITHIN &&
	   cell->verdict == CMP_VERDICT_CHANGED,
	   "--within-run: Welch on the samples, starred * as before");
	model_release(&m);

	/* A noisy run (CoeffVar above the threshold) and a short one. */
	model_init(&m, 2, welch, 0.05);
	add_run(&m, 0, 1.0, 0.1);
	add_run(&m, 1, 1.0, 0.01);
	model_finish(&m);
	ok(m.sections[0].rows[0].cells[0].noisy && !m.sections[0].rows[0].cells[1].noisy,
	   "CoeffVar %.1f%% > 5%%: marked noisy; %.1f%%: not",
	   m.sections[0].rows[0].cells[0].s.cv, m.sections[0].rows[0].cells[1].s.cv);
	model_release(&m);
	model_init(&m, 2, welch, 0.05);
	m.noise_threshold = 20;
	add_run(&m, 0, 1.0, 0.1);
	add_run(&m, 1, 1.0, 0.01);
	model_finish(&m);
	ok(!m.sections[0].rows[0].cells[0].noisy, "a threshold of 20%%: not noisy");
	model_release(&m);
	{
		struct sample_row r = { .section = "hb", .workload = "hackbench", .row = "1",
					.unit = "s", .value = 1 };

		model_init(&m, 1, welch, 0.05);
		model_set_run(&m, 0, "base", 1, NULL, "host", NULL, 2, "6.1.0", NULL, "hb", NULL);
		model_begin_run(&m);
		model_add_sample(&m, 0, &r);
		model_add_sample(&m, 0, &r);
		model_finish(&m);
		ok(m.sections[0].rows[0].cells[0].noisy, "2 samples, no spread: marked noisy");
		model_release(&m);
	}
}

/* The paired test from per-round means alone: the rounds both arms have
 * give the differences {1, 1.5, 0.5, 1.2}: mean 1.05, sd 0.4203, se
 * 0.2102, t 4.996 with 3 degrees of freedom, p 0.015. */
static void paired_by_hand(void)
{
	const struct noise_replicate base[] = {
		{ .n = 2, .mean = 10 }, { .n = 2, .mean = 11 }, { .n = 2, .mean = 12 },
		{ .n = 2, .mean = 13 }, { .n = 2, .mean = 14 },
	};
	const struct noise_replicate new[] = {
		{ .n = 2, .mean = 11 }, { .n = 2, .mean = 12.5 }, { .n = 2, .mean = 12.5 },
		{ .n = 2, .mean = 14.2 }, { .n = 0, .mean = 99 },
	};
	struct paired_result pr;
	int rc = paired_test(base, new, 5, 0.05, &pr);

	ok(!rc && pr.rounds == 4 &&
	   near(pr.base_mean, 11.5, 1e-12),
	   "paired: round 5, which one arm lacks, is left out (rounds %zu, base mean %g)",
	   pr.rounds, pr.base_mean);
	ok(near(pr.dec.diff, 1.05, 1e-12) && near(pr.dec.se, 0.2101586702, 1e-9) &&
	   near(pr.dec.t, 4.99622499, 1e-8) && pr.dec.df == 3,
	   "paired: mean %g, se %g, t %g, df %g", pr.dec.diff, pr.dec.se, pr.dec.t,
	   pr.dec.df);
	ok(pr.dec.p > 0.01 && pr.dec.p < 0.02 && pr.dec.significant,
	   "paired: p %g, significant at 0.05", pr.dec.p);
	ok(paired_test(base, new, 2, 0.05, &pr) == -1 &&
	   paired_test(base, new, 3, 0.05, &pr) == 0,
	   "paired: 2 rounds are too few, 3 are enough");
}

/* The nested model by hand. Four rounds of 3 samples an arm, each arm's
 * m2 2 in every round (its samples' variance 1 on 16 df in all, a
 * difference's share h = 2/3 of it). */
static void nested_by_hand(void)
{
	struct noise_replicate base[4], new[4];
	const double dsmall[] = { 1, 1.2, 0.8, 1 }, dlarge[] = { 1, 4, -2, 1 };
	struct paired_result pr, plain;
	int rc;

	for (int k = 0; k < 4; k++) {
		base[k] = (struct noise_replicate){ .n = 3, .mean = 10 + k, .m2 = 2 };
		new[k] = (struct noise_replicate){ .n = 3, .mean = 10 + k + dsmall[k], .m2 = 2 };
	}
	/* Differences {1, 1.2, 0.8, 1}: variance 0.08/3 on 3 df against
	 * 2/3 on 16: F 0.04, p near 1, pooled: (3 x 0.08/3 + 16 x 2/3) / 19
	 * = 10.7467/19, se sqrt(10.7467/19/4), t 1 / se = 2.6593 on 19 df. */
	rc = paired_nested_test(base, new, 4, 0.05, &pr);
	ok(!rc && pr.pooled &&
	   pr.interaction_p > 0.98 && pr.dec.df == 19 &&
	   near(pr.dec.t, 1 / sqrt((0.08 + 16 * 2.0 / 3) / 19 / 4), 1e-9) && pr.dec.significant,
	   "nested: no round-by-arm noise: pooled, df %g, t %g, F test p %g", pr.dec.df,
	   pr.dec.t, pr.interaction_p);
	for (int k = 0; k < 4; k++)
		new[k].mean = 10 + k + dlarge[k];
	/* Differences {1, 4, -2, 1}: variance 6 against 2/3: F 9 on 3 and
	 * 16 df, p 0.001: the paired test stands. */
	paired_test(base, new, 4, 0.05, &plain);
	rc = paired_nested_test(base, new, 4, 0.05, &pr);
	ok(!rc && !pr.pooled &&
	   pr.interaction_p > 0.0009 && pr.interaction_p < 0.0011 && pr.dec.df == 3 && pr.dec.t == plain.dec.t &&
	   pr.dec.p == plain.dec.p,
	   "nested: round-by-arm noise found (F test p %g): the paired test, df %g, t %g",
	   pr.interaction_p, pr.dec.df, pr.dec.t);
	for (int k = 0; k < 4; k++)
		base[k].m2 = new[k].m2 = 0;
	rc = paired_nested_test(base, new, 4, 0.05, &pr);
	ok(!rc && !pr.pooled &&
	   pr.interaction_p == 0,
	   "nested: samples without spread, differences with: not pooled (p %g)",
	   pr.interaction_p);
	for (int k = 0; k < 4; k++)
		new[k].mean = 10 + k + 1;
	rc = paired_nested_test(base, new, 4, 0.05, &pr);
	ok(!rc && pr.pooled &&
	   pr.interaction_p == 1 && isinf(pr.dec.t) && pr.dec.t > 0 && pr.dec.p == 0,
	   "nested: no spread anywhere, a difference of 1: pooled, t %g, p %g", pr.dec.t,
	   pr.dec.p);
	for (int k = 0; k < 4; k++)
		base[k].n = new[k].n = 1;
	new[2].mean = 20;
	paired_test(base, new, 4, 0.05, &plain);
	rc = paired_nested_test(base, new, 4, 0.05, &pr);
	ok(!rc && !pr.pooled &&
	   isnan(pr.interaction_p) && pr.dec.df == 3 && pr.dec.t == plain.dec.t,
	   "nested: one sample a cell, nothing to pool: the paired test (df %g)", pr.dec.df);
}

int main(void)
{
	estimate_by_hand();
	drift_without_change();
	real_shift();
	test_by_hand();
	mde_by_hand();
	model_decision();
	paired_by_hand();
	nested_by_hand();
	return done_testing();
}
