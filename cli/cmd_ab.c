/* cmd_ab: kbench ab -c CONF [--rounds N|auto] [--order abba|shuffle] [--seed S]
 * [-n NAME] [--dry-run]: an interleaved A/B experiment over the arms a
 * config declares, then the paired comparison of its arms; kbench ab
 * --resume EXPERIMENT finishes the rounds of one that was stopped. */
#include "config.h"
#include "cli/cmd.h"
#include "views/report.h"
#include "views/compare_cmdline.h"
#include "db/experiment.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "experiment/experiment.h"
#include "experiment/experiment_settings.h"
#include "kernel/kbuild.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct parse_opt_usage ab_usage = {
	.synopsis = "kbench ab -c CONFIG [-c CONFIG...] [-o [SECTION.]KEY=VALUE...] [-n NAME]\n"
		    "                 [--rounds N] [--iterations N] [--order abba|shuffle]\n"
		    "                 [--seed S] [--only REGEX] [--dry-run]\n"
		    "   or: kbench ab -c CONFIG --rounds auto [--min-rounds N] [--max-rounds N]\n"
		    "                 [--look-every N] [--equivalence PCT] [--watch REGEX] ...\n"
		    "   or: kbench ab --resume EXPERIMENT [--force]",
	.description =
		"Run an A/B experiment: the arms the configs declare ([arm:NAME] sections:\n"
		"sysctl and sysfs knobs, workload options, environment, a command prefix,\n"
		"a load run beside the samples),\n"
		"interleaved in rounds (ABBA...), each arm stored as the run NAME/ARM, then\n"
		"compare the arms with a paired test over the rounds. --resume runs the\n"
		"rounds an experiment that was stopped lacks, into its arms' runs, from what\n"
		"they stored (kbench experiments lists the experiments). --rounds auto\n"
		"looks at the arms as the rounds come in and stops at the first look that\n"
		"decides every mean row: a change, or no change larger than the equivalence\n"
		"bound, with alpha 0.05 over all the looks (a group-sequential design,\n"
		"docs/statistics.md); else it ends at --max-rounds with cannot tell.",
	.help_column = 24,
	.epilogue =
		"Every knob's original value is journalled in the store before it is first\n"
		"written; the knobs go back on every exit, and the next kbench command (or\n"
		"'kbench recover') restores what a killed kbench left. A knob that cannot be\n"
		"set or restored stops the experiment before any sample. See kbench.conf(5)\n"
		"for the arm keys and docs/ab.md for the design. Exit status: 0 complete,\n"
		"1 failed, 2 bad arguments or config, or a knob refused, 128+N signal N.",
};

/* A kbench that cannot find the shipped guest fragment (guest_missing)
 * runs every arm but one built from a tree, whose kernel needs it. */
static int check_guest(const struct experiment *e, int guest_missing)
{
	for (size_t i = 0; guest_missing && i < e->narms; i++)
		if (e->arms[i].build)
			return error("arm '%s' is built from a tree, and its kernel needs the "
				     "shipped config fragment '%s', which this kbench cannot "
				     "find: run the kbench of a build tree or an installed one",
				     e->arms[i].name, CMD_GUEST_FRAGMENT);
	return 0;
}

/* --rounds, --equivalence, --seed: as the table of the experiment's
 * settings reads them, into the struct experiment_options opt->value. */
static int parse_setting(const struct parse_opt *opt, const char *value)
{
	return experiment_setting_parse_option(opt->value,
					       experiment_setting_find_option(opt->long_name),
					       value);
}

/* --wait-knobs: seconds from 0 to a day, into the double opt->value. */
static int parse_wait_knobs(const struct parse_opt *opt, const char *value)
{
	double *s = opt->value;
	char *end;

	errno = 0;
	*s = strtod(value, &end);
	if (!*value || *end || errno || !(*s >= 0 && *s <= 86400))
		return error("--wait-knobs takes seconds from 0 to 86400, not '%s'", value);
	return 0;
}

/* What kbench ab's command line says. */
struct ab_opts {
	struct opt_list configs, overrides;	/* -c, -o */
	struct experiment_options eo;	/* the design's options */
	enum compare_format format;	/* of the report */
	const char *resume;		/* --resume EXPERIMENT; NULL: a new one */
	int dry_run, no_report, force;
	double wait_knobs;		/* seconds */
	int guest_missing;		/* the shipped guest fragment cannot be read */
};

/* Run e into store, then report it unless --no-report. Return an exit
 * status. */
