/* compare_cmdline: kbench compare's options, parsed for compare and for mail,
 * and the comparison they ask for. */
#include "config.h"
#include "views/compare_cmdline.h"
#include "views/output.h"
#include "compare/compare.h"
#include "compare/decide.h"
#include "compare/render.h"
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
	.synopsis = "kbench compare [options] BASE NEW [NEW...]\n"
		    "   or: kbench compare [options] RUN",
	.description =
		"Compare runs side by side in mmtests' table layout. BASE is the baseline;\n"
		"each run is a name (its latest complete run), @ID, a uuid prefix or\n"
		"NAME@HOST (the latest complete run of NAME on HOST). One RUN alone\n"
		"prints its statistics, as its report after 'kbench run' did.\n"
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

int compare_cmdline_format(const char *name, enum compare_format *f)
{
	struct strbuf names = STRBUF_INIT;

	if (!compare_format_parse(name, f))
		return 0;
	renderer_names(&names);
	error("unknown format '%s' (expected %s)", name, names.buf);
	strbuf_release(&names);
	return -1;
}

int compare_cmdline_parse_format(const struct parse_opt *opt, const char *value)
{
	return compare_cmdline_format(value, opt->value);
}

void compare_cmdline_complete_format(struct parse_opt_complete *c)
{
	for (const struct renderer *r = renderers; r->name; r++)
		parse_opt_complete_add(c, r->name);
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

static int parse_paired(const struct parse_opt *opt, const char *value)
{
	int *nested = opt->value;

	if (!strcmp(value, "means"))
		*nested = 0;
	else if (!strcmp(value, "nested"))
		*nested = 1;
	else
		return error("invalid --paired '%s': expected means or nested", value);
	return 0;
}

static int parse_exit_code(const struct parse_opt *opt, const char *value)
{
	enum compare_exit_when *when = opt->value;

	if (!value)
		*when = COMPARE_EXIT_STAR;
	else if (!strcmp(value, "any"))
		*when = COMPARE_EXIT_ANY;
	else
		return error("invalid --exit-code '%s': expected --exit-code or --exit-code=any",
			     value);
	return 0;
}

static int parse_margin(const struct parse_opt *opt, const char *value)
{
	struct compare_options *copt = opt->value;
	char *end;
	double pct = strtod(value, &end);

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
static int any_worse(const struct cmp_model *m, enum compare_exit_when when)
{
	for (size_t i = 0; i < m->nsections; i++)
		for (size_t r = 0; r < m->sections[i].nrows; r++)
			for (size_t c = 1; c < m->nruns; c++) {
				const struct cmp_cell *cell = &m->sections[i].rows[r].cells[c];

				if (cell->test.done && cell->pct[CMP_MEAN] < 0 &&
				    cell->test.significant &&
				    (!decide_within_only(cell) || when == COMPARE_EXIT_ANY))
					return 1;
			}
	return 0;
}

int compare_cmdline_parse(struct compare_cmdline *c, int argc, char **argv,
			  parse_opt_complete_fn *complete_runs)
{
	struct parse_opt_usage usage = compare_usage;
	struct only_opt only = { .re = NULL };
	const struct parse_opt options[] = {
		OPT_CALLBACK(0, "format", &c->format, "FMT",
			     "text (default: ready to mail, within 80 columns),\n"
			     "brief (a few lines per section: mean and spread\n"
			     "before and after, the change and its verdict),\n"
			     "markdown, csv or json (every statistic, p-values,\n"
			     "each row's noise and raw samples; carries a format\n"
			     "version), html (one self-contained page with plots\n"
			     "drawn by gnuplot)", compare_cmdline_parse_format,
			     .complete = compare_cmdline_complete_format),
		OPT_CALLBACK('o', "output", &c->output, "FILE",
			     "write to FILE instead of the standard output",
			     output_parse_path),
		OPT_CALLBACK(0, "test", &c->opt.test, "TEST",
			     "welch: Welch's t-test, on 1/x for Hmean rows,\n"
			     "with between-run noise when known (default)\n"
			     "mwu: Mann-Whitney U, two-sided (exact for small\n"
			     "     samples without ties, else normal approx.)\n"
			     "ci: mmtests' rule, mean +- 1.96 sd intervals apart\n"
			     "ttest: mmtests' 2018-2024 t-test (df n1+n2-2)", parse_test),
		OPT_CALLBACK(0, "alpha", &c->opt.alpha, "A",
			     "significance level, 0 < A < 1 (default 0.05;\n"
			     "ttest 0.10)", parse_alpha),
		OPT_BOOL(0, "within-run", &c->opt.within_run,
			 "Welch's test on the samples alone, as before\n"
			 "between-run noise: its stars print *"),
		OPT_CALLBACK(0, "paired", &c->opt.paired_nested, "MODEL",
			     "the arms of an A/B experiment: means (default), a\n"
			     "paired t on the rounds' mean differences; nested,\n"
			     "the samples within the rounds pooled in when an F\n"
			     "test finds no round-by-arm noise", parse_paired),
		OPT_CALLBACK(0, "noise-threshold", &c->opt.noise_threshold, "PCT",
			     "mark a mean ~ when its CoeffVar exceeds PCT\n"
			     "(default 5) or it has fewer than 3 samples",
			     parse_noise_threshold),
		OPT_BOOL(0, "pool", &c->opt.pool,
			 "pool the samples of every complete run with the\n"
			 "same name as each given run into its column"),
		OPT_CALLBACK(0, "only", &only, "REGEX",
			     "keep sections or rows whose name matches (PCRE2)", parse_only),
		OPT_CALLBACK(0, "monitors", &c->opt.monitors, "M",
			     "the monitors after each section (Ops block, a mean\n"
			     "per sample): summary (default: faults, context\n"
			     "switches, perf events, slab growth), all (every\n"
			     "stored key), or none", parse_monitors),
		OPT_CALLBACK(0, "stats", &c->opt, "LIST",
			     "the statistic rows of text and brief, in this order:\n"
			     "min, amean or hmean (the mean row), stddev, coeffvar,\n"
			     "max, bmean-95 (e.g. amean,hmean,stddev)", parse_stats),
		OPT_CALLBACK(0, "order", &c->opt.order_config, "ORDER",
			     "rows in numeric order (numeric, the default) or as\n"
			     "measured (config)", parse_order),
		OPT_BOOL(0, "per-host", &c->per_host,
			 "BASE and NEW are run names: compare them on every host\n"
			 "that has both, each host's lines prefixed with its\n"
			 "name, then count the hosts better, worse or within\n"
			 "noise per section (text, brief, or html: one page,\n"
			 "the summary first, each host's part linked)"),
		OPT_CALLBACK_OPTVAL("exit-code", &c->exit_code, "any",
			 "exit 1 when a mean row is significantly worse than\n"
			 "BASE (*), 0 when none is, 128 on other errors (git\n"
			 "bisect run); =any: also a worse ? whose within-run\n"
			 "test is significant (noise unknown)", parse_exit_code),
		OPT_STRING_LIST(0, "noise-from", &c->noise_from, "RUNS",
				"estimate the between-run noise from these runs\n"
				"(and the compared ones) only, not the latest of\n"
				"each series: selectors or @A-@B ranges, commas\n"
				"between them, as the footer prints them; the same\n"
				"verdicts however many runs are stored since"),
		OPT_CALLBACK(0, "margin", &c->opt, "PCT",
			     "a mean row not significant reads within noise only\n"
			     "when the test detects a change of PCT% (default 5)\n"
			     "or of the change seen; else ? (cannot tell)",
			     parse_margin),
		OPT_HELP("this text"),
		OPT_END(),
	};
	int nsel;

	memset(c, 0, sizeof(*c));
	c->format = COMPARE_FORMAT_TEXT;
	c->opt.monitors = CMP_MONITORS_SUMMARY;
	usage.complete_args = complete_runs;
	nsel = parse_options(argc, argv, options, &usage, 0);
	/* Owned by c from here on, whatever comes next. */
	c->only = only.re;
	c->opt.only = only.re;
	c->opt.only_pattern = only.pattern;
	c->opt.noise_from = (const char *const *)c->noise_from.v;
	c->opt.nnoise_from = c->noise_from.n;
	if (nsel < 0)
		return nsel == PARSE_OPT_HELP ? PARSE_OPT_HELP : -1;
	if (nsel < 1) {
		error("compare needs a run (its statistics), or a baseline and the runs to "
		      "compare with it");
		parse_opt_usage_print(&usage, options, stderr);
		return -1;
	}
	if (c->per_host && (nsel != 2 || c->opt.pool))
		return error(nsel != 2 ? "--per-host compares two run names, BASE and NEW" :
			     "--per-host and --pool cannot be combined");
	if (c->per_host && c->format != COMPARE_FORMAT_TEXT && c->format != COMPARE_FORMAT_BRIEF &&
	    c->format != COMPARE_FORMAT_HTML)
		return error("--per-host prints text, brief or html, not %s",
			     renderers[c->format].name);
	c->selectors = (const char *const *)argv;
	c->nselectors = (size_t)nsel;
	return 0;
}

/* Say which compared runs are still measuring (their writer at work) or
 * were stopped part way: their rows hold only what was stored so far, and
 * a row they have not reached yet reads as missing. */
void compare_cmdline_say_unfinished(struct store *s, const struct cmp_model *m)
{
	for (size_t c = 0; c < m->nruns; c++)
		for (size_t i = 0; i < m->runs[c].nruns; i++) {
			struct run_info ri = { .id = 0 };

			if (store_get_run(s, m->runs[c].ids[i], &ri))
				continue;
			if (!strcmp(ri.status, "running"))
				notice("run @%lld '%s' is still running (started %s): it is "
				       "compared on the %lld samples stored so far, and a row it "
				       "has not reached reads as missing", (long long)ri.id,
				       ri.name, ri.started_at, (long long)ri.nsamples);
			else if (strcmp(ri.status, "complete"))
				notice("run @%lld '%s' is %s: it is compared on the %lld samples "
				       "it stored", (long long)ri.id, ri.name, ri.status,
				       (long long)ri.nsamples);
			run_info_release(&ri);
		}
}

int compare_cmdline_run(struct store *s, const struct compare_cmdline *c, struct strbuf *out)
{
	struct cmp_model model;
	int rc;

	if (c->per_host)
		return compare_per_host(s, c->selectors[0], c->selectors[1], &c->opt, c->format,
					out);
	if (compare_build(s, c->selectors, c->nselectors, &c->opt, &model))
		return -1;
	compare_cmdline_say_unfinished(s, &model);
	rc = compare_render(&model, c->format, out);
	if (!rc)
		rc = c->exit_code != COMPARE_EXIT_NEVER && any_worse(&model, c->exit_code) ? 1 : 0;
	model_release(&model);
	return rc;
}

void compare_cmdline_release(struct compare_cmdline *c)
{
	kb_regex_free(c->only);
	c->only = NULL;
	c->opt.only = NULL;
	opt_list_release(&c->noise_from);
	c->opt.noise_from = NULL;
	c->opt.nnoise_from = 0;
}
