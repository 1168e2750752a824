/* cmd_compare: kbench compare BASE NEW [NEW...]: parses the options, has
 * compare/ build the comparison of the runs named and prints it in the
 * chosen format. */
#include "config.h"
#include "cli/cmd.h"
#include "cli/output.h"
#include "compare/compare.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/io.h"
#include "lib/parse-options.h"
#include "lib/regex.h"
#include "lib/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
		"between stored runs of the same host, config, options and kernel; while\n"
		"that is unknown, or when the change the runs could detect is larger than\n"
		"the change seen, the mean row prints ?  x.xx%? (cannot tell).",
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
		return error("unknown format '%s' "
			     "(expected text, brief, markdown, csv, json or html)", value);
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

static int parse_stats(const struct parse_opt *opt, const char *value)
{
	struct compare_options *copt = opt->value;
	int n = cmp_stats_parse(value, copt->stats);

	if (n < 0)
		return -1;
	copt->nstats = (size_t)n;
	return 0;
}

static int parse_order(const struct parse_opt *opt, const char *value)
{
	int *order_config = opt->value;

	if (!strcmp(value, "numeric"))
		*order_config = 0;
	else if (!strcmp(value, "config"))
		*order_config = 1;
	else
		return error("invalid --order '%s': expected numeric or config", value);
	return 0;
}

/* Neither "no worse row" (0) nor "worse" (1): git bisect run stops on it. */
#define EXIT_ERROR 128

/* --exit-code: which worse mean rows exit 1. */
enum exit_when {
	EXIT_NEVER,
	EXIT_STAR,	/* a worse row marked * */
	EXIT_ANY,	/* also a worse ? whose within-run test was significant */
};

static int parse_exit_code(const struct parse_opt *opt, const char *value)
{
	enum exit_when *when = opt->value;

	if (!value)
		*when = EXIT_STAR;
	else if (!strcmp(value, "any"))
		*when = EXIT_ANY;
	else
		return error("invalid --exit-code '%s': expected --exit-code or --exit-code=any",
			     value);
	return 0;
}

static int parse_margin(const struct parse_opt *opt, const char *value)
{
	char *end;
	double pct = strtod(value, &end);

	struct compare_options *copt = opt->value;

	if (!*value || *end || !(pct >= 0) || !isfinite(pct))
		return error("invalid --margin '%s': expected a percentage, 0 or more", value);
	copt->margin_pct = pct;
	copt->margin_set = 1;
	return 0;
}

/* Whether a run compared with the baseline has a worse mean row that
 * exits 1: a negative percentage marked *; with --exit-code=any also a ?
 * (cannot tell) whose within-run test was significant, the only test two
 * runs of kernels without calibration or history allow. */
