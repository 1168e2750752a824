/* external: any program as a workload. Its command runs once per sample,
 * split into words like sh but run without one (unless shell = yes), in
 * the sample's process group; an optional server runs around a section's
 * samples; each figure is read from the command's output by a PCRE2
 * pattern with a (?<value>...) group. The rows are the combinations of
 * the param.NAME lists, substituted into {NAME} in command and server. */
#include "config.h"
#include "workloads/workload.h"
#include "workloads/external.h"
#include "lib/argv.h"
#include "lib/child.h"
#include "lib/clock.h"
#include "lib/regex.h"
#include "lib/strbuf.h"
#include "lib/worker.h"
#include "lib/xalloc.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXT_MAX_ROWS 10000
#define EXT_TAIL_LINES 10	/* of the output, in a failure's reason */
#define EXT_TAIL_LINE_LEN 160
#define EXT_DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

/* One param.NAME list, expanded. */
struct ext_param {
	const char *name;	/* the key's, owned by the params */
	char **values;
	size_t n;
};

/* How one metric is read from the output. */
struct ext_metric {
	const char *name;	/* NAME of metric.NAME, owned by the params */
	struct kb_regex *re;
	int group;		/* the number of (?<value>...) */
	int aggregate;		/* AGG_* */
};

/* What prepare() derives from the options, and the server while it runs. */
struct ext_state {
	struct wl_metric *metrics;	/* nmetrics + 1, the last with no name */
	struct ext_metric *m;
	size_t nmetrics;
	struct ext_param *params;
	size_t nparams;
	struct argv_list command;	/* words holding {placeholders}; shell: one */
	struct argv_list server;	/* empty: no server */
	struct kb_regex *ready;		/* server_ready; NULL: none */
	struct worker srv;		/* running from section_begin to section_end */
	int srv_log;			/* its output: an unlinked file, or -1 */
	struct strbuf err_key;		/* p->err_key points here */
};

/* ---- rows and placeholders ---- */

/* The values of row `row`: the last param varies fastest. */
static void row_values(const struct ext_state *st, long long row, const char **v)
{
	for (size_t i = st->nparams; i-- > 0;) {
		v[i] = st->params[i].values[row % (long long)st->params[i].n];
		row /= (long long)st->params[i].n;
	}
}

/* "clients-4": the params with several values, each NAME-VALUE; all of
 * them when none has several; "" without params. */
static void label(const struct ext_state *st, long long row, struct strbuf *sb)
{
	const char **v = xcalloc(st->nparams + 1, sizeof(*v));
	int several = 0;

	row_values(st, row, v);
	for (size_t i = 0; i < st->nparams; i++)
		several |= st->params[i].n > 1;
	for (size_t i = 0; i < st->nparams; i++)
		if (!several || st->params[i].n > 1)
			strbuf_addf(sb, "%s%s-%s", sb->len ? "-" : "", st->params[i].name, v[i]);
	free(v);
}

/* The row a sample of metric i stores for row `row`: the label, with the
 * metric's name before it when the section reads several (pft's
 * "system-4"), or the name alone without params. */
static void sample_row(const struct ext_state *st, size_t i, long long row, struct strbuf *sb)
{
	label(st, row, sb);
	if (!sb->len)
		strbuf_addstr(sb, st->m[i].name);
	else if (st->nmetrics > 1) {
		struct strbuf l = STRBUF_INIT;

		strbuf_addf(&l, "%s-%s", st->m[i].name, sb->buf);
		strbuf_reset(sb);
		strbuf_addstr(sb, l.buf);
		strbuf_release(&l);
	}
}

/* ops->row_label: the row as progress, failures and plans name it. */
static void ext_row_label(const struct wl_params *p, long long row, char *buf, size_t len)
{
	const struct external_opts *o = p->opts;
	const struct ext_state *st = o->st;
	struct strbuf sb = STRBUF_INIT;

	if (st)
		label(st, row, &sb);
	if (!sb.len)
		strbuf_addstr(&sb, st && st->nmetrics == 1 ? st->m[0].name : "all");
	snprintf(buf, len, "%s", sb.buf);
	strbuf_release(&sb);
}

