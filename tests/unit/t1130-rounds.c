/* t1130-rounds: the sample order of a round (rows, rounds, a seeded
 * shuffle), the splitmix64 generator behind it, and the stop rule of
 * iterations = auto.
 * Covers: runner/plan.c runner/conf.c */
#include "config.h"
#include "../tap.h"
#include "runner/conf.h"
#include "runner/plan.h"
#include "lib/strbuf.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* The order of a section of nrows rows and iterations samples, as text
 * (rows numbered from 1). */
static void order_text(enum sample_order order, uint64_t seed, int round, size_t nrows,
		       int iterations, struct strbuf *sb)
{
	struct conf_section cs = { .name = "ext" };
	struct plan_section ps = {
		.cs = &cs, .nrows = nrows, .iterations = iterations, .order = order,
		.seed = seed,
	};
	size_t slots[64];

	plan_round_order(&ps, round, slots);
	strbuf_reset(sb);
	for (size_t i = 0; i < nrows * (size_t)iterations; i++)
		strbuf_addf(sb, "%s%zu", i ? " " : "", slots[i] + 1);
}

static void order_is(enum sample_order order, uint64_t seed, int round, size_t nrows,
		     int iterations, const char *want, const char *what)
{
	struct strbuf sb = STRBUF_INIT;

	order_text(order, seed, round, nrows, iterations, &sb);
	if (!ok(!strcmp(sb.buf, want), "%s: %s", what, want))
		diag("got %s", sb.buf);
	strbuf_release(&sb);
}

/* Mean and sum of squared deviations of x[0..n-1]. */
static void moments(const double *x, long n, double *mean, double *m2)
{
	*mean = *m2 = 0;
	for (long i = 0; i < n; i++)
		*mean += x[i] / (double)n;
	for (long i = 0; i < n; i++)
		*m2 += (x[i] - *mean) * (x[i] - *mean);
}

int main(void)
{
	static const double seq[] = { 100, 102, 101, 101 };
	static const double flat[] = { 100, 100, 100 };
	struct conf_section cs = { .name = "ext" };
	struct plan_section ps = {
		.cs = &cs, .ci_target = 0.02, .min_iterations = 3, .max_iterations = 6,
	};
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	uint64_t state = 0;
	double mean, m2, ci;
	int met, counts[4] = { 0 };

	/* The reference outputs of splitmix64 from state 0. */
	ok(plan_splitmix64(&state) == 0xe220a8397b1dcdafULL &&
	   plan_splitmix64(&state) == 0x6e789e6aa1b965f4ULL &&
	   plan_splitmix64(&state) == 0x06c45d188009454fULL,
	   "splitmix64 gives its reference sequence from 0");

	order_is(ORDER_ROWS, 0, 1, 3, 2, "1 1 2 2 3 3", "rows: each row's samples together");
	order_is(ORDER_ROUNDS, 0, 1, 3, 2, "1 2 3 1 2 3", "rounds: one of each row in turn");
	/* Worked out by hand from the documented rule (seed ^ FNV-1a of the
	 * section's name ^ round * 0xd1b54a32d192ed03, Fisher-Yates from the
	 * end with splitmix64() % i); the CLI test sees the same order. */
	order_is(ORDER_SHUFFLE, 7, 1, 3, 2, "2 3 1 3 2 1", "shuffle, seed 7, round 1");
	order_is(ORDER_SHUFFLE, 7, 2, 3, 2, "2 3 1 1 3 2", "shuffle, seed 7, round 2");
	order_text(ORDER_SHUFFLE, 12345, 3, 4, 5, &a);
	order_text(ORDER_SHUFFLE, 12345, 3, 4, 5, &b);
	ok(!strcmp(a.buf, b.buf), "the same seed and round give the same order");
	for (const char *p = a.buf; *p; p++)
		if (*p >= '1' && *p <= '4')
			counts[*p - '1']++;
	ok(counts[0] == 5 && counts[1] == 5 && counts[2] == 5 && counts[3] == 5,
	   "a shuffle runs each row as often as the others (%d %d %d %d)", counts[0], counts[1],
	   counts[2], counts[3]);
	order_text(ORDER_SHUFFLE, 12346, 3, 4, 5, &b);
	ok(strcmp(a.buf, b.buf), "another seed gives another order");

	/* The half-width of the 95% CI over the mean: t(0.975, n-1) s /
	 * sqrt(n) / |mean|. */
	moments(seq, 3, &mean, &m2);
	ci = plan_ci_relative(3, mean, m2);
	ok(fabs(ci - 0.02459542288861714) < 1e-12, "100 102 101: CI half-width 2.4595%% (%.10f)",
	   ci);
	ok(!plan_row_done(&ps, 3, mean, m2, &met) && !met, "... above a 2%% target: go on");
	moments(seq, 4, &mean, &m2);
	ci = plan_ci_relative(4, mean, m2);
	ok(fabs(ci - 0.012863646174508291) < 1e-12,
	   "100 102 101 101: CI half-width 1.2864%% (%.10f)", ci);
	ok(plan_row_done(&ps, 4, mean, m2, &met) && met, "... within 2%%: stop, target met");
	moments(flat, 2, &mean, &m2);
	ok(!plan_row_done(&ps, 2, mean, m2, &met) && !met,
	   "no spread, but fewer than min_iterations samples: go on");
	moments(flat, 3, &mean, &m2);
	ok(plan_row_done(&ps, 3, mean, m2, &met) && met, "no spread at min_iterations: stop");
	ok(plan_row_done(&ps, 6, 100, 6 * 2500, &met) && !met,
	   "max_iterations reached: stop, target not met");
	ok(isnan(plan_ci_relative(1, 100, 0)), "one sample: no interval");
	ok(isnan(plan_ci_relative(5, 0, 10)), "a mean of 0: no relative interval");
	ok(!plan_row_done(&ps, 5, 0, 10, &met) && !met, "... and no stop before the cap");
	ok(fabs(plan_ci_relative(3, -101, 2) - 0.02459542288861714) < 1e-12,
	   "a negative mean: relative to its size");

	strbuf_release(&a);
	strbuf_release(&b);
	return done_testing();
}
