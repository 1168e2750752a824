/* cmd_regressions: kbench regressions [--since DATE] [--host H] [--config C]
 * [--format text|json]: for every series, its latest change point for the
 * worse, and where the work its runs measured changed; exit status 1 when
 * there is a regression, for cron, CI and git bisect run. When the runs
 * either side are of kernels built from one git tree (their kernel-commit
 * and kernel-tree facts), the kbench bisect command between them. */
#include "config.h"
#include "cli/cmd.h"
#include "cli/date.h"
#include "compare/history.h"
#include "compare/render.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/argv.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		"effective options or config values, or another kind: native or in a guest)\n"
		"make a series of their own: the latest change of work of each row is listed,\n"
		"and is no regression.",
	.help_column = 22,
	.epilogue =
		"Change points are found on the whole series (docs/statistics.md); --since\n"
		"keeps those whose first run started at or after DATE.\n"
		"A --config or --host that no complete run has is an error. JSON OUTPUT in\n"
		"kbench(1) says how the JSON reads.\n"
		"Exit status: 0 no regression, 1 at least one, 2 bad arguments, 128 any\n"
		"other error.",
};

/* The facts of a run that a bisection between two runs takes. */
struct kernel_facts {
	char *commit, *tree, *vcpus, *memory, *append;
};

static int read_fact(const char *section, const char *key, const char *value, void *arg)
{
	struct kernel_facts *k = arg;
	char **slot = !strcmp(key, "kernel-commit") ? &k->commit :
		      !strcmp(key, "kernel-tree") ? &k->tree :
		      !strcmp(key, "vm.vcpus") ? &k->vcpus :
		      !strcmp(key, "vm.memory_mib") ? &k->memory :
		      !strcmp(key, "vm.append") ? &k->append : NULL;

	if (*section || !slot || !value)
		return 0;
	free(*slot);
	*slot = xstrdup(value);
	return 0;
}

static void kernel_facts_release(struct kernel_facts *k)
{
	free(k->commit);
	free(k->tree);
	free(k->vcpus);
	free(k->memory);
	free(k->append);
	memset(k, 0, sizeof(*k));
}

struct hint {
	struct store *s;
	int failed;
};

/* After a regression: the kbench bisect command between the kernels of
 * the runs either side, when both were built from commits of one tree. */
static void bisect_hint(const struct history_regression *r, void *arg, struct strbuf *cmd,
			struct strbuf *note)
{
	struct hint *h = arg;
	const struct history_series *hs = r->series;
	struct kernel_facts before = { NULL }, after = { NULL };
	struct strbuf row = STRBUF_INIT;
	char good[16], bad[16];
	char *words[24];
	size_t n = 0;

	if (store_each_meta(h->s, hs->points[r->cp->index - 1].run_id, read_fact, &before) ||
	    store_each_meta(h->s, hs->points[r->cp->index].run_id, read_fact, &after)) {
		h->failed = 1;
		goto out;
	}
	if (!before.commit || !after.commit || !before.tree || !after.tree ||
	    strcmp(before.tree, after.tree))
		goto out;
	if (!strcmp(before.commit, after.commit)) {
		strbuf_addf(note, "both runs are of kernel commit %.12s: the kernel did not change",
			    before.commit);
		goto out;
	}
	snprintf(good, sizeof(good), "%.12s", before.commit);
	snprintf(bad, sizeof(bad), "%.12s", after.commit);
	strbuf_addf(&row, "%s/%s", hs->section, hs->row);
	words[n++] = (char *)"kbench";
	words[n++] = (char *)"bisect";
	words[n++] = (char *)"--tree";
	words[n++] = after.tree;
	words[n++] = (char *)"--good";
	words[n++] = good;
	words[n++] = (char *)"--bad";
	words[n++] = bad;
	words[n++] = (char *)"-c";
	words[n++] = hs->config;
	words[n++] = (char *)"--row";
	words[n++] = row.buf;
	if (after.vcpus && strcmp(after.vcpus, "2")) {
		words[n++] = (char *)"--vcpus";
		words[n++] = after.vcpus;
	}
	if (after.memory && strcmp(after.memory, "512")) {
		words[n++] = (char *)"--memory";
		words[n++] = after.memory;
	}
	if (after.append && *after.append) {
		words[n++] = (char *)"--append";
		words[n++] = after.append;
	}
	argv_quote(words, n, cmd);
out:
	kernel_facts_release(&before);
	kernel_facts_release(&after);
	strbuf_release(&row);
}

/* --format: text or json, into the enum history_format opt->value. */
static int parse_format(const struct parse_opt *opt, const char *value)
{
	enum history_format *f = opt->value;

	if (history_format_parse(value, f) ||
	    (*f != HISTORY_FORMAT_TEXT && *f != HISTORY_FORMAT_JSON))
		return error("unknown format '%s' (expected text or json)", value);
	return 0;
}

int cmd_regressions(int argc, char **argv)
{
	struct series_filter f = { .host = NULL };
	const struct changepoint_params params = CHANGEPOINT_PARAMS_INIT;
	struct date_bound since_bound = { "" };
	enum history_format format = HISTORY_FORMAT_TEXT;
	struct history h;
	const struct parse_opt options[] = {
		OPT_CALLBACK(0, "since", &since_bound, "DATE",
			     "only change points whose first run started at or after\n"
			     "DATE (e.g. 2026-11-01)", cmd_parse_date),
		OPT_STRING(0, "host", &f.host, "HOST", "only series of this host"),
		OPT_STRING(0, "config", &f.config, "CONFIG", "only series of this config"),
		OPT_CALLBACK(0, "format", &format, "FMT", "text (default) or json", parse_format),
		CMD_CHANGEPOINT_OPTIONS(&h),
		OPT_HELP("this text"),
		OPT_END(),
	};
	const char *since;
	struct store *store = NULL;
	struct history_regression *found = NULL;
	struct history_work_change *changes = NULL;
	struct strbuf out = STRBUF_INIT;
	struct hint hint = { NULL };
	size_t n, nchanges;
	int rc = EXIT_USAGE;

	history_init(&h, &params);
	if (cmd_parse_options(&argc, argv, options, &regressions_usage, &rc))
		goto out;
	if (argc > 0) {
		error("unexpected argument '%s'", argv[0]);
		goto out;
	}
	since = *since_bound.s ? since_bound.s : NULL;
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
	hint.s = store;
	{
		const struct regressions_report report = {
			.h = &h, .since = since, .r = found, .n = n, .w = changes, .nw = nchanges,
			.bisect = bisect_hint, .bisect_arg = &hint,
		};

		history_render_regressions(&report, format, &out);
	}
	if (hint.failed)
		goto out;
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
