/* stride: mmtests' large-stride sequence (bin/generate-stride-range
 * --stride-large, formerly threads_large_stride_begin) and the config
 * syntax that asks for it. */
#include "config.h"
#include "workloads/stride.h"
#include "lib/strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static size_t seq(long long from, long long step, long long to,
		  long long *out, size_t n, size_t cap)
{
	for (long long v = from; v <= to && n < cap; v += step)
		out[n++] = v;
	return n;
}

size_t stride_large(long long min, long long max, long long *out, size_t cap)
{
	long long tmp[512];
	size_t n = 0, k = 0;

	if (max < min)
		return 0;
	/* The same walk as mmtests: fine steps first, coarser later. The
	 * first branch (MAX > 8*NCPU) never applies to our use, where
	 * MAX <= 4*NCPU. */
	if (max > 32) {
		n = seq(min, 3, 8, tmp, n, 512);
		n = seq(12, 9, 32, tmp, n, 512);
		n = seq(48, 31, max, tmp, n, 512);
	} else if (max > 8) {
		n = seq(min, 2, 8, tmp, n, 512);
		n = seq(12, 6, max, tmp, n, 512);
	} else {
		n = seq(min, 2, max, tmp, n, 512);
	}
	if (!n || tmp[n - 1] != max)
		tmp[n++] = max;
	for (size_t i = 0; i < n && k < cap; i++) {
		if (tmp[i] < min || tmp[i] > max)
			continue;
		if (k && out[k - 1] >= tmp[i])
			continue;
		out[k++] = tmp[i];
	}
	return k;
}

/* term := INT | INT*cpus | cpus */
static int parse_term(const char **sp, long long cpus, long long *v)
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
	if (strncmp(s, "cpus", 4))
		return -1;
	*v = k * cpus;
	*sp = s + 4;
	return 0;
}

int stride_parse(const char *spec, long long cpus, long long **out,
		 size_t *n, struct strbuf *err)
{
	const char *s = spec;
	long long min, max, cap = -1;
	long long buf[512];

	if (strncmp(s, "stride:", 7))
		goto bad;
	s += 7;
	if (parse_term(&s, cpus, &min) || strncmp(s, "..", 2))
		goto bad;
	s += 2;
	if (parse_term(&s, cpus, &max))
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
		if (parse_term(&s, cpus, &cap))
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
	*n = stride_large(min, max, buf, 512);
	*out = malloc(*n * sizeof(**out));
	if (!*out)
		abort();
	memcpy(*out, buf, *n * sizeof(**out));
	return 0;
bad:
	strbuf_addf(err, "cannot parse '%s': expected stride:MIN..MAX[,max=CAP] "
		    "with MIN, MAX, CAP integers or K*cpus", spec);
	return -1;
}
