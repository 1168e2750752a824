/* sequential: a group-sequential design for the paired test of an
 * experiment's rounds, so that an experiment may look at its data as the
 * rounds come in and stop when they decide, without the repeated looks
 * raising its false-positive rate above alpha.
 *
 * The design looks after min_rounds rounds, then every `every` rounds,
 * up to max_rounds. At look k, n_k rounds paired, the statistic is the
 * paired t of the rounds' differences, T_k = mean / (sd / sqrt(n_k)).
 * Alpha is spent over the looks by Lan and DeMets' (1983) spending
 * function of the O'Brien-Fleming type, alpha(t) = 2 - 2 Phi(z / sqrt(t))
 * with z = Phi^-1(1 - alpha / 2) and t = n_k / max_rounds the information
 * at the look: almost nothing early, nearly all of alpha at the last look
 * (whose bound is then close to the fixed design's). The bound c_k is the
 * |T_k| that, under no change, is reached at look k for the first time
 * with probability alpha(t_k) - alpha(t_{k-1}). With normal differences
 * T_k's joint law does not depend on their variance (T is pivotal), so
 * the bounds are computed by simulating that law once, with a fixed seed:
 * the same design gives the same bounds on every machine.
 *
 * The bounds give repeated confidence intervals (Jennison and Turnbull,
 * 1989): mean +/- c_k sd / sqrt(n_k) covers the true difference at every
 * look at once with probability 1 - alpha. A look decides a change when
 * its interval excludes 0 (|T_k| >= c_k), and no change larger than the
 * equivalence bound when its interval lies inside (-bound, +bound);
 * otherwise the experiment goes on, and at the last look it cannot tell.
 * Stopping for no change never adds a false positive. Pure functions on
 * numbers; docs/statistics.md gives the formulas. */
#ifndef KBENCH_SEQUENTIAL_H
#define KBENCH_SEQUENTIAL_H

#include <stddef.h>

struct strbuf;

/* The most looks a design has. */
#define SEQ_MAX_LOOKS 64
/* The fewest rounds of the first look: a paired t needs 3 (df 2). */
#define SEQ_MIN_ROUNDS 3

struct seq_design {
	double alpha;			/* two-sided, over all the looks */
	int nlooks;
	int rounds[SEQ_MAX_LOOKS];	/* rounds paired at each look */
	double spent[SEQ_MAX_LOOKS];	/* alpha spent up to each look */
	double bound[SEQ_MAX_LOOKS];	/* c_k: |T| at or past it decides */
	double fixed_bound;		/* the fixed design's at max_rounds */
};

/* The design of looks at min_rounds, min_rounds + every, ... and at
 * max_rounds (the last look, even off the step). Return 0, or -1 with
 * err saying which argument is wrong (min_rounds below SEQ_MIN_ROUNDS,
 * max_rounds below min_rounds, every below 1, alpha outside (0, 0.5), or
 * more than SEQ_MAX_LOOKS looks). */
int seq_design_init(struct seq_design *d, int min_rounds, int max_rounds, int every,
		    double alpha, struct strbuf *err);

/* The look of design d made after `rounds` rounds: its index, or -1 when
 * d makes no look then. */
int seq_look_at(const struct seq_design *d, int rounds);

enum seq_decision {
	SEQ_GO_ON,		/* not the last look, nothing decided */
	SEQ_CHANGE,		/* the interval excludes 0 */
	SEQ_NO_CHANGE,		/* the interval is inside +/- the bound */
	SEQ_CANNOT_TELL,	/* the last look, nothing decided */
};

struct seq_look {
	enum seq_decision decision;
	int look;		/* its index */
	size_t n;		/* differences paired */
	double mean, sd;	/* of the differences */
	double t;		/* mean / (sd / sqrt(n)) */
	double lo, hi;		/* the repeated confidence interval of the mean */
	/* SEQ_CANNOT_TELL: about how many rounds, at the last look's bound,
	 * would have decided one way or the other at the spread seen (0:
	 * not known: no spread, or no difference and no bound). */
	int rounds_needed;
};

/* Read look `look` of d over the n differences diff[0..n-1] (new - base,
 * one a round), with equivalence bound `equiv` (in the differences'
 * unit; 0: never decide no change). Return 0, or -1 when look is not one
 * of d's or n is not its rounds. */
int seq_decide(const struct seq_design *d, int look, const double *diff, size_t n,
	       double equiv, struct seq_look *out);

/* As seq_decide, from the differences' mean and standard deviation
 * (in their unit) over n rounds instead of the differences. */
int seq_decide_summary(const struct seq_design *d, int look, size_t n, double mean, double sd,
		       double equiv, struct seq_look *out);

/* The bound |T| of d that decides a change after `rounds` rounds: the
 * look's (its index returned), else (no look then: an experiment that
 * stopped between looks) the largest of d's bounds and -1. */
int seq_bound_for(const struct seq_design *d, int rounds, double *bound);

/* What an experiment with a sequential design asks for, as stored (the
 * experiment's design and its arms' runs' fact experiment-design):
 * "sequential min-rounds=4 max-rounds=24 look-every=2 alpha=0.05
 * equivalence=5%". */
struct seq_plan {
	int min_rounds, max_rounds, every;
	double alpha;
	double equivalence_pct;		/* % of the baseline's mean; 0: none */
};

void seq_plan_format(const struct seq_plan *p, struct strbuf *sb);
/* Return 0, or -1 with err saying what was expected. */
int seq_plan_parse(const char *text, struct seq_plan *p, struct strbuf *err);
/* The design of plan p: seq_design_init's. */
int seq_plan_design(const struct seq_plan *p, struct seq_design *d, struct strbuf *err);

/* A decision's name: "go on", "change", "no change", "cannot tell". */
const char *seq_decision_name(enum seq_decision d);

#endif
