/* t2610-sequential: the group-sequential design of an experiment's
 * looks. Its bounds fall from look to look (O'Brien-Fleming: almost no
 * alpha spent early), its last bound is near the fixed design's; on
 * simulated experiments of normal differences (another stream than the
 * design's) the share of A/A experiments that stop with a change stays
 * at or below alpha whatever the looks, where peeking at the fixed
 * design's bound at every look does not; a clear change stops at the
 * first look, no change with a tight spread stops as "no change", and an
 * unresolved one ends as "cannot tell" with the rounds it would need.
 * Covers: compare/sequential.c */
#include "config.h"
#include "compare/sequential.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>

#define EXPERIMENTS 20000

/* Run EXPERIMENTS experiments of d with differences N(shift, 1) and
 * equivalence bound equiv; count the decisions, and the rounds they took
 * in all. naive: every look uses the fixed design's bound instead. */
struct tally {
	int change, no_change, cannot, wrong_sign;
	double rounds;
};

static void simulate(const struct seq_design *d, gsl_rng *r, double shift, double equiv,
		     int naive, struct tally *out)
{
	int max = d->rounds[d->nlooks - 1];
	double *x = calloc((size_t)max, sizeof(*x));

	memset(out, 0, sizeof(*out));
	for (int e = 0; e < EXPERIMENTS; e++) {
		for (int i = 0; i < max; i++)
			x[i] = shift + gsl_ran_gaussian_ziggurat(r, 1.0);
		for (int k = 0; k < d->nlooks; k++) {
			struct seq_look l;
			struct seq_design nd;

			if (naive) {
				nd = *d;
				for (int j = 0; j < nd.nlooks; j++)
					nd.bound[j] = gsl_cdf_tdist_Qinv(d->alpha / 2, nd.rounds[j] - 1);
				seq_decide(&nd, k, x, (size_t)d->rounds[k], equiv, &l);
			} else {
				seq_decide(d, k, x, (size_t)d->rounds[k], equiv, &l);
			}
			if (l.decision == SEQ_GO_ON)
				continue;
			out->rounds += d->rounds[k];
			if (l.decision == SEQ_CHANGE) {
				out->change++;
				out->wrong_sign += shift != 0 && (l.mean > 0) != (shift > 0);
			} else if (l.decision == SEQ_NO_CHANGE) {
				out->no_change++;
			} else {
				out->cannot++;
			}
			break;
		}
	}
	free(x);
}