static const struct ext_param *find_param(const struct ext_state *st, const char *name,
					  size_t len)
{
	for (size_t i = 0; i < st->nparams; i++)
		if (strlen(st->params[i].name) == len && !strncmp(st->params[i].name, name, len))
			return &st->params[i];
	return NULL;
}

/* Length of the placeholder name at s ("clients}" gives 7), or 0 when s
 * does not start one. */
static size_t placeholder(const char *s)
{
	size_t len = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			       "0123456789_-");

	return len && s[len] == '}' ? len : 0;
}

/* Append template t to sb with each {NAME} replaced by the value of param
 * NAME in v (indexed as st->params); "{{" is one brace, and braces around
 * anything but a name stay as they are. */
static void substitute(const struct ext_state *st, const char *t, const char **v,
		       struct strbuf *sb)
{
	while (*t) {
		size_t len;

		if (t[0] == '{' && t[1] == '{') {
			strbuf_addch(sb, '{');
			t += 2;
		} else if (*t == '{' && (len = placeholder(t + 1)) &&
			   find_param(st, t + 1, len)) {
			strbuf_addstr(sb, v[find_param(st, t + 1, len) - st->params]);
			t += len + 2;
		} else {
			strbuf_addch(sb, *t++);
		}
	}
}

/* Check the placeholders of template t of option key: each must name a
 * param, and a server's only params with one value. */
static int check_placeholders(const struct ext_state *st, const char *key, const char *t,
			      struct strbuf *err)
{
	for (; *t; t++) {
		const struct ext_param *pa;
		size_t len;

		if (t[0] == '{' && t[1] == '{') {
			t++;
			continue;
		}
		if (*t != '{' || !(len = placeholder(t + 1)))
			continue;
		pa = find_param(st, t + 1, len);
		if (!pa) {
			strbuf_addf(err, "unknown placeholder '{%.*s}' in '%s': no 'param.%.*s' "
				    "is given (write {{ for a brace)", (int)len, t + 1, key,
				    (int)len, t + 1);
			return -1;
		}
		if (!strcmp(key, "server") && pa->n > 1) {
			strbuf_addf(err, "'server' uses '{%s}', a param with %zu values: the "
				    "server runs for the whole section, so only params with one "
				    "value can be given to it", pa->name, pa->n);
			return -1;
		}
	}
	return 0;
}

/* The words to run for row values v: the template's, substituted, or
 * /bin/sh -c and the substituted text. */
static void build_argv(const struct ext_state *st, const struct argv_list *tmpl, int shell,
		       const char **v, struct argv_list *out)
{
	struct strbuf w = STRBUF_INIT;

	if (shell) {
		argv_list_push(out, "/bin/sh");
		argv_list_push(out, "-c");
	}
	for (size_t i = 0; i < tmpl->n; i++) {
		strbuf_reset(&w);
		substitute(st, tmpl->v[i], v, &w);
		argv_list_push(out, w.buf);
	}
	strbuf_release(&w);
}

/* How a command reads in messages: the shell's text, or the words quoted. */
static void describe_argv(const struct argv_list *a, int shell, struct strbuf *sb)
{
	if (shell)
		strbuf_addstr(sb, a->v[2]);
	else
		argv_quote(a->v, a->n, sb);
}

static const char *env_value(const struct external_opts *o, const char *name)
{
	for (size_t i = 0; i < o->env.n; i++)
		if (!strcmp(o->env.v[i].name, name))
			return o->env.v[i].text;
	return getenv(name);
}

/* Can prog be run, as execvp would look for it (PATH from env.PATH when
 * given, a path with a slash from cwd)? Return 0, or -1 with why in err. */
static int find_program(const struct external_opts *o, const char *prog, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, found = STRBUF_INIT;
	const char *dirs = env_value(o, "PATH");
	int rc = -1;

	if (strchr(prog, '/')) {
		if (*prog != '/' && o->cwd)
			strbuf_addf(&path, "%s/", o->cwd);
		strbuf_addstr(&path, prog);
		if (child_find_program(path.buf, NULL, &found))
			strbuf_addf(err, "cannot run '%s': %s", prog, strerror(errno));
		else
			rc = 0;
	} else if (child_find_program(prog, dirs ? dirs : EXT_DEFAULT_PATH, &found)) {
		strbuf_addf(err, "cannot run '%s': command not found", prog);
	} else {
		rc = 0;
	}
	strbuf_release(&path);
	strbuf_release(&found);
	return rc;
}

