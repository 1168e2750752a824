/* cmd_fleet: kbench fleet submit|schedule|unschedule|status|collect|upload:
 * runs on the nodes of a Slurm cluster, their bundles uploaded to a results
 * location and collected into the store (fleet/fleet.c does the work). */
#include "config.h"
#include "cli/cmd.h"
#include "views/output.h"
#include "fleet/fleet.h"
#include "db/store.h"
#include "lib/error.h"
#include "fleet/http.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "runner/conf.h"
#include "runner/plan.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const struct parse_opt_usage fleet_usage = {
	.synopsis = "kbench fleet COMMAND [ARGS]",
	.description =
		"Run configs on the nodes of a Slurm cluster, one exclusive job a node;\n"
		"each job runs 'kbench run' into a store on its node, exports the run and\n"
		"uploads the bundle to a results location (a WebDAV URL or a shared\n"
		"directory), from which 'collect' imports it into this store.\n\n"
		"Commands:\n"
		"  submit      submit one job to each node\n"
		"  schedule    the same every day at a time, as a chain of jobs\n"
		"  unschedule  end a chain: cancel its pending jobs\n"
		"  status      the kbench jobs queued, running and finished\n"
		"  collect     import the new bundles of a results location\n"
		"  upload      export a store's new runs and upload them (what jobs run)",
	.epilogue = "'kbench fleet COMMAND --help' describes a command; docs/fleet.md the setup.",
};

/* ---- network limits and [fleet] ---- */

/* The time limits of upload and collect and the CA they trust, as
 * options; total_s is the whole command's. */
struct net_limits {
	int tries, connect_s, stall_s, request_s, total_s;
	const char *cafile;
};

#define NET_LIMIT_OPTIONS(l, what, total_default)					\
	OPT_INT_RANGE(0, "tries", &(l)->tries, "N",					\
		      "tries of each request, with a doubling pause\n"			\
		      "from 1 s between them (default 4)", 1, 100),			\
	OPT_INT_RANGE(0, "connect-timeout", &(l)->connect_s, "S",			\
		      "give up a connection after S seconds (default 30)", 1, 86400),	\
	OPT_INT_RANGE(0, "stall-timeout", &(l)->stall_s, "S",				\
		      "give up a request that moves no data for S\n"			\
		      "seconds (default 60)", 1, 86400),				\
	OPT_INT_RANGE(0, "request-timeout", &(l)->request_s, "S",			\
		      "give up a request after S seconds (default 300)", 1, 86400),	\
	OPT_INT_RANGE(0, "timeout", &(l)->total_s, "S",				\
		      "give up the whole " what " after S seconds\n"			\
		      "(default " total_default ")", 1, 604800),			\
	OPT_STRING(0, "cafile", &(l)->cafile, "FILE",					\
		   "trust the CA certificates in FILE (PEM) for\n"			\
		   "https: a private or lab CA")

/* The keys of [fleet] in the user's kbench.conf: defaults of the options
 * above, the whole command's limit by command. */
static const char *const fleet_keys[] = {
	"tries", "connect-timeout", "stall-timeout", "request-timeout", "upload-timeout",
	"collect-timeout", "cafile", NULL
};

/* [fleet] of the user's kbench.conf, kept for its strings. */
struct fleet_defaults {
	struct config conf;
	struct strbuf path;
	const struct conf_entry *cafile;	/* where l->cafile came from; NULL: not there */
};

static void fleet_defaults_init(struct fleet_defaults *d)
{
	config_init(&d->conf);
	strbuf_init(&d->path);
	d->cafile = NULL;
}

static void fleet_defaults_release(struct fleet_defaults *d)
{
	config_release(&d->conf);
	strbuf_release(&d->path);
}

/* Fill what the command line left unset in l from [fleet] (total_key:
 * the key of this command's whole limit). Return 0, or -1 after printing
 * why (a bad key or value, naming the file and line). */
static int fleet_defaults_load(struct fleet_defaults *d, struct net_limits *l,
			       const char *total_key)
{
	static const struct {
		const char *key;	/* NULL: total_key */
		size_t offset;
		const char *unit;
		long max;
	} ints[] = {
		{ "tries", offsetof(struct net_limits, tries), "a number of tries", 100 },
		{ "connect-timeout", offsetof(struct net_limits, connect_s), "seconds", 86400 },
		{ "stall-timeout", offsetof(struct net_limits, stall_s), "seconds", 86400 },
		{ "request-timeout", offsetof(struct net_limits, request_s), "seconds", 86400 },
		{ NULL, offsetof(struct net_limits, total_s), "seconds", 604800 },
	};
	const struct conf_section *s;

	if (cmd_user_config_section("fleet", fleet_keys, &d->conf, &d->path, &s))
		return -1;
	for (size_t i = 0; s && i < sizeof(ints) / sizeof(ints[0]); i++) {
		const char *key = ints[i].key ? ints[i].key : total_key;
		const struct conf_entry *e = conf_section_get(s, key);
		int *field = (int *)((char *)l + ints[i].offset);

		if (!*field && e && cmd_config_int(e, "fleet", ints[i].unit, 1, ints[i].max, field))
			return -1;
	}
	if (s && !l->cafile && conf_section_get(s, "cafile")) {
		d->cafile = conf_section_get(s, "cafile");
		l->cafile = d->cafile->value;
	}
	return 0;
}

