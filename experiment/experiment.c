/* experiment: kbench ab's arms, their rounds and their knobs, run (the
 * design is read by experiment_design.c). Each arm's
 * plan is an ordinary plan (runner/plan.c) run one round at a time by the
 * ordinary runner into the arm's run; between rounds this file switches
 * the arms' changes in and out. The knobs' original values are in the
 * store before the first write (experiment/knob.c, db/experiment.c). A kernel
 * arm's round runs in a guest booted for it (kernel/vm.c), powered off
 * after the round. */
#include "config.h"
#include "experiment/experiment.h"
#include "experiment/experiment_design.h"
#include "db/experiment.h"
#include "db/store.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/uuid.h"
#include "lib/xalloc.h"
#include "machine/hostlock.h"
#include "machine/sysinfo.h"
#include "experiment/ab_looks.h"
#include "experiment/background.h"
#include "experiment/knob.h"
#include "runner/record.h"
#include "runner/stop.h"
#include "runner/runner.h"
#include "kernel/vm.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t ab_stop;

static void on_signal(int sig)
{
	ab_stop = sig;
}

static const char *order_name(enum arm_order o)
{
	return o == ARM_ORDER_SHUFFLE ? "shuffle" : "abba";
}

/* The setting arm a gives file f: its own value, else the original. */
static const char *arm_value(const struct experiment *e, const struct arm *a, size_t f)
{
	for (size_t i = 0; i < a->nknobs; i++)
		if (a->knobs[i].file == f)
			return a->knobs[i].value;
	return e->files.v[f].original;
}

/* The values arm settings may write to knob file f, as knob_normal gives
 * them, one a line, its original left out, into out: what a restore
 * after a kill expects to find there. */
static void written_values(const struct experiment *e, size_t f, struct strbuf *out)
{
	struct strbuf v = STRBUF_INIT, orig = STRBUF_INIT;

	knob_normal(e->files.v[f].original, &orig);
	for (size_t i = 0; i < e->narms; i++) {
		const char *p;
		size_t n;

		knob_normal(arm_value(e, &e->arms[i], f), &v);
		if (!strcmp(v.buf, orig.buf))
			continue;
		for (p = out->buf, n = v.len; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
			if (!strncmp(p, v.buf, n) && (p[n] == '\n' || !p[n]))
				break;
		if (!p)
			strbuf_addf(out, "%s%s", out->len ? "\n" : "", v.buf);
	}
	strbuf_release(&v);
	strbuf_release(&orig);
}

/* ---- running it ---- */

/* Every knob file to arm a's setting (the original where a sets none),
 * each read back. Return 0, or -1 after saying which did not take. */
static int switch_in(struct experiment *e, const struct arm *a)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	for (size_t f = 0; f < e->files.n; f++) {
		if (!knob_write(e->files.v[f].path, arm_value(e, a, f), &err))
			continue;
		error("arm %s: %s", a->name, err.buf);
		rc = -1;
		break;
	}
	strbuf_release(&err);
	return rc;
}

/* Every knob back to its original value; each one restored leaves the
 * journal. Return the count that could not be restored. */
static int restore_all(struct experiment *e, struct store *s)
{
	struct strbuf err = STRBUF_INIT;
	int bad = 0;

	for (size_t f = 0; f < e->files.n; f++) {
		strbuf_reset(&err);
		if (knob_write(e->files.v[f].path, e->files.v[f].original, &err)) {
			error("cannot restore %s to '%s': %s; 'kbench recover' tries again",
			      e->files.v[f].path, e->files.v[f].original, err.buf);
			bad++;
		} else if (e->id && store_journal_forget(s, e->id, e->files.v[f].path)) {
			bad++;
		}
	}
	strbuf_release(&err);
	return bad;
}

struct busy_knob {
	const struct experiment *e;
	int busy;
};

