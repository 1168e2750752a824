/* stride: mmtests' group and thread-count sequences. */
#ifndef KBENCH_STRIDE_H
#define KBENCH_STRIDE_H

#include <stddef.h>

struct strbuf;

/* The most rows a stride: list may give. */
#define STRIDE_MAX_ROWS 100000

/* mmtests' large-stride sequence from min to max (bin/generate-stride-range
 * --stride-large); writes its first cap values to out and returns how many
 * it wrote. */
size_t stride_large(long long min, long long max, long long *out, size_t cap);

/* Parse one count at *sp: INT, "cpus" or "INT*cpus" (blanks before it and
 * around '*' allowed), cpus being the CPU count to use. Return 0 with *v
 * set and *sp past it; or -1 when there is none there, or its value does
 * not fit a long long. The stride: and doubling: lists share it. */
int stride_term(const char **sp, long long cpus, long long *v);

/* Parse "stride:MIN..MAX[,max=CAP]" where MIN and MAX are integers or
 * expressions "K*cpus" / "cpus"; cpus is the CPU count to use. On success
 * *out is malloc'd with the whole sequence and *n set; on error (a bad
 * spec, an empty range, more than STRIDE_MAX_ROWS rows) err says why and
 * -1 is returned. */
int stride_parse(const char *spec, long long cpus, long long **out,
		 size_t *n, struct strbuf *err);

/* Parse "doubling:MIN..MAX" (MIN and MAX as stride_parse reads them):
 * MIN, 2*MIN, 4*MIN, ... up to MAX, and MAX itself, into *out
 * (malloc'd) and *n. Return 0, or -1 with the reason in err. */
int stride_doubling(const char *spec, long long cpus, long long **out, size_t *n,
		    struct strbuf *err);

#endif