static int run_and_report(const struct ab_opts *o, struct experiment *e, struct store *store)
{
	int rc;

	e->wait_knobs = o->wait_knobs;
	rc = experiment_run(e, store);
	if (rc == 0 && !o->no_report)
		rc = report_experiment(store, e, o->format) ? 1 : 0;
	return rc;
}

/* kbench ab --resume SEL: the experiment as its runs stored it, its
 * missing rounds run, then the report. Return an exit status. */
static int resume(const struct ab_opts *o)
{
	const struct opt_list *configs = &o->configs, *overrides = &o->overrides;
	const struct experiment_options *eo = &o->eo;
	struct strbuf err = STRBUF_INIT;
	struct store *store = NULL;
	struct experiment e;
	int64_t id;
	int rc = EXIT_USAGE;

	memset(&e, 0, sizeof(e));
	if (configs->n || overrides->n || eo->name || experiment_settings_first_given(eo) ||
	    o->dry_run) {
		strbuf_addstr(&err, "-c, -o, -n");
		experiment_settings_options_text(&err);
		error("--resume takes the experiment's configs and design from the store: %s and "
		      "--dry-run cannot be combined with it", err.buf);
		goto out;
	}
	rc = 1;
	if (cmd_open_store(&store, CMD_STORE_WRITE))
		goto out;
	if (store_find_experiment(store, o->resume, &id, &err)) {
		if (err.len)
			error("%s", err.buf);
		goto out;
	}
	switch (experiment_load_stored(&e, store, id, o->force, eo->build)) {
	case 0:
		if (check_guest(&e, o->guest_missing))
			goto out;
		break;
	case 1:
		rc = 0;
		goto out;
	default:
		goto out;
	}
	rc = run_and_report(o, &e, store);
out:
	experiment_release(&e);
	store_close(store);
	strbuf_release(&err);
	return rc;
}

/* A new experiment from the configs o gives, its design checked, then
 * run (--dry-run: shown) and reported. Return an exit status. */
static int start(struct ab_opts *o)
{
	struct strbuf path = STRBUF_INIT;
	char **paths = xcalloc(o->configs.n, sizeof(*paths));
	struct experiment e;
	struct store *store = NULL;
	int rc = EXIT_USAGE;

	memset(&e, 0, sizeof(e));
	for (size_t i = 0; i < o->configs.n; i++) {
		if (cmd_find_config(o->configs.v[i], &path))
			goto out;
		paths[i] = strbuf_detach(&path);
	}
	o->eo.configs = paths;
	o->eo.nconfigs = o->configs.n;
	o->eo.overrides = (char *const *)o->overrides.v;
	o->eo.noverrides = o->overrides.n;
	if (experiment_load(&e, &o->eo))
		goto out;
	if (check_guest(&e, o->guest_missing)) {
		rc = 1;
		goto out;
	}
	for (size_t i = 0; i < e.narms; i++)
		if (cmd_check_run_name(e.arms[i].run_name))
			goto out;
	if (o->dry_run) {
		store = cmd_open_store_if_any();
		rc = experiment_dry_run(&e, store) ? 1 : 0;
		goto out;
	}
	/* Refused before the store is opened: a refused ab makes none. */
	if (experiment_check_knobs(&e))
		goto out;
	if (cmd_open_store(&store, CMD_STORE_WRITE)) {
		rc = 1;
		goto out;
	}
	rc = run_and_report(o, &e, store);
out:
	store_close(store);
	experiment_release(&e);
	for (size_t i = 0; i < o->configs.n; i++)
		free(paths[i]);
	free(paths);
	strbuf_release(&path);
	return rc;
}

/* The option's parts, from the table of the experiment's settings. */
#define SETTING(option) (experiment_setting_find_option(option))
#define SETTING_ARGH(option) (SETTING(option)->argh)
#define SETTING_HELP(option) (SETTING(option)->help)
#define SETTING_LO(option) (SETTING(option)->option_lo)
#define SETTING_HI(option) (SETTING(option)->hi)

