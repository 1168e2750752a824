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

	if (x->group != y->group)
		return (x->group > y->group) - (x->group < y->group);
	return (x->run > y->run) - (x->run < y->run);
}

/* One run of a group: the mean of its rounds' means, its rounds, the sum
 * of 1/n over them and the sum of squares of its round means about it. */
struct run_summary {
	int64_t run;
	double mean, inv_n, round_ss;
	size_t rounds;
	int calibration;
};

/* The runs of sorted[i..j), all of one group, into out; returns how many. */
static size_t group_runs(const struct noise_replicate *const *sorted, size_t i, size_t j,
			 struct run_summary *out)
{
	size_t k = 0;

	for (size_t a = i, b; a < j; a = b) {
		struct run_summary *r = &out[k++];
		double sum = 0;

		/* Run 0: a replicate of a run of its own. */
		for (b = a; b < j && (b == a || (sorted[a]->run && sorted[b]->run == sorted[a]->run));
		     b++)
			sum += sorted[b]->mean;
		*r = (struct run_summary){ .run = sorted[a]->run, .rounds = b - a };
		r->mean = sum / (double)r->rounds;
		for (size_t q = a; q < b; q++) {
			r->round_ss += (sorted[q]->mean - r->mean) * (sorted[q]->mean - r->mean);
			r->inv_n += sorted[q]->n ? 1.0 / sorted[q]->n : 0;
			r->calibration |= sorted[q]->calibration != 0;
		}
	}
	return k;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The run of r[0..k-1] furthest from their median in robust sds, when it
 * is further than the best so far (*z). floor_sd keeps a group whose runs
 * agree too well (MAD 0) from flagging every difference. */
static void flag_outlier(const struct run_summary *r, size_t k, double floor_sd,
			 struct noise_estimate *out)
{
	double *v = xcalloc(k, sizeof(*v)), med, sd;