static int check_busy(const struct journal_row *r, void *arg)
{
	struct busy_knob *b = arg;

	if (!r->here || !r->alive || knob_files_find(&b->e->files, r->path) < 0)
		return 0;
	error("%s is being changed by experiment @%lld (pid %lld), which is still at work",
	      r->path, (long long)r->experiment_id, (long long)r->pid);
	b->busy = 1;
	return 1;
}

/* Record the experiment as a new one, status running. */
static int record_experiment(struct experiment *e, struct store *s, const char *started)
{
	struct strbuf arms = STRBUF_INIT, design = STRBUF_INIT;
	struct experiment_record er = {
		.name = e->name,
		.config_name = e->conf.name.buf,
		.rounds = e->rounds,
		.arm_order = order_name(e->order),
		.has_seed = e->has_seed,
		.seed = e->seed,
		.started_at = started,
	};
	int rc;

	uuid_random(e->uuid);
	for (size_t i = 0; i < e->narms; i++)
		strbuf_addf(&arms, "%s%s", i ? " " : "", e->arms[i].name);
	er.uuid = e->uuid;
	er.arms = arms.buf;
	if (e->sequential) {
		seq_plan_format(&e->seq, &design);
		er.design = design.buf;
	}
	rc = store_begin_experiment(s, &er, &e->id);
	strbuf_release(&arms);
	strbuf_release(&design);
	return rc;
}

/* Record the experiment (mark a resumed one running again) and journal
 * every knob's original value. */
static int journal(struct experiment *e, struct store *s)
{
	struct knob_original *ko = xcalloc(e->files.n + 1, sizeof(*ko));
	struct strbuf *written = xcalloc(e->files.n + 1, sizeof(*written));
	struct busy_knob busy = { .e = e };
	struct run_writer w;
	char started[32], *host = sysinfo_hostname();
	int rc = -1;

	if (store_each_journal(s, check_busy, &busy) < 0 || busy.busy)
		goto out;
	clock_iso_utc(started, sizeof(started), time(NULL));
	if (e->resumed ? store_resume_experiment(s, e->id) : record_experiment(e, s, started))
		goto out;
	for (size_t f = 0; f < e->files.n; f++) {
		strbuf_init(&written[f]);
		written_values(e, f, &written[f]);
		ko[f] = (struct knob_original){ .path = e->files.v[f].path,
						.original = e->files.v[f].original,
						.written = written[f].buf };
	}
	run_writer_self(&w);
	rc = store_journal_knobs(s, e->id, ko, e->files.n, host, &w, started);
out:
	for (size_t f = 0; f < e->files.n; f++)
		strbuf_release(&written[f]);
	free(written);
	free(host);
	free(ko);
	return rc;
}

struct arm_facts {
	struct experiment *e;
	struct arm *a;
	size_t index;
};

/* The facts of an arm's run: the experiment, the arm, its keys and the
 * value every knob file read back after the arm was switched in. */
