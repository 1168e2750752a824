/* bisect: which commit a bisection tests next and what a step's paired
 * verdicts say of it; kept free of I/O so that its rules are tested on
 * their own. */
#include "config.h"
#include "bisect/bisect.h"
#include "lib/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void bisect_walk_init(struct bisect_walk *w, size_t n)
{
	w->n = n;
	w->marks = xcalloc(n ? n : 1, sizeof(*w->marks));
	if (n)
		w->marks[n - 1] = BISECT_BAD;
}

void bisect_walk_release(struct bisect_walk *w)
{
	free(w->marks);
	w->marks = NULL;
	w->n = 0;
}

void bisect_walk_bounds(const struct bisect_walk *w, long *good, size_t *bad)
{
	*good = -1;
	*bad = w->n ? w->n - 1 : 0;
	for (size_t i = 0; i < w->n; i++) {
		if (w->marks[i] == BISECT_GOOD)
			*good = (long)i;
		else if (w->marks[i] == BISECT_BAD && i < *bad)
			*bad = i;
	}
}

int bisect_walk_mark(struct bisect_walk *w, size_t i, enum bisect_mark m)
{
	long good;
	size_t bad;

	if (i >= w->n || m == BISECT_UNTESTED)
		return -1;
	bisect_walk_bounds(w, &good, &bad);
	if ((m == BISECT_GOOD && i >= bad) || (m == BISECT_BAD && (long)i <= good))
		return -1;
	w->marks[i] = m;
	return 0;
}

size_t bisect_walk_untested(const struct bisect_walk *w)
{
	long good;
	size_t bad, n = 0;

	bisect_walk_bounds(w, &good, &bad);
	for (size_t i = (size_t)(good + 1); i < bad; i++)
		if (w->marks[i] == BISECT_UNTESTED)
			n++;
	return n;
}

long bisect_walk_next(const struct bisect_walk *w)
{
	long good, mid;
	size_t bad;

	bisect_walk_bounds(w, &good, &bad);
	if ((long)bad - good < 2)
		return -1;
	mid = good + ((long)bad - good) / 2;
	/* mid, mid + 1, mid - 1, mid + 2, ...: the nearest untested one. */
	for (long d = 0; d < (long)bad - good; d++) {
		long up = mid + d, down = mid - d;

		if (up < (long)bad && up > good && w->marks[up] == BISECT_UNTESTED)
			return up;
		if (d && down > good && down < (long)bad && w->marks[down] == BISECT_UNTESTED)
			return down;
	}
	return -1;
}

int bisect_walk_steps_left(const struct bisect_walk *w)
{
	size_t n = bisect_walk_untested(w);
	int bits = 0;

	/* Telling apart n + 1 candidates (the untested ones and the bad
	 * bound) takes ceil(log2(n + 1)) answers. */
	while (n && ((size_t)1 << bits) < n + 1)
		bits++;
	return bits;
}

int bisect_walk_result(const struct bisect_walk *w)
{
	long good;
	size_t bad;

	if (bisect_walk_next(w) >= 0)
		return -1;
	bisect_walk_bounds(w, &good, &bad);
	return (long)bad == good + 1;
}

static int differs(const struct bisect_cmp *c, double min_pct)
{
	return c->significant && fabs(c->pct) >= min_pct;
}

enum bisect_verdict bisect_classify(const struct bisect_cmp *vs_good,
				    const struct bisect_cmp *vs_bad, double min_pct)
{
	int dg = differs(vs_good, min_pct), db = differs(vs_bad, min_pct);

	if (dg && !db && vs_good->pct < 0 && fabs(vs_bad->diff) < fabs(vs_good->diff))
		return BISECT_VERDICT_BAD;
	if (db && !dg && vs_bad->pct > 0 && fabs(vs_good->diff) < fabs(vs_bad->diff))
		return BISECT_VERDICT_GOOD;
	return BISECT_VERDICT_CANNOT_TELL;
}

int bisect_is_regression(const struct bisect_cmp *bad_vs_good, double min_pct)
{
	return differs(bad_vs_good, min_pct) && bad_vs_good->pct < 0;
}

double bisect_min_pct(double threshold_pct, double regression_pct)
{
	double half = fabs(regression_pct) / 2;

	return isfinite(half) && half < threshold_pct ? half : threshold_pct;
}

const char *bisect_verdict_name(enum bisect_verdict v)
{
	switch (v) {
	case BISECT_VERDICT_GOOD:
		return "good";
	case BISECT_VERDICT_BAD:
		return "bad";
	default:
		return "cannot tell";
	}
}
