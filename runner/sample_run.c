/* runner/sample_run: one sample, in the lean kbench-sample (sampler/)
 * forked by one such program serving the run (lib/child.c), or in a
 * forked child for the external workload, with its monitors around it
 * and a timeout. */
#include "config.h"
#include "runner/sample_run.h"
#include "runner/runner.h"
#include "lib/child.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "monitors/monitor.h"
#include "sampler/sample.h"
#include "workloads/params.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* While a plan runs, its samples are forked by one kbench-sample serving
 * them all (child_serve_held), not each spawned: a fork of that small
 * process instead of an exec per sample. Direct mode spawns its one. */
static struct child_server server = CHILD_SERVER_INIT;
static int serving;

/* ---- one sample ---- */

struct sample_job_arg {
	const struct wl_params *params;
	long long row;
};

/* In the forked child: the external workload runs here (its patterns
 * need PCRE2, which kbench-sample does not link). */
static int sample_child(void *arg, int fd)
{
	const struct sample_job_arg *job = arg;

	return sample_run(job->params, job->row, fd) ? 1 : 0;
}

/* Start the sample's process held through the run's server, started
 * (again) as needed: as child_serve_held() returns, 0, 2 (it cannot
 * serve here: spawn instead) or -1 with the reason in reason. */
static int serve_sample(const char *prog, int jfd, struct child *c, struct strbuf *reason)
{
	for (int tries = 0; tries < 2; tries++) {
		int rc;

		if (server.fd < 0 && child_server_start(&server, prog, reason))
			return -1;
		/* From its start: a sample that failed on the way may have
		 * read it (the offset is shared). */
		lseek(jfd, 0, SEEK_SET);
		rc = child_serve_held(c, &server, jfd, reason);
		if (rc == 0 || rc == -1)
			return rc;
		child_server_stop(&server);
		if (rc == 2)
			return 2;
	}
	strbuf_addf(reason, "the sample program '%s' stopped serving samples", prog);
	return -1;
}

/* Start the sample's process held: kbench-sample spawned with the job for
 * the drivers it has (so that the sample and its workers carry none of
 * kbench's libraries, and kbench is not copied), else a forked child.
 * Return 0, or -1 with the reason in reason. */
static int start_sample(const struct workload_ops *ops, struct sample_job_arg *job,
			struct child *c, struct strbuf *reason)
{
	char job_arg[32], *args[] = { (char *)sample_program_name(), job_arg, NULL };
	const char *prog;
	int jfd, rc;

	if (!sample_execs(ops)) {
		struct strbuf why = STRBUF_INIT;

		rc = child_start_held(c, sample_child, job, &why);
		if (rc)
			strbuf_addf(reason, "cannot start the sample's process: %s", why.buf);
		strbuf_release(&why);
		return rc;
	}
	if (!(prog = sample_program(reason)))
		return -1;
	if ((jfd = sample_job_file(job->params, job->row, reason)) < 0)
		return -1;
	if (serving) {
		rc = serve_sample(prog, jfd, c, reason);
		if (rc != 2) {
			close(jfd);
			return rc;
		}
		/* It cannot serve here: spawn this sample and the rest. */
		notice("%s; each sample is spawned instead", reason->buf);
		strbuf_reset(reason);
		serving = 0;
		lseek(jfd, 0, SEEK_SET);
	}
	snprintf(job_arg, sizeof(job_arg), "--job-fd=%d", jfd);
	rc = child_spawn_held(c, prog, args, &jfd, 1, reason);
	close(jfd);
	return rc;
}

/* run_sample() with the monitors of ms around it (NULL: none): they are
 * read before the fork, attached to the held child, and read after the
 * reap; their values are added to mv. */
int run_sample_monitored(const struct workload_ops *ops, const struct wl_params *params,
			 long long row, double timeout_s, volatile sig_atomic_t *stop,
			 struct monitor_set *ms, struct monitor_values *mv,
				struct wl_sample *out, struct child *c, struct strbuf *reason)
{
	struct sample_job_arg job = { .params = params, .row = row };
	struct strbuf buf = STRBUF_INIT, why = STRBUF_INIT;
	struct monitor_values scratch = MONITOR_VALUES_INIT;
	const struct sample_msg *msg;
	int end, released, rc = -1;

	memset(out, 0, sizeof(*out));
	/* Monitors bracket the whole life of the sample's process; the
	 * workload's timed window lies inside it. */
	monitor_set_before(ms);
	if (start_sample(ops, &job, c, reason)) {
		monitor_set_after(ms, NULL, &scratch);
		monitor_values_release(&scratch);
		return -1;
	}
	if (monitor_set_wants_attach(ms))
		monitor_set_attach(ms, c->pid);
	released = !child_release(c, &why);
	end = child_finish(c, timeout_s, stop, &buf, &why);
	monitor_set_after(ms, end == CHILD_EXITED ? &c->ru : NULL, mv ? mv : &scratch);
	monitor_values_release(&scratch);
	if (!released) {
		strbuf_addstr(reason, why.buf);
		goto out;
	}
	if (end == CHILD_TIMEOUT) {
		strbuf_addf(reason, "timed out after %g s (timeout = %g); its process group "
			    "was killed", timeout_s, timeout_s);
		goto out;
	}
	if (end == CHILD_STOPPED) {
		strbuf_addf(reason, "interrupted by signal %d", (int)*stop);
		goto out;
	}
	if (end < 0) {
		strbuf_addf(reason, "lost track of the sample's process: %s", why.buf);
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
	/* The record comes from another program (KBENCH_SAMPLE may name
	 * one of another build): counts past the arrays are refused here,
	 * so that what reads the sample may rely on them. */
	if (out->nresults > WL_MAX_RESULTS || out->nextras < 0 ||
	    out->nextras > WL_MAX_EXTRAS) {
		strbuf_addf(reason, "the sample's result record holds %d results and %d "
			    "extras (at most %d and %d): is kbench-sample of another build?",
			    out->nresults, out->nextras, WL_MAX_RESULTS, WL_MAX_EXTRAS);
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&buf);
	strbuf_release(&why);
	return rc;
}

int run_sample(const struct workload_ops *ops, const struct wl_params *params,
	       long long row, double timeout_s, struct wl_sample *out,
	       struct child *c, struct strbuf *reason)
{
	static volatile sig_atomic_t never;

	return run_sample_monitored(ops, params, row, timeout_s, &never, NULL, NULL, out, c,
				    reason);
}

void sample_serve_begin(void)
{
	serving = 1;
}

void sample_serve_end(void)
{
	serving = 0;
	child_server_stop(&server);
}
