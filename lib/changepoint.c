/* changepoint: E-Divisive means (Matteson and James 2014) run on
 * overlapping windows with a Student t-test in place of the permutation
 * test, then the weak change points merged away (Hunter, Fleming et al.
 * 2023; Apache Otava). Windows are short (50 points), so each holds its
 * pairwise distances; nothing here is random. */
#include "config.h"
#include "lib/changepoint.h"
#include "lib/xalloc.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double changepoint_first_pass_pvalue(double max_pvalue)
{
	if (max_pvalue < 0.05)
		return max_pvalue * 10;
	if (max_pvalue < 0.5)
		return max_pvalue * 2;
	return max_pvalue;
}

static double mean_of(const double *x, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / n;
}

/* numpy's std: divisor n; 0 for a single point. */
static double sd_of(const double *x, size_t n, double mean)
{
	double ss = 0;

	if (n < 2)
		return 0;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return sqrt(ss / n);
}

/* |b / a - 1|, or 0 when a is 0 (Otava's value for an undefined ratio). */
static double rel_change(double a, double b)
{
	return a == 0 ? 0 : fabs(b / a - 1);
}

void changepoint_compare(const double *before, size_t nb, const double *after, size_t na,
			 struct changepoint *cp)
{
	double df = (double)nb + (double)na - 2;

	cp->n_before = nb;
	cp->n_after = na;
	cp->mean_before = mean_of(before, nb);
	cp->mean_after = mean_of(after, na);
	cp->sd_before = sd_of(before, nb, cp->mean_before);
	cp->sd_after = sd_of(after, na, cp->mean_after);
	cp->t = 0;
	cp->p = 1;
	if (df > 0) {
		/* scipy's ttest_ind_from_stats(equal_var=True), fed the divisor-n
		 * sds as Hunter feeds it. */
		double svar = ((nb - 1) * cp->sd_before * cp->sd_before +
			       (na - 1) * cp->sd_after * cp->sd_after) / df;
		double denom = sqrt(svar * (1.0 / nb + 1.0 / na));
		double t = (cp->mean_before - cp->mean_after) / denom;

		/* 0/0 (two constant, equal sides) is no evidence: p stays 1. */
		if (!isnan(t)) {
			cp->t = t;
			cp->p = isinf(t) ? 0 : fmin(1, 2 * gsl_cdf_tdist_Q(fabs(t), df));
		}
	}
	cp->magnitude = fmax(rel_change(cp->mean_before, cp->mean_after),
			     rel_change(cp->mean_after, cp->mean_before));
}

/* One window of the series and its pairwise distances |x[i] - x[j]|,
 * summed down each column: colsum[j * (n + 1) + k] is the sum over i < k. */
struct window {
	const double *x;
	size_t n;
	double *colsum;
};

static void window_init(struct window *w, const double *x, size_t n)
{
	w->x = x;
	w->n = n;
	w->colsum = xcalloc((n + 1) * n, sizeof(*w->colsum));
	for (size_t j = 0; j < n; j++) {
		double *col = w->colsum + j * (n + 1);

		for (size_t k = 0; k < n; k++)
			col[k + 1] = col[k] + fabs(x[k] - x[j]);
	}
}

/* The sum of |x[i] - x[j]| for a <= i < b. */
static double dist_sum(const struct window *w, size_t j, size_t a, size_t b)
{
	const double *col = w->colsum + j * (w->n + 1);

	return col[b] - col[a];
}

/* E-Divisive's best split of the interval [s, e) of the window: the tau
 * that maximises, over s < tau < kappa <= e, the scaled energy distance
 *
 *   Q(X, Y) = 2/(n+m) sum|X-Y| - 2m/((n+m)(n-1)) sum_{i<k}|X_i-X_k|
 *                              - 2n/((n+m)(m-1)) sum_{j<k}|Y_j-Y_k|
 *
 * of X = x[s..tau) (n points) and Y = x[tau..kappa) (m points); a term
 * whose segment holds one point is 0. Ties go to the smallest tau, then
 * kappa. kappa is where the segment after tau ends: the candidate is
 * tested on [s, tau) against [tau, kappa), its own segments, not against
 * the rest of the interval, which may hold the next change. Returns 0, or
 * -1 when the interval has fewer than 2 points. */
static int best_split(const struct window *w, size_t s, size_t e, size_t *tau,
		      size_t *kappa, double *qhat)
{
	double best = -INFINITY, within_left = 0;
	size_t best_tau = 0, best_kappa = 0;

	if (e - s < 2)
		return -1;
	for (size_t t = s + 1; t < e; t++) {
		double n = (double)(t - s), between = 0, within_right = 0;

		within_left += dist_sum(w, t - 1, s, t - 1);
		for (size_t k = t + 1; k <= e; k++) {
			size_t j = k - 1;	/* the point kappa adds to Y */
			double m = (double)(k - t), q;

			between += dist_sum(w, j, s, t);
			within_right += dist_sum(w, j, t, j);
			q = 2 * between / (n + m);
			if (n > 1)
				q -= 2 * m / ((n + m) * (n - 1)) * within_left;
			if (m > 1)
				q -= 2 * n / ((n + m) * (m - 1)) * within_right;
			if (q > best) {
				best = q;
				best_tau = t;
				best_kappa = k;
			}
		}
	}
	*tau = best_tau;
	*kappa = best_kappa;
	*qhat = best;
	return 0;
}