/* Whether the cafile of l, if any, can be read: said now, naming where it
 * was given, rather than by libcurl at the first https request. Return 0,
 * or -1 after printing why not. */
static int check_cafile(const struct fleet_defaults *d, const struct net_limits *l)
{
	const char *why;
	struct stat st;
	int fd;

	if (!l->cafile)
		return 0;
	fd = open(l->cafile, O_RDONLY | O_CLOEXEC);
	why = fd < 0 || fstat(fd, &st) ? strerror(errno) :
		!S_ISREG(st.st_mode) ? "not a regular file" : NULL;
	if (fd >= 0)
		close(fd);
	if (!why)
		return 0;
	if (d->cafile)
		return error("%s:%d: cannot read cafile '%s' in [fleet]: %s", d->cafile->file,
			     d->cafile->line, l->cafile, why);
	return error("cannot read '--cafile' file '%s': %s", l->cafile, why);
}

static void net_options(const struct net_limits *l, long total_default_s,
			struct http_options *o)
{
	*o = (struct http_options) {
		.attempts = l->tries,
		.connect_timeout_s = l->connect_s,
		.stall_s = l->stall_s,
		.timeout_s = l->request_s,
		.cafile = l->cafile,
	};
	http_options_start(o, l->total_s ? l->total_s : total_default_s);
}

/* ---- submit and schedule ---- */

struct submit_opts {
	struct opt_list configs;
	const char *name, *nodes, *partition, *begin, *results, *kbench, *db_dir, *daily, *watch;
	int all, dry_run, node_names, run_minutes;
};

static const struct parse_opt_usage submit_usage = {
	.synopsis = "kbench fleet submit (-c CONFIG... [-n NAME] | --watch WATCH)\n"
		    "       [--nodes LIST | --partition P | --all] [--begin TIME]\n"
		    "       [--results URL|DIR] [--kbench PATH] [--db-dir DIR] [--node-names]\n"
		    "       [--time-limit MIN] [--dry-run]",
	.description =
		"Submit one job to each node (sbatch --exclusive --nodelist=NODE): it runs\n"
		"the configs (carried in the job's script) with 'kbench run' into the store\n"
		"DIR/kbench.db on its node, then 'kbench fleet upload' exports the run and\n"
		"uploads its bundle to RESULTS/HOST/RUN-UUID.kbench. The configs and NAME\n"
		"are checked here first. Without --nodes or --partition: every node.\n"
		"With --watch, each job runs one cycle of the watch WATCH (kbench watch,\n"
		"docs/nightly.md) on its node instead, and uploads the watch's records with\n"
		"its runs.",
	.help_column = 24,
	.epilogue = "Exit status: 0 every job submitted, 1 a submission failed, 2 bad arguments\n"
		    "or config.",
};

static const struct parse_opt_usage schedule_usage = {
	.synopsis = "kbench fleet schedule --daily HH:MM\n"
		    "       (-c CONFIG... [-n NAME] | --watch WATCH)\n"
		    "       [--nodes LIST | --partition P | --all] [--begin TIME]\n"
		    "       [--results URL|DIR] [--kbench PATH] [--db-dir DIR] [--node-names]\n"
		    "       [--time-limit MIN] [--dry-run]",
	.description =
		"Submit a chain of jobs to each node, as 'submit' does, that runs every day\n"
		"at HH:MM (the nodes' local time): each job first queues the next one with\n"
		"--begin=HH:MM, then runs, so that a night that fails or is missed (a node\n"
		"down) does not end the chain. The chain is named kbench-daily-NAME (NAME,\n"
		"else the configs' names); 'kbench fleet unschedule NAME' ends it.\n"
		"The first job starts at the next HH:MM, or at --begin. A node where the\n"
		"chain has a pending job already is left as it is. With --watch WATCH, the\n"
		"watch's nightly cycle on each node, each judging its own hardware.",
	.help_column = 24,
	.epilogue = "Exit status: 0 every chain started, 1 a submission failed, 2 bad arguments\n"
		    "or config.",
};

/* Check the configs and the run name as kbench run on the nodes will:
 * each config read and its plan built, every message on stderr. Returns
 * run's exit status for them (0, or 2 for a bad name or config). */
