/* cmd: the subcommands of kbench, one file each (cli/cmd_*.c),
 * registered in the table in main.c. */
#ifndef KBENCH_CMD_H
#define KBENCH_CMD_H

#include "cli/setup.h"	/* what every command starts with */
#include "compare/compare.h"	/* enum compare_format */
#include "lib/parse-options.h"	/* struct opt_list */

#include <stddef.h>
#include <stdint.h>

struct experiment;
struct store;

int cmd_run(int argc, char **argv);
int cmd_vm(int argc, char **argv);

/* kbench build: a commit of a kernel tree built into the kernel cache
 * (cli/cmd_build.c, kernel/kbuild.h); kbench vm --ref builds with the
 * same options. */
int cmd_build(int argc, char **argv);
struct kbuild_request;
/* The shipped guest fragment (configs/kernel/NAME.config), merged first
 * unless --no-guest-fragment. */
#define CMD_GUEST_FRAGMENT "kbench-guest"
struct cmd_build_opts {
	const char *tree, *kconfig, *cache;
	struct opt_list fragments;	/* --fragment, as given */
	int no_guest_fragment;
	int jobs;			/* 0: the online CPUs */
	double timeout_s;		/* 0: KBUILD_DEFAULT_TIMEOUT_S */
	const char *timeout_name;	/* its option, for messages; NULL: "timeout" */
};
#define CMD_BUILD_OPTS_INIT { .fragments = OPT_LIST_INIT }
/* The options of a build but --tree and --ref; timeout: the name of the
 * bound's option ("timeout", or "build-timeout" beside a boot's). */
#define CMD_BUILD_OPTIONS(o, timeout) \
	OPT_STRING(0, "kconfig", &(o)->kconfig, "FILE|TARGET", \
		   "the base config: a file, or the make target that\n" \
		   "writes it (default tinyconfig; defconfig...)"), \
	OPT_STRING_LIST(0, "fragment", &(o)->fragments, "FILE", \
			"a config fragment merged onto it after the\n" \
			"shipped kbench-guest (repeatable)"), \
	OPT_BOOL(0, "no-guest-fragment", &(o)->no_guest_fragment, \
		 "do not merge the shipped kbench-guest fragment"), \
	OPT_STRING(0, "cache", &(o)->cache, "DIR", \
		   "the kernel cache (default: $KBENCH_KERNEL_CACHE,\n" \
		   "else ~/.cache/kbench/kernels)"), \
	OPT_INT_RANGE('j', "jobs", &(o)->jobs, "N", \
		      "make -jN (default: the online CPUs)", 1, 4096), \
	OPT_DOUBLE(0, timeout, &(o)->timeout_s, "SECONDS", \
		   "the most one build may take (default 7200, at most\n" \
		   "604800: 7 days)")
/* The request o makes (its tree "." when not given; no ref), with the
 * fragments' paths in *fragments (NULL-terminated; free with
 * cmd_build_fragments_free). Return 0, or -1 after saying why (a
 * fragment that is not there). */
int cmd_build_request(const struct cmd_build_opts *o, struct kbuild_request *rq,
		      char ***fragments);
void cmd_build_fragments_free(char **fragments);
/* Whether the shipped guest fragment (CMD_GUEST_FRAGMENT) can be read:
 * not by a kbench copied away from its build tree and not installed. */
int cmd_build_guest_found(void);
int cmd_runs(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_direct(int argc, char **argv);	/* kbench <workload> ... */
int cmd_topology(int argc, char **argv);
int cmd_note(int argc, char **argv);
int cmd_query(int argc, char **argv);

int cmd_history(int argc, char **argv);
int cmd_regressions(int argc, char **argv);

struct history;
struct series_filter;
/* The change-point options kbench history and regressions share:
 * CMD_CHANGEPOINT_OPTIONS(h) lists them in a parse_opt table, each read
 * into the struct history h (history_init()ed before the parse) by
 * cmd_parse_changepoint (cli/cmd_history.c) as it is parsed. */
int cmd_parse_changepoint(const struct parse_opt *opt, const char *value);
#define CMD_CHANGEPOINT_OPTIONS(h) \
	OPT_CALLBACK(0, "p-value", (h), "P", \
		     "a change point's p must be below P (default 0.001)", \
		     cmd_parse_changepoint), \
	OPT_CALLBACK(0, "window", (h), "N", \
		     "runs per E-Divisive window (default 50)", cmd_parse_changepoint), \
	OPT_CALLBACK(0, "min-change", (h), "PCT", \
		     "report only changes of more than PCT percent\n" \
		     "(default 0: any change the tests pass)", cmd_parse_changepoint), \
	OPT_CALLBACK(0, "statistic", (h), "STAT", \
		     "find change points on each run's best sample (best,\n" \
		     "the default: Min, or Max when higher is better) or on\n" \
		     "its mean (mean)", cmd_parse_changepoint)
/* Say (error()) that no complete run of store has samples of the series
 * f picks (given_runs: among the runs given), naming the closest stored
 * config or host when f's looks mistyped (cli/cmd_history.c). */
void cmd_no_series(struct store *store, const struct series_filter *f, int given_runs);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_rm(int argc, char **argv);
int cmd_rename(int argc, char **argv);
/* kbench export --mmtests DIR: runs run_ids[0..n-1] of s written in
 * mmtests' layout (cli/export_mmtests.c). Return 0 or 1, as a command. */
int cmd_export_mmtests(struct store *s, const int64_t *run_ids, size_t n, const char *dir);
int cmd_mail(int argc, char **argv);
/* Mail the report of the bisection sel names (@ID, ID, a uuid prefix;
 * NULL: the latest) to to[0..nto-1], as kbench mail --bisect does with
 * the [mail] settings of kbench.conf. Return 0, 1 on failure or
 * EXIT_USAGE (no sender, no server), after saying why. */
int mail_bisect_report(const char *sel, const char *const *to, size_t nto);
int cmd_recover(int argc, char **argv);

int cmd_calibrate(int argc, char **argv);
/* kbench ab: an interleaved A/B experiment over knobs and options. */
int cmd_ab(int argc, char **argv);
/* kbench experiments: the experiments kbench ab stored. */
int cmd_experiments(int argc, char **argv);
/* kbench bisect: the commit of a git tree that made a row worse. */
int cmd_bisect(int argc, char **argv);
/* kbench watch: the nightly loop (cli/cmd_watch.c, watch/watch.h). */
int cmd_watch(int argc, char **argv);

/* kbench fleet: Slurm jobs on a cluster, their bundles uploaded and collected. */
int cmd_fleet(int argc, char **argv);

int cmd_configs(int argc, char **argv);

#endif
