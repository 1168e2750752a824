/* sample: one sample of one row in a process of its own, and the lean
 * program it runs in. The runner either spawns kbench-sample (without
 * copying itself: lib/child.h), handing it a job (sample_job_file)
 * from which it rebuilds the workload's options and pin plan and calls
 * sample_run, or, for the external workload, forks a child that calls
 * sample_run itself; either way the parent reads one struct sample_msg
 * from the result pipe. kbench-sample links the drivers and libc only: a
 * worker it forks carries none of kbench's libraries. */
#ifndef KBENCH_SAMPLE_H
#define KBENCH_SAMPLE_H

#include "workloads/workload.h"

#include <stddef.h>

struct strbuf;
struct pin_plan;

/* What a sample process writes to its result pipe: a header, then the
 * sample when rc is 0. */
struct sample_msg {
	int rc;
	char err[4096];		/* room for an external command's output tail */
	struct wl_sample sample;
};

/* Whether kbench-sample has ops's driver (hackbench, netperf, pft); the
 * external workload runs in the forked child, as its patterns need PCRE2. */
int sample_execs(const struct workload_ops *ops);

/* The path of kbench-sample: $KBENCH_SAMPLE when set, else the one next
 * to the running program (an uninstalled build), else the one in the
 * configured libexec directory. Found once and remembered. Return it, or
 * NULL with the reason in err. */
const char *sample_program(struct strbuf *err);

/* Run one sample of row in this process and write its struct sample_msg
 * to fd. Return 0, or -1 when the message could not be written. */
int sample_run(const struct wl_params *p, long long row, int fd);

/* Write the struct sample_msg of a sample that failed before it ran,
 * why being the reason the parent shows. Return 0, or -1 when it could
 * not be written. */
int sample_fail(int fd, const char *why);

/* A memory file (close-on-exec, at offset 0) holding the job for one
 * sample of row with p's options and pin plan: kbench-sample reads it
 * from --job-fd. Return its descriptor, or -1 with the reason in err. */
int sample_job_file(const struct wl_params *p, long long row, struct strbuf *err);

/* "kbench-sample": the program's name, its argv[0]. */
const char *sample_program_name(void);

/* A job as kbench-sample reads it back. */
struct sample_job {
	struct wl_params *params;
	long long row;
	struct pin_plan *pin;	/* NULL: the workload has no pin option */
	char *policy;		/* pin->policy's storage */
};

/* Rebuild a job from the bytes of a job file (buf, len). Return 0,
 * or -1 with the reason in err. */
int sample_job_decode(const char *buf, size_t len, struct sample_job *job,
		      struct strbuf *err);
void sample_job_release(struct sample_job *job);

#endif
