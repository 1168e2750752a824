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
	double *mb, *mn, sum = 0, ss = 0, mean, sd, t, p;
	size_t *nb, *nn, n = 0;

	if (kmax < PAIRED_MIN_ROUNDS)
		return 0;
	mb = xcalloc((size_t)kmax, sizeof(*mb));
	mn = xcalloc((size_t)kmax, sizeof(*mn));
	nb = xcalloc((size_t)kmax, sizeof(*nb));
	nn = xcalloc((size_t)kmax, sizeof(*nn));
	paired_round_means(base, r->higher_better, kmax, mb, nb);
	paired_round_means(cell, r->higher_better, kmax, mn, nn);
	for (int k = 0; k < kmax; k++)
		if (nb[k] && nn[k]) {
			sum += mn[k] - mb[k];
			n++;
		}
	mean = n ? sum / (double)n : 0;
	for (int k = 0; k < kmax; k++)
		if (nb[k] && nn[k])
			ss += (mn[k] - mb[k] - mean) * (mn[k] - mb[k] - mean);
	free(mb);
	free(mn);
	free(nb);
	free(nn);
	if (n < PAIRED_MIN_ROUNDS)
		return 0;
	sd = sqrt(ss / (double)(n - 1));
	if (sd > 0)
		t = mean / (sd / sqrt((double)n));
	else
		t = mean == 0 ? 0 : copysign(INFINITY, mean);
	p = isinf(t) ? 0 : fmin(1, 2 * gsl_cdf_tdist_Q(fabs(t), (double)(n - 1)));
	/* The sign of new - base in x, as the other tests give it. */
	cell->test.statistic = r->higher_better ? -t : t;
	cell->test.df = (double)(n - 1);
	cell->test.p = p;
	cell->test.method = NULL;
	cell->test.done = 1;
	cell->test.reason = NULL;
	cell->test.significant = p < m->alpha;
	cell->within_only = 0;
	cell->between_run = 0;
	cell->paired = 1;
	return 1;
}
