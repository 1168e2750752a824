/* child: the one way kbench runs a piece of work in a child process.
 *
 * child_start() forks; the child becomes the leader of a new process group
 * (so everything it starts can be killed at once), restores default signal
 * handling, runs fn(arg, fd) and exits with its return value; fd is the
 * write end of a pipe whose bytes the parent collects. child_finish()
 * collects those bytes while waiting for the exit, kills the whole group
 * when the timeout passes or *stop becomes non-zero, and always kills
 * what is left of the group once the child is gone. */
#ifndef KBENCH_CHILD_H
#define KBENCH_CHILD_H

#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

struct strbuf;

struct child {
	pid_t pid;
	int fd;			/* read end of the result pipe */
	int pidfd;
	int status;		/* wait status, valid after child_finish */
	struct rusage ru;	/* of the child and its reaped descendants */
	int64_t started_ns;	/* CLOCK_REALTIME at fork */
	int64_t duration_ns;	/* fork to reap, CLOCK_MONOTONIC */
	int64_t mono_start_ns;
};

enum child_end {
	CHILD_EXITED = 0,	/* it exited or died on its own: see status */
	CHILD_TIMEOUT,		/* killed after the timeout */
	CHILD_STOPPED,		/* killed because *stop was set */
};

/* Return 0, or -1 after an error message. */
int child_start(struct child *c, int (*fn)(void *arg, int fd), void *arg);
/* Return an enum child_end, or -1 on an internal error (printed). */
int child_finish(struct child *c, double timeout_s,
		 volatile sig_atomic_t *stop, struct strbuf *out);
/* Describe c->status: "exited with status 3", "killed by signal 9". */
void child_describe_status(int status, struct strbuf *sb);

int64_t clock_ns(clockid_t clk);

#endif
