/* cmd_recover: kbench recover FILE...: load the recovery files a run wrote
 * when its store failed back into the store. */
#include "config.h"
#include "cli/cmd.h"
#include "cli/complete.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "experiment/knob.h"

#include <stdio.h>
#include <unistd.h>

static const struct parse_opt_usage recover_usage = {
	.synopsis = "kbench recover [--dry-run] [FILE...]",
	.description = "Load recovery files into the store: the samples, monitor values, failures\n"
		       "and final status a run could not store when its store failed.",
	.help_column = 14,
	.epilogue =
		"A run writes a recovery file when its store cannot take a sample (a lock\n"
		"held too long, a full disk) and prints its path. Loading adds to that run\n"
		"(found by uuid; created when the store lacks it) only what it does not\n"
		"hold, so a file may be loaded twice. 'kbench run --resume RUN' then runs\n"
		"what is left. Without FILE (and with one) it restores the knobs an\n"
		"experiment (kbench ab) killed before it could left changed, from their\n"
		"journal in the store, as any command opening the store does. --dry-run\n"
		"says what each file would add (the load done and rolled back) and how many\n"
		"knobs are left to restore, and restores, kills and keeps nothing. Exit\n"
		"status: 0 loaded, 1 a file could not be loaded or a knob could not be\n"
		"restored.",
	.complete_args = cmd_complete_files,
};

/* The store for a dry run: it must exist, and opening it restores no
 * knob and kills nothing, as cmd_open_store() would. */
static int open_untouched(struct store **out)
{
	struct strbuf path = STRBUF_INIT;
	int rc = -1;

	cmd_store_path(&path);
	if (access(path.buf, F_OK))
		error("cannot open database '%s': no such file (a dry run creates none)",
		      path.buf);
	else
		rc = store_open(path.buf, out);
	strbuf_release(&path);
	return rc;
}

int cmd_recover(int argc, char **argv)
{
	int dry_run = 0;
	const struct parse_opt options[] = {
		OPT_BOOL(0, "dry-run", &dry_run,
			 "say what would be loaded and restored; change nothing"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct store *store = NULL;
	int rc = EXIT_USAGE;

	if (cmd_parse_options(&argc, argv, options, &recover_usage, &rc))
		goto out;
	rc = 1;
	if (dry_run ? open_untouched(&store) : cmd_open_store(&store, CMD_STORE_WRITE))
		goto out;
	if (dry_run) {
		long left = knob_left(store);

		if (left < 0)
			goto out;
		if (left)
			printf("%ld knob%s left changed by a killed kbench would be restored\n",
			       left, left == 1 ? "" : "s");
		rc = 0;
	} else {
		/* Knobs left to restore, or said and dropped as not restorable. */
		rc = knob_left(store) || knob_unrestored() ? 1 : 0;
	}
	for (int i = 0; i < argc; i++) {
		struct store_recovered r;

		if ((dry_run ? store_recover_dry : store_recover)(store, argv[i], &r)) {
			rc = 1;
			continue;
		}
		printf("%s: run @%lld (%s)%s: %lld sample values, %lld monitor values, %lld failures "
		       "%s\n", argv[i], (long long)r.run_id, r.uuid,
		       r.created ? (dry_run ? ", would be created" : ", created") : "",
		       (long long)r.samples, (long long)r.monitors, (long long)r.failures,
		       dry_run ? "would be added" : "added");
	}
out:
	store_close(store);
	return rc;
}
