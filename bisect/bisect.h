/* bisect: the pure part of kbench bisect: the commits between a good and
 * a bad one and what is known of each (the walk: which commit to test
 * next, skipped commits, when it ends), and the rule that turns the
 * paired verdicts of one step into good, bad or cannot tell. No I/O:
 * bisect/bisect_run.c drives it, tests/unit/t1530-bisect.c checks it. */
#ifndef KBENCH_BISECT_H
#define KBENCH_BISECT_H

#include <stddef.h>

/* What is known of a commit. */
enum bisect_mark {
	BISECT_UNTESTED,
	BISECT_GOOD,
	BISECT_BAD,
	BISECT_SKIP,	/* could not be built, or cannot tell: never tested again */
};

/* The commits a bisection can name, oldest first, as git rev-list
 * --first-parent --ancestry-path GOOD..BAD lists them reversed: the good
 * end is not among them (it is index -1), the bad end is the last one. */
struct bisect_walk {
	size_t n;
	enum bisect_mark *marks;
};

/* Start a walk over n commits (n >= 1), the last one bad, the others
 * untested. */
void bisect_walk_init(struct bisect_walk *w, size_t n);
void bisect_walk_release(struct bisect_walk *w);

/* Mark commit i (0 <= i < n). A good commit makes every older one good, a
 * bad one every newer one bad, as git bisect assumes. Return 0, or -1
 * when the mark contradicts what is known (good at or after a bad
 * commit, bad at or before a good one); nothing is changed then. */
int bisect_walk_mark(struct bisect_walk *w, size_t i, enum bisect_mark m);

/* The range still open: *good the newest commit known good (-1: the good
 * end), *bad the oldest known bad; the first bad commit is in
 * (*good, *bad]. */
void bisect_walk_bounds(const struct bisect_walk *w, long *good, size_t *bad);

/* The commit to test next: among the untested commits strictly between
 * the bounds, the one nearest good + (bad - good) / 2, the newer one
 * first at equal distance (a skipped commit's neighbours are tried next,
 * as git bisect skip does). Return its index, or -1 when none is left:
 * the walk is over. */
long bisect_walk_next(const struct bisect_walk *w);

/* Untested commits strictly between the bounds. */
size_t bisect_walk_untested(const struct bisect_walk *w);

/* Roughly how many steps are left, as git bisect says it: the bits it
 * takes to tell apart the untested commits between the bounds and the
 * bad one (0 when the walk is over). */
int bisect_walk_steps_left(const struct bisect_walk *w);

/* The walk is over: the first bad commit is known when every commit
 * strictly between the bounds is skipped and there is none (then it is
 * *bad); with skipped ones, it is one of them or *bad, as git bisect
 * says "only skipped commits left to test". Return 1 when it is
 * known (the bad bound), 0 when it is one of several, -1 when the walk
 * is not over. */
int bisect_walk_result(const struct bisect_walk *w);

/* One paired verdict of a step: the tested commit's mean row against an
 * end's, as compare decides it. pct is the direction-normalised change of
 * the tested commit relative to that end (positive: better); diff the
 * difference of the two means in the metric's unit (tested - end), which
 * says which end the tested commit is nearer (two pct are of two bases). */
struct bisect_cmp {
	int significant;
	double pct;
	double diff;
};

enum bisect_verdict {
	BISECT_VERDICT_CANNOT_TELL,
	BISECT_VERDICT_GOOD,
	BISECT_VERDICT_BAD,
};

/* Whether the tested commit is like the good end or the bad one, from
 * its verdict against each (vs_good: the tested commit relative to the
 * good end; vs_bad: relative to the bad end). A difference counts when
 * it is significant and at least min_pct in size. Bad: it differs from
 * the good end for the worse, does not differ from the bad end, and its
 * mean is nearer the bad end's. Good: the converse (better than the bad
 * end, not different from the good one, nearer it). Otherwise cannot
 * tell: no difference from either (noise), or from both (a change
 * between the two, or more than one). */
enum bisect_verdict bisect_classify(const struct bisect_cmp *vs_good,
				    const struct bisect_cmp *vs_bad, double min_pct);

/* Whether the bad end is worse than the good one by min_pct or more,
 * significantly: the regression to bisect. bad_vs_good: the bad end
 * relative to the good one. */
int bisect_is_regression(const struct bisect_cmp *bad_vs_good, double min_pct);

/* The smallest change a step counts (%): the threshold, or half the
 * regression confirmed between the ends (regression_pct, its size) when
 * that is less, so that a commit half-way is told from both ends. */
double bisect_min_pct(double threshold_pct, double regression_pct);

const char *bisect_verdict_name(enum bisect_verdict v);

#endif
