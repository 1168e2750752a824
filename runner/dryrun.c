/* dryrun: --dry-run's report of a plan. Estimates come from the plan (a
 * workload with a fixed sample length, netperf's duration) and from the
 * stored durations of the last complete run on this host whose section
 * had the same effective options, scaled to the plan's sample count. */
#include "config.h"
#include "runner/dryrun.h"
#include "runner/conf.h"
#include "runner/effective.h"
#include "runner/plan.h"
#include "db/series.h"
#include "db/store.h"
#include "lib/strbuf.h"
#include "machine/sysinfo.h"
#include "workloads/params.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <string.h>

/* How many earlier runs are searched for one of the same options. */
#define HISTORY_RUNS 200

/* The defaults worth showing although no config sets them. */
static const char *const shown_keys[] = {
	"pin", "duration", "iterations", "min_iterations", "max_iterations", "ci_target",
	"warmup", "timeout", "rounds", "sample_order", "seed", NULL
};

static void print_table(const struct plan *p)
{
	printf("%-28s %-10s %5s %6s  %s\n", "section", "workload", "iters", "warmup", "rows");
	for (size_t i = 0; i < p->n; i++) {
		const struct plan_section *ps = &p->sections[i];

		char iters[16];

		/* iterations = auto: at most max_iterations a row. */
		snprintf(iters, sizeof(iters), ps->auto_iterations ? "<=%d" : "%d", ps->iterations);
		printf("%-28s %-10s %5s %6d  %s", ps->cs->name, ps->ops->name, iters,
		       ps->warmup, ps->ops->row_option ? ps->ops->row_option : "rows");
		for (size_t r = 0; r < ps->nrows; r++) {
			char row[WL_ROW_LEN];

			wl_params_row_label(ps->params, ps->rows[r], row, sizeof(row));
			printf(" %s", row);
		}
		putchar('\n');
	}
	printf("%lld samples in all (warm-up included)\n", (long long)plan_total_samples(p));
}

/* The value key has in section ps: what the plan made of it, else the
 * last config line or -o that set it, else its default; NULL when the
 * section has no such key. */
static const char *key_value(const struct plan_section *ps, const struct config *c,
			     const char *key, char *buf, size_t len)
{
	const struct conf_entry *e;
	const struct wl_option *ro;

	if (!strcmp(key, "iterations") && ps->auto_iterations)
		return "auto";
	else if (!strcmp(key, "iterations"))
		snprintf(buf, len, "%d", ps->iterations);
	else if (!strcmp(key, "min_iterations") || !strcmp(key, "max_iterations") ||
		 !strcmp(key, "ci_target")) {
		/* They matter with iterations = auto only. */
		if (!ps->auto_iterations)
			return NULL;
		if (!strcmp(key, "ci_target"))
			snprintf(buf, len, "%g%%", ps->ci_target * 100);
		else
			snprintf(buf, len, "%d", key[1] == 'i' ? ps->min_iterations :
				 ps->max_iterations);
	} else if (!strcmp(key, "rounds")) {
		if (ps->rounds <= 1)
			return NULL;
		snprintf(buf, len, "%d", ps->rounds);
	} else if (!strcmp(key, "sample_order")) {
		if (ps->order == ORDER_ROWS)
			return NULL;
		return plan_order_name(ps->order);
	} else if (!strcmp(key, "seed")) {
		/* A seed drawn at run time is not known yet. */
		if (ps->order != ORDER_SHUFFLE || !ps->seed_key)
			return NULL;
		snprintf(buf, len, "%llu", (unsigned long long)ps->seed);
	}
	else if (!strcmp(key, "warmup"))
		snprintf(buf, len, "%d", ps->warmup);
	else if (!strcmp(key, "timeout"))
		snprintf(buf, len, "%g", ps->timeout_s);
	else if (wl_params_text(ps->params, key))
		return wl_params_text(ps->params, key);
	else if ((e = conf_section_get(ps->cs, key)) || (e = conf_section_get(&c->global, key)))
		return wl_option_lookup(ps->ops->options, key) >= 0 || plan_runner_option(key) ?
		       e->value : NULL;
	else if ((ro = plan_runner_option(key)) && ro->def)
		return ro->def;
	else
		return NULL;
	return buf;
}

