/* cmd_run: kbench run -c CONF [-c CONF...] [-n NAME] [--only REGEX] */
#include "config.h"
#include "harness/cmd.h"
#include "harness/conf.h"
#include "harness/plan.h"
#include "harness/runner.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "workloads/params.h"
#include "workloads/workload.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const struct parse_opt_usage run_usage = {
	.synopsis = "kbench run -c CONFIG [-c CONFIG...] [-n NAME] [--only REGEX] [--dry-run]",
	.description = "Run every section of the configs and store each sample as it is measured.",
	.help_column = 22,
	.epilogue =
		"Progress goes to stderr (one line per sample unless it is a terminal).\n"
		"SIGINT/SIGTERM stop the sample in flight, keep every stored sample and mark\n"
		"the run interrupted. Exit status: 0 complete, 1 all samples failed, 2 bad\n"
		"arguments or config, 128+N interrupted by signal N.",
};

/* The longest run name, in bytes: names head tables and columns. */
#define RUN_NAME_MAX 128

/* A run name must not read as another selector (#ID, NAME@HOST) nor carry
 * bytes that would garble a table. Returns 0, or -1 after saying which
 * rule name breaks. */
static int check_run_name(const char *name)
{
	size_t len = strlen(name);

	if (!len)
		return error("the run name must not be empty");
	if (name[0] == '#')
		return error("invalid run name '%s': it must not start with '#' "
			     "(#ID selects a run by id)", name);
	if (strchr(name, '@'))
		return error("invalid run name '%s': it must not contain '@' "
			     "(NAME@HOST selects a run by host)", name);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
			return error("invalid run name: it must not contain control characters "
				     "(byte 0x%02x at offset %zu)", (unsigned char)name[i], i);
	if (len > RUN_NAME_MAX)
		return error("invalid run name: it is %zu bytes long, the limit is %d",
			     len, RUN_NAME_MAX);
	return 0;
}

static void print_plan(const struct plan *p)
{
	printf("%-28s %-10s %5s %6s  %s\n", "section", "workload", "iters", "warmup", "rows");
	for (size_t i = 0; i < p->n; i++) {
		const struct plan_section *ps = &p->sections[i];

		printf("%-28s %-10s %5d %6d  %s", ps->cs->name, ps->ops->name, ps->iterations,
		       ps->warmup, ps->ops->row_option ? ps->ops->row_option : "rows");
		for (size_t r = 0; r < ps->nrows; r++) {
			char row[WL_ROW_LEN];

			wl_params_row_label(ps->params, ps->rows[r], row, sizeof(row));
			printf(" %s", row);
		}
		putchar('\n');
	}
	printf("%d samples in all (warm-up included)\n", plan_total_samples(p));
}

int cmd_run(int argc, char **argv)
{
	struct opt_list configs = OPT_LIST_INIT;
	struct strbuf config_path = STRBUF_INIT;
	struct run_request req = { .name = NULL };
	const char *only = NULL, *note = NULL;
	int dry_run = 0, no_report = 0;
	const struct parse_opt options[] = {
		OPT_STRING_LIST('c', "config", &configs, "FILE",
				"an INI config (repeatable); see kbench.conf(5)"),
		OPT_STRING('n', "name", &req.name, "NAME",
			   "the run's name (default: uname -r); names may repeat,\n"
			   "compare picks the latest complete run of a name\n"
			   "(on this host); at most 128 bytes, no '@', no control\n"
			   "characters, not starting with '#'"),
		OPT_STRING(0, "only", &only, "REGEX",
			   "run only the sections whose name matches (PCRE2)"),
		OPT_BOOL(0, "dry-run", &dry_run,
			 "validate the configs and print the plan, run nothing"),
		OPT_BOOL(0, "no-report", &no_report, "do not print the table after the run"),
		OPT_STRING(0, "note", &note, "TEXT",
			   "the run's note: what changed, why it was made\n"
			   "(kbench note changes it later)"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct config conf;
	struct plan plan = { .n = 0 };
	struct store *store = NULL;
	int64_t run_id = 0;
	int rc = EXIT_USAGE;	/* also the status of a bad config */

	config_init(&conf);
	argc = parse_options(argc, argv, options, &run_usage, 0);
	if (argc < 0) {
		rc = argc == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
		goto out;
	}
	if (argc > 0) {
		error("unexpected argument '%s' (configs are given with -c)", argv[0]);
		goto out;
	}
	if (!configs.n) {
		error("no config given: use -c FILE (e.g. configs/quick.conf)");
		parse_opt_usage_print(&run_usage, options, stderr);
		goto out;
	}
	if (req.name && check_run_name(req.name))
		goto out;
	if (note && cmd_check_note(note))
		goto out;
	for (size_t i = 0; i < configs.n; i++) {
		cmd_find_config(configs.v[i], &config_path);
		if (config_load(&conf, config_path.buf))
			goto out;
	}
	if (plan_build(&conf, only, &plan))
		goto out;
	if (dry_run) {
		print_plan(&plan);
		rc = 0;
		goto out;
	}
	if (cmd_open_store(&store, CMD_STORE_WRITE)) {
		rc = 1;
		goto out;
	}
	rc = plan_execute(&plan, &conf, store, &req, &run_id);
	if (rc < 0)
		rc = 1;
	if (note && run_id > 0 && store_set_note(store, run_id, note, 0) && !rc)
		rc = 1;
	if (rc == 0 && !no_report)
		rc = cmd_report_run(store, run_id) ? 1 : 0;
out:
	store_close(store);
	plan_release(&plan);
	config_release(&conf);
	opt_list_release(&configs);
	strbuf_release(&config_path);
	return rc;
}