static int check_run_args(const struct submit_opts *o)
{
	struct config conf;
	struct plan plan;
	int rc = EXIT_USAGE;

	config_init(&conf);
	memset(&plan, 0, sizeof(plan));
	if (o->name && cmd_check_run_name(o->name))
		goto out;
	if (cmd_load_configs(&conf, &o->configs, NULL) || plan_build(&conf, NULL, &plan))
		goto out;
	rc = 0;
out:
	plan_release(&plan);
	config_release(&conf);
	return rc;
}

/* A watch's config must be a file that can be read here: it is carried
 * in the job (its keys are checked by kbench watch on the node). Returns
 * 0, or 2 after saying why. */
static int check_watch_arg(const char *path)
{
	struct strbuf text = STRBUF_INIT;
	int e = strbuf_read_file(&text, path);

	strbuf_release(&text);
	if (e) {
		error("cannot read watch config '%s': %s", path, strerror(-e));
		return EXIT_USAGE;
	}
	return 0;
}

/* The options of submit, which schedule takes after its --daily: one
 * list for both tables. */
#define SUBMIT_OPTIONS(o) \
	OPT_STRING_LIST('c', "config", &o.configs, "FILE", \
			"an INI config (repeatable), carried in the job"), \
	OPT_CALLBACK('n', "name", &o.name, "NAME", \
		     "the runs' name (default: each node's uname -r)", cmd_parse_run_name), \
	OPT_STRING(0, "watch", &o.watch, "WATCH", \
		   "a watch's config, carried in the job: one cycle\n" \
		   "of it (kbench watch) in place of the configs"), \
	OPT_STRING(0, "nodes", &o.nodes, "LIST", \
		   "these nodes (n1,n2 or Slurm's n[1-4])"), \
	OPT_STRING(0, "partition", &o.partition, "P", \
		   "the nodes of partition P, which the jobs use"), \
	OPT_BOOL(0, "all", &o.all, "every node Slurm knows (the default)"), \
	OPT_STRING(0, "begin", &o.begin, "TIME", \
		   "start no earlier than TIME (sbatch --begin: 02:00,\n" \
		   "now+60, 2026-12-01T02:00, ...)"), \
	OPT_STRING(0, "results", &o.results, "URL|DIR", \
		   "where the nodes upload bundles: a WebDAV URL or a\n" \
		   "shared directory (default: they stay on the nodes)"), \
	OPT_STRING(0, "kbench", &o.kbench, "PATH", \
		   "kbench on the nodes (default: this binary's path)"), \
	OPT_STRING(0, "db-dir", &o.db_dir, "DIR", \
		   "the nodes' directory for the store and outgoing\n" \
		   "bundles (default: /var/tmp/kbench-fleet-USER);\n" \
		   "%n in it stands for the node's name"), \
	OPT_BOOL(0, "node-names", &o.node_names, \
		 "record runs under the Slurm node name, not the\n" \
		 "host name (nodes simulated on one machine)"), \
	OPT_INT_RANGE(0, "time-limit", &o.run_minutes, "MIN", \
		      "the run's time limit in minutes; the job's is\n" \
		      "this plus the upload's 11 (default: Slurm's)", 1, 1000000), \
	OPT_BOOL(0, "dry-run", &o.dry_run, \
		 "print the job's script and the sbatch commands")

/* --daily: HH:MM, checked as it is parsed, into the const char *
 * opt->value. */
static int parse_daily(const struct parse_opt *opt, const char *value)
{
	if (!fleet_valid_daily(value))
		return error("invalid value '%s' for '--daily': expected HH:MM, 00:00 to 23:59",
			     value);
	*(const char **)opt->value = value;
	return 0;
}

