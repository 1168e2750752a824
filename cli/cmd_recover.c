/* cmd_recover: kbench recover FILE...: load the recovery files a run wrote
 * when its store failed back into the store. */
#include "config.h"
#include "cli/cmd.h"
#include "cli/complete.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "runner/knob.h"

#include <stdio.h>

static const struct parse_opt_usage recover_usage = {
	.synopsis = "kbench recover [FILE...]",
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
		"journal in the store, as any command opening the store does. Exit status:\n"
		"0 loaded, 1 a file could not be loaded or a knob could not be restored.",
	.complete_args = cmd_complete_files,
};

int cmd_recover(int argc, char **argv)
{
	const struct parse_opt options[] = {
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct store *store = NULL;
	int rc = EXIT_USAGE;

	if (cmd_parse_options(&argc, argv, options, &recover_usage, &rc))
		goto out;
	rc = 1;
	if (cmd_open_store(&store, CMD_STORE_WRITE))
		goto out;
	/* Knobs left to restore, or said and dropped as not restorable. */
	rc = knob_left(store) || knob_unrestored() ? 1 : 0;
	for (int i = 0; i < argc; i++) {
		struct store_recovered r;

		if (store_recover(store, argv[i], &r)) {
			rc = 1;
			continue;
		}
		printf("%s: run @%lld (%s)%s: %lld sample values, %lld monitor values, %lld failures "
		       "added\n", argv[i], (long long)r.run_id, r.uuid,
		       r.created ? ", created" : "", (long long)r.samples,
		       (long long)r.monitors, (long long)r.failures);
	}
out:
	store_close(store);
	return rc;
}
