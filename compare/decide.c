/* decide: the verdict of each compared cell (the test of its mean row
 * against the baseline's), by the samples' test, the between-run noise
 * or the paired rounds of an A/B experiment. */
#include "config.h"
#include "compare/decide.h"
#include "compare/model.h"
#include "compare/noise.h"
#include "compare/paired.h"
#include "compare/sequential.h"
#include "compare/stats.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int model_uses_noise(const struct cmp_model *m)
{
	return m->test->kind == STATS_TEST_WELCH && !m->within_run;
}

/* ---- the arms of an A/B experiment ---- */

/* Are the columns the arms of one experiment, one run a column, with
 * the default decision? */
static int paired_applies(const struct cmp_model *m)
{
	if (m->nruns < 2 || !model_uses_noise(m))
		return 0;
	for (size_t c = 0; c < m->nruns; c++) {
		const struct cmp_run *r = &m->runs[c];

		if (r->nruns != 1 || !r->experiment_uuid || !*r->experiment_uuid ||
		    strcmp(r->experiment_uuid, m->runs[0].experiment_uuid))
			return 0;
	}
	return 1;
}

/* The arms' experiment has a sequential design: build it into m->seq
 * and say in the title which bound the rounds are read against. A design
 * that cannot be read is said, and the fixed design's test used. */
static void seq_setup(struct cmp_model *m, int rounds, struct strbuf *title)
{
	const char *text = m->runs[0].experiment_design;
	struct strbuf err = STRBUF_INIT;
	struct seq_plan plan;
	struct seq_design *d;
	double bound;
	int k;

	if (!text || !*text)
		return;
	d = xcalloc(1, sizeof(*d));
	if (seq_plan_parse(text, &plan, &err) || seq_plan_design(&plan, d, &err)) {
		strbuf_addf(title, "; its sequential design %s, so read as a fixed one", err.buf);
		free(d);
		strbuf_release(&err);
		return;
	}
	m->seq = d;
	m->seq_equivalence_pct = plan.equivalence_pct;
	k = seq_bound_for(d, rounds, &bound);
	if (k >= 0)
		strbuf_addf(title, ", sequential: |t| >= %.2f at look %d of %d, O'Brien-Fleming "
			    "alpha spending", bound, k + 1, d->nlooks);
	else
		strbuf_addf(title, ", sequential, stopped between looks: |t| >= %.2f, its "
			    "largest bound", bound);
	strbuf_release(&err);
}

/* The samples within the rounds join the paired test (compare --paired
 * nested): not with a sequential design, whose bounds are the paired
 * t's on the rounds alone. */
static int nested_applies(const struct cmp_model *m)
{
	return m->paired_nested && !m->seq;
}

void decide_setup(struct cmp_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	int rounds = m->runs[0].rounds;

	if (!paired_applies(m))
		return;
	for (size_t c = 1; c < m->nruns; c++)
		if (m->runs[c].rounds < rounds)
			rounds = m->runs[c].rounds;
	strbuf_addf(&sb, "a paired t-test on %d rounds' mean differences (interleaved A/B, "
		    "experiment ", rounds);
	if (m->runs[0].experiment_id > 0)
		strbuf_addf(&sb, "@%lld)", (long long)m->runs[0].experiment_id);
	else
		strbuf_addf(&sb, "%.8s)", m->runs[0].experiment_uuid);
	seq_setup(m, rounds, &sb);
	if (nested_applies(m))
		strbuf_addf(&sb, ", nested (the samples' variance pooled in when an F test "
			    "at %g finds no round-by-arm noise)", PAIRED_POOL_ALPHA);
	else if (m->paired_nested)
		strbuf_addstr(&sb, " (--paired nested is not applied with a sequential "
			      "design: its bounds are for the paired t)");
	m->paired_title = strbuf_detach(&sb);
}

/* The round of a cell's sample i, 1..maxround; 0: none of those. */
static int sample_round(const struct cmp_cell *c, size_t i, int maxround)
{
	int k = c->rounds ? c->rounds[i] : 1;

	return k >= 1 && k <= maxround ? k : 0;
}

/* A sample on the test's scale: x, or 1/x for an Hmean row. */
static double test_scale(int higher_better, double x)
{
	return higher_better ? 1 / x : x;
}