static int arm_facts(struct store *s, int64_t run_id, void *arg)
{
	struct arm_facts *af = arg;
	struct strbuf k = STRBUF_INIT, v = STRBUF_INIT;
	int rc = -1;

	strbuf_addf(&v, "%lld", (long long)af->e->id);
	if (store_add_meta(s, run_id, "", "experiment", v.buf) ||
	    store_add_meta(s, run_id, "", "experiment-uuid", af->e->uuid) ||
	    store_add_meta(s, run_id, "", "arm", af->a->name) ||
	    store_add_meta(s, run_id, "", "arm-order", order_name(af->e->order)))
		goto out;
	for (size_t i = 0; i < af->a->nkeys; i++) {
		strbuf_reset(&k);
		strbuf_addf(&k, "arm %s", af->a->keys[i].key);
		if (store_add_meta(s, run_id, "", k.buf, af->a->keys[i].value))
			goto out;
	}
	/* What was asked of every arm, for a resume to ask it again. */
	for (size_t i = 0; i < af->e->noverrides; i++)
		if (store_add_meta(s, run_id, "", "experiment-override", af->e->overrides[i]))
			goto out;
	if (af->e->only && store_add_meta(s, run_id, "", "experiment-only", af->e->only))
		goto out;
	if ((af->e->arms_text &&
	     store_add_meta(s, run_id, "", "experiment-arms", af->e->arms_text)) ||
	    (af->e->guest_text &&
	     store_add_meta(s, run_id, "", "experiment-guest", af->e->guest_text)))
		goto out;
	if (af->e->sequential) {
		strbuf_reset(&v);
		seq_plan_format(&af->e->seq, &v);
		if (store_add_meta(s, run_id, "", "experiment-design", v.buf) ||
		    (af->e->watch &&
		     store_add_meta(s, run_id, "", "experiment-watch", af->e->watch)))
			goto out;
	}
	if (af->e->iterations) {
		strbuf_reset(&v);
		strbuf_addf(&v, "%d", af->e->iterations);
		if (store_add_meta(s, run_id, "", "experiment-iterations", v.buf))
			goto out;
	}
	for (size_t f = 0; f < af->e->files.n; f++) {
		const char *path = af->e->files.v[f].path;

		strbuf_reset(&k);
		strbuf_addf(&k, "knob %s", path);
		if (knob_read(path, &v)) {
			error("cannot read %s back: %s", path, strerror(errno));
			goto out;
		}
		if (store_add_meta(s, run_id, "", k.buf, v.buf))
			goto out;
	}
	af->a->run_id = run_id;
	rc = 0;
out:
	strbuf_release(&k);
	strbuf_release(&v);
	return rc;
}

/* Set (set 1) or unset the environment of arm a; the values it replaces
 * are kept in saved (one per variable, NULL when unset). */
static void arm_env(const struct arm *a, int set, char **saved)
{
	for (size_t i = 0; i < a->nenv; i++) {
		const char *eq = strchr(a->env[i], '=');
		char *name = xstrndup(a->env[i], (size_t)(eq - a->env[i]));

		if (set) {
			const char *old = getenv(name);

			saved[i] = old ? xstrdup(old) : NULL;
			setenv(name, eq + 1, 1);
		} else {
			if (saved[i])
				setenv(name, saved[i], 1);
			else
				unsetenv(name);
			free(saved[i]);
			saved[i] = NULL;
		}
		free(name);
	}
}

/* Boot kernel arm a's guest for round r into *vm, with its boot time in
 * tag (the progress line). What auto found holds for every arm's boots
 * that follow: KVM is not probed again where it failed. Return 0, -1
 * after an error (the guest did not come up), or 128+N when signal N
 * stopped the boot (QEMU is gone at once). */
static int boot_arm(struct experiment *e, struct arm *a, int r, struct vm **vm,
		    struct strbuf *tag)
{
	notice("round %d/%d %s: booting %s%s%s", r, e->rounds, a->name, a->vm->kernel,
	       a->vm->append ? " " : "", a->vm->append ? a->vm->append : "");
	/* A stop signal ends the boot at once, not after it. */
	a->vm->stop = &ab_stop;
	if (vm_boot(a->vm, vm)) {
		if (ab_stop) {
			notice("arm %s: its boot in round %d was interrupted by signal %d: QEMU "
			       "was stopped", a->name, r, (int)ab_stop);
			return 128 + ab_stop;
		}
		error("arm %s: the guest did not boot in round %d", a->name, r);
		return -1;
	}
	for (size_t i = 0; i < e->narms; i++)
		if (e->arms[i].vm && !strcmp(e->arms[i].vm->accel, "auto"))
			e->arms[i].vm->accel = vm_accel(*vm);
	strbuf_addf(tag, " (boot %.1f s)", vm_boot_s(*vm));
	return 0;
}

