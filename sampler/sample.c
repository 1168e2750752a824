/* sample: run one sample in this process, or write the job that carries
 * a workload's options and pin plan to kbench-sample (NUL-terminated
 * "key=value" records in a memory file). */
#include "config.h"
#include "sampler/sample.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "machine/pin.h"
#include "workloads/params.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SAMPLE_PROGRAM "kbench-sample"
#define SAMPLE_JOB_MAGIC "kbench-sample-job 1"

extern const struct workload_ops hackbench_ops;
extern const struct workload_ops netperf_ops;
extern const struct workload_ops pft_ops;

/* The drivers kbench-sample runs. */
static const struct workload_ops *const sample_workloads[] = {
	&hackbench_ops,
	&netperf_ops,
	&pft_ops,
	NULL
};

int sample_execs(const struct workload_ops *ops)
{
	for (int i = 0; sample_workloads[i]; i++)
		if (sample_workloads[i] == ops)
			return 1;
	return 0;
}

static int executable(const char *path)
{
	return !access(path, X_OK);
}

const char *sample_program(struct strbuf *err)
{
	static char *found;
	const char *env = getenv("KBENCH_SAMPLE");
	char self[PATH_MAX];
	struct strbuf next = STRBUF_INIT;
	ssize_t n;

	if (found)
		return found;
	if (env && *env) {
		if (!executable(env)) {
			strbuf_addf(err, "KBENCH_SAMPLE names '%s', which cannot be run: %s",
				    env, strerror(errno));
			return NULL;
		}
		found = xstrdup(env);
		return found;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		char *slash;

		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash)
			slash[1] = '\0';
		strbuf_addf(&next, "%s%s", slash ? self : "./", SAMPLE_PROGRAM);
		if (executable(next.buf)) {
			found = strbuf_detach(&next);
			return found;
		}
	}
	if (executable(KBENCH_PKGLIBEXECDIR "/" SAMPLE_PROGRAM)) {
		found = xstrdup(KBENCH_PKGLIBEXECDIR "/" SAMPLE_PROGRAM);
		strbuf_release(&next);
		return found;
	}
	strbuf_addf(err, "cannot find the sample program '%s': not at '%s' nor in '%s' "
		    "(install kbench, or set KBENCH_SAMPLE to its path)", SAMPLE_PROGRAM,
		    next.len ? next.buf : "/proc/self/exe", KBENCH_PKGLIBEXECDIR);
	strbuf_release(&next);
	return NULL;
}

int sample_fail(int fd, const char *why)
{
	struct sample_msg *msg = xcalloc(1, sizeof(*msg));
	int rc;

	msg->rc = -1;
	snprintf(msg->err, sizeof(msg->err), "%s", why);
	rc = write_full(fd, msg, sizeof(*msg)) ? -1 : 0;
	free(msg);
	return rc;
}

int sample_run(const struct wl_params *p, long long row, int fd)
{
	struct sample_msg *msg = xcalloc(1, sizeof(*msg));
	struct strbuf err = STRBUF_INIT;
	int rc;

	msg->rc = p->ops->run_one(p, row, &msg->sample, &err);
	if (msg->rc && !err.len)
		strbuf_addstr(&err, "the workload failed without saying why");
	snprintf(msg->err, sizeof(msg->err), "%s", err.buf);
	strbuf_release(&err);
	rc = write_full(fd, msg, sizeof(*msg)) ? -1 : 0;
	free(msg);
	return rc;
}

