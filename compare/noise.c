/* noise: the between-run variance of a row estimated from replicates in
 * groups (one-way random effects, method of moments), the t-test of
 * replicate means that uses it, and its minimum detectable effect. */
#include "config.h"
#include "compare/noise.h"
#include "lib/xalloc.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

void noise_replicate_of(const double *x, size_t n, size_t group, struct noise_replicate *out)
{
	double sum = 0, m2 = 0, mean;

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	mean = n ? sum / n : NAN;
	for (size_t i = 0; i < n; i++)
		m2 += (x[i] - mean) * (x[i] - mean);
	*out = (struct noise_replicate){ .group = group, .n = n, .mean = mean, .m2 = m2 };
}

static int by_group(const void *a, const void *b)
{
	const struct noise_replicate *x = *(const struct noise_replicate *const *)a;
	const struct noise_replicate *y = *(const struct noise_replicate *const *)b;

	return (x->group > y->group) - (x->group < y->group);
}

void noise_estimate(const struct noise_replicate *r, size_t n, struct noise_estimate *out)
{
	const struct noise_replicate **sorted = xcalloc(n ? n : 1, sizeof(*sorted));
	double ss = 0, sum = 0, wss = 0, wdf = 0, inv_n = 0;
	size_t runs = 0, groups = 0, calib = 0, i, j;

	for (i = 0; i < n; i++)
		sorted[i] = &r[i];
	qsort(sorted, n, sizeof(*sorted), by_group);
	for (i = 0; i < n; i = j) {
		double gsum = 0, gmean;
		size_t k;

		for (j = i; j < n && sorted[j]->group == sorted[i]->group; j++)
			;
		k = j - i;
		if (k < 2)
			continue;	/* a lone run says nothing about its group's spread */
		for (size_t q = i; q < j; q++)
			gsum += sorted[q]->mean;
		gmean = gsum / k;
		for (size_t q = i; q < j; q++) {
			const struct noise_replicate *p = sorted[q];

			ss += (p->mean - gmean) * (p->mean - gmean);
			wss += p->m2;
			wdf += p->n ? p->n - 1 : 0;
			inv_n += p->n ? 1.0 / p->n : 0;
			calib += p->calibration != 0;
		}
		sum += gsum;
		runs += k;
		groups++;
	}
	free(sorted);
	*out = (struct noise_estimate){
		.runs = runs,
		.groups = groups,
		.calibration = calib,
		.df = (double)(runs - groups),
		.mean = runs ? sum / runs : NAN,
		.run_var = runs > groups ? ss / (runs - groups) : NAN,
		.within_var = wdf > 0 ? wss / wdf : NAN,
		.within_df = wdf,
		.within_part = NAN,
		.between_var = NAN,
		.run_cv = NAN,
		.within_cv = NAN,
		.between_cv = NAN,
	};
	if (isnan(out->run_var))
		return;
	/* E[S^2] = sigma_b^2 + sigma_w^2 * mean(1/n): the moment estimator
	 * of sigma_b^2, truncated at 0 as variance components are. Without
	 * a within-run variance (one sample per run) S^2 is all of it. */
	out->within_part = wdf > 0 ? out->within_var * inv_n / runs : 0;
	out->between_var = out->run_var - out->within_part;
	if (out->between_var < 0)
		out->between_var = 0;
	out->known = out->df >= NOISE_MIN_DF;
	out->run_cv = 100 * sqrt(out->run_var) / fabs(out->mean);
	out->within_cv = 100 * sqrt(out->within_var) / fabs(out->mean);
	out->between_cv = 100 * sqrt(out->between_var) / fabs(out->mean);
}

/* Pooled within-replicate variance of one side, and its df. */
static void side_within(const struct noise_replicate *r, size_t k, double *var, double *df)
{
	double ss = 0, d = 0;

	for (size_t i = 0; i < k; i++) {
		ss += r[i].m2;
		d += r[i].n ? r[i].n - 1 : 0;
	}
	*var = d > 0 ? ss / d : NAN;
	*df = d;
}

/* Welch-Satterthwaite: the df of a sum of variance parts v[i], each with
 * df[i]; parts that are 0 do not count. */
static double satterthwaite(const double *v, const double *df, size_t n)
{
	double sum = 0, den = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			continue;
		sum += v[i];
		den += v[i] * v[i] / df[i];
	}
	return den > 0 ? sum * sum / den : NAN;
}

int noise_test(const struct noise_replicate *base, size_t kb,
	       const struct noise_replicate *new_reps, size_t kn,
	       const struct noise_estimate *est, double alpha, struct noise_decision *out)
{
	const struct noise_replicate *side[2] = { base, new_reps };
	size_t k[2] = { kb, kn };
	double mean[2], part[3], df[3], var;

	*out = (struct noise_decision){ .diff = NAN, .se = NAN, .t = NAN, .df = NAN, .p = NAN };
	if (!kb || !kn)
		return -1;
	part[0] = est->between_var * (1.0 / kb + 1.0 / kn);
	df[0] = est->df;
	for (int s = 0; s < 2; s++) {
		double sum = 0, inv_n = 0, wvar, wdf;

		for (size_t i = 0; i < k[s]; i++) {
			sum += side[s][i].mean;
			inv_n += 1.0 / side[s][i].n;
		}
		mean[s] = sum / k[s];
		side_within(side[s], k[s], &wvar, &wdf);
		if (!(wdf > 0)) {
			/* Runs of one sample: the series' within variance. */
			wvar = est->within_var;
			wdf = est->within_df;
		}
		/* Var(mean of k run means) = sigma_b^2 / k + sigma_w^2 * sum(1/n) / k^2 */
		part[1 + s] = isnan(wvar) ? 0 : wvar * inv_n / ((double)k[s] * k[s]);
		df[1 + s] = wdf;
	}
	var = part[0] + part[1] + part[2];
	out->diff = mean[1] - mean[0];
	out->se = sqrt(var);
	if (!(var > 0)) {
		/* No noise at all: the means either differ or not. */
		out->t = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
		out->p = out->diff == 0 ? 1 : 0;
	} else {
		out->t = out->diff / out->se;
		out->df = satterthwaite(part, df, 3);
		out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
		if (out->p > 1)
			out->p = 1;
	}
	out->significant = out->p < alpha;
	return 0;
}

double noise_mde(double between_var, double between_df, double within_var,
		 size_t n, size_t k, double alpha, double power)
{
	double part[3], df[3], d;

	if (n < 2 || !k || isnan(within_var) || isnan(between_var))
		return NAN;
	part[0] = 2 * between_var / k;
	df[0] = between_df;
	part[1] = part[2] = within_var / ((double)k * n);
	df[1] = df[2] = (double)k * (n - 1);
	if (!(part[0] + part[1] + part[2] > 0))
		return 0;
	d = satterthwaite(part, df, 3);
	return (gsl_cdf_tdist_Qinv(alpha / 2, d) + gsl_cdf_tdist_Qinv(1 - power, d)) *
		sqrt(part[0] + part[1] + part[2]);
}
