/* t8110-external: the external workload through its option table: PCRE2
 * patterns (every match, the value group, compile errors with offsets),
 * param lists and the rows and labels they make, {placeholders}, the
 * aggregates, env and cwd, and each error with its exact message.
 * Covers: workloads/external.c workloads/external_options.c */
#include "config.h"
#include "lib/regex.h"
#include "lib/strbuf.h"
#include "machine/sysinfo.h"
#include "tests/tap.h"
#include "workloads/params.h"
#include "workloads/workload.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct workload_ops *ops;

/* An instance from "key=value" strings, finished and checked; NULL with
 * the error in err. */
static struct wl_params *ext(const char *const *kv, struct strbuf *err)
{
	struct wl_params *p = wl_params_new(ops);

	strbuf_reset(err);
	for (; *kv; kv++) {
		const char *eq = strchr(*kv, '=');
		char key[64];

		snprintf(key, sizeof(key), "%.*s", (int)(eq - *kv), *kv);
		if (wl_params_set(p, key, eq + 1, err))
			goto fail;
	}
	if (wl_params_finish(p, err) || ops->check(p, err))
		goto fail;
	return p;
fail:
	wl_params_free(p);
	return NULL;
}

/* The error an instance from kv fails with, and the key it names. */
static void is_error(const char *const *kv, const char *want, const char *want_key)
{
	struct strbuf err = STRBUF_INIT;
	struct wl_params *p = wl_params_new(ops);
	const char *key = NULL;
	int failed = 0;

	for (; *kv && !failed; kv++) {
		const char *eq = strchr(*kv, '=');
		char k[64];

		snprintf(k, sizeof(k), "%.*s", (int)(eq - *kv), *kv);
		failed = wl_params_set(p, k, eq + 1, &err) != 0;
		if (failed)
			key = "(when set)";
	}
	if (!failed) {
		failed = wl_params_finish(p, &err) || ops->check(p, &err);
		key = p->err_key ? p->err_key : "(none)";
	}
	ok(failed && !strcmp(err.buf, want) && (!want_key || !strcmp(key, want_key)),
	   "refused: %s [key %s]%s%s", err.buf, key ? key : "-",
	   strcmp(err.buf, want) ? " -- want: " : "", strcmp(err.buf, want) ? want : "");
	wl_params_free(p);
	strbuf_release(&err);
}

/* The labels of p's rows, space-separated. */
static void labels(const struct wl_params *p, struct strbuf *sb)
{
	size_t n;
	const long long *rows = wl_params_rows(p, &n);

	strbuf_reset(sb);
	for (size_t i = 0; i < n; i++) {
		char buf[WL_ROW_LEN];

		wl_params_row_label(p, rows[i], buf, sizeof(buf));
		strbuf_addf(sb, "%s%s", i ? " " : "", buf);
	}
}

/* Run row i of p; the results as "row=value,..." or "error: why". */
static void run(const struct wl_params *p, size_t i, struct strbuf *got)
{
	struct wl_sample s = { 0 };
	struct strbuf err = STRBUF_INIT;
	size_t n;
	const long long *rows = wl_params_rows(p, &n);

	strbuf_reset(got);
	if (ops->run_one(p, rows[i], &s, &err)) {
		strbuf_addf(got, "error: %s", err.buf);
	} else {
		for (int r = 0; r < s.nresults; r++)
			strbuf_addf(got, "%s%s=%g %s", r ? "," : "", s.results[r].row,
				    s.results[r].value, p->metrics[s.results[r].metric].unit);
		if (s.flag[0])
			strbuf_addf(got, " [%s]", s.flag);
	}
	strbuf_release(&err);
}

static void is_run(const char *const *kv, size_t row, const char *want, const char *what)
{
	struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
	struct wl_params *p = ext(kv, &err);

	if (p)
		run(p, row, &got);
	else
		strbuf_addf(&got, "config refused: %s", err.buf);
	ok(!strcmp(got.buf, want), "%s: %s%s%s", what, got.buf,
	   strcmp(got.buf, want) ? " -- want: " : "", strcmp(got.buf, want) ? want : "");
	wl_params_free(p);
	strbuf_release(&err);
	strbuf_release(&got);
}

