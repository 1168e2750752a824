/* cmd_runs: kbench runs [--name N] [--host H] [--config C] [--since DATE] [--last N] */
#include "config.h"
#include "harness/cmd.h"
#include "lib/error.h"
#include "db/store.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char runs_usage[] =
	"usage: kbench runs [--name NAME] [--host HOST] [--config CONFIG] [--since DATE] [--last N]\n"
	"\n"
	"List stored runs, oldest first: id, name, config, host, kernel, start time (UTC),\n"
	"status and the number of samples. A run whose writer died is shown interrupted.\n"
	"\n"
	"  --name NAME       only runs of this name\n"
	"  --host HOST       only runs made on this host\n"
	"  --config CONFIG   only runs of this config (its name: configs/quick.conf is 'quick')\n"
	"  --since DATE      only runs started at or after DATE (e.g. 2026-11-01)\n"
	"  --last N          only the N most recent runs\n"
	"  -h, --help        this text\n";

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
	static const struct option longopts[] = {
		{ "name", required_argument, NULL, 'n' },
		{ "host", required_argument, NULL, 'H' },
		{ "config", required_argument, NULL, 'c' },
		{ "since", required_argument, NULL, 's' },
		{ "last", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct run_filter f = { 0 };
	struct store *store = NULL;
	int opt, n = 0, rc;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'n': f.name = optarg; break;
		case 'H': f.host = optarg; break;
		case 'c': f.config = optarg; break;
		case 's': f.since = optarg; break;
		case 'l': {
			char *end;

			f.limit = (int)strtol(optarg, &end, 10);
			if (*end || f.limit <= 0) {
				error("invalid value '%s' for --last: expected a positive integer", optarg);
				return 2;
			}
			break;
		}
		case 'h':
			fputs(runs_usage, stdout);
			return 0;
		default:
			fputs(runs_usage, stderr);
			return 2;
		}
	}
	if (optind < argc) {
		error("unexpected argument '%s'", argv[optind]);
		return 2;
	}
	if (cmd_open_store(&store, CMD_STORE_READ))
		return 1;
	rc = store_each_run(store, &f, print_run, &n);
	if (!rc && !n)
		fprintf(stderr, "kbench: no runs in %s\n", store_path(store));
	store_close(store);
	return rc ? 1 : 0;
}