int main(void)
{
	struct seq_design d;
	struct strbuf err = STRBUF_INIT;
	struct tally t;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	/* The binomial's 3 sigma over EXPERIMENTS at 5%. */
	double slack = 3 * sqrt(0.05 * 0.95 / EXPERIMENTS);
	int falling = 1;

	gsl_rng_set(r, 20261205);
	ok(seq_design_init(&d, 2, 12, 2, 0.05, &err) == -1 &&
	   strstr(err.buf, "3 rounds or more") != NULL, "a first look of 2 rounds is refused");
	strbuf_reset(&err);
	ok(seq_design_init(&d, 6, 4, 2, 0.05, &err) == -1, "more rounds first than at most");
	strbuf_reset(&err);
	ok(seq_design_init(&d, 3, 1000, 1, 0.05, &err) == -1 &&
	   strstr(err.buf, "more than 64 looks") != NULL, "too many looks");
	strbuf_reset(&err);

	ok(seq_design_init(&d, 4, 12, 2, 0.05, &err) == 0, "4 to 12 rounds, a look every 2");
	ok(d.nlooks == 5 && d.rounds[0] == 4 && d.rounds[4] == 12, "looks at 4, 6, 8, 10, 12");
	for (int k = 1; k < d.nlooks; k++)
		falling &= d.bound[k] < d.bound[k - 1];
	ok(falling, "the bounds fall: %.2f %.2f %.2f %.2f %.2f", d.bound[0], d.bound[1],
	   d.bound[2], d.bound[3], d.bound[4]);
	ok(fabs(d.spent[4] - 0.05) < 1e-12 && d.spent[0] < 0.001,
	   "alpha spent: %.5f at the first look, all of it at the last", d.spent[0]);
	ok(d.bound[4] >= d.fixed_bound && d.bound[4] < d.fixed_bound * 1.15,
	   "the last bound %.3f is near the fixed design's %.3f", d.bound[4], d.fixed_bound);
	{
		struct seq_design again;

		seq_design_init(&again, 4, 12, 2, 0.05, &err);
		ok(!memcmp(again.bound, d.bound, sizeof(d.bound)),
		   "the same design has the same bounds");
	}

	simulate(&d, r, 0, 0, 0, &t);
	ok(t.change <= EXPERIMENTS * (0.05 + slack),
	   "A/A: %d of %d experiments stop with a change (%.2f%%)", t.change, EXPERIMENTS,
	   100.0 * t.change / EXPERIMENTS);
	simulate(&d, r, 0, 0, 1, &t);
	ok(t.change > EXPERIMENTS * (0.05 + slack),
	   "... where the fixed bound at every look marks %.2f%%", 100.0 * t.change / EXPERIMENTS);

	ok(seq_design_init(&d, 3, 30, 1, 0.05, &err) == 0, "3 to 30 rounds, a look every round");
	simulate(&d, r, 0, 0, 0, &t);
	ok(t.change <= EXPERIMENTS * (0.05 + slack),
	   "A/A over 28 looks: %.2f%% stop with a change", 100.0 * t.change / EXPERIMENTS);

	ok(seq_design_init(&d, 4, 12, 2, 0.05, &err) == 0, "4 to 12 rounds again");
	/* A change of 2 sd a round: decided well before the fixed design's
	 * 12 rounds (O'Brien-Fleming spends little at 4 rounds). */
	simulate(&d, r, 2, 0, 0, &t);
	ok(t.change >= EXPERIMENTS * 0.9 && t.wrong_sign == 0 && t.rounds / t.change < 8,
	   "a change of 2 sd: %.1f%% found, none the wrong way, %.1f rounds on average",
	   100.0 * t.change / EXPERIMENTS, t.rounds / t.change);
	/* No change, bound 1.5 sd: most stop as no change before the end. */
	simulate(&d, r, 0, 1.5, 0, &t);
	ok(t.no_change >= EXPERIMENTS * 0.9 && t.change <= EXPERIMENTS * (0.05 + slack),
	   "no change within 1.5 sd: %.1f%% say so, %.2f%% a change, %.1f rounds on average",
	   100.0 * t.no_change / EXPERIMENTS, 100.0 * t.change / EXPERIMENTS,
	   t.rounds / EXPERIMENTS);
	{
		static const double diff[12] = { 0.3, -0.2, 0.5, -0.4, 0.1, 0.2,
						 -0.3, 0.4, 0.0, 0.2, -0.1, 0.3 };
		struct seq_look l;

		int rc;

		rc = seq_decide(&d, 0, diff, 4, 0, &l);
		ok(rc == 0 && l.decision == SEQ_GO_ON, "an unclear first look goes on");
		rc = seq_decide(&d, 4, diff, 12, 0, &l);
		ok(rc == 0 && l.decision == SEQ_CANNOT_TELL && l.rounds_needed > 12,
		   "... and the last cannot tell: %d rounds would (mean %.3f, sd %.3f)",
		   l.rounds_needed, l.mean, l.sd);
		ok(seq_decide(&d, 4, diff, 11, 0, &l) == -1, "a look of the wrong rounds is refused");
		rc = seq_decide(&d, 2, diff, 8, 2, &l);
		ok(rc == 0 && l.decision == SEQ_NO_CHANGE && l.lo > -2 && l.hi < 2,
		   "its interval [%.2f, %.2f] is inside +/-2: no change", l.lo, l.hi);
	}
	ok(!strcmp(seq_decision_name(SEQ_CANNOT_TELL), "cannot tell"), "decisions have names");
	{
		static const double diff[6] = { 1.0, 1.4, 0.8, 1.1, 1.3, 0.9 };
		struct seq_look a, b;
		double bound;

		seq_decide(&d, 1, diff, 6, 0.5, &a);
		seq_decide_summary(&d, 1, 6, a.mean, a.sd, 0.5, &b);
		ok(a.decision == b.decision && a.lo == b.lo && a.hi == b.hi && a.t == b.t,
		   "the look from the differences' mean and sd is the look from them");
		ok(seq_decide_summary(&d, 1, 6, NAN, 1, 0, &b) == -1,
		   "... and a mean that is not a number is refused");
		ok(seq_bound_for(&d, 6, &bound) == 1 && bound == d.bound[1],
		   "the bound after a look's rounds is the look's");
		ok(seq_bound_for(&d, 7, &bound) == -1 && bound == d.bound[0],
		   "... between looks, the largest: the first's (%.2f)", bound);
	}
	{
		struct seq_plan p = { 4, 24, 2, 0.05, 5 }, q;

		strbuf_reset(&err);
		seq_plan_format(&p, &err);
		ok_text(err.buf, "sequential min-rounds=4 max-rounds=24 look-every=2 alpha=0.05 "
			"equivalence=5%", "a plan as stored");
		ok(seq_plan_parse(err.buf, &q, &err) == 0 && q.min_rounds == 4 &&
		   q.max_rounds == 24 && q.every == 2 && q.alpha == 0.05 &&
		   q.equivalence_pct == 5, "... read back");
		strbuf_reset(&err);
		ok(seq_plan_parse("sequential min-rounds=4", &q, &err) == -1 &&
		   strstr(err.buf, "expected 'sequential min-rounds=N") != NULL,
		   "a plan cut short is refused: %s", err.buf);
		strbuf_reset(&err);
		ok(seq_plan_parse("sequential min-rounds=4 max-rounds=24 look-every=2 alpha=0.05 "
				  "equivalence=5% more", &q, &err) == -1,
		   "... and one with more after it");
	}
	gsl_rng_free(r);
	strbuf_release(&err);
	done_testing();
	return 0;
}
