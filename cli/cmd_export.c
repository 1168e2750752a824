/* cmd_export: kbench export RUN... -o FILE: the runs named, with all they
 * hold and the machines they ran on, into a new bundle file. */
#include "config.h"
#include "cli/cmd.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <stdio.h>
#include <stdlib.h>

static const struct parse_opt_usage export_usage = {
	.synopsis = "kbench export RUN... -o FILE",
	.description =
		"Write the runs named (a name, #ID, uuid prefix or NAME@HOST), with their\n"
		"samples, monitor values, failures and facts and the machines they ran on,\n"
		"into FILE, a new SQLite file of the store's schema that 'kbench import'\n"
		"reads on any host. The runs are read in one transaction.",
	.help_column = 22,
};

int cmd_export(int argc, char **argv)
{
	const char *output = NULL;
	const struct parse_opt options[] = {
		OPT_STRING('o', "output", &output, "FILE", "the bundle to write (must not exist)"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct strbuf err = STRBUF_INIT;
	struct store *store = NULL;
	int64_t *ids = NULL;
	size_t n = 0;
	int rc = EXIT_USAGE;

	if (cmd_parse_options(&argc, argv, options, &export_usage, &rc))
		goto out;
	if (!argc || !output || !*output) {
		error(!argc ? "export needs the runs to write" : "export needs -o FILE");
		parse_opt_usage_print(&export_usage, options, stderr);
		goto out;
	}
	rc = 1;
	if (cmd_open_store(&store, CMD_STORE_READ))
		goto out;
	ids = xcalloc((size_t)argc, sizeof(*ids));
	for (int i = 0; i < argc; i++) {
		int64_t id;
		size_t k;

		if (store_resolve_run(store, argv[i], &id, &err)) {
			error("%s", err.buf);
			goto out;
		}
		for (k = 0; k < n && ids[k] != id; k++)
			;
		if (k == n)
			ids[n++] = id;
	}
	if (store_export(store, ids, n, output))
		goto out;
	printf("exported %zu run%s to %s\n", n, n == 1 ? "" : "s", output);
	rc = fflush(stdout) ? 1 : 0;
out:
	free(ids);
	strbuf_release(&err);
	store_close(store);
	return rc;
}
