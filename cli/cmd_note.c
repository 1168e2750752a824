/* cmd_note: kbench note [--append] [--dry-run] RUN TEXT: write the note
 * of a stored run (what changed, why it was made), shown by show and runs
 * --format; --dry-run says which run's note would change. */
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

static const struct parse_opt_usage note_usage = {
	.synopsis = "kbench note [--append] [--dry-run] RUN TEXT",
	.description =
		"Write the note of a run: TEXT replaces its note, or with --append is added\n"
		"on a new line; an empty TEXT clears it. The note is shown by kbench show\n"
		"and kbench runs --format json|csv. RUN is a name (latest complete run on\n"
		"this host), @ID, a uuid prefix, NAME@HOST or NAME@*.",
	.help_column = 17,
	.complete_args = cmd_complete_first_run,
};

int cmd_note(int argc, char **argv)
{
	int append = 0, dry_run = 0;
	const struct parse_opt options[] = {
		OPT_BOOL(0, "append", &append, "add TEXT to the note on a new line"),
		OPT_BOOL('n', "dry-run", &dry_run, "say which run's note would change, change nothing"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct strbuf err = STRBUF_INIT;
	struct store *store = NULL;
	int64_t id;
	int rc = EXIT_USAGE;

	if (cmd_parse_options(&argc, argv, options, &note_usage, &rc))
		return rc;
	if (argc != 2) {
		error("note takes a run and a text");
		parse_opt_usage_print(&note_usage, options, stderr);
		return EXIT_USAGE;
	}
	if (cmd_check_note(argv[1]))
		goto out;
	rc = 1;
	if (cmd_open_store(&store, dry_run ? CMD_STORE_READ : CMD_STORE_WRITE))
		goto out;
	if (store_resolve_run(store, argv[0], &id, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (dry_run) {
		char *name = NULL;

		if (store_run_name(store, id, &name))
			goto out;
		printf("would %s the note of run @%lld '%s'\n",
		       !*argv[1] && !append ? "clear" : append ? "append to" : "replace",
		       (long long)id, name_printable(name));
		free(name);
		rc = fflush(stdout) ? 1 : 0;
		goto out;
	}
	if (store_set_note(store, id, argv[1], append))
		goto out;
	rc = 0;
out:
	strbuf_release(&err);
	store_close(store);
	return rc;
}