/* A cell's samples by round on the test's scale, rounds 1..maxround,
 * each round's summarised in rd[k - 1] for round k (n 0: none). */
static void round_figures(const struct cmp_cell *c, int higher_better, int maxround,
			  struct noise_replicate *rd)
{
	/* Round k's samples, in measurement order, go to y[at[k - 1]] up
	 * to y[at[k]]; next[k - 1] is where its next one goes. */
	size_t *at = xcalloc((size_t)maxround + 1, sizeof(*at));
	size_t *next = xcalloc((size_t)maxround + 1, sizeof(*next));
	double *y = xcalloc(c->n ? c->n : 1, sizeof(*y));

	for (size_t i = 0; i < c->n; i++) {
		int k = sample_round(c, i, maxround);

		if (k)
			at[k]++;
	}
	for (int k = 1; k <= maxround; k++)
		at[k] += at[k - 1];
	memcpy(next, at, ((size_t)maxround + 1) * sizeof(*at));
	for (size_t i = 0; i < c->n; i++) {
		int k = sample_round(c, i, maxround);

		if (k)
			y[next[k - 1]++] = test_scale(higher_better, c->samples[i]);
	}
	for (int k = 1; k <= maxround; k++)
		noise_replicate_of(y + at[k - 1], at[k] - at[k - 1], 0, &rd[k - 1]);
	free(at);
	free(next);
	free(y);
}

static int max_round(const struct cmp_cell *c)
{
	int k = 0;

	for (size_t i = 0; c->rounds && i < c->n; i++)
		if (c->rounds[i] > k)
			k = c->rounds[i];
	return k;
}

/* A difference d of the test's scale (new - base, base b > 0) as the
 * change of the mean in % of the baseline's, + better: on x for a
 * lower-is-better row (-100 d / b), on 1/x for a higher-is-better one,
 * whose mean in x is 1/(b + d) against 1/b: 100 (b / (b + d) - 1). Both
 * fall as d grows; past b + d = 0 the change is unbounded. */
static double change_pct(int higher_better, double d, double b)
{
	if (!higher_better)
		return -100 * d / b;
	return b + d > 0 ? -100 * d / (b + d) : INFINITY;
}

/* Read a paired test against the experiment's sequential design: the
 * look of its rounds decides a change, and its repeated confidence
 * interval, turned into % of the baseline's mean (+ better) as the
 * table's change is, decides no change against the equivalence bound. */
static void seq_cell(const struct cmp_model *m, const struct cmp_row *r,
		     const struct paired_result *pr, struct cmp_cell *cell)
{
	double scale = fabs(pr->base_mean), bound, e = m->seq_equivalence_pct;
	struct seq_look l;
	int k = seq_bound_for(m->seq, (int)pr->rounds, &bound);

	cell->seq_bound = bound;
	cell->test.significant = fabs(pr->dec.t) >= bound;
	if (k < 0 || !(scale > 0) ||
	    seq_decide_summary(m->seq, k, pr->rounds, pr->dec.diff,
			       pr->dec.se * sqrt((double)pr->rounds), e / 100 * scale, &l))
		return;
	cell->seq_look = k + 1;
	cell->seq_rounds_needed = l.rounds_needed;
	cell->seq_lo_pct = change_pct(r->higher_better, l.hi, scale);
	cell->seq_hi_pct = change_pct(r->higher_better, l.lo, scale);
	if (l.decision != SEQ_CHANGE) {
		int inside = e > 0 && cell->seq_lo_pct > -e && cell->seq_hi_pct < e;

		l.decision = inside ? SEQ_NO_CHANGE :
			     k < m->seq->nlooks - 1 ? SEQ_GO_ON : SEQ_CANNOT_TELL;
	}
	cell->seq_decision = (int)l.decision;
}

/* The paired test of cell against base in row r, in place of the
 * within-run one. Returns 1, or 0 (cell untouched) with fewer than
 * PAIRED_MIN_ROUNDS rounds paired. */