/* How round r's boot went, as facts of the arm's run: its time,
 * vm.boot_s.round-R (every round's: the run's vm.boot_s is its first
 * boot's), and when it needed more than one try, vm.boot_retries.round-R
 * (a later round's: the first round's boot is the run's vm.boot_retries).
 * Return 0, or -1 when they cannot be stored. */
static int boot_facts(struct store *s, int64_t run_id, int r, int first, const struct vm *vm)
{
	char key[48], n[32];

	snprintf(key, sizeof(key), "vm.boot_s.round-%d", r);
	snprintf(n, sizeof(n), "%.2f", vm_boot_s(vm));
	if (store_add_meta(s, run_id, "", key, n))
		return -1;
	if (first || !vm_boot_retries(vm))
		return 0;
	snprintf(key, sizeof(key), "vm.boot_retries.round-%d", r);
	snprintf(n, sizeof(n), "%d", vm_boot_retries(vm));
	return store_add_meta(s, run_id, "", key, n) ? -1 : 0;
}

/* Stop arm a's background load after its samples of round r and store
 * how it went with run_id; rc is the round's status so far. Return 0,
 * or -1 when it ended by itself (a failed round, said here unless the
 * runner said it: rc 1) or its facts cannot be stored. */
static int stop_background(struct arm *a, struct store *s, int64_t run_id, int r, int rc)
{
	int ended = background_stop(a->bg, s, run_id, r);

	if (ended > 0 && rc != 1)
		error("arm %s: its background load %s during round %d", a->name,
		      a->bg->end.buf, r);
	return ended ? -1 : 0;
}

/* Run round r of arm a (its knobs switched in already; a kernel arm's
 * guest booted for it and powered off after, the boot outside every
 * sample). Return the runner's status (0, 1, 128+N, -1). */
static int run_arm_round(struct experiment *e, struct store *s, size_t i, int r)
{
	struct arm *a = &e->arms[i];
	struct arm_facts af = { .e = e, .a = a, .index = i };
	struct strbuf tag = STRBUF_INIT;
	char **saved = xcalloc(a->nenv + 1, sizeof(*saved));
	struct run_request req = {
		.name = a->run_name,
		.resume = a->run_id,
		.round = r,
		.next_round = a->ran_here,
		.keep_running = r < e->rounds,
		.facts = arm_facts,
		.facts_arg = &af,
	};
	int64_t run_id = 0;
	struct vm *vm = NULL;
	int rc = -1;

	strbuf_addf(&tag, "round %d/%d %s", r, e->rounds, a->name);
	if (a->bg && !a->bg->cpus && background_place(a->bg, &a->plan))
		goto out;
	if (a->bg) {
		req.around_sample = background_around_sample;
		req.around_arg = a->bg;
	}
	/* A resumed arm's round that its run holds whole is not booted
	 * again (its last round is: the run completes there). */
	if (a->vm && a->run_id && !a->ran_here && r < e->rounds) {
		int64_t left = plan_round_left(&a->plan, s, a->run_id, r);

		if (left < 0)
			goto out;
		if (!left) {
			notice("round %d/%d %s: run @%lld holds it already; not booted", r,
			       e->rounds, a->name, (long long)a->run_id);
			rc = 0;
			goto out;
		}
	}
	if (a->vm) {
		if ((rc = boot_arm(e, a, r, &vm, &tag)))
			goto out;
		req.exec = vm_executor(vm);
	}
	req.tag = tag.buf;
	arm_env(a, 1, saved);
	rc = plan_execute(&a->plan, &a->conf, s, &req, &run_id);
	arm_env(a, 0, saved);
	if (a->bg && stop_background(a, s, run_id > 0 ? run_id : a->run_id, r, rc))
		rc = -1;
	if (run_id > 0 && vm && boot_facts(s, run_id, r, !req.resume, vm))
		rc = -1;
	vm_stop(vm);
	if (run_id > 0) {
		a->run_id = run_id;
		a->ran_here = 1;
	}
out:
	free(saved);
	strbuf_release(&tag);
	return rc;
}

