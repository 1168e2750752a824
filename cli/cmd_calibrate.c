/* cmd_calibrate: kbench calibrate -c CONF [-o KEY=VALUE...] [--only REGEX]
 * [--runs N] [-n NAME] [--dry-run]: runs the configs N times as ordinary
 * runs tagged as calibration, then prints each row's within- and
 * between-run CoeffVar and the smallest change the default test detects,
 * from those runs alone; --dry-run prints the plan of one run and the
 * estimate of all N, and runs nothing. */
#include "config.h"
#include "cli/cmd.h"
#include "runner/conf.h"
#include "runner/dryrun.h"
#include "runner/plan.h"
#include "runner/runner.h"
#include "compare/compare.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALIBRATE_RUNS 5	/* enough for df 4; compare needs 3 runs */

static const struct parse_opt_usage calibrate_usage = {
	.synopsis = "kbench calibrate -c CONFIG [-c CONFIG...] [-o [SECTION.]KEY=VALUE...]\n"
		    "                  [--only REGEX] [--runs N] [-n NAME] [--dry-run]",
	.description =
		"Run the configs N times back to back, as ordinary runs tagged as\n"
		"calibration, and print each row's noise from those runs: the within-run\n"
		"CoeffVar, the between-run CoeffVar (the spread of the run means) and the\n"
		"smallest change of the mean that compare's default test detects between\n"
		"two runs with 80% power. compare uses these runs as the history of the\n"
		"host, config and kernel.",
	.help_column = 22,
	.epilogue = "The formulas are in docs/statistics.md.",
};

/* What the table printer remembers: the section of the last row. */
struct table {
	char *section;
};

static const char *pct(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.2f%%", v);
	else
		snprintf(buf, len, "-");
	return buf;
}

static int print_row(const struct compare_noise_row *r, void *arg)
{
	struct table *t = arg;
	char label[128], within[32], between[32], mde[32];

	if (!t->section || strcmp(t->section, r->section)) {
		printf("%s%-30s %5s %7s %9s %11s %9s\n", t->section ? "\n" : "", r->section,
		       "runs", "samples", "CoeffVar", "between-run", "MDE");
		free(t->section);
		t->section = xstrdup(r->section);
	}
	snprintf(label, sizeof(label), "%s %s", r->higher_better ? "Hmean" : "Amean", r->row);
	printf("  %-28s %5zu %7zu %9s %11s %9s\n", label, r->est.runs, r->samples,
	       pct(within, sizeof(within), r->est.within_cv),
	       pct(between, sizeof(between), r->est.run_cv), pct(mde, sizeof(mde), r->mde_pct));
	return 0;
}

/* --dry-run: the plan of one run, as run --dry-run prints it, and the
 * estimate of all nruns; the store is read when there is one, never
 * created. Return an exit status. */
static int dry_run_report(const struct plan *p, const struct config *c, int nruns)
{
	struct store *s = cmd_open_store_if_any();
	double seconds = 0;
	int unknown = 0, rc = 1;
	char dur[32];

	printf("calibrate would make %d runs of this plan, tagged calibration 1/%d to %d/%d:\n\n",
	       nruns, nruns, nruns, nruns);
	if (dryrun_print(p, c, s) || dryrun_estimate(p, s, &seconds, &unknown))
		goto out;
	dryrun_format_duration(seconds * nruns, dur, sizeof(dur));
	if (unknown && seconds <= 0)
		printf("estimated duration of the %d runs: unknown\n", nruns);
	else
		printf("estimated duration of the %d runs: %s%s\n", nruns, dur,
		       unknown ? " and the sections without an estimate" : "");
	rc = fflush(stdout) ? 1 : 0;
out:
	store_close(s);
	return rc;
}