/* Add "key=value" to line once, wrapping before 80 columns. */
static void add_key(struct strbuf *out, struct strbuf *line, const char *key,
		    const char *value)
{
	size_t n = strlen(key) + strlen(value) + 2;

	if (line->len > 4 && line->len + n > 79) {
		strbuf_addf(out, "%s\n", line->buf);
		strbuf_reset(line);
		strbuf_addstr(line, "   ");
	}
	strbuf_addf(line, " %s=%s", key, value);
}

/* Whether key is one of the lines of seen ("\nkey\n..."). */
static int listed(const struct strbuf *seen, const char *key)
{
	const char *p = seen->buf;
	size_t n = strlen(key);

	while ((p = strstr(p, key))) {
		if ((p == seen->buf || p[-1] == '\n') && p[n] == '\n')
			return 1;
		p += n;
	}
	return 0;
}

/* One section's effective keys: the defaults that matter, then every
 * key the configs or -o set, in the order they were given. */
static void print_keys(const struct plan_section *ps, const struct config *c)
{
	struct strbuf out = STRBUF_INIT, line = STRBUF_INIT, seen = STRBUF_INIT;
	char buf[64];
	const struct conf_section *from[2] = { &c->global, ps->cs };

	strbuf_addch(&seen, '\n');
	strbuf_addf(&line, "  [%s]", ps->cs->name);
	for (int i = 0; shown_keys[i]; i++) {
		const char *k = shown_keys[i];
		const char *v;

		if (wl_option_lookup(ps->ops->options, k) < 0 && !plan_runner_option(k))
			continue;
		if (!(v = key_value(ps, c, k, buf, sizeof(buf))))
			continue;
		add_key(&out, &line, k, v);
		strbuf_addf(&seen, "%s\n", k);
	}
	for (int f = 0; f < 2; f++)
		for (size_t i = 0; i < from[f]->n; i++) {
			const char *k = from[f]->entries[i].key;
			const char *v;

			if (listed(&seen, k) || !(v = key_value(ps, c, k, buf, sizeof(buf))))
				continue;
			add_key(&out, &line, k, v);
			strbuf_addf(&seen, "%s\n", k);
		}
	printf("%s%s\n", out.buf, line.buf);
	strbuf_release(&out);
	strbuf_release(&line);
	strbuf_release(&seen);
}

void dryrun_format_duration(double s, char *buf, size_t len)
{
	long long t = (long long)(s + 0.5);

	if (s < 60)
		snprintf(buf, len, "%.1f s", s);
	else if (t < 3600)
		snprintf(buf, len, "%lld:%02lld", t / 60, t % 60);
	else
		snprintf(buf, len, "%lld:%02lld:%02lld", t / 3600, t / 60 % 60, t % 60);
}

/* Seconds section ps takes by the plan alone, every round (each runs the
 * rows' warm-up again); -1 when its workload has no a-priori figure. */
static double plan_estimate(const struct plan_section *ps)
{
	struct strbuf why = STRBUF_INIT;
	double total = 0;

	if (!ps->ops->min_sample_s)
		return -1;
	for (size_t r = 0; r < ps->nrows; r++) {
		strbuf_reset(&why);
		total += ps->ops->min_sample_s(ps->params, ps->rows[r], &why) *
			 (ps->iterations + ps->warmup);
	}
	strbuf_release(&why);
	return total * ps->rounds;
}

/* The search for the last run of a section's options. */
struct history {
	struct store *s;
	const struct effective *want;
	const char *section;
	int64_t run_id;		/* found; 0: none */
	int rc;
};

static int try_run(int64_t id, const char *config_name, void *arg)
{
	struct history *h = arg;
	struct effective have = EFFECTIVE_INIT;
	int64_t n, ns;

	(void)config_name;
	if (effective_from_run(h->s, id, &have)) {
		h->rc = -1;
		return 1;
	}
	if (effective_section_equal(h->want, &have, h->section) &&
	    !store_section_time(h->s, id, h->section, &n, &ns) && n > 0)
		h->run_id = id;
	effective_release(&have);
	return h->run_id != 0;
}

/* Seconds section ps took in the last run here of the same options,
 * scaled to the plan's samples (every round's), with that run's id in
 * *run_id; -1 when there is none. */
