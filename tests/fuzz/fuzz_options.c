/* fuzz_options: libFuzzer target for command-line parsing (lib/parse-
 * options): the input, split on NUL or newline, is an argv parsed against
 * a table with an option of each type and, unless the first byte is odd,
 * kbench-like global options allowed anywhere. What it returns is checked
 * against what parse_options promises. */
#include "config.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

static struct values {
	int flag, quiet, count, any_int;
	double ratio;
	const char *config, *db, *name;
	struct opt_list only;
	int callbacks;
} v;

/* A callback that takes KEY=VALUE, as direct mode's -p does. */
static int key_value(const struct parse_opt *opt, const char *value)
{
	struct values *out = opt->value;

	if (!value || !strchr(value, '=') || *value == '=')
		return -1;
	out->callbacks++;
	return 0;
}

static const struct parse_opt options[] = {
	OPT_BOOL('f', "force", &v.flag, "a flag"),
	OPT_INT_RANGE('j', "jobs", &v.count, "N", "a bounded integer", 1, 64),
	OPT_INT(0, "seed", &v.any_int, "N", "any integer"),
	OPT_DOUBLE('a', "alpha", &v.ratio, "P", "a number"),
	OPT_STRING('c', "config", &v.config, "FILE", "a string"),
	OPT_STRING('n', "name", &v.name, "NAME", "another, sharing a prefix\nwith --no-report"),
	OPT_BOOL(0, "no-report", &v.flag, "a long-only flag"),
	OPT_STRING_LIST(0, "only", &v.only, "REGEX", "repeatable"),
	OPT_CALLBACK('p', "param", &v, "KEY=VALUE", "a callback", key_value),
	OPT_HELP("this text"),
	OPT_END(),
};

static const struct parse_opt globals[] = {
	OPT_STRING(0, "db", &v.db, "FILE", "the store"),
	OPT_BOOL('q', "quiet", &v.quiet, "fewer words"),
	OPT_END(),
};

static const struct parse_opt_usage usage = {
	.synopsis = "fuzz [options] ARG...",
	.description = "The options of every type.",
	.help_column = 24,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* Errors and --help print: quiet unless asked. */
	if (!getenv("KBENCH_FUZZ_VERBOSE")) {
		FILE *null = fopen("/dev/null", "w");

		if (null)
			stderr = stdout = null;
	}
	return 0;
}

/* Whether p is one of the strings of args[0..n-1]. */
static int from_args(const char *p, char *const *args, int n)
{
	for (int i = 0; i < n; i++)
		if (p == args[i] || (p > args[i] && p <= args[i] + strlen(args[i])))
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *argv[MAX_ARGS + 2], *orig[MAX_ARGS + 1];
	unsigned flags;
	int argc = 0, rc;

	if (!size)
		return 0;
	flags = data[0];
	text = xmalloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	argv[argc++] = (char *)"fuzz";
	for (char *p = text, *end = text + size - 1; argc <= MAX_ARGS; p++) {
		char *q = p;

		while (q < end && *q && *q != '\n')
			q++;
		*q = '\0';
		argv[argc++] = p;
		p = q;
		if (p >= end)
			break;
	}
	argv[argc] = NULL;
	memcpy(orig, argv, sizeof(*argv) * (size_t)argc);

	memset(&v, 0, sizeof(v));
	v.count = 1;
	parse_options_set_global(flags & 1 ? NULL : globals);
	rc = parse_options(argc, argv, options, &usage,
			   flags & 2 ? PARSE_OPT_STOP_AT_NON_OPTION : 0);
	parse_options_set_global(NULL);
	if (rc >= 0) {
		/* The arguments left, in their order, NULL-terminated. */
		if (rc > argc - 1 || argv[rc])
			abort();
		for (int i = 0, k = 1; i < rc; i++, k++) {
			while (k < argc && orig[k] != argv[i])
				k++;
			if (k == argc)
				abort();
		}
		/* Values within their bounds, and pointing into argv. */
		if (v.count < 1 || v.count > 64 || !isfinite(v.ratio))
			abort();
		if ((v.config && !from_args(v.config, orig, argc)) ||
		    (v.name && !from_args(v.name, orig, argc)) ||
		    (v.db && !from_args(v.db, orig, argc)))
			abort();
		for (size_t i = 0; i < v.only.n; i++)
			if (!from_args(v.only.v[i], orig, argc))
				abort();
	} else if (rc != PARSE_OPT_ERROR && rc != PARSE_OPT_HELP) {
		abort();
	}
	opt_list_release(&v.only);
	free(text);
	return 0;
}