/* ---- running a program ---- */

/* The program of argv as the options say it runs: in cwd, with env set
 * (env.v filled with "NAME=VALUE", released by the caller) and stdin
 * from /dev/null. */
static void program_of(struct child_program *prog, const struct argv_list *argv,
		       const struct external_opts *o, struct argv_list *env)
{
	struct strbuf kv = STRBUF_INIT;

	for (size_t i = 0; i < o->env.n; i++) {
		strbuf_reset(&kv);
		strbuf_addf(&kv, "%s=%s", o->env.v[i].name, o->env.v[i].text);
		argv_list_push(env, kv.buf);
	}
	strbuf_release(&kv);
	prog->argv = (const char *const *)argv->v;
	prog->dir = o->cwd;
	prog->env = (const char *const *)env->v;
	prog->in = CHILD_FD_NULL;
}

/* Why prog did not start, from what child_program_start() said (why). */
static void start_failed(const struct child_program *prog, const struct strbuf *why,
			 struct strbuf *err)
{
	if (prog->failed_dir)
		strbuf_addf(err, "cannot change to directory '%s' (cwd): %s", prog->dir,
			    strerror(prog->failed_errno));
	else
		strbuf_addstr(err, why->buf);
}

/* When the output's start was dropped (output_limit), start at a whole
 * line: a cut one would match as another. */
static void whole_lines(struct strbuf *out, size_t *dropped)
{
	const char *nl;
	size_t cut;

	if (!*dropped)
		return;
	nl = memchr(out->buf, '\n', out->len);
	cut = nl ? (size_t)(nl - out->buf) + 1 : 0;
	memmove(out->buf, out->buf + cut, out->len - cut + 1);
	out->len -= cut;
	*dropped += cut;
}

/* Append "; the output ended with:" and its last lines (each prefixed
 * "  | ", long ones cut), or "; the output was empty". */
static void add_tail(struct strbuf *sb, const char *text, size_t len)
{
	const char *end = text + len, *start;
	int lines = 0;

	while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	if (end == text) {
		strbuf_addstr(sb, "; the output was empty");
		return;
	}
	for (start = end; start > text; start--)
		if (start[-1] == '\n' && ++lines == EXT_TAIL_LINES)
			break;
	strbuf_addstr(sb, "; the output ended with:");
	while (start < end) {
		const char *nl = memchr(start, '\n', (size_t)(end - start));
		size_t n = nl ? (size_t)(nl - start) : (size_t)(end - start);

		strbuf_addstr(sb, "\n  | ");
		for (size_t i = 0; i < n && i < EXT_TAIL_LINE_LEN; i++) {
			unsigned char c = (unsigned char)start[i];

			if (c == '\r' && i == n - 1)
				break;
			strbuf_addch(sb, c == '\t' || (c >= 0x20 && c != 0x7f) ? (char)c : '?');
		}
		if (n > EXT_TAIL_LINE_LEN)
			strbuf_addstr(sb, "...");
		start += n + 1;
	}
}

/* Read metric i from the output: every match's (?<value>...) group as a
 * number, aggregated. Return 0 with *value, or -1 with why in err. */
