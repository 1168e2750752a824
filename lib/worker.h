/* worker: the processes a workload forks to do one sample's work
 * (hackbench's senders and receivers, pft's workers, netperf's server).
 *
 * A worker dies with the process that started it, so a sample that is
 * killed never leaves one running; a set of workers is reaped in one call
 * that kills the rest as soon as one fails, so nobody waits on a lost
 * sample and nothing is left behind; and how a worker ended is described
 * in one wording:
 *
 *	struct worker w[N];
 *
 *	for (i = 0; i < N; i++)
 *		if (worker_start(&w[i], fn, &arg[i]))
 *			goto fail;		(worker_kill_all(w, i))
 *	if (worker_reap_all(w, N, &bad))
 *		worker_describe(&w[bad], err, "worker %zu", bad);
 */
#ifndef KBENCH_WORKER_H
#define KBENCH_WORKER_H

#include <stddef.h>
#include <sys/types.h>

struct strbuf;

struct worker {
	pid_t pid;		/* set by worker_start, kept once reaped for messages */
	int running;		/* started and not reaped yet */
	int status;		/* wait status, once reaped */
	int wait_errno;		/* non-zero: it could not be waited for */
};

/* Fork a worker that runs fn(arg), then exits with status 0 when fn
 * returned 0 and 1 otherwise. It is killed (SIGKILL) when the calling
 * process dies, even if that happens before the child could ask for it.
 * Return 0 with w running, or -1 with errno and nothing started. */
int worker_start(struct worker *w, int (*fn)(void *arg), void *arg);

/* Wait for w to end and reap it. Return 0 with w->status set (at once
 * when w is not running), or -1 with errno, also in w->wait_errno, when it
 * cannot be waited for; w is then no longer running either way. */
int worker_wait(struct worker *w);

/* Has w ended? Reap it if so. Return 1 with w->status set, 0 while it
 * runs or when it is not running. */
int worker_poll(struct worker *w);

/* Kill w (SIGKILL) and reap it; nothing when it is not running. */
void worker_kill(struct worker *w);
/* Kill w's whole process group (w leads it: setpgid) and reap w, then
 * the members left to this process as their subreaper. */
void worker_kill_group(struct worker *w);

/* Kill and reap every running worker of ws[0..n-1]. */
void worker_kill_all(struct worker *ws, size_t n);

/* Reap the running workers of ws[0..n-1] in order. The first one that
 * does not exit with status 0, or cannot be waited for (its wait_errno
 * set), fails the set: every other one still running is killed and
 * reaped at once instead of waited for. Return 0 when all exited with
 * status 0, else -1 with *failed set to the index of the first that did
 * not. */
int worker_reap_all(struct worker *ws, size_t n, size_t *failed);

/* How a process ended, from its wait status: "exited with status 3",
 * "killed by signal 9 (Killed)", "ended with wait status 0x137f". */
void worker_describe_status(int status, struct strbuf *sb);

/* A sentence on how reaped worker w ended (w->wait_errno 0), naming it
 * with fmt and its pid: "worker 1 (pid 42) was killed by signal 9 (Killed)", "worker 1
 * (pid 42) exited with status 1". */
void worker_describe(const struct worker *w, struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
