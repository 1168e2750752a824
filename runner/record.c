/* record: the run row, facts, monitor values, samples and failures of a
 * run, each committed as soon as it is known, so a crash loses at most the
 * sample in flight. */
#include "config.h"
#include "runner/record.h"
#include "lib/child.h"
#include "runner/conf.h"
#include "monitors/monitor.h"
#include "runner/plan.h"
#include "db/store.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/uuid.h"
#include "lib/xalloc.h"
#include "machine/pin.h"
#include "machine/sysinfo.h"
#include "workloads/params.h"
#include "workloads/workload.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The monitors of a section, stored with the run. */
static int record_monitor_facts(struct store *s, int64_t run_id, const struct plan_section *ps)
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

/* Find what each section's monitors cannot measure here, store why (s
 * NULL: a resumed run, which holds it already), and say so once per run
 * however many sections share the problem. */
static int record_prepare_monitors(struct store *s, int64_t run_id, const struct plan *p)
{
	struct strbuf said = STRBUF_INIT;
	int rc = 0;

	strbuf_addch(&said, '\n');
	for (size_t i = 0; i < p->n && !rc; i++) {
		struct monitor_facts mf = { 0 };

		monitor_set_prepare(p->sections[i].monitors, &mf);
		for (size_t j = 0; j < mf.n && !rc; j++) {
			const char *note = mf.f[j].notice;

			if (s)
				rc = store_add_meta(s, run_id, p->sections[i].cs->name,
						    mf.f[j].key, mf.f[j].value);
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
int record_section_monitors(struct store *s, int64_t run_id, const struct plan_section *ps,
			    const char *when, const struct monitor_values *mv)
{
	struct monitor_record *mon;
	struct sample_set set = { 0 };
	int rc;

	if (!mv->n)
		return 0;
	mon = xcalloc(mv->n, sizeof(*mon));
	for (size_t i = 0; i < mv->n; i++) {
		mon[i].row = when;
		mon[i].source = mv->v[i].source;
		mon[i].key = mv->v[i].key;
		mon[i].kind = mv->v[i].kind;
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

/* What rounds, sample_order and iterations = auto left of a section: only
 * what differs from the defaults, so that a plain run's facts stay as
 * they were. */
static int record_round_facts(struct store *s, int64_t run_id, const struct plan_section *ps)
{
	const char *sec = ps->cs->name;
	char buf[64];

	if (ps->auto_iterations) {
		snprintf(buf, sizeof(buf), "%g%%", ps->ci_target * 100);
		if (store_add_meta(s, run_id, sec, "ci_target", buf))
			return -1;
		snprintf(buf, sizeof(buf), "%d", ps->min_iterations);
		if (store_add_meta(s, run_id, sec, "min_iterations", buf))
			return -1;
		snprintf(buf, sizeof(buf), "%d", ps->max_iterations);
		if (store_add_meta(s, run_id, sec, "max_iterations", buf))
			return -1;
	}
	snprintf(buf, sizeof(buf), "%d", ps->rounds);
	if (ps->rounds > 1 && store_add_meta(s, run_id, sec, "rounds", buf))
		return -1;
	if (ps->order != ORDER_ROWS &&
	    store_add_meta(s, run_id, sec, "sample_order", plan_order_name(ps->order)))
		return -1;
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)ps->seed);
	if (ps->order == ORDER_SHUFFLE && store_add_meta(s, run_id, sec, "seed", buf))
		return -1;
	return 0;
}

struct option_fact {
	struct store *s;
	int64_t run_id;
	const char *section;
};

static int record_option(const char *key, const char *text, void *arg)
{
	const struct option_fact *f = arg;

	return store_add_meta(f->s, f->run_id, f->section, key, text) ? -1 : 0;
}

/* The effective options of each section, stored with the run. */
static int record_section_facts(struct store *s, int64_t run_id, const struct plan_section *ps)
{
	struct option_fact f = { .s = s, .run_id = run_id, .section = ps->cs->name };
	char buf[64];

	if (store_add_meta(s, run_id, ps->cs->name, "workload", ps->ops->name))
		return -1;
	if (wl_params_each(ps->params, record_option, &f))
		return -1;
	if (ps->pin) {
		struct strbuf pin = STRBUF_INIT;
		int rc;

		pin_plan_describe(ps->pin, &pin);
		rc = store_add_meta(s, run_id, ps->cs->name, "pin_cpus", pin.buf);
		strbuf_release(&pin);
		if (rc)
			return -1;
	}
	if (ps->auto_iterations)
		snprintf(buf, sizeof(buf), "auto");
	else
		snprintf(buf, sizeof(buf), "%d", ps->iterations);
	if (store_add_meta(s, run_id, ps->cs->name, "iterations", buf))
		return -1;
	if (record_round_facts(s, run_id, ps))
		return -1;
	snprintf(buf, sizeof(buf), "%d", ps->warmup);
	if (store_add_meta(s, run_id, ps->cs->name, "warmup", buf))
		return -1;
	snprintf(buf, sizeof(buf), "%g", ps->timeout_s);
	if (store_add_meta(s, run_id, ps->cs->name, "timeout", buf))
		return -1;
	return record_monitor_facts(s, run_id, ps);
}

/* The run's order seed, when some section shuffles. */
static int record_seed(struct store *s, int64_t run_id, const struct plan *p)
{
	char buf[32];

	if (!p->shuffled)
		return 0;
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)p->seed);
	return store_add_meta(s, run_id, "", "order-seed", buf);
}

int record_sample(struct store *s, int64_t run_id, const struct plan_section *ps,
		  int round, int iteration, const struct wl_sample *smp, const struct child *c,
		  const struct monitor_values *mv)
{
	struct sample_record rec[WL_MAX_RESULTS];
	struct monitor_record *mon;
	struct sample_set set = { 0 };
	char row0[WL_ROW_LEN];
	int rc;

	/* run_sample_monitored refuses a sample whose counts are not
	 * within these bounds. */
	assert(smp->nresults >= 1 && smp->nresults <= WL_MAX_RESULTS);
	assert(smp->nextras >= 0 && smp->nextras <= WL_MAX_EXTRAS);
	for (int i = 0; i < smp->nresults; i++) {
		const struct wl_metric *m = &ps->params->metrics[smp->results[i].metric];

		rec[i].row = smp->results[i].row;
		rec[i].value = smp->results[i].value;
		rec[i].unit = m->unit;
		rec[i].higher_better = m->better == WL_HIGHER;
	}
	snprintf(row0, sizeof(row0), "%s", smp->results[0].row);
	mon = xcalloc((size_t)smp->nextras + mv->n + 1, sizeof(*mon));
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
		m->kind = mv->v[i].kind;
		m->value = mv->v[i].value;
	}
	set.section = ps->cs->name;
	set.workload = ps->ops->name;
	set.iteration = iteration;
	set.round = round;
	set.warmup = iteration < 0;
	set.started_ns = c->started_ns;
	set.duration_ns = c->duration_ns;
	set.user_ns = (int64_t)c->ru.ru_utime.tv_sec * 1000000000 + c->ru.ru_utime.tv_usec * 1000;
	set.sys_ns = (int64_t)c->ru.ru_stime.tv_sec * 1000000000 + c->ru.ru_stime.tv_usec * 1000;
	set.flag = smp->flag[0] ? smp->flag : NULL;
	set.samples = rec;
	set.nsamples = (size_t)smp->nresults;
	set.monitors = mon;
	/* Nothing reads a warm-up's extras: they would only take room. */
	set.nmonitors = set.warmup ? 0 : (size_t)smp->nextras + mv->n;
	rc = store_add_sample_set(s, run_id, &set);
	free(mon);
	return rc;
}