static int read_metric(const struct external_opts *o, size_t i, const struct strbuf *output,
		       double *value, struct strbuf *err)
{
	const struct ext_metric *m = &o->st->m[i];
	struct kb_regex_span sp;
	size_t pos = 0, n = 0;
	double sum = 0, first = 0, last = 0;
	int found;

	while ((found = kb_regex_find(m->re, output->buf, output->len, &pos, m->group, &sp,
				      err)) > 0) {
		size_t len = sp.gstart == (size_t)-1 ? 0 : sp.gend - sp.gstart;
		const char *g = len ? output->buf + sp.gstart : "";
		char text[64], *end;
		double v;

		snprintf(text, sizeof(text), "%.*s", (int)len, g);
		errno = 0;
		v = strtod(text, &end);
		while (isspace((unsigned char)*end))
			end++;
		if (!len || len >= sizeof(text) || end == text || *end || errno || !isfinite(v)) {
			strbuf_addf(err, "metric '%s': '%.*s' is not a number (what the "
				    "(?<value>...) group of '%s' matched)", m->name,
				    (int)(len > 60 ? 60 : len), g, o->st->metrics[i].help);
			return -1;
		}
		if (!n++)
			first = v;
		last = v;
		sum += v;
	}
	if (found < 0) {
		strbuf_addf(err, " (metric '%s')", m->name);
		return -1;
	}
	if (!n) {
		strbuf_addf(err, "metric '%s': no match for '%s' in the command's output",
			    m->name, o->st->metrics[i].help);
		add_tail(err, output->buf, output->len);
		return -1;
	}
	switch (m->aggregate) {
	case AGG_FIRST:
		*value = first;
		break;
	case AGG_SUM:
		*value = sum;
		break;
	case AGG_MEAN:
		*value = sum / (double)n;
		break;
	default:
		*value = last;
		break;
	}
	return 0;
}

static int ext_run_one(const struct wl_params *p, long long row, struct wl_sample *out,
		       struct strbuf *err)
{
	const struct external_opts *o = p->opts;
	const struct ext_state *st = o->st;
	const char **v = xcalloc(st->nparams + 1, sizeof(*v));
	struct argv_list argv = ARGV_LIST_INIT, env = ARGV_LIST_INIT;
	struct strbuf output = STRBUF_INIT, cmd = STRBUF_INIT, srow = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	struct child_program prog = CHILD_PROGRAM_INIT;
	/* stdout and stderr in one pipe, in the order written. The wait is
	 * on the pipe and a pidfd, so this process sleeps while the command
	 * runs (it is inside the command's measured time); no timeout: the
	 * runner kills the sample's process group, this command with it. */
	struct child_io io = { .out = &output, .err = &output,
			       .out_limit = (size_t)o->output_limit };
	size_t dropped;
	int rc = -1;

	row_values(st, row, v);
	build_argv(st, &st->command, o->shell, v, &argv);
	describe_argv(&argv, o->shell, &cmd);
	program_of(&prog, &argv, o, &env);
	if (child_program_run(&prog, &io, &why) < 0) {
		start_failed(&prog, &why, err);
		goto out;
	}
	dropped = io.out_dropped;
	whole_lines(&output, &dropped);
	if (!WIFEXITED(prog.w.status) || WEXITSTATUS(prog.w.status)) {
		strbuf_addstr(err, "the command ");
		worker_describe_status(prog.w.status, err);
		strbuf_addf(err, " (%s)", cmd.buf);
		add_tail(err, output.buf, output.len);
		goto out;
	}
	for (size_t i = 0; i < st->nmetrics; i++) {
		double value;

		if (read_metric(o, i, &output, &value, err))
			goto out;
		strbuf_reset(&srow);
		sample_row(st, i, row, &srow);
		wl_sample_add(out, (int)i, value, "%s", srow.buf);
		/* The last match is in what was kept; the others may not be. */
		if (dropped && st->m[i].aggregate != AGG_LAST)
			wl_sample_flag(out, "metric '%s' read only the last %zu bytes of the "
				       "output (output_limit): %zu were dropped", st->m[i].name,
				       (size_t)o->output_limit, dropped);
	}
	rc = 0;
out:
	argv_list_release(&argv);
	argv_list_release(&env);
	strbuf_release(&output);
	strbuf_release(&cmd);
	strbuf_release(&srow);
	strbuf_release(&why);
	free(v);
	return rc;
}

/* ---- the server ---- */

/* Does 127.0.0.1:port accept a TCP connection? */
static int port_accepts(int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int ok;

	if (fd < 0)
		return 0;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ok = !connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	close(fd);
	return ok;
}

