/* runner: plan the sections of the configs, then run every sample in a
 * forked child (harness/child.c) with a timeout, committing each result
 * as it arrives. SIGINT/SIGTERM stop the sample in flight, kill its
 * process group and mark the run interrupted; nothing measured is lost. */
#include "config.h"
#include "harness/runner.h"
#include "harness/child.h"
#include "harness/conf.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "harness/monitor.h"
#include "workloads/params.h"
#include "machine/pin.h"
#include "harness/progress.h"
#include "lib/regex.h"
#include "lib/strbuf.h"
#include "machine/sysinfo.h"
#include "db/store.h"
#include "workloads/workload.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* Keys the runner owns, valid in every section and in [global]. */
static const struct wl_option runner_options[] = {
	{ "workload", WL_STRING, NULL, "the workload of this section (default: the section "
	  "name up to its first '-')" },
	{ "iterations", WL_INT, "5", "samples per row", NULL, 1, 1000000 },
	{ "warmup", WL_INT, "0", "samples run and discarded before each row's counted ones",
	  NULL, 0, 1000 },
	{ "timeout", WL_DOUBLE, "600", "seconds one sample may take before it is killed "
	  "and recorded as a failure", NULL, 0.001, 1e7 },
	{ "monitors", WL_STRING, MONITOR_DEFAULT_SOURCES, "what to record around each sample: "
	  "a list of rusage, perf, vmstat, slab, or all, or none" },
	{ "perf_events", WL_STRING, MONITOR_DEFAULT_PERF_EVENTS, "perf events counted on the "
	  "sample's processes by the perf monitor (libpfm4 names)" },
	{ NULL }
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

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

static void list_workloads(struct strbuf *sb)
{
	for (int i = 0; workloads[i]; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", workloads[i]->name);
}

/* Apply one key to a section's plan; return 0, 1 if the key is not known
 * to this workload (only allowed for [global]), or -1 after an error. */
static int apply_key(struct plan_section *ps, const struct conf_entry *e, int from_global)
{
	struct strbuf err = STRBUF_INIT;
	int i = wl_option_index(runner_options, e->key);
	int rc = 0;

	if (i >= 0) {
		struct wl_value v = { 0 };

		if (wl_value_parse(&runner_options[i], e->value, &v, &err)) {
			rc = error("%s:%d: %s (in [%s])", e->file, e->line, err.buf,
				   from_global ? "global" : ps->cs->name);
			goto out;
		}
		if (!strcmp(e->key, "iterations"))
			ps->iterations = (int)v.i;
		else if (!strcmp(e->key, "warmup"))
			ps->warmup = (int)v.i;
		else if (!strcmp(e->key, "timeout"))
			ps->timeout_s = v.d;
		else if (!strcmp(e->key, "monitors"))
			ps->monitors_key = e;
		else if (!strcmp(e->key, "perf_events"))
			ps->perf_events_key = e;
		wl_value_release(&v);
		goto out;
	}
	if (wl_option_index(ps->ops->options, e->key) < 0) {
		const char *s;

		if (from_global) {
			rc = 1;
			goto out;
		}
		s = wl_option_suggest(ps->ops->options, e->key);
		if (!s)
			s = wl_option_suggest(runner_options, e->key);
		if (s)
			rc = error("%s:%d: unknown key '%s' in [%s] (did you mean '%s'?)",
				   e->file, e->line, e->key, ps->cs->name, s);
		else
			rc = error("%s:%d: unknown key '%s' in [%s] (workload '%s' takes: see "
				   "'kbench %s --help')", e->file, e->line, e->key, ps->cs->name,
				   ps->ops->name, ps->ops->name);
		goto out;
	}
	if (wl_params_set(ps->params, e->key, e->value, &err))
		rc = error("%s:%d: %s (in [%s])", e->file, e->line, err.buf,
			   from_global ? "global" : ps->cs->name);
out:
	strbuf_release(&err);
	return rc;
}

/* Build the section's monitor set; an error names the key at fault. */
static int plan_section_monitors(struct plan_section *ps)
{
	struct monitor_conf mc = {
		ps->monitors_key ? ps->monitors_key->value : NULL,
		ps->perf_events_key ? ps->perf_events_key->value : NULL,
	};
	struct strbuf err = STRBUF_INIT;
	const struct conf_entry *e;
	int rc = 0;

	if (monitor_set_new(&mc, &ps->monitors, &err)) {
		e = strstr(err.buf, "'perf_events'") ? ps->perf_events_key : ps->monitors_key;
		if (e)
			rc = error("%s:%d: %s (in [%s])", e->file, e->line, err.buf, ps->cs->name);
		else
			rc = error("%s:%d: [%s] %s", ps->cs->file, ps->cs->line, ps->cs->name,
				   err.buf);
	}
	strbuf_release(&err);
	return rc;
}

static int plan_section_init(struct plan_section *ps, const struct conf_section *cs,
			     const struct config *c, struct pin_topo **topo)
{
	struct strbuf err = STRBUF_INIT;
	int rc = -1;

	memset(ps, 0, sizeof(*ps));
	ps->cs = cs;
	ps->ops = section_workload(cs, &c->global);
	if (!ps->ops) {
		const struct conf_entry *e = conf_section_get(cs, "workload");

		list_workloads(&err);
		if (e)
			error("%s:%d: unknown workload '%s' in [%s] (expected one of: %s)",
			      e->file, e->line, e->value, cs->name, err.buf);
		else
			error("%s:%d: section [%s] names no workload: start its name with one "
			      "of %s, or set 'workload ='", cs->file, cs->line, cs->name, err.buf);
		goto out;
	}
	ps->params = wl_params_new(ps->ops);
	ps->iterations = 5;
	ps->timeout_s = 600;
	for (size_t i = 0; i < c->global.n; i++)
		if (apply_key(ps, &c->global.entries[i], 1) < 0)
			goto out;
	for (size_t i = 0; i < cs->n; i++)
		if (apply_key(ps, &cs->entries[i], 0))
			goto out;
	if (wl_params_finish(ps->params, &err)) {
		error("%s:%d: [%s] %s", cs->file, cs->line, cs->name, err.buf);
		goto out;
	}
	ps->rows = wl_list(ps->params, ps->ops->row_option, &ps->nrows);
	if (ps->ops->check && ps->ops->check(ps->params, &err)) {
		error("%s:%d: [%s] %s", cs->file, cs->line, cs->name, err.buf);
		goto out;
	}
	if (plan_section_monitors(ps))
		goto out;
	/* Pinning is computed before anything runs, so a policy the machine
	 * cannot honour stops the run here. The topology is loaded once for
	 * all sections: a load per section made large configs slow. */
	if (wl_option_index(ps->ops->options, "pin") >= 0) {
		if ((!*topo && pin_topo_load(NULL, NULL, topo, &err)) ||
		    pin_plan_compute_on(*topo, wl_str(ps->params, "pin"), 0, &ps->pin, &err)) {
			error("%s:%d: [%s] %s", cs->file, cs->line, cs->name, err.buf);
			goto out;
		}
		ps->params->pin = ps->pin;
	}
	rc = 0;
out:
	strbuf_release(&err);
	return rc;
}

/* Every [global] key must mean something to some section. */
static int check_global_keys(const struct config *c, const struct plan *p)
{
	for (size_t i = 0; i < c->global.n; i++) {
		const struct conf_entry *e = &c->global.entries[i];
		int known = wl_option_index(runner_options, e->key) >= 0;

		for (size_t j = 0; !known && j < p->n; j++)
			known = wl_option_index(p->sections[j].ops->options, e->key) >= 0;
		if (!known)
			return error("%s:%d: unknown key '%s' in [global]: no section's workload "
				     "takes it", e->file, e->line, e->key);
	}
	return 0;
}

int plan_build(struct config *c, const char *only, struct plan *out)
{
	struct kb_regex *re = NULL;

	memset(out, 0, sizeof(*out));
	if (only && !(re = kb_regex_new(only, "--only")))
		return -1;
	out->sections = calloc(c->n ? c->n : 1, sizeof(*out->sections));
	if (!out->sections)
		abort();
	for (size_t i = 0; i < c->n; i++) {
		if (re && !kb_regex_match(re, c->sections[i].name))
			continue;
		if (plan_section_init(&out->sections[out->n], &c->sections[i], c, &out->topo)) {
			wl_params_free(out->sections[out->n].params);
			monitor_set_free(out->sections[out->n].monitors);
			goto fail;
		}
		out->n++;
	}
	kb_regex_free(re);
	re = NULL;
	if (!out->n) {
		if (only)
			error("no section matches --only '%s'", only);
		else
			error("%s: no sections to run", c->nfiles ? c->files[0] : "config");
		goto fail;
	}
	if (check_global_keys(c, out))
		goto fail;
	return 0;
fail:
	kb_regex_free(re);
	plan_release(out);
	return -1;
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

int plan_total_samples(const struct plan *p)
{
	int total = 0;

	for (size_t i = 0; i < p->n; i++)
		total += (int)p->sections[i].nrows *
			 (p->sections[i].iterations + p->sections[i].warmup);
	return total;
}

/* ---- one sample ---- */

/* What the child sends back: a header, then the sample when rc is 0. */
struct sample_msg {
	int rc;
	char err[512];
	struct wl_sample sample;
};

struct sample_job {
	const struct workload_ops *ops;
	const struct wl_params *params;
	long long row;
};

static int sample_child(void *arg, int fd)
{
	const struct sample_job *job = arg;
	struct sample_msg *msg = calloc(1, sizeof(*msg));
	struct strbuf err = STRBUF_INIT;
	const char *p;
	size_t left;

	if (!msg)
		return 1;
	msg->rc = job->ops->run_one(job->params, job->row, &msg->sample, &err);
	if (msg->rc && !err.len)
		strbuf_addstr(&err, "the workload failed without saying why");
	snprintf(msg->err, sizeof(msg->err), "%s", err.buf);
	strbuf_release(&err);
	p = (const char *)msg;
	left = sizeof(*msg);
	while (left) {
		ssize_t n = write(fd, p, left);

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			return 1;
		}
		p += n;
		left -= (size_t)n;
	}
	free(msg);
	return 0;
}

int run_sample(const struct workload_ops *ops, const struct wl_params *params,
	       long long row, double timeout_s, struct wl_sample *out,
	       struct child *c, struct strbuf *reason)
{
	return run_sample_monitored(ops, params, row, timeout_s, NULL, NULL, out, c, reason);
}

int run_sample_monitored(const struct workload_ops *ops, const struct wl_params *params,
			 long long row, double timeout_s, struct monitor_set *ms,
			 struct monitor_values *mv, struct wl_sample *out,
			 struct child *c, struct strbuf *reason)
{
	struct sample_job job = { ops, params, row };
	struct strbuf buf = STRBUF_INIT;
	struct monitor_values scratch = MONITOR_VALUES_INIT;
	const struct sample_msg *msg;
	int held = monitor_set_wants_attach(ms);
	int end, rc = -1;

	memset(out, 0, sizeof(*out));
	/* Monitors bracket the whole life of the sample's process; the
	 * workload's timed window lies inside it. */
	monitor_set_before(ms);
	if (held ? child_start_held(c, sample_child, &job) : child_start(c, sample_child, &job)) {
		monitor_set_after(ms, NULL, &scratch);
		monitor_values_release(&scratch);
		strbuf_addstr(reason, "cannot start the sample's process");
		return -1;
	}
	if (held) {
		monitor_set_attach(ms, c->pid);
		child_release(c);
	}
	end = child_finish(c, timeout_s, &stop_signal, &buf);
	monitor_set_after(ms, end == CHILD_EXITED ? &c->ru : NULL, mv ? mv : &scratch);
	monitor_values_release(&scratch);
	if (end == CHILD_TIMEOUT) {
		strbuf_addf(reason, "timed out after %g s (timeout = %g); its process group "
			    "was killed", timeout_s, timeout_s);
		goto out;
	}
	if (end == CHILD_STOPPED) {
		strbuf_addf(reason, "interrupted by signal %d", (int)stop_signal);
		goto out;
	}
	if (end < 0) {
		strbuf_addstr(reason, "lost track of the sample's process");
		goto out;
	}
	if (buf.len != sizeof(*msg)) {
		strbuf_addstr(reason, "the sample's process ");
		child_describe_status(c->status, reason);
		strbuf_addstr(reason, " before reporting a result");
		goto out;
	}
	msg = (const struct sample_msg *)buf.buf;
	if (msg->rc) {
		strbuf_addstr(reason, msg->err);
		goto out;
	}
	*out = msg->sample;
	if (out->nresults <= 0) {
		strbuf_addstr(reason, "the workload reported no result");
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&buf);
	return rc;
}

/* ---- the run ---- */

static void iso_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void make_uuid(char out[37])
{
	unsigned char b[16];

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
		uint64_t x = (uint64_t)clock_ns(CLOCK_REALTIME) ^ ((uint64_t)getpid() << 32);

		for (int i = 0; i < 16; i++, x = x * 6364136223846793005ULL + 1442695040888963407ULL)
			b[i] = (unsigned char)(x >> 56);
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
		 b[12], b[13], b[14], b[15]);
}

/* The monitors of a section, stored with the run. */
static int store_monitor_facts(struct store *s, int64_t run_id, const struct plan_section *ps)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	monitor_set_describe(ps->monitors, &sb);
	rc = store_add_meta(s, run_id, ps->cs->name, "monitors", sb.buf);
	if (!rc && monitor_set_has(ps->monitors, "perf"))
		rc = store_add_meta(s, run_id, ps->cs->name, "perf_events",
				    ps->perf_events_key ? ps->perf_events_key->value :
				    MONITOR_DEFAULT_PERF_EVENTS);
	strbuf_release(&sb);
	return rc;
}