/* Insert v into the ascending idx[0..*n-1] unless it is there already. */
static void insert_index(size_t **idx, size_t *n, size_t *alloc, size_t v)
{
	size_t i = 0;

	while (i < *n && (*idx)[i] < v)
		i++;
	if (i < *n && (*idx)[i] == v)
		return;
	ALLOC_GROW(*idx, *n + 1, *alloc);
	memmove(*idx + i + 1, *idx + i, (*n - i) * sizeof(**idx));
	(*idx)[i] = v;
	(*n)++;
}

/* E-Divisive inside one window: repeatedly split the interval (between
 * the change points found so far) holding the best candidate, while the
 * t-test of the candidate's own segments, [s, tau) and [tau, kappa), gives
 * p <= pass_p; the first candidate that fails ends the search. The indexes
 * found, relative to the window, go into *idx (ascending). */
static void detect_window(const struct window *w, double pass_p, size_t **idx, size_t *n,
			  size_t *alloc)
{
	*n = 0;
	for (;;) {
		double best_q = -INFINITY;
		size_t best_tau = 0, best_s = 0, best_kappa = 0;
		struct changepoint cp;

		for (size_t i = 0; i <= *n; i++) {
			size_t s = i ? (*idx)[i - 1] : 0, e = i < *n ? (*idx)[i] : w->n, tau, kappa;
			double q;

			if (best_split(w, s, e, &tau, &kappa, &q) == 0 && q > best_q) {
				best_q = q;
				best_tau = tau;
				best_s = s;
				best_kappa = kappa;
			}
		}
		if (best_q == -INFINITY)
			return;
		changepoint_compare(w->x + best_s, best_tau - best_s, w->x + best_tau,
				    best_kappa - best_tau, &cp);
		if (!(cp.p <= pass_p))
			return;
		insert_index(idx, n, alloc, best_tau);
	}
}

/* Hunter's split: E-Divisive on windows of `window` points that start
 * every window/2 points (or at the last change point a window found, if
 * that is further on); the union of what the windows find, ascending. */
