/* worker: fork workers that die with their parent, reap or kill them as
 * a set, and describe how they ended. */
#include "config.h"
#include "lib/worker.h"
#include "lib/strbuf.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

int worker_start(struct worker *w, int (*fn)(void *arg), void *arg)
{
	pid_t parent = getpid();

	memset(w, 0, sizeof(*w));
	w->pid = fork();
	if (w->pid < 0) {
		w->pid = 0;
		return -1;
	}
	if (!w->pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* The parent died before the line above: nothing will
		 * send the signal, so go now. */
		if (getppid() != parent)
			_exit(1);
		_exit(fn(arg) ? 1 : 0);
	}
	w->running = 1;
	return 0;
}

int worker_wait(struct worker *w)
{
	if (!w->running)
		return 0;
	while (waitpid(w->pid, &w->status, 0) < 0) {
		if (errno != EINTR) {
			w->wait_errno = errno;
			w->running = 0;
			return -1;
		}
	}
	w->running = 0;
	return 0;
}

int worker_poll(struct worker *w)
{
	if (!w->running || waitpid(w->pid, &w->status, WNOHANG) != w->pid)
		return 0;
	w->running = 0;
	return 1;
}

void worker_kill(struct worker *w)
{
	if (!w->running)
		return;
	kill(w->pid, SIGKILL);
	worker_wait(w);
}

void worker_kill_group(struct worker *w)
{
	pid_t pgid = w->pid;

	if (!w->running)
		return;
	kill(-pgid, SIGKILL);
	worker_wait(w);
	while (waitpid(-pgid, NULL, 0) > 0 || errno == EINTR)
		;
}

void worker_kill_all(struct worker *ws, size_t n)
{
	/* Signal all before reaping any: they die together, not in turn. */
	for (size_t i = 0; i < n; i++)
		if (ws[i].running)
			kill(ws[i].pid, SIGKILL);
	for (size_t i = 0; i < n; i++)
		worker_wait(&ws[i]);
}

int worker_reap_all(struct worker *ws, size_t n, size_t *failed)
{
	for (size_t i = 0; i < n; i++) {
		int was_running = ws[i].running;

		if (!worker_wait(&ws[i]) &&
		    (!was_running || (WIFEXITED(ws[i].status) && !WEXITSTATUS(ws[i].status))))
			continue;
		*failed = i;
		worker_kill_all(ws, n);
		return -1;
	}
	return 0;
}

void worker_describe_status(int status, struct strbuf *sb)
{
	if (WIFEXITED(status))
		strbuf_addf(sb, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		strbuf_addf(sb, "killed by signal %d (%s)", WTERMSIG(status),
			    strsignal(WTERMSIG(status)));
	else
		strbuf_addf(sb, "ended with wait status 0x%x", status);
}

void worker_describe(const struct worker *w, struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
	strbuf_addf(sb, " (pid %d) ", (int)w->pid);
	if (WIFSIGNALED(w->status))
		strbuf_addstr(sb, "was ");
	worker_describe_status(w->status, sb);
}