static int any_worse(const struct cmp_model *m, enum exit_when when)
{
	for (size_t i = 0; i < m->nsections; i++)
		for (size_t r = 0; r < m->sections[i].nrows; r++)
			for (size_t c = 1; c < m->nruns; c++) {
				const struct cmp_cell *cell = &m->sections[i].rows[r].cells[c];

				if (cell->test.done && cell->pct[CMP_MEAN] < 0 &&
				    ((cell->test.significant && !cell->within_only) ||
				     (when == EXIT_ANY && cell->within_significant)))
					return 1;
			}
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	enum compare_format format = COMPARE_FORMAT_TEXT;
	enum exit_when exit_code = EXIT_NEVER;
	int per_host = 0;
	struct opt_list noise_from = OPT_LIST_INIT;
	const char *output = NULL;
	struct compare_options copt = { .monitors = CMP_MONITORS_SUMMARY };
	struct only_opt only = { .re = NULL };
	const struct parse_opt options[] = {
		OPT_CALLBACK(0, "format", &format, "FMT",
			     "text (default: ready to mail, within 80 columns),\n"
			     "brief (a few lines per section: mean and spread\n"
			     "before and after, the change and its verdict),\n"
			     "markdown, csv or json (every statistic, p-values,\n"
			     "each row's noise and raw samples; carries a format\n"
			     "version), html (one self-contained page with plots\n"
			     "drawn by gnuplot)", parse_format),
		OPT_STRING('o', "output", &output, "FILE",
			   "write to FILE instead of the standard output"),
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
			     "the monitors after each section (Ops block, a mean\n"
			     "per sample): summary (default: faults, context\n"
			     "switches, perf events, slab growth), all (every\n"
			     "stored key), or none", parse_monitors),
		OPT_CALLBACK(0, "stats", &copt, "LIST",
			     "the statistic rows of text and brief, in this order:\n"
			     "min, amean or hmean (the mean row), stddev, coeffvar,\n"
			     "max, bmean-95 (e.g. amean,hmean,stddev)", parse_stats),
		OPT_CALLBACK(0, "order", &copt.order_config, "ORDER",
			     "rows in numeric order (numeric, the default) or as\n"
			     "measured (config)", parse_order),
		OPT_BOOL(0, "per-host", &per_host,
			 "BASE and NEW are run names: compare them on every host\n"
			 "that has both, each host's lines prefixed with its\n"
			 "name, then count the hosts better, worse or within\n"
			 "noise per section (text or brief)"),
		OPT_CALLBACK_OPTVAL("exit-code", &exit_code, "any",
			 "exit 1 when a mean row is significantly worse than\n"
			 "BASE (*), 0 when none is, 128 on other errors (git\n"
			 "bisect run); =any: also a worse ? whose within-run\n"
			 "test is significant (noise unknown)", parse_exit_code),
		OPT_STRING_LIST(0, "noise-from", &noise_from, "RUNS",
				"estimate the between-run noise from these runs\n"
				"(and the compared ones) only, not the latest of\n"
				"each series: selectors or #A-#B ranges, commas\n"
				"between them, as the footer prints them; the same\n"
				"verdicts however many runs are stored since"),
		OPT_CALLBACK(0, "margin", &copt, "PCT",
			     "a mean row not significant reads within noise only\n"
			     "when the test detects a change of PCT% (default 5)\n"
			     "or of the change seen; else ? (cannot tell)",
			     parse_margin),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct store *store = NULL;
	struct cmp_model model;
	struct strbuf out = STRBUF_INIT;
	int nsel = argc, rc = EXIT_USAGE, have_model = 0;

	if (cmd_parse_options(&nsel, argv, options, &compare_usage, &rc))
		goto out;
	if (nsel < 2) {
		error("compare needs a baseline and at least one run to compare with it");
		parse_opt_usage_print(&compare_usage, options, stderr);
		goto out;
	}
	if (per_host && (nsel != 2 || copt.pool)) {
		error(nsel != 2 ? "--per-host compares two run names, BASE and NEW" :
		      "--per-host and --pool cannot be combined");
		goto out;
	}
	if (per_host && format != COMPARE_FORMAT_TEXT && format != COMPARE_FORMAT_BRIEF) {
		error("--per-host prints text or brief, not %s", renderers[format].name);
		goto out;
	}
	copt.only = only.re;
	copt.only_pattern = only.pattern;
	copt.noise_from = (const char *const *)noise_from.v;
	copt.nnoise_from = noise_from.n;
	rc = exit_code ? EXIT_ERROR : 1;
	if (cmd_open_store(&store, CMD_STORE_READ))
		goto out;
	if (per_host) {
		if (compare_per_host(store, argv[0], argv[1], &copt, format, &out))
			goto out;
		rc = output_write(output, &out) ? 1 : 0;
		goto out;
	}
	if (compare_build(store, (const char *const *)argv, (size_t)nsel, &copt, &model))
		goto out;
	have_model = 1;
	if (compare_render(&model, format, &out))
		goto out;
	if (output_write(output, &out))
		goto out;
	rc = exit_code != EXIT_NEVER && any_worse(&model, exit_code) ? 1 : 0;
out:
	if (have_model)
		model_release(&model);
	strbuf_release(&out);
	kb_regex_free(only.re);
	opt_list_release(&noise_from);
	store_close(store);
	return rc;
}
