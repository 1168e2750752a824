/* cmd_regressions: kbench regressions [--since DATE] [--host H] [--config C]
 * [--format text|json]: for every series, its latest change point for the
 * worse, and where the work its runs measured changed; exit status 1 when
 * there is a regression, for cron, CI and git bisect run. */
#include "config.h"
#include "cli/cmd.h"
#include "compare/history.h"
#include "compare/render.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"

#include <stdio.h>
#include <stdlib.h>

/* Neither "no regression" (0) nor "regressions" (1): git bisect run stops
 * on it instead of calling the commit bad. */
#define EXIT_ERROR 128

static const struct parse_opt_usage regressions_usage = {
	.synopsis = "kbench regressions [--since DATE] [--host HOST] [--config CONFIG]\n"
		    "                          [--format text|json]",
	.description =
		"For every series (host, config, section, row and the work its runs measured)\n"
		"of the complete runs, the latest change point that made it worse, found as\n"
		"kbench history finds them (on each run's best sample unless --statistic\n"
		"mean): the means of those values either side, the change (+ is better), its\n"
		"p-value, and the runs either side of it. Runs that measured other work (other\n"
		"effective options or config values) make a series of their own: the latest\n"
		"change of work of each row is listed, and is no regression.",
	.help_column = 22,
	.epilogue =
		"Change points are found on the whole series (docs/statistics.md); --since\n"
		"keeps those whose first run started at or after DATE.\n"
		"A --config or --host that no complete run has is an error. JSON OUTPUT in\n"
		"kbench(1) says how the JSON reads.\n"
		"Exit status: 0 no regression, 1 at least one, 2 bad arguments, 128 any\n"
		"other error.",
};

int cmd_regressions(int argc, char **argv)
{
	struct series_filter f = { .host = NULL };
	const struct changepoint_params params = CHANGEPOINT_PARAMS_INIT;
	struct cmd_changepoint_opts cp = { .pvalue = NULL };
	const char *since = NULL, *format_name = NULL;
	const struct parse_opt options[] = {
		OPT_STRING(0, "since", &since, "DATE",
			   "only change points whose first run started at or after\n"
			   "DATE (e.g. 2026-11-01)"),
		OPT_STRING(0, "host", &f.host, "HOST", "only series of this host"),
		OPT_STRING(0, "config", &f.config, "CONFIG", "only series of this config"),
		OPT_STRING(0, "format", &format_name, "FMT", "text (default) or json"),
		CMD_CHANGEPOINT_OPTIONS(&cp),
		OPT_HELP("this text"),
		OPT_END(),
	};
	enum history_format format = HISTORY_FORMAT_TEXT;
	struct store *store = NULL;
	struct history h;
	struct history_regression *found = NULL;
	struct history_work_change *changes = NULL;
	struct strbuf out = STRBUF_INIT;
	size_t n, nchanges;
	int rc = EXIT_USAGE;

	history_init(&h, &params);
	if (cmd_parse_options(&argc, argv, options, &regressions_usage, &rc))
		goto out;
	if (argc > 0) {
		error("unexpected argument '%s'", argv[0]);
		goto out;
	}
	if (format_name && (history_format_parse(format_name, &format) ||
			    (format != HISTORY_FORMAT_TEXT && format != HISTORY_FORMAT_JSON))) {
		error("unknown format '%s' (expected text or json)", format_name);
		goto out;
	}
	if (cmd_changepoint_apply(&cp, &h))
		goto out;
	rc = EXIT_ERROR;
	if (cmd_open_store(&store, CMD_STORE_READ) || history_read(store, &f, &h))
		goto out;
	/* A mistyped name would pass a nightly job that checks nothing. */
	if (!h.n && (f.config || f.host)) {
		cmd_no_series(store, &f, 0);
		goto out;
	}
	history_finish(&h);
	n = history_regressions(&h, since, &found);
	nchanges = history_work_changes(&h, since, &changes);
	{
		const struct regressions_report report = {
			.h = &h, .since = since, .r = found, .n = n, .w = changes, .nw = nchanges,
		};

		history_render_regressions(&report, format, &out);
	}
	fwrite(out.buf, 1, out.len, stdout);
	if (fflush(stdout))
		goto out;
	rc = n ? 1 : 0;
out:
	free(found);
	free(changes);
	history_release(&h);
	strbuf_release(&out);
	store_close(store);
	return rc;
}
