/* t0300-parse-options: the option-table parser (permutation, "--", "=",
 * bundles, abbreviations, errors) and the usage text it generates.
 * Covers: lib/parse-options.c lib/docs.c lib/suggest.c */
#include "config.h"
#include "../tap.h"
#include "lib/docs.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The variables the test table writes to. */
static struct {
	int quiet, verbose, workers, count, calls;
	double alpha;
	const char *name;
	struct opt_list configs;
	const char *cb_value;
} v;

static int check_mode(const struct parse_opt *opt, const char *value)
{
	v.calls++;
	v.cb_value = value;
	if (value && strcmp(value, "fast") && strcmp(value, "slow")) {
		fprintf(stderr, "kbench: invalid mode '%s'\n", value);
		return -1;
	}
	return 0;
}

/* The arguments' completion: two words, and how many came before. */
static int complete_nargs = -1;
static void complete_arg(struct parse_opt_complete *c)
{
	complete_nargs = c->nargs;
	parse_opt_complete_add(c, "alpha");
	parse_opt_complete_add(c, "beta");
	parse_opt_complete_add(c, "beta");
}

static const struct parse_opt_usage test_usage = {
	.synopsis = "kbench test [-c FILE...] [options] ARG...\n"
		    "                   [--mode MODE]",
	.description = "Test the parser.\nA second line.",
	.help_column = 22,
	.epilogue = "Exit status: 0 or 2.",
	.complete_args = complete_arg,
};

/* Parse args (NULL-terminated, the command name first) with the test
 * table; stdout and stderr go to out and err. Returns parse_options'
 * result; the arguments left are in argv_out. */
static int parse(const char **args, unsigned flags, char **argv_out, struct strbuf *out,
		 struct strbuf *err)
{
	struct parse_opt opts[] = {
		OPT_STRING_LIST('c', "config", &v.configs, "FILE", "a config (repeatable)"),
		OPT_STRING('n', "name", &v.name, "NAME", "the name; a long help that\n"
			   "goes on on a second line"),
		OPT_BOOL('q', "quiet", &v.quiet, "say less"),
		OPT_BOOL('v', NULL, &v.verbose, "say more"),
		OPT_INT_RANGE(0, "workers", &v.workers, "N", "workers, 1 to 10", 1, 10),
		OPT_INT(0, "count", &v.count, "N", NULL),
		OPT_DOUBLE(0, "alpha", &v.alpha, "A", "a level"),
		OPT_CALLBACK(0, "mode", NULL, "MODE", "fast or slow", check_mode),
		OPT_CALLBACK(0, "ping", NULL, NULL, NULL, check_mode),
		OPT_CALLBACK(0, "speed", NULL, "fast|slow", NULL, check_mode),
		OPT_HELP("this text"),
		OPT_END(),
	};
	FILE *fo = tmpfile(), *fe = tmpfile();
	int so = dup(1), se = dup(2), argc = 0, rc;
	char buf[8192];
	size_t n;

	opt_list_release(&v.configs);
	memset(&v, 0, sizeof(v));
	while (args[argc]) {
		argv_out[argc] = (char *)args[argc];
		argc++;
	}
	argv_out[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	dup2(fileno(fo), 1);
	dup2(fileno(fe), 2);
	rc = parse_options(argc, argv_out, opts, &test_usage, flags);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	strbuf_reset(out);
	strbuf_reset(err);
	rewind(fo);
	while ((n = fread(buf, 1, sizeof(buf), fo)))
		strbuf_add(out, buf, n);
	rewind(fe);
	while ((n = fread(buf, 1, sizeof(buf), fe)))
		strbuf_add(err, buf, n);
	fclose(fo);
	fclose(fe);
	return rc;
}

static const char expected_usage[] =
	"usage: kbench test [-c FILE...] [options] ARG...\n"
	"                   [--mode MODE]\n"
	"\n"
	"Test the parser.\n"
	"A second line.\n"
	"\n"
	"  -c, --config FILE   a config (repeatable)\n"
	"  -n, --name NAME     the name; a long help that\n"
	"                      goes on on a second line\n"
	"  -q, --quiet         say less\n"
	"  -v                  say more\n"
	"      --workers N     workers, 1 to 10\n"
	"      --alpha A       a level\n"
	"      --mode MODE     fast or slow\n"
	"  -h, --help          this text\n"
	"\n"
	"Exit status: 0 or 2.\n";

/* Did the parse leave exactly the arguments want (NULL-terminated)? */
static int args_are(int rc, char **argv, const char **want)
{
	int n = 0;

	while (want[n])
		n++;
	if (rc != n || argv[n])
		return 0;
	for (int i = 0; i < n; i++)
		if (strcmp(argv[i], want[i]))
			return 0;
	return 1;
}

static void test_parsing(void)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf ambiguous = STRBUF_INIT;
	char *argv[32];
	int rc;

