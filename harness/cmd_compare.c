/* cmd_compare: kbench compare BASE NEW [NEW...]: parses the options, has
 * compare/ build the comparison of the runs named and prints it in the
 * chosen format. */
#include "config.h"
#include "harness/cmd.h"
#include "compare/compare.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/regex.h"
#include "lib/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct parse_opt_usage compare_usage = {
	.synopsis = "kbench compare [options] BASE NEW [NEW...]",
	.description =
		"Compare runs side by side in mmtests' table layout. BASE is the baseline;\n"
		"each run is a name (its latest complete run), #ID, a uuid prefix or\n"
		"NAME@HOST (the latest complete run of NAME on HOST).\n"
		"Per section: Min, Amean or Hmean, Stddev, CoeffVar, Max and the mean of\n"
		"the best 95% of samples, with the change against BASE in percent.\n"
		"Positive % = better. A significant change of the mean row prints\n"
		"*  x.xx%* instead of (  x.xx%); fewer than 3 samples a side: no star.\n"
		"The default test weighs the change of the run means against the noise\n"
		"between stored runs of the same host, config and kernel; while that is\n"
		"unknown, a change significant within the runs prints +  x.xx%+.",
	.help_column = 25,
	.epilogue = "The formulas are in docs/statistics.md.",
};

/* The values of --monitors. */
static const struct {
	const char *name;
	enum cmp_monitors monitors;
} monitor_choices[] = {
	{ .name = "none", .monitors = CMP_MONITORS_NONE },
	{ .name = "summary", .monitors = CMP_MONITORS_SUMMARY },
	{ .name = "all", .monitors = CMP_MONITORS_ALL },
};

/* --only: the last pattern given, compiled as it is parsed. */
struct only_opt {
	struct kb_regex *re;
	const char *pattern;
};

static int parse_format(const struct parse_opt *opt, const char *value)
{
	if (compare_format_parse(value, opt->value))
		return error("unknown format '%s' (expected text, markdown, csv or json)", value);
	return 0;
}

static int parse_test(const struct parse_opt *opt, const char *value)
{
	const struct stats_test_desc **test = opt->value;

	if (!(*test = stats_test_find(value)))
		return error("unknown test '%s' (expected welch, mwu, ci or ttest)", value);
	return 0;
}

static int parse_alpha(const struct parse_opt *opt, const char *value)
{
	char *end;
	double a = strtod(value, &end);

	if (!*value || *end || !(a > 0 && a < 1))
		return error("invalid --alpha '%s': expected a number between 0 and 1", value);
	*(double *)opt->value = a;
	return 0;
}

static int parse_noise_threshold(const struct parse_opt *opt, const char *value)
{
	char *end;
	double pct = strtod(value, &end);

	if (!*value || *end || !(pct > 0) || !isfinite(pct))
		return error("invalid --noise-threshold '%s': expected a percentage above 0",
			     value);
	*(double *)opt->value = pct;
	return 0;
}

static int parse_only(const struct parse_opt *opt, const char *value)
{
	struct only_opt *only = opt->value;

	kb_regex_free(only->re);
	only->pattern = value;
	return (only->re = kb_regex_new(value, "--only")) ? 0 : -1;
}

static int parse_monitors(const struct parse_opt *opt, const char *value)
{
	for (size_t i = 0; i < sizeof(monitor_choices) / sizeof(monitor_choices[0]); i++)
		if (!strcmp(value, monitor_choices[i].name)) {
			*(enum cmp_monitors *)opt->value = monitor_choices[i].monitors;
			return 0;
		}
	return error("invalid --monitors '%s': expected none, summary or all", value);
}

int cmd_compare(int argc, char **argv)
{
	enum compare_format format = COMPARE_FORMAT_TEXT;
	struct compare_options copt = { .monitors = CMP_MONITORS_SUMMARY };
	struct only_opt only = { .re = NULL };
	const struct parse_opt options[] = {
		OPT_CALLBACK(0, "format", &format, "FMT",
			     "text (default), markdown, csv or json (every\n"
			     "statistic, p-values, each row's noise and raw\n"
			     "samples; carries a format version)", parse_format),
		OPT_CALLBACK(0, "test", &copt.test, "TEST",
			     "welch: Welch's t-test, on 1/x for Hmean rows,\n"
			     "with between-run noise when known (default)\n"
			     "mwu: Mann-Whitney U, two-sided (exact for small\n"
			     "     samples without ties, else normal approx.)\n"
			     "ci: mmtests' rule, mean +- 1.96 sd intervals apart\n"
			     "ttest: mmtests' 2018-2024 t-test (df n1+n2-2)", parse_test),
		OPT_CALLBACK(0, "alpha", &copt.alpha, "A",
			     "significance level, 0 < A < 1 (default 0.05;\n"
			     "ttest 0.10)", parse_alpha),
		OPT_BOOL(0, "within-run", &copt.within_run,
			 "Welch's test on the samples alone, as before\n"
			 "between-run noise: its stars print *"),
		OPT_CALLBACK(0, "noise-threshold", &copt.noise_threshold, "PCT",
			     "mark a mean ~ when its CoeffVar exceeds PCT\n"
			     "(default 5) or it has fewer than 3 samples",
			     parse_noise_threshold),
		OPT_BOOL(0, "pool", &copt.pool,
			 "pool the samples of every complete run with the\n"
			 "same name as each given run into its column"),
		OPT_CALLBACK(0, "only", &only, "REGEX",
			     "keep sections or rows whose name matches (PCRE2)", parse_only),
		OPT_CALLBACK(0, "monitors", &copt.monitors, "M",
			     "the monitor totals after each section (Ops\n"
			     "block): summary (default: faults, context\n"
			     "switches, perf events, slab growth), all (every\n"
			     "stored key), or none",
			     parse_monitors),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct store *store = NULL;
	struct cmp_model model;
	struct strbuf out = STRBUF_INIT;
	int nsel, rc = EXIT_USAGE, have_model = 0;

	nsel = parse_options(argc, argv, options, &compare_usage, 0);
	if (nsel < 0) {
		rc = nsel == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
		goto out;
	}
	if (nsel < 2) {
		error("compare needs a baseline and at least one run to compare with it");
		parse_opt_usage_print(&compare_usage, options, stderr);
		goto out;
	}
	copt.only = only.re;
	copt.only_pattern = only.pattern;
	rc = 1;
	if (cmd_open_store(&store))
		goto out;
	if (compare_build(store, (const char *const *)argv, (size_t)nsel, &copt, &model))
		goto out;
	have_model = 1;
	if (compare_render(&model, format, &out))
		goto out;
	fwrite(out.buf, 1, out.len, stdout);
	rc = fflush(stdout) ? 1 : 0;
out:
	if (have_model)
		model_release(&model);
	strbuf_release(&out);
	kb_regex_free(only.re);
	store_close(store);
	return rc;
}