static double history_estimate(struct store *s, const char *fingerprint,
			       const struct effective *want, const struct plan_section *ps,
			       int64_t *run_id, int *rc)
{
	struct history h = { .s = s, .want = want, .section = ps->cs->name };
	int64_t n, ns;

	*run_id = 0;
	if (!s || !fingerprint)
		return -1;
	if (store_each_recent_run(s, fingerprint, 0, HISTORY_RUNS, try_run, &h) || h.rc) {
		*rc = -1;
		return -1;
	}
	if (!h.run_id || store_section_time(s, h.run_id, ps->cs->name, &n, &ns) || !n)
		return -1;
	*run_id = h.run_id;
	return (double)ns / 1e9 / (double)n * (double)ps->rounds *
	       (double)ps->nrows * (double)(ps->iterations + ps->warmup);
}

/* Section ps's estimate: the last run's figure when there is one (it
 * includes the cost around each sample that the plan does not see), else
 * the plan's; -1 when neither is known. by_plan and by_run get both. */
static double section_estimate(const struct plan_section *ps, struct store *s,
			       const char *fingerprint, const struct effective *want,
			       double *by_plan, double *by_run, int64_t *run_id, int *rc)
{
	*by_plan = plan_estimate(ps);
	*by_run = history_estimate(s, fingerprint, want, ps, run_id, rc);
	return *by_run >= 0 ? *by_run : *by_plan;
}

int dryrun_estimate(const struct plan *p, struct store *s, double *seconds, int *unknown)
{
	struct effective want = EFFECTIVE_INIT;
	struct machine_info mi;
	int have_mi = s && !machine_info_load(&mi);
	int rc = 0;

	*seconds = 0;
	*unknown = 0;
	effective_from_plan(p, &want);
	for (size_t i = 0; i < p->n; i++) {
		double by_plan, by_run, t;
		int64_t run_id;

		t = section_estimate(&p->sections[i], s, have_mi ? mi.fingerprint : NULL, &want,
				     &by_plan, &by_run, &run_id, &rc);
		if (t >= 0)
			*seconds += t;
		else
			++*unknown;
	}
	effective_release(&want);
	if (have_mi)
		machine_info_release(&mi);
	return rc;
}


/* The values set over the configs: those of -o as given, then those set
 * by something else (an experiment), each with what set it. */
static void print_overrides(const struct config *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->noverrides; i++) {
		if (c->override_from[i])
			continue;
		printf("%s -o '%s'", n++ ? "" : "\nOverrides:", c->overrides[i]);
	}
	if (n)
		putchar('\n');
	n = 0;
	for (size_t i = 0; i < c->noverrides; i++) {
		if (!c->override_from[i])
			continue;
		printf("%s  %s: %s\n", n++ ? "" : "\nSet over the configs by the experiment:\n",
		       c->override_from[i], c->overrides[i]);
	}
}

int dryrun_print(const struct plan *p, const struct config *c, struct store *s)
{
	struct effective want = EFFECTIVE_INIT;
	struct machine_info mi;
	int have_mi = s && !machine_info_load(&mi);
	double total = 0;
	int unknown = 0, rc = 0;

	print_table(p);
	print_overrides(c);
	printf("\nEffective options:\n");
	for (size_t i = 0; i < p->n; i++)
		print_keys(&p->sections[i], c);

	effective_from_plan(p, &want);
	printf("\n%-28s %-10s %s\n", "estimate", "plan", "last run of the same options here");
	for (size_t i = 0; i < p->n; i++) {
		const struct plan_section *ps = &p->sections[i];
		double by_plan, by_run, t;
		int64_t run_id;
		char a[32], b[32];

		t = section_estimate(ps, s, have_mi ? mi.fingerprint : NULL, &want, &by_plan,
				     &by_run, &run_id, &rc);
		if (by_plan >= 0)
			dryrun_format_duration(by_plan, a, sizeof(a));
		else
			snprintf(a, sizeof(a), "unknown");
		if (by_run >= 0) {
			dryrun_format_duration(by_run, b, sizeof(b));
			printf("%-28s %-10s %s (run @%lld)\n", ps->cs->name, a, b,
			       (long long)run_id);
		} else {
			printf("%-28s %-10s %s\n", ps->cs->name, a, "none");
		}
		if (t >= 0)
			total += t;
		else
			unknown++;
	}
	{
		char t[32];

		dryrun_format_duration(total, t, sizeof(t));
		if (unknown == (int)p->n)
			printf("estimated duration: unknown (no a-priori figure, no earlier run "
			       "here)\n");
		else if (unknown)
			printf("estimated duration: at least %s (%d of %zu sections unknown)\n", t,
			       unknown, p->n);
		else
			printf("estimated duration: %s\n", t);
	}
	effective_release(&want);
	if (have_mi)
		machine_info_release(&mi);
	return rc;
}