/* The table of the calibration runs ids[0..n-1]. */
static int report(struct store *s, const int64_t *ids, size_t n, double alpha)
{
	struct table t = { .section = NULL };
	struct run_info first;
	int rc;

	if (store_get_run(s, ids[0], &first))
		return -1;
	printf("calibration: %zu runs of config '%s' on %s, kernel %s:", n, first.config_name,
	       first.hostname, first.kernel_release);
	for (size_t i = 0; i < n; i++)
		printf(" @%lld", (long long)ids[i]);
	printf("\n\n");
	run_info_release(&first);
	rc = compare_noise(s, ids, n, alpha, print_row, &t);
	free(t.section);
	if (rc)
		return -1;
	printf("\nCoeffVar: within runs (pooled). between-run: the CoeffVar of the run means.\n"
	       "MDE: the smallest change of the mean that compare's default test (alpha %g)\n"
	       "detects with 80%% power between one run a side of that many samples, with\n"
	       "this between-run noise. For Hmean rows all three are taken on 1/x.\n"
	       "compare counts these runs as history of this host, config and kernel.\n",
	       alpha);
	return 0;
}

int cmd_calibrate(int argc, char **argv)
{
	struct opt_list configs = OPT_LIST_INIT, overrides = OPT_LIST_INIT;
	struct run_request req = { .name = NULL };
	const char *only = NULL;
	int nruns = CALIBRATE_RUNS, dry_run = 0;
	const struct parse_opt options[] = {
		OPT_STRING_LIST('c', "config", &configs, "FILE",
				"an INI config (repeatable); see kbench.conf(5)"),
		OPT_STRING_LIST('o', NULL, &overrides, "KEY=VALUE",
				"set KEY in every section that takes it, over the\n"
				"configs; -o SECTION.KEY=VALUE sets it in that\n"
				"section only (repeatable), as for kbench run"),
		OPT_STRING(0, "only", &only, "REGEX",
			   "run only the sections whose name matches (PCRE2)"),
		OPT_INT_RANGE(0, "runs", &nruns, "N",
			      "how many runs (default 5, at least 3)", 3, 1000),
		OPT_CALLBACK('n', "name", &req.name, "NAME",
			     "the runs' name (default: uname -r)", cmd_parse_run_name),
		OPT_BOOL(0, "dry-run", &dry_run,
			 "validate the configs and print the plan, run nothing"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct config conf;
	struct plan plan = { .n = 0 };
	struct store *store = NULL;
	int64_t *ids = NULL;
	int rc = EXIT_USAGE, done = 0;

	config_init(&conf);
	if (cmd_parse_options(&argc, argv, options, &calibrate_usage, &rc))
		goto out;
	if (argc > 0) {
		error("unexpected argument '%s' (configs are given with -c)", argv[0]);
		goto out;
	}
	if (cmd_require_configs(&configs, &calibrate_usage, options))
		goto out;
	if (cmd_load_configs(&conf, &configs, &overrides))
		goto out;
	if (plan_build(&conf, only, &plan))
		goto out;
	if (dry_run) {
		rc = dry_run_report(&plan, &conf, nruns);
		goto out;
	}
	rc = 1;
	if (cmd_open_store(&store, CMD_STORE_WRITE))
		goto out;
	ids = xcalloc((size_t)nruns, sizeof(*ids));
	for (done = 0; done < nruns; done++) {
		char tag[32];

		notice("calibration run %d of %d", done + 1, nruns);
		rc = plan_execute(&plan, &conf, store, &req, &ids[done]);
		if (rc) {
			if (rc < 0)
				rc = 1;
			error("calibration stopped after %d complete runs of %d", done, nruns);
			goto out;
		}
		snprintf(tag, sizeof(tag), "%d/%d", done + 1, nruns);
		if (store_add_meta(store, ids[done], "", "calibration", tag)) {
			rc = 1;
			goto out;
		}
	}
	rc = report(store, ids, (size_t)nruns, stats_test_find("welch")->default_alpha) ? 1 : 0;
out:
	free(ids);
	store_close(store);
	plan_release(&plan);
	config_release(&conf);
	opt_list_release(&configs);
	opt_list_release(&overrides);
	return rc;
}