int record_failure(struct store *s, int64_t run_id, const struct plan_section *ps,
		   long long row, int iteration, const char *reason)
{
	char rowtxt[WL_ROW_LEN];

	wl_params_row_label(ps->params, row, rowtxt, sizeof(rowtxt));
	return store_add_failure(s, run_id, ps->cs->name, rowtxt, iteration, reason);
}

int record_row_result(struct store *s, int64_t run_id, const struct plan_section *ps,
		      long long row, int round, int iterations, double ci_reached, int met)
{
	char rowtxt[WL_ROW_LEN];
	struct row_result r = {
		.section = ps->cs->name,
		.row = rowtxt,
		.round = round,
		.iterations = iterations,
		.ci_target = ps->ci_target,
		.ci_reached = ci_reached,
		.met = met,
	};

	wl_params_row_label(ps->params, row, rowtxt, sizeof(rowtxt));
	return store_add_row_result(s, run_id, &r);
}

/* The -o overrides of c, in the order given, as run_meta rows ('',
 * 'override'): what --resume applies again. Return 0 or -1. */
static int record_overrides(struct store *s, int64_t run_id, const struct config *c)
{
	for (size_t i = 0; i < c->noverrides; i++)
		if (store_add_meta(s, run_id, "", "override", c->overrides[i]))
			return -1;
	return 0;
}

