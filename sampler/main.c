/* kbench-sample: the lean process one sample runs in. kbench spawns it
 * with a job (workload, row, options, pin plan), the result pipe and,
 * optionally, a go socket: it reads the job, waits for the go byte (the
 * harness attaches its counters meanwhile), runs the sample and writes
 * the result as a forked child would. Not meant to be run by hand.
 *
 * With --serve-fd=N it serves a whole run instead: for each message on
 * socket N, carrying those three descriptors, it forks a sample process
 * that is kbench's child, not its own (CLONE_PARENT: kbench waits for
 * it, takes its rusage and kills its group as it would a spawned one),
 * and answers with its pid. A sample then costs a fork of this small
 * process, not an exec. EOF on N ends it.
 *
 * As pid 1 it is the init of a guest booted by `kbench vm` (guest.c). */
#include "config.h"
#include "sampler/sample.h"
#include "sampler/guest.h"
#include "lib/clock.h"
#include "lib/io.h"
#include "lib/strbuf.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* "--NAME=N": N (a descriptor, or a count), or -1. */
static int num_arg(const char *arg, const char *name)
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

/* One sample: read the job, wait for the go byte, run it, write the
 * result. Return the exit status. */
static int run_job(int job_fd, int result_fd, int go_fd)
{
	struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;
	struct sample_job job;
	int rc = 1;

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

/* Receive one request on sock: one byte and the job, result and go
 * descriptors. Return 1 with them in fds, 0 at EOF, -1 on a malformed
 * request (any descriptors it carried closed). */
static int recv_request(int sock, int fds[3])
{
	char byte, cbuf[CMSG_SPACE(3 * sizeof(int))];
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	ssize_t n;
	int got = 0;

	while ((n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
		;
	if (n <= 0)
		return 0;
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		size_t k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		for (size_t i = 0; i < k; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
			if (got < 3)
				fds[got++] = fd;
			else
				close(fd);
		}
	}
	if (got == 3 && !(mh.msg_flags & MSG_CTRUNC))
		return 1;
	for (int i = 0; i < got; i++)
		close(fds[i]);
	return -1;
}

static int serve(int sock)
{
	pid_t kbench = getppid();
	int fds[3], r;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != kbench)
		return 1;
	while ((r = recv_request(sock, fds))) {
		pid_t pid = -EPROTO;

		if (r > 0) {
			/* A plain fork would make the sample this process's
			 * child; kbench must be its parent. */
			pid = (pid_t)syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0);
			if (pid == 0) {
				close(sock);
				setpgid(0, 0);
				if (getppid() != kbench)
					_exit(1);
				_exit(run_job(fds[0], fds[1], fds[2]));
			}
			if (pid < 0)
				pid = -errno;
			for (int i = 0; i < 3; i++)
				close(fds[i]);
		}
		if (send(sock, &pid, sizeof(pid), MSG_NOSIGNAL) != (ssize_t)sizeof(pid))
			return 1;
	}
	return 0;
}

/* --time-forks=N: what starting a served sample costs here, less the
 * request: N forks of this process, each exiting at once and reaped;
 * prints the mean in nanoseconds (bench/harness-overhead.sh). */
static int time_forks(int n)
{
	int64_t t0 = clock_ns(CLOCK_MONOTONIC);

	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("kbench-sample: fork");
			return 1;
		}
		if (pid == 0)
			_exit(0);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	printf("%.0f\n", (double)(clock_ns(CLOCK_MONOTONIC) - t0) / n);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: kbench-sample --job-fd=N --result-fd=N [--go-fd=N]\n"
		"kbench runs this program for each sample; it is not meant "
		"to be run by hand\n");
	return 2;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "--job-fd", "--result-fd", "--go-fd", "--serve-fd",
					      "--time-forks" };
	enum { JOB, RESULT, GO, SERVE, TIME_FORKS, NARGS };
	int v[] = { -1, -1, -1, -1, -1 }, bad = 0;

	if (getpid() == 1)
		return guest_main();
	for (int i = 1; i < argc && !bad; i++) {
		int k, n = -1;

		for (k = 0; k < NARGS && (n = num_arg(argv[i], names[k])) < 0; k++)
			;
		bad = k == NARGS || v[k] >= 0;
		if (!bad)
			v[k] = n;
	}
	/* --serve-fd and --time-forks stand alone. */
	if (!bad && argc == 2 && v[SERVE] >= 0)
		return serve(v[SERVE]);
	if (!bad && argc == 2 && v[TIME_FORKS] > 0)
		return time_forks(v[TIME_FORKS]);
	if (bad || v[SERVE] >= 0 || v[TIME_FORKS] >= 0 || v[JOB] < 0 || v[RESULT] < 0)
		return usage();
	return run_job(v[JOB], v[RESULT], v[GO]);
}
