/* cmd_run: kbench run -c CONF [-c CONF...] [-o KEY=VALUE...] [-n NAME]
 * [--only REGEX], and kbench run --resume RUN [-c CONF...] [-o ...] [--force] */
#include "config.h"
#include "cli/cmd.h"
#include "views/report.h"
#include "runner/conf.h"
#include "runner/dryrun.h"
#include "runner/plan.h"
#include "runner/record.h"
#include "runner/runner.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "machine/sysinfo.h"
#include "workloads/params.h"
#include "workloads/workload.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct parse_opt_usage run_usage = {
	.synopsis = "kbench run -c CONFIG [-c CONFIG...] [-o [SECTION.]KEY=VALUE...]\n"
		    "                  [-n NAME] [--only REGEX] [--dry-run]\n"
		    "   or: kbench run --resume RUN [-c CONFIG...] [-o ...] [--force]",
	.description = "Run every section of the configs and store each sample as it is measured.",
	.help_column = 22,
	.epilogue =
		"Progress goes to stderr (one line per sample unless it is a terminal).\n"
		"SIGINT/SIGTERM stop the sample in flight, keep every stored sample and mark\n"
		"the run interrupted; --resume runs the rest of it later. When the store\n"
		"fails the run stops, and what it could not store goes to a recovery file\n"
		"for 'kbench recover'. Exit status: 0 complete, 1 all samples failed or the\n"
		"store failed, 2 bad arguments or config, 128+N interrupted by signal N.",
};

/* The sections a run began with (its "workload" facts), and the -o
 * overrides it was started with. */
struct section_names {
	char **v;
	size_t n, alloc;
	char **o;
	size_t no, oalloc;
};

static int add_section(const char *section, const char *key, const char *value, void *arg)
{
	struct section_names *sn = arg;

	if (*section && !strcmp(key, "workload")) {
		ALLOC_GROW(sn->v, sn->n + 1, sn->alloc);
		sn->v[sn->n++] = xstrdup(section);
	} else if (!*section && !strcmp(key, "override")) {
		ALLOC_GROW(sn->o, sn->no + 1, sn->oalloc);
		sn->o[sn->no++] = xstrdup(value);
	}
	return 0;
}

/* Whether the -o list given is the one the run stored. */
static int same_overrides(const struct opt_list *given, const struct section_names *sn)
{
	if (given->n != sn->no)
		return 0;
	for (size_t i = 0; i < given->n; i++)
		if (strcmp(given->v[i], sn->o[i]))
			return 0;
	return 1;
}

static void describe_overrides(struct strbuf *sb, char *const *v, size_t n)
{
	if (!n)
		strbuf_addstr(sb, "none");
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s-o '%s'", i ? " " : "", v[i]);
}

/* Apply the -o arguments to c; return 0 or -1 after an error. */
static int apply_overrides(struct config *c, char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (config_add_override(c, v[i]))
			return -1;
	return 0;
}

/* The run to resume: a NAME is that name's latest run, whatever its
 * status; anything else is a selector. Return 0, or -1 after an error. */
static int find_run(struct store *s, const char *sel, struct run_info *ri)
{
	struct strbuf err = STRBUF_INIT;
	int64_t id;
	int found, rc = -1;

	if (store_latest_run_named(s, sel, &id, &found))
		goto out;
	if (!found && store_resolve_run(s, sel, &id, &err)) {
		error("%s", err.buf);
		goto out;
	}
	rc = store_get_run(s, id, ri);
out:
	strbuf_release(&err);
	return rc;
}

/* What a resumed run runs: the configs given, whose text must be the one
 * the run stored unless forced, else that stored text itself; on the
 * machine and kernel it was measured on, unless forced; the sections it
 * began with. Return 0, or an exit status after saying why. */
