/* sequential: the group-sequential design of compare/sequential.h. */
#include "config.h"
#include "compare/sequential.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The simulated experiments a design's bounds come from: their number
 * times max_rounds normal draws, at most SIM_DRAWS. */
#define SIM_PATHS 200000
#define SIM_MIN_PATHS 20000
#define SIM_DRAWS 40000000.0
#define SIM_SEED 1

/* Lan and DeMets' O'Brien-Fleming-type spending function: the alpha
 * spent by information fraction t. */
static double obf_spent(double alpha, double t)
{
	double z = gsl_cdf_ugaussian_Qinv(alpha / 2);

	return t >= 1 ? alpha : 2 * gsl_cdf_ugaussian_Q(z / sqrt(t));
}

static int cmp_descending(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

/* One simulated experiment under no change: the sums of its differences
 * so far, and whether a look has crossed its bound. */
struct path {
	double sum, sumsq;
	int crossed;
};

static double path_t(const struct path *p, int n)
{
	double mean = p->sum / n, var = (p->sumsq - n * mean * mean) / (n - 1);

	return var > 0 ? fabs(mean) / sqrt(var / n) : 0;
}

/* The bounds of d's looks, by simulating the paired t's law under no
 * change. The first look's is exact: Student's t with n - 1 df. */
static void simulate_bounds(struct seq_design *d)
{
	int max = d->rounds[d->nlooks - 1], done = 0;
	size_t npaths = SIM_DRAWS / max > SIM_PATHS ? SIM_PATHS : (size_t)(SIM_DRAWS / max);
	struct path *p;
	double *t;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	if (npaths < SIM_MIN_PATHS)
		npaths = SIM_MIN_PATHS;
	p = xcalloc(npaths, sizeof(*p));
	t = xcalloc(npaths, sizeof(*t));
	gsl_rng_set(r, SIM_SEED);
	for (int k = 0; k < d->nlooks; k++) {
		int n = d->rounds[k];
		double step = d->spent[k] - (k ? d->spent[k - 1] : 0);
		size_t m = 0, want;

		for (size_t i = 0; i < npaths; i++) {
			if (p[i].crossed)
				continue;
			for (int j = done; j < n; j++) {
				double x = gsl_ran_gaussian_ziggurat(r, 1.0);

				p[i].sum += x;
				p[i].sumsq += x * x;
			}
			t[m++] = path_t(&p[i], n);
		}
		done = n;
		if (!k) {
			d->bound[k] = gsl_cdf_tdist_Qinv(step / 2, n - 1);
		} else {
			/* The survivors' largest step * npaths values cross now:
			 * the bound lies between the last of them and the next. */
			want = (size_t)floor(step * npaths);
			qsort(t, m, sizeof(*t), cmp_descending);
			if (!m)
				d->bound[k] = 0;
			else if (!want)
				d->bound[k] = nextafter(t[0], INFINITY);
			else
				d->bound[k] = want < m ? (t[want - 1] + t[want]) / 2 : 0;
			/* Never below the fixed design's bound at the last look's
			 * rounds: the simulation's noise may not make a look
			 * easier to pass than a single test would be. */
			if (d->bound[k] < d->fixed_bound && k == d->nlooks - 1)
				d->bound[k] = d->fixed_bound;
		}
		for (size_t i = 0; i < npaths; i++)
			if (!p[i].crossed && path_t(&p[i], n) >= d->bound[k])
				p[i].crossed = 1;
	}
	free(p);
	free(t);
	gsl_rng_free(r);
}

int seq_design_init(struct seq_design *d, int min_rounds, int max_rounds, int every,
		    double alpha, struct strbuf *err)
{
	if (min_rounds < SEQ_MIN_ROUNDS) {
		strbuf_addf(err, "the first look needs %d rounds or more, not %d", SEQ_MIN_ROUNDS,
			    min_rounds);
		return -1;
	}
	if (max_rounds < min_rounds) {
		strbuf_addf(err, "the most rounds (%d) are fewer than the first look's (%d)",
			    max_rounds, min_rounds);
		return -1;
	}
	if (every < 1) {
		strbuf_addf(err, "looks every %d rounds: expected 1 or more", every);
		return -1;
	}
	if (!(alpha > 0 && alpha < 0.5)) {
		strbuf_addf(err, "alpha %g: expected more than 0 and less than 0.5", alpha);
		return -1;
	}
	if ((max_rounds - min_rounds + every - 1) / every + 1 > SEQ_MAX_LOOKS) {
		strbuf_addf(err, "%d to %d rounds, a look every %d: more than %d looks",
			    min_rounds, max_rounds, every, SEQ_MAX_LOOKS);
		return -1;
	}
	memset(d, 0, sizeof(*d));
	d->alpha = alpha;
	for (int n = min_rounds; n < max_rounds; n += every)
		d->rounds[d->nlooks++] = n;
	d->rounds[d->nlooks++] = max_rounds;
	for (int k = 0; k < d->nlooks; k++)
		d->spent[k] = obf_spent(alpha, (double)d->rounds[k] / max_rounds);
	d->fixed_bound = gsl_cdf_tdist_Qinv(alpha / 2, max_rounds - 1);
	simulate_bounds(d);
	return 0;
}

int seq_look_at(const struct seq_design *d, int rounds)
{
	for (int k = 0; k < d->nlooks; k++)
		if (d->rounds[k] == rounds)
			return k;
	return -1;
}

/* Rounds that would make the interval's half width, c sd / sqrt(n),
 * at most w; 0 when w is not positive or there is no spread. */
static double rounds_for(double c, double sd, double w)
{
	return w > 0 && sd > 0 ? ceil(c * c * sd * sd / (w * w)) : 0;
}

int seq_decide_summary(const struct seq_design *d, int look, size_t n, double mean, double sd,
		       double equiv, struct seq_look *out)
{
	double half, c;

	if (look < 0 || look >= d->nlooks || n != (size_t)d->rounds[look] || n < 2 ||
	    isnan(mean) || isnan(sd) || sd < 0)
		return -1;
	out->look = look;
	out->n = n;
	out->mean = mean;
	out->sd = sd;
	c = d->bound[look];
	half = c * sd / sqrt((double)n);
	out->lo = mean - half;
	out->hi = mean + half;
	out->t = sd > 0 ? mean / (sd / sqrt((double)n)) :
		 mean == 0 ? 0 : copysign(INFINITY, mean);
	out->rounds_needed = 0;
	if (out->lo > 0 || out->hi < 0)
		out->decision = SEQ_CHANGE;
	else if (equiv > 0 && out->lo > -equiv && out->hi < equiv)
		out->decision = SEQ_NO_CHANGE;
	else if (look < d->nlooks - 1)
		out->decision = SEQ_GO_ON;
	else {
		double a = rounds_for(c, sd, fabs(mean));
		double b = equiv > fabs(mean) ? rounds_for(c, sd, equiv - fabs(mean)) : 0;
		double need = a && b ? fmin(a, b) : a ? a : b;

		out->decision = SEQ_CANNOT_TELL;
		out->rounds_needed = need > (double)INT32_MAX ? INT32_MAX : (int)need;
	}
	return 0;
}

int seq_decide(const struct seq_design *d, int look, const double *diff, size_t n,
	       double equiv, struct seq_look *out)
{
	double sum = 0, ss = 0, mean;

	if (n < 2)
		return -1;
	for (size_t i = 0; i < n; i++)
		sum += diff[i];
	mean = sum / n;
	for (size_t i = 0; i < n; i++)
		ss += (diff[i] - mean) * (diff[i] - mean);
	return seq_decide_summary(d, look, n, mean, sqrt(ss / (n - 1)), equiv, out);
}

int seq_bound_for(const struct seq_design *d, int rounds, double *bound)
{
	int k = seq_look_at(d, rounds);

	if (k >= 0) {
		*bound = d->bound[k];
		return k;
	}
	/* No look then (an experiment stopped between looks): the first
	 * look's bound, the largest, never makes such an ending easier. */
	*bound = d->bound[0];
	for (int j = 1; j < d->nlooks; j++)
		if (d->bound[j] > *bound)
			*bound = d->bound[j];
	return -1;
}

/* ---- the plan, as stored ---- */

void seq_plan_format(const struct seq_plan *p, struct strbuf *sb)
{
	strbuf_addf(sb, "sequential min-rounds=%d max-rounds=%d look-every=%d alpha=%g "
		    "equivalence=%g%%", p->min_rounds, p->max_rounds, p->every, p->alpha,
		    p->equivalence_pct);
}

int seq_plan_parse(const char *text, struct seq_plan *p, struct strbuf *err)
{
	char pct = 0;
	int used = 0;

	memset(p, 0, sizeof(*p));
	if (sscanf(text, "sequential min-rounds=%d max-rounds=%d look-every=%d alpha=%lf "
		   "equivalence=%lf%c%n", &p->min_rounds, &p->max_rounds, &p->every, &p->alpha,
		   &p->equivalence_pct, &pct, &used) != 6 || pct != '%' || text[used] ||
	    !(p->equivalence_pct >= 0)) {
		strbuf_addf(err, "'%s': expected 'sequential min-rounds=N max-rounds=N "
			    "look-every=N alpha=A equivalence=P%%'", text);
		return -1;
	}
	return 0;
}

/* The designs built last, by plan: a design's simulation takes a third
 * of a second, and kbench ab reads the same one at every look. */
#define PLAN_CACHE 4
static struct {
	struct seq_plan plan;
	struct seq_design d;
	int used;
} plan_cache[PLAN_CACHE];
static unsigned plan_cache_next;
static pthread_mutex_t plan_cache_lock = PTHREAD_MUTEX_INITIALIZER;

static int same_plan(const struct seq_plan *a, const struct seq_plan *b)
{
	return a->min_rounds == b->min_rounds && a->max_rounds == b->max_rounds &&
	       a->every == b->every && a->alpha == b->alpha;
}

int seq_plan_design(const struct seq_plan *p, struct seq_design *d, struct strbuf *err)
{
	int rc = 0, i;

	pthread_mutex_lock(&plan_cache_lock);
	for (i = 0; i < PLAN_CACHE; i++)
		if (plan_cache[i].used && same_plan(&plan_cache[i].plan, p))
			break;
	if (i < PLAN_CACHE) {
		*d = plan_cache[i].d;
	} else if (!(rc = seq_design_init(d, p->min_rounds, p->max_rounds, p->every, p->alpha,
					   err))) {
		i = (int)(plan_cache_next++ % PLAN_CACHE);
		plan_cache[i].plan = *p;
		plan_cache[i].d = *d;
		plan_cache[i].used = 1;
	}
	pthread_mutex_unlock(&plan_cache_lock);
	return rc;
}

const char *seq_decision_name(enum seq_decision d)
{
	switch (d) {
	case SEQ_GO_ON:
		return "go on";
	case SEQ_CHANGE:
		return "change";
	case SEQ_NO_CHANGE:
		return "no change";
	case SEQ_CANNOT_TELL:
		return "cannot tell";
	}
	return "?";
}
