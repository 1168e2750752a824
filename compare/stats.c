/* stats: means, spreads, best-of means, mmtests' percentage difference and
 * the significance tests of kbench compare. Distribution functions come
 * from GSL; every formula is written out in docs/statistics.md. */
#include "config.h"
#include "compare/stats.h"
#include "lib/xalloc.h"

#include <assert.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double stats_amean(const double *x, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / n;
}

double stats_hmean(const double *x, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		sum += 1 / x[i];
	}
	return n / sum;
}

double stats_gmean(const double *x, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	/* mmtests multiplies; the sum of logs is the same number without
	 * overflowing for long vectors of large values. */
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		sum += log(x[i]);
	}
	return exp(sum / n);
}

double stats_stddev(const double *x, size_t n)
{
	double mean, ss = 0;

	if (n <= 1)
		return NAN;
	mean = stats_amean(x, n);
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return sqrt(ss / (n - 1));
}

/* mmtests' harmonic sd: the population sd of 1/x scaled by H^2 (delta
 * method), sqrt(sum((1/x - 1/H)^2) * H^4 / n). */
static double hstddev(const double *x, size_t n, double h)
{
	double ss = 0;

	if (!n || isnan(h))
		return NAN;
	for (size_t i = 0; i < n; i++)
		ss += (1 / x[i] - 1 / h) * (1 / x[i] - 1 / h);
	return sqrt(ss * h * h * h * h / n);
}

/* CoeffVar as mmtests: an undefined sd reads 0, and so does a zero mean. */
static double coeffvar(double sd, double mean)
{
	if (isnan(sd) || mean == 0 || isnan(mean))
		return isnan(mean) ? NAN : 0;
	return 100 * sd / mean;
}