/* Find what each section's monitors cannot measure here, store why, and
 * say so once per run however many sections share the problem. */
static int prepare_monitors(struct store *s, int64_t run_id, struct plan *p)
{
	struct strbuf said = STRBUF_INIT;
	int rc = 0;

	strbuf_addch(&said, '\n');
	for (size_t i = 0; i < p->n && !rc; i++) {
		struct monitor_facts mf = { 0 };

		monitor_set_prepare(p->sections[i].monitors, &mf);
		for (size_t j = 0; j < mf.n && !rc; j++) {
			const char *note = mf.f[j].notice;

			rc = store_add_meta(s, run_id, p->sections[i].cs->name, mf.f[j].key,
					    mf.f[j].value);
			if (note && !strstr(said.buf, note)) {
				notice("%s", note);
				strbuf_addf(&said, "%s\n", note);
			}
		}
		monitor_facts_release(&mf);
	}
	strbuf_release(&said);
	return rc;
}

/* Per-section monitor figures (the slab caches before the first sample
 * and after the last), stored as row `when`, iteration 0. */
static int store_section_monitors(struct store *s, int64_t run_id, const struct plan_section *ps,
				  const char *when, const struct monitor_values *mv)
{
	struct monitor_record *mon;
	struct sample_set set = { 0 };
	int rc;

	if (!mv->n)
		return 0;
	mon = calloc(mv->n, sizeof(*mon));
	if (!mon)
		abort();
	for (size_t i = 0; i < mv->n; i++) {
		mon[i].row = when;
		mon[i].source = mv->v[i].source;
		mon[i].key = mv->v[i].key;
		mon[i].value = mv->v[i].value;
	}
	set.section = ps->cs->name;
	set.workload = ps->ops->name;
	set.monitors = mon;
	set.nmonitors = mv->n;
	rc = store_add_sample_set(s, run_id, &set);
	free(mon);
	return rc;
}

