/* t2140-decide: decide_cell, the one writer of a compared cell's test,
 * method and verdict, on models of constructed runs: the baseline and a
 * row a run lacks are not tested and say why; a side too small for the
 * test is left untested; --within-run and a test other than Welch's
 * decide on the samples alone (changed or same); the default decision
 * without between-run noise cannot tell, and with a row's history tests
 * the run means against it (changed, same, or cannot tell when the
 * change it detects is larger than the change seen and the margin); a
 * cell decided again forgets what it held.
 * Covers: compare/decide.c compare/model.c */
#include "config.h"
#include "compare/decide.h"
#include "compare/model.h"
#include "compare/stats.h"
#include "db/series.h"
#include "db/store.h"
#include "tests/tap.h"

#include <math.h>
#include <string.h>

#define SAMPLES 8

/* Eight samples of mean `mean`, spread sd * {-1.5 .. 1.5}. */
static void add_samples(struct cmp_model *m, size_t col, const char *row, double mean,
			double sd, int n)
{
	static const double z[SAMPLES] = { -1.5, -1, -0.5, 0, 0, 0.5, 1, 1.5 };
	struct sample_row r = { .section = "hb", .workload = "hackbench", .row = row,
				.unit = "s", .higher_better = 0 };

	for (int i = 0; i < n; i++) {
		r.value = mean + sd * z[i % SAMPLES];
		r.iteration = i + 1;
		model_add_sample(m, col, &r);
	}
}

static void start_run(struct cmp_model *m, size_t col)
{
	model_set_run(m, col, col ? "new" : "base", (int64_t)col + 1, NULL, "host", NULL, 2,
		      "6.1.0", NULL, "hb", NULL);
	model_begin_run(m);
}

/* Two columns of row "1": base and new, SAMPLES samples each. */
static void two_runs(struct cmp_model *m, const char *test, double base, double new_mean,
		     double sd)
{
	model_init(m, 2, stats_test_find(test), 0.05);
	start_run(m, 0);
	add_samples(m, 0, "1", base, sd, SAMPLES);
	start_run(m, 1);
	add_samples(m, 1, "1", new_mean, sd, SAMPLES);
}

/* A stored run of the row's series: group `group`, mean `mean`. */
static void history(struct cmp_model *m, int64_t group, double mean, double sd)
{
	struct run_row_summary h = { .group = group, .section = "hb", .row = "1", .unit = "s",
				     .n = SAMPLES, .mean = mean };

	/* The sum of squared deviations of the eight samples above. */
	h.m2 = sd * sd * (4 * 2.25 + 2 * 1 + 2 * 0.25);
	h.inv_mean = h.inv_m2 = NAN;
	model_add_history(m, &h);
}

static struct cmp_row *row1(struct cmp_model *m)
{
	return &m->sections[0].rows[0];
}

static void untested_cells(void)
{
	struct cmp_model m;
	struct cmp_row *r;
	struct cmp_cell *c;

	two_runs(&m, "welch", 1.0, 1.5, 0.01);
	model_finish(&m);
	r = row1(&m);
	c = &r->cells[0];
	ok(c->method == CMP_METHOD_NONE && c->verdict == CMP_VERDICT_NONE && !c->test.done &&
	   c->test.reason && !strcmp(c->test.reason, "baseline") && isnan(c->test.p),
	   "the baseline is not tested: method %d, verdict %d, reason '%s'", (int)c->method,
	   (int)c->verdict, c->test.reason ? c->test.reason : "(null)");
	/* Whatever a cell held before, deciding it again writes it whole. */
	c->method = CMP_METHOD_PAIRED;
	c->verdict = CMP_VERDICT_CHANGED;
	c->test.significant = 1;
	c->test.p = 0.001;
	decide_cell(&m, r, 0);
	ok(c->method == CMP_METHOD_NONE && c->verdict == CMP_VERDICT_NONE &&
	   !c->test.significant && isnan(c->test.p),
	   "the baseline decided again forgets a verdict it held");
	model_release(&m);

	/* Row 1 in the baseline only, row 2 in the new run only. */
	model_init(&m, 2, stats_test_find("welch"), 0.05);
	start_run(&m, 0);
	add_samples(&m, 0, "1", 1.0, 0.01, SAMPLES);
	start_run(&m, 1);
	add_samples(&m, 1, "2", 1.0, 0.01, SAMPLES);
	model_finish(&m);
	for (size_t i = 0; i < 2; i++) {
		c = &m.sections[0].rows[i].cells[1];
		ok(c->method == CMP_METHOD_NONE && c->verdict == CMP_VERDICT_NONE &&
		   !c->test.done && c->test.reason &&
		   !strcmp(c->test.reason, "row missing in a run"),
		   "row %s, missing on one side: not tested, reason '%s'",
		   m.sections[0].rows[i].label, c->test.reason ? c->test.reason : "(null)");
	}
	model_release(&m);

	/* One sample a side: Welch's test cannot run; the cell says why. */
	model_init(&m, 2, stats_test_find("welch"), 0.05);
	start_run(&m, 0);
	add_samples(&m, 0, "1", 1.0, 0.01, 1);
	start_run(&m, 1);
	add_samples(&m, 1, "1", 2.0, 0.01, 1);
	model_finish(&m);
	c = &row1(&m)->cells[1];
	ok(!c->test.done && c->test.reason && c->method == CMP_METHOD_NONE &&
	   c->verdict == CMP_VERDICT_NONE,
	   "one sample a side: untested (%s), no method, no verdict",
	   c->test.reason ? c->test.reason : "(null)");
	model_release(&m);
}

