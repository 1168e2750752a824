/* plan: resolve each config section to its workload, apply [global] and
 * section keys (the runner's own keys and the workload's option table),
 * build its monitors and pin plan; any error stops before a sample runs. */
#include "config.h"
#include "runner/plan.h"
#include "runner/conf.h"
#include "monitors/monitor.h"
#include "lib/error.h"
#include "lib/regex.h"
#include "lib/strbuf.h"
#include "lib/suggest.h"
#include "lib/xalloc.h"
#include "machine/pin.h"
#include "workloads/params.h"
#include "workloads/workload.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

/* Keys the runner owns, valid in every section and in [global]. */
static const struct wl_option runner_options[] = {
	{ .name = "workload", .type = WL_STRING,
	  .help = "the workload of this section (default: the section name up to its "
		  "first '-')" },
	{ .name = "iterations", .type = WL_INT, .def = "5",
	  .help = "samples per row (per round), or auto: until ci_target is met",
	  .min = 1, .max = 1000000 },
	{ .name = "ci_target", .type = WL_STRING, .def = "2%",
	  .help = "with iterations = auto: a row stops once the half-width of the 95% CI "
		  "of its mean is at most this percentage of the mean (2% or 2)" },
	{ .name = "min_iterations", .type = WL_INT, .def = "3",
	  .help = "with iterations = auto: samples a row takes before it may stop",
	  .min = 2, .max = 1000000 },
	{ .name = "max_iterations", .type = WL_INT, .def = "30",
	  .help = "with iterations = auto: samples a row takes at most",
	  .min = 2, .max = 1000000 },
	{ .name = "rounds", .type = WL_INT, .def = "1",
	  .help = "times the whole plan is run, interleaved: every row in round 1, then "
		  "again in round 2...", .min = 1, .max = 1000 },
	{ .name = "sample_order", .type = WL_ENUM, .def = "rows",
	  .choices = "rows|rounds|shuffle",
	  .help = "the order of a section's samples within a round: rows (each row's "
		  "samples together), rounds (one of each row in turn), shuffle (seeded)" },
	{ .name = "seed", .type = WL_STRING,
	  .help = "seed of sample_order = shuffle, 0 to 18446744073709551615 (default: drawn "
		  "and stored with the run)" },
	{ .name = "warmup", .type = WL_INT, .def = "0",
	  .help = "samples run and discarded before each row's counted ones",
	  .min = 0, .max = 1000 },
	{ .name = "timeout", .type = WL_DOUBLE, .def = "600",
	  .help = "seconds one sample may take before it is killed and recorded as a failure",
	  .min = 0.001, .max = 1e7 },
	{ .name = "monitors", .type = WL_STRING, .def = MONITOR_DEFAULT_SOURCES,
	  .help = "what to record around each sample: a list of rusage, perf, vmstat, slab, "
		  "or all, or none" },
	{ .name = "perf_events", .type = WL_STRING, .def = MONITOR_DEFAULT_PERF_EVENTS,
	  .help = "perf events counted on the sample's processes by the perf monitor "
		  "(libpfm4 names)" },
	/* Read by compare from the config text stored with the run. */
	{ .name = "order", .type = WL_ENUM, .def = "numeric", .choices = "numeric|config",
	  .help = "the order compare prints the rows in: numeric, or as the config gives them" },
	{ .name = NULL }
};

static const struct workload_ops *section_workload(const struct conf_section *cs,
						   const struct conf_section *global)
{
	const struct conf_entry *e = conf_section_get(cs, "workload");
	char prefix[64];
	size_t len;

	if (!e)
		e = conf_section_get(global, "workload");
	if (e)
		return workload_find(e->value);
	len = strcspn(cs->name, "-");
	if (len >= sizeof(prefix))
		return NULL;
	memcpy(prefix, cs->name, len);
	prefix[len] = '\0';
	return workload_find(prefix);
}