static void check_regex(void)
{
	const char *out = "v=1\nw=5\nv=22\nxv=4\nv=333\n";
	struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
	struct kb_regex *re = kb_regex_compile("(?<value>[0-9]+", 0, &err);
	struct kb_regex_span sp;
	size_t pos = 0;
	int g, n = 0;

	ok(!re && !strcmp(err.buf, "at offset 15: missing closing parenthesis"),
	   "a pattern that does not compile: %s", err.buf);
	strbuf_reset(&err);
	re = kb_regex_compile("^v=(?<value>[0-9]+)$", KB_REGEX_MULTILINE, &err);
	g = re ? kb_regex_group(re, "value") : -2;
	ok(re && g == 1 && kb_regex_group(re, "nope") == -1,
	   "the value group is group %d; an unknown name is -1", g);
	diag("PCRE2 JIT %s", re && kb_regex_jit(re) ? "compiled the pattern" : "is not available");
	while (re && kb_regex_find(re, out, strlen(out), &pos, g, &sp, &err) > 0)
		strbuf_addf(&got, "%s%.*s@%zu-%zu", n++ ? " " : "", (int)(sp.gend - sp.gstart),
			    out + sp.gstart, sp.start, sp.end);
	ok(!strcmp(got.buf, "1@0-3 22@8-12 333@18-23"),
	   "every match, ^ and $ at each line, with the group: %s", got.buf);
	kb_regex_free(re);

	re = kb_regex_compile("x*|(?<value>y)", 0, &err);
	pos = 0;
	n = 0;
	while (re && n < 10 && kb_regex_find(re, "ab", 2, &pos, 1, &sp, &err) > 0)
		n++;
	ok(n == 3 && sp.gstart == (size_t)-1,
	   "empty matches move on and end (%d matches); a group that did not take part "
	   "has no span", n);
	kb_regex_free(re);
	strbuf_release(&err);
	strbuf_release(&got);
}

static void check_rows(void)
{
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	const char *m[] = { "command=echo {a}", "metric.v=(?<value>.)", "better.v=higher",
			    NULL, NULL, NULL, NULL };
	struct wl_params *p;

	m[3] = "param.a=doubling:1..6";
	p = ext(m, &err);
	if (p)
		labels(p, &sb);
	ok(p && !strcmp(sb.buf, "a-1 a-2 a-4 a-6"), "doubling:1..6 ends at its max: %s%s",
	   sb.buf, err.buf);
	wl_params_free(p);

	m[3] = "param.a=stride:1..8";
	p = ext(m, &err);
	if (p)
		labels(p, &sb);
	ok(p && !strcmp(sb.buf, "a-1 a-3 a-5 a-7 a-8"), "stride:1..8 as mmtests': %s%s",
	   sb.buf, err.buf);
	wl_params_free(p);

	m[0] = "command=echo {a} {b} {c}";
	m[3] = "param.a=x y";
	m[4] = "param.b=1,2";
	m[5] = "param.c=60";
	p = ext(m, &err);
	if (p)
		labels(p, &sb);
	ok(p && !strcmp(sb.buf, "a-x-b-1 a-x-b-2 a-y-b-1 a-y-b-2"),
	   "every combination, the last param fastest, one-value params left out: %s%s",
	   sb.buf, err.buf);
	wl_params_free(p);

	m[0] = "command=echo {c}";
	m[3] = "param.c=60";
	m[4] = NULL;
	p = ext(m, &err);
	if (p)
		labels(p, &sb);
	ok(p && !strcmp(sb.buf, "c-60"), "one row from one-value params: %s%s", sb.buf, err.buf);
	wl_params_free(p);

	m[2] = "better.v=higher";
	m[3] = NULL;
	m[0] = "command=echo 1";
	p = ext(m, &err);
	if (p)
		labels(p, &sb);
	ok(p && !strcmp(sb.buf, "v"), "without params, one row named after the metric: %s%s",
	   sb.buf, err.buf);
	wl_params_free(p);
	strbuf_release(&err);
	strbuf_release(&sb);
}

