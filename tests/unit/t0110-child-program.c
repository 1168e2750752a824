/* t0110-child-program: lib/child's programs: the PATH lookup, output
 * captured apart or together and held to a limit, input fed, a program
 * that does not start said so, and one that runs too long killed with
 * its process group.
 * Covers: lib/child.c */
#include "config.h"
#include "lib/child.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run argv with io; its end, and why it did not run into why. */
static int run(const char *const *argv, struct child_io *io, struct strbuf *why)
{
	struct child_program p = CHILD_PROGRAM_INIT;

	p.argv = argv;
	return child_program_run(&p, io, why);
}

static void test_find(const char *dir)
{
	struct strbuf found = STRBUF_INIT, path = STRBUF_INIT, want = STRBUF_INIT;
	FILE *f;
	int rc;

	rc = child_find_program("sh", "/nonexistent:/bin:/usr/bin", &found);
	ok(!rc && !strcmp(found.buf, "/bin/sh"), "sh is found in the second entry: '%s'",
	   found.buf);
	strbuf_reset(&found);
	errno = 0;
	ok(child_find_program("no-such-program-t0110", "/bin:/usr/bin", &found) &&
	   errno == ENOENT && !found.len, "a program in no entry: ENOENT");
	ok(child_find_program("sh", "", &found), "an empty PATH holds nothing");
	strbuf_addf(&path, "%s/prog", dir);
	f = fopen(path.buf, "w");
	if (f)
		fclose(f);
	ok(child_find_program("prog", dir, &found),
	   "a file that may not be executed is not a program");
	chmod(path.buf, 0755);
	strbuf_addf(&want, "%s/prog", dir);
	rc = child_find_program("prog", dir, &found);
	ok(!rc && !strcmp(found.buf, want.buf), "once it may be, it is found: '%s'", found.buf);
	strbuf_reset(&found);
	ok(!child_find_program(path.buf, "/nonexistent", &found) && !strcmp(found.buf, path.buf),
	   "a name with a '/' is that file, whatever the path");
	unlink(path.buf);
	errno = 0;
	ok(child_find_program(path.buf, NULL, &found) && errno == ENOENT,
	   "... and fails with its errno when it is not there");
	strbuf_release(&found);
	strbuf_release(&path);
	strbuf_release(&want);
}