	strbuf_addf(&ambiguous, "kbench: ambiguous option '--c' (could be '--config' or "
		    "'--count')\n%s", expected_usage);
	rc = parse((const char *[]){ "test", "a", "-c", "x.conf", "b", "--name=n1", "c", "-q",
				     NULL }, 0, argv, &out, &err);
	ok(args_are(rc, argv, (const char *[]){ "a", "b", "c", NULL }) && v.quiet &&
	   !strcmp(v.name, "n1") && v.configs.n == 1 && !strcmp(v.configs.v[0], "x.conf"),
	   "options may follow arguments, which keep their order (rc %d)", rc);

	rc = parse((const char *[]){ "test", "-q", "--", "-c", "--name", "-", NULL }, 0, argv,
		   &out, &err);
	ok(args_are(rc, argv, (const char *[]){ "-c", "--name", "-", NULL }) && v.quiet &&
	   !v.name && !v.configs.n, "'--' ends the options; what follows is left as it is");

	rc = parse((const char *[]){ "test", "-", "--name", "n2", NULL }, 0, argv, &out, &err);
	ok(args_are(rc, argv, (const char *[]){ "-", NULL }) && !strcmp(v.name, "n2"),
	   "'-' alone is an argument; '--name VALUE' takes the next one");

	rc = parse((const char *[]){ "test", "-cone", "-c", "two", "--config=three",
				     "--config", "four", "-nfirst", "-n", "last", NULL }, 0,
		   argv, &out, &err);
	ok(rc == 0 && v.configs.n == 4 && !strcmp(v.configs.v[0], "one") &&
	   !strcmp(v.configs.v[1], "two") && !strcmp(v.configs.v[2], "three") &&
	   !strcmp(v.configs.v[3], "four"),
	   "a repeatable option keeps every value in order, in -cV, -c V, --c=V, --c V");
	ok(v.name && !strcmp(v.name, "last"), "a string option keeps the last value (%s)",
	   v.name ? v.name : "(null)");

	rc = parse((const char *[]){ "test", "-qvcFILE", NULL }, 0, argv, &out, &err);
	ok(rc == 0 && v.quiet && v.verbose && v.configs.n == 1 &&
	   !strcmp(v.configs.v[0], "FILE"), "short flags bundle, the last may take the rest");

	rc = parse((const char *[]){ "test", "--qui", "--na", "x", "--conf=y", NULL }, 0, argv,
		   &out, &err);
	ok(rc == 0 && v.quiet && !strcmp(v.name, "x") && v.configs.n == 1,
	   "a long name may be shortened to an unambiguous prefix");

	rc = parse((const char *[]){ "test", "--c", "x", NULL }, 0, argv, &out, &err);
	if (!ok(rc == PARSE_OPT_ERROR && !strcmp(err.buf, ambiguous.buf),
		"an ambiguous prefix is an error, the usage follows: %.*s",
		(int)strcspn(err.buf, "\n"), err.buf))
		diag("got:\n%s", err.buf);

	rc = parse((const char *[]){ "test", "--workers", "4", "--count=-3", "--alpha", "0.25",
				     NULL }, 0, argv, &out, &err);
	ok(rc == 0 && v.workers == 4 && v.count == -3 && v.alpha == 0.25,
	   "numbers: --workers 4, --count=-3, --alpha 0.25");