/* The effective options of each section, stored with the run. */
static int store_section_facts(struct store *s, int64_t run_id, const struct plan_section *ps)
{
	char buf[64];

	if (store_add_meta(s, run_id, ps->cs->name, "workload", ps->ops->name))
		return -1;
	for (int i = 0; ps->ops->options[i].name; i++) {
		const char *text = ps->params->v[i].text;

		if (text && store_add_meta(s, run_id, ps->cs->name, ps->ops->options[i].name, text))
			return -1;
	}
	if (ps->pin) {
		struct strbuf pin = STRBUF_INIT;
		int rc;

		pin_plan_describe(ps->pin, &pin);
		rc = store_add_meta(s, run_id, ps->cs->name, "pin_cpus", pin.buf);
		strbuf_release(&pin);
		if (rc)
			return -1;
	}
	snprintf(buf, sizeof(buf), "%d", ps->iterations);
	if (store_add_meta(s, run_id, ps->cs->name, "iterations", buf))
		return -1;
	snprintf(buf, sizeof(buf), "%d", ps->warmup);
	if (store_add_meta(s, run_id, ps->cs->name, "warmup", buf))
		return -1;
	snprintf(buf, sizeof(buf), "%g", ps->timeout_s);
	if (store_add_meta(s, run_id, ps->cs->name, "timeout", buf))
		return -1;
	return store_monitor_facts(s, run_id, ps);
}