static int submit_or_schedule(int argc, char **argv, int daily)
{
	struct submit_opts o = { .configs = OPT_LIST_INIT };
	const struct parse_opt submit_options[] = {
		SUBMIT_OPTIONS(o),
		OPT_HELP("this text"),
		OPT_END(),
	};
	const struct parse_opt schedule_options[] = {
		OPT_CALLBACK(0, "daily", &o.daily, "HH:MM",
			     "run every day at this time (nodes' local time)", parse_daily),
		SUBMIT_OPTIONS(o),
		OPT_HELP("this text"),
		OPT_END(),
	};
	const struct parse_opt *opts = daily ? schedule_options : submit_options;
	const struct parse_opt_usage *usage = daily ? &schedule_usage : &submit_usage;
	struct fleet_job job;
	struct net_limits limits = { .tries = 0 };
	struct fleet_defaults defaults;
	int rc = EXIT_USAGE;

	fleet_defaults_init(&defaults);
	if (cmd_parse_options(&argc, argv, opts, usage, &rc))
		goto out;
	if (argc > 0) {
		error("unexpected argument '%s' (configs are given with -c)", argv[0]);
		goto out;
	}
	if (daily && !o.daily) {
		error("schedule needs --daily HH:MM");
		parse_opt_usage_print(usage, opts, stderr);
		goto out;
	}
	if (o.watch && (o.configs.n || o.name)) {
		error("--watch cannot be combined with %s (the watch names its configs)",
		      o.configs.n ? "-c" : "-n");
		goto out;
	}
	if (o.watch && !*o.watch) {
		error("option '--watch' needs a watch's config file, not an empty string");
		goto out;
	}
	if (!o.watch && cmd_require_configs(&o.configs, usage, opts))
		goto out;
	if (o.all && (o.nodes || o.partition)) {
		error("--all cannot be combined with %s", o.nodes ? "--nodes" : "--partition");
		goto out;
	}
	if (o.results && !*o.results) {
		error("option '--results' needs a URL or a directory, not an empty string");
		goto out;
	}
	rc = o.watch ? check_watch_arg(o.watch) : check_run_args(&o);
	if (rc)
		goto out;
	/* The job's upload is bounded by upload-timeout of [fleet] here, and
	 * the job's time limit covers it. */
	if (fleet_defaults_load(&defaults, &limits, "upload-timeout")) {
		rc = EXIT_USAGE;
		goto out;
	}
	job = (struct fleet_job) {
		.run_name = o.name,
		.configs = o.configs.v,
		.nconfigs = o.configs.n,
		.watch = o.watch,
		.results = o.results,
		.kbench = o.kbench,
		.db_dir = o.db_dir,
		.partition = o.partition,
		.daily = daily ? o.daily : NULL,
		.node_names = o.node_names,
		.run_minutes = o.run_minutes,
		.upload_timeout_s = limits.total_s,
	};
	rc = fleet_schedule(&job, o.nodes, o.begin, o.dry_run);
out:
	fleet_defaults_release(&defaults);
	opt_list_release(&o.configs);
	return rc;
}

static int cmd_submit(int argc, char **argv)
{
	return submit_or_schedule(argc, argv, 0);
}

static int cmd_schedule(int argc, char **argv)
{
	return submit_or_schedule(argc, argv, 1);
}

/* ---- unschedule ---- */

static const struct parse_opt_usage unschedule_usage = {
	.synopsis = "kbench fleet unschedule [--dry-run] NAME | --all",
	.description =
		"End the daily chain NAME (kbench-daily-NAME, as 'schedule' printed it):\n"
		"cancel its pending jobs on every node. A job running now finishes; it\n"
		"queued its successor when it started, and that one is cancelled.",
	.help_column = 22,
	.epilogue = "Exit status: 0 jobs cancelled, 1 none pending or an error, 2 bad arguments.",
};

