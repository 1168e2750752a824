/* cmd_runs: kbench runs [--name N] [--host H] [--config C] [--since DATE] [--last N] */
#include "config.h"
#include "harness/cmd.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/parse-options.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct parse_opt_usage runs_usage = {
	.synopsis = "kbench runs [--name NAME] [--host HOST] [--config CONFIG] [--since DATE] [--last N]",
	.description =
		"List stored runs, oldest first: id, name, config, host, kernel, start time (UTC),\n"
		"status and the number of samples. A run whose writer died is shown interrupted.",
	.help_column = 20,
};

static int parse_last(const struct parse_opt *opt, const char *value)
{
	char *end;
	long v = strtol(value, &end, 10);

	if (!*value || *end || v <= 0 || v > INT_MAX)
		return error("invalid value '%s' for --last: expected a positive integer", value);
	*(int *)opt->value = (int)v;
	return 0;
}

static int print_run(const struct run_info *r, void *arg)
{
	int *n = arg;
	char started[20];

	if (!(*n)++)
		printf("%5s  %-24s %-16s %-12s %-22s %-16s %-11s %8s\n", "id", "name", "config",
		       "host", "kernel", "started", "status", "samples");
	/* 2026-11-29T23:52:28Z -> 2026-11-29 23:52 */
	snprintf(started, sizeof(started), "%.10s %.5s", r->started_at,
		 strlen(r->started_at) > 11 ? r->started_at + 11 : "");
	printf("%5lld  %-24s %-16s %-12s %-22s %-16s %-11s %8lld\n", (long long)r->id, r->name,
	       r->config_name, r->hostname, r->kernel_release, started, r->status,
	       (long long)r->nsamples);
	return 0;
}

int cmd_runs(int argc, char **argv)
{
	struct run_filter f = { 0 };
	const struct parse_opt options[] = {
		OPT_STRING(0, "name", &f.name, "NAME", "only runs of this name"),
		OPT_STRING(0, "host", &f.host, "HOST", "only runs made on this host"),
		OPT_STRING(0, "config", &f.config, "CONFIG",
			   "only runs of this config (its name: configs/quick.conf is 'quick')"),
		OPT_STRING(0, "since", &f.since, "DATE",
			   "only runs started at or after DATE (e.g. 2026-11-01)"),
		OPT_CALLBACK(0, "last", &f.limit, "N", "only the N most recent runs", parse_last),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct store *store = NULL;
	int n = 0, rc;

	argc = parse_options(argc, argv, options, &runs_usage, 0);
	if (argc < 0)
		return argc == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
	if (argc > 0) {
		error("unexpected argument '%s'", argv[0]);
		return EXIT_USAGE;
	}
	if (cmd_open_store(&store))
		return 1;
	rc = store_each_run(store, &f, print_run, &n);
	if (!rc && !n)
		fprintf(stderr, "kbench: no runs in %s\n", store_path(store));
	store_close(store);
	return rc ? 1 : 0;
}