/* Whether an arm of e has a run: a resume has something to go on from. */
static int any_run(const struct experiment *e)
{
	for (size_t i = 0; i < e->narms; i++)
		if (e->arms[i].run_id)
			return 1;
	return 0;
}

/* Mark the runs of arms left running (an experiment stopped part way). */
static void close_runs(struct experiment *e, struct store *s, const char *status)
{
	char at[32];

	clock_iso_utc(at, sizeof(at), time(NULL));
	for (size_t i = 0; i < e->narms; i++) {
		struct run_info ri = { .id = 0 };

		if (!e->arms[i].run_id || store_get_run(s, e->arms[i].run_id, &ri))
			continue;
		if (!strcmp(ri.status, "running"))
			store_finish_run(s, e->arms[i].run_id, status, at);
		run_info_release(&ri);
	}
}

/* Take this machine's knobs (machine/hostlock.h) for e, restoring what a
 * killed holder left, then read every knob file's original value again:
 * what was read when the config was loaded may be another kbench's
 * setting, or a killed one's. Return 0, 1 when another kbench holds the
 * knobs (said), or -1 after an error. */
static int take_knobs(struct experiment *e, struct store *s)
{
	struct strbuf what = STRBUF_INIT, err = STRBUF_INIT, now = STRBUF_INIT;
	int rc;

	strbuf_addf(&what, "kbench ab, experiment '%s'", e->name);
	rc = hostlock_knobs(what.buf, store_path(s), e->wait_knobs, knob_restore_left, &err);
	if (rc) {
		error("%s", err.buf);
		goto out;
	}
	for (size_t f = 0; f < e->files.n; f++) {
		if (knob_read(e->files.v[f].path, &now)) {
			error("cannot read knob %s: %s", e->files.v[f].path, strerror(errno));
			rc = -1;
			goto out;
		}
		if (strcmp(now.buf, e->files.v[f].original))
			notice("%s reads '%s' now, '%s' when the config was read: '%s' is its "
			       "original value", e->files.v[f].path, now.buf,
			       e->files.v[f].original, now.buf);
		free(e->files.v[f].original);
		e->files.v[f].original = strbuf_detach(&now);
	}
out:
	strbuf_release(&what);
	strbuf_release(&err);
	strbuf_release(&now);
	return rc;
}

/* Say that e measures on this machine (machine/hostlock.h); each arm's
 * run says who else does. */
static void measuring(const struct experiment *e, struct store *s)
{
	struct strbuf what = STRBUF_INIT, others = STRBUF_INIT, err = STRBUF_INIT;

	strbuf_addf(&what, "kbench ab, experiment '%s'", e->name);
	if (hostlock_measure(what.buf, store_path(s), &others, &err))
		warning("cannot tell whether another kbench measures on this machine: %s",
			err.buf);
	strbuf_release(&what);
	strbuf_release(&others);
	strbuf_release(&err);
}

/* Journal every knob file's original value (and the values the arms
 * may write to it) host-wide too, so that a kbench of any store restores
 * it if this one is killed. */
static int journal_host(const struct experiment *e)
{
	struct strbuf err = STRBUF_INIT, written = STRBUF_INIT;
	int rc = 0;

	for (size_t f = 0; f < e->files.n && !rc; f++) {
		strbuf_reset(&written);
		written_values(e, f, &written);
		if (hostlock_journal(e->files.v[f].path, e->files.v[f].original, written.buf,
				     &err)) {
			error("%s", err.buf);
			rc = -1;
		}
	}
	strbuf_release(&err);
	strbuf_release(&written);
	return rc;
}

/* After round r of arm a: every knob file reads as the arm set it, or
 * something else changed it during the round, which is said and stored
 * with the arm's run (key knob-changed.round-R). Return 0, or -1 when
 * that cannot be stored. */
