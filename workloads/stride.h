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

/* Parse "stride:MIN..MAX[,max=CAP]" where MIN and MAX are integers or
 * expressions "K*cpus" / "cpus"; cpus is the CPU count to use. On success
 * *out is malloc'd with the whole sequence and *n set; on error (a bad
 * spec, an empty range, more than STRIDE_MAX_ROWS rows) err says why and
 * -1 is returned. */
int stride_parse(const char *spec, long long cpus, long long **out,
		 size_t *n, struct strbuf *err);

#endif