static void check_runs(void)
{
	char dir[] = "/tmp/t8110-XXXXXX", file[64], cwd[80];

	is_run((const char *const[]){ "command=echo {n}{n}0 {{n} x{n}y {not a name}",
		"param.n=3 4", "metric.v=^(?<value>[0-9]+) \\{n\\} x4y \\{not a name\\}$",
		"better.v=higher", "unit.v=MB/sec", NULL }, 1, "n-4=440 MB/sec",
	       "{n} substituted, {{ a brace, other braces kept");
	is_run((const char *const[]){ "command=printf 'v=1\\nv=2\\nx\\nv=6\\n'",
		"metric.last=^v=(?<value>\\d+)", "metric.first=^v=(?<value>\\d+)",
		"metric.sum=^v=(?<value>\\d+)", "metric.mean=^v=(?<value>\\d+)",
		"aggregate.first=first", "aggregate.sum=sum", "aggregate.mean=mean",
		"better.last=higher", "better.first=higher", "better.sum=lower",
		"better.mean=lower", "unit.sum=s", NULL }, 0,
	       "last=6 ,first=1 ,sum=9 s,mean=3 ", "aggregates: last, first, sum, mean");
	is_run((const char *const[]){ "command=printf 'v=1\\nv=2\\n'", "param.t=8",
		"metric.a=^v=(?<value>\\d+)", "metric.b=^v=(?<value>\\d+)", "better.a=higher",
		"better.b=higher", NULL }, 0,
	       "a-t-8=2 ,b-t-8=2 ", "several metrics: each row starts with the metric's name");
	is_run((const char *const[]){ "command=sh -c 'echo v=$KB_T8110'", "env.KB_T8110=42",
		"metric.v=v=(?<value>\\d+)", "better.v=higher", NULL }, 0, "v=42 ",
	       "env.NAME reaches the command");
	is_run((const char *const[]){ "command=echo v=$((6*7)) | tr v w", "shell=yes",
		"metric.v=w=(?<value>\\d+)", "better.v=higher", NULL }, 0, "v=42 ",
	       "shell = yes: /bin/sh -c with pipes and expansions");
	if (mkdtemp(dir)) {
		snprintf(file, sizeof(file), "%s/n7", dir);
		fclose(fopen(file, "w"));
		snprintf(cwd, sizeof(cwd), "cwd=%s", dir);
		is_run((const char *const[]){ "command=ls", cwd, "metric.v=^n(?<value>\\d+)$",
			"better.v=higher", NULL }, 0, "v=7 ", "cwd: the command runs there");
		unlink(file);
		rmdir(dir);
	}
	is_run((const char *const[]){ "command=seq 1 5000", "output_limit=1024",
		"metric.last=^(?<value>\\d+)$", "metric.first=^(?<value>\\d+)$",
		"aggregate.first=first", "better.last=higher", "better.first=higher", NULL }, 0,
	       "last=5000 ,first=4797  [metric 'first' read only the last 1024 bytes of the "
	       "output (output_limit): 22873 were dropped]",
	       "output over output_limit: its tail is read, and a first match flagged");

	is_run((const char *const[]){ "command=printf 'a\\nb\\nv=x\\n'",
		"metric.v=^v=(?<value>\\d+)", "better.v=higher", NULL }, 0,
	       "error: metric 'v': no match for '^v=(?<value>\\d+)' in the command's output; "
	       "the output ended with:\n  | a\n  | b\n  | v=x", "a pattern that matches nothing");
	is_run((const char *const[]){ "command=seq 1 30", "metric.v=^v=(?<value>\\d+)",
		"better.v=higher", NULL }, 0,
	       "error: metric 'v': no match for '^v=(?<value>\\d+)' in the command's output; "
	       "the output ended with:\n  | 21\n  | 22\n  | 23\n  | 24\n  | 25\n  | 26\n  | 27\n"
	       "  | 28\n  | 29\n  | 30", "only the output's last 10 lines");
	is_run((const char *const[]){ "command=true", "metric.v=^v=(?<value>\\d+)",
		"better.v=higher", NULL }, 0,
	       "error: metric 'v': no match for '^v=(?<value>\\d+)' in the command's output; "
	       "the output was empty", "no output at all");
	is_run((const char *const[]){ "command=echo v=12abc", "metric.v=^v=(?<value>\\S+)",
		"better.v=higher", NULL }, 0,
	       "error: metric 'v': '12abc' is not a number (what the (?<value>...) group of "
	       "'^v=(?<value>\\S+)' matched)", "a value that is not a number");
	is_run((const char *const[]){ "command=sh -c 'echo broken >&2; exit 3'",
		"metric.v=^v=(?<value>\\S+)", "better.v=higher", NULL }, 0,
	       "error: the command exited with status 3 (sh -c 'echo broken >&2; exit 3'); "
	       "the output ended with:\n  | broken", "a failing command, stderr captured");
}