static int resume_plan(struct store *s, const struct run_info *ri,
		       const struct opt_list *configs, const struct opt_list *overrides,
		       int force, struct config *conf, struct plan *plan)
{
	struct section_names sn = { .v = NULL };
	struct strbuf why = STRBUF_INIT;
	int rc = EXIT_USAGE;

	if (configs->n) {
		for (size_t i = 0; i < configs->n; i++)
			if (config_load(conf, configs->v[i]))
				goto out;
		if (strcmp(conf->text.buf, ri->config_text)) {
			if (!force) {
				error("the configs differ from the text run @%lld was started with: "
				      "give the same files, none (the run's own text is used), or "
				      "--force", (long long)ri->id);
				goto out;
			}
			warning("resuming run @%lld with configs that differ from its own",
				(long long)ri->id);
		}
	} else {
		strbuf_addf(&why, "config of run @%lld", (long long)ri->id);
		if (config_load_string(conf, why.buf, ri->config_text))
			goto out;
		strbuf_reset(&why);
	}
	rc = 1;
	if (record_other_system(ri, 1, &why))
		goto out;
	if (why.len && !force) {
		error("run @%lld cannot be resumed here: %s (--force resumes it anyway)",
		      (long long)ri->id, why.buf);
		goto out;
	}
	if (why.len)
		warning("resuming run @%lld although %s", (long long)ri->id, why.buf);
	if (store_each_meta(s, ri->id, add_section, &sn))
		goto out;
	rc = EXIT_USAGE;
	/* The same effective options: the run's own -o list unless other
	 * ones are given, and those only when forced. */
	if (!overrides->n) {
		if (apply_overrides(conf, sn.o, sn.no))
			goto out;
	} else {
		if (!same_overrides(overrides, &sn)) {
			strbuf_reset(&why);
			describe_overrides(&why, sn.o, sn.no);
			if (!force) {
				error("the -o overrides differ from those run @%lld was started "
				      "with (%s): give the same ones, none (the run's own are "
				      "used), or --force", (long long)ri->id, why.buf);
				goto out;
			}
			warning("resuming run @%lld with -o overrides that differ from its own "
				"(%s)", (long long)ri->id, why.buf);
		}
		if (apply_overrides(conf, (char *const *)overrides->v, overrides->n))
			goto out;
	}
	if (plan_build_sections(conf, (const char *const *)sn.v, sn.n, plan))
		goto out;
	rc = 0;
out:
	for (size_t i = 0; i < sn.n; i++)
		free(sn.v[i]);
	free(sn.v);
	for (size_t i = 0; i < sn.no; i++)
		free(sn.o[i]);
	free(sn.o);
	strbuf_release(&why);
	return rc;
}

/* kbench run --resume SEL: check the run can be resumed, then plan it.
 * Return 0 with *run_id and the plan set, -1 when there is nothing to
 * resume (a complete run), or an exit status after saying why. */
static int resume(struct store *s, const char *sel, const struct opt_list *configs,
		  const struct opt_list *overrides, int force, struct config *conf,
		  struct plan *plan, int64_t *run_id)
{
	struct run_info ri = { .id = 0 };
	int rc = 1;

	if (find_run(s, sel, &ri))
		goto out;
	if (!strcmp(ri.status, "complete")) {
		notice("run @%lld '%s' is complete: nothing to resume", (long long)ri.id, ri.name);
		rc = -1;
		goto out;
	}
	if (!strcmp(ri.status, "running")) {
		error("run @%lld '%s' is still running", (long long)ri.id, ri.name);
		goto out;
	}
	rc = resume_plan(s, &ri, configs, overrides, force, conf, plan);
	*run_id = ri.id;
out:
	run_info_release(&ri);
	return rc;
}

/* --dry-run: the plan and its estimates, from the store when there is
 * one (none is created). Return an exit status. */