/* The workload name closest to name; NULL: none is close. */
static const char *workload_suggest(const char *name)
{
	struct suggest s = SUGGEST_INIT(name);

	for (int i = 0; workloads[i]; i++)
		suggest_add(&s, workloads[i]->name);
	return s.best;
}

static void list_workloads(struct strbuf *sb)
{
	for (int i = 0; workloads[i]; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", workloads[i]->name);
}

/* The runner keys whose values are not of one option type: iterations =
 * auto, ci_target, seed. Return 1 when e was one (*rc 0, or -1 after an
 * error), else 0. */
static int special_key(struct plan_section *ps, const struct conf_entry *e, int from_global,
		       int *rc)
{
	const char *where = from_global ? "global" : ps->cs->name;
	char *end;

	*rc = 0;
	if (!strcmp(e->key, "iterations")) {
		struct wl_value v = { 0 };
		struct strbuf err = STRBUF_INIT;

		if (!strcmp(e->value, "auto")) {
			ps->auto_iterations = 1;
			return 1;
		}
		if (wl_value_parse(plan_runner_option("iterations"), e->value, &v, &err))
			*rc = error("%s: %s, or auto (in [%s])", e->where, err.buf,
				    where);
		else {
			/* A later iterations = N undoes an earlier auto. */
			ps->iterations = (int)v.i;
			ps->auto_iterations = 0;
		}
		wl_value_release(&v);
		strbuf_release(&err);
		return 1;
	}
	if (!strcmp(e->key, "ci_target")) {
		double d;
		const char *after;
		int bad = wl_parse_decimal(e->value, &d, &after);

		/* "2%" or "2"; not "2 %", nor hex, inf or nan. */
		if (!bad && *after == '%' && !isspace((unsigned char)after[-1]))
			after++;
		if (bad || *after || !(d > 0 && d < 100))
			*rc = error("%s: ci_target = '%s' in [%s]: expected a percentage "
				    "above 0 and below 100, such as 2%% or 2", e->where,
				    e->value, where);
		else
			ps->ci_target = d / 100;
		return 1;
	}
	if (!strcmp(e->key, "seed")) {
		unsigned long long u;

		errno = 0;
		u = strtoull(e->value, &end, 10);
		if (!*e->value || *end || errno || e->value[0] == '-' || e->value[0] == '+' ||
		    e->value[0] == ' ')
			*rc = error("%s: seed = '%s' in [%s]: expected an integer from 0 to "
				    "18446744073709551615", e->where, e->value, where);
		else {
			ps->seed = (uint64_t)u;
			ps->seed_key = e;
		}
		return 1;
	}
	return 0;
}

/* Apply one key to a section's plan; return 0, 1 if the key is not known
 * to this workload (only allowed for [global]), or -1 after an error. */
static int apply_key(struct plan_section *ps, const struct conf_entry *e, int from_global)
{
	struct strbuf err = STRBUF_INIT;
	int i = wl_option_index(runner_options, e->key);
	int rc = 0;

	if (i >= 0 && special_key(ps, e, from_global, &rc))
		goto out;
	if (i >= 0) {
		struct wl_value v = { 0 };

		if (wl_value_parse(&runner_options[i], e->value, &v, &err)) {
			rc = error("%s: %s (in [%s])", e->where, err.buf,
				   from_global ? "global" : ps->cs->name);
			goto out;
		}
		if (!strcmp(e->key, "iterations"))
			ps->iterations = (int)v.i;
		else if (!strcmp(e->key, "min_iterations"))
			ps->min_iterations = (int)v.i;
		else if (!strcmp(e->key, "max_iterations"))
			ps->max_iterations = (int)v.i;
		else if (!strcmp(e->key, "rounds"))
			ps->rounds = (int)v.i;
		else if (!strcmp(e->key, "sample_order"))
			ps->order = (enum sample_order)v.i;	/* the choices' order */
		else if (!strcmp(e->key, "warmup"))
			ps->warmup = (int)v.i;
		else if (!strcmp(e->key, "timeout")) {
			ps->timeout_s = v.d;
			ps->timeout_key = e;
		}
		else if (!strcmp(e->key, "monitors"))
			ps->monitors_key = e;
		else if (!strcmp(e->key, "perf_events"))
			ps->perf_events_key = e;
		wl_value_release(&v);
		goto out;
	}
	if (wl_option_lookup(ps->ops->options, e->key) < 0) {
		const char *s;

		if (from_global) {
			rc = 1;
			goto out;
		}
		s = wl_option_suggest(ps->ops->options, e->key);
		if (!s)
			s = wl_option_suggest(runner_options, e->key);
		if (s)
			rc = error("%s: unknown key '%s' in [%s] (did you mean '%s'?)",
				   e->where, e->key, ps->cs->name, s);
		else
			rc = error("%s: unknown key '%s' in [%s] (workload '%s' takes: see "
				   "'kbench %s --help')", e->where, e->key, ps->cs->name,
				   ps->ops->name, ps->ops->name);
		goto out;
	}
	if (wl_params_set(ps->params, e->key, e->value, &err))
		rc = error("%s: %s (in [%s])", e->where, err.buf,
			   from_global ? "global" : ps->cs->name);
out:
	strbuf_release(&err);
	return rc;
}

/* Refuse a timeout shorter than the least time one sample of some row
 * takes (netperf's duration): every sample would time out. The error
 * names the timeout's line, or the section's when it is the default. */
static int check_timeout_fits(const struct plan_section *ps)
{
	struct strbuf why = STRBUF_INIT;
	int rc = 0;

	for (size_t r = 0; ps->ops->min_sample_s && r < ps->nrows && !rc; r++) {
		double min_s;

		strbuf_reset(&why);
		min_s = ps->ops->min_sample_s(ps->params, ps->rows[r], &why);
		if (ps->timeout_s > min_s)
			continue;
		if (ps->timeout_key)
			rc = error("%s: timeout = %g in [%s] cannot fit one sample, which "
				   "takes at least %g s (%s)", ps->timeout_key->where,
				   ps->timeout_s, ps->cs->name, min_s, why.buf);
		else
			rc = error("%s:%d: [%s] the default timeout of %g s cannot fit one sample, "
				   "which takes at least %g s (%s): set 'timeout'", ps->cs->file,
				   ps->cs->line, ps->cs->name, ps->timeout_s, min_s, why.buf);
	}
	strbuf_release(&why);
	return rc;
}

/* Build the section's monitor set; an error names the key at fault. */
static int plan_section_monitors(struct plan_section *ps)
{
	struct monitor_conf mc = {
		.monitors = ps->monitors_key ? ps->monitors_key->value : NULL,
		.perf_events = ps->perf_events_key ? ps->perf_events_key->value : NULL,
	};
	struct strbuf err = STRBUF_INIT;
	const struct conf_entry *e;
	int rc = 0;

	if (monitor_set_new(&mc, &ps->monitors, &err)) {
		e = strstr(err.buf, "'perf_events'") ? ps->perf_events_key : ps->monitors_key;
		if (e)
			rc = error("%s: %s (in [%s])", e->where, err.buf, ps->cs->name);
		else
			rc = error("%s:%d: [%s] %s", ps->cs->file, ps->cs->line, ps->cs->name,
				   err.buf);
	}
	strbuf_release(&err);
	return rc;
}

/* Report err, which the options of ps as a whole raised: at the line of
 * the key it names (p->err_key), in the section or in [global], or else
 * at the section's line. */
static void section_error(const struct plan_section *ps, const struct config *c,
			  const struct strbuf *err)
{
	const char *key = ps->params->err_key;
	const struct conf_entry *e = key ? conf_section_get(ps->cs, key) : NULL;

	if (key && !e)
		e = conf_section_get(&c->global, key);
	if (e)
		error("%s: %s (in [%s])", e->where, err->buf, ps->cs->name);
	else
		error("%s:%d: [%s] %s", ps->cs->file, ps->cs->line, ps->cs->name, err->buf);
}

/* The entry of key in the section, else in [global]; NULL: neither. */
static const struct conf_entry *key_entry(const struct plan_section *ps,
					  const struct config *c, const char *key)
{
	const struct conf_entry *e = conf_section_get(ps->cs, key);

	return e ? e : conf_section_get(&c->global, key);
}

/* With iterations = auto, the cap is max_iterations, which must not be
 * below min_iterations. */
static int check_auto(struct plan_section *ps, const struct config *c)
{
	const struct conf_entry *e;

	if (!ps->auto_iterations)
		return 0;
	if (ps->max_iterations < ps->min_iterations) {
		e = key_entry(ps, c, "max_iterations");
		if (!e)
			e = key_entry(ps, c, "min_iterations");
		return error("%s: max_iterations = %d in [%s] is below min_iterations = %d",
			     e->where, ps->max_iterations, ps->cs->name,
			     ps->min_iterations);
	}
	ps->iterations = ps->max_iterations;
	return 0;
}

/* Build the plan of section cs into ps. Return 0; -1 after errors in the
 * section; -2 after errors of [global] keys (which every section would
 * repeat). *nerrors counts the errors printed; a section stops
 * reporting its keys' errors once it reaches CONF_MAX_ERRORS. */
static int plan_section_init(struct plan_section *ps, const struct conf_section *cs,
			     const struct config *c, struct pin_topo **topo, int *nerrors)
{
	struct strbuf err = STRBUF_INIT;
	int rc = -1, bad = 0;

	memset(ps, 0, sizeof(*ps));
	ps->cs = cs;
	ps->ops = section_workload(cs, &c->global);
	if (!ps->ops) {
		const struct conf_entry *e = conf_section_get(cs, "workload");

		list_workloads(&err);
		if (e && workload_suggest(e->value))
			error("%s: unknown workload '%s' in [%s] (did you mean '%s'?)",
			      e->where, e->value, cs->name, workload_suggest(e->value));
		else if (e)
			error("%s: unknown workload '%s' in [%s] (expected one of: %s)",
			      e->where, e->value, cs->name, err.buf);
		else
			error("%s:%d: section [%s] names no workload: start its name with one "
			      "of %s, or set 'workload ='", cs->file, cs->line, cs->name, err.buf);
		goto out;
	}
	ps->params = wl_params_new(ps->ops);
	ps->iterations = 5;
	ps->timeout_s = 600;
	ps->rounds = 1;
	ps->ci_target = 0.02;
	ps->min_iterations = 3;
	ps->max_iterations = 30;
	/* Every key's error is reported, not the first only. */
	for (size_t i = 0; i < c->global.n && *nerrors + bad < CONF_MAX_ERRORS; i++)
		bad += apply_key(ps, &c->global.entries[i], 1) < 0;
	if (bad) {
		rc = -2;
		goto out;
	}
	for (size_t i = 0; i < cs->n && *nerrors + bad < CONF_MAX_ERRORS; i++)
		bad += apply_key(ps, &cs->entries[i], 0) != 0;
	if (bad)
		goto out;
	if (check_auto(ps, c))
		goto out;
	if (wl_params_finish(ps->params, &err)) {
		section_error(ps, c, &err);
		goto out;
	}
	ps->rows = wl_params_rows(ps->params, &ps->nrows);
	if (ps->ops->check && ps->ops->check(ps->params, &err)) {
		section_error(ps, c, &err);
		goto out;
	}
	if (check_timeout_fits(ps) || plan_section_monitors(ps))
		goto out;
	/* Pinning is computed before anything runs, so a policy the machine
	 * cannot honour stops the run here. The topology is loaded once for
	 * all sections: a load per section made large configs slow. */
	if (wl_option_index(ps->ops->options, "pin") >= 0) {
		if ((!*topo && pin_topo_load(NULL, NULL, topo, &err)) ||
		    pin_plan_compute_on(*topo, wl_params_text(ps->params, "pin"), 0, &ps->pin,
					&err)) {
			const struct conf_entry *e = conf_section_get(cs, "pin");

			if (!e)
				e = conf_section_get(&c->global, "pin");
			if (e && !e->line)	/* an -o argument names itself */
				error("%s: [%s] %s", e->where, cs->name, err.buf);
			else
				error("%s:%d: [%s] %s", cs->file, cs->line, cs->name, err.buf);
			goto out;
		}
		ps->params->pin = ps->pin;
		if (ps->pin->passed_over)
			notice("[%s] pin: using %s, the first possible of '%s': %s", cs->name,
			       ps->pin->policy, wl_params_text(ps->params, "pin"),
			       ps->pin->passed_over);
		/* A preference list: the run stores the policy it used. */
		if (strchr(wl_params_text(ps->params, "pin"), ',') &&
		    wl_params_set(ps->params, "pin", ps->pin->policy, &err)) {
			error("%s:%d: [%s] %s", cs->file, cs->line, cs->name, err.buf);
			goto out;
		}
	}
	rc = 0;
out:
	if (rc)
		*nerrors += bad ? bad : 1;
	strbuf_release(&err);
	return rc;
}

/* The key closest to key among those of the runner and of every
 * section's workload; NULL: none is close. */
static const char *global_key_suggest(const struct plan *p, const char *key)
{
	struct suggest s = SUGGEST_INIT(key);

	for (int i = 0; runner_options[i].name; i++)
		suggest_add(&s, runner_options[i].name);
	for (size_t j = 0; j < p->n; j++)
		for (int i = 0; p->sections[j].ops->options[i].name; i++)
			suggest_add(&s, p->sections[j].ops->options[i].name);
	return s.best;
}

/* Every [global] key must mean something to some section: each one that
 * does not is reported (up to CONF_MAX_ERRORS). */
static int check_global_keys(const struct config *c, const struct plan *p)
{
	int rc = 0;

	for (size_t i = 0; i < c->global.n && rc > -CONF_MAX_ERRORS; i++) {
		const struct conf_entry *e = &c->global.entries[i];
		int known = wl_option_index(runner_options, e->key) >= 0;

		for (size_t j = 0; !known && j < p->n; j++)
			known = wl_option_lookup(p->sections[j].ops->options, e->key) >= 0;
		if (!known && global_key_suggest(p, e->key))
			rc += error("%s: unknown key '%s' in [global] (did you mean '%s'?)",
				    e->where, e->key, global_key_suggest(p, e->key));
		else if (!known)
			rc += error("%s: unknown key '%s' in [global]: no section's workload "
				    "takes it", e->where, e->key);
	}
	return rc ? -1 : 0;
}

/* Samples section ps runs, warm-up included; 64 bits, as a plan may ask
 * for more than an int holds before it is refused. */
static int64_t section_samples(const struct plan_section *ps)
{
	return (int64_t)ps->rounds * (int64_t)ps->nrows * ((int64_t)ps->iterations + ps->warmup);
}

/* Refuse a plan larger than PLAN_MAX_SAMPLES before anything runs,
 * naming the section that takes it over. */
static int check_plan_size(const struct plan *p)
{
	int64_t total = 0;

	for (size_t i = 0; i < p->n; i++) {
		const struct plan_section *ps = &p->sections[i];

		total += section_samples(ps);
		if (total > PLAN_MAX_SAMPLES)
			return error("%s:%d: [%s] brings the plan to %lld samples (%s%zu rows x "
				     "(%d iterations + %d warm-up)); a run holds at most %d",
				     ps->cs->file, ps->cs->line, ps->cs->name, (long long)total,
				     ps->rounds > 1 ? "rounds x " : "", ps->nrows, ps->iterations,
				     ps->warmup, PLAN_MAX_SAMPLES);
	}
	return 0;
}

const struct wl_option *plan_runner_options(void)
{
	return runner_options;
}

const struct workload_ops *plan_section_workload(const struct conf_section *cs,
						 const struct config *c)
{
	return section_workload(cs, &c->global);
}

const struct wl_option *plan_runner_option(const char *name)
{
	int i = wl_option_index(runner_options, name);

	return i < 0 ? NULL : &runner_options[i];
}

/* The run's order seed: [global] seed, else drawn; a section with no seed
 * of its own takes it. */
static void plan_seed(const struct config *c, struct plan *p)
{
	const struct conf_entry *e = conf_section_get(&c->global, "seed");

	if (e)
		p->seed = (uint64_t)strtoull(e->value, NULL, 10);	/* checked */
	else if (getrandom(&p->seed, sizeof(p->seed), 0) != (ssize_t)sizeof(p->seed))
		p->seed = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ULL ^ (uint64_t)clock();
	for (size_t i = 0; i < p->n; i++) {
		struct plan_section *ps = &p->sections[i];

		if (!ps->seed_key || ps->seed_key == e)
			ps->seed = p->seed;
		p->shuffled |= ps->order == ORDER_SHUFFLE;
		if (ps->rounds > p->rounds)
			p->rounds = ps->rounds;
	}
}

/* Build the plan of the sections of c that want() keeps (1; 0 skips a
 * section, -1 is an error it printed; all when want is NULL). Return 0, or -1 after an error; *out is empty when no section
 * was kept. */
static int plan_build_where(struct config *c, int (*want)(const char *name, void *arg),
			    void *arg, struct pin_topo *topo, struct plan *out)
{
	int nerrors = 0, failed;

	memset(out, 0, sizeof(*out));
	out->topo = topo;
	out->sections = xcalloc(c->n ? c->n : 1, sizeof(*out->sections));
	/* A section in error does not stop the others': all their errors
	 * are reported, up to CONF_MAX_ERRORS. */
	for (size_t i = 0; i < c->n && nerrors < CONF_MAX_ERRORS; i++) {
		int keep = want ? want(c->sections[i].name, arg) : 1;

		if (keep < 0)
			goto fail;
		if (!keep)
			continue;
		assert(out->n < c->n);	/* sections holds one per config section */
		failed = plan_section_init(&out->sections[out->n], &c->sections[i], c, &out->topo,
					   &nerrors);
		if (failed) {
			wl_params_free(out->sections[out->n].params);
			monitor_set_free(out->sections[out->n].monitors);
			memset(&out->sections[out->n], 0, sizeof(out->sections[out->n]));
			if (failed == -2)
				break;
			continue;
		}
		out->n++;
	}
	if (nerrors >= CONF_MAX_ERRORS)
		error("stopped after %d errors", CONF_MAX_ERRORS);
	if (nerrors)
		goto fail;
	if (out->n && (check_global_keys(c, out) || check_plan_size(out)))
		goto fail;
	plan_seed(c, out);
	return 0;
fail:
	plan_release(out);
	return -1;
}

static int matches(const char *name, void *re)
{
	return kb_regex_match(re, name);
}

int plan_build(struct config *c, const char *only, struct plan *out)
{
	return plan_build_on(c, only, NULL, out);
}

int plan_build_on(struct config *c, const char *only, struct pin_topo *topo, struct plan *out)
{
	struct kb_regex *re = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if (only && !(re = kb_regex_new(only, "--only"))) {
		pin_topo_free(topo);
		return -1;
	}
	rc = plan_build_where(c, re ? matches : NULL, re, topo, out);
	kb_regex_free(re);
	if (rc)
		return -1;
	if (!out->n) {
		if (only)
			error("no section matches --only '%s'", only);
		else
			error("%s: no sections to run", c->nfiles ? c->files[0] : "config");
		plan_release(out);
		return -1;
	}
	return 0;
}

struct name_list {
	const char *const *names;
	size_t n;
};

static int listed(const char *name, void *arg)
{
	const struct name_list *l = arg;

	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->names[i], name))
			return 1;
	return 0;
}