static int paired_decide(const struct cmp_model *m, const struct cmp_row *r,
			 const struct cmp_cell *base, struct cmp_cell *cell)
{
	int kmax = max_round(base) > max_round(cell) ? max_round(base) : max_round(cell);
	struct noise_replicate *rb, *rn;
	struct paired_result pr;
	double scale;
	int ret = 0, rc;

	if (kmax < PAIRED_MIN_ROUNDS)
		return 0;
	rb = xcalloc((size_t)kmax, sizeof(*rb));
	rn = xcalloc((size_t)kmax, sizeof(*rn));
	round_figures(base, r->higher_better, kmax, rb);
	round_figures(cell, r->higher_better, kmax, rn);
	if (nested_applies(m))
		rc = paired_nested_test(rb, rn, (size_t)kmax, m->alpha, &pr);
	else
		rc = paired_test(rb, rn, (size_t)kmax, m->alpha, &pr);
	if (rc)
		goto out;
	/* The sign of new - base in x, as the other tests give it. */
	cell->test.statistic = r->higher_better ? -pr.dec.t : pr.dec.t;
	cell->test.df = pr.dec.df;
	cell->test.p = pr.dec.p;
	cell->test.method = NULL;
	cell->test.done = 1;
	cell->test.reason = NULL;
	cell->test.significant = pr.dec.significant;
	cell->method = CMP_METHOD_PAIRED;
	cell->nested = nested_applies(m);
	cell->pooled = pr.pooled;
	cell->interaction_p = pr.interaction_p;
	if (m->seq)
		seq_cell(m, r, &pr, cell);
	scale = fabs(pr.base_mean);
	cell->mde_pct = 100 * noise_mde_se(pr.dec.se, pr.dec.df, m->alpha, NOISE_POWER) / scale;
	cell->rounds_needed = noise_rounds_needed(pr.dec.se * sqrt((double)pr.rounds),
						  CMP_TARGET_PCT / 100 * scale,
						  m->alpha, NOISE_POWER, CMP_MAX_ROUNDS_NEEDED);
	ret = 1;
out:
	free(rb);
	free(rn);
	return ret;
}

/* ---- between-run noise ---- */

/* The replicates (runs) of a cell on the test's scale: x, or 1/x for an
 * Hmean row. *k is set to their count; the caller frees the array. */
static struct noise_replicate *cell_replicates(const struct cmp_row *r,
					       const struct cmp_cell *c, size_t *k)
{
	struct noise_replicate *rep = xcalloc(c->nrep ? c->nrep : 1, sizeof(*rep));
	double *y = xcalloc(c->n ? c->n : 1, sizeof(*y));
	size_t start = 0;

	for (size_t i = 0; i < c->n; i++)
		y[i] = test_scale(r->higher_better, c->samples[i]);
	for (size_t i = 0; i < c->nrep; i++) {
		noise_replicate_of(y + start, c->rep_end[i] - start, 0, &rep[i]);
		rep[i].run = (int64_t)c->rep_run[i] + 1;
		start = c->rep_end[i];
	}
	free(y);
	*k = c->nrep;
	return rep;
}

/* The mean of a side's replicate means, on the test's scale. */
static double noise_side_mean(const struct noise_replicate *r, size_t k)
{
	double sum = 0;

	for (size_t i = 0; i < k; i++)
		sum += r[i].mean;
	return k ? sum / (double)k : NAN;
}

/* The between-run test of cell against base (both testable, the row's
 * noise known), in place of the within-run one. */
static void noise_decide(const struct cmp_model *m, const struct cmp_row *r,
			 const struct cmp_cell *base, struct cmp_cell *cell)
{
	size_t kb, kn;
	struct noise_replicate *rb = cell_replicates(r, base, &kb);
	struct noise_replicate *rn = cell_replicates(r, cell, &kn);
	struct noise_decision d;

	if (!noise_test(rb, kb, rn, kn, &r->noise, m->alpha, &d)) {
		/* The sign of new - base in x, as the within-run test gives. */
		cell->test.statistic = r->higher_better ? -d.t : d.t;
		cell->test.df = d.df;
		cell->test.p = d.p;
		cell->test.method = NULL;
		cell->test.significant = d.significant;
		cell->method = CMP_METHOD_BETWEEN;
		cell->mde_pct = 100 * noise_mde_se(d.se, d.df, m->alpha, NOISE_POWER) /
				fabs(noise_side_mean(rb, kb));
	}
	free(rb);
	free(rn);
}