static void add_record(struct strbuf *job, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add_record(struct strbuf *job, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(job, fmt, ap);
	va_end(ap);
	strbuf_addch(job, '\0');
}

struct encoding {
	const struct wl_params *p;
	struct strbuf *job;
};

/* Only the options the user gave travel: kbench-sample fills the rest
 * from their defaults as kbench did, so wl_given() reads the same. */
static int add_option(const char *key, const char *text, void *arg)
{
	struct encoding *e = arg;

	if (wl_params_given(e->p, key))
		add_record(e->job, "opt=%s=%s", key, text);
	return 0;
}

static void job_encode(const struct wl_params *p, long long row, struct strbuf *job)
{
	struct encoding e = { .p = p, .job = job };

	add_record(job, "%s", SAMPLE_JOB_MAGIC);
	add_record(job, "workload=%s", p->ops->name);
	add_record(job, "row=%lld", row);
	if (p->pin) {
		strbuf_addf(job, "pin=%s %d %d %d", p->pin->policy, (int)p->pin->kind,
			    p->pin->binds, p->pin->nslots);
		for (int i = 0; i < p->pin->nslots; i++)
			strbuf_addf(job, " %d:%d", p->pin->slots[i].os_index,
				    p->pin->slots[i].logical_index);
		strbuf_addch(job, '\0');
	}
	wl_params_each(p, add_option, &e);
}

int sample_job_file(const struct wl_params *p, long long row, struct strbuf *err)
{
	struct strbuf job = STRBUF_INIT;
	int fd;

	job_encode(p, row, &job);
	/* A memory file, not a pipe: no size limit, and nothing to pump. */
	fd = memfd_create(SAMPLE_PROGRAM, MFD_CLOEXEC);
	if (fd < 0 || write_full(fd, job.buf, job.len) || lseek(fd, 0, SEEK_SET)) {
		strbuf_addf(err, "cannot write the sample's options for '%s': %s",
			    SAMPLE_PROGRAM, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	strbuf_release(&job);
	return fd;
}

const char *sample_program_name(void)
{
	return SAMPLE_PROGRAM;
}

static const struct workload_ops *find_workload(const char *name)
{
	for (int i = 0; sample_workloads[i]; i++)
		if (!strcmp(sample_workloads[i]->name, name))
			return sample_workloads[i];
	return NULL;
}

/* "pin=POLICY KIND BINDS NSLOTS OS:LOGICAL..." */
static int decode_pin(const char *v, struct sample_job *job, struct strbuf *err)
{
	char policy[64];
	int kind, binds, nslots, used;
	struct pin_plan *plan;
	const char *s;

	if (job->pin || sscanf(v, "%63s %d %d %d%n", policy, &kind, &binds, &nslots, &used) != 4 ||
	    nslots < 0 || nslots > 1 << 20)
		goto bad;
	plan = xcalloc(1, sizeof(*plan));
	job->pin = plan;
	job->policy = xstrdup(policy);
	plan->policy = job->policy;
	plan->kind = (enum pin_kind)kind;
	plan->binds = binds;
	plan->slots = xcalloc((size_t)nslots + 1, sizeof(*plan->slots));
	for (s = v + used; plan->nslots < nslots; s += used, plan->nslots++) {
		struct pin_slot *slot = &plan->slots[plan->nslots];

		if (sscanf(s, " %d:%d%n", &slot->os_index, &slot->logical_index, &used) != 2)
			goto bad;
	}
	if (!*s)
		return 0;
bad:
	strbuf_addf(err, "bad pin record 'pin=%s'", v);
	return -1;
}

int sample_job_decode(const char *buf, size_t len, struct sample_job *job,
		      struct strbuf *err)
{
	const char *end = buf + len, *rec = buf;
	int first = 1, rc = -1;

	memset(job, 0, sizeof(*job));
	if (!len || buf[len - 1]) {
		strbuf_addstr(err, "the job is empty or cut short");
		return -1;
	}
	for (; rec < end; rec += strlen(rec) + 1, first = 0) {
		const char *eq = strchr(rec, '=');
		const char *v = eq ? eq + 1 : "";
		size_t klen = eq ? (size_t)(eq - rec) : strlen(rec);

		if (first) {
			if (strcmp(rec, SAMPLE_JOB_MAGIC)) {
				strbuf_addf(err, "not a job of this version: '%s', expected '%s'",
					    rec, SAMPLE_JOB_MAGIC);
				goto out;
			}
		} else if (klen == 8 && !strncmp(rec, "workload", 8)) {
			const struct workload_ops *ops = find_workload(v);

			if (!ops || job->params) {
				strbuf_addf(err, "cannot run workload '%s' here", v);
				goto out;
			}
			job->params = wl_params_new(ops);
		} else if (klen == 3 && !strncmp(rec, "row", 3)) {
			char *e;

			errno = 0;
			job->row = strtoll(v, &e, 10);
			if (errno || e == v || *e) {
				strbuf_addf(err, "bad row '%s'", v);
				goto out;
			}
		} else if (klen == 3 && !strncmp(rec, "pin", 3)) {
			if (decode_pin(v, job, err))
				goto out;
		} else if (klen == 3 && !strncmp(rec, "opt", 3) && job->params && strchr(v, '=')) {
			char *key = xstrdup(v);
			int r;

			*strchr(key, '=') = '\0';
			r = wl_params_set(job->params, key, v + strlen(key) + 1, err);
			free(key);
			if (r)
				goto out;
		} else {
			strbuf_addf(err, "unknown job record '%s'", rec);
			goto out;
		}
	}
	if (!job->params) {
		strbuf_addstr(err, "the job names no workload");
		goto out;
	}
	if (wl_params_finish(job->params, err))
		goto out;
	job->params->pin = job->pin;
	rc = 0;
out:
	if (rc)
		sample_job_release(job);
	return rc;
}

void sample_job_release(struct sample_job *job)
{
	wl_params_free(job->params);
	if (job->pin)
		free(job->pin->slots);
	free(job->pin);
	free(job->policy);
	memset(job, 0, sizeof(*job));
}
