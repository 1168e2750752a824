/* cmd_rename: kbench rename [--dry-run] RUN NEWNAME: give a stored run
 * another name, checked as kbench run checks -n; --dry-run says what it
 * would rename and changes nothing. */
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

static const struct parse_opt_usage rename_usage = {
	.synopsis = "kbench rename [--dry-run] RUN NEWNAME",
	.description =
		"Give a run another name: RUN is a name (the latest complete run of it on\n"
		"this host), @ID, a uuid prefix or NAME@HOST; NEWNAME follows the rules of\n"
		"'kbench run -n'. Runs may share a name. A run still running is refused.",
	.help_column = 17,
	.complete_args = cmd_complete_first_run,
};

int cmd_rename(int argc, char **argv)
{
	int dry_run = 0;
	const struct parse_opt options[] = {
		OPT_BOOL('n', "dry-run", &dry_run, "say what would be renamed, rename nothing"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct strbuf err = STRBUF_INIT;
	struct store *store = NULL;
	char *old = NULL;
	int64_t id;
	int rc = EXIT_USAGE;

	if (cmd_parse_options(&argc, argv, options, &rename_usage, &rc))
		return rc;
	if (argc != 2) {
		error("rename takes a run and its new name");
		parse_opt_usage_print(&rename_usage, options, stderr);
		return EXIT_USAGE;
	}
	if (cmd_check_run_name(argv[1]))
		goto out;
	rc = 1;
	if (cmd_open_store(&store, dry_run ? CMD_STORE_READ : CMD_STORE_WRITE))
		goto out;
	if (store_resolve_run(store, argv[0], &id, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (store_run_name(store, id, &old) || store_rename_run(store, id, argv[1], dry_run))
		goto out;
	printf("%s run @%lld '%s' to '%s'\n", dry_run ? "would rename" : "renamed",
	       (long long)id, name_printable(old), name_printable(argv[1]));
	rc = fflush(stdout) ? 1 : 0;
out:
	free(old);
	strbuf_release(&err);
	store_close(store);
	return rc;
}