/* The last limit bytes the server wrote to its log. */
static void read_log(int fd, size_t limit, struct strbuf *sb)
{
	struct stat stb;
	off_t from;
	char buf[65536];
	ssize_t n;

	strbuf_reset(sb);
	if (fd < 0 || fstat(fd, &stb))
		return;
	from = stb.st_size > (off_t)limit ? stb.st_size - (off_t)limit : 0;
	while ((n = pread(fd, buf, sizeof(buf), from)) > 0) {
		strbuf_add(sb, buf, (size_t)n);
		from += n;
	}
}

/* An unlinked file for the server's output: it can write as much as it
 * likes without anybody reading a pipe. */
static int log_file(struct strbuf *err)
{
	const char *dir = getenv("TMPDIR");
	struct strbuf path = STRBUF_INIT;
	int fd;

	strbuf_addf(&path, "%s/kbench-server-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkostemp(path.buf, O_CLOEXEC);
	if (fd < 0)
		strbuf_addf(err, "cannot create a file for the server's output in '%s': %s",
			    dir && *dir ? dir : "/tmp", strerror(errno));
	else
		unlink(path.buf);
	strbuf_release(&path);
	return fd;
}

/* Kill the server's whole process group and reap it, and the processes
 * of its group that it left to us (the runner is their subreaper). */
static void stop_server(struct ext_state *st)
{
	worker_kill_group(&st->srv);
	if (st->srv_log >= 0)
		close(st->srv_log);
	st->srv_log = -1;
}

static int ext_section_begin(struct wl_params *p, struct strbuf *err)
{
	struct external_opts *o = p->opts;
	struct ext_state *st = o->st;
	const char **v;
	struct argv_list argv = ARGV_LIST_INIT, env = ARGV_LIST_INIT;
	struct strbuf cmd = STRBUF_INIT, log = STRBUF_INIT, why = STRBUF_INIT;
	struct child_program prog = CHILD_PROGRAM_INIT;
	int64_t deadline;
	int rc = -1;

	if (!st || !st->server.n)
		return 0;
	v = xcalloc(st->nparams + 1, sizeof(*v));
	row_values(st, 0, v);
	build_argv(st, &st->server, o->shell, v, &argv);
	describe_argv(&argv, o->shell, &cmd);
	if (o->server_port && port_accepts(o->server_port)) {
		strbuf_addf(err, "port %d (server_port) accepts connections before the server "
			    "started: stop whatever listens there first", o->server_port);
		goto out;
	}
	st->srv_log = log_file(err);
	if (st->srv_log < 0)
		goto out;
	program_of(&prog, &argv, o, &env);
	prog.out = prog.err = st->srv_log;
	prog.new_group = 1;	/* stopped with everything it started */
	if (child_program_start(&prog, &why)) {
		start_failed(&prog, &why, err);
		strbuf_addstr(err, " (server)");
		goto out;
	}
	st->srv = prog.w;
	deadline = clock_ns(CLOCK_MONOTONIC) + (int64_t)(o->server_timeout * 1e9);
	for (;;) {
		struct timespec ts = { .tv_nsec = 20 * 1000 * 1000 };

		if (st->ready) {
			read_log(st->srv_log, (size_t)o->output_limit, &log);
			if (kb_regex_match(st->ready, log.buf) > 0)
				break;
		} else if (port_accepts(o->server_port)) {
			break;
		}
		if (worker_poll(&st->srv)) {
			read_log(st->srv_log, (size_t)o->output_limit, &log);
			strbuf_addstr(err, "the server ");
			worker_describe_status(st->srv.status, err);
			strbuf_addf(err, " before it was ready (%s)", cmd.buf);
			add_tail(err, log.buf, log.len);
			goto out;
		}
		if (clock_ns(CLOCK_MONOTONIC) >= deadline) {
			read_log(st->srv_log, (size_t)o->output_limit, &log);
			strbuf_addf(err, "the server was not ready after %g s (server_timeout): ",
				    o->server_timeout);
			if (st->ready)
				strbuf_addf(err, "its output did not match '%s' (server_ready)",
					    o->server_ready);
			else
				strbuf_addf(err, "nothing accepted a connection on port %d "
					    "(server_port)", o->server_port);
			add_tail(err, log.buf, log.len);
			goto out;
		}
		nanosleep(&ts, NULL);
	}
	rc = 0;
out:
	if (rc)
		stop_server(st);
	argv_list_release(&argv);
	argv_list_release(&env);
	strbuf_release(&cmd);
	strbuf_release(&log);
	strbuf_release(&why);
	free(v);
	return rc;
}

static void ext_section_end(struct wl_params *p)
{
	struct external_opts *o = p->opts;

	if (o->st)
		stop_server(o->st);
}

/* ---- options to state ---- */

static const struct wl_key *find_key(const struct wl_keys *k, const char *name)
{
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->v[i].name, name))
			return &k->v[i];
	return NULL;
}