	rc = parse((const char *[]){ "test", "--mode", "fast", "--ping", NULL }, 0, argv, &out,
		   &err);
	ok(rc == 0 && v.calls == 2 && !v.cb_value, "callbacks get the value, or NULL for none");
	ok(!strcmp(out.buf, "") && !strcmp(err.buf, ""), "a good parse prints nothing");

	rc = parse((const char *[]){ "kbench", "--quiet", "--name", "n", "run", "-c", "x",
				     "--bogus", NULL }, PARSE_OPT_STOP_AT_NON_OPTION, argv, &out,
		   &err);
	ok(args_are(rc, argv, (const char *[]){ "run", "-c", "x", "--bogus", NULL }) &&
	   v.quiet && !strcmp(v.name, "n") && !v.configs.n,
	   "PARSE_OPT_STOP_AT_NON_OPTION leaves the command and its options alone");

	strbuf_release(&ambiguous);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* Parse args and check the result is an error whose stderr is exactly
 * want_err, followed by the usage when with_usage is set. */
static void expect_error(const char **args, const char *want_err, int with_usage,
			 const char *what)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, want = STRBUF_INIT;
	char *argv[32];
	int rc = parse(args, 0, argv, &out, &err);

	strbuf_addstr(&want, want_err);
	if (with_usage)
		strbuf_addstr(&want, expected_usage);
	if (!ok(rc == PARSE_OPT_ERROR && !strcmp(err.buf, want.buf) && !out.len,
		"%s (rc %d): %.*s", what, rc, (int)strcspn(err.buf, "\n"), err.buf))
		diag("got on stderr:\n%s\nwanted:\n%s", err.buf, want.buf);
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&want);
}

static void test_errors(void)
{
	expect_error((const char *[]){ "test", "a", "--bogus", "b", NULL },
		     "kbench: unknown option '--bogus'\n", 1, "an unknown long option");
	expect_error((const char *[]){ "test", "--bogus=3", NULL },
		     "kbench: unknown option '--bogus=3'\n", 1, "an unknown option with a value");
	expect_error((const char *[]){ "test", "-qx", NULL },
		     "kbench: unknown option '-x'\n", 1, "an unknown short option in a bundle");
	expect_error((const char *[]){ "test", "--=x", NULL },
		     "kbench: unknown option '--=x'\n", 1, "'--=x' matches no option");
	expect_error((const char *[]){ "test", "--nmae", "x", NULL },
		     "kbench: unknown option '--nmae' (did you mean '--name'?)\n", 1,
		     "an unknown option close to one");
	expect_error((const char *[]){ "test", "--quite=1", NULL },
		     "kbench: unknown option '--quite=1' (did you mean '--quiet'?)\n", 1,
		     "... given a value");
	expect_error((const char *[]){ "test", "-c", NULL },
		     "kbench: option '-c' needs a value\n", 1, "a short option without its value");
	expect_error((const char *[]){ "test", "x", "--name", NULL },
		     "kbench: option '--name' needs a value\n", 1,
		     "a long option without its value");
	expect_error((const char *[]){ "test", "--quiet=1", NULL },
		     "kbench: option '--quiet' takes no value\n", 1, "a flag given a value");
	expect_error((const char *[]){ "test", "--workers", "x", NULL },
		     "kbench: invalid value 'x' for '--workers': expected a number from 1 to 10\n",
		     0, "a number that is not one");
	expect_error((const char *[]){ "test", "--work=11", NULL },
		     "kbench: invalid value '11' for '--workers': expected a number from 1 to 10\n",
		     0, "a number out of range, named by its full name");
	expect_error((const char *[]){ "test", "--count", "99999999999", NULL },
		     "kbench: invalid value '99999999999' for '--count': expected an integer\n",
		     0, "an int that overflows");
	expect_error((const char *[]){ "test", "--count", "", NULL },
		     "kbench: invalid value '' for '--count': expected an integer\n",
		     0, "an empty number");
	expect_error((const char *[]){ "test", "--alpha", "0.5x", NULL },
		     "kbench: invalid value '0.5x' for '--alpha': expected a number\n",
		     0, "a double with trailing junk");
	expect_error((const char *[]){ "test", "--alpha", "nan", NULL },
		     "kbench: invalid value 'nan' for '--alpha': expected a number\n",
		     0, "a double that is not finite");
	expect_error((const char *[]){ "test", "--mode", "medium", NULL },
		     "kbench: invalid mode 'medium'\n", 0, "a callback's error stops the parse");
}

