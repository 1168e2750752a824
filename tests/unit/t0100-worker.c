/* t0100-worker: workers are described as they ended, a set is reaped
 * whole (the rest killed when one fails), and a worker whose parent dies
 * goes with it.
 * Covers: lib/worker.c */
#include "config.h"
#include "lib/worker.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define NSET 5

static int sleep_forever(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return 0;
}

static int return_arg(void *arg)
{
	return *(const int *)arg;
}

static int exit_with(void *arg)
{
	_exit(*(const int *)arg);
}

/* Is pid gone, not even a zombie of ours? */
static int gone(pid_t pid)
{
	return kill(pid, 0) && errno == ESRCH;
}

/* No child of this process left, running or zombie. */
static int no_children(void)
{
	return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

static void test_describe(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct worker w;
	int one = -1, three = 3, rc;

	rc = worker_start(&w, sleep_forever, NULL);
	ok(!rc && w.running && w.pid > 0, "a worker starts (pid %d)", (int)w.pid);
	ok(!worker_poll(&w) && w.running, "worker_poll: a sleeping worker still runs");
	kill(w.pid, SIGKILL);
	ok(!worker_wait(&w) && !w.running && WIFSIGNALED(w.status),
	   "worker_wait reaps a killed worker");
	worker_describe(&w, &sb, "worker %d", 1);
	{
		char want[128];

		snprintf(want, sizeof(want), "worker 1 (pid %d) was killed by signal 9 (Killed)",
			 (int)w.pid);
		ok(!strcmp(sb.buf, want), "a killed worker is described: '%s'", sb.buf);
	}
	strbuf_reset(&sb);
	worker_describe_status(w.status, &sb);
	ok(!strcmp(sb.buf, "killed by signal 9 (Killed)"), "its status alone: '%s'", sb.buf);

	strbuf_reset(&sb);
	worker_start(&w, return_arg, &one);
	worker_wait(&w);
	worker_describe(&w, &sb, "server");
	{
		char want[128];

		snprintf(want, sizeof(want), "server (pid %d) exited with status 1", (int)w.pid);
		ok(!strcmp(sb.buf, want), "fn failing exits 1: '%s'", sb.buf);
	}
	strbuf_reset(&sb);
	worker_start(&w, exit_with, &three);
	for (int i = 0; i < 500 && !worker_poll(&w); i++)
		usleep(10000);
	ok(!w.running, "worker_poll reaps a worker that has ended");
	worker_describe_status(w.status, &sb);
	ok(!strcmp(sb.buf, "exited with status 3"), "exit status 3 described: '%s'", sb.buf);
	ok(!worker_wait(&w) && !worker_poll(&w), "waiting on a reaped worker returns at once");
	strbuf_release(&sb);
}

static void test_kill_all(void)
{
	struct worker ws[NSET];
	int all_gone = 1;

	for (int i = 0; i < NSET; i++)
		worker_start(&ws[i], sleep_forever, NULL);
	worker_kill_all(ws, NSET);
	for (int i = 0; i < NSET; i++)
		if (ws[i].running || !gone(ws[i].pid) || !WIFSIGNALED(ws[i].status))
			all_gone = 0;
	ok(all_gone, "worker_kill_all kills and reaps every worker of the set");
	ok(no_children(), "no child is left, not even a zombie");
}

static void test_reap_all(void)
{
	struct worker ws[NSET];
	int zero = 0, two = 2, others_killed = 1;
	size_t failed = 99;
	int rc;

	for (int i = 0; i < NSET; i++)
		worker_start(&ws[i], return_arg, &zero);
	rc = worker_reap_all(ws, NSET, &failed);
	ok(!rc, "a set whose workers all succeed reaps to 0");
	ok(no_children(), "and is reaped whole");

	/* Worker 2 fails; 0 and 1 succeed; 3 and 4 would never end. */
	worker_start(&ws[0], return_arg, &zero);
	worker_start(&ws[1], return_arg, &zero);
	worker_start(&ws[2], exit_with, &two);
	worker_start(&ws[3], sleep_forever, NULL);
	worker_start(&ws[4], sleep_forever, NULL);
	rc = worker_reap_all(ws, NSET, &failed);
	ok(rc == -1 && failed == 2, "one failing worker fails the set (failed %zu)", failed);
	ok(WIFEXITED(ws[2].status) && WEXITSTATUS(ws[2].status) == 2,
	   "its status is kept for the message");
	for (int i = 3; i < NSET; i++)
		if (ws[i].running || !WIFSIGNALED(ws[i].status) || !gone(ws[i].pid))
			others_killed = 0;
	ok(others_killed, "the workers still running are killed and reaped, not waited for");
	ok(no_children(), "nothing is left behind");
}

/* Write a byte on the fd at arg, then sleep: the byte says the worker
 * runs fn, so worker_start's setup in the child is done. */
static int say_then_sleep(void *arg)
{
	if (write(*(const int *)arg, "r", 1) != 1)
		return -1;
	return sleep_forever(NULL);
}

/* A middle process starts a sleeping worker, reports its pid and dies,
 * after the worker said it runs (wait_running) or at once: either way
 * the worker must end soon after. This process is made the subreaper,
 * so the orphan comes here and its end can be read. Return the orphan's
 * wait status, or -1 when it did not end within 5 s. */
static int orphan_status(int wait_running)
{
	int fds[2], ran[2], status = -1;
	pid_t mid, orphan = 0;

	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (pipe(fds) || pipe(ran))
		return -1;
	mid = fork();
	if (!mid) {
		struct worker w;
		char b;

		close(fds[0]);
		if (worker_start(&w, say_then_sleep, &ran[1]))
			_exit(2);
		if (write(fds[1], &w.pid, sizeof(w.pid)) != sizeof(w.pid))
			_exit(3);
		if (wait_running && read(ran[0], &b, 1) != 1)
			_exit(4);
		_exit(0);
	}
	close(fds[1]);
	close(ran[1]);
	if (read(fds[0], &orphan, sizeof(orphan)) != sizeof(orphan))
		orphan = 0;
	close(fds[0]);
	close(ran[0]);
	waitpid(mid, NULL, 0);
	if (orphan <= 0)
		return -1;
	/* 5 s at most; SIGKILL normally lands at once. */
	for (int i = 0; i < 500; i++) {
		if (waitpid(orphan, &status, WNOHANG) == orphan)
			return status;
		usleep(10000);
	}
	kill(orphan, SIGKILL);
	waitpid(orphan, NULL, 0);
	return -1;
}

static void test_parent_dies(void)
{
	int st = orphan_status(1);

	ok(st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
	   "a running worker whose parent dies is killed with it (wait status 0x%x)", st);
	/* Here the parent may die before the child asked for the signal:
	 * the child's own check must catch that. */
	for (int i = 0; i < 20; i++) {
		st = orphan_status(0);
		if (st == -1 || !((WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) ||
				  (WIFEXITED(st) && WEXITSTATUS(st) == 1)))
			break;
	}
	ok(st != -1 && ((WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) ||
			(WIFEXITED(st) && WEXITSTATUS(st) == 1)),
	   "a worker whose parent dies while it starts goes too, 20 times (last wait "
	   "status 0x%x)", st);
}

int main(void)
{
	/* A hang is a failure too. */
	alarm(60);
	test_describe();
	test_kill_all();
	test_reap_all();
	test_parent_dies();
	return done_testing();
}
