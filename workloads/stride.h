/* stride: mmtests' group and thread-count sequences. */
#ifndef KBENCH_STRIDE_H
#define KBENCH_STRIDE_H

#include <stddef.h>

struct strbuf;

/* mmtests' large-stride sequence from min to max (bin/generate-stride-range
 * --stride-large); returns the count written to out (out holds >= 64). */
size_t stride_large(long long min, long long max, long long *out, size_t cap);

/* Parse "stride:MIN..MAX[,max=CAP]" where MIN and MAX are integers or
 * expressions "K*cpus" / "cpus"; cpus is the CPU count to use. On success
 * *out is malloc'd and *n set; on error err says why and -1 is returned. */
int stride_parse(const char *spec, long long cpus, long long **out,
		 size_t *n, struct strbuf *err);

#endif
