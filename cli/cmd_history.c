/* cmd_history: kbench history RUN... | --config C [--section S] [--row R]
 * [--host H]: the series of a metric over time, one line per run, with its
 * change points marked and a sparkline. */
#include "config.h"
#include "cli/cmd.h"
#include "cli/complete.h"
#include "views/output.h"
#include "compare/history.h"
#include "compare/render.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/io.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const struct parse_opt_usage history_usage = {
	.synopsis = "kbench history [options] RUN...\n"
		    "   or: kbench history [options] --config CONFIG [--section S] [--row R]\n"
		    "                      [--host H]",
	.description =
		"A metric over time: one series per host, config, section, row and work (runs\n"
		"with other effective options or config values, or measured on another kind,\n"
		"native or in a guest of kbench vm, make a series of their own, named by the\n"
		"kind or the keys that differ), one line per complete run, oldest first\n"
		"(date, run, kernel, Hmean for higher-is-better metrics or Amean, its 95%\n"
		"confidence interval, the best sample, samples), change points marked (<-)\n"
		"with their change (+ is better) and p-value, then a sparkline of the values\n"
		"they were found on: each run's best sample (Min, Max when higher is better)\n"
		"unless --statistic mean. RUN (a name, @ID, uuid prefix or NAME@HOST) picks\n"
		"the host and config of each series: every row of that run.",
	.help_column = 25,
	.epilogue =
		"Change points: E-Divisive means with a Student t-test (Hunter, Apache Otava),\n"
		"2 runs a segment at least, a step above twice the series' run-to-run noise,\n"
		"found on the whole series; --since only hides older runs. The sparkline uses\n"
		"block characters when LC_ALL, LC_CTYPE or LANG names UTF-8, else ASCII.\n"
		"The method is in docs/statistics.md.",
	.complete_args = cmd_complete_runs,
};

/* Whether the locale named by LC_ALL, LC_CTYPE or LANG is UTF-8 (kbench
 * runs in the C locale itself). */
static int utf8_locale(void)
{
	static const char *const vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && *v)
			return strcasestr(v, "utf-8") || strcasestr(v, "utf8");
	}
	return 0;
}

/* The hosts and configs whose series were read for the runs given. */
struct read_pairs {
	char **v;	/* host, config, host, config, ... */
	size_t n, alloc;
};

/* Add the series of run sel (its host and config) to h, unless an earlier
 * run given had the same host and config. */
static int read_run_series(struct store *store, const char *sel, const struct series_filter *opt,
			   struct history *h, struct read_pairs *read)
{
	struct strbuf err = STRBUF_INIT;
	struct run_info r;
	struct series_filter f = *opt;
	int64_t id;
	int rc = -1;

