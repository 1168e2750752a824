/* main: the kbench command table and dispatch (git-style subcommands). */
#include "config.h"
#include "cli/cmd.h"
#include "cli/complete.h"
#include "lib/child.h"
#include "lib/docs.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/suggest.h"
#include "workloads/workload.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ .name = "run", .fn = cmd_run,
	  .summary = "run the sections of one or more configs and store every sample" },
	{ .name = "vm", .fn = cmd_vm,
	  .summary = "run configs inside a kernel booted under QEMU" },
	{ .name = "build", .fn = cmd_build,
	  .summary = "build a commit of a kernel git tree into the kernel cache" },
	{ .name = "runs", .fn = cmd_runs, .summary = "list stored runs" },
	{ .name = "show", .fn = cmd_show,
	  .summary = "show one run: machine, kernel, config, samples, failures" },
	{ .name = "compare", .fn = cmd_compare,
	  .summary = "compare runs in mmtests' table layout, with significance" },
	{ .name = "topology", .fn = cmd_topology,
	  .summary = "the machine as hwloc sees it and the CPUs each pin policy picks" },
	{ .name = "note", .fn = cmd_note, .summary = "write the note of a run" },
	{ .name = "query", .fn = cmd_query, .summary = "run read-only SQL on the store" },
	{ .name = "history", .fn = cmd_history,
	  .summary = "a metric over runs in time order, change points marked" },
	{ .name = "regressions", .fn = cmd_regressions,
	  .summary = "the latest change for the worse of every series; exit 1 if any" },
	{ .name = "export", .fn = cmd_export,
	  .summary = "write runs into a bundle file to import elsewhere" },
	{ .name = "import", .fn = cmd_import,
	  .summary = "add the runs of bundle files to the store" },
	{ .name = "rm", .fn = cmd_rm,
	  .summary = "remove runs from the store, all they hold with them" },
	{ .name = "rename", .fn = cmd_rename, .summary = "give a stored run another name" },
	{ .name = "mail", .fn = cmd_mail,
	  .summary = "mail a comparison as plain text (SMTP), or write it as mbox" },
	{ .name = "fleet", .fn = cmd_fleet,
	  .summary = "run configs on the nodes of a Slurm cluster, collect the results" },
	{ .name = "recover", .fn = cmd_recover,
	  .summary = "load what a run could not store (its recovery file) into the store" },
	{ .name = "ab", .fn = cmd_ab,
	  .summary = "an A/B experiment over knobs and options, interleaved in rounds" },
	{ .name = "experiments", .fn = cmd_experiments,
	  .summary = "list the A/B experiments, or show one with its arms' runs" },
	{ .name = "bisect", .fn = cmd_bisect,
	  .summary = "find the commit of a git tree that made a row worse, under QEMU" },
	{ .name = "watch", .fn = cmd_watch,
	  .summary = "one cycle of the nightly loop: fetch, test, bisect, mail a culprit" },
	{ .name = "calibrate", .fn = cmd_calibrate,
	  .summary = "run a config N times and print each row's between-run noise" },
	{ .name = "configs", .fn = cmd_configs,
	  .summary = "list the shipped configs, for 'kbench run -c NAME'" },
	{ .name = NULL }
};

/* The usage text above the global options: the commands and workloads. */
static void describe(struct strbuf *sb)
{
	strbuf_addstr(sb, "Benchmark the booted kernel, store every sample, compare runs.\n\n"
		      "Commands:");
	for (const struct command *c = commands; c->name; c++)
		strbuf_addf(sb, "\n  %-11s %s", c->name, c->summary);
	strbuf_addstr(sb, "\n\nWorkloads, run directly (one sample, printed like the peer tool):");
	for (int i = 0; workloads[i]; i++) {
		strbuf_addf(sb, "\n  %-11s ", workloads[i]->name);
		usage_add_wrapped(sb, workloads[i]->summary, 14, 79);
	}
}

/* The last line of the usage: where the whole manual is, installed or in
 * the source tree this kbench was built from. */
static void epilogue(struct strbuf *sb)
{
	const char *src = cmd_source_tree();

	if (src)
		strbuf_addf(sb, "'kbench help COMMAND' describes a command; this kbench is not\n"
			    "installed: 'man -l %s/docs/kbench.1' has it all.", src);
	else
		strbuf_addstr(sb, "'kbench help COMMAND' describes a command; 'man kbench' has "
			      "it all.");
}

/* --db: an empty name would be SQLite's private temporary database: the
 * run would be measured and then lost. */
static int set_db(const struct parse_opt *opt, const char *value)
{
	(void)opt;
	if (!*value)
		return error("option '--db' needs a file name, not an empty string");
	global_opts.db = value;
	return 0;
}

/* The global options a command accepts after its name as well. */
static const struct parse_opt anywhere_options[] = {
	OPT_CALLBACK(0, "db", NULL, "FILE", NULL, set_db),
	OPT_BOOL(0, "quiet", &kb_quiet, NULL),
	OPT_BOOL('q', NULL, &kb_quiet, NULL),
	OPT_END(),
};

