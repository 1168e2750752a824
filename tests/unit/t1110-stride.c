/* t1110-stride: mmtests' large-stride sequence and the stride: syntax.
 * Covers: workloads/stride.c */
#include "config.h"
#include "../tap.h"
#include "lib/strbuf.h"
#include "workloads/stride.h"

#include <stdlib.h>
#include <string.h>

static int seq_is(long long min, long long max, const char *want)
{
	long long v[128];
	size_t n = stride_large(min, max, v, 128);
	struct strbuf sb = STRBUF_INIT;
	int r;

	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%lld", i ? " " : "", v[i]);
	r = ok(!strcmp(sb.buf, want), "stride %lld..%lld = %s", min, max, want);
	if (!r)
		diag("got %s", sb.buf);
	strbuf_release(&sb);
	return r;
}

int main(void)
{
	struct strbuf err = STRBUF_INIT;
	long long *v = NULL;
	size_t n = 0;
	int rc;

	/* The sequences mmtests documents for 1..min(4*NCPU, 296). */
	seq_is(1, 296, "1 4 7 12 21 30 48 79 110 141 172 203 234 265 296");
	seq_is(1, 256, "1 4 7 12 21 30 48 79 110 141 172 203 234 256");
	seq_is(1, 64, "1 4 7 12 21 30 48 64");
	seq_is(1, 32, "1 3 5 7 12 18 24 30 32");
	seq_is(1, 16, "1 3 5 7 12 16");
	seq_is(1, 8, "1 3 5 7 8");
	seq_is(1, 2, "1 2");
	seq_is(1, 1, "1");

	ok(!stride_parse("stride:1..4*cpus,max=296", 74, &v, &n, &err) && n == 15 &&
	   v[14] == 296, "stride:1..4*cpus,max=296 on 74 CPUs caps at 296");
	free(v);
	v = NULL;
	ok(!stride_parse("stride:1..4*cpus,max=296", 2, &v, &n, &err) && n == 5 &&
	   v[4] == 8, "stride:1..4*cpus on 2 CPUs ends at 8");
	free(v);
	v = NULL;
	ok(!stride_parse("stride:1..cpus", 16, &v, &n, &err) && n == 6 && v[5] == 16,
	   "stride:1..cpus on 16 CPUs");
	free(v);
	v = NULL;
	ok(stride_parse("stride:1-4", 2, &v, &n, &err) && strstr(err.buf, "stride:MIN..MAX"),
	   "a malformed stride is rejected with the expected syntax");
	strbuf_reset(&err);
	ok(stride_parse("stride:5..2", 2, &v, &n, &err) && strstr(err.buf, "empty range"),
	   "an empty range is rejected");
	strbuf_reset(&err);

	/* Past 512 rows the sequence once overran a stack array. */
	v = NULL;
	if (ok(!stride_parse("stride:1..20000", 2, &v, &n, &err) && n == 651,
	       "stride:1..20000 gives all 651 rows")) {
		size_t rising = 1;

		while (rising < n && v[rising] > v[rising - 1])
			rising++;
		if (!ok(rising == n && v[0] == 1 && v[6] == 48 && v[649] == 19981 &&
			v[650] == 20000, "they run 1 .. 48 .. 19981 20000, rising"))
			diag("rising up to row %zu; rows 0, 6, 649, 650: %lld %lld %lld %lld",
			     rising, v[0], v[6], v[649], v[650]);
	} else {
		diag("got %zu rows: %s", n, err.buf);
	}
	free(v);
	v = NULL;
	rc = stride_parse("stride:1..100000", 2, &v, &n, &err);
	if (!ok(!rc && n == 3232 && v[3231] == 100000,
		"stride:1..100000, the largest group count, gives 3232 rows"))
		diag("got %zu rows: %s", n, err.buf);
	free(v);
	v = NULL;
	strbuf_reset(&err);
	rc = stride_parse("stride:1..9223372036854775807", 2, &v, &n, &err);
	if (!ok(rc && strstr(err.buf, "too many rows in 'stride:1..9223372036854775807' "
			     "(more than 100000)"), "a range of more than STRIDE_MAX_ROWS rows is refused"))
		diag("got: %s", err.buf);
	strbuf_reset(&err);
	ok(stride_parse("stride:1..4611686018427387904*cpus", 4, &v, &n, &err) &&
	   strstr(err.buf, "cannot parse"), "K*cpus past the largest integer is refused");
	strbuf_reset(&err);
	rc = stride_parse("stride:9223372036854775000..9223372036854775807", 2, &v, &n, &err);
	if (!ok(!rc && n == 27 && v[0] >= 9223372036854775000LL &&
		v[26] == 9223372036854775807LL,
		"a range near the largest integer is walked from its start"))
		diag("got %zu rows: %s", n, err.buf);
	free(v);
	v = NULL;

	/* doubling: reads MIN..MAX as stride: does. */
	strbuf_reset(&err);
	rc = stride_doubling("doubling:3..2*cpus", 10, &v, &n, &err);
	if (!ok(!rc && n == 4 && v[0] == 3 && v[1] == 6 && v[2] == 12 && v[3] == 20,
		"doubling:3..2*cpus on 10 CPUs: 3 6 12 20"))
		diag("got %zu values: %s", n, err.buf);
	free(v);
	v = NULL;
	rc = stride_doubling("doubling: 1 .. 8 ", 2, &v, &n, &err);
	ok(!rc && n == 4 && v[3] == 8, "blanks around the terms, MAX itself a power: 1 2 4 8");
	free(v);
	strbuf_reset(&err);
	ok(stride_doubling("doubling:1-4", 2, &v, &n, &err) &&
	   strstr(err.buf, "expected doubling:MIN..MAX"), "doubling:1-4 is refused: %s", err.buf);
	strbuf_reset(&err);
	ok(stride_doubling("doubling:8..2", 2, &v, &n, &err) &&
	   strstr(err.buf, "empty range in 'doubling:8..2'"), "an empty range is refused: %s",
	   err.buf);
	strbuf_release(&err);
	return done_testing();
}
