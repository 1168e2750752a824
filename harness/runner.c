/* runner: run a plan: every sample in a forked child (harness/child.c)
 * with a timeout, recorded as it arrives (harness/record.c). SIGINT/SIGTERM
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
#include "lib/error.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "workloads/params.h"
#include "workloads/workload.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* ---- one sample ---- */

/* What the child sends back: a header, then the sample when rc is 0. */
struct sample_msg {
	int rc;
	char err[4096];		/* room for an external command's output tail */
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
	struct sample_msg *msg = xcalloc(1, sizeof(*msg));
	struct strbuf err = STRBUF_INIT;
	int rc;

	msg->rc = job->ops->run_one(job->params, job->row, &msg->sample, &err);
	if (msg->rc && !err.len)
		strbuf_addstr(&err, "the workload failed without saying why");
	snprintf(msg->err, sizeof(msg->err), "%s", err.buf);
	strbuf_release(&err);
	rc = write_full(fd, msg, sizeof(*msg)) ? 1 : 0;
	free(msg);
	return rc;
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
	struct sample_job job = { .ops = ops, .params = params, .row = row };
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

int plan_execute(struct plan *p, struct config *c, struct store *s,
		 const struct run_request *req, int64_t *run_id)
{
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	struct progress prog;
	struct monitor_values mv = MONITOR_VALUES_INIT;
	long stored = 0, failed = 0;
	int rc = -1;

	if (record_begin_run(s, p, c, req->name, run_id))
		return -1;

	stop_signal = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	progress_init(&prog, plan_total_samples(p));
	for (size_t i = 0; i < p->n && !stop_signal; i++) {
		struct plan_section *ps = &p->sections[i];

		monitor_values_reset(&mv);
		monitor_set_section_begin(ps->monitors, &mv);
		if (record_section_monitors(s, *run_id, ps, "before", &mv))
			goto interrupted;
		switch (section_begin(s, *run_id, ps)) {
		case -1:
			goto interrupted;
		case 1:
			failed++;
			continue;
		}
		for (size_t r = 0; r < ps->nrows && !stop_signal; r++) {
			long long row = ps->rows[r];
			int n = ps->warmup + ps->iterations;
			char rowtext[WL_ROW_LEN + 64];

			for (int it = 0; it < n && !stop_signal; it++) {
				int warm = it < ps->warmup;
				int k = warm ? it + 1 : it - ps->warmup + 1;
				int kn = warm ? ps->warmup : ps->iterations;
				struct wl_sample smp;
				struct child ch;
				struct strbuf reason = STRBUF_INIT, res = STRBUF_INIT;

				wl_params_row_text(ps->params, row, rowtext, sizeof(rowtext));
				progress_start(&prog, ps->cs->name, rowtext, k, kn, warm);
				monitor_values_reset(&mv);
				if (run_sample_monitored(ps->ops, ps->params, row, ps->timeout_s,
							 warm ? NULL : ps->monitors, &mv, &smp, &ch,
							 &reason)) {
					if (stop_signal) {
						strbuf_release(&reason);
						break;
					}
					/* The warning has it all; one line here. */
					strbuf_addf(&res, "failed: %.*s",
						    (int)strcspn(reason.buf, "\n"), reason.buf);
					progress_clear(&prog);
					warning("[%s] %s sample %d: %s", ps->cs->name, rowtext, k,
						reason.buf);
					if (record_failure(s, *run_id, ps, row, warm ? -k : k,
							   reason.buf))
						goto interrupted;
					failed++;
				} else {
					format_result(ps->params, &smp, &res);
					if (!warm) {
						if (record_sample(s, *run_id, ps, k, &smp, &ch, &mv))
							goto interrupted;
						stored++;
					}
				}
				progress_end(&prog, ps->cs->name, rowtext, k, kn, warm, res.buf,
					     ch.duration_ns);
				strbuf_release(&reason);
				strbuf_release(&res);
			}
		}
		if (ps->ops->section_end)
			ps->ops->section_end(ps->params);
		monitor_values_reset(&mv);
		monitor_set_section_end(ps->monitors, &mv);
		if (record_section_monitors(s, *run_id, ps, "after", &mv))
			goto interrupted;
	}
	progress_clear(&prog);
	if (stop_signal) {
		record_finish_run(s, *run_id, "interrupted");
		error("interrupted by signal %d: run #%lld kept %ld samples and is marked "
		      "interrupted", (int)stop_signal, (long long)*run_id, stored);
		rc = 128 + stop_signal;
	} else if (!stored && failed) {
		record_finish_run(s, *run_id, "failed");
		error("run #%lld failed: every sample failed (see 'kbench show #%lld')",
		      (long long)*run_id, (long long)*run_id);
		rc = 1;
	} else {
		if (record_finish_run(s, *run_id, "complete"))
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
	record_finish_run(s, *run_id, "failed");
	rc = -1;
out_signals:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	monitor_values_release(&mv);
	return rc;
}
