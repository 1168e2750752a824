/* child: fork a piece of work into its own process group, collect its
 * output, enforce a timeout, and never leave anything behind; and run a
 * program, found by the one PATH lookup, with its output captured. */
#include "config.h"
#include "lib/child.h"
#include "lib/clock.h"
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
#include <sys/stat.h>
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
static int start(struct child *c, int (*fn)(void *arg, int fd), void *arg, int held,
		 struct strbuf *err)
{
	pid_t parent;
	int p[2], go[2];

	if (open_ends(c, p, go, held, err))
		return -1;
	parent = getpid();
	c->pid = fork();
	if (c->pid < 0) {
		int e = errno;

		keep_ends(c, p, go, 0);
		strbuf_addf(err, "cannot fork: %s", strerror(e));
		return -1;
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

int child_start(struct child *c, int (*fn)(void *arg, int fd), void *arg, struct strbuf *err)
{
	return start(c, fn, arg, 0, err);
}

int child_start_held(struct child *c, int (*fn)(void *arg, int fd), void *arg,
		     struct strbuf *err)
{
	return start(c, fn, arg, 1, err);
}

/* Spawn prog with argv in its own process group, with default handling
 * of what kbench catches or ignores, as start() gives a forked child;
 * keep (its own number) are the descriptors it inherits. Return 0 or an
 * errno. */
static int spawn(pid_t *pid, const char *prog, char *const argv[], const int *keep, size_t nkeep)
{
	extern char **environ;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t dfl;
	int r;

	/* They lose close-on-exec in the child only (dup2 onto itself);
	 * everything else of ours closes. */
	posix_spawn_file_actions_init(&fa);
	for (size_t i = 0; i < nkeep; i++)
		posix_spawn_file_actions_adddup2(&fa, keep[i], keep[i]);
	posix_spawnattr_init(&at);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_setsigdefault(&at, &dfl);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
	r = posix_spawn(pid, prog, &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return r;
}

int child_spawn_held(struct child *c, const char *prog, char *const args[],
		     const int *pass, size_t npass, struct strbuf *err)
{
	char result_arg[32], go_arg[32], *argv[16];
	int p[2], go[2], keep[8], r;
	size_t n = 0, nkeep = 0;

	if (npass > sizeof(keep) / sizeof(keep[0]) - 2) {
		strbuf_addf(err, "BUG: %zu descriptors to pass", npass);
		return -1;
	}
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
	keep[nkeep++] = p[1];
	keep[nkeep++] = go[0];
	for (size_t i = 0; i < npass; i++)
		keep[nkeep++] = pass[i];
	r = spawn(&c->pid, prog, argv, keep, nkeep);
	keep_ends(c, p, go, !r);
	if (r) {
		strbuf_addf(err, "cannot run '%s': %s", prog, strerror(r));
		return -1;
	}
	return 0;
}

int child_server_start(struct child_server *s, const char *prog, struct strbuf *err)
{
	char arg[32], *argv[3];
	int sv[2], r;

	s->pid = 0;
	s->fd = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		strbuf_addf(err, "cannot create a socket pair: %s", strerror(errno));
		return -1;
	}
	snprintf(arg, sizeof(arg), "--serve-fd=%d", sv[1]);
	argv[0] = (char *)prog;
	argv[1] = arg;
	argv[2] = NULL;
	r = spawn(&s->pid, prog, argv, &sv[1], 1);
	close(sv[1]);
	if (r) {
		close(sv[0]);
		s->pid = 0;
		strbuf_addf(err, "cannot run '%s': %s", prog, strerror(r));
		return -1;
	}
	s->fd = sv[0];
	return 0;
}

void child_server_stop(struct child_server *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	if (s->pid > 0) {
		kill(s->pid, SIGKILL);
		while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	s->pid = 0;
}

/* Send the server a request: one byte, and the job, result and go
 * descriptors. Return 0, or an errno. */
static int send_request(int sock, const int fds[3])
{
	char cbuf[CMSG_SPACE(3 * sizeof(int))];
	struct iovec iov = { .iov_base = "s", .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;

	memset(cbuf, 0, sizeof(cbuf));
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(3 * sizeof(int));
	memcpy(CMSG_DATA(cm), fds, 3 * sizeof(int));
	while (sendmsg(sock, &mh, MSG_NOSIGNAL) < 0)
		if (errno != EINTR)
			return errno;
	return 0;
}

/* The server's answer: a pid, or -errno. Return 0, or -1 when it is gone
 * (EOF, an error, or no answer within 10 s). */
static int recv_answer(int sock, pid_t *pid)
{
	struct pollfd q = { .fd = sock, .events = POLLIN };
	ssize_t n;
	int r;

	while ((r = poll(&q, 1, 10000)) < 0 && errno == EINTR)
		;
	if (r <= 0)
		return -1;
	while ((n = recv(sock, pid, sizeof(*pid), 0)) < 0 && errno == EINTR)
		;
	return n == (ssize_t)sizeof(*pid) ? 0 : -1;
}

int child_serve_held(struct child *c, struct child_server *s, int pass, struct strbuf *err)
{
	int p[2], go[2], fds[3];
	siginfo_t si;
	pid_t pid;

	if (open_ends(c, p, go, 1, err))
		return -1;
	fds[0] = pass;
	fds[1] = p[1];
	fds[2] = go[0];
	if (s->fd < 0 || send_request(s->fd, fds) || recv_answer(s->fd, &pid)) {
		keep_ends(c, p, go, 0);
		return 1;
	}
	if (pid < 0) {
		keep_ends(c, p, go, 0);
		strbuf_addf(err, "the sample program cannot fork its samples here: %s",
			    strerror(-pid));
		return 2;
	}
	/* Ours to wait for? Not when a wrapper forked the server rather than
	 * exec'ing it: then nothing of the sample could be collected. */
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) && errno == ECHILD) {
		/* It waits for the go byte: it has started nothing yet. */
		kill(pid, SIGKILL);
		keep_ends(c, p, go, 0);
		strbuf_addstr(err, "the samples the sample program forks are not kbench's "
			      "children (does a KBENCH_SAMPLE wrapper fork it rather than "
			      "exec it?)");
		return 2;
	}
	c->pid = pid;
	setpgid(c->pid, c->pid);	/* both sides, so no race */
	keep_ends(c, p, go, 1);
	return 0;
}

int child_release(struct child *c, struct strbuf *err)
{
	ssize_t n;

	if (c->go_fd < 0)
		return 0;
	while ((n = send(c->go_fd, "g", 1, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	close(c->go_fd);
	c->go_fd = -1;
	if (n != 1) {
		strbuf_addf(err, "cannot release the child process: %s",
			    n < 0 ? strerror(errno) : "short write");
		return -1;
	}
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
		 volatile sig_atomic_t *stop, struct strbuf *out, struct strbuf *err)
{
	int64_t deadline = c->mono_start_ns + (int64_t)(timeout_s * 1e9);
	int end = CHILD_EXITED, eof = 0;
	sigset_t stops, caller;
	char buf[4096];

	/* A held child never released: let it exit without running. */
	if (c->go_fd >= 0) {
		close(c->go_fd);
		c->go_fd = -1;
	}
	/* The signals that stop a run get in only inside ppoll(), so none
	 * can land between the look at *stop and the wait: the wait can then
	 * last until the child writes, ends or runs out of time, and kbench
	 * does not wake while its sample runs. Only without a pidfd is the
	 * child's end looked for every 200 ms. */
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigprocmask(SIG_BLOCK, &stops, &caller);
	for (;;) {
		struct pollfd pfd[2];
		struct timespec ts;
		int nfds = 0;
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
		if (c->pidfd < 0 && left > 200000000)
			left = 200000000;
		ts.tv_sec = (time_t)(left / 1000000000);
		ts.tv_nsec = (long)(left % 1000000000);
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
		if (ppoll(pfd, (nfds_t)nfds, &ts, &caller) < 0 && errno != EINTR) {
			int e = errno;

			sigprocmask(SIG_SETMASK, &caller, NULL);
			strbuf_addf(err, "poll failed: %s", strerror(e));
			return -1;
		}
		if (!eof && (pfd[0].revents & (POLLIN | POLLHUP | POLLERR))) {
			ssize_t n = read(c->fd, buf, sizeof(buf));

			if (n > 0 && out)
				strbuf_add(out, buf, (size_t)n);
			else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
				eof = 1;
		}
	}
	sigprocmask(SIG_SETMASK, &caller, NULL);
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

/* ---- programs ---- */

#define CHILD_DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

int child_find_program(const char *name, const char *path, struct strbuf *found)
{
	struct strbuf file = STRBUF_INIT;
	int rc = -1;

	if (strchr(name, '/')) {
		if (access(name, X_OK))
			return -1;
		strbuf_addstr(found, name);
		return 0;
	}
	if (!path)
		path = getenv("PATH");
	if (!path)
		path = CHILD_DEFAULT_PATH;
	while (rc && *path) {
		size_t len = strcspn(path, ":");
		struct stat st;

		strbuf_reset(&file);
		if (len)
			strbuf_add(&file, path, len);
		else
			strbuf_addch(&file, '.');
		strbuf_addf(&file, "/%s", name);
		if (!access(file.buf, X_OK) && !stat(file.buf, &st) && S_ISREG(st.st_mode)) {
			strbuf_add(found, file.buf, file.len);
			rc = 0;
		}
		path += len;
		if (*path == ':')
			path++;
	}
	strbuf_release(&file);
	if (rc)
		errno = ENOENT;
	return rc;
}

/* What the child of child_program_start() sends back when the program
 * does not start. */
struct start_failure {
	int in_dir;		/* the chdir failed, else the lookup or exec */
	int in_cgroup;		/* the move into p->cgroup failed */
	int errnum;
};

struct exec_args {
	const struct child_program *p;
	int report;		/* close-on-exec: a struct start_failure */
};

/* The child of child_program_start(): returns only on a failure, sent. */
static int exec_program(void *arg)
{
	const struct exec_args *x = arg;
	const struct child_program *p = x->p;
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	struct start_failure f = { .in_dir = 0 };
	struct strbuf file = STRBUF_INIT;
	int fds[3] = { p->in, p->out, p->err };
	int report;

	if (p->new_group)
		setpgid(0, 0);
	if (p->cgroup) {
		char procs[4096];
		int fd;

		snprintf(procs, sizeof(procs), "%s/cgroup.procs", p->cgroup);
		fd = open(procs, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "0", 1) != 1) {
			f.in_cgroup = 1;
			f.errnum = errno;
			report = x->report;
			goto fail;
		}
		close(fd);
	}
	/* Everything out of the way of 0-2 first: one of ours may be one of
	 * them when kbench was started with it closed. */
	report = fcntl(x->report, F_DUPFD_CLOEXEC, 3);
	for (int i = 0; i < 3; i++) {
		if (fds[i] == CHILD_FD_NULL)
			fds[i] = open("/dev/null", (i ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
		if (fds[i] >= 0)
			fds[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
	}
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0 && dup2(fds[i], i) < 0) {
			f.errnum = errno;
			goto fail;
		}
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	sigaction(SIGPIPE, &dfl, NULL);
	if (p->dir && chdir(p->dir)) {
		f.in_dir = 1;
		f.errnum = errno;
		goto fail;
	}
	for (size_t i = 0; p->env && p->env[i]; i++) {
		const char *eq = strchr(p->env[i], '=');

		if (!eq) {
			unsetenv(p->env[i]);
		} else {
			char *name = strndup(p->env[i], (size_t)(eq - p->env[i]));

			if (name)
				setenv(name, eq + 1, 1);
			free(name);
		}
	}
	/* Looked up after the chdir and with env's PATH, as execvp would;
	 * a path found holds a '/', so execvp only runs it (and hands a
	 * script without "#!" to /bin/sh, as it does). */
	if (child_find_program(p->argv[0], NULL, &file)) {
		f.errnum = errno;
		goto fail;
	}
	execvp(file.buf, (char *const *)p->argv);
	f.errnum = errno;
fail:
	if (report >= 0)
		(void)!write(report, &f, sizeof(f));
	strbuf_release(&file);
	return -1;
}

int child_program_start(struct child_program *p, struct strbuf *err)
{
	struct exec_args x = { .p = p };
	struct start_failure f;
	int rp[2];
	ssize_t n;

	memset(&p->w, 0, sizeof(p->w));
	p->failed_errno = p->failed_dir = 0;
	if (pipe2(rp, O_CLOEXEC)) {
		strbuf_addf(err, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	x.report = rp[1];
	if (worker_start(&p->w, exec_program, &x)) {
		int e = errno;

		close(rp[0]);
		close(rp[1]);
		strbuf_addf(err, "cannot fork: %s", strerror(e));
		return -1;
	}
	if (p->new_group)
		setpgid(p->w.pid, p->w.pid);	/* both sides, so no race */
	close(rp[1]);
	while ((n = read(rp[0], &f, sizeof(f))) < 0 && errno == EINTR)
		;
	close(rp[0]);
	if (n != (ssize_t)sizeof(f))
		return 0;	/* the pipe closed on exec */
	worker_wait(&p->w);
	p->failed_errno = f.errnum;
	p->failed_dir = f.in_dir;
	if (f.in_dir)
		strbuf_addf(err, "cannot change to directory '%s': %s", p->dir, strerror(f.errnum));
	else if (f.in_cgroup)
		strbuf_addf(err, "cannot move '%s' into the cgroup %s: %s", p->argv[0], p->cgroup,
			    strerror(f.errnum));
	else if (f.errnum == ENOENT && !strchr(p->argv[0], '/'))
		strbuf_addf(err, "cannot run '%s': command not found", p->argv[0]);
	else
		strbuf_addf(err, "cannot run '%s': %s", p->argv[0], strerror(f.errnum));
	return -1;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Keep at most limit bytes of sb, the last ones; count what went. */
static void keep_tail(struct strbuf *sb, size_t limit, size_t *dropped)
{
	size_t cut;

	if (!limit || sb->len <= limit)
		return;
	cut = sb->len - limit;
	memmove(sb->buf, sb->buf + cut, limit);
	sb->len = limit;
	sb->buf[limit] = '\0';
	*dropped += cut;
}

/* Read what *fd has into sb (io->out is held to its limit, and closed
 * one byte past its bound); close *fd at its end. With now, only what is there already, without waiting. */
static void read_output(int *fd, struct strbuf *sb, struct child_io *io, int now)
{
	char buf[65536];
	struct pollfd q = { .fd = *fd, .events = POLLIN };

	while (*fd >= 0 && (!now || poll(&q, 1, 0) > 0)) {
		ssize_t n = read(*fd, buf, sizeof(buf));

		if (n > 0) {
			if (sb == io->out && io->out_max && sb->len + (size_t)n > io->out_max) {
				/* One byte past the bound says it was passed. */
				if (sb->len <= io->out_max)
					strbuf_add(sb, buf, io->out_max + 1 - sb->len);
				close_fd(fd);
				break;
			}
			strbuf_add(sb, buf, (size_t)n);
			/* Trimmed now and then, not on every read. */
			if (sb == io->out && io->out_limit && sb->len > 2 * io->out_limit)
				keep_tail(sb, io->out_limit, &io->out_dropped);
		} else if (!n || (errno != EINTR && errno != EAGAIN)) {
			close_fd(fd);
		}
		if (!now)
			break;
	}
}

/* Whether io->out has passed io->out_max. */
static int out_full(const struct child_io *io)
{
	return io->out && io->out_max && io->out->len > io->out_max;
}

/* Write what the pipe takes of io->input from *off on; close it once all
 * is written (the program sees its end) or the program stopped reading. */
static void feed(int *fd, const struct child_io *io, size_t *off)
{
	ssize_t k = write(*fd, io->input + *off, io->input_len - *off);

	if (k > 0)
		*off += (size_t)k;
	else if (k < 0 && errno != EINTR && errno != EAGAIN)
		close_fd(fd);
	if (*off == io->input_len)
		close_fd(fd);
}

int child_program_run(struct child_program *p, struct child_io *io, struct strbuf *err)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, msg[2] = { -1, -1 };
	int keep[3] = { p->in, p->out, p->err };
	struct sigaction ignore = { .sa_handler = SIG_IGN }, old;
	int64_t deadline = 0;
	int pidfd = -1, ignoring = 0, started, end = CHILD_EXITED, rc = -1;
	size_t off = 0;

	io->out_dropped = 0;
	if ((io->input && pipe2(in, O_CLOEXEC)) || (io->out && pipe2(out, O_CLOEXEC)) ||
	    (io->err && io->err != io->out && pipe2(msg, O_CLOEXEC))) {
		strbuf_addf(err, "cannot create a pipe: %s", strerror(errno));
		goto out;
	}
	if (io->input) {
		p->in = in[0];
		sigaction(SIGPIPE, &ignore, &old);
		ignoring = 1;
	}
	if (io->out)
		p->out = out[1];
	if (io->err)
		p->err = io->err == io->out ? out[1] : msg[1];
	started = !child_program_start(p, err);
	p->in = keep[0];
	p->out = keep[1];
	p->err = keep[2];
	close_fd(&in[0]);
	close_fd(&out[1]);
	close_fd(&msg[1]);
	if (!started)
		goto out;
	if (io->timeout_s > 0)
		deadline = clock_ns(CLOCK_MONOTONIC) + (int64_t)(io->timeout_s * 1e9);
	pidfd = (int)syscall(SYS_pidfd_open, p->w.pid, 0);
	if (in[1] >= 0) {
		fcntl(in[1], F_SETFL, O_NONBLOCK);
		if (!io->input_len)
			close_fd(&in[1]);
	}
	for (;;) {
		struct pollfd pfd[4];
		int *which[4];
		nfds_t n = 0;
		int ms = -1;

		if (child_exited(p->w.pid)) {
			/* A process it left may still hold the pipes: its
			 * exit ends the output. */
			if (out[0] >= 0)
				read_output(&out[0], io->out, io, 1);
			if (msg[0] >= 0)
				read_output(&msg[0], io->err, io, 1);
			if (out_full(io))
				end = CHILD_OUT_FULL;
			break;
		}
		if (out_full(io)) {
			end = CHILD_OUT_FULL;
			break;
		}
		if (deadline) {
			int64_t left = deadline - clock_ns(CLOCK_MONOTONIC);

			if (left <= 0) {
				end = CHILD_TIMEOUT;
				break;
			}
			ms = (int)(left / 1000000) + 1;
		}
		/* Without a pidfd its end is looked for every 100 ms. */
		if (pidfd < 0 && (ms < 0 || ms > 100))
			ms = 100;
		if (in[1] >= 0) {
			pfd[n] = (struct pollfd){ .fd = in[1], .events = POLLOUT };
			which[n++] = &in[1];
		}
		if (out[0] >= 0) {
			pfd[n] = (struct pollfd){ .fd = out[0], .events = POLLIN };
			which[n++] = &out[0];
		}
		if (msg[0] >= 0) {
			pfd[n] = (struct pollfd){ .fd = msg[0], .events = POLLIN };
			which[n++] = &msg[0];
		}
		if (pidfd >= 0) {
			pfd[n] = (struct pollfd){ .fd = pidfd, .events = POLLIN };
			which[n++] = &pidfd;
		}
		if (poll(pfd, n, ms) < 0) {
			if (errno == EINTR)
				continue;
			strbuf_addf(err, "cannot wait for '%s': %s", p->argv[0], strerror(errno));
			end = -1;
			break;
		}
		for (nfds_t i = 0; i < n; i++) {
			if (!pfd[i].revents || which[i] == &pidfd)
				continue;	/* its end: seen at the top */
			if (which[i] == &in[1])
				feed(&in[1], io, &off);
			else
				read_output(which[i], which[i] == &out[0] ? io->out : io->err, io, 0);
		}
	}
	/* Its group goes with it, killed while the leader's zombie keeps the
	 * group's id reserved; or it alone, at the timeout. */
	if (p->new_group)
		worker_kill_group(&p->w);
	else if (end != CHILD_EXITED)
		worker_kill(&p->w);
	else
		worker_wait(&p->w);
	if (p->w.wait_errno) {
		strbuf_addf(err, "cannot wait for '%s': %s", p->argv[0], strerror(p->w.wait_errno));
		goto out;
	}
	if (end < 0)
		goto out;
	if (io->out)
		keep_tail(io->out, io->out_limit, &io->out_dropped);
	rc = end;
out:
	if (ignoring)
		sigaction(SIGPIPE, &old, NULL);
	close_fd(&pidfd);
	for (int i = 0; i < 2; i++) {
		close_fd(&in[i]);
		close_fd(&out[i]);
		close_fd(&msg[i]);
	}
	return rc;
}
