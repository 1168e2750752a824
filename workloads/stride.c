/* stride: mmtests' large-stride sequence (bin/generate-stride-range
 * --stride-large, formerly threads_large_stride_begin) and the config
 * syntax that asks for it. */
#include "config.h"
#include "workloads/stride.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The sequence as it is walked: values outside [min, max] and values not
 * above the last are dropped (the walk's steps overlap at their ends); the
 * first cap values are kept, and all are counted. */
struct stride_walk {
	long long min, max;
	long long *out;
	size_t cap;
	unsigned long long n;	/* values so far */
	long long last;		/* the last of them, when n > 0 */
};

/* from, from + step, ... up to to, kept from the first value above both
 * min and the last one: counted without stepping through them, so a long
 * range costs no time, and never overflowing. */
static void walk_seq(struct stride_walk *w, long long from, long long step, long long to)
{
	unsigned long long count;
	long long lo;

	if (to > w->max)
		to = w->max;
	if (w->n && w->last >= to)
		return;
	lo = w->n ? w->last + 1 : w->min;
	if (lo < w->min)
		lo = w->min;
	if (from > to || lo > to)
		return;
	if (from < lo) {
		long long d = lo - from;
		long long k = d / step + (d % step != 0);

		if (k > (to - from) / step)
			return;
		from += k * step;
	}
	count = (unsigned long long)((to - from) / step) + 1;
	for (unsigned long long i = 0; i < count && w->n + i < w->cap; i++)
		w->out[w->n + i] = from + (long long)i * step;
	w->n += count;
	w->last = from + (long long)(count - 1) * step;
}

/* Walk mmtests' sequence from min to max into the first cap places of out;
 * return its whole length. */
static unsigned long long walk(long long min, long long max, long long *out, size_t cap)
{
	struct stride_walk w = {
		.min = min,
		.max = max,
		.out = out,
		.cap = cap,
	};

	if (max < min)
		return 0;
	/* The same walk as mmtests: fine steps first, coarser later. The
	 * first branch (MAX > 8*NCPU) never applies to our use, where
	 * MAX <= 4*NCPU. */
	if (max > 32) {
		walk_seq(&w, min, 3, 8);
		walk_seq(&w, 12, 9, 32);
		walk_seq(&w, 48, 31, max);
	} else if (max > 8) {
		walk_seq(&w, min, 2, 8);
		walk_seq(&w, 12, 6, max);
	} else {
		walk_seq(&w, min, 2, max);
	}
	if (!w.n || w.last != max)
		walk_seq(&w, max, 1, max);
	return w.n;
}

size_t stride_large(long long min, long long max, long long *out, size_t cap)
{
	unsigned long long n = walk(min, max, out, cap);

	return n < cap ? (size_t)n : cap;
}

int stride_term(const char **sp, long long cpus, long long *v)
{
	const char *s = *sp;
	long long k = 1;
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (isdigit((unsigned char)*s)) {
		errno = 0;
		k = strtoll(s, &end, 10);
		if (errno || k < 0)
			return -1;
		s = end;
		while (isspace((unsigned char)*s))
			s++;
		if (*s != '*') {
			*v = k;
			*sp = s;
			return 0;
		}
		s++;
		while (isspace((unsigned char)*s))
			s++;
	}
	if (strncmp(s, "cpus", 4) || (cpus > 0 && k > LLONG_MAX / cpus))
		return -1;
	*v = k * cpus;
	*sp = s + 4;
	return 0;
}

/* "MIN..MAX" at *sp, each a stride_term: 0 with *sp past MAX, or -1. */
static int parse_range(const char **sp, long long cpus, long long *min, long long *max)
{
	const char *s = *sp;

	if (stride_term(&s, cpus, min) || strncmp(s, "..", 2))
		return -1;
	s += 2;
	if (stride_term(&s, cpus, max))
		return -1;
	*sp = s;
	return 0;
}

int stride_parse(const char *spec, long long cpus, long long **out,
		 size_t *n, struct strbuf *err)
{
	const char *s = spec;
	long long min, max, cap = -1;
	unsigned long long rows;

	if (strncmp(s, "stride:", 7))
		goto bad;
	s += 7;
	if (parse_range(&s, cpus, &min, &max))
		goto bad;
	while (isspace((unsigned char)*s))
		s++;
	if (*s == ',') {
		s++;
		while (isspace((unsigned char)*s))
			s++;
		if (strncmp(s, "max=", 4))
			goto bad;
		s += 4;
		if (stride_term(&s, cpus, &cap))
			goto bad;
	}
	while (isspace((unsigned char)*s))
		s++;
	if (*s)
		goto bad;
	if (cap >= 0 && max > cap)
		max = cap;
	if (min < 1 || max < min) {
		strbuf_addf(err, "empty range in '%s' (from %lld to %lld)", spec, min, max);
		return -1;
	}
	rows = walk(min, max, NULL, 0);
	if (rows > STRIDE_MAX_ROWS) {
		strbuf_addf(err, "too many rows in '%s' (more than %d)", spec, STRIDE_MAX_ROWS);
		return -1;
	}
	*n = (size_t)rows;
	*out = xcalloc(*n, sizeof(**out));
	walk(min, max, *out, *n);
	return 0;
bad:
	strbuf_addf(err, "cannot parse '%s': expected stride:MIN..MAX[,max=CAP] "
		    "with MIN, MAX, CAP integers or K*cpus", spec);
	return -1;
}

int stride_doubling(const char *spec, long long cpus, long long **out, size_t *n,
		    struct strbuf *err)
{
	const char *s = spec;
	long long min, max;
	size_t alloc = 0;

	if (strncmp(s, "doubling:", 9))
		goto bad;
	s += 9;
	if (parse_range(&s, cpus, &min, &max))
		goto bad;
	while (isspace((unsigned char)*s))
		s++;
	if (*s)
		goto bad;
	if (min < 1 || max < min) {
		strbuf_addf(err, "empty range in '%s' (from %lld to %lld)", spec, min, max);
		return -1;
	}
	*n = 0;
	*out = NULL;
	for (long long v = min; v <= max; v *= 2) {
		ALLOC_GROW(*out, *n + 1, alloc);
		(*out)[(*n)++] = v;
		if (v > LLONG_MAX / 2)
			break;
	}
	if ((*out)[*n - 1] != max) {
		ALLOC_GROW(*out, *n + 1, alloc);
		(*out)[(*n)++] = max;
	}
	return 0;
bad:
	strbuf_addf(err, "cannot parse '%s': expected doubling:MIN..MAX with MIN and MAX "
		    "integers or K*cpus", spec);
	return -1;
}
