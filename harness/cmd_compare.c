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
	"  --format FMT   text (default: ready to mail, within 80 columns),\n"
	"                 brief (a few lines per section: mean and spread\n"
	"                 before and after, the change and its verdict),\n"
	"                 markdown, csv or json (every statistic, p-values and\n"
	"                 raw samples; carries a format version)\n"
	"  --test TEST    welch: Welch's t-test, on 1/x for Hmean rows (default)\n"
	"                 mwu: Mann-Whitney U, two-sided (exact for small samples\n"
	"                      without ties, else normal approximation)\n"
	"                 ci: mmtests' rule, mean +- 1.96 sd intervals apart\n"
	"                 ttest: mmtests' 2018-2024 t-test (df n1+n2-2)\n"
	"  --alpha A      significance level, 0 < A < 1 (default 0.05; ttest 0.10)\n"
	"  --pool         pool the samples of every complete run with the same\n"
	"                 name as each given run into its column\n"
	"  --only REGEX   keep sections or rows whose name matches (PCRE2)\n"
	"  --monitors M   the monitors after each section (Ops block, a mean per\n"
	"                 sample): summary (default: faults, context switches,\n"
	"                 perf events, slab growth), all (every stored key), or\n"
	"                 none\n"
	"  --stats LIST   the statistic rows of text and brief, in this order:\n"
	"                 min, amean or hmean (the mean row), stddev, coeffvar,\n"
	"                 max, bmean-95 (e.g. amean,hmean,stddev)\n"
	"  --order ORDER  rows in numeric order (numeric, the default) or as\n"
	"                 measured (config)\n"
	"  --per-host     BASE and NEW are run names: compare them on every host\n"
	"                 that has both, each host's lines prefixed with its\n"
	"                 name, then count the hosts better, worse or within\n"
	"                 noise per section (text or brief)\n"
	"  -h, --help     this text\n"
	"\n"
	"The formulas are in docs/statistics.md.\n";

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
		{ "stats", required_argument, NULL, 's' },
		{ "order", required_argument, NULL, 'r' },
		{ "per-host", no_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	enum compare_format format = COMPARE_FORMAT_TEXT;
	struct compare_options copt = { .monitors = CMP_MONITORS_SUMMARY };
	struct kb_regex *only = NULL;
	struct store *store = NULL;
	struct cmp_model model;
	struct strbuf out = STRBUF_INIT;
	int opt, nsel, rc = 2, have_model = 0, per_host = 0, n;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (compare_format_parse(optarg, &format)) {
				error("unknown format '%s' (expected text, brief, markdown, csv or "
				      "json)", optarg);
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
		case 's':
			if ((n = cmp_stats_parse(optarg, copt.stats)) < 0)
				goto out;
			copt.nstats = (size_t)n;
			break;
		case 'r':
			if (!strcmp(optarg, "numeric")) {
				copt.order_config = 0;
			} else if (!strcmp(optarg, "config")) {
				copt.order_config = 1;
			} else {
				error("invalid --order '%s': expected numeric or config", optarg);
				goto out;
			}
			break;
		case 'H':
			per_host = 1;
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
	if (per_host && (nsel != 2 || copt.pool)) {
		error(nsel != 2 ? "--per-host compares two run names, BASE and NEW" :
		      "--per-host and --pool cannot be combined");
		goto out;
	}
	if (per_host && format != COMPARE_FORMAT_TEXT && format != COMPARE_FORMAT_BRIEF) {
		error("--per-host prints text or brief, not %s", renderers[format].name);
		goto out;
	}
	rc = 1;
	if (cmd_open_store(&store))
		goto out;
	if (per_host) {
		if (compare_per_host(store, argv[optind], argv[optind + 1], &copt, format, &out))
			goto out;
		fwrite(out.buf, 1, out.len, stdout);
		rc = fflush(stdout) ? 1 : 0;
		goto out;
	}
	if (compare_build(store, (const char *const *)argv + optind, nsel, &copt, &model))
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
	kb_regex_free(only);
	store_close(store);
	return rc;
}