/* The Slurm job the run is made in (SLURM_JOB_ID, as a kbench fleet job
 * runs it), as run_meta ('', 'slurm-job'): how kbench fleet status finds
 * the run of a job. Return 0 or -1. */
static int record_slurm_job(struct store *s, int64_t run_id)
{
	const char *id = getenv("SLURM_JOB_ID");

	if (!id || !*id)
		return 0;
	return store_add_meta(s, run_id, "", "slurm-job", id);
}

struct begin_facts {
	const struct plan *p;
	const struct config *c;	/* NULL: no -o overrides to record */
	int (*more)(void *arg, struct store *s, int64_t run_id);	/* or NULL */
	void *more_arg;
};

/* What a run holds from its start, written with its runs row in one
 * transaction: a kill between them would leave a run whose resume sees
 * only some of its sections or overrides. */
static int write_begin_facts(struct store *s, int64_t run_id, void *arg)
{
	const struct begin_facts *bf = arg;

	for (size_t i = 0; i < bf->p->n; i++)
		if (record_section_facts(s, run_id, &bf->p->sections[i]))
			return -1;
	if (record_seed(s, run_id, bf->p) || record_slurm_job(s, run_id))
		return -1;
	if (bf->more && bf->more(bf->more_arg, s, run_id))
		return -1;
	return bf->c ? record_overrides(s, run_id, bf->c) : 0;
}

int record_begin_run(struct store *s, const struct plan *p, const struct config *c,
		     const char *name, int64_t *run_id)
{
	return record_begin_run_on(s, p, c, name, NULL, NULL, NULL, run_id);
}

int record_begin_run_on(struct store *s, const struct plan *p, const struct config *c,
			const char *name, const struct kernel_info *guest,
			int (*facts)(void *arg, struct store *s, int64_t run_id), void *arg,
			int64_t *run_id)
{
	struct begin_facts bf = { .p = p, .c = c, .more = facts, .more_arg = arg };
	struct machine_info mi;
	struct kernel_info ki = { 0 };
	struct run_record rr = { 0 };
	struct run_writer writer;
	char uuid[37], started[32];
	int rc = -1;

	if (machine_info_load(&mi))
		return -1;
	if (!guest && kernel_info_load(&ki)) {
		machine_info_release(&mi);
		return -1;
	}
	uuid_random(uuid);
	clock_iso_utc(started, sizeof(started), time(NULL));
	rr.uuid = uuid;
	if (guest)
		guest = memcpy(&ki, guest, sizeof(ki));
	rr.name = name ? name : ki.release;
	rr.config_name = c->name.buf;
	rr.config_text = c->text.buf;
	rr.kbench_version = PACKAGE_VERSION;
	rr.started_at = started;
	run_writer_self(&writer);
	rr.writer = &writer;
	rr.facts = write_begin_facts;
	rr.facts_arg = &bf;
	if (store_begin_run(s, &mi, &ki, &rr, run_id))
		goto out;
	notice("run @%lld '%s' (%s) into %s", (long long)*run_id, rr.name, uuid, store_path(s));
	if (record_prepare_monitors(s, *run_id, p))
		goto out;
	rc = 0;
out:
	machine_info_release(&mi);
	if (!guest)
		kernel_info_release(&ki);
	return rc;
}

int record_finish_run(struct store *s, int64_t run_id, const char *status)
{
	char finished[32];

	clock_iso_utc(finished, sizeof(finished), time(NULL));
	return store_finish_run(s, run_id, status, finished);
}

