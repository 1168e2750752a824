/* git: running git on a kernel tree, for the kernel cache, bisect and
 * watch alike. */
#include "config.h"
#include "kernel/git.h"
#include "lib/child.h"
#include "lib/xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* Say in err why g, run as git args[0], did not succeed. */
static void say_failure(struct git_cmd *g, const char *cmd, struct strbuf *err)
{
	const char *last;

	if (g->end == CHILD_TIMEOUT) {
		strbuf_addf(err, "git %s did not end within %.0f s: killed", cmd, g->timeout_s);
		return;
	}
	if (g->end == CHILD_OUT_FULL) {
		strbuf_addf(err, "git %s: its output passed %zu bytes", cmd, g->out_max);
		return;
	}
	strbuf_rtrim(&g->msg);
	last = strrchr(g->msg.buf, '\n');
	strbuf_addf(err, "git %s failed%s%s", cmd, g->msg.len ? ": " : "",
		    last ? last + 1 : g->msg.buf);
}

int git_run(struct git_cmd *g, const char *const *args, struct strbuf *err)
{
	struct child_program p = CHILD_PROGRAM_INIT;
	struct strbuf sink = STRBUF_INIT;
	struct child_io io = { .out = g->out ? g->out : &sink, .err = &g->msg,
			       .input = g->input, .input_len = g->input ? strlen(g->input) : 0,
			       .out_max = g->out_max, .timeout_s = g->timeout_s };
	size_t nargs = 0, n = 0;
	const char **argv;
	int rc = -1;

	while (args[nargs])
		nargs++;
	argv = xcalloc(nargs + 4, sizeof(*argv));
	argv[n++] = "git";
	if (g->tree) {
		argv[n++] = "-C";
		argv[n++] = g->tree;
	}
	for (size_t i = 0; i < nargs; i++)
		argv[n++] = args[i];
	strbuf_reset(&g->msg);
	g->status = 0;
	p.argv = argv;
	p.env = g->env;
	p.new_group = 1;
	if (!g->input)
		p.in = CHILD_FD_NULL;
	g->end = child_program_run(&p, &io, err);
	if (g->end < 0)
		goto out;
	g->status = p.w.status;
	if (g->end != CHILD_EXITED || !WIFEXITED(g->status) || WEXITSTATUS(g->status)) {
		say_failure(g, args[0] ? args[0] : "", err);
		goto out;
	}
	rc = 0;
out:
	free(argv);
	strbuf_release(&sink);
	return rc;
}

int git_output(const char *tree, const char *const *args, double timeout_s, struct strbuf *out,
	       struct strbuf *err)
{
	struct git_cmd g = GIT_CMD_INIT;
	int rc;

	g.tree = tree;
	g.out = out;
	g.timeout_s = timeout_s;
	rc = git_run(&g, args, err);
	git_cmd_release(&g);
	return rc;
}

void git_cmd_release(struct git_cmd *g)
{
	strbuf_release(&g->msg);
}
