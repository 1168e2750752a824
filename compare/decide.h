/* decide: the verdict of a compared cell, in one place. Every way of
 * deciding whether a column's mean differs from the baseline's lives
 * here (the samples' own test, the row's between-run noise, the rounds
 * of an A/B experiment paired), and decide_cell is the one function that
 * writes a cell's test and verdict; model_finish calls it for every cell
 * and the renderers only read what it wrote. */
#ifndef KBENCH_DECIDE_H
#define KBENCH_DECIDE_H

#include <stddef.h>

struct cmp_cell;
struct cmp_model;
struct cmp_row;

/* How a cell's mean row was tested against the baseline's. */
enum cmp_method {
	CMP_METHOD_NONE = 0,	/* not tested: test.reason says why */
	CMP_METHOD_WITHIN,	/* on the samples, within-run variance alone:
				 * the model's test (with the default decision,
				 * because the row's between-run noise is
				 * unknown) */
	CMP_METHOD_BETWEEN,	/* the run means against the row's between-run
				 * noise (noise_test) */
	CMP_METHOD_PAIRED,	/* the rounds of an A/B experiment's arms
				 * paired (paired_test) */
};

/* What the test says of the change of a cell's mean. */
enum cmp_verdict {
	CMP_VERDICT_NONE = 0,	/* not tested */
	CMP_VERDICT_CHANGED,	/* significant (starred) */
	CMP_VERDICT_SAME,	/* not significant; with the default decision
				 * also: the test would have detected a change
				 * of the margin, or of the change seen if
				 * larger ("within noise") */
	CMP_VERDICT_CANNOT_TELL,/* marked ?: with the default decision, not
				 * significant and the between-run noise
				 * unknown, or the smallest change the test
				 * detects (mde_pct, power NOISE_POWER) larger
				 * than both the change seen and the margin */
};

/* Does the model's decision use between-run noise when it is known (the
 * default test, Welch's, without --within-run)? */
int model_uses_noise(const struct cmp_model *m);

/* Before the rows are decided: when the columns are the arms of one A/B
 * experiment, one run a column, with the default decision, set
 * m->paired_title (the footer's name of the paired test), which makes
 * decide_cell test the mean rows paired by round. */
void decide_setup(struct cmp_model *m);

/* Decide column col of row r against the baseline (column 0), whose
 * statistics and percentages are computed: fill the cell's test, and its
 * method and verdict, with the minimum detectable change and the rounds
 * needed where the method tells them. Column 0 and a column without
 * samples are not tested (test.reason says why). */
void decide_cell(const struct cmp_model *m, struct cmp_row *r, size_t col);

/* The default decision fell back on within-run variance, the row's
 * between-run noise being unknown: the verdict is cannot tell, and a
 * significant test is marked + rather than * where it is shown, and
 * counts for --exit-code=any only. */
int decide_within_only(const struct cmp_cell *cell);

/* The smallest change of the mean the decision in use detects with the
 * baseline's runs and samples on each side, in % of the baseline's mean;
 * NaN when untold. Call after noise_estimate on the row's series. */
double decide_row_mde_pct(const struct cmp_model *m, const struct cmp_row *r);

/* The runs a side the baseline's design needs to detect CMP_TARGET_PCT
 * (0: more than CMP_MAX_RUNS_NEEDED, or the noise unknown). */
size_t decide_row_runs_needed(const struct cmp_model *m, const struct cmp_row *r);

#endif