static void format_result(const struct workload_ops *ops, const struct wl_sample *smp,
			  struct strbuf *sb)
{
	for (int i = 0; i < smp->nresults && i < 3; i++) {
		const struct wl_result *r = &smp->results[i];

		if (ops->metrics[r->metric].name[0])
			strbuf_addf(sb, "%s%s %.4g %s", i ? ", " : "", r->row, r->value,
				    ops->metrics[r->metric].unit);
		else
			strbuf_addf(sb, "%s%.4g %s", i ? ", " : "", r->value,
				    ops->metrics[r->metric].unit);
	}
	if (smp->nresults > 3)
		strbuf_addf(sb, ", ... (%d values)", smp->nresults);
	if (smp->flag[0])
		strbuf_addf(sb, " [%s]", smp->flag);
}

static int store_sample(struct store *s, int64_t run_id, const struct plan_section *ps,
			int iteration, const struct wl_sample *smp, const struct child *c,
			const struct monitor_values *mv)
{
	struct sample_record rec[WL_MAX_RESULTS];
	struct monitor_record *mon;
	struct sample_set set = { 0 };
	char row0[WL_ROW_LEN];
	int rc;

	for (int i = 0; i < smp->nresults; i++) {
		const struct wl_metric *m = &ps->ops->metrics[smp->results[i].metric];

		rec[i].row = smp->results[i].row;
		rec[i].value = smp->results[i].value;
		rec[i].unit = m->unit;
		rec[i].higher_better = m->better == WL_HIGHER;
	}
	snprintf(row0, sizeof(row0), "%s", smp->results[0].row);
	mon = calloc((size_t)smp->nextras + mv->n + 1, sizeof(*mon));
	if (!mon)
		abort();
	for (int i = 0; i < smp->nextras; i++) {
		mon[i].row = row0;
		mon[i].source = "workload";
		mon[i].key = smp->extras[i].key;
		mon[i].value = smp->extras[i].value;
	}
	/* A sample's monitor values belong to its first row, as its extras do. */
	for (size_t i = 0; i < mv->n; i++) {
		struct monitor_record *m = &mon[(size_t)smp->nextras + i];

		m->row = row0;
		m->source = mv->v[i].source;
		m->key = mv->v[i].key;
		m->value = mv->v[i].value;
	}
	set.section = ps->cs->name;
	set.workload = ps->ops->name;
	set.iteration = iteration;
	set.started_ns = c->started_ns;
	set.duration_ns = c->duration_ns;
	set.user_ns = (int64_t)c->ru.ru_utime.tv_sec * 1000000000 + c->ru.ru_utime.tv_usec * 1000;
	set.sys_ns = (int64_t)c->ru.ru_stime.tv_sec * 1000000000 + c->ru.ru_stime.tv_usec * 1000;
	set.flag = smp->flag[0] ? smp->flag : NULL;
	set.samples = rec;
	set.nsamples = (size_t)smp->nresults;
	set.monitors = mon;
	set.nmonitors = (size_t)smp->nextras + mv->n;
	rc = store_add_sample_set(s, run_id, &set);
	free(mon);
	return rc;
}

