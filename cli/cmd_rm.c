/* cmd_rm: kbench rm [--dry-run] [--export FILE] RUN...: remove stored runs
 * with everything that is theirs, in one transaction, after writing them
 * into a bundle when asked. */
#include "config.h"
#include "cli/cmd.h"
#include "cli/complete.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/name.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static const struct parse_opt_usage rm_usage = {
	.synopsis = "kbench rm [--dry-run] [--export FILE] RUN...",
	.description =
		"Remove runs from the store (a name: the latest complete run of it on this\n"
		"host; @ID, a uuid prefix, NAME@HOST), with their samples, monitor values,\n"
		"failures, facts and note, in one transaction: all of them go, or none.\n"
		"A run still running is refused. A run of an A/B experiment's arm goes only\n"
		"with every other run of that experiment, and the experiment with them.",
	.help_column = 20,
	.epilogue = "With --export the runs are first written into FILE, a bundle that\n"
		"'kbench import' adds back.",
	.complete_args = cmd_complete_runs,
};

struct listing {
	int dry_run;
	struct strbuf out;
};

static void add_count(struct strbuf *out, int64_t n, const char *what, int *first)
{
	if (!n)
		return;
	strbuf_addf(out, "%s%lld %s%s", *first ? ": " : ", ", (long long)n, what,
		    n == 1 ? "" : "s");
	*first = 0;
}

static int list_removal(const struct run_removal *r, void *arg)
{
	struct listing *l = arg;
	int first = 1;

	strbuf_addf(&l->out, "%s run @%lld '%s' (%s, %s, %s)", l->dry_run ? "would remove" :
		    "removed", (long long)r->run_id, name_printable(r->name),
		    name_printable(r->hostname), r->started_at, r->status);
	add_count(&l->out, r->samples, "sample", &first);
	add_count(&l->out, r->monitor_values, "monitor value", &first);
	add_count(&l->out, r->failures, "failure", &first);
	add_count(&l->out, r->facts, "fact", &first);
	add_count(&l->out, r->note, "note", &first);
	if (r->experiment_id)
		strbuf_addf(&l->out, "%sarm of experiment '%s'", first ? ": " : ", ",
			    name_printable(r->experiment));
	strbuf_addch(&l->out, '\n');
	return 0;
}

int cmd_rm(int argc, char **argv)
{
	const char *bundle = NULL;
	struct listing l = { .out = STRBUF_INIT };
	const struct parse_opt options[] = {
		OPT_BOOL('n', "dry-run", &l.dry_run, "say what would be removed, remove nothing"),
		OPT_STRING(0, "export", &bundle, "FILE",
			   "write the runs into the bundle FILE first\n(must not exist)"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct store *store = NULL;
	struct run_ids ids = RUN_IDS_INIT;
	struct stat st;
	int rc = EXIT_USAGE;

	if (cmd_parse_options(&argc, argv, options, &rm_usage, &rc))
		goto out;
	if (!argc) {
		error("rm needs the runs to remove");
		parse_opt_usage_print(&rm_usage, options, stderr);
		goto out;
	}
	rc = 1;
	if (bundle && !lstat(bundle, &st)) {
		error("'%s' already exists: --export writes a new file", bundle);
		goto out;
	}
	if (cmd_open_store(&store, l.dry_run ? CMD_STORE_READ : CMD_STORE_WRITE))
		goto out;
	if (cmd_resolve_runs(store, argv, argc, &ids))
		goto out;
	/* Everything is checked before the bundle is written. */
	if (store_remove_runs(store, ids.v, ids.n, 1, NULL, NULL))
		goto out;
	if (bundle && !l.dry_run) {
		if (store_export(store, ids.v, ids.n, bundle))
			goto out;
		printf("exported %zu run%s to %s\n", ids.n, ids.n == 1 ? "" : "s", bundle);
	}
	if (store_remove_runs(store, ids.v, ids.n, l.dry_run, list_removal, &l))
		goto out;
	if (bundle && l.dry_run)
		strbuf_addf(&l.out, "would export them to %s first\n", bundle);
	fwrite(l.out.buf, 1, l.out.len, stdout);
	rc = fflush(stdout) ? 1 : 0;
out:
	run_ids_release(&ids);
	strbuf_release(&l.out);
	store_close(store);
	return rc;
}
