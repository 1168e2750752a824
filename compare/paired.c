/* paired: the paired t-test of an A/B experiment's arms over its rounds. */
#include "config.h"
#include "compare/paired.h"
#include "lib/xalloc.h"

#include <stdlib.h>

int paired_test(const double *base, const size_t *nbase, const double *new,
		const size_t *nnew, size_t nrounds, double alpha,
		struct paired_result *out)
{
	double *d, base_sum = 0;
	size_t n = 0;
	int ret = -1;

	*out = (struct paired_result){ .base_mean = 0 };
	if (nrounds < PAIRED_MIN_ROUNDS)
		return -1;
	d = xcalloc(nrounds, sizeof(*d));
	/* The nested model of compare/noise.h with the run as the block:
	 * both arms share the run's offset and each round's state, so the
	 * difference of a round leaves the round-by-arm noise only. */
	for (size_t k = 0; k < nrounds; k++)
		if (nbase[k] && nnew[k]) {
			d[n++] = new[k] - base[k];
			base_sum += base[k];
		}
	if (n < PAIRED_MIN_ROUNDS || noise_paired_test(d, n, alpha, &out->dec))
		goto out;
	out->rounds = n;
	out->base_mean = base_sum / (double)n;
	ret = 0;
out:
	free(d);
	return ret;
}