static void test_output(void)
{
	const char *both[] = { "sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	const char *cat[] = { "cat", NULL };
	const char *seq[] = { "seq", "1", "1000", NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, why = STRBUF_INIT;
	struct child_io io = { .out = &out, .err = &err };
	struct child_program p = CHILD_PROGRAM_INIT;
	static char big[1 << 20];
	int end;

	end = run(both, &io, &why);
	ok(end == CHILD_EXITED && !strcmp(out.buf, "out\n") && !strcmp(err.buf, "err\n"),
	   "stdout and stderr captured apart");
	p.argv = both;
	io = (struct child_io){ .out = &out, .err = &out };
	strbuf_reset(&out);
	end = child_program_run(&p, &io, &why);
	ok(end == CHILD_EXITED && !strcmp(out.buf, "out\nerr\n"),
	   "... or together, in the order written");
	ok(WIFEXITED(p.w.status) && WEXITSTATUS(p.w.status) == 3, "its exit status is kept");

	memset(big, 'x', sizeof(big));
	strbuf_reset(&out);
	io = (struct child_io){ .input = big, .input_len = sizeof(big), .out = &out };
	end = run(cat, &io, &why);
	ok(end == CHILD_EXITED && out.len == sizeof(big) && !memcmp(out.buf, big, sizeof(big)),
	   "1 MiB fed to cat comes back whole");

	strbuf_reset(&out);
	io = (struct child_io){ .out = &out, .out_limit = 100 };
	end = run(seq, &io, &why);
	ok(end == CHILD_EXITED && out.len == 100 && io.out_dropped == 3893 - 100 &&
	   !strcmp(out.buf + out.len - 5, "1000\n"),
	   "out_limit keeps the last bytes and counts the rest (%zu dropped)", io.out_dropped);
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&why);
}

static void test_failures(void)
{
	const char *none[] = { "no-such-program-t0110", NULL };
	const char *rel[] = { "./no-such-file", NULL };
	const char *pwd[] = { "pwd", NULL };
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	struct child_program p = CHILD_PROGRAM_INIT;
	struct child_io io = { .out = &out };
	int end;

	end = run(none, &io, &why);
	ok(end == -1 && !strcmp(why.buf, "cannot run 'no-such-program-t0110': command not found"),
	   "a program not found: '%s'", why.buf);
	strbuf_reset(&why);
	end = run(rel, &io, &why);
	ok(end == -1 && !strcmp(why.buf, "cannot run './no-such-file': No such file or directory"),
	   "a file not there: '%s'", why.buf);
	strbuf_reset(&why);
	p.argv = pwd;
	p.dir = "/no/such/dir";
	end = child_program_run(&p, &io, &why);
	ok(end == -1 && p.failed_dir && p.failed_errno == ENOENT &&
	   !strcmp(why.buf, "cannot change to directory '/no/such/dir': No such file or directory"),
	   "a directory not there: '%s'", why.buf);
	p.dir = "/";
	strbuf_reset(&why);
	end = child_program_run(&p, &io, &why);
	ok(end == CHILD_EXITED && !strcmp(out.buf, "/\n"), "the program runs in dir");
	strbuf_release(&out);
	strbuf_release(&why);
}

static void test_env_and_timeout(void)
{
	const char *echo[] = { "sh", "-c", "echo $T0110", NULL };
	const char *env[] = { "T0110=42", "PATH=/bin:/usr/bin", NULL };
	/* A grandchild that holds the pipe and outlives its parent's kill. */
	const char *hang[] = { "sh", "-c", "sleep 60 & echo $!; wait", NULL };
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	struct child_program p = CHILD_PROGRAM_INIT;
	struct child_io io = { .out = &out };
	int end;
	pid_t grandchild;

	p.argv = echo;
	p.env = env;
	end = child_program_run(&p, &io, &why);
	ok(end == CHILD_EXITED && !strcmp(out.buf, "42\n"), "env reaches the program");
	strbuf_reset(&out);
	p = (struct child_program)CHILD_PROGRAM_INIT;
	p.argv = hang;
	p.new_group = 1;
	io = (struct child_io){ .out = &out, .timeout_s = 0.3 };
	end = child_program_run(&p, &io, &why);
	grandchild = (pid_t)atoi(out.buf);
	ok(end == CHILD_TIMEOUT && WIFSIGNALED(p.w.status), "a program past its timeout is killed");
	ok(grandchild > 0 && kill(grandchild, 0) && errno == ESRCH,
	   "... with what it started, in its group");
	strbuf_release(&out);
	strbuf_release(&why);
}

/* A program whose output passes io->out_max is stopped there, however
 * much more it would write. */
static void test_out_max(void)
{
	const char *yes[] = { "sh", "-c", "exec yes 0123456789abcdef", NULL };
	const char *few[] = { "sh", "-c", "printf 12345678", NULL };
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	struct child_program p = CHILD_PROGRAM_INIT;
	struct child_io io = { .out = &out, .out_max = 100000, .timeout_s = 60 };
	int end;

	p.argv = yes;
	end = child_program_run(&p, &io, &why);
	ok(end == CHILD_OUT_FULL, "an endless output stops at out_max (end %d: %s)", end, why.buf);
	ok(out.len == 100001, "... with one byte past the bound kept (%zu)", out.len);
	ok(!p.w.running, "... and the program reaped");
	strbuf_reset(&out);
	p = (struct child_program)CHILD_PROGRAM_INIT;
	p.argv = few;
	io = (struct child_io){ .out = &out, .out_max = 8 };
	end = child_program_run(&p, &io, &why);
	ok(end == CHILD_EXITED && !strcmp(out.buf, "12345678"), "output of out_max bytes is whole");
	strbuf_release(&out);
	strbuf_release(&why);
}

int main(void)
{
	char dir[] = "t0110.XXXXXX";

	child_reaper_init();
	if (!mkdtemp(dir))
		return ok(0, "a scratch directory"), done_testing();
	test_find(dir);
	test_output();
	test_failures();
	test_out_max();
	test_env_and_timeout();
	ok(!rmdir(dir), "no file left behind in %s", dir);
	ok(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD, "no child is left, not even a zombie");
	return done_testing();
}