int record_resume_run(struct store *s, const struct plan *p, int64_t run_id)
{
	if (store_resume_run(s, run_id))
		return -1;
	notice("run @%lld resumed in %s", (long long)run_id, store_path(s));
	return record_prepare_monitors(NULL, run_id, p);
}

/* Make a unique recovery file name in dir and create it empty. */
static int recovery_file(const char *dir, const char *uuid, struct strbuf *path)
{
	int fd;

	strbuf_reset(path);
	strbuf_addf(path, "%s/kbench-recover-%.8s-XXXXXX.db", dir, uuid);
	fd = mkstemps(path->buf, 3);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* Fill the recovery file rec->s: the run's row as ri has it, with this
 * machine and kernel, and the effective options of every section. */
static int recovery_begin(struct record_recovery *rec, const struct run_info *ri,
			  const struct plan *p)
{
	struct begin_facts bf = { .p = p, .c = NULL };
	struct machine_info mi;
	struct kernel_info ki;
	struct run_record rr = {
		.uuid = ri->uuid,
		.name = ri->name,
		.config_name = ri->config_name,
		.config_text = ri->config_text,
		.kbench_version = ri->kbench_version,
		.started_at = ri->started_at,
		.facts = write_begin_facts,
		.facts_arg = &bf,
	};
	int rc = -1;

	if (machine_info_load(&mi))
		return -1;
	if (kernel_info_load(&ki)) {
		machine_info_release(&mi);
		return -1;
	}
	if (store_begin_run(rec->s, &mi, &ki, &rr, &rec->run_id))
		goto out;
	rc = 0;
out:
	machine_info_release(&mi);
	kernel_info_release(&ki);
	return rc;
}

/* Make a recovery file beside store_path, else in $TMPDIR (or /tmp), for
 * run uuid: fill it with make(arg, path), which returns 0 or -1 after
 * saying why. rec->path is the file's; return 0, or -1 after saying why
 * none could be made. */
static int recovery_place(const char *store_path, const char *uuid,
			  int (*make)(void *arg, const char *path), void *arg,
			  struct strbuf *path)
{
	struct strbuf dir = STRBUF_INIT;
	const char *slash = strrchr(store_path, '/');
	const char *tmp = getenv("TMPDIR");
	int rc = -1;

	/* Beside the store; where that fails too (a full disk), $TMPDIR. */
	for (int attempt = 0; attempt < 2 && rc; attempt++) {
		strbuf_reset(&dir);
		if (!attempt && slash)
			strbuf_add(&dir, store_path, slash > store_path ? (size_t)(slash - store_path) : 1);
		else if (!attempt)
			strbuf_addch(&dir, '.');
		else
			strbuf_addstr(&dir, tmp && *tmp ? tmp : "/tmp");
		if (recovery_file(dir.buf, uuid, path)) {
			error("cannot create a recovery file in '%s': %s", dir.buf, strerror(errno));
			continue;
		}
		if (!make(arg, path->buf))
			rc = 0;
		else
			unlink(path->buf);
	}
	strbuf_release(&dir);
	if (rc)
		strbuf_reset(path);
	return rc;
}

struct recovery_make {
	struct record_recovery *rec;
	const struct run_info *ri;
	const struct plan *p;
};

static int make_recovery(void *arg, const char *path)
{
	struct recovery_make *m = arg;

	if (!store_create_recovery(path, &m->rec->s) && !recovery_begin(m->rec, m->ri, m->p))
		return 0;
	store_close(m->rec->s);
	m->rec->s = NULL;
	return -1;
}

int record_recovery_open(const char *store_path, const struct run_info *ri,
			 const struct plan *p, struct record_recovery *rec)
{
	struct recovery_make m = { .rec = rec, .ri = ri, .p = p };

	memset(rec, 0, sizeof(*rec));
	strbuf_init(&rec->path);
	return recovery_place(store_path, ri->uuid, make_recovery, &m, &rec->path);
}

int record_recovery_open_memory(const char *store_path, const struct run_info *ri,
				const struct plan *p, struct record_recovery *rec)
{
	memset(rec, 0, sizeof(*rec));
	strbuf_init(&rec->path);
	if (store_create_recovery(":memory:", &rec->s))
		return -1;
	if (recovery_begin(rec, ri, p)) {
		store_close(rec->s);
		rec->s = NULL;
		return -1;
	}
	rec->beside = xstrdup(store_path);
	snprintf(rec->uuid, sizeof(rec->uuid), "%s", ri->uuid);
	return 0;
}

static int save_copy(void *arg, const char *path)
{
	return store_save_copy(arg, path);
}

int record_recovery_close(struct record_recovery *rec, const char *status)
{
	int rc = 0;

	if (rec->s) {
		rc = record_finish_run(rec->s, rec->run_id, status);
		if (!rc && rec->beside)
			rc = recovery_place(rec->beside, rec->uuid, save_copy, rec->s, &rec->path);
		store_close(rec->s);
		rec->s = NULL;
	}
	return rc;
}

void record_recovery_release(struct record_recovery *rec)
{
	store_close(rec->s);
	rec->s = NULL;
	strbuf_release(&rec->path);
	free(rec->beside);
	rec->beside = NULL;
}

int record_other_system(const struct run_info *ri, int kernel, struct strbuf *why)
{
	struct machine_info mi;
	struct kernel_info ki;

	if (machine_info_load(&mi))
		return -1;
	if (kernel_info_load(&ki)) {
		machine_info_release(&mi);
		return -1;
	}
	if (strcmp(mi.fingerprint, ri->fingerprint))
		strbuf_addf(why, "it was measured on another machine ('%s')", ri->hostname);
	else if (kernel && (strcmp(ki.release, ri->kernel_release) ||
			    strcmp(ki.version, ri->kernel_version)))
		strbuf_addf(why, "it was measured on another kernel (%s, this is %s)",
			    ri->kernel_release, ki.release);
	machine_info_release(&mi);
	kernel_info_release(&ki);
	return 0;
}

void record_copy_failed(struct record_recovery *copy, int64_t run_id)
{
	warning("run @%lld keeps no copy of its samples from here on: a store found damaged "
		"later would lose them", (long long)run_id);
	record_recovery_release(copy);
}

/* The store was found damaged (truncated, replaced, corrupt): what it
 * held may be gone; the copy of all this process stored is the recovery
 * file, closed with status. */
static void report_damaged(struct store *s, int64_t run_id, struct record_recovery *rec,
			   const struct record_tally *t, const char *status)
{
	record_recovery_close(rec, status);
	error("run @%lld stopped because its store '%s' is damaged; nothing more is written "
	      "to it", (long long)run_id, store_path(s));
	if (t->saved && rec->path.len) {
		error("the %ld samples this process measured are saved in %s: load them with "
		      "'kbench recover %s' into a repaired or new store", t->stored + t->rescued,
		      rec->path.buf, rec->path.buf);
		if (t->before)
			error("the %ld samples stored before this process resumed the run were "
			      "only in the damaged store", t->before);
	} else {
		error("the %ld samples this process measured are lost: no recovery file could be "
		      "written", t->stored);
	}
}

void record_report_store_failure(struct store *s, int64_t run_id, struct record_recovery *rec,
				 const struct record_tally *t)
{
	int marked;

	if (t->damaged) {
		report_damaged(s, run_id, rec, t, "failed");
		return;
	}
	marked = !record_finish_run(s, run_id, "failed");
	record_recovery_close(rec, "failed");
	error("run @%lld stopped because its store failed; the %ld samples stored before "
	      "are kept", (long long)run_id, t->stored + t->before);
	if (t->saved)
		error("what it could not store is saved in %s: load it with 'kbench recover %s'",
		      rec->path.buf, rec->path.buf);
	else
		error("what it could not store is lost: no recovery file could be written");
	if (marked)
		error("run @%lld is marked failed; 'kbench run --resume @%lld' runs the rest",
		      (long long)run_id, (long long)run_id);
	else
		error("run @%lld could not be marked failed: it reads as interrupted once this "
		      "process has ended", (long long)run_id);
}

void record_report_unfinished(struct store *s, int64_t run_id, struct record_recovery *rec,
			      const struct record_tally *t, const char *status)
{
	if (t->damaged) {
		report_damaged(s, run_id, rec, t, status);
		return;
	}
	record_recovery_close(rec, status);
	if (t->saved)
		error("run @%lld keeps its samples but its status could not be set to %s; "
		      "'kbench recover %s' sets it", (long long)run_id, status, rec->path.buf);
}