static int check_knobs(const struct experiment *e, const struct arm *a, struct store *s, int r)
{
	struct strbuf now = STRBUF_INIT, seen = STRBUF_INIT;
	char key[48];
	int rc = 0;

	for (size_t f = 0; f < e->files.n; f++) {
		const char *want = arm_value(e, a, f);
		int same = knob_reads(e->files.v[f].path, want, &now);

		if (same == 1)
			continue;
		if (same < 0)
			strbuf_addf(&now, "(unreadable: %s)", strerror(errno));
		warning("round %d %s: %s reads '%s' after the round, not '%s' as the arm set it: "
			"something else changed it during the round", r, a->name,
			e->files.v[f].path, now.buf, want);
		strbuf_addf(&seen, "%s%s: '%s', not '%s'", seen.len ? "; " : "",
			    e->files.v[f].path, now.buf, want);
	}
	if (seen.len && a->run_id) {
		snprintf(key, sizeof(key), "knob-changed.round-%d", r);
		rc = store_add_meta(s, a->run_id, "", key, seen.buf) ? -1 : 0;
	}
	strbuf_release(&now);
	strbuf_release(&seen);
	return rc;
}

/* Build the kernels of the arms built from a tree, or find them in the
 * kernel cache, before anything else: a build takes minutes, and one
 * that fails stops the experiment before any knob or sample. Return 0,
 * 1 after a failed build, 128+N when stopped by signal N. */
static int build_arms(struct experiment *e)
{
	struct stop_signals ss;
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	ab_stop = 0;
	stop_signals_catch(&ss, on_signal);
	for (size_t i = 0; i < e->narms && !rc; i++) {
		struct arm *a = &e->arms[i];
		struct kbuild_result res;

		/* A resumed arm whose run is complete boots no more. */
		if (!a->build || a->done)
			continue;
		a->build->stop = &ab_stop;
		a->build->progress = 1;
		strbuf_reset(&err);
		rc = kbuild_build(a->build, &res, &err);
		a->build->stop = NULL;
		if (!rc && vm_check_kernel(res.image, &err))
			rc = -1;
		if (rc) {
			error("arm %s: %s", a->name, err.buf);
			kbuild_result_release(&res);
			rc = rc >= 128 ? rc : 1;
			break;
		}
		if (res.cache_hit)
			notice("arm %s: %s (%.12s %s) from the kernel cache", a->name, res.describe,
			       res.commit, res.subject);
		else
			notice("arm %s: built %s (%.12s %s) in %dm%02ds", a->name, res.describe,
			       res.commit, res.subject, (int)res.build_s / 60,
			       (int)res.build_s % 60);
		kbuild_result_release(a->built);
		*a->built = res;
		experiment_arm_set_built(a);
	}
	stop_signals_restore(&ss);
	strbuf_release(&err);
	return rc;
}

/* End e after round r, complete: the design is cut to r rounds and every
 * arm's run, left running for the rounds that would have followed, is
 * complete. Return 0, or -1 when the store cannot say so. */
static int end_early(struct experiment *e, struct store *s, int r)
{
	int rc = store_set_experiment_rounds(s, e->id, r);

	e->rounds = r;
	for (size_t i = 0; i < e->narms && !rc; i++)
		if (e->arms[i].run_id && record_finish_run(s, e->arms[i].run_id, "complete"))
			rc = -1;
	notice("experiment @%lld ends after round %d: its rounds decided", (long long)e->id, r);
	return rc ? -1 : 0;
}

static const char *const outcome_status[] = {
	[EXPERIMENT_COMPLETE] = "complete",
	[EXPERIMENT_FAILED] = "failed",
	[EXPERIMENT_REFUSED] = "failed",
	[EXPERIMENT_STOPPED] = "interrupted",
};

