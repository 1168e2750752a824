/* cmd_export: kbench export [RUN...] [--all] [--since DATE] [--host HOST]
 * -o FILE: the runs named or selected, with all they hold and the machines
 * they ran on, into a new bundle file. */
#include "config.h"
#include "cli/cmd.h"
#include "cli/complete.h"
#include "cli/date.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/name.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct parse_opt_usage export_usage = {
	.synopsis = "kbench export RUN... -o FILE\n"
		"   or: kbench export (--all | --since DATE | --host HOST)... [RUN...] -o FILE\n"
		"   or: kbench export --mmtests DIR [--all | --since DATE | --host HOST]...\n"
		"                     [RUN...]",
	.description =
		"Write the runs named (a name, @ID, uuid prefix or NAME@HOST), with their\n"
		"samples, monitor values, failures and facts and the machines they ran on,\n"
		"into FILE, a new SQLite file of the store's schema that 'kbench import'\n"
		"reads on any host. The runs are read in one transaction.\n"
		"--all, --since and --host select runs from the store besides those named\n"
		"(--since and --host together: the runs that pass both); a run still\n"
		"running is left out with a notice, while one named is refused. With\n"
		"--mmtests, the runs are written into DIR as mmtests lays out its results,\n"
		"for compare-kernels.sh (docs/mmtests.md).",
	.help_column = 22,
	.epilogue = CMD_DATE_HELP,
	.complete_args = cmd_complete_runs,
};

static int add_selected(const struct run_info *r, void *arg)
{
	if (!strcmp(r->status, "running"))
		notice("leaving out run @%lld '%s': it is still running", (long long)r->id,
		       name_printable(r->name));
	else
		run_ids_add(arg, r->id);
	return 0;
}

int cmd_export(int argc, char **argv)
{
	const char *output = NULL, *mmtests = NULL;
	struct date_bound since = { "" };
	struct run_filter f = { 0 };
	int all = 0;
	const struct parse_opt options[] = {
		OPT_STRING('o', "output", &output, "FILE", "the bundle to write (must not exist)"),
		OPT_BOOL(0, "all", &all, "every run of the store"),
		OPT_CALLBACK(0, "since", &since, "DATE", "the runs started at or after DATE",
			     cmd_parse_date),
		OPT_STRING(0, "host", &f.host, "HOST", "the runs made on HOST"),
		OPT_STRING(0, "mmtests", &mmtests, "DIR",
			   "write the runs in mmtests' layout into DIR instead"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct store *store = NULL;
	struct run_ids ids = RUN_IDS_INIT;
	int select, rc = EXIT_USAGE;

	if (cmd_parse_options(&argc, argv, options, &export_usage, &rc))
		goto out;
	select = all || *since.s || f.host;
	if ((!argc && !select) || (!mmtests && (!output || !*output)) || (mmtests && output)) {
		error(!argc && !select ? "export needs the runs to write" : mmtests ?
		      "export takes -o FILE or --mmtests DIR, not both" : "export needs -o FILE");
		parse_opt_usage_print(&export_usage, options, stderr);
		goto out;
	}
	rc = 1;
	if (cmd_open_store(&store, CMD_STORE_READ))
		goto out;
	if (cmd_resolve_runs(store, argv, argc, &ids))
		goto out;
	if (select) {
		f.since = *since.s ? since.s : NULL;
		if (store_each_run(store, &f, add_selected, &ids))
			goto out;
		if (!ids.n) {
			error("no runs to export: none in %s is selected", store_path(store));
			goto out;
		}
	}
	if (mmtests) {
		rc = cmd_export_mmtests(store, ids.v, ids.n, mmtests);
		goto out;
	}
	if (store_export(store, ids.v, ids.n, output))
		goto out;
	printf("exported %zu run%s to %s\n", ids.n, ids.n == 1 ? "" : "s", output);
	rc = fflush(stdout) ? 1 : 0;
out:
	run_ids_release(&ids);
	store_close(store);
	return rc;
}