int plan_build_sections(struct config *c, const char *const *names, size_t n,
			struct plan *out)
{
	struct name_list l = { .names = names, .n = n };

	if (plan_build_where(c, listed, &l, NULL, out))
		return -1;
	if (!out->n) {
		error("%s: none of the sections to run is in it",
		      c->nfiles ? c->files[0] : "config");
		plan_release(out);
		return -1;
	}
	return 0;
}

void plan_release(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		wl_params_free(p->sections[i].params);
		monitor_set_free(p->sections[i].monitors);
		pin_plan_free(p->sections[i].pin);
	}
	free(p->sections);
	pin_topo_free(p->topo);
	memset(p, 0, sizeof(*p));
}

int64_t plan_total_samples(const struct plan *p)
{
	int64_t total = 0;

	for (size_t i = 0; i < p->n; i++)
		total += section_samples(&p->sections[i]);
	return total;
}

uint64_t plan_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* FNV-1a of a section's name: its shuffles differ from another's. */
static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

void plan_round_order(const struct plan_section *ps, int round, size_t *slots)
{
	size_t n = ps->nrows * (size_t)ps->iterations, k = 0;
	uint64_t state;

	if (ps->order == ORDER_ROWS)
		for (size_t r = 0; r < ps->nrows; r++)
			for (int it = 0; it < ps->iterations; it++)
				slots[k++] = r;
	else
		for (int it = 0; it < ps->iterations; it++)
			for (size_t r = 0; r < ps->nrows; r++)
				slots[k++] = r;
	assert(k == n);
	if (ps->order != ORDER_SHUFFLE)
		return;
	state = ps->seed ^ name_hash(ps->cs->name) ^ ((uint64_t)round * 0xd1b54a32d192ed03ULL);
	/* Modulo bias is below n / 2^64: nothing a plan can see. */
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(plan_splitmix64(&state) % i), t = slots[i - 1];

		slots[i - 1] = slots[j];
		slots[j] = t;
	}
}

