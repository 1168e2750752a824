/* cmd_note: kbench note [--append] RUN TEXT: write the note of a stored
 * run (what changed, why it was made), shown by show and runs --format. */
#include "config.h"
#include "cli/cmd.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"

#include <stdio.h>
#include <string.h>

static const struct parse_opt_usage note_usage = {
	.synopsis = "kbench note [--append] RUN TEXT",
	.description =
		"Write the note of a run: TEXT replaces its note, or with --append is added\n"
		"on a new line; an empty TEXT clears it. The note is shown by kbench show\n"
		"and kbench runs --format json|csv. RUN is a name (latest complete run on\n"
		"this host), #ID, a uuid prefix, NAME@HOST or NAME@*.",
	.help_column = 14,
};

int cmd_check_note(const char *text)
{
	size_t len = strlen(text);

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			return error("invalid note: it must not contain control characters other "
				     "than newline and tab (byte 0x%02x at offset %zu)", c, i);
	}
	if (len > NOTE_MAX)
		return error("invalid note: it is %zu bytes long, the limit is %d", len, NOTE_MAX);
	return 0;
}

int cmd_note(int argc, char **argv)
{
	int append = 0;
	const struct parse_opt options[] = {
		OPT_BOOL(0, "append", &append, "add TEXT to the note on a new line"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct strbuf err = STRBUF_INIT;
	struct store *store = NULL;
	int64_t id;
	int rc = EXIT_USAGE;

	argc = parse_options(argc, argv, options, &note_usage, 0);
	if (argc < 0)
		return argc == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
	if (argc != 2) {
		error("note takes a run and a text");
		parse_opt_usage_print(&note_usage, options, stderr);
		return EXIT_USAGE;
	}
	if (cmd_check_note(argv[1]))
		goto out;
	rc = 1;
	if (cmd_open_store(&store, CMD_STORE_WRITE))
		goto out;
	if (store_resolve_run(store, argv[0], &id, &err)) {
		error("%s", err.buf);
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
