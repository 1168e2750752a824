/* t1530-bisect: the pure part of kbench bisect: the commit tested next
 * (the middle, a skipped commit's neighbours), the bounds a mark moves,
 * marks that contradict, the end of a walk (one first bad commit, or only
 * skipped ones left), the steps left, and the rule that turns a step's
 * two paired verdicts into good, bad or cannot tell. */
#include "config.h"
#include "../tap.h"
#include "bisect/bisect.h"
#include "lib/strbuf.h"

#include <math.h>
#include <string.h>

/* Walk n commits whose first bad one is culprit, as an oracle answers;
 * skip[] (may be NULL) marks the commits that cannot be built. Return the
 * walk's result (as bisect_walk_result) with *first the bad bound, the
 * tested commits in order into order. */
static int walk(size_t n, size_t culprit, const int *skip, size_t *first, struct strbuf *order)
{
	struct bisect_walk w;
	long next, good;
	int rc, guard = 0;

	bisect_walk_init(&w, n);
	strbuf_reset(order);
	while ((next = bisect_walk_next(&w)) >= 0 && guard++ < 64) {
		enum bisect_mark m = skip && skip[next] ? BISECT_SKIP :
				     (size_t)next < culprit ? BISECT_GOOD : BISECT_BAD;

		strbuf_addf(order, "%s%ld%s", order->len ? " " : "", next,
			    m == BISECT_SKIP ? "s" : m == BISECT_GOOD ? "g" : "b");
		if (bisect_walk_mark(&w, (size_t)next, m))
			break;
	}
	rc = bisect_walk_result(&w);
	bisect_walk_bounds(&w, &good, first);
	bisect_walk_release(&w);
	return rc;
}

static void walks(void)
{
	struct strbuf order = STRBUF_INIT;
	size_t first;
	int all = 1, most = 0;

	/* Every culprit of a linear history of 8 is found in 3 steps. */
	for (size_t k = 0; k < 8; k++) {
		int rc = walk(8, k, NULL, &first, &order);
		size_t steps = 1;

		for (const char *p = order.buf; *p; p++)
			steps += *p == ' ';
		if (rc != 1 || first != k || steps > 3) {
			all = 0;
			diag("culprit %zu: result %d, first %zu, tested %s", k, rc, first, order.buf);
		}
		most = steps > (size_t)most ? (int)steps : most;
	}
	ok(all && most == 3, "8 commits: every culprit named, in at most 3 steps (%d)", most);

	walk(8, 5, NULL, &first, &order);
	ok_text(order.buf, "3g 5b 4g", "8 commits, culprit 5: the middle first, then halves");

	/* One commit: the bad end is the first bad commit, nothing tested. */
	ok(walk(1, 0, NULL, &first, &order) == 1 && first == 0 && !order.len,
	   "a bad end right after the good one is named without a step");

	/* A commit that cannot be built: its newer neighbour is tried. */
	{
		int skip[5] = { 0, 1, 0, 0, 0 }, rc = walk(5, 3, skip, &first, &order);

		ok(rc == 1 && first == 3, "a skipped midpoint does not stop the walk (first bad %zu)",
		   first);
		ok_text(order.buf, "1s 2g 3b", "a skipped commit's newer neighbour comes next");
	}
	{
		int skip[5] = { 0, 0, 1, 0, 0 };

		/* The commit before the culprit skipped: either could be it. */
		ok(walk(5, 3, skip, &first, &order) == 0 && first == 3,
		   "only skipped commits left: the result is one of them or the bad one");
		ok_text(order.buf, "1g 2s 3b", "... after testing round the skipped one");
	}
	{
		int skip[6] = { 1, 1, 1, 1, 1, 0 };

		ok(walk(6, 2, skip, &first, &order) == 0 && first == 5,
		   "every commit skipped: the walk ends, nothing named");
		ok_text(order.buf, "2s 3s 1s 4s 0s", "... each tried once, nearest the middle first");
	}
	strbuf_release(&order);
}