double decide_row_mde_pct(const struct cmp_model *m, const struct cmp_row *r)
{
	const struct cmp_cell *base = &r->cells[0];
	struct noise_replicate *rep;
	double ss = 0, df = 0, sum = 0, mde;
	size_t k;

	if (!base->n || !base->nrep)
		return NAN;
	rep = cell_replicates(r, base, &k);
	for (size_t i = 0; i < k; i++) {
		ss += rep[i].m2;
		df += rep[i].n - 1;
		sum += rep[i].mean * rep[i].n;
	}
	free(rep);
	if (!(df > 0))
		return NAN;
	if (model_uses_noise(m) && r->noise.known)
		mde = noise_mde(r->noise.between_var, r->noise.df, ss / df, base->n / k, k,
				m->alpha, NOISE_POWER);
	else
		mde = noise_mde(0, 0, ss / df, base->n / k, k, m->alpha, NOISE_POWER);
	return 100 * mde / fabs(sum / base->n);
}

size_t decide_row_runs_needed(const struct cmp_model *m, const struct cmp_row *r)
{
	const struct cmp_cell *base = &r->cells[0];
	int rounds = m->runs[0].rounds >= 3 ? m->runs[0].rounds : 1;
	size_t per_run;

	if (!model_uses_noise(m) || !r->noise.known || !base->n || !m->runs[0].nruns)
		return 0;
	per_run = base->n / m->runs[0].nruns / (size_t)rounds;
	return noise_runs_needed(&r->noise, CMP_TARGET_PCT / 100, rounds,
				 per_run ? per_run : 1, m->alpha, NOISE_POWER, CMP_MAX_RUNS_NEEDED);
}

/* ---- the verdict ---- */

int decide_within_only(const struct cmp_cell *cell)
{
	return cell->method == CMP_METHOD_WITHIN && cell->verdict == CMP_VERDICT_CANNOT_TELL;
}

/* The verdict of the default decision: cannot tell when the noise is
 * unknown, or when the change the test detects is larger than both the
 * change seen and the margin. */
static enum cmp_verdict settle_verdict(const struct cmp_model *m, const struct cmp_cell *cell)
{
	double seen = fabs(cell->pct[CMP_MEAN]);

	if (cell->method == CMP_METHOD_WITHIN)
		return CMP_VERDICT_CANNOT_TELL;
	if (cell->test.significant)
		return CMP_VERDICT_CHANGED;
	if (isnan(cell->mde_pct) || cell->mde_pct > (seen > m->margin_pct ? seen : m->margin_pct))
		return CMP_VERDICT_CANNOT_TELL;
	return CMP_VERDICT_SAME;
}

/* A cell that is not tested, and why. */
static void untested(struct cmp_cell *cell, const char *reason)
{
	memset(&cell->test, 0, sizeof(cell->test));
	cell->test.statistic = cell->test.df = cell->test.p = NAN;
	cell->test.reason = reason;
}

void decide_cell(const struct cmp_model *m, struct cmp_row *r, size_t col)
{
	const struct cmp_cell *base = &r->cells[0];
	struct cmp_cell *cell = &r->cells[col];

	cell->method = CMP_METHOD_NONE;
	cell->verdict = CMP_VERDICT_NONE;
	if (col == 0) {
		untested(cell, "baseline");
		return;
	}
	if (!cell->n || !base->n) {
		untested(cell, "row missing in a run");
		return;
	}
	stats_test(m->test->kind, base->samples, base->n, cell->samples, cell->n,
		   r->higher_better, m->alpha, &cell->test);
	if (!cell->test.done)
		return;
	cell->method = CMP_METHOD_WITHIN;
	if (!model_uses_noise(m)) {
		cell->verdict = cell->test.significant ? CMP_VERDICT_CHANGED : CMP_VERDICT_SAME;
		return;
	}
	if (m->paired_title && paired_decide(m, r, base, cell))
		;
	else if (r->noise.known)
		noise_decide(m, r, base, cell);
	cell->verdict = settle_verdict(m, cell);
}