static void test_usage_text(void)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	char *argv[32];
	int rc;

	rc = parse((const char *[]){ "test", "-c", "x", "--help", "--bogus", NULL }, 0, argv,
		   &out, &err);
	if (!ok(rc == PARSE_OPT_HELP && !strcmp(out.buf, expected_usage) && !err.len,
		"--help prints the generated usage on stdout and stops"))
		diag("got:\n%s", out.buf);
	rc = parse((const char *[]){ "test", "-qh", NULL }, 0, argv, &out, &err);
	ok(rc == PARSE_OPT_HELP && !strcmp(out.buf, expected_usage), "so does -h in a bundle");
	strbuf_release(&out);
	strbuf_release(&err);
}

/* A table whose only short option is help: long options are not indented,
 * an overlong option is followed by one space, a title heads the list. */
static void test_usage_layout(void)
{
	int flag = 0;
	const char *s = NULL;
	const struct parse_opt opts[] = {
		OPT_BOOL(0, "flag", &flag, "a flag"),
		OPT_STRING(0, "format", &s, "default|simple", "overlong"),
		OPT_BOOL('q', NULL, &flag, NULL),
		OPT_HELP("this text"),
		OPT_END(),
	};
	const struct parse_opt_usage u = {
		.synopsis = "kbench x [--flag]",
		.options_title = "Options:",
		.help_column = 14,
	};
	const struct parse_opt none[] = { OPT_HELP(NULL), OPT_END() };
	struct strbuf sb = STRBUF_INIT;

	parse_opt_usage_format(&u, opts, &sb);
	if (!ok(!strcmp(sb.buf, "usage: kbench x [--flag]\n"
			"\n"
			"Options:\n"
			"  --flag      a flag\n"
			"  --format default|simple overlong\n"
			"  -h, --help  this text\n"),
		"no description or epilogue; a title; no short column for -h alone"))
		diag("got:\n%s", sb.buf);
	strbuf_reset(&sb);
	parse_opt_usage_format(&u, none, &sb);
	ok(!strcmp(sb.buf, "usage: kbench x [--flag]\n"), "no listed option, no option block");
	strbuf_release(&sb);
}

/* An installed kbench names the guides where they are installed: each
 * docs/NAME.md of a usage text gets the directory, a line the longer path
 * takes past 80 columns is broken at a blank, an option's help going on
 * at the help column; other paths and texts are left as they are. */
static void test_usage_docs(void)
{
	int flag = 0;
	const struct parse_opt opts[] = {
		OPT_BOOL(0, "flag", &flag, "a flag, as docs/ab.md and mydocs/x.md say"),
		OPT_HELP(NULL),
		OPT_END(),
	};
	const struct parse_opt_usage u = {
		.synopsis = "kbench x [--flag]",
		.description = "The arms are in kbench.conf(5), the design in docs/ab.md.",
		.help_column = 14,
		.epilogue = "The formulas are in docs/statistics.md; 'man -l docs/kbench.1'.",
	};
	struct strbuf sb = STRBUF_INIT;

	parse_opt_usage_format(&u, opts, &sb);
	ok_text(sb.buf, "usage: kbench x [--flag]\n"
		"\n"
		"The arms are in kbench.conf(5), the design in docs/ab.md.\n"
		"\n"
		"  --flag      a flag, as docs/ab.md and mydocs/x.md say\n"
		"\n"
		"The formulas are in docs/statistics.md; 'man -l docs/kbench.1'.\n",
		"no directory set: the texts as written");
	docs_set_dir("/opt/a-long-prefix/share/doc/kbench");
	strbuf_reset(&sb);
	parse_opt_usage_format(&u, opts, &sb);
	ok_text(sb.buf, "usage: kbench x [--flag]\n"
		"\n"
		"The arms are in kbench.conf(5), the design in\n"
		"/opt/a-long-prefix/share/doc/kbench/docs/ab.md.\n"
		"\n"
		"  --flag      a flag, as /opt/a-long-prefix/share/doc/kbench/docs/ab.md and\n"
		"              mydocs/x.md say\n"
		"\n"
		"The formulas are in /opt/a-long-prefix/share/doc/kbench/docs/statistics.md; 'man\n"
		"-l docs/kbench.1'.\n",
		"installed: the guides under the directory, lines within 80 columns");
	docs_set_dir(NULL);
	strbuf_release(&sb);
}

