/* cmd_import: kbench import [--dry-run] FILE...: the runs of bundle files
 * that the store lacks, added; every file is checked before any is. With
 * --mmtests DIR, the runs of an mmtests results directory (mmtests/mmtests.c). */
#include "config.h"
#include "cli/cmd.h"
#include "cli/complete.h"
#include "mmtests/mmtests.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/name.h"
#include "lib/parse-options.h"
#include "lib/xalloc.h"

#include <stdio.h>
#include <stdlib.h>

static const struct parse_opt_usage import_usage = {
	.synopsis = "kbench import [--dry-run] FILE...\n"
		    "   or: kbench import [--dry-run] [--unfinished] --mmtests DIR",
	.description =
		"Add the runs of bundles written by 'kbench export' that the store lacks\n"
		"(runs are known by uuid: importing twice adds nothing), with machines\n"
		"merged by fingerprint. Each file is read from a private copy and checked\n"
		"first (schema, types, sizes, references); a file that fails is refused\n"
		"and nothing is imported. A bundle of an older schema is migrated in the\n"
		"copy; a newer one is refused. Each file is added in one transaction.\n"
		"\n"
		"With --mmtests, DIR is an mmtests results directory (work/log: a\n"
		"directory per run, iter-N inside; or one run's directory): the samples\n"
		"of hackbench, netperf, pft, tbench and sysbenchcpu become runs marked\n"
		"imported, with the kernel, date, machine, config and mmtests version the\n"
		"directory records; other benchmarks are listed and skipped. A malformed\n"
		"log refuses the directory, naming the file and line; nothing is stored.\n"
		"Only regular files of up to 64 MiB (also once decompressed) are read. A\n"
		"run mmtests has not finished is listed and skipped: import it once it\n"
		"has, or with --unfinished, as an interrupted run.",
	.help_column = 22,
	.complete_args = cmd_complete_files,
};

static int list_run(const struct bundle_run *r, void *arg)
{
	printf("  %-5s %.8s  %-24s %-16s %s  %lld samples\n", r->present ? "have" : "add",
	       r->uuid, r->name, r->hostname, r->started_at, (long long)r->nsamples);
	return 0;
}

static int list_skipped(const char *run, const char *bench, const char *why, void *arg)
{
	(void)arg;
	if (!bench)
		printf("  skip  %s: %s\n", name_printable(run), name_printable_text(why));
	else
		printf("  skip  %s/%s: %s\n", name_printable(run), name_printable(bench),
		       name_printable_text(why));
	return 0;
}

static void summary(const char *path, int dry_run, const struct import_counts *c)
{
	printf("%s: %s %zu run%s (%lld samples), %zu new machine%s; %zu already present\n",
	       path, dry_run ? "would import" : "imported", c->runs, c->runs == 1 ? "" : "s",
	       (long long)c->samples, c->machines, c->machines == 1 ? "" : "s", c->present);
	if (c->cycles)
		printf("%s: %s %zu watch cycle%s\n", path, dry_run ? "would import" : "imported",
		       c->cycles, c->cycles == 1 ? "" : "s");
}

int cmd_import(int argc, char **argv)
{
	int dry_run = 0, unfinished = 0;
	const char *mmtests = NULL;
	const struct parse_opt options[] = {
		OPT_BOOL(0, "dry-run", &dry_run, "list what would be added, change nothing"),
		OPT_STRING(0, "mmtests", &mmtests, "DIR",
			   "import mmtests' results directory DIR (docs/mmtests.md)"),
		OPT_BOOL(0, "unfinished", &unfinished,
			 "with --mmtests: import runs mmtests has not finished\n"
			 "too, as interrupted runs"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct store *store = NULL;
	struct bundle **bundles = NULL;
	struct import_counts c;
	int rc = EXIT_USAGE;

	if (cmd_parse_options(&argc, argv, options, &import_usage, &rc))
		goto out;
	if (mmtests && argc) {
		error("import --mmtests takes one directory, not bundle files");
		parse_opt_usage_print(&import_usage, options, stderr);
		goto out;
	}
	if (unfinished && !mmtests) {
		error("--unfinished goes with --mmtests");
		parse_opt_usage_print(&import_usage, options, stderr);
		goto out;
	}
	if (mmtests) {
		struct mmtests_import_cbs cbs = { .skipped = list_skipped,
						  .run = dry_run ? list_run : NULL };
		unsigned flags = (dry_run ? MMTESTS_DRY_RUN : 0) |
				 (unfinished ? MMTESTS_UNFINISHED : 0);

		rc = 1;
		/* A directory that is not there makes no store. */
		if (mmtests_check_dir(mmtests) || cmd_open_store(&store, CMD_STORE_WRITE) ||
		    mmtests_import(store, mmtests, flags, &cbs, &c))
			goto out;
		summary(mmtests, dry_run, &c);
		rc = fflush(stdout) ? 1 : 0;
		goto out;
	}
	if (!argc) {
		error("import needs bundle files");
		parse_opt_usage_print(&import_usage, options, stderr);
		goto out;
	}
	rc = 1;
	bundles = xcalloc((size_t)argc, sizeof(*bundles));
	for (int i = 0; i < argc; i++)
		if (bundle_open(argv[i], &bundles[i]))
			goto out;
	if (cmd_open_store(&store, CMD_STORE_WRITE))
		goto out;
	/* Every file against the store before any is added. */
	for (int i = 0; i < argc; i++)
		if (store_import(store, bundles[i], 1, dry_run ? list_run : NULL, NULL, &c))
			goto out;
		else if (dry_run)
			summary(argv[i], 1, &c);
	if (!dry_run)
		for (int i = 0; i < argc; i++) {
			if (store_import(store, bundles[i], 0, NULL, NULL, &c))
				goto out;
			summary(argv[i], 0, &c);
		}
	rc = fflush(stdout) ? 1 : 0;
out:
	for (int i = 0; bundles && i < argc; i++)
		bundle_close(bundles[i]);
	free(bundles);
	store_close(store);
	return rc;
}