/* Note the key an error is about (family prefix + name, or an option). */
static int fail_key(struct wl_params *p, const char *prefix, const char *name)
{
	struct ext_state *st = ((struct external_opts *)p->opts)->st;

	strbuf_reset(&st->err_key);
	strbuf_addf(&st->err_key, "%s%s", prefix, name);
	p->err_key = st->err_key.buf;
	return -1;
}

/* Split and check the template of option key (command or server). */
static int prepare_template(struct wl_params *p, const char *key, const char *text,
			    struct argv_list *out, struct strbuf *err)
{
	struct external_opts *o = p->opts;
	struct ext_state *st = o->st;
	struct strbuf why = STRBUF_INIT, prog = STRBUF_INIT;
	const char **v;
	int rc = -1;

	if (o->shell) {
		argv_list_push(out, text);
	} else if (argv_split(text, out, &why)) {
		strbuf_addf(err, "cannot split '%s' into words: %s", key, why.buf);
		goto out;
	}
	if (!out->n) {
		strbuf_addf(err, "'%s' is empty", key);
		goto out;
	}
	for (size_t i = 0; i < out->n; i++)
		if (check_placeholders(st, key, out->v[i], err))
			goto out;
	if (o->shell) {
		rc = 0;
		goto out;
	}
	/* The program, as the first row names it: a typo is found before
	 * anything runs. */
	v = xcalloc(st->nparams + 1, sizeof(*v));
	row_values(st, 0, v);
	substitute(st, out->v[0], v, &prog);
	free(v);
	rc = find_program(o, prog.buf, err);
out:
	strbuf_release(&why);
	strbuf_release(&prog);
	return rc ? fail_key(p, key, "") : 0;
}

/* Each unit./better./aggregate. key must belong to a metric. */
static int check_family(struct wl_params *p, const struct wl_keys *k, const char *prefix,
			struct strbuf *err)
{
	const struct external_opts *o = p->opts;

	for (size_t i = 0; i < k->n; i++)
		if (!find_key(&o->metrics, k->v[i].name)) {
			strbuf_addf(err, "'%s%s' is for a metric '%s', but there is no "
				    "'metric.%s'", prefix, k->v[i].name, k->v[i].name,
				    k->v[i].name);
			return fail_key(p, prefix, k->v[i].name);
		}
	return 0;
}

