/* cmd_compare: kbench compare BASE NEW [NEW...]: has compare/ parse the
 * options and build the comparison of the runs named, and prints it in
 * the chosen format. */
#include "config.h"
#include "cli/cmd.h"
#include "views/output.h"
#include "views/compare_cmdline.h"
#include "cli/complete.h"
#include "db/store.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"

/* Neither "no worse row" (0) nor "worse" (1): git bisect run stops on it. */
#define EXIT_ERROR 128

int cmd_compare(int argc, char **argv)
{
	struct compare_cmdline c;
	struct store *store = NULL;
	struct strbuf out = STRBUF_INIT;
	int r, rc;

	r = compare_cmdline_parse(&c, argc, argv, cmd_complete_runs);
	if (r) {
		rc = r == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
		goto out;
	}
	rc = c.exit_code ? EXIT_ERROR : 1;
	if (cmd_open_store(&store, CMD_STORE_READ))
		goto out;
	r = compare_cmdline_run(store, &c, &out);
	if (r < 0)
		goto out;
	if (output_write(c.output, &out)) {
		if (c.per_host)
			rc = 1;
		goto out;
	}
	rc = r;
out:
	strbuf_release(&out);
	compare_cmdline_release(&c);
	store_close(store);
	return rc;
}
