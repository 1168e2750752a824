/* t1546-git: kernel/git on a real repository made in a scratch
 * directory: a command that succeeds with its output, input fed, one
 * that fails with git's message (and one that fails silently), git not
 * found, and a command that runs too long killed at its bound.
 * Covers: kernel/git.c */
#include "config.h"
#include "kernel/git.h"
#include "lib/child.h"
#include "lib/clock.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Run git in tree with args; 0 or -1, what it printed into out, why it
 * failed into err (both reset first), how it ended into *end and *code
 * (its exit status, or -1). */
static int git(const char *tree, const char *const *args, const char *input, double timeout_s,
	       struct strbuf *out, struct strbuf *err, int *end, int *code)
{
	struct git_cmd g = GIT_CMD_INIT;
	int rc;

	strbuf_reset(out);
	strbuf_reset(err);
	g.tree = tree;
	g.input = input;
	g.out = out;
	g.timeout_s = timeout_s;
	rc = git_run(&g, args, err);
	*end = g.end;
	*code = g.end == CHILD_EXITED && WIFEXITED(g.status) ? WEXITSTATUS(g.status) : -1;
	git_cmd_release(&g);
	return rc;
}

static void test_success(const char *dir)
{
	const char *init[] = { "init", "-q", dir, NULL };
	const char *gitdir[] = { "rev-parse", "--git-dir", NULL };
	const char *hash[] = { "hash-object", "--stdin", NULL };
	const char *alias[] = { "config", "alias.slow", "!sleep 30", NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int end, code;

	ok(!git(NULL, init, NULL, 60, &out, &err, &end, &code) && end == CHILD_EXITED &&
	   code == 0, "git init without a tree runs here: '%s'", err.buf);
	ok(!git(dir, gitdir, NULL, 60, &out, &err, &end, &code), "git -C DIR rev-parse runs");
	ok_text(out.buf, ".git\n", "... its stdout captured");
	ok(!git(dir, hash, "hello\n", 60, &out, &err, &end, &code), "input is fed to stdin");
	ok_text(out.buf, "ce013625030ba8dba906f756967f9e9ca394464a\n", "... and hashed");
	ok(!git(dir, alias, NULL, 60, &out, &err, &end, &code), "a slow alias is set");
	strbuf_reset(&out);
	strbuf_addstr(&out, "kept ");
	ok(!git_output(dir, gitdir, 60, &out, &err), "git_output runs it");
	ok_text(out.buf, "kept .git\n", "... its stdout appended");
	ok(git_output(dir, (const char *[]){ "rev-parse", "--verify", "nosuch", NULL }, 60, NULL,
		      &err), "git_output fails as git does");
	ok(strstr(err.buf, "git rev-parse failed: fatal: ") != NULL, "... and says why: '%s'",
	   err.buf);
	strbuf_release(&out);
	strbuf_release(&err);
}

static void test_failure(const char *dir)
{
	const char *verify[] = { "rev-parse", "--verify", "no-such-ref", NULL };
	const char *quiet[] = { "rev-parse", "--verify", "--quiet", "no-such-ref", NULL };
	const char *none[] = { "rev-parse", "--git-dir", NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct git_cmd g = GIT_CMD_INIT;
	const char *env[] = { "PATH=/nonexistent", NULL };
	int end, code;

	ok(git(dir, verify, NULL, 60, &out, &err, &end, &code) && end == CHILD_EXITED &&
	   code == 128, "a ref that is not there fails with status 128");
	ok_text(err.buf, "git rev-parse failed: fatal: Needed a single revision",
		"... and git's last line says why");
	ok(git(dir, quiet, NULL, 60, &out, &err, &end, &code) && code == 1,
	   "--quiet fails with status 1");
	ok_text(err.buf, "git rev-parse failed", "... and nothing after 'failed'");
	g.tree = dir;
	g.env = env;
	strbuf_reset(&err);
	ok(git_run(&g, none, &err) && g.end == -1, "git not in PATH does not run");
	ok_text(err.buf, "cannot run 'git': command not found", "... and says so");
	git_cmd_release(&g);
	strbuf_release(&out);
	strbuf_release(&err);
}

static void test_timeout(const char *dir)
{
	const char *slow[] = { "slow", NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int64_t start = clock_ns(CLOCK_MONOTONIC);
	double took_s;
	int end, code;

	ok(git(dir, slow, NULL, 1, &out, &err, &end, &code) && end == CHILD_TIMEOUT,
	   "a command that runs past its bound is killed");
	took_s = (double)(clock_ns(CLOCK_MONOTONIC) - start) / 1e9;
	ok(took_s < 10, "... at its bound, not at its end (%.1f s)", took_s);
	ok_text(err.buf, "git slow did not end within 1 s: killed", "... and says so");
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	char dir[] = "t1546.XXXXXX";
	struct strbuf cmd = STRBUF_INIT;

	child_reaper_init();
	if (!mkdtemp(dir))
		return ok(0, "a scratch directory"), done_testing();
	test_success(dir);
	test_failure(dir);
	test_timeout(dir);
	strbuf_addf(&cmd, "rm -rf '%s'", dir);
	if (system(cmd.buf))
		diag("cannot remove %s", dir);
	strbuf_release(&cmd);
	return done_testing();
}