	for (size_t i = 0; i < k; i++)
		v[i] = r[i].mean;
	med = median_of(v, k);
	for (size_t i = 0; i < k; i++)
		v[i] = fabs(r[i].mean - med);
	sd = 1.4826 * median_of(v, k);
	free(v);
	if (sd < floor_sd)
		sd = floor_sd;
	if (!(sd > 0))
		return;
	for (size_t i = 0; i < k; i++) {
		double z = fabs(r[i].mean - med) / sd;

		if (z > NOISE_OUTLIER_Z && z > out->outlier_z) {
			out->outlier_z = z;
			out->outlier_run = r[i].run;
		}
	}
}

void noise_estimate(const struct noise_replicate *r, size_t n, struct noise_estimate *out)
{
	const struct noise_replicate **sorted = xcalloc(n ? n : 1, sizeof(*sorted));
	struct run_summary *runs = xcalloc(n ? n : 1, sizeof(*runs));
	double ss = 0, sum = 0, wss = 0, wdf = 0, rss = 0, rdf = 0, round_inv_n = 0;
	size_t nruns = 0, nrounds = 0, groups = 0, calib = 0, rounds_in_rdf = 0, i, j;
	struct noise_estimate outlier = { .outlier_run = 0 };

	for (i = 0; i < n; i++)
		sorted[i] = &r[i];
	qsort(sorted, n, sizeof(*sorted), by_group);
	for (i = 0; i < n; i = j) {
		double gsum = 0, gmean;
		size_t k;

		for (j = i; j < n && sorted[j]->group == sorted[i]->group; j++)
			;
		k = group_runs(sorted, i, j, runs + nruns);
		if (k < 2)
			continue;	/* a lone run says nothing about its group's spread */
		for (size_t q = 0; q < k; q++)
			gsum += runs[nruns + q].mean;
		gmean = gsum / (double)k;
		for (size_t q = 0; q < k; q++) {
			const struct run_summary *p = &runs[nruns + q];

			ss += (p->mean - gmean) * (p->mean - gmean);
			calib += p->calibration;
			if (p->rounds > 1) {
				rss += p->round_ss;
				rdf += (double)(p->rounds - 1);
				round_inv_n += p->inv_n;
				rounds_in_rdf += p->rounds;
			}
		}
		for (size_t q = i; q < j; q++) {
			wss += sorted[q]->m2;
			wdf += sorted[q]->n ? sorted[q]->n - 1 : 0;
		}
		if (k >= NOISE_OUTLIER_MIN_RUNS)
			flag_outlier(runs + nruns, k, 0, &outlier);
		sum += gsum;
		nrounds += j - i;
		/* Keep the group's runs in runs[]: the within part needs them. */
		nruns += k;
		groups++;
	}
	*out = (struct noise_estimate){
		.runs = nruns,
		.rounds = nrounds,
		.groups = groups,
		.calibration = calib,
		.df = (double)(nruns - groups),
		.mean = nruns ? sum / nruns : NAN,
		.run_var = nruns > groups ? ss / (nruns - groups) : NAN,
		.within_var = wdf > 0 ? wss / wdf : NAN,
		.within_df = wdf,
		.round_var = 0,
		.round_df = rdf,
		.within_part = NAN,
		.between_var = NAN,
		.run_cv = NAN,
		.within_cv = NAN,
		.between_cv = NAN,
		.round_cv = NAN,
	};
	out->outlier_run = outlier.outlier_run;
	out->outlier_z = outlier.outlier_z;
	if (isnan(out->run_var))
		goto done;
	/* Rounds: E[SS_r / df_r] = sigma_r^2 + sigma_w^2 mean(1/n) over the
	 * rounds of runs that have several; without any, the round offset
	 * cannot be told from the run's and stays in sigma_b^2. */
	if (rdf > 0) {
		double v = rss / rdf - (wdf > 0 ? out->within_var * round_inv_n / rounds_in_rdf : 0);

		out->round_var = v > 0 ? v : 0;
	}
	/* E[S^2] = sigma_b^2 + mean over runs of (sigma_r^2 / R +
	 * sigma_w^2 sum(1/n) / R^2): the moment estimator of sigma_b^2,
	 * truncated at 0 as variance components are. Without a within-run
	 * variance (one sample per run) S^2 is all of it. */
	out->within_part = 0;
	for (size_t q = 0; q < nruns; q++) {
		double R = (double)runs[q].rounds;

		out->within_part += out->round_var / R +
			(wdf > 0 ? out->within_var * runs[q].inv_n / (R * R) : 0);
	}
	out->within_part /= (double)nruns;
	out->between_var = out->run_var - out->within_part;
	if (out->between_var < 0)
		out->between_var = 0;
	out->known = out->df >= NOISE_MIN_DF;
	out->run_cv = 100 * sqrt(out->run_var) / fabs(out->mean);
	out->within_cv = 100 * sqrt(out->within_var) / fabs(out->mean);
	out->between_cv = 100 * sqrt(out->between_var) / fabs(out->mean);
	out->round_cv = 100 * sqrt(out->round_var) / fabs(out->mean);
done:
	free(runs);
	free(sorted);
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

/* The runs of one side: their means (of their rounds' means), and the
 * parts of the variance of the side's mean that rounds and samples add,
 * per unit of sigma_r^2 and of the within variance. */
static void side_runs(const struct noise_replicate *r, size_t k, size_t *nruns, double *mean,
		      double *round_coef, double *within_coef)
{
	size_t runs = 0;
	double sum = 0, rc = 0, wc = 0;

	for (size_t a = 0, b; a < k; a = b) {
		double rsum = 0, inv_n = 0, R;

		for (b = a; b < k && (b == a || (r[a].run && r[b].run == r[a].run)); b++) {
			rsum += r[b].mean;
			inv_n += r[b].n ? 1.0 / r[b].n : 0;
		}
		R = (double)(b - a);
		sum += rsum / R;
		rc += 1 / R;
		wc += inv_n / (R * R);
		runs++;
	}
	*nruns = runs;
	*mean = sum / (double)runs;
	*round_coef = rc / ((double)runs * runs);
	*within_coef = wc / ((double)runs * runs);
}

int noise_test(const struct noise_replicate *base, size_t kb,
	       const struct noise_replicate *new_reps, size_t kn,
	       const struct noise_estimate *est, double alpha, struct noise_decision *out)
{
	const struct noise_replicate *side[2] = { base, new_reps };
	size_t k[2] = { kb, kn }, runs[2];
	double mean[2], rcoef[2], part[4], df[4], var;

	*out = (struct noise_decision){ .diff = NAN, .se = NAN, .t = NAN, .df = NAN, .p = NAN };
	if (!kb || !kn)
		return -1;
	for (int s = 0; s < 2; s++) {
		double wvar, wdf, wcoef;

		side_runs(side[s], k[s], &runs[s], &mean[s], &rcoef[s], &wcoef);
		side_within(side[s], k[s], &wvar, &wdf);
		if (!(wdf > 0)) {
			/* Runs of one sample: the series' within variance. */
			wvar = est->within_var;
			wdf = est->within_df;
		}
		part[2 + s] = isnan(wvar) ? 0 : wvar * wcoef;
		df[2 + s] = wdf;
	}
	/* The run level always enters: rounds replicate only what changes
	 * between the rounds of one run. */
	part[0] = est->between_var * (1.0 / runs[0] + 1.0 / runs[1]);
	df[0] = est->df;
	part[1] = est->round_var * (rcoef[0] + rcoef[1]);
	df[1] = est->round_df;
	var = part[0] + part[1] + part[2] + part[3];
	out->diff = mean[1] - mean[0];
	out->se = sqrt(var);
	if (!(var > 0)) {
		/* No noise at all: the means either differ or not. */
		out->t = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
		out->p = out->diff == 0 ? 1 : 0;
	} else {
		out->t = out->diff / out->se;
		out->df = satterthwaite(part, df, 4);
		out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
		if (out->p > 1)
			out->p = 1;
	}
	out->significant = out->p < alpha;
	return 0;
}

double noise_mde_se(double se, double df, double alpha, double power)
{
	if (isnan(se) || isnan(df) || !(df > 0))
		return NAN;
	return (gsl_cdf_tdist_Qinv(alpha / 2, df) + gsl_cdf_tdist_Qinv(1 - power, df)) * se;
}

int noise_paired_test(const double *d, size_t n, double alpha, struct noise_decision *out)
{
	double sum = 0, ss = 0, mean, sd;

	*out = (struct noise_decision){ .diff = NAN, .se = NAN, .t = NAN, .df = NAN, .p = NAN };
	if (n < 2)
		return -1;
	for (size_t i = 0; i < n; i++)
		sum += d[i];
	mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (d[i] - mean) * (d[i] - mean);
	sd = sqrt(ss / (double)(n - 1));
	out->diff = mean;
	out->df = (double)(n - 1);
	out->se = sd / sqrt((double)n);
	if (sd > 0)
		out->t = mean / out->se;
	else
		out->t = mean == 0 ? 0 : copysign(INFINITY, mean);
	out->p = isinf(out->t) ? 0 : fmin(1, 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df));
	out->significant = out->p < alpha;
	return 0;
}

size_t noise_rounds_needed(double sd_d, double target, double alpha, double power,
			   size_t max_rounds)
{
	if (isnan(sd_d) || !(target > 0))
		return 0;
	for (size_t n = 3; n <= max_rounds; n++)
		if (noise_mde_se(sd_d / sqrt((double)n), (double)(n - 1), alpha, power) <= target)
			return n;
	return 0;
}

size_t noise_runs_needed(const struct noise_estimate *est, double rel, int rounds, size_t n,
			 double alpha, double power, size_t max_runs)
{
	double target = rel * fabs(est->mean);

	if (!est->known || !(target > 0) || rounds < 1 || !n)
		return 0;
	for (size_t k = 1; k <= max_runs; k++) {
		double R = rounds, part[3], df[3], var, d;

		part[0] = 2 * est->between_var / k;
		df[0] = est->df;
		part[1] = 2 * est->round_var / (k * R);
		df[1] = est->round_df > 0 ? est->round_df : 1;
		part[2] = isnan(est->within_var) ? 0 : 2 * est->within_var / (k * R * n);
		df[2] = est->within_df > 0 ? est->within_df : 1;
		var = part[0] + part[1] + part[2];
		if (!(var > 0))
			return k;
		d = satterthwaite(part, df, 3);
		if (noise_mde_se(sqrt(var), d, alpha, power) <= target)
			return k;
	}
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