double plan_ci_relative(long n, double mean, double m2)
{
	double sd;

	if (n < 2 || mean == 0 || !isfinite(mean))
		return NAN;
	sd = sqrt(m2 / (double)(n - 1));
	return gsl_cdf_tdist_Qinv(0.025, (double)(n - 1)) * sd / sqrt((double)n) / fabs(mean);
}

int plan_row_done(const struct plan_section *ps, long n, double mean, double m2, int *met)
{
	double ci = plan_ci_relative(n, mean, m2);

	*met = n >= ps->min_iterations && !isnan(ci) && ci <= ps->ci_target;
	return *met || n >= ps->max_iterations;
}

const char *plan_order_name(enum sample_order order)
{
	static const char *const names[] = {
		[ORDER_ROWS] = "rows", [ORDER_ROUNDS] = "rounds", [ORDER_SHUFFLE] = "shuffle",
	};

	assert((size_t)order < sizeof(names) / sizeof(names[0]));
	return names[order];
}

int plan_each_row_name(const struct plan *p, int (*fn)(const char *name, void *arg),
		       void *arg)
{
	struct strbuf name = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < p->n && !rc; i++) {
		const struct plan_section *ps = &p->sections[i];

		for (size_t r = 0; r < ps->nrows && !rc; r++) {
			char label[WL_ROW_LEN];
			int bare = 1;	/* a metric without a name: the label alone */

			wl_params_row_label(ps->params, ps->rows[r], label, sizeof(label));
			for (const struct wl_metric *m = ps->params->metrics; !rc && m && m->name;
			     m++) {
				if (m == ps->params->metrics)
					bare = 0;
				if (!m->name[0]) {
					bare = 1;
					continue;
				}
				strbuf_reset(&name);
				strbuf_addf(&name, "%s/%s-%s", ps->cs->name, m->name, label);
				rc = fn(name.buf, arg);
			}
			if (!rc && bare) {
				strbuf_reset(&name);
				strbuf_addf(&name, "%s/%s", ps->cs->name, label);
				rc = fn(name.buf, arg);
			}
		}
	}
	strbuf_release(&name);
	return rc;
}