static int prepare_metrics(struct wl_params *p, struct strbuf *err)
{
	struct external_opts *o = p->opts;
	struct ext_state *st = o->st;

	if (o->metrics.n > WL_MAX_RESULTS) {
		strbuf_addf(err, "%zu metrics: at most %d can be read from one command",
			    o->metrics.n, WL_MAX_RESULTS);
		return fail_key(p, "metric.", o->metrics.v[WL_MAX_RESULTS].name);
	}
	st->nmetrics = o->metrics.n;
	st->metrics = xcalloc(st->nmetrics + 1, sizeof(*st->metrics));
	st->m = xcalloc(st->nmetrics + 1, sizeof(*st->m));
	for (size_t i = 0; i < st->nmetrics; i++) {
		const struct wl_key *k = &o->metrics.v[i];
		const struct wl_key *unit = find_key(&o->units, k->name);
		const struct wl_key *better = find_key(&o->betters, k->name);
		const struct wl_key *agg = find_key(&o->aggregates, k->name);
		struct strbuf key = STRBUF_INIT;

		strbuf_addf(&key, "metric.%s", k->name);
		st->m[i].name = k->name;
		st->m[i].re = ext_compile(key.buf, k->text, err);
		strbuf_release(&key);
		if (!st->m[i].re)
			return fail_key(p, "metric.", k->name);
		st->m[i].group = kb_regex_group(st->m[i].re, "value");
		st->m[i].aggregate = agg ? agg->choice : AGG_LAST;
		if (!better) {
			strbuf_addf(err, "metric '%s' needs 'better.%s = higher' or 'lower': "
				    "which way is an improvement", k->name, k->name);
			return fail_key(p, "metric.", k->name);
		}
		st->metrics[i] = (struct wl_metric){
			.name = st->nmetrics > 1 ? k->name : "",
			.unit = unit ? unit->text : "",
			.better = better->choice == 0 ? WL_HIGHER : WL_LOWER,
			.help = k->text,
		};
	}
	if (check_family(p, &o->units, "unit.", err) ||
	    check_family(p, &o->betters, "better.", err) ||
	    check_family(p, &o->aggregates, "aggregate.", err))
		return -1;
	p->metrics = st->metrics;
	return 0;
}

static int prepare_params(struct wl_params *p, struct strbuf *err)
{
	struct external_opts *o = p->opts;
	struct ext_state *st = o->st;
	long long nrows = 1;

	st->params = xcalloc(o->params.n + 1, sizeof(*st->params));
	for (size_t i = 0; i < o->params.n; i++) {
		struct ext_param *pa = &st->params[st->nparams];

		pa->name = o->params.v[i].name;
		if (ext_param_values(o->params.v[i].text, &pa->values, &pa->n, err))
			return fail_key(p, "param.", pa->name);
		st->nparams++;
		nrows *= (long long)pa->n;
		if (nrows > EXT_MAX_ROWS) {
			strbuf_addf(err, "the params make more than %d rows", EXT_MAX_ROWS);
			return fail_key(p, "param.", pa->name);
		}
	}
	p->nrows = (size_t)nrows;
	p->rows = xcalloc(p->nrows, sizeof(*p->rows));
	for (size_t r = 0; r < p->nrows; r++)
		p->rows[r] = (long long)r;
	return 0;
}

/* Every row a sample stores must fit a wl_result's row. */
static int check_rows(struct wl_params *p, struct strbuf *err)
{
	const struct ext_state *st = ((struct external_opts *)p->opts)->st;
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	for (size_t r = 0; !rc && r < p->nrows; r++)
		for (size_t i = 0; !rc && i < st->nmetrics; i++) {
			strbuf_reset(&sb);
			sample_row(st, i, (long long)r, &sb);
			if (sb.len >= WL_ROW_LEN) {
				strbuf_addf(err, "row '%s' is longer than %d characters: use "
					    "shorter names or values", sb.buf, WL_ROW_LEN - 1);
				rc = st->nparams ? fail_key(p, "param.", st->params[0].name)
						 : fail_key(p, "metric.", st->m[i].name);
			}
		}
	strbuf_release(&sb);
	return rc;
}

/* Does template text hold the placeholder {name}? */
static int uses(const char *text, const char *name)
{
	size_t len = strlen(name);

	for (const char *t = text; t && (t = strchr(t, '{')); t++) {
		if (t[1] == '{') {
			t++;
			continue;
		}
		if (!strncmp(t + 1, name, len) && t[len + 1] == '}')
			return 1;
	}
	return 0;
}

/* A param with several values that nothing uses would run the same
 * command on every row. */
static int check_params_used(struct wl_params *p, struct strbuf *err)
{
	const struct external_opts *o = p->opts;
	const struct ext_state *st = o->st;

	for (size_t i = 0; i < st->nparams; i++) {
		const struct ext_param *pa = &st->params[i];

		if (pa->n > 1 && !uses(o->command, pa->name) && !uses(o->server, pa->name)) {
			strbuf_addf(err, "'param.%s' has %zu values but the command does not use "
				    "{%s}: its rows would all run the same command", pa->name,
				    pa->n, pa->name);
			return fail_key(p, "param.", pa->name);
		}
	}
	return 0;
}

