/* kbench-sample: the lean process one sample runs in. kbench spawns it
 * with a job (workload, row, options, pin plan), the result pipe and,
 * optionally, a go socket: it reads the job, waits for the go byte (the
 * harness attaches its counters meanwhile), runs the sample and writes
 * the result as a forked child would. Not meant to be run by hand. */
#include "config.h"
#include "sampler/sample.h"
#include "lib/io.h"
#include "lib/strbuf.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* "--NAME=FD": the descriptor, or -1. */
static int fd_arg(const char *arg, const char *name)
{
	size_t n = strlen(name);
	char *end;
	long fd;

	if (strncmp(arg, name, n) || arg[n] != '=')
		return -1;
	errno = 0;
	fd = strtol(arg + n + 1, &end, 10);
	if (errno || end == arg + n + 1 || *end || fd < 0 || fd > 1 << 20)
		return -1;
	return (int)fd;
}

static int read_job(int fd, struct strbuf *job)
{
	char buf[4096];
	ssize_t n;

	while ((n = read_upto(fd, buf, sizeof(buf))) > 0)
		strbuf_add(job, buf, (size_t)n);
	return n < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;
	static const char *const names[] = { "--job-fd", "--result-fd", "--go-fd" };
	int fds[] = { -1, -1, -1 }, bad = 0, rc = 1;
	int job_fd, result_fd, go_fd;
	struct sample_job job;

	for (int i = 1; i < argc && !bad; i++) {
		int k, fd = -1;

		for (k = 0; k < 3 && (fd = fd_arg(argv[i], names[k])) < 0; k++)
			;
		bad = k == 3 || fds[k] >= 0;
		if (!bad)
			fds[k] = fd;
	}
	job_fd = fds[0];
	result_fd = fds[1];
	go_fd = fds[2];
	if (bad || job_fd < 0 || result_fd < 0) {
		fprintf(stderr, "usage: kbench-sample --job-fd=N --result-fd=N [--go-fd=N]\n"
			"kbench runs this program for each sample; it is not meant "
			"to be run by hand\n");
		return 2;
	}
	/* If kbench dies, the sample dies with it; had it died before this
	 * line, the go socket is at EOF and nothing runs. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (read_job(job_fd, &buf)) {
		strbuf_addf(&err, "cannot read the job: %s", strerror(errno));
		goto out;
	}
	close(job_fd);
	if (sample_job_decode(buf.buf, buf.len, &job, &err))
		goto out;
	/* The harness attaches its counters before the go byte. */
	if (go_fd >= 0 && wait_byte(go_fd)) {
		sample_job_release(&job);
		goto out;
	}
	rc = sample_run(job.params, job.row, result_fd) ? 1 : 0;
	sample_job_release(&job);
out:
	/* The parent shows the reason as the sample's. */
	if (err.len) {
		struct strbuf why = STRBUF_INIT;

		strbuf_addf(&why, "kbench-sample: %s", err.buf);
		sample_fail(result_fd, why.buf);
		strbuf_release(&why);
	}
	strbuf_release(&buf);
	strbuf_release(&err);
	return rc;
}