static void samples_alone(void)
{
	struct cmp_model m;
	struct cmp_cell *c;

	/* --within-run: Welch on the samples, the verdict its answer. */
	two_runs(&m, "welch", 1.0, 1.5, 0.01);
	m.within_run = 1;
	model_finish(&m);
	c = &row1(&m)->cells[1];
	ok(c->test.done && c->test.significant && c->method == CMP_METHOD_WITHIN &&
	   c->verdict == CMP_VERDICT_CHANGED && !decide_within_only(c),
	   "--within-run, a 50%% change: changed, within-run (p %g)", c->test.p);
	model_release(&m);
	two_runs(&m, "welch", 1.0, 1.0, 0.01);
	m.within_run = 1;
	model_finish(&m);
	c = &row1(&m)->cells[1];
	ok(c->test.done && !c->test.significant && c->method == CMP_METHOD_WITHIN &&
	   c->verdict == CMP_VERDICT_SAME, "--within-run, the same samples: same (p %g)",
	   c->test.p);
	model_release(&m);

	/* Mann-Whitney never uses between-run noise, history or not. */
	two_runs(&m, "mwu", 1.0, 1.5, 0.01);
	for (int i = 0; i < 6; i++)
		history(&m, 1, 1.0 + 0.001 * i, 0.01);
	model_finish(&m);
	c = &row1(&m)->cells[1];
	ok(c->test.done && c->test.significant && c->method == CMP_METHOD_WITHIN &&
	   c->verdict == CMP_VERDICT_CHANGED,
	   "Mann-Whitney with a history: decided on the samples, changed (method %d)",
	   (int)c->method);
	model_release(&m);
}

static void default_decision(void)
{
	struct cmp_model m;
	struct cmp_row *r;
	struct cmp_cell *c;

	/* No history: significant on the samples, but cannot tell. */
	two_runs(&m, "welch", 1.0, 1.5, 0.01);
	model_finish(&m);
	c = &row1(&m)->cells[1];
	ok(c->test.significant && c->method == CMP_METHOD_WITHIN &&
	   c->verdict == CMP_VERDICT_CANNOT_TELL && decide_within_only(c),
	   "no history: within-run, significant, cannot tell (verdict %d)", (int)c->verdict);
	model_release(&m);

	/* Six runs of history a few tenths of a percent apart: the 50%
	 * change is far outside the between-run noise. */
	two_runs(&m, "welch", 1.0, 1.5, 0.01);
	for (int i = 0; i < 6; i++)
		history(&m, 1, 1.0 + 0.002 * (i % 3), 0.01);
	model_finish(&m);
	r = row1(&m);
	c = &r->cells[1];
	ok(r->noise.known && c->method == CMP_METHOD_BETWEEN && c->test.significant &&
	   c->verdict == CMP_VERDICT_CHANGED,
	   "tight history, a 50%% change: between-run test, changed (p %g)", c->test.p);

	/* The same model, the new run now equal to the baseline: same, the
	 * change it detects (%.2f%%) within the margin. */
	memcpy(c->samples, r->cells[0].samples, r->cells[0].n * sizeof(*c->samples));
	c->s = r->cells[0].s;
	memset(c->pct, 0, sizeof(c->pct));
	decide_cell(&m, r, 1);
	ok(c->method == CMP_METHOD_BETWEEN && !c->test.significant &&
	   c->mde_pct <= m.margin_pct && c->verdict == CMP_VERDICT_SAME,
	   "tight history, no change: same (MDE %.2f%%, margin %.0f%%, verdict %d)", c->mde_pct,
	   m.margin_pct, (int)c->verdict);
	model_release(&m);

	/* Runs 30% apart in their history: a 2% change is not significant,
	 * and the change the test would detect is larger than both the
	 * change seen and the margin. */
	two_runs(&m, "welch", 1.0, 1.02, 0.01);
	for (int i = 0; i < 6; i++)
		history(&m, 1, 1.0 + 0.3 * (i % 2), 0.01);
	model_finish(&m);
	c = &row1(&m)->cells[1];
	ok(c->method == CMP_METHOD_BETWEEN && !c->test.significant &&
	   c->mde_pct > m.margin_pct && c->verdict == CMP_VERDICT_CANNOT_TELL,
	   "noisy history, a 2%% change: cannot tell (MDE %.1f%%)", c->mde_pct);
	model_release(&m);
}

int main(void)
{
	untested_cells();
	samples_alone();
	default_decision();
	return done_testing();
}
