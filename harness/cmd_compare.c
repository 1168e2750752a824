/* cmd_compare: kbench compare BASE NEW [NEW...]: parses the options, has
 * compare/ build the comparison of the runs named and prints it in the
 * chosen format. */
#include "config.h"
#include "harness/cmd.h"
#include "compare/compare.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/regex.h"
#include "lib/strbuf.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char compare_usage[] =
	"usage: kbench compare [options] BASE NEW [NEW...]\n"
	"\n"
	"Compare runs side by side in mmtests' table layout. BASE is the baseline;\n"
	"each run is a name (its latest complete run), #ID, a uuid prefix or\n"
	"NAME@HOST (the latest complete run of NAME on HOST).\n"
	"Per section: Min, Amean or Hmean, Stddev, CoeffVar, Max and the mean of\n"
	"the best 95% of samples, with the change against BASE in percent.\n"
	"Positive % = better. A significant change of the mean row prints\n"
	"*  x.xx%* instead of (  x.xx%); fewer than 3 samples a side: no star.\n"
	"\n"
	"  --format FMT   text (default), markdown, csv or json (every statistic,\n"
	"                 p-values and raw samples; carries a format version)\n"
	"  --test TEST    welch: Welch's t-test, on 1/x for Hmean rows (default)\n"
	"                 mwu: Mann-Whitney U, two-sided (exact for small samples\n"
	"                      without ties, else normal approximation)\n"
	"                 ci: mmtests' rule, mean +- 1.96 sd intervals apart\n"
	"                 ttest: mmtests' 2018-2024 t-test (df n1+n2-2)\n"
	"  --alpha A      significance level, 0 < A < 1 (default 0.05; ttest 0.10)\n"
	"  --pool         pool the samples of every complete run with the same\n"
	"                 name as each given run into its column\n"
	"  --only REGEX   keep sections or rows whose name matches (PCRE2)\n"
	"  --monitors M   the monitor totals after each section (Ops block):\n"
	"                 summary (default: faults, context switches, perf\n"
	"                 events, slab growth), all (every stored key), or none\n"
	"  --exit-code    exit 1 when a starred mean row is worse than BASE, 0\n"
	"                 when none is, 128 on other errors (git bisect run)\n"
	"  -h, --help     this text\n"
	"\n"
	"The formulas are in docs/statistics.md.\n";

/* Neither "no worse row" (0) nor "worse" (1): git bisect run stops on it. */
#define EXIT_ERROR 128

/* Whether a run compared with the baseline has a significant mean row
 * that is worse (a starred negative percentage). */
static int any_worse(const struct cmp_model *m)
{
	for (size_t i = 0; i < m->nsections; i++)
		for (size_t r = 0; r < m->sections[i].nrows; r++)
			for (size_t c = 1; c < m->nruns; c++) {
				const struct cmp_cell *cell = &m->sections[i].rows[r].cells[c];

				if (cell->test.done && cell->test.significant &&
				    cell->pct[CMP_MEAN] < 0)
					return 1;
			}
	return 0;
}

static int parse_alpha(const char *s, double *alpha)
{
	char *end;
	double a = strtod(s, &end);

	if (!*s || *end || !(a > 0 && a < 1))
		return error("invalid --alpha '%s': expected a number between 0 and 1", s);
	*alpha = a;
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "test", required_argument, NULL, 't' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "pool", no_argument, NULL, 'p' },
		{ "only", required_argument, NULL, 'o' },
		{ "monitors", required_argument, NULL, 'm' },
		{ "exit-code", no_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	enum compare_format format = COMPARE_FORMAT_TEXT;
	struct compare_options copt = { .monitors = CMP_MONITORS_SUMMARY };
	struct kb_regex *only = NULL;
	struct store *store = NULL;
	struct cmp_model model;
	struct strbuf out = STRBUF_INIT;
	int opt, nsel, rc = 2, have_model = 0, exit_code = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (compare_format_parse(optarg, &format)) {
				error("unknown format '%s' (expected text, markdown, csv or json)",
				      optarg);
				goto out;
			}
			break;
		case 't':
			if (!(copt.test = stats_test_find(optarg))) {
				error("unknown test '%s' (expected welch, mwu, ci or ttest)", optarg);
				goto out;
			}
			break;
		case 'a':
			if (parse_alpha(optarg, &copt.alpha))
				goto out;
			break;
		case 'p':
			copt.pool = 1;
			break;
		case 'o':
			kb_regex_free(only);
			if (!(only = kb_regex_new(optarg, "--only")))
				goto out;
			copt.only = only;
			copt.only_pattern = optarg;
			break;
		case 'm':
			if (!strcmp(optarg, "none")) {
				copt.monitors = CMP_MONITORS_NONE;
			} else if (!strcmp(optarg, "summary")) {
				copt.monitors = CMP_MONITORS_SUMMARY;
			} else if (!strcmp(optarg, "all")) {
				copt.monitors = CMP_MONITORS_ALL;
			} else {
				error("invalid --monitors '%s': expected none, summary or all", optarg);
				goto out;
			}
			break;
		case 'x':
			exit_code = 1;
			break;
		case 'h':
			fputs(compare_usage, stdout);
			rc = 0;
			goto out;
		default:
			fputs(compare_usage, stderr);
			goto out;
		}
	}
	nsel = argc - optind;
	if (nsel < 2) {
		error("compare needs a baseline and at least one run to compare with it");
		fputs(compare_usage, stderr);
		goto out;
	}
	rc = exit_code ? EXIT_ERROR : 1;
	if (cmd_open_store(&store))
		goto out;
	if (compare_build(store, (const char *const *)argv + optind, nsel, &copt, &model))
		goto out;
	have_model = 1;
	if (compare_render(&model, format, &out))
		goto out;
	fwrite(out.buf, 1, out.len, stdout);
	if (fflush(stdout))
		goto out;
	rc = exit_code && any_worse(&model) ? 1 : 0;
out:
	if (have_model)
		model_release(&model);
	strbuf_release(&out);
	kb_regex_free(only);
	store_close(store);
	return rc;
}