/* The command name being typed: the commands and workloads. */
static void complete_commands(struct parse_opt_complete *c)
{
	for (const struct command *cmd = commands; cmd->name; cmd++)
		parse_opt_complete_add(c, cmd->name);
	for (int i = 0; workloads[i]; i++)
		parse_opt_complete_add(c, workloads[i]->name);
	parse_opt_complete_add(c, "help");
}

/* An unknown command: say so, with the closest command or workload. */
static void unknown_command(const char *name)
{
	struct suggest s = SUGGEST_INIT(name);

	for (const struct command *c = commands; c->name; c++)
		suggest_add(&s, c->name);
	for (int i = 0; workloads[i]; i++)
		suggest_add(&s, workloads[i]->name);
	suggest_add(&s, "help");
	if (s.best)
		error("'%s' is not a kbench command (did you mean '%s'?); see 'kbench --help'",
		      name, s.best);
	else
		error("'%s' is not a kbench command; see 'kbench --help'", name);
}

/* kbench help [COMMAND]: the usage of kbench, or the help of one command
 * or workload (what 'kbench COMMAND --help' prints). */
static int help(int argc, char **argv, const struct parse_opt_usage *usage,
		const struct parse_opt *options)
{
	static const struct parse_opt help_options[] = { OPT_END() };
	const struct parse_opt_usage help_usage = {
		.synopsis = "kbench help [COMMAND]",
		.description = "The help of a command or workload; without one, kbench's.",
		.complete_args = complete_commands,
	};
	char *args[3] = { NULL, "--help", NULL };
	const struct command *c;
	int n = parse_options(argc, argv, help_options, &help_usage, 0);

	if (n < 0)
		return n == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
	if (!n) {
		parse_opt_usage_print(usage, options, stdout);
		return 0;
	}
	if (n > 1) {
		error("unexpected argument '%s': 'kbench help' takes one command", argv[1]);
		return EXIT_USAGE;
	}
	args[0] = argv[0];
	for (c = commands; c->name && strcmp(argv[0], c->name); c++)
		;
	if (c->name)
		return c->fn(2, args);
	if (workload_find(argv[0]))
		return cmd_direct(2, args);
	if (!strcmp(argv[0], "help")) {
		parse_opt_usage_print(&help_usage, help_options, stdout);
		return 0;
	}
	unknown_command(argv[0]);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	struct strbuf description = STRBUF_INIT, epilogue_text = STRBUF_INIT;
	int version = 0, rc;
	const struct parse_opt options[] = {
		OPT_CALLBACK(0, "db", NULL, "FILE",
			     "results database (default: $KBENCH_DB, else\n"
			     "$XDG_DATA_HOME/kbench/kbench.db)", set_db),
		OPT_BOOL(0, "quiet", &kb_quiet, "no progress or notices"),
		OPT_BOOL('q', NULL, &kb_quiet, NULL),	/* -q is in the man page only */
		OPT_BOOL(0, "version", &version, "print the version"),
		OPT_HELP(NULL),
		OPT_END(),
	};
	struct parse_opt_usage usage = {
		.synopsis = "kbench [--db FILE] [--quiet] COMMAND [ARGS]",
		.options_title = "Global options:",
		.help_column = 14,
		.complete_args = complete_commands,
	};
	const struct command *c;

	/* Numbers are parsed and printed in the C locale, always. */
	setlocale(LC_ALL, "C");
	setvbuf(stdout, NULL, _IOLBF, 0);
	child_reaper_init();
	/* kbench __complete -- WORD...: completion/kbench.bash asks for the
	 * candidates of the last word of a command line; every command parses
	 * it with its own option table. */
	if (argc > 4 && !strcmp(argv[1], "__complete") && !strcmp(argv[2], "--")) {
		argc -= 3;
		argv += 3;
		parse_options_complete(cmd_complete_by_argh);
	}
	/* An installed kbench names the guides where make install put them. */
	docs_set_dir(cmd_source_tree() ? NULL : KBENCH_DOCDIR);
	describe(&description);
	usage.description = description.buf;
	epilogue(&epilogue_text);
	usage.epilogue = epilogue_text.buf;
	argc = parse_options(argc, argv, options, &usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0) {
		rc = argc == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
		goto out;
	}
	if (version) {
		printf("kbench %s\n", PACKAGE_VERSION);
		rc = 0;
		goto out;
	}
	if (!argc) {
		parse_opt_usage_print(&usage, options, stderr);
		rc = EXIT_USAGE;
		goto out;
	}
	if (!strcmp(argv[0], "help")) {
		rc = help(argc, argv, &usage, options);
		goto out;
	}
	parse_options_set_global(anywhere_options);
	for (c = commands; c->name && strcmp(argv[0], c->name); c++)
		;
	if (c->name)
		rc = c->fn(argc, argv);
	else if (workload_find(argv[0]))
		rc = cmd_direct(argc, argv);
	else if (parse_options_completing())
		rc = 0;
	else {
		unknown_command(argv[0]);
		rc = EXIT_USAGE;
	}
out:
	strbuf_release(&description);
	strbuf_release(&epilogue_text);
	return rc;
}