static void split(const double *x, size_t n, size_t window, double pass_p,
		  size_t **idx, size_t *nidx)
{
	size_t start = 0, step = window / 2, alloc = 0;
	size_t *found = NULL, nfound = 0, found_alloc = 0;

	*idx = NULL;
	*nidx = 0;
	while (start < n) {
		size_t end = start + window < n ? start + window : n, last = 0;
		struct window w;

		window_init(&w, x + start, end - start);
		detect_window(&w, pass_p, &found, &nfound, &found_alloc);
		free(w.colsum);
		for (size_t i = 0; i < nfound; i++)
			insert_index(idx, nidx, &alloc, found[i] + start);
		if (nfound)
			last = found[nfound - 1] + start;
		start = last > start + step ? last : start + step;
	}
	free(found);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_sorted(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double changepoint_noise_sd(const double *x, size_t n, const size_t *at, size_t nat)
{
	double *d = xcalloc(n ? n : 1, sizeof(*d)), sd = NAN;
	size_t nd = 0;

	for (size_t k = 0; k <= nat; k++) {
		size_t a = k ? at[k - 1] : 0, b = k < nat ? at[k] : n;
		double med;

		if (b - a < 2)
			continue;
		for (size_t i = a; i < b; i++)
			d[nd + i - a] = x[i];
		med = median_sorted(d + nd, b - a);
		for (size_t i = a; i < b; i++)
			d[nd++] = fabs(x[i] - med);
	}
	if (nd >= 2)
		sd = 1.4826 * median_sorted(d, nd);
	free(d);
	return sd;
}

/* The series' noise with the change points cps[0..n-1] as segment bounds. */
static double noise_of(const double *x, size_t len, const struct changepoint *cps, size_t n)
{
	size_t *at = xcalloc(n ? n : 1, sizeof(*at));
	double sd;

	for (size_t i = 0; i < n; i++)
		at[i] = cps[i].index;
	sd = changepoint_noise_sd(x, len, at, n);
	free(at);
	return sd;
}

/* The statistics of change point i of cps[0..n-1] against its neighbours. */
static void recompute(const double *x, size_t len, struct changepoint *cps, size_t n, size_t i)
{
	size_t a = i ? cps[i - 1].index : 0, t = cps[i].index;
	size_t b = i + 1 < n ? cps[i + 1].index : len;

	changepoint_compare(x + a, t - a, x + t, b - t, &cps[i]);
}

/* Move change point i of cps[0..n-1] to the split between its neighbours
 * that explains most of their variance, the largest n1 n2 / (n1 + n2)
 * (mean1 - mean2)^2 (least squares; ties to the earliest). E-Divisive's
 * energy distance may put an outlier run next to a step on the wrong
 * side, so the change would name a run of the old level as its first. */
static void refine(const double *x, size_t len, struct changepoint *cps, size_t n, size_t i)
{
	size_t a = i ? cps[i - 1].index : 0, b = i + 1 < n ? cps[i + 1].index : len;
	size_t best_t = cps[i].index;
	double total = 0, left = 0, best = -1;

	for (size_t j = a; j < b; j++)
		total += x[j];
	for (size_t t = a + 1; t < b; t++) {
		double n1 = (double)(t - a), n2 = (double)(b - t), d, between;

		left += x[t - 1];
		d = left / n1 - (total - left) / n2;
		between = n1 * n2 / (n1 + n2) * d * d;
		if (between > best) {
			best = between;
			best_t = t;
		}
	}
	cps[i].index = best_t;
}

/* Drop change point w of cps[0..*k-1] and recompute its two neighbours,
 * whose segments it bounded. */
static void drop(const double *x, size_t len, struct changepoint *cps, size_t *k, size_t w)
{
	memmove(cps + w, cps + w + 1, (*k - w - 1) * sizeof(*cps));
	(*k)--;
	if (w > 0)
		recompute(x, len, cps, *k, w - 1);
	if (w < *k)
		recompute(x, len, cps, *k, w);
}

/* The merge's choice among cps[0..k-1]: the one with the largest p if
 * that p is not below P; when every p is, the one with the smallest
 * magnitude if it does not exceed the minimum magnitude. k when none. */
static size_t weakest(const struct changepoint *cps, size_t k, const struct changepoint_params *p)
{
	size_t w = 0;

	if (!k)
		return k;
	for (size_t i = 1; i < k; i++)
		if (cps[i].p > cps[w].p)
			w = i;
	if (cps[w].p < p->max_pvalue) {
		w = 0;
		for (size_t i = 1; i < k; i++)
			if (cps[i].magnitude < cps[w].magnitude)
				w = i;
		if (cps[w].magnitude > p->min_magnitude)
			return k;
	}
	return w;
}

/* A change point one of whose segments holds fewer than min_segment
 * points (the one with the largest p if several), or k. Two change
 * points around one run are that run, an outlier, not two changes. */
static size_t too_short(const struct changepoint *cps, size_t k, size_t len, size_t min_segment)
{
	size_t w = k;

	for (size_t i = 0; i < k; i++) {
		size_t a = i ? cps[i - 1].index : 0, b = i + 1 < k ? cps[i + 1].index : len;

		if ((cps[i].index - a < min_segment || b - cps[i].index < min_segment) &&
		    (w == k || cps[i].p > cps[w].p))
			w = i;
	}
	return w;
}

/* The change point with the smallest step not above noise_factor times
 * the series' between-run noise, or k; every noise_sd is set. A t-test of
 * long segments finds shifts far smaller than the run-to-run noise: the
 * drift a series shows without a change. */
static size_t within_noise(const double *x, size_t len, struct changepoint *cps, size_t k,
			   double noise_factor)
{
	double sd = k && noise_factor > 0 ? noise_of(x, len, cps, k) : NAN;
	size_t w = k;

	for (size_t i = 0; i < k; i++) {
		double step = fabs(cps[i].mean_after - cps[i].mean_before);

		cps[i].noise_sd = sd;
		if (isfinite(sd) && !(step > noise_factor * sd) &&
		    (w == k || step < fabs(cps[w].mean_after - cps[w].mean_before)))
			w = i;
	}
	return w;
}

void changepoint_detect(const double *x, size_t n, const struct changepoint_params *p,
			struct changepoint **out, size_t *nout)
{
	size_t window = p->window < 2 ? 2 : p->window;
	size_t *idx, k, w;
	struct changepoint *cps = NULL;

	split(x, n, window, changepoint_first_pass_pvalue(p->max_pvalue), &idx, &k);
	if (k)
		cps = xcalloc(k, sizeof(*cps));
	for (size_t i = 0; i < k; i++)
		cps[i].index = idx[i];
	free(idx);
	for (size_t i = 0; i < k; i++)
		recompute(x, n, cps, k, i);

	/* Merge: drop the weakest change point, then recompute its two
	 * neighbours, whose segments it bounded. */
	while ((w = weakest(cps, k, p)) < k)
		drop(x, n, cps, &k, w);
	for (size_t i = 0; i < k; i++)
		refine(x, n, cps, k, i);
	for (size_t i = 0; i < k; i++)
		recompute(x, n, cps, k, i);

	/* Then one at a time, each drop followed by the merge's test of what
	 * is left (a neighbour's longer segments may no longer pass): a change
	 * point with a segment shorter than min_segment points, then the
	 * smallest step within the noise (estimated again each time, on the
	 * segments left). */
	for (;;) {
		if ((w = weakest(cps, k, p)) == k &&
		    (w = too_short(cps, k, n, p->min_segment)) == k &&
		    (w = within_noise(x, n, cps, k, p->noise_factor)) == k)
			break;
		drop(x, n, cps, &k, w);
	}
	if (!k) {
		free(cps);
		cps = NULL;
	}
	*out = cps;
	*nout = k;
}
