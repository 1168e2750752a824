/* paired: the paired t-test of an A/B experiment's arms over its rounds. */
#include "config.h"
#include "compare/paired.h"
#include "compare/model.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int paired_applies(const struct cmp_model *m)
{
	if (m->nruns < 2 || !model_uses_noise(m))
		return 0;
	for (size_t c = 0; c < m->nruns; c++) {
		const struct cmp_run *r = &m->runs[c];

		if (r->nruns != 1 || !r->experiment_uuid || !*r->experiment_uuid ||
		    strcmp(r->experiment_uuid, m->runs[0].experiment_uuid))
			return 0;
	}
	return 1;
}

void paired_round_means(const struct cmp_cell *c, int higher_better, int maxround,
			double *means, size_t *counts)
{
	memset(means, 0, (size_t)maxround * sizeof(*means));
	memset(counts, 0, (size_t)maxround * sizeof(*counts));
	for (size_t i = 0; i < c->n; i++) {
		int k = c->rounds ? c->rounds[i] : 1;

		if (k < 1 || k > maxround)
			continue;
		means[k - 1] += higher_better ? 1 / c->samples[i] : c->samples[i];
		counts[k - 1]++;
	}
	for (int k = 0; k < maxround; k++)
		if (counts[k])
			means[k] /= (double)counts[k];
}

static int max_round(const struct cmp_cell *c)
{
	int k = 0;

	for (size_t i = 0; c->rounds && i < c->n; i++)
		if (c->rounds[i] > k)
			k = c->rounds[i];
	return k;
}

int paired_decide(const struct cmp_model *m, const struct cmp_row *r,
		  const struct cmp_cell *base, struct cmp_cell *cell)
{
	int kmax = max_round(base) > max_round(cell) ? max_round(base) : max_round(cell);
	double *mb, *mn, *d, base_sum = 0;
	size_t *nb, *nn, n = 0;
	struct noise_decision dec;

	if (kmax < PAIRED_MIN_ROUNDS)
		return 0;
	mb = xcalloc((size_t)kmax, sizeof(*mb));
	mn = xcalloc((size_t)kmax, sizeof(*mn));
	d = xcalloc((size_t)kmax, sizeof(*d));
	nb = xcalloc((size_t)kmax, sizeof(*nb));
	nn = xcalloc((size_t)kmax, sizeof(*nn));
	paired_round_means(base, r->higher_better, kmax, mb, nb);
	paired_round_means(cell, r->higher_better, kmax, mn, nn);
	/* The nested model of compare/noise.h with the run as the block:
	 * both arms share the run's offset and each round's state, so the
	 * difference of a round leaves the round-by-arm noise only. */
	for (int k = 0; k < kmax; k++)
		if (nb[k] && nn[k]) {
			d[n++] = mn[k] - mb[k];
			base_sum += mb[k];
		}
	if (n < PAIRED_MIN_ROUNDS || noise_paired_test(d, n, m->alpha, &dec)) {
		n = 0;
		goto out;
	}
	/* The sign of new - base in x, as the other tests give it. */
	cell->test.statistic = r->higher_better ? -dec.t : dec.t;
	cell->test.df = dec.df;
	cell->test.p = dec.p;
	cell->test.method = NULL;
	cell->test.done = 1;
	cell->test.reason = NULL;
	cell->test.significant = dec.significant;
	cell->within_only = 0;
	cell->between_run = 0;
	cell->paired = 1;
	cell->mde_pct = 100 * noise_mde_se(dec.se, dec.df, m->alpha, NOISE_POWER) /
			fabs(base_sum / (double)n);
	cell->rounds_needed = noise_rounds_needed(dec.se * sqrt((double)n),
						  CMP_TARGET_PCT / 100 * fabs(base_sum / (double)n),
						  m->alpha, NOISE_POWER, CMP_MAX_ROUNDS_NEEDED);
out:
	free(mb);
	free(mn);
	free(d);
	free(nb);
	free(nn);
	return n >= PAIRED_MIN_ROUNDS;
}