/* Global options are accepted after the command's own; wrapped usage
 * text stays within its width. */
static void test_global_and_wrap(void)
{
	int quiet = 0, flag = 0;
	const char *db = NULL;
	const struct parse_opt globals[] = {
		OPT_STRING(0, "db", &db, "FILE", NULL),
		OPT_BOOL('q', "quiet", &quiet, NULL),
		OPT_END(),
	};
	const struct parse_opt opts[] = {
		OPT_BOOL('f', "flag", &flag, "a flag"),
		OPT_END(),
	};
	struct parse_opt_usage u = { .synopsis = "cmd" };
	char *argv[] = { "cmd", "-f", "--db", "x.db", "arg", "-q", NULL };
	struct strbuf sb = STRBUF_INIT;
	int n;

	parse_options_set_global(globals);
	n = parse_options(6, argv, opts, &u, 0);
	parse_options_set_global(NULL);
	ok(n == 1 && flag && quiet && db && !strcmp(db, "x.db") && !strcmp(argv[0], "arg"),
	   "global options after the command: n %d flag %d quiet %d db %s", n, flag, quiet,
	   db ? db : "(null)");
	strbuf_addstr(&sb, "  key  ");
	usage_add_wrapped(&sb, "one two three four|five|six", 7, 20);
	ok(!strcmp(sb.buf, "  key  one two three\n       four|five|six"),
	   "wrapped at 20 columns: '%s'", sb.buf);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "  ");
	usage_add_wrapped(&sb, "a|bbbbbbbb|cccccccc|dd", 2, 13);
	ok(!strcmp(sb.buf, "  a|bbbbbbbb|\n  cccccccc|dd"), "a long choice list breaks after "
	   "'|': '%s'", sb.buf);
	strbuf_release(&sb);
}

/* Completing the last word: candidates after a line of directives. */
static void expect_completion(const char **args, const char *want, const char *what)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	char *argv[16];
	int rc = parse(args, 0, argv, &out, &err);

	ok(rc == PARSE_OPT_HELP && !strcmp(out.buf, want), "%s: rc %d, '%s'", what, rc, out.buf);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* Last: there is no leaving the completion once it is asked for. */
static void test_completion(void)
{
	parse_options_complete(NULL);
	expect_completion((const char *[]){ "test", "--wo", NULL }, "\n--workers\n",
			  "an option's name");
	expect_completion((const char *[]){ "test", "-", NULL },
			  "\n--config\n-c\n--name\n-n\n--quiet\n-q\n-v\n--workers\n--count\n"
			  "--alpha\n--mode\n--ping\n--speed\n--help\n-h\n", "every option");
	expect_completion((const char *[]){ "test", "--speed", "f", NULL }, "\nfast\n",
			  "a value among the argh's choices");
	expect_completion((const char *[]){ "test", "--sp=s", NULL }, "\n--sp=slow\n",
			  "... after '=', the option shortened");
	expect_completion((const char *[]){ "test", "--mode", "", NULL }, "\n",
			  "a value named in capitals: nothing offered");
	expect_completion((const char *[]){ "test", "x", "-q", "--mode", "fast", "b", NULL },
			  "\nbeta\n", "an argument, each candidate once");
	ok(complete_nargs == 1, "... after 1 argument: %d", complete_nargs);
	complete_nargs = -1;
	expect_completion((const char *[]){ "test", "--bogus", "--", "-q", "-a", NULL }, "\n",
			  "after an unknown option and '--', an argument");
	ok(complete_nargs == 1, "... after 1 argument: %d", complete_nargs);
}

int main(void)
{
	test_parsing();
	test_errors();
	test_usage_text();
	test_usage_layout();
	test_usage_docs();
	opt_list_release(&v.configs);
	test_global_and_wrap();
	test_completion();
	opt_list_release(&v.configs);
	return done_testing();
}