static int dry_run_report(const struct plan *p, const struct config *c)
{
	struct store *s = cmd_open_store_if_any();
	int rc;

	rc = dryrun_print(p, c, s) ? 1 : 0;
	store_close(s);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct opt_list configs = OPT_LIST_INIT, overrides = OPT_LIST_INIT;
	struct run_request req = { .name = NULL, .resume_cmd = "kbench run --resume" };
	const char *only = NULL, *note = NULL, *resume_sel = NULL;
	int dry_run = 0, no_report = 0, force = 0;
	const struct parse_opt options[] = {
		OPT_STRING_LIST('c', "config", &configs, "FILE",
				"an INI config (repeatable); see kbench.conf(5)"),
		OPT_STRING_LIST('o', NULL, &overrides, "KEY=VALUE",
				"set KEY in every section that takes it, over the\n"
				"configs; -o SECTION.KEY=VALUE sets it in that\n"
				"section only (repeatable)"),
		OPT_CALLBACK('n', "name", &req.name, "NAME",
			     "the run's name (default: uname -r); names may repeat,\n"
			     "compare picks the latest complete run of a name\n"
			     "(on this host); at most 128 bytes, no '@', no control\n"
			     "characters, not starting with '#'", cmd_parse_run_name),
		OPT_STRING(0, "only", &only, "REGEX",
			   "run only the sections whose name matches (PCRE2)"),
		OPT_BOOL(0, "dry-run", &dry_run,
			 "validate the configs and print the plan, run nothing"),
		OPT_BOOL(0, "no-report", &no_report, "do not print the table after the run"),
		OPT_CALLBACK(0, "note", &note, "TEXT",
			     "the run's note: what changed, why it was made\n"
			     "(kbench note changes it later)", cmd_parse_note),
		OPT_STRING(0, "resume", &resume_sel, "RUN",
			   "run the rest of an interrupted or failed run: the samples\n"
			   "it lacks, with its config text (or the same -c files)"),
		OPT_BOOL(0, "force", &force,
			 "resume although the configs, the machine or the kernel\n"
			 "differ from the run's"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct config conf;
	struct plan plan = { .n = 0 };
	struct store *store = NULL;
	int64_t run_id = 0;
	int rc = EXIT_USAGE;	/* also the status of a bad config */

	config_init(&conf);
	if (cmd_parse_options(&argc, argv, options, &run_usage, &rc))
		goto out;
	if (argc > 0) {
		error("unexpected argument '%s' (configs are given with -c)", argv[0]);
		goto out;
	}
	if (resume_sel) {
		const char *bad = req.name ? "--name" : only ? "--only" : dry_run ? "--dry-run" : NULL;

		if (bad) {
			error("%s cannot be combined with --resume", bad);
			goto out;
		}
		if (cmd_open_store(&store, CMD_STORE_WRITE)) {
			rc = 1;
			goto out;
		}
		rc = resume(store, resume_sel, &configs, &overrides, force, &conf, &plan,
			    &req.resume);
		if (rc) {
			rc = rc < 0 ? 0 : rc;
			goto out;
		}
		goto execute;
	}
	if (force) {
		error("--force applies to --resume only");
		goto out;
	}
	if (cmd_require_configs(&configs, &run_usage, options))
		goto out;
	if (cmd_load_configs(&conf, &configs, &overrides))
		goto out;
	if (plan_build(&conf, only, &plan))
		goto out;
	if (dry_run) {
		rc = dry_run_report(&plan, &conf);
		goto out;
	}
	if (cmd_open_store(&store, CMD_STORE_WRITE)) {
		rc = 1;
		goto out;
	}
execute:
	rc = plan_execute(&plan, &conf, store, &req, &run_id);
	if (rc < 0)
		rc = 1;
	if (note && run_id > 0 && store_set_note(store, run_id, note, 0) && !rc)
		rc = 1;
	if (rc == 0 && !no_report)
		rc = report_run(store, run_id) ? 1 : 0;
out:
	store_close(store);
	plan_release(&plan);
	config_release(&conf);
	opt_list_release(&configs);
	opt_list_release(&overrides);
	return rc;
}
