/* ab_looks: the looks of an experiment with a sequential design (kbench
 * ab --rounds auto). After the rounds the design looks at, every arm's
 * mean rows are read against the first arm's as kbench compare reads
 * them (compare/verdict.h: the paired t against the look's bound, and the
 * look's repeated confidence interval), every row of the look is stored
 * (experiment_looks), and the progress says where the experiment stands:
 * the rows decided and the one it waits on. The experiment stops at the
 * first look that decides every watched row, a change or no change
 * larger than the equivalence bound; at its last look a row undecided
 * cannot be told, and the rounds that would have told it are said. */
#ifndef KBENCH_AB_LOOKS_H
#define KBENCH_AB_LOOKS_H

struct experiment;
struct store;
struct strbuf;
struct ab_looks;
struct seq_design;

/* An experiment's round_done hook that looks where a sequential design
 * looks (compare/sequential.h): after `round` rounds, when design looks
 * then, it calls look with the look's index and returns what look
 * returns (1: decided, the experiment ends; 0: go on; -1: an error,
 * said); otherwise 0. kbench ab's looks (ab_looks_round_done) and kbench
 * bisect's steps both look through it, with the hook as its argument. */
struct seq_look_hook {
	const struct seq_design *design;
	int (*look)(struct experiment *e, struct store *s, int look, int round, void *arg);
	void *arg;
};
int seq_look_hook_round_done(struct experiment *e, struct store *s, int round, void *hook);

/* A watch (e->watch) that matches no row of any arm's plan would run
 * every round and look at nothing: refuse it before anything runs.
 * Return 0, or -1 after saying so. */
int ab_looks_check_watch(const struct experiment *e);

/* Whether row, SECTION/ROW as compare names it ("hackbench-a/4",
 * "netperf/send-64"), is a row of some arm's plan of e. rows gets the
 * first few rows of the plan, quoted, to say what was expected. */
int ab_looks_has_row(const struct experiment *e, const char *row, struct strbuf *rows);

/* The looks of e (e->sequential): its design built, its watch compiled.
 * Return NULL after saying why. */
struct ab_looks *ab_looks_new(const struct experiment *e);
void ab_looks_free(struct ab_looks *l);

/* Look at e after `round` rounds, when its design looks then (the last
 * round always does). Return 1 when every watched row is decided, 0 when
 * not (or no look then), -1 after an error (said). The experiment's
 * round_done hook takes it, with l as its argument. */
int ab_looks_round_done(struct experiment *e, struct store *s, int round, void *l);

#endif