int cmd_ab(int argc, char **argv)
{
	struct ab_opts o = {
		.configs = OPT_LIST_INIT, .overrides = OPT_LIST_INIT,
		.eo = { .name = NULL },
		.format = COMPARE_FORMAT_TEXT,
	};
	const struct parse_opt options[] = {
		OPT_STRING_LIST('c', "config", &o.configs, "FILE",
				"a config with [arm:NAME] sections (repeatable);\n"
				"see kbench.conf(5)"),
		OPT_STRING_LIST('o', NULL, &o.overrides, "KEY=VALUE",
				"set KEY in every section that takes it, in every arm\n"
				"(-o SECTION.KEY=VALUE: that section only)"),
		OPT_CALLBACK('n', "name", &o.eo.name, "NAME",
			     "the experiment's name (default: the config's);\n"
			     "each arm is stored as the run NAME/ARM", cmd_parse_run_name),
		OPT_CALLBACK(0, "rounds", &o.eo, SETTING_ARGH("rounds"), SETTING_HELP("rounds"),
			     parse_setting),
		OPT_INT_RANGE(0, "min-rounds", &o.eo.min_rounds, SETTING_ARGH("min-rounds"),
			      SETTING_HELP("min-rounds"), SETTING_LO("min-rounds"),
			      SETTING_HI("min-rounds")),
		OPT_INT_RANGE(0, "max-rounds", &o.eo.max_rounds, SETTING_ARGH("max-rounds"),
			      SETTING_HELP("max-rounds"), SETTING_LO("max-rounds"),
			      SETTING_HI("max-rounds")),
		OPT_INT_RANGE(0, "look-every", &o.eo.look_every, SETTING_ARGH("look-every"),
			      SETTING_HELP("look-every"), SETTING_LO("look-every"),
			      SETTING_HI("look-every")),
		OPT_CALLBACK(0, "equivalence", &o.eo, SETTING_ARGH("equivalence"),
			     SETTING_HELP("equivalence"), parse_setting),
		OPT_STRING(0, "watch", &o.eo.watch, SETTING_ARGH("watch"), SETTING_HELP("watch")),
		OPT_INT_RANGE(0, "iterations", &o.eo.iterations, SETTING_ARGH("iterations"),
			      SETTING_HELP("iterations"), SETTING_LO("iterations"),
			      SETTING_HI("iterations")),
		OPT_STRING(0, "order", &o.eo.order, SETTING_ARGH("order"), SETTING_HELP("order")),
		OPT_CALLBACK(0, "seed", &o.eo, SETTING_ARGH("seed"), SETTING_HELP("seed"),
			     parse_setting),
		OPT_STRING(0, "only", &o.eo.only, SETTING_ARGH("only"), SETTING_HELP("only")),
		OPT_BOOL(0, "dry-run", &o.dry_run,
			 "print the design, the knobs with their current values\n"
			 "and each arm's plan; change and run nothing"),
		OPT_CALLBACK(0, "format", &o.format, "FORMAT",
			     "of the comparison after the experiment (as compare)",
			     compare_cmdline_parse_format,
			     .complete = compare_cmdline_complete_format),
		OPT_BOOL(0, "no-report", &o.no_report, "do not compare the arms afterwards"),
		OPT_STRING(0, "resume", &o.resume, "EXPERIMENT",
			   "finish the rounds of a stopped experiment (@ID, ID,\n"
			   "a name: its latest, a uuid prefix)"),
		OPT_CALLBACK(0, "wait-knobs", &o.wait_knobs, "SECONDS",
			     "wait up to SECONDS for another kbench changing this\n"
			     "machine's knobs to finish (default: refuse at once)",
			     parse_wait_knobs),
		OPT_BOOL(0, "force", &o.force,
			 "resume although the machine, the kernel or an arm's\n"
			 "options differ from the experiment's runs"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct cmd_build_opts build_opts = CMD_BUILD_OPTS_INIT;
	struct kbuild_request build;
	char **fragments = NULL;
	int rc = EXIT_USAGE;

	if (cmd_parse_options(&argc, argv, options, &ab_usage, &rc))
		goto out;
	if (argc > 0) {
		error("unexpected argument '%s' (configs are given with -c)", argv[0]);
		goto out;
	}
	/* Arms built from a tree (tree = DIR, ref = REF) get the guest
	 * fragment, as kbench build does; without it (check_guest) the
	 * other arms still run. */
	o.guest_missing = !build_opts.no_guest_fragment && !cmd_build_guest_found();
	build_opts.no_guest_fragment |= o.guest_missing;
	if (cmd_build_request(&build_opts, &build, &fragments))
		goto out;
	build.tree = NULL;
	o.eo.build = &build;
	if (o.resume) {
		rc = resume(&o);
		goto out;
	}
	if (o.force) {
		error("--force applies to --resume only");
		goto out;
	}
	if (!o.configs.n) {
		error("no config given: use -c FILE (e.g. ab-slub-cpu-partial)");
		parse_opt_usage_print(&ab_usage, options, stderr);
		goto out;
	}
	rc = start(&o);
out:
	cmd_build_fragments_free(fragments);
	opt_list_release(&o.configs);
	opt_list_release(&o.overrides);
	return rc;
}