int experiment_exit_status(enum experiment_outcome outcome, int signal)
{
	switch (outcome) {
	case EXPERIMENT_COMPLETE:
		return 0;
	case EXPERIMENT_REFUSED:
		return 2;
	case EXPERIMENT_STOPPED:
		return 128 + signal;
	case EXPERIMENT_FAILED:
		break;
	}
	return 1;
}

/* The outcome of the steps' status rc: 0, 2 (refused), 128+N (stopped by
 * signal N, set in *signal), anything else a failure. */
static enum experiment_outcome outcome_of(int rc, int *signal)
{
	*signal = rc >= 128 ? rc - 128 : 0;
	if (!rc)
		return EXPERIMENT_COMPLETE;
	if (rc == 2)
		return EXPERIMENT_REFUSED;
	return rc >= 128 ? EXPERIMENT_STOPPED : EXPERIMENT_FAILED;
}

int experiment_check_knobs(const struct experiment *e)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	for (size_t f = 0; f < e->files.n && !rc; f++)
		if (!knob_writable(e->files.v[f].path, &err))
			rc = error("%s; nothing was changed or run", err.buf);
	strbuf_release(&err);
	return rc;
}

/* Say what the experiment is about to run, on one line. */
static void announce(const struct experiment *e)
{
	struct strbuf from = STRBUF_INIT;
	char obuf[64];

	if (e->sequential)
		strbuf_addf(&from, "%d to ", e->seq.min_rounds);
	notice("experiment @%lld '%s' (%s)%s: %zu arms, %s%d rounds%s, order %s; %zu knob "
	       "files journalled", (long long)e->id, e->name, e->uuid, e->resumed ? " resumed" : "",
	       e->narms, from.buf, e->rounds, e->sequential ? " (sequential)" : "",
	       experiment_order_text(e, obuf, sizeof(obuf)), e->files.n);
	strbuf_release(&from);
}

/* Every arm's knobs must take, and go back, before any sample: each arm
 * switched in, then every file written back. Return 0, or 2 after
 * saying which could not. */
static int rehearse_knobs(struct experiment *e)
{
	struct strbuf err = STRBUF_INIT;
	int refused = 0, bad = 0;

	for (size_t i = 0; i < e->narms && !refused; i++)
		refused = switch_in(e, &e->arms[i]) != 0;
	for (size_t f = 0; f < e->files.n; f++) {
		strbuf_reset(&err);
		if (knob_write(e->files.v[f].path, e->files.v[f].original, &err)) {
			error("cannot restore %s to '%s': %s", e->files.v[f].path,
			      e->files.v[f].original, err.buf);
			bad++;
		}
	}
	strbuf_release(&err);
	if (!refused && !bad)
		return 0;
	error("experiment @%lld stopped before any sample: a knob cannot be %s", (long long)e->id,
	      bad ? "restored" : "set");
	return 2;
}

/* The rounds, each arm once a round in the round's order, the
 * sequential design looking after each. Return 0, 1 (a failure said) or
 * 128 + the signal that stopped it. */
static int run_rounds(struct experiment *e, struct store *s, struct ab_looks *looks)
{
	size_t *order = xcalloc(e->narms, sizeof(*order));
	int rc = 0, last = 0;	/* the last round complete */

	for (int r = 1; r <= e->rounds && !rc && !ab_stop; r++) {
		experiment_round_order(e, r, order);
		for (size_t k = 0; k < e->narms && !rc && !ab_stop; k++) {
			struct arm *a = &e->arms[order[k]];

			if (a->done)
				continue;
			if (switch_in(e, a)) {
				rc = 1;
				break;
			}
			rc = run_arm_round(e, s, order[k], r);
			if (e->files.n && rc >= 0 && rc < 128 && check_knobs(e, a, s, r))
				rc = -1;
			if (rc < 0)
				rc = 1;
			else if (rc == 1 && r < e->rounds)
				rc = 0;	/* failed samples are recorded; go on */
		}
		if (!rc && !ab_stop)
			last = r;
		if (!rc && !ab_stop && e->round_done && r < e->rounds) {
			int end = e->round_done(e, s, r, e->round_done_arg);

			if (end < 0)
				rc = 1;
			else if (end > 0 && !(rc = end_early(e, s, r)))
				last = -1;	/* decided: no last look */
		}
	}
	free(order);
	/* Its last look, which says what it cannot tell. */
	if (!rc && !ab_stop && looks && last == e->rounds &&
	    ab_looks_round_done(e, s, last, looks) < 0)
		rc = 1;
	if (ab_stop && !rc)
		rc = 128 + ab_stop;
	return rc;
}

