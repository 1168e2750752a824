/* cmd_run: kbench run -c CONF [-c CONF...] [-n NAME] [--only REGEX] */
#include "config.h"
#include "harness/cmd.h"
#include "harness/conf.h"
#include "lib/error.h"
#include "workloads/params.h"
#include "harness/runner.h"
#include "lib/strbuf.h"
#include "db/store.h"
#include "workloads/workload.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char run_usage[] =
	"usage: kbench run -c CONFIG [-c CONFIG...] [-n NAME] [--only REGEX] [--dry-run]\n"
	"\n"
	"Run every section of the configs and store each sample as it is measured.\n"
	"\n"
	"  -c, --config FILE   an INI config (repeatable); see kbench.conf(5)\n"
	"  -n, --name NAME     the run's name (default: uname -r); names may repeat,\n"
	"                      compare picks the latest complete run of a name\n"
	"      --only REGEX    run only the sections whose name matches (PCRE2)\n"
	"      --dry-run       validate the configs and print the plan, run nothing\n"
	"      --no-report     do not print the table after the run\n"
	"  -h, --help          this text\n"
	"\n"
	"Progress goes to stderr (one line per sample unless it is a terminal).\n"
	"SIGINT/SIGTERM stop the sample in flight, keep every stored sample and mark\n"
	"the run interrupted. Exit status: 0 complete, 1 all samples failed, 2 bad\n"
	"arguments or config, 128+N interrupted by signal N.\n";

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
	printf("%d samples in all (warm-up included)\n", plan_total_samples(p));
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ .name = "config", .has_arg = required_argument, .val = 'c' },
		{ .name = "name", .has_arg = required_argument, .val = 'n' },
		{ .name = "only", .has_arg = required_argument, .val = 'o' },
		{ .name = "dry-run", .has_arg = no_argument, .val = 'd' },
		{ .name = "no-report", .has_arg = no_argument, .val = 'R' },
		{ .name = "help", .has_arg = no_argument, .val = 'h' },
		{ .name = NULL }
	};
	struct config conf;
	struct plan plan = { 0 };
	struct store *store = NULL;
	struct run_request req = { 0 };
	const char *only = NULL;
	int64_t run_id = 0;
	int nconf = 0, report = 1, opt, rc = 2;

	config_init(&conf);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "c:n:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			if (config_load(&conf, optarg))
				goto out;
			nconf++;
			break;
		case 'n':
			if (!*optarg) {
				error("the run name must not be empty");
				goto out;
			}
			req.name = optarg;
			break;
		case 'o':
			only = optarg;
			break;
		case 'd':
			req.dry_run = 1;
			break;
		case 'R':
			report = 0;
			break;
		case 'h':
			fputs(run_usage, stdout);
			rc = 0;
			goto out;
		default:
			fputs(run_usage, stderr);
			goto out;
		}
	}
	if (optind < argc) {
		error("unexpected argument '%s' (configs are given with -c)", argv[optind]);
		goto out;
	}
	if (!nconf) {
		error("no config given: use -c FILE (e.g. configs/quick.conf)");
		fputs(run_usage, stderr);
		goto out;
	}
	if (plan_build(&conf, only, &plan))
		goto out;
	if (req.dry_run) {
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
	if (rc == 0 && report)
		rc = cmd_report_run(store, run_id) ? 1 : 0;
out:
	store_close(store);
	plan_release(&plan);
	config_release(&conf);
	return rc;
}
