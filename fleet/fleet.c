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

/* argv as one line, for messages. */
void fleet_add_cmdline(struct strbuf *sb, const char *const *argv)
{
	for (size_t i = 0; argv[i]; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", argv[i]);
}

int fleet_command(const char *const *argv, double timeout_s, struct strbuf *out,
		  struct strbuf *err)
{
	struct child_program p = CHILD_PROGRAM_INIT;
	struct child_io io = { .out = out, .err = err, .timeout_s = timeout_s };
	struct strbuf found = STRBUF_INIT, why = STRBUF_INIT, cmd = STRBUF_INIT;
	int rc = -1, end;

	if (child_find_program(argv[0], NULL, &found)) {
		error("cannot run '%s': no such program in PATH", argv[0]);
		goto out;
	}
	/* In a group of its own, so that nothing it starts outlives it. */
	p.argv = argv;
	p.new_group = 1;
	/* What kbench printed goes before what the command prints. */
	fflush(stdout);
	fflush(stderr);
	end = child_program_run(&p, &io, &why);
	if (end < 0) {
		error("%s", why.buf);
		goto out;
	}
	if (end == CHILD_TIMEOUT) {
		fleet_add_cmdline(&cmd, argv);
		error("'%s' did not finish within %.0f s", cmd.buf, timeout_s);
		goto out;
	}
	if (WIFEXITED(p.w.status))
		rc = WEXITSTATUS(p.w.status);
	else if (WIFSIGNALED(p.w.status))
		rc = 128 + WTERMSIG(p.w.status);
	else
		rc = 128;
out:
	strbuf_release(&found);
	strbuf_release(&why);
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