static int cmp_ascending(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_descending(const void *a, const void *b)
{
	return cmp_ascending(b, a);
}

void stats_summarise(const double *x, size_t n, int higher_better,
		     struct stats_summary *out)
{
	double *sorted = NULL;
	size_t best;

	out->n = n;
	out->min = out->max = out->amean = out->hmean = out->gmean = NAN;
	out->stddev = out->hstddev = out->coeffvar = out->hcoeffvar = NAN;
	out->bamean95 = out->bhmean95 = NAN;
	if (n) {
		sorted = xcalloc(n, sizeof(*sorted));
		memcpy(sorted, x, n * sizeof(*sorted));
		/* Best first, as mmtests sorts the pooled vector. */
		qsort(sorted, n, sizeof(*sorted), higher_better ? cmp_descending : cmp_ascending);
		out->min = higher_better ? sorted[n - 1] : sorted[0];
		out->max = higher_better ? sorted[0] : sorted[n - 1];
		out->amean = stats_amean(x, n);
		out->hmean = stats_hmean(x, n);
		out->gmean = stats_gmean(x, n);
		out->stddev = stats_stddev(x, n);
		out->hstddev = hstddev(x, n, out->hmean);
		out->coeffvar = coeffvar(out->stddev, out->amean);
		out->hcoeffvar = coeffvar(out->hstddev, out->hmean);
		/* Integer arithmetic: int(n * 95 / 100) without rounding doubt. */
		best = n * 95 / 100;
		if (best < 1)
			best = 1;
		out->bamean95 = stats_amean(sorted, best);
		out->bhmean95 = stats_hmean(sorted, best);
		free(sorted);
	}
	if (higher_better) {
		out->mean = out->hmean;
		out->spread = out->hstddev;
		out->cv = out->hcoeffvar;
		out->bmean95 = out->bhmean95;
	} else {
		out->mean = out->amean;
		out->spread = out->stddev;
		out->cv = out->coeffvar;
		out->bmean95 = out->bamean95;
	}
}

double stats_pdiff(double new_value, double base)
{
	if (new_value == base || new_value == 0)
		return 0;
	if (base == 0 || isnan(base))
		return 100;
	return new_value * 100 / base - 100;
}

double stats_pndiff(double new_value, double base)
{
	if (new_value == base)
		return 0;
	if (new_value == 0)
		return 100;
	if (base == 0)
		return -99;
	return 100 - new_value * 100 / base;
}

const struct stats_test_desc stats_tests[] = {
	{ .kind = STATS_TEST_WELCH, .name = "welch", .title = "Welch's t-test",
	  .default_alpha = 0.05 },
	{ .kind = STATS_TEST_MWU, .name = "mwu", .title = "Mann-Whitney U test",
	  .default_alpha = 0.05 },
	{ .kind = STATS_TEST_CI, .name = "ci", .title = "mmtests' CI-overlap rule (mean +- z*sd)",
	  .default_alpha = 0.05 },
	{ .kind = STATS_TEST_TTEST, .name = "ttest",
	  .title = "mmtests' 2018-2024 t-test (df n1+n2-2)", .default_alpha = 0.10 },
	{ .name = NULL }
};

const struct stats_test_desc *stats_test_find(const char *name)
{
	for (const struct stats_test_desc *d = stats_tests; d->name; d++)
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}

static double variance(const double *x, size_t n, double mean)
{
	double ss = 0;

	assert(n >= 2);
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return ss / (n - 1);
}

int stats_welch(const double *x, size_t nx, const double *y, size_t ny,
		double *t, double *df, double *p)
{
	double mx, my, vx, vy, ax, ay, se2;

	if (nx < 2 || ny < 2)
		return -1;
	mx = stats_amean(x, nx);
	my = stats_amean(y, ny);
	vx = variance(x, nx, mx);
	vy = variance(y, ny, my);
	ax = vx / nx;
	ay = vy / ny;
	se2 = ax + ay;
	if (se2 == 0) {
		/* No spread on either side: the means either differ or not. */
		*t = mx == my ? 0 : copysign(INFINITY, mx - my);
		*df = nx + ny - 2;
		*p = mx == my ? 1 : 0;
		return 0;
	}
	*t = (mx - my) / sqrt(se2);
	/* Welch-Satterthwaite. */
	*df = se2 * se2 / (ax * ax / (nx - 1) + ay * ay / (ny - 1));
	*p = 2 * gsl_cdf_tdist_Q(fabs(*t), *df);
	if (*p > 1)
		*p = 1;
	return 0;
}

struct ranked {
	double v;
	int from_x;
};

static int cmp_ranked(const void *a, const void *b)
{
	return cmp_ascending(&((const struct ranked *)a)->v, &((const struct ranked *)b)->v);
}

/* The most samples a side may hold for the exact U distribution. */
#define MWU_EXACT_LIMIT 50

/* Probability that U >= u under H0 for sizes (m, n) without ties: the
 * counts of U are the coefficients of the Gaussian binomial [m+n, m]_q. */
static double mwu_exact_sf(size_t m, size_t n, double u)
{
	size_t top = m * n, k;
	double *c, total = 0, tail = 0;

	/* The exact distribution takes m * n + 1 counts: small sides only. */
	assert(m <= MWU_EXACT_LIMIT && n <= MWU_EXACT_LIMIT);
	c = xcalloc(top + 1, sizeof(*c));

	c[0] = 1;
	for (size_t i = 1; i <= m; i++) {
		/* multiply by (1 - q^(n+i)), then divide by (1 - q^i) */
		for (k = top; k >= n + i; k--)
			c[k] -= c[k - n - i];
		for (k = i; k <= top; k++)
			c[k] += c[k - i];
	}
	for (k = 0; k <= top; k++) {
		total += c[k];
		if ((double)k >= u)
			tail += c[k];
	}
	free(c);
	return tail / total;
}

/* Mann-Whitney U, two-sided. Exact distribution when there are no ties
 * and both sides hold at most MWU_EXACT_LIMIT samples; otherwise the
 * normal approximation with tie and continuity corrections. */
int stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
		       double *u, double *p, const char **method)
{
	size_t n = nx + ny, i, j;
	struct ranked *r;
	double rx = 0, ties = 0, u1, u2, umax;

	if (!nx || !ny)
		return -1;
	r = xcalloc(n, sizeof(*r));
	for (i = 0; i < nx; i++)
		r[i] = (struct ranked){ x[i], 1 };
	for (i = 0; i < ny; i++)
		r[nx + i] = (struct ranked){ y[i], 0 };
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i = j) {
		double rank, t;

		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		rank = (i + 1 + j) / 2.0;	/* average of ranks i+1..j */
		t = j - i;
		ties += t * t * t - t;
		for (size_t k = i; k < j; k++)
			if (r[k].from_x)
				rx += rank;
	}
	u1 = rx - nx * (nx + 1) / 2.0;
	u2 = (double)nx * ny - u1;
	umax = u1 > u2 ? u1 : u2;
	*u = u1;
	if (ties == 0 && nx <= MWU_EXACT_LIMIT && ny <= MWU_EXACT_LIMIT) {
		*p = 2 * mwu_exact_sf(nx, ny, umax);
		*method = "exact";
	} else {
		double mu = nx * (double)ny / 2;
		double var = nx * (double)ny / 12 * ((n + 1) - ties / ((double)n * (n - 1)));

		*method = "normal";
		if (var <= 0)
			*p = 1;	/* every sample equal */
		else
			*p = 2 * gsl_cdf_ugaussian_Q((umax - mu - 0.5) / sqrt(var));
	}
	if (*p > 1)
		*p = 1;
	free(r);
	return 0;
}

