/* runner: run a plan: every sample in a forked child (harness/child.c)
 * that execs the lean kbench-sample (sampler/), with a timeout, recorded
 * as it arrives (harness/record.c). SIGINT/SIGTERM
 * stop the sample in flight, kill its process group and mark the run
 * interrupted; nothing measured is lost. */
#include "config.h"
#include "harness/runner.h"
#include "harness/child.h"
#include "harness/conf.h"
#include "harness/monitor.h"
#include "harness/plan.h"
#include "harness/progress.h"
#include "harness/record.h"
#include "db/store.h"
#include "sampler/sample.h"
#include "lib/error.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "workloads/params.h"
#include "workloads/workload.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* ---- one sample ---- */

struct sample_job_arg {
	const struct wl_params *params;
	long long row;
	const char *prog;	/* kbench-sample, or NULL: run in the child */
};

/* In the forked child: exec the lean sample program, so that the sample
 * and its workers carry none of kbench's libraries (sampler/sample.h). */
static int sample_child(void *arg, int fd)
{
	const struct sample_job_arg *job = arg;

	if (job->prog)
		return sample_exec(job->prog, job->params, job->row, fd);
	return sample_run(job->params, job->row, fd) ? 1 : 0;
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
	struct sample_job_arg job = { .params = params, .row = row };
	struct strbuf buf = STRBUF_INIT;
	struct monitor_values scratch = MONITOR_VALUES_INIT;
	const struct sample_msg *msg;
	int held = monitor_set_wants_attach(ms);
	int end, rc = -1;

	memset(out, 0, sizeof(*out));
	if (sample_execs(ops) && !(job.prog = sample_program(reason)))
		return -1;
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
		if (WIFSIGNALED(c->status))
			strbuf_addstr(reason, "was ");
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

static void format_result(const struct wl_params *params, const struct wl_sample *smp,
			  struct strbuf *sb)
{
	for (int i = 0; i < smp->nresults && i < 3; i++) {
		const struct wl_result *r = &smp->results[i];
		const struct wl_metric *m = &params->metrics[r->metric];

		if (m->name[0])
			strbuf_addf(sb, "%s%s %.4g %s", i ? ", " : "", r->row, r->value, m->unit);
		else
			strbuf_addf(sb, "%s%.4g %s", i ? ", " : "", r->value, m->unit);
	}
	if (smp->nresults > 3)
		strbuf_addf(sb, ", ... (%d values)", smp->nresults);
	if (smp->flag[0])
		strbuf_addf(sb, " [%s]", smp->flag);
}

/* Start what the samples of ps need around them (an external workload's
 * server). Return 0 to run them; 1 when it failed, recorded as one failed
 * sample of the section's first row, so that the section is skipped; -1
 * when the store failed. */
static int section_begin(struct store *s, int64_t run_id, const struct plan_section *ps)
{
	struct strbuf err = STRBUF_INIT, reason = STRBUF_INIT;
	int rc;

	if (!ps->ops->section_begin || !ps->ops->section_begin(ps->params, &err))
		return 0;
	strbuf_addf(&reason, "no sample of [%s] ran: %s", ps->cs->name, err.buf);
	warning("%s", reason.buf);
	rc = record_failure(s, run_id, ps, ps->rows[0], 1, reason.buf) ? -1 : 1;
	strbuf_release(&err);
	strbuf_release(&reason);
	return rc;
}

/* A run being executed: where it goes and how far it got. */
struct run_exec {
	struct plan *p;
	struct store *s;
	int64_t run_id;
	struct run_info info;		/* as stored: what a recovery file copies */
	struct progress prog;
	struct monitor_values mv;
	/* Resumed: per section, rows x iterations, 1 where the store holds
	 * that sample already; NULL for a new run. */
	unsigned char **done;
	long stored, failed;		/* samples stored and failed by this process */
	long before;			/* samples of the plan stored before a resume */
	struct record_recovery rec;	/* made when the store fails */
	int rec_tried;			/* rec was made, or could not be */
	int saved;			/* things written to the recovery file */
};

/* The store failed: make the recovery file (once) for what it could not
 * take. Return the file's store, or NULL when none could be made. */
static struct store *recovery(struct run_exec *x)
{
	if (!x->rec_tried) {
		x->rec_tried = 1;
		if (record_recovery_open(store_path(x->s), &x->info, x->p, &x->rec))
			return NULL;
	}
	return x->rec.s;
}

/* Set the run's final status; when the store cannot take even that, the
 * recovery file carries it. Return 0 when the store took it. */
static int finish(struct run_exec *x, const char *status)
{
	if (!record_finish_run(x->s, x->run_id, status))
		return 0;
	if (recovery(x))
		x->saved++;
	return -1;
}

/* Stored results name their row last, after any "name-" (workload.h):
 * "4", "send-64", "system-2", "tput-clients-4". Whether text is a result
 * of the row labelled label. */
static int row_matches(const char *text, const char *label)
{
	size_t n = strlen(text), l = strlen(label);

	return n == l ? !strcmp(text, label) :
	       n > l && text[n - l - 1] == '-' && !strcmp(text + n - l, label);
}

static int mark_done(const char *section, const char *rowtext, int iteration, void *arg)
{
	struct run_exec *x = arg;

	for (size_t i = 0; i < x->p->n; i++) {
		const struct plan_section *ps = &x->p->sections[i];

		if (strcmp(ps->cs->name, section) || iteration < 1 || iteration > ps->iterations)
			continue;
		for (size_t r = 0; r < ps->nrows; r++) {
			unsigned char *d = &x->done[i][r * (size_t)ps->iterations + (size_t)iteration - 1];
			char label[WL_ROW_LEN + 64];

			wl_params_row_label(ps->params, ps->rows[r], label, sizeof(label));
			if (!*d && row_matches(rowtext, label)) {
				*d = 1;
				x->before++;
			}
		}
	}
	return 0;
}

static size_t row_left(const struct run_exec *x, size_t i, size_t r)
{
	const struct plan_section *ps = &x->p->sections[i];
	size_t left = 0;

	for (int it = 0; it < ps->iterations; it++)
		left += !x->done || !x->done[i][r * (size_t)ps->iterations + (size_t)it];
	return left;
}

/* What the store holds of a resumed run, and what is left to run. */
static int load_done(struct run_exec *x)
{
	x->done = xcalloc(x->p->n, sizeof(*x->done));
	for (size_t i = 0; i < x->p->n; i++)
		x->done[i] = xcalloc(x->p->sections[i].nrows * (size_t)x->p->sections[i].iterations
				     + 1, 1);
	return store_each_sample_key(x->s, x->run_id, mark_done, x);
}

/* Samples this process will run, warm-up included: a row with nothing
 * left is skipped whole, one with samples left runs its warm-up again. */
static int64_t samples_to_run(const struct run_exec *x)
{
	int64_t total = 0;

	for (size_t i = 0; i < x->p->n; i++)
		for (size_t r = 0; r < x->p->sections[i].nrows; r++) {
			size_t left = row_left(x, i, r);

			if (left)
				total += (int64_t)left + x->p->sections[i].warmup;
		}
	return total;
}

/* Run the samples of ps's row r that the run lacks. Return 0, 1 when the
 * store failed, or when a signal stopped it with stop_signal set. */
static int run_row(struct run_exec *x, size_t i, size_t r)
{
	struct plan_section *ps = &x->p->sections[i];
	long long row = ps->rows[r];
	int n = ps->warmup + ps->iterations;

	for (int it = 0; it < n && !stop_signal; it++) {
		int warm = it < ps->warmup;
		int k = warm ? it + 1 : it - ps->warmup + 1;
		int kn = warm ? ps->warmup : ps->iterations;
		struct wl_sample smp;
		struct child ch;
		struct strbuf reason = STRBUF_INIT, res = STRBUF_INIT;
		struct store *rs;
		char rowtext[WL_ROW_LEN + 64];
		int rc = 0;

		if (!warm && x->done && x->done[i][r * (size_t)ps->iterations + (size_t)k - 1])
			continue;
		wl_params_row_text(ps->params, row, rowtext, sizeof(rowtext));
		progress_start(&x->prog, ps->cs->name, rowtext, k, kn, warm);
		monitor_values_reset(&x->mv);
		if (run_sample_monitored(ps->ops, ps->params, row, ps->timeout_s,
					 warm ? NULL : ps->monitors, &x->mv, &smp, &ch, &reason)) {
			if (stop_signal)
				goto next;
			/* The warning has it all; one line here. */
			strbuf_addf(&res, "failed: %.*s", (int)strcspn(reason.buf, "\n"), reason.buf);
			progress_clear(&x->prog);
			warning("[%s] %s sample %d: %s", ps->cs->name, rowtext, k, reason.buf);
			if (record_failure(x->s, x->run_id, ps, row, warm ? -k : k, reason.buf)) {
				if ((rs = recovery(x)) &&
				    !record_failure(rs, x->rec.run_id, ps, row, warm ? -k : k, reason.buf))
					x->saved++;
				rc = 1;
				goto next;
			}
			x->failed++;
		} else {
			format_result(ps->params, &smp, &res);
			/* The sample in hand goes to the recovery file when the
			 * store cannot take it. */
			if (!warm && record_sample(x->s, x->run_id, ps, k, &smp, &ch, &x->mv)) {
				if ((rs = recovery(x)) &&
				    !record_sample(rs, x->rec.run_id, ps, k, &smp, &ch, &x->mv))
					x->saved++;
				rc = 1;
				goto next;
			}
			x->stored += !warm;
		}
		progress_end(&x->prog, ps->cs->name, rowtext, k, kn, warm, res.buf,
			     ch.duration_ns);
next:
		strbuf_release(&reason);
		strbuf_release(&res);
		if (rc)
			return rc;
	}
	return 0;
}

/* Section monitor figures `when` ("before", "after"), into the recovery
 * file when the store cannot take them. Return 0, or 1 when the store
 * failed. */
static int section_monitors(struct run_exec *x, const struct plan_section *ps, const char *when)
{
	struct store *rs;

	if (!record_section_monitors(x->s, x->run_id, ps, when, &x->mv))
		return 0;
	if ((rs = recovery(x)) && !record_section_monitors(rs, x->rec.run_id, ps, when, &x->mv))
		x->saved++;
	return 1;
}

/* Run every section of the plan with samples left. Return 0, or 1 when
 * the store failed (a signal leaves stop_signal set). */
static int run_sections(struct run_exec *x)
{
	for (size_t i = 0; i < x->p->n && !stop_signal; i++) {
		struct plan_section *ps = &x->p->sections[i];
		size_t left = 0;

		for (size_t r = 0; r < ps->nrows; r++)
			left += row_left(x, i, r);
		if (!left)
			continue;
		monitor_values_reset(&x->mv);
		monitor_set_section_begin(ps->monitors, &x->mv);
		/* A section resumed part way keeps the figures from before its
		 * first sample. */
		if (left == ps->nrows * (size_t)ps->iterations && section_monitors(x, ps, "before"))
			return 1;
		switch (section_begin(x->s, x->run_id, ps)) {
		case -1:
			return 1;
		case 1:
			x->failed++;
			continue;
		}
		for (size_t r = 0; r < ps->nrows && !stop_signal; r++)
			if (row_left(x, i, r) && run_row(x, i, r)) {
				if (ps->ops->section_end)
					ps->ops->section_end(ps->params);
				return 1;
			}
		if (ps->ops->section_end)
			ps->ops->section_end(ps->params);
		monitor_values_reset(&x->mv);
		monitor_set_section_end(ps->monitors, &x->mv);
		if (section_monitors(x, ps, "after"))
			return 1;
	}
	return 0;
}

/* The store failed: keep what it holds, say what became of the rest. */
static void report_store_failure(struct run_exec *x)
{
	int marked = !record_finish_run(x->s, x->run_id, "failed");

	record_recovery_close(&x->rec, "failed");
	error("run #%lld stopped because its store failed; the %ld samples stored before "
	      "are kept", (long long)x->run_id, x->stored + x->before);
	if (x->saved)
		error("what it could not store is saved in %s: load it with 'kbench recover %s'",
		      x->rec.path.buf, x->rec.path.buf);
	else
		error("what it could not store is lost: no recovery file could be written");
	if (marked)
		error("run #%lld is marked failed; 'kbench run --resume #%lld' runs the rest",
		      (long long)x->run_id, (long long)x->run_id);
	else
		error("run #%lld could not be marked failed: it reads as interrupted once this "
		      "process has ended", (long long)x->run_id);
}

/* Where nothing measured is at stake (the end of the run), the status the
 * store could not take is in the recovery file. */
static void report_unfinished(struct run_exec *x, const char *status)
{
	record_recovery_close(&x->rec, status);
	if (x->saved)
		error("run #%lld keeps its samples but its status could not be set to %s; "
		      "'kbench recover %s' sets it", (long long)x->run_id, status, x->rec.path.buf);
}

int plan_execute(struct plan *p, struct config *c, struct store *s,
		 const struct run_request *req, int64_t *run_id)
{
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	struct run_exec x = { .p = p, .s = s, .mv = MONITOR_VALUES_INIT };
	int rc = -1;

	strbuf_init(&x.rec.path);
	*run_id = req->resume;
	if (req->resume) {
		if (record_resume_run(s, p, req->resume))
			return -1;
	} else if (record_begin_run(s, p, c, req->name, run_id)) {
		/* The run row may exist: do not leave it running. */
		if (*run_id && !record_finish_run(s, *run_id, "failed"))
			error("run #%lld could not be started; it is marked failed",
			      (long long)*run_id);
		return -1;
	}
	x.run_id = *run_id;
	if (store_get_run(s, x.run_id, &x.info) || (req->resume && load_done(&x))) {
		record_finish_run(s, x.run_id, "failed");
		goto out;
	}

	stop_signal = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	/* plan_build bounds the plan: the count fits progress's int. */
	progress_init(&x.prog, (int)samples_to_run(&x));
	if (req->resume)
		notice("run #%lld holds %ld of the plan's samples; %d to run, warm-up included",
		       (long long)x.run_id, x.before, x.prog.total);
	if (run_sections(&x)) {
		progress_clear(&x.prog);
		report_store_failure(&x);
		rc = -1;
		goto out_signals;
	}
	progress_clear(&x.prog);
	if (stop_signal) {
		if (finish(&x, "interrupted"))
			report_unfinished(&x, "interrupted");
		error("interrupted by signal %d: run #%lld kept %ld samples and is marked "
		      "interrupted", (int)stop_signal, (long long)x.run_id, x.stored + x.before);
		rc = 128 + stop_signal;
	} else if (!x.stored && !x.before && x.failed) {
		if (finish(&x, "failed"))
			report_unfinished(&x, "failed");
		error("run #%lld failed: every sample failed (see 'kbench show #%lld')",
		      (long long)x.run_id, (long long)x.run_id);
		rc = 1;
	} else {
		if (finish(&x, "complete")) {
			report_unfinished(&x, "complete");
			goto out_signals;
		}
		if (x.failed)
			warning("%ld samples failed; they are recorded (see 'kbench show #%lld')",
				x.failed, (long long)x.run_id);
		rc = 0;
	}
out_signals:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
out:
	for (size_t i = 0; x.done && i < p->n; i++)
		free(x.done[i]);
	free(x.done);
	record_recovery_release(&x.rec);
	run_info_release(&x.info);
	monitor_values_release(&x.mv);
	return rc;
}