static int ext_prepare(struct wl_params *p, struct strbuf *err)
{
	struct external_opts *o = p->opts;
	struct ext_state *st = xcalloc(1, sizeof(*st));
	struct stat sb;

	st->srv_log = -1;
	strbuf_init(&st->err_key);
	o->st = st;
	if (prepare_params(p, err) || prepare_metrics(p, err) || check_rows(p, err))
		return -1;
	if (o->cwd && (stat(o->cwd, &sb) || !S_ISDIR(sb.st_mode))) {
		strbuf_addf(err, "cannot use '%s' as the working directory: %s", o->cwd,
			    errno ? strerror(errno) : "not a directory");
		return fail_key(p, "cwd", "");
	}
	if (o->command && (prepare_template(p, "command", o->command, &st->command, err) ||
			   check_params_used(p, err)))
		return -1;
	if (!o->server) {
		if (o->server_ready || o->server_port) {
			strbuf_addf(err, "'%s' is set but there is no 'server'",
				    o->server_ready ? "server_ready" : "server_port");
			return fail_key(p, o->server_ready ? "server_ready" : "server_port", "");
		}
		return 0;
	}
	if (prepare_template(p, "server", o->server, &st->server, err))
		return -1;
	if (!o->server_ready && !o->server_port) {
		strbuf_addstr(err, "a 'server' needs 'server_ready' (a pattern its output matches "
			      "once it is ready) or 'server_port' (the port it listens on)");
		return fail_key(p, "server", "");
	}
	if (o->server_ready && o->server_port) {
		strbuf_addstr(err, "'server_ready' and 'server_port' both say when the server is "
			      "ready: give one");
		return fail_key(p, "server_port", "");
	}
	if (o->server_ready &&
	    !(st->ready = ext_compile("server_ready", o->server_ready, err)))
		return fail_key(p, "server_ready", "");
	return 0;
}

static int ext_check(const struct wl_params *p, struct strbuf *err)
{
	const struct external_opts *o = p->opts;

	if (!o->command) {
		strbuf_addstr(err, "no 'command' to run: set 'command = PROGRAM ARGUMENTS...'");
		return -1;
	}
	if (!o->metrics.n) {
		strbuf_addstr(err, "no metric to read from the output: set 'metric.NAME = PATTERN' "
			      "with a (?<value>...) group, and 'better.NAME'");
		return -1;
	}
	return 0;
}

static void ext_release(struct wl_params *p)
{
	struct external_opts *o = p->opts;
	struct ext_state *st = o->st;

	if (!st)
		return;
	stop_server(st);
	for (size_t i = 0; i < st->nmetrics; i++)
		kb_regex_free(st->m[i].re);
	for (size_t i = 0; i < st->nparams; i++)
		ext_free_values(st->params[i].values, st->params[i].n);
	kb_regex_free(st->ready);
	argv_list_release(&st->command);
	argv_list_release(&st->server);
	strbuf_release(&st->err_key);
	free(st->params);
	free(st->metrics);
	free(st->m);
	free(st);
	o->st = NULL;
}

static void ext_format_direct(const struct wl_params *p, long long row,
			      const struct wl_sample *s, struct strbuf *out)
{
	for (int i = 0; i < s->nresults; i++) {
		const struct wl_metric *m = &p->metrics[s->results[i].metric];

		strbuf_addf(out, "%s: %.6g%s%s\n", s->results[i].row, s->results[i].value,
			    *m->unit ? " " : "", m->unit);
	}
}

const struct workload_ops external_ops = {
	.name = "external",
	.summary = "any program: its figures read from its output with PCRE2 patterns",
	.options = ext_options,
	.opts_size = sizeof(struct external_opts),
	.metrics = ext_no_metrics,
	.flags = ext_flags,
	.check = ext_check,
	.run_one = ext_run_one,
	.format_direct = ext_format_direct,
	.prepare = ext_prepare,
	.release = ext_release,
	.row_label = ext_row_label,
	.section_begin = ext_section_begin,
	.section_end = ext_section_end,
};