static void check_errors(void)
{
	is_error((const char *const[]){ "metric.v=v=(?<value>[0-9]+", NULL },
		 "invalid pattern for 'metric.v' at offset 17: missing closing parenthesis", NULL);
	is_error((const char *const[]){ "metric.v=v=([0-9]+)", NULL },
		 "the pattern of 'metric.v' has no (?<value>...) group: name the part that is "
		 "the number", NULL);
	is_error((const char *const[]){ "server_ready=(", NULL },
		 "invalid pattern for 'server_ready' at offset 1: missing closing parenthesis",
		 NULL);
	is_error((const char *const[]){ "better.v=up", NULL },
		 "invalid value 'up' for 'better.v': expected one of higher|lower", NULL);
	is_error((const char *const[]){ "aggregate.v=max", NULL },
		 "invalid value 'max' for 'aggregate.v': expected one of last|first|sum|mean",
		 NULL);
	is_error((const char *const[]){ "metric.a b=(?<value>x)", NULL },
		 "invalid key 'metric.a b': the name after 'metric.' may hold letters, digits, "
		 "'_' and '-'", NULL);
	is_error((const char *const[]){ "param.n=doubling:x..4", NULL },
		 "cannot parse 'doubling:x..4': expected doubling:MIN..MAX with MIN and MAX "
		 "integers or K*cpus", NULL);
	/* K*cpus past LLONG_MAX is refused, not wrapped (one CPU cannot
	 * overflow it). */
	if (sysinfo_cpus_allowed() > 1)
		is_error((const char *const[]){ "param.n=doubling:1..9223372036854775807*cpus",
			 NULL }, "cannot parse 'doubling:1..9223372036854775807*cpus': expected "
			 "doubling:MIN..MAX with MIN and MAX integers or K*cpus", NULL);
	else
		skip("one CPU: K*cpus cannot overflow");
	is_error((const char *const[]){ "param.n= , ", NULL },
		 "an empty list: expected values separated by blanks or commas, stride:MIN..MAX "
		 "or doubling:MIN..MAX", NULL);
	is_error((const char *const[]){ "command=echo", "metric.v=(?<value>x)", NULL },
		 "metric 'v' needs 'better.v = higher' or 'lower': which way is an improvement",
		 "metric.v");
	is_error((const char *const[]){ "command=echo", "metric.v=(?<value>x)",
		 "better.v=higher", "unit.w=s", NULL },
		 "'unit.w' is for a metric 'w', but there is no 'metric.w'", "unit.w");
	is_error((const char *const[]){ "command=echo {clients}", NULL },
		 "unknown placeholder '{clients}' in 'command': no 'param.clients' is given "
		 "(write {{ for a brace)", "command");
	is_error((const char *const[]){ "command=no-such-program-t8110 -x", NULL },
		 "cannot run 'no-such-program-t8110': command not found", "command");
	is_error((const char *const[]){ "command=./no-such-file", NULL },
		 "cannot run './no-such-file': No such file or directory", "command");
	is_error((const char *const[]){ "command=echo 'a", NULL },
		 "cannot split 'command' into words: unterminated single quote", "command");
	is_error((const char *const[]){ "command=echo", "param.n=1 2", NULL },
		 "'param.n' has 2 values but the command does not use {n}: its rows would all "
		 "run the same command", "param.n");
	is_error((const char *const[]){ "command=echo {n}", "param.n=1 2", "server=echo {n}",
		 "server_port=7003", NULL },
		 "'server' uses '{n}', a param with 2 values: the server runs for the whole "
		 "section, so only params with one value can be given to it", "server");
	is_error((const char *const[]){ "command=echo", "server=echo", NULL },
		 "a 'server' needs 'server_ready' (a pattern its output matches once it is "
		 "ready) or 'server_port' (the port it listens on)", "server");
	is_error((const char *const[]){ "command=echo", "server_port=7003", NULL },
		 "'server_port' is set but there is no 'server'", "server_port");
	is_error((const char *const[]){ "command=echo", "cwd=/no/such/dir", NULL },
		 "cannot use '/no/such/dir' as the working directory: No such file or directory",
		 "cwd");
	is_error((const char *const[]){ "metric.v=(?<value>x)", "better.v=lower", NULL },
		 "no 'command' to run: set 'command = PROGRAM ARGUMENTS...'", "(none)");
	is_error((const char *const[]){ "command=echo", NULL },
		 "no metric to read from the output: set 'metric.NAME = PATTERN' with a "
		 "(?<value>...) group, and 'better.NAME'", "(none)");
}

int main(void)
{
	ops = workload_find("external");
	if (!ok(ops != NULL, "external is in the workload table"))
		return done_testing();
	check_regex();
	check_rows();
	check_runs();
	check_errors();
	return done_testing();
}