/* After the rounds (or a stop before them) with status rc: every knob
 * restored, the runs and the experiment closed, what to do next said.
 * Return rc, made 1 where a knob could not be restored. */
static int finish(struct experiment *e, struct store *s, int rc)
{
	enum experiment_outcome outcome;
	int bad = restore_all(e, s), sig;
	char at[32];

	hostlock_knobs_release(!bad);
	if (bad) {
		error("%d knob%s could not be restored; their original values stay journalled",
		      bad, bad == 1 ? "" : "s");
		if (!rc)
			rc = 1;
	} else if (e->files.n && e->id) {
		notice("restored %zu knob file%s to their original values", e->files.n,
		       e->files.n == 1 ? "" : "s");
	}
	outcome = outcome_of(rc, &sig);
	if (e->id) {
		close_runs(e, s, outcome == EXPERIMENT_STOPPED ? "interrupted" : "failed");
		clock_iso_utc(at, sizeof(at), time(NULL));
		store_finish_experiment(s, e->id, outcome_status[outcome], at);
	}
	if (outcome == EXPERIMENT_STOPPED)
		error("experiment @%lld interrupted by signal %d%s; 'kbench ab --resume %s' runs "
		      "the rest", (long long)e->id, sig,
		      e->files.n ? "; every knob is restored" : "", e->name);
	else if (outcome == EXPERIMENT_FAILED && e->id && any_run(e))
		notice("'kbench ab --resume %s' runs the rest of experiment @%lld", e->name,
		       (long long)e->id);
	return rc;
}

/* The knobs taken (journalled, locked) or the host marked measuring.
 * Return 0, 1 or 2 (an exit status). */
static int take(struct experiment *e, struct store *s)
{
	int taken;

	/* A knob this process may not write stops it before anything. */
	if (experiment_check_knobs(e))
		return 2;
	if (!e->files.n) {
		measuring(e, s);
		return 0;
	}
	taken = take_knobs(e, s);
	return !taken ? 0 : taken > 0 ? 1 : 2;
}

int experiment_run(struct experiment *e, struct store *s)
{
	struct stop_signals ss = { .caught = { 0 } };
	enum experiment_outcome outcome;
	struct ab_looks *looks = NULL;
	int rc, sig;

	/* A sequential design looks at the rounds as they come in. */
	if (e->sequential && !e->round_done) {
		if (!(looks = ab_looks_new(e))) {
			rc = 2;
			goto out_free;
		}
		e->round_done = ab_looks_round_done;
		e->round_done_arg = looks;
	}
	if ((rc = build_arms(e)) || (rc = take(e, s)))
		goto out_free;
	ab_stop = 0;
	stop_signals_catch(&ss, on_signal);
	if (journal(e, s) || journal_host(e)) {
		rc = 1;
	} else {
		announce(e);
		rc = e->files.n ? rehearse_knobs(e) : 0;
		if (!rc)
			rc = run_rounds(e, s, looks);
	}
	rc = finish(e, s, rc);
	stop_signals_restore(&ss);
	hostlock_release();
out_free:
	if (looks) {
		ab_looks_free(looks);
		e->round_done = NULL;
		e->round_done_arg = NULL;
	}
	outcome = outcome_of(rc, &sig);
	return experiment_exit_status(outcome, sig);
}
