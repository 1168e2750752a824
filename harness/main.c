/* main: the kbench command table and dispatch (git-style subcommands). */
#include "config.h"
#include "harness/cmd.h"
#include "harness/child.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "db/store.h"
#include "workloads/workload.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct global_opts global_opts;

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ .name = "run", .fn = cmd_run,
	  .summary = "run the sections of one or more configs and store every sample" },
	{ .name = "runs", .fn = cmd_runs, .summary = "list stored runs" },
	{ .name = "show", .fn = cmd_show,
	  .summary = "show one run: machine, kernel, config, samples, failures" },
	{ .name = "compare", .fn = cmd_compare,
	  .summary = "compare runs in mmtests' table layout, with significance" },
	{ .name = "topology", .fn = cmd_topology,
	  .summary = "the machine as hwloc sees it and the CPUs each pin policy picks" },
	{ .name = NULL }
};

static void usage(FILE *f)
{
	fprintf(f, "usage: kbench [--db FILE] [--quiet] COMMAND [ARGS]\n\n"
		"Benchmark the booted kernel, store every sample, compare runs.\n\n"
		"Commands:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f, "\nWorkloads, run directly (one sample, printed like the peer tool):\n");
	for (int i = 0; workloads[i]; i++)
		fprintf(f, "  %-10s %s\n", workloads[i]->name, workloads[i]->summary);
	fprintf(f, "\nGlobal options:\n"
		"  --db FILE   results database (default: $KBENCH_DB, else\n"
		"              $XDG_DATA_HOME/kbench/kbench.db)\n"
		"  --quiet     no progress or notices\n"
		"  --version   print the version\n\n"
		"'kbench COMMAND --help' describes a command; 'man kbench' has it all.\n");
}

int cmd_open_store(struct store **out)
{
	struct strbuf path = STRBUF_INIT;
	int rc;

	if (global_opts.db)
		strbuf_addstr(&path, global_opts.db);
	else
		store_default_path(&path);
	rc = store_open(path.buf, out);
	strbuf_release(&path);
	return rc;
}

int main(int argc, char **argv)
{
	int i = 1;

	/* Numbers are parsed and printed in the C locale, always. */
	setlocale(LC_ALL, "C");
	setvbuf(stdout, NULL, _IOLBF, 0);
	child_reaper_init();
	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "--db")) {
			if (i + 1 >= argc)
				die("option '--db' needs a file name");
			global_opts.db = argv[i + 1];
			i += 2;
		} else if (!strncmp(argv[i], "--db=", 5)) {
			global_opts.db = argv[i] + 5;
			i++;
		} else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
			kb_quiet = 1;
			i++;
		} else if (!strcmp(argv[i], "--version")) {
			printf("kbench %s\n", PACKAGE_VERSION);
			return 0;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			error("unknown option '%s'", argv[i]);
			usage(stderr);
			return 129;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return 129;
	}
	if (!strcmp(argv[i], "help")) {
		usage(stdout);
		return 0;
	}
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(argv[i], c->name))
			return c->fn(argc - i, argv + i);
	if (workload_find(argv[i]))
		return cmd_direct(argc - i, argv + i);
	error("'%s' is not a kbench command; see 'kbench --help'", argv[i]);
	return 129;
}
