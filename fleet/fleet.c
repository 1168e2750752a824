/* fleet: what the parts of the fleet share: lists of names, a command run
 * with its output captured (Slurm's, and kbench's own), and the path of
 * this kbench for the nodes. */
#include "config.h"
#include "fleet/fleet.h"
#include "fleet/internal.h"
#include "lib/child.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- lists ---- */

void fleet_names_add(struct fleet_names *l, const char *s)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = xstrdup(s);
}

void fleet_names_release(struct fleet_names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->alloc = 0;
}

/* ---- running a command ---- */

/* Whether prog can be run as execvp would find it. */
static int in_path(const char *prog)
{
	const char *path = getenv("PATH");
	struct strbuf sb = STRBUF_INIT;
	int found = 0;

	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (!found) {
		size_t len = strcspn(path, ":");

		strbuf_reset(&sb);
		if (len)
			strbuf_add(&sb, path, len);
		else
			strbuf_addch(&sb, '.');
		strbuf_addf(&sb, "/%s", prog);
		found = !access(sb.buf, X_OK);
		if (!path[len])
			break;
		path += len + 1;
	}
	strbuf_release(&sb);
	return found;
}

struct exec_arg {
	const char *const *argv;
	int capture_stdout;
	int err_fd;		/* stderr goes here; -1: left as it is */
};

static int exec_command(void *arg, int fd)
{
	const struct exec_arg *x = arg;

	if (x->capture_stdout && dup2(fd, STDOUT_FILENO) < 0)
		return -1;
	if (x->err_fd >= 0 && dup2(x->err_fd, STDERR_FILENO) < 0)
		return -1;
	execvp(x->argv[0], (char *const *)x->argv);
	fprintf(stderr, "cannot run '%s': %s\n", x->argv[0], strerror(errno));
	return -1;
}

/* argv as one line, for messages. */
void fleet_add_cmdline(struct strbuf *sb, const char *const *argv)
{
	for (size_t i = 0; argv[i]; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", argv[i]);
}

int fleet_command(const char *const *argv, double timeout_s, struct strbuf *out,
		  struct strbuf *err)
{
	const char *dir = getenv("TMPDIR");
	struct exec_arg x = { .argv = argv, .capture_stdout = out != NULL, .err_fd = -1 };
	struct strbuf tmp = STRBUF_INIT, cmd = STRBUF_INIT;
	struct child c;
	int rc = -1, end;

	fleet_add_cmdline(&cmd, argv);
	if (!in_path(argv[0])) {
		error("cannot run '%s': no such program in PATH", argv[0]);
		goto out;
	}
	if (err) {
		/* stderr apart from stdout, in an unlinked scratch file. */
		strbuf_addf(&tmp, "%s/kbench-stderr-XXXXXX", dir && *dir ? dir : "/tmp");
		x.err_fd = mkstemp(tmp.buf);
		if (x.err_fd < 0) {
			error("cannot create a file in '%s': %s", dir && *dir ? dir : "/tmp",
			      strerror(errno));
			goto out;
		}
		unlink(tmp.buf);
	}
	fflush(stdout);
	fflush(stderr);
	if (child_start(&c, exec_command, &x))
		goto out;
	end = child_finish(&c, timeout_s, NULL, out);
	if (end < 0)
		goto out;
	if (end == CHILD_TIMEOUT) {
		error("'%s' did not finish within %.0f s", cmd.buf, timeout_s);
		goto out;
	}
	if (err && x.err_fd >= 0) {
		char buf[4096];
		ssize_t n;

		lseek(x.err_fd, 0, SEEK_SET);
		while ((n = read(x.err_fd, buf, sizeof(buf))) > 0)
			strbuf_add(err, buf, (size_t)n);
	}
	if (WIFEXITED(c.status))
		rc = WEXITSTATUS(c.status);
	else if (WIFSIGNALED(c.status))
		rc = 128 + WTERMSIG(c.status);
	else
		rc = 128;
out:
	if (x.err_fd >= 0)
		close(x.err_fd);
	strbuf_release(&tmp);
	strbuf_release(&cmd);
	return rc;
}

/* ---- this kbench ---- */

int fleet_self_path(struct strbuf *out)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0)
		return error("cannot find the kbench binary (/proc/self/exe): %s",
			     n < 0 ? strerror(errno) : "empty");
	strbuf_add(out, buf, (size_t)n);
	return 0;
}
