/* external_options: the options of the external workload (its table,
 * its flags) and what validates them: param lists and PCRE2 patterns. */
#include "config.h"
#include "workloads/external.h"
#include "lib/regex.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "machine/sysinfo.h"
#include "workloads/stride.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- param lists ---- */

void ext_free_values(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The values of a param list: words separated by blanks or commas, or a
 * sequence of integers, stride:MIN..MAX[,max=CAP] (mmtests' large
 * stride) or doubling:MIN..MAX. Return 0 with *out malloc'd, or -1. */
int ext_param_values(const char *text, char ***out, size_t *n, struct strbuf *err)
{
	const char *s = text + strspn(text, " \t");
	size_t alloc = 0;

	*out = NULL;
	*n = 0;
	if (!strncmp(s, "stride:", 7) || !strncmp(s, "doubling:", 9)) {
		long long *seq = NULL;
		size_t nseq = 0;

		if (*s == 's' ? stride_parse(s, sysinfo_cpus_allowed(), &seq, &nseq, err)
			      : stride_doubling(s, sysinfo_cpus_allowed(), &seq, &nseq, err))
			return -1;
		*out = xcalloc(nseq, sizeof(**out));
		for (size_t i = 0; i < nseq; i++) {
			char buf[32];

			snprintf(buf, sizeof(buf), "%lld", seq[i]);
			(*out)[i] = xstrdup(buf);
		}
		*n = nseq;
		free(seq);
		return 0;
	}
	while (*s) {
		size_t len = strcspn(s, " \t,");

		if (len) {
			ALLOC_GROW(*out, *n + 1, alloc);
			(*out)[(*n)++] = xstrndup(s, len);
		}
		s += len;
		s += strspn(s, " \t,");
	}
	if (!*n) {
		strbuf_addstr(err, "an empty list: expected values separated by blanks or commas, "
			      "stride:MIN..MAX or doubling:MIN..MAX");
		return -1;
	}
	return 0;
}

static int param_validate(const char *key, const char *text, struct strbuf *err)
{
	char **v;
	size_t n;

	if (ext_param_values(text, &v, &n, err))
		return -1;
	ext_free_values(v, n);
	return 0;
}

/* ---- patterns ---- */

struct kb_regex *ext_compile(const char *key, const char *pattern, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct kb_regex *re = kb_regex_compile(pattern, KB_REGEX_MULTILINE, &why);

	if (!re)
		strbuf_addf(err, "invalid pattern for '%s' %s", key, why.buf);
	strbuf_release(&why);
	return re;
}

static int metric_validate(const char *key, const char *text, struct strbuf *err)
{
	struct kb_regex *re = ext_compile(key, text, err);
	int rc = 0;

	if (!re)
		return -1;
	if (kb_regex_group(re, "value") < 0) {
		strbuf_addf(err, "the pattern of '%s' has no (?<value>...) group: name the part "
			    "that is the number", key);
		rc = -1;
	}
	kb_regex_free(re);
	return rc;
}

static int ready_validate(const char *key, const char *text, struct strbuf *err)
{
	struct kb_regex *re = ext_compile(key, text, err);

	kb_regex_free(re);
	return re ? 0 : -1;
}

/* ---- the option table ---- */

const struct wl_metric ext_no_metrics[] = {
	{ .name = NULL }
};

const struct wl_option ext_options[] = {
	{ .name = "command", WL_STRING_FIELD(struct external_opts, command),
	  .help = "the program to run for each sample and its arguments, split into words "
		  "as sh would but run without a shell; {NAME} stands for param.NAME" },
	{ .name = "shell", WL_BOOL_FIELD(struct external_opts, shell), .def = "no",
	  .help = "run command and server with /bin/sh -c instead (pipes, $VARS, globs)" },
	{ .name = "cwd", WL_STRING_FIELD(struct external_opts, cwd),
	  .help = "the directory command and server run in (default: kbench's)" },
	{ .name = "env.*", WL_KEYS_FIELD(struct external_opts, env),
	  .help = "env.NAME = VALUE: an environment variable added for command and server" },
	{ .name = "param.*", WL_KEYS_FIELD(struct external_opts, params),
	  .help = "param.NAME = LIST: values of {NAME}; the rows are every combination "
		  "(a list, stride:MIN..MAX or doubling:MIN..MAX)",
	  .validate = param_validate },
	{ .name = "metric.*", WL_KEYS_FIELD(struct external_opts, metrics),
	  .help = "metric.NAME = PATTERN: a PCRE2 pattern (^ and $ at each line) whose "
		  "(?<value>...) group is the figure",
	  .validate = metric_validate },
	{ .name = "unit.*", WL_KEYS_FIELD(struct external_opts, units),
	  .help = "unit.NAME = UNIT: the unit of metric NAME (MB/sec, s)" },
	{ .name = "better.*", WL_KEYS_FIELD(struct external_opts, betters),
	  .help = "better.NAME: whether a higher or a lower value of metric NAME is better",
	  .choices = "higher|lower" },
	{ .name = "aggregate.*", WL_KEYS_FIELD(struct external_opts, aggregates),
	  .help = "aggregate.NAME: which value when the pattern of NAME matches several "
		  "times (last unless set)",
	  .choices = "last|first|sum|mean" },
	{ .name = "server", WL_STRING_FIELD(struct external_opts, server),
	  .help = "a program started before a section's first sample and killed after its "
		  "last; {NAME} only for params with one value" },
	{ .name = "server_ready", WL_STRING_FIELD(struct external_opts, server_ready),
	  .help = "the server is ready once its output matches this PCRE2 pattern",
	  .validate = ready_validate },
	{ .name = "server_port", WL_INT_FIELD(struct external_opts, server_port),
	  .help = "the server is ready once TCP port 127.0.0.1:PORT accepts a connection",
	  .min = 1, .max = 65535 },
	{ .name = "server_timeout", WL_DOUBLE_FIELD(struct external_opts, server_timeout),
	  .def = "10", .help = "seconds the server has to become ready",
	  .min = 0.001, .max = 1e6 },
	{ .name = "output_limit", WL_SIZE_FIELD(struct external_opts, output_limit),
	  .def = "1M", .help = "bytes of the command's output kept and matched: the last ones",
	  .min = 1024, .max = 1ULL << 30 },
	{ .name = NULL }
};

const struct wl_flag ext_flags[] = {
	{ .short_name = 'c', .long_name = "command", .option = "command",
	  .help = "the command to run (set metric.NAME etc. with -o)" },
	{ .long_name = "shell", .option = "shell", .value = "yes",
	  .help = "run the command with /bin/sh -c" },
	{ .long_name = "server", .option = "server",
	  .help = "a server to start before the sample and stop after it" },
	{ .long_name = NULL }
};
