/* git: the one way kbench runs git on a kernel tree: git -C TREE ARGS...
 * through lib/child, in a process group of its own, its wait bounded,
 * its stdout captured and its stderr kept to say what failed.
 *
 *	const char *args[] = { "rev-parse", "--verify", "HEAD", NULL };
 *	struct git_cmd g = GIT_CMD_INIT;
 *
 *	g.tree = tree;
 *	g.out = &id;
 *	g.timeout_s = 300;
 *	if (git_run(&g, args, &err))
 *		(err says why; g.end, g.status and g.msg say how it ended)
 *	git_cmd_release(&g); */
#ifndef KBENCH_GIT_H
#define KBENCH_GIT_H

#include "lib/strbuf.h"

#include <stddef.h>

struct git_cmd {
	const char *tree;		/* it runs as git -C tree; NULL: git here */
	const char *const *env;		/* "NAME=VALUE" set for it, NULL-terminated;
					 * NULL: none */
	const char *input;		/* written to its stdin; NULL: /dev/null */
	struct strbuf *out;		/* its stdout, appended; NULL: dropped */
	size_t out_max;			/* it is stopped once out holds more than
					 * out_max bytes; 0: no bound */
	double timeout_s;		/* it is killed, with all it started, after
					 * this long; 0: never */
	/* Set by git_run(): */
	int end;			/* an enum child_end (lib/child.h); -1: it
					 * did not run */
	int status;			/* its wait status, when end is CHILD_EXITED */
	struct strbuf msg;		/* its stderr */
};
#define GIT_CMD_INIT { .msg = STRBUF_INIT, .end = -1 }

/* Run git [-C g->tree] args... (args NULL-terminated, args[0] the git
 * command). Return 0 when it exited with status 0; else -1 with err
 * appended: why it did not run (end -1: child_program_run's words), "git
 * ARGS0 did not end within N s: killed" (CHILD_TIMEOUT), "git ARGS0: its
 * output passed N bytes" (CHILD_OUT_FULL), or "git ARGS0 failed: " and
 * the last line of its stderr (nothing after "failed" when it printed
 * none). A caller that words the failure itself reads g->end, g->status
 * and g->msg. */
int git_run(struct git_cmd *g, const char *const *args, struct strbuf *err);

/* git_run() of git -C tree args..., bounded by timeout_s (0: never),
 * its stdout appended to out (NULL: dropped). Return 0, or -1 with err
 * appended, as git_run() says. */
int git_output(const char *tree, const char *const *args, double timeout_s, struct strbuf *out,
	       struct strbuf *err);

/* Free what git_run() kept in g (its stderr); g may be run again. */
void git_cmd_release(struct git_cmd *g);

#endif
