/* t1100-config: the INI parser keeps lines, empty sections and continuation
 * lines, and rejects what it cannot parse with file:line.
 * Covers: runner/conf.c runner/plan.c workloads/params.c */
#include "config.h"
#include "../tap.h"
#include "runner/conf.h"
#include "workloads/params.h"
#include "runner/plan.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Capture stderr of fn into buf. */
static int capture(char *buf, size_t len, int (*fn)(const char *), const char *arg)
{
	FILE *tmp = tmpfile();
	int saved = dup(2), rc;
	size_t n;

	fflush(stderr);
	dup2(fileno(tmp), 2);
	rc = fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, len - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
	return rc;
}

static int parse_only(const char *text)
{
	struct config c;
	int rc;

	config_init(&c);
	rc = config_load_string(&c, "t.conf", text);
	config_release(&c);
	return rc;
}

static int plan_only(const char *text)
{
	struct config c;
	struct plan p;
	int rc;

	config_init(&c);
	rc = config_load_string(&c, "t.conf", text);
	if (!rc) {
		rc = plan_build(&c, NULL, &p);
		if (!rc)
			plan_release(&p);
	}
	config_release(&c);
	return rc;
}

int main(void)
{
	struct config c;
	struct plan p;
	char msg[1024];
	const struct conf_entry *e;
	char longline[400];

	config_init(&c);
	ok(!config_load_string(&c, "t.conf",
			       "# comment\n[global]\niterations = 3\n\n[hackbench-process-pipes]\n"
			       "[hackbench-thread-sockets]\ngroups = 1 2\n  4 8\nloops = 10\n"),
	   "a config with an empty section parses");
	ok(c.n == 2, "both sections are kept, the empty one too (%zu)", c.n);
	ok(c.n == 2 && c.sections[0].line == 5, "the empty section knows its line");
	e = c.n == 2 ? conf_section_get(&c.sections[1], "groups") : NULL;
	ok(e && !strcmp(e->value, "1 2 4 8") && e->line == 7,
	   "an indented line continues the value, the key keeps its first line");
	e = c.n == 2 ? conf_section_get(&c.sections[1], "loops") : NULL;
	ok(e && e->line == 9, "keys know their line (%d)", e ? e->line : -1);
	ok(!strcmp(c.name.buf, "t"), "the config name is the file's base name");
	ok(!plan_build(&c, NULL, &p) && p.n == 2 && p.sections[0].iterations == 3 &&
	   p.sections[1].nrows == 4, "the plan takes [global] defaults and the row list");
	plan_release(&p);
	ok(!plan_build(&c, "thread", &p) && p.n == 1, "--only selects sections by regex");
	plan_release(&p);
	config_release(&c);

	ok(capture(msg, sizeof(msg), parse_only, "[a]\nx = 1\nthis is not ini\n") &&
	   strstr(msg, "t.conf:3:"), "a bad line is reported with its number: %s", msg);
	ok(capture(msg, sizeof(msg), parse_only, "[a]\nx = 1\nx = 2\n") &&
	   strstr(msg, "t.conf:3: duplicate key 'x' in [a] (first at line 2)"),
	   "a duplicate key names both lines");
	ok(capture(msg, sizeof(msg), parse_only, "x = 1\n") && strstr(msg, "t.conf:1:") &&
	   strstr(msg, "outside any section"), "a key before any section is an error");
	memset(longline, 'x', sizeof(longline));
	memcpy(longline, "[a]\nk = ", 8);
	longline[sizeof(longline) - 2] = '\n';
	longline[sizeof(longline) - 1] = '\0';
	ok(capture(msg, sizeof(msg), parse_only, longline) && strstr(msg, "t.conf:2: line is"),
	   "an over-long line is an error, not a silent split");

	ok(capture(msg, sizeof(msg), plan_only, "[hackbench-a]\nloopz = 3\n") &&
	   strstr(msg, "t.conf:2: unknown key 'loopz' in [hackbench-a] (did you mean 'loops'?)"),
	   "an unknown key names file, line, section and the nearest key: %s", msg);
	ok(capture(msg, sizeof(msg), plan_only, "[hackbench-a]\nloops = many\n") &&
	   strstr(msg, "t.conf:2: invalid value 'many' for 'loops'") && strstr(msg, "integer"),
	   "a bad value names what was expected: %s", msg);
	ok(capture(msg, sizeof(msg), plan_only, "[hackbench-a]\nmode = fibers\n") &&
	   strstr(msg, "one of process|thread"), "a bad enum lists the choices");
	ok(capture(msg, sizeof(msg), plan_only, "[netcat-a]\nx = 1\n") &&
	   strstr(msg, "t.conf:1: section [netcat-a] names no workload"),
	   "a section without a workload is an error: %s", msg);
	ok(capture(msg, sizeof(msg), plan_only, "[a]\nworkload = nope\n") &&
	   strstr(msg, "t.conf:2: unknown workload 'nope'"), "an unknown workload is named");
	ok(capture(msg, sizeof(msg), plan_only, "[global]\nfoo = 1\n[hackbench-a]\n") &&
	   strstr(msg, "t.conf:2: unknown key 'foo' in [global]"),
	   "a [global] key no section takes is an error");
	ok(capture(msg, sizeof(msg), plan_only, "[hackbench-a]\niterations = 0\n") &&
	   strstr(msg, "from 1 to"), "iterations must be positive");
	ok(capture(msg, sizeof(msg), plan_only, "[hackbench-a]\ngroups = stride:1..\n") &&
	   strstr(msg, "stride:MIN..MAX"), "a bad stride says the syntax");
	return done_testing();
}
