/* cmd_run: kbench run -c CONF [-c CONF...] [-n NAME] [--only REGEX] */
#include "config.h"
#include "harness/cmd.h"
#include "harness/conf.h"
#include "harness/plan.h"
#include "harness/runner.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "workloads/workload.h"

#include <stdint.h>
#include <stdio.h>

static const struct parse_opt_usage run_usage = {
	.synopsis = "kbench run -c CONFIG [-c CONFIG...] [-n NAME] [--only REGEX] [--dry-run]",
	.description = "Run every section of the configs and store each sample as it is measured.",
	.help_column = 22,
	.epilogue =
		"Progress goes to stderr (one line per sample unless it is a terminal).\n"
		"SIGINT/SIGTERM stop the sample in flight, keep every stored sample and mark\n"
		"the run interrupted. Exit status: 0 complete, 1 all samples failed, 2 bad\n"
		"arguments or config, 128+N interrupted by signal N.",
};

static void print_plan(const struct plan *p)
{
	printf("%-28s %-10s %5s %6s  %s\n", "section", "workload", "iters", "warmup", "rows");
	for (size_t i = 0; i < p->n; i++) {
		const struct plan_section *ps = &p->sections[i];

		printf("%-28s %-10s %5d %6d  %s", ps->cs->name, ps->ops->name, ps->iterations,
		       ps->warmup, ps->ops->row_option);
		for (size_t r = 0; r < ps->nrows; r++)
			printf(" %lld", ps->rows[r]);
		putchar('\n');
	}
	printf("%lld samples in all (warm-up included)\n", (long long)plan_total_samples(p));
}

int cmd_run(int argc, char **argv)
{
	struct opt_list configs = OPT_LIST_INIT;
	struct run_request req = { .name = NULL };
	const char *only = NULL;
	int dry_run = 0, no_report = 0;
	const struct parse_opt options[] = {
		OPT_STRING_LIST('c', "config", &configs, "FILE",
				"an INI config (repeatable); see kbench.conf(5)"),
		OPT_STRING('n', "name", &req.name, "NAME",
			   "the run's name (default: uname -r); names may repeat,\n"
			   "compare picks the latest complete run of a name"),
		OPT_STRING(0, "only", &only, "REGEX",
			   "run only the sections whose name matches (PCRE2)"),
		OPT_BOOL(0, "dry-run", &dry_run,
			 "validate the configs and print the plan, run nothing"),
		OPT_BOOL(0, "no-report", &no_report, "do not print the table after the run"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct config conf;
	struct plan plan = { .n = 0 };
	struct store *store = NULL;
	int64_t run_id = 0;
	int rc = EXIT_USAGE;	/* also the status of a bad config */

	config_init(&conf);
	argc = parse_options(argc, argv, options, &run_usage, 0);
	if (argc < 0) {
		rc = argc == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
		goto out;
	}
	if (argc > 0) {
		error("unexpected argument '%s' (configs are given with -c)", argv[0]);
		goto out;
	}
	if (!configs.n) {
		error("no config given: use -c FILE (e.g. configs/quick.conf)");
		parse_opt_usage_print(&run_usage, options, stderr);
		goto out;
	}
	if (req.name && !*req.name) {
		error("the run name must not be empty");
		goto out;
	}
	for (size_t i = 0; i < configs.n; i++)
		if (config_load(&conf, configs.v[i]))
			goto out;
	if (plan_build(&conf, only, &plan))
		goto out;
	if (dry_run) {
		print_plan(&plan);
		rc = 0;
		goto out;
	}
	if (cmd_open_store(&store)) {
		rc = 1;
		goto out;
	}
	rc = plan_execute(&plan, &conf, store, &req, &run_id);
	if (rc < 0)
		rc = 1;
	if (rc == 0 && !no_report)
		rc = cmd_report_run(store, run_id) ? 1 : 0;
out:
	store_close(store);
	plan_release(&plan);
	config_release(&conf);
	opt_list_release(&configs);
	return rc;
}