static void marks(void)
{
	struct bisect_walk w;
	long good;
	size_t bad;

	bisect_walk_init(&w, 10);
	ok(bisect_walk_steps_left(&w) == 4, "10 commits: about 4 steps (%d)",
	   bisect_walk_steps_left(&w));
	ok(bisect_walk_mark(&w, 6, BISECT_BAD) == 0, "a bad mark");
	ok(bisect_walk_mark(&w, 2, BISECT_GOOD) == 0, "a good mark");
	bisect_walk_bounds(&w, &good, &bad);
	ok(good == 2 && bad == 6, "the bounds follow the marks (%ld, %zu)", good, bad);
	ok(bisect_walk_untested(&w) == 3 && bisect_walk_steps_left(&w) == 2,
	   "3 untested commits between them, 2 steps");
	ok(bisect_walk_mark(&w, 7, BISECT_GOOD) == -1, "good after a bad commit is refused");
	ok(bisect_walk_mark(&w, 1, BISECT_BAD) == -1, "bad before a good commit is refused");
	ok(bisect_walk_mark(&w, 6, BISECT_GOOD) == -1, "the bad bound cannot turn good");
	ok(bisect_walk_mark(&w, 10, BISECT_BAD) == -1, "a commit out of range is refused");
	ok(bisect_walk_mark(&w, 4, BISECT_UNTESTED) == -1, "untested is not a mark");
	bisect_walk_bounds(&w, &good, &bad);
	ok(good == 2 && bad == 6, "refused marks change nothing");
	ok(bisect_walk_next(&w) == 4, "the middle of (2, 6] is 4");
	bisect_walk_mark(&w, 4, BISECT_SKIP);
	ok(bisect_walk_next(&w) == 5, "4 skipped: 5 next");
	bisect_walk_mark(&w, 5, BISECT_SKIP);
	ok(bisect_walk_next(&w) == 3 && bisect_walk_result(&w) == -1,
	   "4 and 5 skipped: 3 next, the walk is not over");
	bisect_walk_mark(&w, 3, BISECT_GOOD);
	ok(bisect_walk_next(&w) == -1 && bisect_walk_result(&w) == 0 &&
	   bisect_walk_steps_left(&w) == 0,
	   "only skipped commits left: over, not one commit");
	bisect_walk_release(&w);
}

static void classify(void)
{
	static const struct {
		struct bisect_cmp g, b;
		enum bisect_verdict want;
		const char *what;
	} cases[] = {
		/* A lower-is-better row: good end 1.0 s, bad end 1.3 s. */
		{ { 1, -24, 0.24 }, { 0, 1, -0.06 }, BISECT_VERDICT_BAD, "worse than good, like bad" },
		{ { 0, -2, 0.02 }, { 1, 25, -0.28 }, BISECT_VERDICT_GOOD, "like good, better than bad" },
		{ { 0, -2, 0.02 }, { 0, 20, -0.28 }, BISECT_VERDICT_CANNOT_TELL, "like neither: noise" },
		{ { 1, -12, 0.12 }, { 1, 12, -0.18 }, BISECT_VERDICT_CANNOT_TELL,
		  "different from both: half-way" },
		{ { 1, 20, -0.2 }, { 0, 1, -1.5 }, BISECT_VERDICT_CANNOT_TELL,
		  "better than good: not the regression's direction" },
		{ { 0, 3, -0.03 }, { 1, -20, 0.26 }, BISECT_VERDICT_CANNOT_TELL, "worse than bad" },
		{ { 1, -3, 0.03 }, { 0, 1, -0.27 }, BISECT_VERDICT_CANNOT_TELL,
		  "a significant change below the threshold does not count" },
		{ { 1, -24, 0.24 }, { 1, -3, 0.04 }, BISECT_VERDICT_BAD,
		  "a small significant change against bad does not count" },
		{ { 1, -8, 0.08 }, { 0, 9, -0.22 }, BISECT_VERDICT_CANNOT_TELL,
		  "worse than good but nearer good: not bad" },
		/* Good end 0.3 s, bad end 0.8 s: a commit at 0.45 s reads -50%
		 * against good and +44% against bad, yet is nearer good. */
		{ { 0, -50, 0.15 }, { 1, 44, -0.35 }, BISECT_VERDICT_GOOD,
		  "the percentages of two bases: nearness by the means" },
		{ { 1, -100, 0.3 }, { 0, 25, -0.2 }, BISECT_VERDICT_BAD,
		  "... and the converse, at 0.6 s" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum bisect_verdict v = bisect_classify(&cases[i].g, &cases[i].b, 5);

		ok(v == cases[i].want, "%s: %s", cases[i].what, bisect_verdict_name(v));
	}
	ok(bisect_is_regression(&(struct bisect_cmp){ 1, -12.3, 0.1 }, 5),
	   "bad 12.3%% worse, significant: a regression");
	ok(!bisect_is_regression(&(struct bisect_cmp){ 0, -30, 0.3 }, 5),
	   "not significant: no regression");
	ok(!bisect_is_regression(&(struct bisect_cmp){ 1, 12, -0.1 }, 5), "better: no regression");
	ok(!bisect_is_regression(&(struct bisect_cmp){ 1, -4, 0.04 }, 5), "below the threshold");
	ok(bisect_min_pct(5, -24) == 5, "a large regression: the threshold");
	ok(bisect_min_pct(5, -6) == 3, "a small one: half of it");
	ok(bisect_min_pct(5, NAN) == 5, "an unknown one: the threshold");
}

int main(void)
{
	walks();
	marks();
	classify();
	done_testing();
	return 0;
}
