/* paired: the paired t-test of an A/B experiment's arms over its rounds. */
#include "config.h"
#include "compare/paired.h"
#include "lib/xalloc.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

int paired_test(const struct noise_replicate *base, const struct noise_replicate *new,
		size_t nrounds, double alpha, struct paired_result *out)
{
	double *d, base_sum = 0;
	size_t n = 0;
	int ret = -1;

	*out = (struct paired_result){ .base_mean = 0, .interaction_p = NAN };
	if (nrounds < PAIRED_MIN_ROUNDS)
		return -1;
	d = xcalloc(nrounds, sizeof(*d));
	/* The nested model of compare/noise.h with the run as the block:
	 * both arms share the run's offset and each round's state, so the
	 * difference of a round leaves the round-by-arm noise only. */
	for (size_t k = 0; k < nrounds; k++)
		if (base[k].n && new[k].n) {
			d[n++] = new[k].mean - base[k].mean;
			base_sum += base[k].mean;
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

/* The p of the F test for round-by-arm noise: the rounds' differences'
 * variance var_d (df_d) against what the samples' variance var_w (df_w)
 * gives a difference, h var_w. No spread in the samples: 0 when the
 * differences spread (the noise is there), 1 when they do not. */
static double interaction_p(double var_d, double df_d, double var_w, double df_w, double h)
{
	if (!(var_w > 0))
		return var_d > 0 ? 0 : 1;
	return gsl_cdf_fdist_Q(var_d / (h * var_w), df_d, df_w);
}

int paired_nested_test(const struct noise_replicate *base, const struct noise_replicate *new,
		       size_t nrounds, double alpha, struct paired_result *out)
{
	struct noise_decision *dec = &out->dec;
	double ss_w = 0, df_w = 0, h = 0, df_d, var_d, var;

	if (paired_test(base, new, nrounds, alpha, out))
		return -1;
	for (size_t k = 0; k < nrounds; k++)
		if (base[k].n && new[k].n) {
			ss_w += base[k].m2 + new[k].m2;
			df_w += (double)(base[k].n - 1 + new[k].n - 1);
			h += 1 / (double)base[k].n + 1 / (double)new[k].n;
		}
	if (!(df_w > 0))
		return 0;
	h /= (double)out->rounds;
	df_d = dec->df;
	var_d = dec->se * dec->se * (double)out->rounds;
	out->interaction_p = interaction_p(var_d, df_d, ss_w / df_w, df_w, h);
	if (out->interaction_p < PAIRED_POOL_ALPHA)
		return 0;
	out->pooled = 1;
	var = (df_d * var_d + h * ss_w) / (df_d + df_w);
	dec->df = df_d + df_w;
	dec->se = sqrt(var / (double)out->rounds);
	if (var > 0)
		dec->t = dec->diff / dec->se;
	else
		dec->t = dec->diff == 0 ? 0 : copysign(INFINITY, dec->diff);
	dec->p = isinf(dec->t) ? 0 : fmin(1, 2 * gsl_cdf_tdist_Q(fabs(dec->t), dec->df));
	dec->significant = dec->p < alpha;
	return 0;
}