static int cmd_unschedule(int argc, char **argv)
{
	int all = 0, dry_run = 0;
	const struct parse_opt options[] = {
		OPT_BOOL(0, "all", &all, "every kbench chain"),
		OPT_BOOL(0, "dry-run", &dry_run, "list the jobs it would cancel, cancel nothing"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct strbuf job_name = STRBUF_INIT;
	size_t n = 0;
	int rc = EXIT_USAGE;

	if (cmd_parse_options(&argc, argv, options, &unschedule_usage, &rc))
		goto out;
	if ((argc != 1 && !all) || (argc && all)) {
		error(all ? "unschedule --all takes no NAME" :
		      argc ? "unschedule takes one NAME" : "unschedule needs the chain's NAME or --all");
		parse_opt_usage_print(&unschedule_usage, options, stderr);
		goto out;
	}
	rc = 1;
	if (!all) {
		const char *name = argv[0];

		/* NAME as schedule printed it, or as given to it. */
		if (!strncmp(name, FLEET_DAILY_PREFIX, strlen(FLEET_DAILY_PREFIX)))
			name += strlen(FLEET_DAILY_PREFIX);
		strbuf_addstr(&job_name, FLEET_DAILY_PREFIX);
		fleet_job_label(name, NULL, NULL, 0, &job_name);
	}
	if (fleet_cancel_pending(all ? NULL : job_name.buf, dry_run, &n))
		goto out;
	if (!n) {
		if (all)
			error("no kbench chain has a pending job");
		else
			error("chain '%s' has no pending job (see kbench fleet status)", job_name.buf);
		goto out;
	}
	rc = fflush(stdout) ? 1 : 0;
out:
	strbuf_release(&job_name);
	return rc;
}

/* ---- status ---- */

static const struct parse_opt_usage status_usage = {
	.synopsis = "kbench fleet status [--since TIME]",
	.description =
		"The kbench jobs (named kbench-...) that wait or run (squeue), and those\n"
		"that ended since TIME (sacct with accounting, else sacct -c on the\n"
		"jobcomp log): their names (without 'kbench-'), nodes, times (MM-DD HH:MM,\n"
		"the nodes' local time; an end on the start's day HH:MM) and results. A\n"
		"finished job's result is its run in this store once collected ('kbench\n"
		"show @ID' shows it), else its exit status.",
	.help_column = 22,
};

/* The runs of fleet jobs in the store, if there is a store. */
static void read_job_runs(struct fleet_job_runs *l)
{
	struct strbuf path = STRBUF_INIT;
	struct store *s = NULL;
	struct stat st;

	cmd_store_path(&path);
	if (!stat(path.buf, &st) && !cmd_open_store(&s, CMD_STORE_READ))
		fleet_job_runs_read(s, l);
	store_close(s);
	strbuf_release(&path);
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

/* A time as Slurm gives it, "2026-12-03T15:48:14", as "12-03 15:48" (a
 * job of the last days, in a table within 80 columns), or "15:48" when it
 * is on the day of since (the job's start); another text as it is, or
 * "-". */
static const char *short_time(const char *t, const char *since, char *buf, size_t size)
{
	if (!t || strlen(t) != 19 || t[10] != 'T')
		return or_dash(t);
	if (since && !strncmp(t, since, 10))
		snprintf(buf, size, "%.5s", t + 11);
	else
		snprintf(buf, size, "%.5s %.5s", t + 5, t + 11);
	return buf;
}

/* A job's name without the prefix every kbench job's has. */
static const char *job_name(const char *name)
{
	size_t n = strlen(FLEET_JOB_PREFIX);

	return strncmp(name, FLEET_JOB_PREFIX, n) ? name : name + n;
}

static int cmd_status(int argc, char **argv)
{
	const char *since = "now-1days";
	const struct parse_opt options[] = {
		OPT_STRING(0, "since", &since, "TIME",
			   "finished jobs that ended since TIME, as sacct -S\n"
			   "takes it (default: now-1days)"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct fleet_job_list jobs = FLEET_JOB_LIST_INIT;
	struct fleet_job_runs runs = FLEET_JOB_RUNS_INIT;
	struct strbuf result = STRBUF_INIT;
	int wid = 3, wname = 4, wstate = 5, wnode = 4, rc = EXIT_USAGE;

	if (cmd_parse_options(&argc, argv, options, &status_usage, &rc))
		goto out;
	if (argc > 0) {
		error("unexpected argument '%s'", argv[0]);
		goto out;
	}
	rc = 1;
	if (fleet_list_jobs(since, &jobs))
		goto out;
	read_job_runs(&runs);
	if (!jobs.n) {
		printf("no kbench job queued, running or finished since %s\n", since);
	} else {
		for (size_t i = 0; i < jobs.n; i++) {
			const struct fleet_job_state *j = &jobs.v[i];
			int l;

			if ((l = (int)strlen(j->id)) > wid)
				wid = l;
			if ((l = (int)strlen(job_name(j->name))) > wname)
				wname = l;
			if ((l = (int)strlen(j->state)) > wstate)
				wstate = l;
			if ((l = (int)strlen(or_dash(j->nodes))) > wnode)
				wnode = l;
		}
		printf("%-*s  %-*s  %-*s  %-*s  %-11s  %-5s  %s\n", wid, "job", wname, "name",
		       wstate, "state", wnode, "node", "start", "end", "result");
	}
	for (size_t i = 0; i < jobs.n; i++) {
		const struct fleet_job_state *j = &jobs.v[i];
		const struct fleet_job_run *r = fleet_job_runs_find(&runs, j->id);
		char start[16], end[16];

		strbuf_reset(&result);
		if (r)
			strbuf_addf(&result, "run @%lld", (long long)r->run_id);
		else if (!strcmp(j->state, "PENDING"))
			strbuf_addf(&result, "waits (%s)", or_dash(j->reason));
		else if (*j->exit_code && strcmp(j->exit_code, "0:0"))
			strbuf_addf(&result, "exit %s", j->exit_code);
		else if (!strcmp(j->state, "COMPLETED"))
			strbuf_addstr(&result, "not collected");
		else
			strbuf_addch(&result, '-');
		printf("%-*s  %-*s  %-*s  %-*s  %-11s  %-5s  %s\n", wid, j->id, wname,
		       job_name(j->name), wstate, j->state, wnode, or_dash(j->nodes),
		       short_time(j->start, NULL, start, sizeof(start)),
		       short_time(j->end, j->start, end, sizeof(end)), result.buf);
	}
	/* Where running jobs send their results: URLs are long, once each. */
	for (size_t i = 0; i < jobs.n; i++) {
		const struct fleet_job_state *j = &jobs.v[i];
		size_t k = 0;

		if (strcmp(j->state, "RUNNING") || !*j->comment)
			continue;
		while (k < i && (strcmp(jobs.v[k].state, "RUNNING") ||
				 strcmp(jobs.v[k].comment, j->comment)))
			k++;
		if (k == i)
			printf("running jobs upload to %s\n", j->comment);
	}
	if (jobs.no_history)
		printf("(finished jobs unknown: Slurm keeps neither accounting nor a jobcomp log)\n");
	rc = fflush(stdout) ? 1 : 0;
out:
	fleet_job_runs_release(&runs);
	fleet_job_list_release(&jobs);
	strbuf_release(&result);
	return rc;
}

/* ---- upload (what a job runs on its node) ---- */

/* What upload's and collect's --help say of [fleet]. */
#define FLEET_DEFAULTS_HELP								\
	"Defaults for every option but --timeout, and for it upload-timeout or\n"	\
	"collect-timeout, come from the [fleet] section of\n"				\
	"$XDG_CONFIG_HOME/kbench/kbench.conf (~/.config/kbench/kbench.conf).\n"

static const struct parse_opt_usage upload_usage = {
	.synopsis = "kbench fleet upload [--tries N] [--connect-timeout S] [--stall-timeout S]\n"
		    "       [--request-timeout S] [--timeout S] [--cafile FILE] URL|DIR",
	.description =
		"Export each run of the store (--db) that was not sent yet into\n"
		"outbox/HOST/RUN-UUID.kbench beside the store, then upload every bundle of\n"
		"the outbox to URL|DIR/HOST/RUN-UUID.kbench: a WebDAV PUT under a temporary\n"
		"name then MOVE, or a copy into the directory then rename. A bundle that\n"
		"could not be sent stays in the outbox for the next upload; one sent is\n"
		"removed and remembered in sent/ beside the store. Fleet jobs run this\n"
		"after their run; run it by hand to retry.",
	.help_column = 22,
	.epilogue = "No request starts after --timeout: a server that accepts and never answers\n"
		    "costs at most --stall-timeout a try.\n"
		    FLEET_DEFAULTS_HELP
		    "Credentials: KBENCH_UPLOAD_USER and KBENCH_UPLOAD_PASSWORD, else netrc.\n"
		    "Exit status: 0 everything sent, 1 a bundle is left, 2 bad arguments.",
};

/* Export the runs of the store at path (none yet: nothing to do) that
 * were not sent. */
static int export_new_runs(const char *path, const char *outbox, const char *sent)
{
	struct store *s = NULL;
	struct stat st;
	int rc;

	if (stat(path, &st))
		return 0;	/* no run yet */
	/* As a writer, though nothing is written: store_export may attach its
	 * new bundle to this connection to fill it. */
	if (cmd_open_store(&s, CMD_STORE_WRITE))
		return -1;
	rc = fleet_export_new_runs(s, outbox, sent);
	store_close(s);
	return rc;
}

static void print_uploaded(const char *host, const char *file, void *arg)
{
	printf("uploaded %s/%s to %s\n", host, file, (const char *)arg);
}

static int cmd_upload(int argc, char **argv)
{
	struct net_limits limits = { .tries = 0 };
	struct fleet_defaults defaults;
	struct http_options net;
	const struct parse_opt options[] = {
		NET_LIMIT_OPTIONS(&limits, "upload", "600"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct strbuf store_path = STRBUF_INIT, base = STRBUF_INIT;
	struct strbuf outbox = STRBUF_INIT, sent = STRBUF_INIT, shown = STRBUF_INIT;
	const char *slash;
	int rc = EXIT_USAGE;

	fleet_defaults_init(&defaults);
	if (cmd_parse_options(&argc, argv, options, &upload_usage, &rc))
		goto out;
	if (argc != 1 || !*argv[0]) {
		error(argc > 1 ? "upload takes one URL or directory" :
		      "upload needs the results URL or directory");
		parse_opt_usage_print(&upload_usage, options, stderr);
		goto out;
	}
	rc = 1;
	if (fleet_defaults_load(&defaults, &limits, "upload-timeout") ||
	    check_cafile(&defaults, &limits))
		goto out;
	cmd_store_path(&store_path);
	slash = strrchr(store_path.buf, '/');
	if (slash)
		strbuf_add(&base, store_path.buf, (size_t)(slash - store_path.buf) + 1);
	strbuf_addf(&outbox, "%soutbox", base.buf);
	strbuf_addf(&sent, "%ssent", base.buf);
	/* Both steps always: a run that cannot be exported does not keep
	 * waiting bundles from leaving. */
	rc = export_new_runs(store_path.buf, outbox.buf, sent.buf) ? 1 : 0;
	http_url_redact(&shown, argv[0]);
	net_options(&limits, FLEET_UPLOAD_TIMEOUT_S, &net);
	if (fleet_send_outbox(outbox.buf, sent.buf, argv[0], &net, print_uploaded, shown.buf))
		rc = 1;
	if (fflush(stdout))
		rc = 1;
out:
	fleet_defaults_release(&defaults);
	strbuf_release(&store_path);
	strbuf_release(&base);
	strbuf_release(&outbox);
	strbuf_release(&sent);
	strbuf_release(&shown);
	return rc;
}

/* ---- collect ---- */

static const struct parse_opt_usage collect_usage = {
	.synopsis = "kbench fleet collect [--since DATE] [--report] [--report-html FILE]\n"
		    "       [--dry-run] [--tries N] [--connect-timeout S] [--stall-timeout S]\n"
		    "       [--request-timeout S] [--timeout S] [--cafile FILE] URL|DIR",
	.description =
		"Import into the store the bundles of URL|DIR/HOST/ not collected before\n"
		"(a WebDAV PROPFIND listing, or the directory), then print a summary per\n"
		"host. Imports are idempotent by run uuid; what was collected is recorded\n"
		"in the store, so each bundle is fetched once.",
	.help_column = 22,
	.epilogue = "--report then prints 'kbench regressions' for each host of URL|DIR and\n"
		    "compares the newest runs with the ones before them on every host;\n"
		    "--report-html writes the same as one HTML page (with plots) to FILE.\n"
		    FLEET_DEFAULTS_HELP
		    "Exit status: 0 done, 1 a bundle could not be collected or (--report) a\n"
		    "regression was found, 2 bad arguments.",
};

/* DATE (YYYY-MM-DD, optionally THH:MM or THH:MM:SS, UTC) as seconds. */
static int parse_since(const char *s, int64_t *t)
{
	struct tm tm = { 0 }, back;
	char *end;
	time_t v;

	end = strptime(s, "%Y-%m-%d", &tm);
	if (end && (*end == 'T' || *end == ' ') && end[1]) {
		char *more = strptime(end + 1, "%H:%M:%S", &tm);

		end = more ? more : strptime(end + 1, "%H:%M", &tm);
	}
	if (end && *end == 'Z')
		end++;
	if (!end || *end)
		return -1;
	back = tm;
	v = timegm(&back);
	if (v == (time_t)-1 || back.tm_mday != tm.tm_mday)
		return -1;
	*t = (int64_t)v;
	return 0;
}

/* --since of collect: DATE, into the struct fleet_collect opt->value
 * (since, since_set) as it is parsed. */
static int parse_collect_since(const struct parse_opt *opt, const char *value)
{
	struct fleet_collect *c = opt->value;

	if (parse_since(value, &c->since))
		return error("invalid value '%s' for '--since': expected YYYY-MM-DD[THH:MM[:SS]]",
			     value);
	c->since_set = 1;
	return 0;
}

static void print_summary(struct store *s, const struct fleet_collect *c)
{
	struct fleet_newest n = { .name = NULL };
	int w = 4;

	for (size_t i = 0; i < c->nhosts; i++)
		if ((int)strlen(c->hosts[i].host) > w)
			w = (int)strlen(c->hosts[i].host);
	printf("%-*s  %7s  %5s  %10s  %s\n", w, "host", "bundles", "new", "runs added",
	       "newest run");
	for (size_t i = 0; i < c->nhosts; i++) {
		const struct fleet_host_count *h = &c->hosts[i];

		fleet_newest_release(&n);
		fleet_newest_run(s, h->host, NULL, &n);
		printf("%-*s  %7zu  %5zu  %10zu  %s%s%s\n", w, h->host, h->listed, h->fetched,
		       h->runs, n.name ? n.name : "-", n.name ? "  " : "",
		       n.started_at ? n.started_at : "");
	}
	fleet_newest_release(&n);
}

static void print_would_collect(const char *rel, void *arg)
{
	(void)arg;
	printf("would collect %s\n", rel);
}

static int cmd_collect(int argc, char **argv)
{
	struct fleet_collect c = { .would_collect = print_would_collect };
	int do_report = 0, dry_run = 0;
	const char *report_html = NULL;
	struct net_limits limits = { .tries = 0 };
	struct fleet_defaults defaults;
	struct http_options net;
	const struct parse_opt options[] = {
		OPT_CALLBACK(0, "since", &c, "DATE",
			     "only bundles uploaded at or after DATE\n"
			     "(YYYY-MM-DD[THH:MM[:SS]], UTC)", parse_collect_since),
		OPT_BOOL(0, "report", &do_report,
			 "then regressions and comparisons per host"),
		OPT_CALLBACK(0, "report-html", &report_html, "FILE",
			     "--report, and the same as an HTML page in FILE", output_parse_path),
		OPT_BOOL(0, "dry-run", &dry_run, "list what would be collected, change nothing"),
		NET_LIMIT_OPTIONS(&limits, "collect", "3600"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct fleet_bundle_list bundles = FLEET_BUNDLE_LIST_INIT;
	struct strbuf key = STRBUF_INIT;
	struct store *s = NULL;
	size_t nnew = 0, nfailed = 0, nruns = 0, npresent = 0, ncycles = 0;
	int64_t nsamples = 0;
	int rc = EXIT_USAGE;

	fleet_defaults_init(&defaults);
	if (cmd_parse_options(&argc, argv, options, &collect_usage, &rc))
		goto out;
	if (argc != 1 || !*argv[0]) {
		error(argc > 1 ? "collect takes one URL or directory" :
		      "collect needs the results URL or directory");
		parse_opt_usage_print(&collect_usage, options, stderr);
		goto out;
	}
	rc = 1;
	if (fleet_defaults_load(&defaults, &limits, "collect-timeout") ||
	    check_cafile(&defaults, &limits))
		goto out;
	net_options(&limits, FLEET_COLLECT_TIMEOUT_S, &net);
	if (fleet_results_key(argv[0], &key) || fleet_list_bundles(argv[0], &net, &bundles))
		goto out;
	if (dry_run) {
		/* No store yet: everything would be collected. */
		struct strbuf path = STRBUF_INIT;
		struct stat st;
		int missing;

		cmd_store_path(&path);
		missing = stat(path.buf, &st) && errno == ENOENT;
		strbuf_release(&path);
		if (!missing && cmd_open_store(&s, CMD_STORE_READ))
			goto out;
	} else if (cmd_open_store(&s, CMD_STORE_WRITE)) {
		goto out;
	}
	c.results = argv[0];
	c.key = key.buf;
	c.net = &net;
	c.dry_run = dry_run;
	if (fleet_collect_bundles(s, &bundles, &c))
		goto out;
	for (size_t i = 0; i < c.nhosts; i++) {
		nnew += c.hosts[i].fetched;
		nfailed += c.hosts[i].failed;
		nruns += c.hosts[i].runs;
		nsamples += c.hosts[i].samples;
		npresent += c.hosts[i].present;
		ncycles += c.hosts[i].cycles;
	}
	if (dry_run) {
		rc = fflush(stdout) ? 1 : 0;
		goto out;
	}
	if (c.nhosts)
		print_summary(s, &c);
	printf("%s: %zu new bundle%s, %zu run%s added (%lld samples)", key.buf, nnew,
	       nnew == 1 ? "" : "s", nruns, nruns == 1 ? "" : "s", (long long)nsamples);
	if (npresent)
		printf(", %zu already in the store", npresent);
	if (ncycles)
		printf(", %zu watch cycle%s", ncycles, ncycles == 1 ? "" : "s");
	if (nfailed)
		printf("; %zu bundle%s could not be collected", nfailed, nfailed == 1 ? "" : "s");
	putchar('\n');
	rc = nfailed ? 1 : 0;
	if (do_report || report_html) {
		struct strbuf page = STRBUF_INIT;
		int r = fleet_report(s, key.buf, report_html ? &page : NULL);

		if (r < 0 || r == 1 || (report_html && r >= 0 && output_write(report_html, &page)))
			rc = 1;
		strbuf_release(&page);
	}
	if (fflush(stdout))
		rc = 1;
out:
	fleet_defaults_release(&defaults);
	fleet_collect_release(&c);
	fleet_bundle_list_release(&bundles);
	store_close(s);
	strbuf_release(&key);
	return rc;
}

/* ---- dispatch ---- */

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} subcommands[] = {
	{ .name = "submit", .fn = cmd_submit },
	{ .name = "schedule", .fn = cmd_schedule },
	{ .name = "unschedule", .fn = cmd_unschedule },
	{ .name = "status", .fn = cmd_status },
	{ .name = "collect", .fn = cmd_collect },
	{ .name = "upload", .fn = cmd_upload },
};

/* The subcommand being typed (kbench __complete). */
static void complete_subcommands(struct parse_opt_complete *c)
{
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		parse_opt_complete_add(c, subcommands[i].name);
}

int cmd_fleet(int argc, char **argv)
{
	const struct parse_opt options[] = {
		OPT_HELP(NULL),
		OPT_END(),
	};
	struct parse_opt_usage usage = fleet_usage;

	usage.complete_args = complete_subcommands;
	if (argc < 2 || argv[1][0] == '-' || (argc == 2 && parse_options_completing())) {
		int rc = parse_options(argc, argv, options, &usage,
				       PARSE_OPT_STOP_AT_NON_OPTION);

		if (rc == PARSE_OPT_HELP)
			return 0;
		if (rc >= 0) {
			error("fleet needs a command");
			parse_opt_usage_print(&fleet_usage, options, stderr);
		}
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);
	}
	error("'%s' is not a kbench fleet command; see 'kbench fleet --help'", argv[1]);
	return EXIT_USAGE;
}
