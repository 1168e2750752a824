/* child: fork a piece of work into its own process group, collect its
 * output, enforce a timeout, and never leave anything behind. */
#include "config.h"
#include "harness/child.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void child_reaper_init(void)
{
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

/* The two channels of a child: the result pipe p and, when held, the
 * release socket go (a socket, not a pipe: sending to a child that died
 * meanwhile must fail with EPIPE rather than raise SIGPIPE in the
 * harness), all close-on-exec; c cleared and its start time taken.
 * Return 0, or -1 with the reason in err. */
static int open_ends(struct child *c, int p[2], int go[2], int held, struct strbuf *err)
{
	memset(c, 0, sizeof(*c));
	c->fd = c->pidfd = c->go_fd = -1;
	go[0] = go[1] = -1;
	if (pipe2(p, O_CLOEXEC)) {
		strbuf_addf(err, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	if (held && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go)) {
		strbuf_addf(err, "cannot create a socket pair: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	c->started_ns = clock_ns(CLOCK_REALTIME);
	c->mono_start_ns = clock_ns(CLOCK_MONOTONIC);
	return 0;
}

/* Close the child's ends here; keep ours in c once the child is started
 * (started), or close them too. */
static void keep_ends(struct child *c, int p[2], int go[2], int started)
{
	close(p[1]);
	if (go[0] >= 0)
		close(go[0]);
	if (!started) {
		close(p[0]);
		if (go[1] >= 0)
			close(go[1]);
		c->pid = 0;
		return;
	}
	c->fd = p[0];
	c->go_fd = go[1];
	c->pidfd = (int)syscall(SYS_pidfd_open, c->pid, 0);
}

/* Fork c; when held, the child first waits for a byte on a release socket
 * (EOF: the parent gave up on it, so it exits without running fn). */
static int start(struct child *c, int (*fn)(void *arg, int fd), void *arg, int held)
{
	struct strbuf err = STRBUF_INIT;
	pid_t parent;
	int p[2], go[2];

	if (open_ends(c, p, go, held, &err)) {
		error("%s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	parent = getpid();
	c->pid = fork();
	if (c->pid < 0) {
		int e = errno;

		keep_ends(c, p, go, 0);
		return error("cannot fork: %s", strerror(e));
	}
	if (c->pid == 0) {
		struct sigaction sa = { .sa_handler = SIG_DFL };

		setpgid(0, 0);
		/* If kbench itself is killed, the sample dies with it. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGPIPE, &sa, NULL);
		close(p[0]);
		if (held) {
			close(go[1]);
			if (wait_byte(go[0]))
				_exit(1);
		}
		_exit(fn(arg, p[1]) ? 1 : 0);
	}
	setpgid(c->pid, c->pid);	/* both sides, so no race */
	keep_ends(c, p, go, 1);
	return 0;
}

int child_start(struct child *c, int (*fn)(void *arg, int fd), void *arg)
{
	return start(c, fn, arg, 0);
}

int child_start_held(struct child *c, int (*fn)(void *arg, int fd), void *arg)
{
	return start(c, fn, arg, 1);
}

int child_spawn_held(struct child *c, const char *prog, char *const args[],
		     const int *pass, size_t npass, struct strbuf *err)
{
	extern char **environ;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t dfl;
	char result_arg[32], go_arg[32], *argv[16];
	int p[2], go[2], r;
	size_t n = 0;

	if (open_ends(c, p, go, 1, err))
		return -1;
	while (args[n] && n < sizeof(argv) / sizeof(argv[0]) - 3) {
		argv[n] = args[n];
		n++;
	}
	snprintf(result_arg, sizeof(result_arg), "--result-fd=%d", p[1]);
	snprintf(go_arg, sizeof(go_arg), "--go-fd=%d", go[0]);
	argv[n++] = result_arg;
	argv[n++] = go_arg;
	argv[n] = NULL;
	/* The child's ends, and what the caller passes, lose close-on-exec in
	 * the child only (dup2 onto itself); everything else of ours closes. */
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], p[1]);
	posix_spawn_file_actions_adddup2(&fa, go[0], go[0]);
	for (size_t i = 0; i < npass; i++)
		posix_spawn_file_actions_adddup2(&fa, pass[i], pass[i]);
	/* Its own process group, and default handling of what kbench
	 * catches or ignores, as start() gives a forked child. */
	posix_spawnattr_init(&at);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_setsigdefault(&at, &dfl);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
	r = posix_spawn(&c->pid, prog, &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	keep_ends(c, p, go, !r);
	if (r) {
		strbuf_addf(err, "cannot run '%s': %s", prog, strerror(r));
		return -1;
	}
	return 0;
}

int child_release(struct child *c)
{
	ssize_t n;

	if (c->go_fd < 0)
		return 0;
	while ((n = send(c->go_fd, "g", 1, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	close(c->go_fd);
	c->go_fd = -1;
	if (n != 1)
		return error("cannot release the child process: %s",
			     n < 0 ? strerror(errno) : "short write");
	return 0;
}

/* Has the child exited? Leaves the zombie in place (WNOWAIT), so its
 * process group id stays reserved until the group is killed. */
static int child_exited(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT))
		return errno == ECHILD;
	return si.si_pid == pid;
}

static void drain(int fd, struct strbuf *out)
{
	char buf[4096];
	struct pollfd q = { .fd = fd, .events = POLLIN };

	while (poll(&q, 1, 0) > 0) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n <= 0)
			break;
		if (out)
			strbuf_add(out, buf, (size_t)n);
	}
}

int child_finish(struct child *c, double timeout_s,
		 volatile sig_atomic_t *stop, struct strbuf *out)
{
	int64_t deadline = c->mono_start_ns + (int64_t)(timeout_s * 1e9);
	int end = CHILD_EXITED, eof = 0;
	char buf[4096];

	/* A held child never released: let it exit without running. */
	if (c->go_fd >= 0) {
		close(c->go_fd);
		c->go_fd = -1;
	}
	for (;;) {
		struct pollfd pfd[2];
		int nfds = 0, ms;
		int64_t left;

		if (child_exited(c->pid)) {
			/* A grandchild may still hold the pipe: the child's
			 * exit ends the collection. */
			if (!eof)
				drain(c->fd, out);
			break;
		}
		if (stop && *stop) {
			end = CHILD_STOPPED;
			break;
		}
		left = deadline - clock_ns(CLOCK_MONOTONIC);
		if (left <= 0) {
			end = CHILD_TIMEOUT;
			break;
		}
		ms = left > 200000000 ? 200 : (int)(left / 1000000) + 1;
		if (!eof) {
			pfd[nfds].fd = c->fd;
			pfd[nfds].events = POLLIN;
			pfd[nfds++].revents = 0;
		}
		if (c->pidfd >= 0) {
			pfd[nfds].fd = c->pidfd;
			pfd[nfds].events = POLLIN;
			pfd[nfds++].revents = 0;
		}
		if (poll(pfd, (nfds_t)nfds, ms) < 0 && errno != EINTR)
			return error("poll failed: %s", strerror(errno));
		if (!eof && (pfd[0].revents & (POLLIN | POLLHUP | POLLERR))) {
			ssize_t n = read(c->fd, buf, sizeof(buf));

			if (n > 0 && out)
				strbuf_add(out, buf, (size_t)n);
			else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
				eof = 1;
		}
	}
	/* Kill what is left of the group while the zombie leader keeps its
	 * id reserved, then reap the leader. */
	kill(-c->pid, SIGKILL);
	while (wait4(c->pid, &c->status, 0, &c->ru) < 0 && errno == EINTR)
		;
	/* Orphans of the group were reparented to us (child_reaper_init):
	 * reap them so that nothing is left, not even a zombie. */
	while (waitpid(-c->pid, NULL, 0) > 0 || errno == EINTR)
		;
	c->duration_ns = clock_ns(CLOCK_MONOTONIC) - c->mono_start_ns;
	close(c->fd);
	c->fd = -1;
	if (c->pidfd >= 0)
		close(c->pidfd);
	c->pidfd = -1;
	return end;
}

void child_describe_status(int status, struct strbuf *sb)
{
	worker_describe_status(status, sb);
}