static double *invert(const double *x, size_t n)
{
	double *inv = xcalloc(n, sizeof(*inv));

	for (size_t i = 0; i < n; i++)
		inv[i] = 1 / x[i];
	return inv;
}

static int all_positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return 0;
	return 1;
}

void stats_test(enum stats_test_kind kind, const double *base, size_t nb,
		const double *new_values, size_t nn, int higher_better,
		double alpha, struct stats_test_result *out)
{
	struct stats_summary sb, sn;
	double *ib = NULL, *in = NULL;

	memset(out, 0, sizeof(*out));
	out->statistic = out->df = out->p = NAN;
	if (nb < STATS_MIN_SAMPLES || nn < STATS_MIN_SAMPLES) {
		out->reason = "fewer than 3 samples on a side";
		return;
	}
	if (higher_better && kind != STATS_TEST_MWU &&
	    !(all_positive(base, nb) && all_positive(new_values, nn))) {
		out->reason = "Hmean undefined: a sample is zero or negative";
		return;
	}
	switch (kind) {
	case STATS_TEST_WELCH:
		if (higher_better) {
			/* The harmonic mean is the reciprocal of the mean of
			 * 1/x, so its test is the t-test of 1/x. */
			ib = invert(base, nb);
			in = invert(new_values, nn);
			stats_welch(in, nn, ib, nb, &out->statistic, &out->df, &out->p);
			out->statistic = -out->statistic;	/* sign of new - base in x */
		} else {
			stats_welch(new_values, nn, base, nb, &out->statistic, &out->df, &out->p);
		}
		out->significant = out->p < alpha;
		break;
	case STATS_TEST_MWU:
		/* Cannot fail: both sides hold STATS_MIN_SAMPLES or more. */
		stats_mann_whitney(new_values, nn, base, nb, &out->statistic, &out->p,
				   &out->method);
		out->significant = out->p < alpha;
		/* The smallest two-sided p of an exact U test is 2 / C(n, k):
		 * below it no difference, however large, can be starred. */
		{
			double c = 1;

			for (size_t i = 1; i <= nb && c < 1e12; i++)
				c = c * (nn + i) / i;
			if (2 / c >= alpha)
				out->reason = "too few samples for the U test to reach alpha";
		}
		break;
	case STATS_TEST_CI: {
		/* mmtests: CI = mean +- qnorm(1 - alpha/2) * sd (no sqrt(n));
		 * cidiff = (b - v) / (q_b + q_v), or b - v when both are 0;
		 * significant when |cidiff| > 1. */
		double z = gsl_cdf_ugaussian_Qinv(alpha / 2), qsum;

		stats_summarise(base, nb, higher_better, &sb);
		stats_summarise(new_values, nn, higher_better, &sn);
		qsum = z * sb.spread + z * sn.spread;
		out->statistic = qsum == 0 ? sb.mean - sn.mean : (sb.mean - sn.mean) / qsum;
		out->significant = fabs(out->statistic) > 1;
		break;
	}
	case STATS_TEST_TTEST: {
		/* mmtests 2018-2024: the row's mean (Hmean or Amean) with the
		 * plain sample sd, SE = sqrt(sb^2/nb + sn^2/nn), df = nb+nn-2. */
		double se;

		stats_summarise(base, nb, higher_better, &sb);
		stats_summarise(new_values, nn, higher_better, &sn);
		se = sqrt(sb.stddev * sb.stddev / nb + sn.stddev * sn.stddev / nn);
		out->df = nb + nn - 2;
		if (se == 0) {
			out->statistic = sn.mean == sb.mean ? 0 : INFINITY;
			out->p = sn.mean == sb.mean ? 1 : 0;
		} else {
			out->statistic = fabs(sb.mean - sn.mean) / se;
			out->p = 2 * gsl_cdf_tdist_Q(out->statistic, out->df);
		}
		out->significant = out->p < alpha;
		break;
	}
	}
	out->done = 1;
	free(ib);
	free(in);
}