	if (store_resolve_run(store, sel, &id, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (store_get_run(store, id, &r))
		goto out;
	f.host = r.hostname;
	f.config = r.config_name;
	rc = 0;
	for (size_t i = 0; i < read->n; i += 2)
		if (!strcmp(read->v[i], r.hostname) && !strcmp(read->v[i + 1], r.config_name))
			goto release;
	rc = history_read(store, &f, h);
	ALLOC_GROW(read->v, read->n + 2, read->alloc);
	read->v[read->n++] = xstrdup(r.hostname);
	read->v[read->n++] = xstrdup(r.config_name);
release:
	run_info_release(&r);
out:
	strbuf_release(&err);
	return rc;
}

void cmd_no_series(struct store *store, const struct series_filter *f, int given_runs)
{
	struct strbuf what = STRBUF_INIT, hint = STRBUF_INIT;

	if (!given_runs && f->config)
		strbuf_addf(&what, ", config '%s'", f->config);
	/* A mistyped config (or host) name: the closest one stored. */
	if ((given_runs || !f->config ||
	     !cmd_suggest_name(store, STORE_NAME_CONFIG, f->config, &hint)) && f->host)
		cmd_suggest_name(store, STORE_NAME_HOST, f->host, &hint);
	if (f->host)
		strbuf_addf(&what, ", host '%s'", f->host);
	if (f->section)
		strbuf_addf(&what, ", section '%s'", f->section);
	if (f->row)
		strbuf_addf(&what, ", row '%s'", f->row);
	error("no complete run %s%s in %s%s", given_runs ? "given has samples of" : "matches",
	      what.len ? what.buf + 1 : " the series asked for", store_path(store), hint.buf);
	strbuf_release(&what);
	strbuf_release(&hint);
}

int cmd_changepoint_apply(const struct cmd_changepoint_opts *o, struct history *h)
{
	if (history_params_parse(o->pvalue, o->window, o->min_change, &h->params))
		return -1;
	return o->statistic ? history_stat_parse(o->statistic, &h->stat) : 0;
}

int cmd_history(int argc, char **argv)
{
	struct series_filter f = { .host = NULL };
	const struct changepoint_params params = CHANGEPOINT_PARAMS_INIT;
	struct cmd_changepoint_opts cp = { .pvalue = NULL };
	struct history_view view = { .since = NULL };
	const char *format_name = NULL, *output = NULL;
	const struct parse_opt options[] = {
		OPT_STRING(0, "config", &f.config, "CONFIG",
			   "the series of this config (its name: configs/quick.conf\n"
			   "is 'quick'), on every host unless --host"),
		OPT_STRING(0, "section", &f.section, "SECTION", "only this section"),
		OPT_STRING(0, "row", &f.row, "ROW", "only this row"),
		OPT_STRING(0, "host", &f.host, "HOST", "only runs made on this host"),
		OPT_STRING(0, "since", &view.since, "DATE",
			   "show only runs started at or after DATE\n"
			   "(e.g. 2026-11-01)"),
		OPT_STRING(0, "format", &format_name, "FMT",
			   "text (default), csv, json or html (one self-contained\n"
			   "page: an overview of every series as small charts,\n"
			   "change points linked, then a chart per series drawn\n"
			   "by gnuplot, up to 24 series)"),
		OPT_STRING('o', "output", &output, "FILE",
			   "write to FILE instead of the standard output"),
		CMD_CHANGEPOINT_OPTIONS(&cp),
		OPT_HELP("this text"),
		OPT_END(),
	};
	enum history_format format = HISTORY_FORMAT_TEXT;
	struct store *store = NULL;
	struct history h;
	struct strbuf out = STRBUF_INIT;
	struct read_pairs read = { .v = NULL };
	int rc = EXIT_USAGE;

	history_init(&h, &params);
	if (cmd_parse_options(&argc, argv, options, &history_usage, &rc))
		goto out;
	if (format_name && history_format_parse(format_name, &format)) {
		error("unknown format '%s' (expected text, csv, json or html)", format_name);
		goto out;
	}
	if (cmd_changepoint_apply(&cp, &h))
		goto out;
	if (argc && (f.config || f.host)) {
		error("--config and --host pick series without a run: give runs or them, not both");
		goto out;
	}
	if (!argc && !f.config) {
		error("history needs runs, or --config (with --section and --row for one series)");
		parse_opt_usage_print(&history_usage, options, stderr);
		goto out;
	}
	rc = 1;
	if (cmd_open_store(&store, CMD_STORE_READ))
		goto out;
	if (argc) {
		for (int i = 0; i < argc; i++)
			if (read_run_series(store, argv[i], &f, &h, &read))
				goto out;
	} else if (history_read(store, &f, &h)) {
		goto out;
	}
	if (!h.n) {
		cmd_no_series(store, &f, argc > 0);
		goto out;
	}
	history_finish(&h);
	view.unicode = utf8_locale();
	history_render(&h, format, &view, &out);
	rc = output_write(output, &out) ? 1 : 0;
out:
	history_release(&h);
	strbuf_release(&out);
	for (size_t i = 0; i < read.n; i++)
		free(read.v[i]);
	free(read.v);
	store_close(store);
	return rc;
}