int plan_execute(struct plan *p, struct config *c, struct store *s,
		 const struct run_request *req, int64_t *run_id)
{
	struct machine_info mi;
	struct kernel_info ki;
	struct run_record rr = { 0 };
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	struct progress prog;
	struct monitor_values mv = MONITOR_VALUES_INIT;
	char uuid[37], started[32], finished[32];
	long stored = 0, failed = 0;
	int rc = -1;

	if (machine_info_load(&mi))
		return -1;
	if (kernel_info_load(&ki)) {
		machine_info_release(&mi);
		return -1;
	}
	make_uuid(uuid);
	iso_now(started, sizeof(started));
	rr.uuid = uuid;
	rr.name = req->name ? req->name : ki.release;
	rr.config_name = c->name.buf;
	rr.config_text = c->text.buf;
	rr.kbench_version = PACKAGE_VERSION;
	rr.started_at = started;
	if (store_begin_run(s, &mi, &ki, &rr, run_id))
		goto out;
	for (size_t i = 0; i < p->n; i++)
		if (store_section_facts(s, *run_id, &p->sections[i]))
			goto out;
	notice("run #%lld '%s' (%s) into %s", (long long)*run_id, rr.name, uuid, store_path(s));
	if (prepare_monitors(s, *run_id, p))
		goto out;

	stop_signal = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	progress_init(&prog, plan_total_samples(p));
	for (size_t i = 0; i < p->n && !stop_signal; i++) {
		struct plan_section *ps = &p->sections[i];

		monitor_values_reset(&mv);
		monitor_set_section_begin(ps->monitors, &mv);
		if (store_section_monitors(s, *run_id, ps, "before", &mv))
			goto interrupted;
		for (size_t r = 0; r < ps->nrows && !stop_signal; r++) {
			long long row = ps->rows[r];
			int n = ps->warmup + ps->iterations;

			for (int it = 0; it < n && !stop_signal; it++) {
				int warm = it < ps->warmup;
				int k = warm ? it + 1 : it - ps->warmup + 1;
				int kn = warm ? ps->warmup : ps->iterations;
				struct wl_sample smp;
				struct child ch;
				struct strbuf reason = STRBUF_INIT, res = STRBUF_INIT;
				char rowtxt[32];

				progress_start(&prog, ps->cs->name, ps->ops->row_option, row, k, kn, warm);
				monitor_values_reset(&mv);
				if (run_sample_monitored(ps->ops, ps->params, row, ps->timeout_s,
							 warm ? NULL : ps->monitors, &mv, &smp, &ch,
							 &reason)) {
					if (stop_signal) {
						strbuf_release(&reason);
						break;
					}
					snprintf(rowtxt, sizeof(rowtxt), "%lld", row);
					strbuf_addf(&res, "failed: %s", reason.buf);
					progress_clear(&prog);
					warning("[%s] %s %lld sample %d: %s", ps->cs->name,
						ps->ops->row_option, row, k, reason.buf);
					if (store_add_failure(s, *run_id, ps->cs->name, rowtxt,
							      warm ? -k : k, reason.buf))
						goto interrupted;
					failed++;
				} else {
					format_result(ps->ops, &smp, &res);
					if (!warm) {
						if (store_sample(s, *run_id, ps, k, &smp, &ch, &mv))
							goto interrupted;
						stored++;
					}
				}
				progress_end(&prog, ps->cs->name, ps->ops->row_option, row, k, kn,
					     warm, res.buf, ch.duration_ns);
				strbuf_release(&reason);
				strbuf_release(&res);
			}
		}
		monitor_values_reset(&mv);
		monitor_set_section_end(ps->monitors, &mv);
		if (store_section_monitors(s, *run_id, ps, "after", &mv))
			goto interrupted;
	}
	progress_clear(&prog);
	iso_now(finished, sizeof(finished));
	if (stop_signal) {
		store_finish_run(s, *run_id, "interrupted", finished);
		error("interrupted by signal %d: run #%lld kept %ld samples and is marked "
		      "interrupted", (int)stop_signal, (long long)*run_id, stored);
		rc = 128 + stop_signal;
	} else if (!stored && failed) {
		store_finish_run(s, *run_id, "failed", finished);
		error("run #%lld failed: every sample failed (see 'kbench show #%lld')",
		      (long long)*run_id, (long long)*run_id);
		rc = 1;
	} else {
		if (store_finish_run(s, *run_id, "complete", finished))
			goto out_signals;
		if (failed)
			warning("%ld samples failed; they are recorded (see 'kbench show #%lld')",
				failed, (long long)*run_id);
		rc = 0;
	}
	goto out_signals;
interrupted:
	/* The store itself failed: nothing more can be kept. */
	progress_clear(&prog);
	iso_now(finished, sizeof(finished));
	store_finish_run(s, *run_id, "failed", finished);
	rc = -1;
out_signals:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
out:
	monitor_values_release(&mv);
	machine_info_release(&mi);
	kernel_info_release(&ki);
	return rc;
}
