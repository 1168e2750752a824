/* cmd_fleet: kbench fleet submit|schedule|unschedule|status|collect|upload:
 * runs on the nodes of a Slurm cluster, their bundles uploaded to a results
 * location and collected into the store (harness/fleet.c does the work). */
#include "config.h"
#include "harness/cmd.h"
#include "harness/fleet.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/http.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* How long kbench's own commands (compare, regressions) may take. */
#define KBENCH_CHILD_TIMEOUT_S 600

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

/* ---- submit and schedule ---- */

struct submit_opts {
	struct opt_list configs;
	const char *name, *nodes, *partition, *begin, *results, *kbench, *db_dir, *daily;
	int all, dry_run, node_names;
};

static const struct parse_opt_usage submit_usage = {
	.synopsis = "kbench fleet submit -c CONFIG... [-n NAME] [--nodes LIST | --partition P | --all]\n"
		    "       [--begin TIME] [--results URL|DIR] [--kbench PATH] [--db-dir DIR]\n"
		    "       [--node-names] [--dry-run]",
	.description =
		"Submit one job to each node (sbatch --exclusive --nodelist=NODE): it runs\n"
		"the configs (carried in the job's script) with 'kbench run' into the store\n"
		"DIR/kbench.db on its node, then 'kbench fleet upload' exports the run and\n"
		"uploads its bundle to RESULTS/HOST/RUN-UUID.kbench. The configs and NAME\n"
		"are checked here first. Without --nodes or --partition: every node.",
	.help_column = 24,
	.epilogue = "Exit status: 0 every job submitted, 1 a submission failed, 2 bad arguments\n"
		    "or config.",
};

static const struct parse_opt_usage schedule_usage = {
	.synopsis = "kbench fleet schedule --daily HH:MM -c CONFIG... [-n NAME] [--nodes LIST |\n"
		    "       --partition P | --all] [--begin TIME] [--results URL|DIR] [--kbench PATH]\n"
		    "       [--db-dir DIR] [--node-names] [--dry-run]",
	.description =
		"Submit a chain of jobs to each node, as 'submit' does, that runs every day\n"
		"at HH:MM (the nodes' local time): each job first queues the next one with\n"
		"--begin=HH:MM, then runs, so that a night that fails or is missed (a node\n"
		"down) does not end the chain. The chain is named kbench-daily-NAME (NAME,\n"
		"else the configs' names); 'kbench fleet unschedule NAME' ends it.\n"
		"The first job starts at the next HH:MM, or at --begin. A node where the\n"
		"chain has a pending job already is left as it is.",
	.help_column = 24,
	.epilogue = "Exit status: 0 every chain started, 1 a submission failed, 2 bad arguments\n"
		    "or config.",
};

/* The name a chain or job is known by: NAME, else the configs' names as
 * kbench run stores them ("a+b"), with what Slurm and a shell would not
 * take replaced by '_'. */
static void job_label(const struct submit_opts *o, struct strbuf *out)
{
	if (o->name) {
		strbuf_addstr(out, o->name);
	} else {
		for (size_t i = 0; i < o->configs.n; i++) {
			const char *base = strrchr(o->configs.v[i], '/');
			size_t len;

			base = base ? base + 1 : o->configs.v[i];
			len = strlen(base);
			if (len > 5 && !strcmp(base + len - 5, ".conf"))
				len -= 5;
			if (i)
				strbuf_addch(out, '+');
			strbuf_add(out, base, len);
		}
	}
	for (size_t i = 0; i < out->len; i++) {
		char c = out->buf[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr("._+-", c)))
			out->buf[i] = '_';
	}
}

/* The path of the running kbench, for the nodes and for running it here. */
static int self_path(struct strbuf *out)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0)
		return error("cannot find the kbench binary (/proc/self/exe): %s",
			     n < 0 ? strerror(errno) : "empty");
	strbuf_add(out, buf, (size_t)n);
	return 0;
}

/* Check the configs and the run name as the nodes will: kbench run
 * --dry-run, whose messages go to stderr. Returns its exit status. */
static int check_run_args(const struct submit_opts *o)
{
	struct strbuf self = STRBUF_INIT, plan = STRBUF_INIT;
	const char **argv = xcalloc(2 * o->configs.n + 6, sizeof(*argv));
	size_t n = 0;
	int status = 1;

	if (self_path(&self))
		goto out;
	argv[n++] = self.buf;
	argv[n++] = "run";
	argv[n++] = "--dry-run";
	if (o->name) {
		argv[n++] = "-n";
		argv[n++] = o->name;
	}
	for (size_t i = 0; i < o->configs.n; i++) {
		argv[n++] = "-c";
		argv[n++] = o->configs.v[i];
	}
	status = fleet_command(argv, KBENCH_CHILD_TIMEOUT_S, &plan, NULL);
	if (status < 0)
		status = 1;
out:
	free(argv);
	strbuf_release(&self);
	strbuf_release(&plan);
	return status;
}

static void default_db_dir(struct strbuf *out)
{
	const struct passwd *pw = getpwuid(geteuid());

	strbuf_addstr(out, "/var/tmp/kbench-fleet");
	if (pw && pw->pw_name && *pw->pw_name)
		strbuf_addf(out, "-%s", pw->pw_name);
}

static int submit_or_schedule(int argc, char **argv, int daily)
{
	struct submit_opts o = { .configs = OPT_LIST_INIT };
	const struct parse_opt options[] = {
		OPT_STRING(0, "daily", &o.daily, "HH:MM",
			   "run every day at this time (nodes' local time)"),
		OPT_STRING_LIST('c', "config", &o.configs, "FILE",
				"an INI config (repeatable), carried in the job"),
		OPT_STRING('n', "name", &o.name, "NAME",
			   "the runs' name (default: each node's uname -r)"),
		OPT_STRING(0, "nodes", &o.nodes, "LIST",
			   "these nodes (n1,n2 or Slurm's n[1-4])"),
		OPT_STRING(0, "partition", &o.partition, "P",
			   "the nodes of partition P, which the jobs use"),
		OPT_BOOL(0, "all", &o.all, "every node Slurm knows (the default)"),
		OPT_STRING(0, "begin", &o.begin, "TIME",
			   "start no earlier than TIME (sbatch --begin: 02:00,\n"
			   "now+60, 2026-12-01T02:00, ...)"),
		OPT_STRING(0, "results", &o.results, "URL|DIR",
			   "where the nodes upload bundles: a WebDAV URL or a\n"
			   "shared directory (default: they stay on the nodes)"),
		OPT_STRING(0, "kbench", &o.kbench, "PATH",
			   "kbench on the nodes (default: this binary's path)"),
		OPT_STRING(0, "db-dir", &o.db_dir, "DIR",
			   "the nodes' directory for the store and outgoing\n"
			   "bundles (default: /var/tmp/kbench-fleet-USER);\n"
			   "%n in it stands for the node's name"),
		OPT_BOOL(0, "node-names", &o.node_names,
			 "record runs under the Slurm node name, not the\n"
			 "host name (nodes simulated on one machine)"),
		OPT_BOOL(0, "dry-run", &o.dry_run,
			 "print the job's script and the sbatch commands"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	const struct parse_opt *opts = daily ? options : options + 1;
	const struct parse_opt_usage *usage = daily ? &schedule_usage : &submit_usage;
	struct strbuf label = STRBUF_INIT, job_name = STRBUF_INIT, script = STRBUF_INIT;
	struct strbuf kbench = STRBUF_INIT, db_dir = STRBUF_INIT, id = STRBUF_INIT;
	struct strbuf ids = STRBUF_INIT;
	struct fleet_names nodes = FLEET_NAMES_INIT, pending = FLEET_NAMES_INIT;
	struct fleet_names labels = FLEET_NAMES_INIT, on_nodes = FLEET_NAMES_INIT;
	struct fleet_job job;
	const char *begin;
	size_t failed = 0, skipped = 0;
	int rc = EXIT_USAGE;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc < 0) {
		rc = argc == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
		goto out;
	}
	if (argc > 0) {
		error("unexpected argument '%s' (configs are given with -c)", argv[0]);
		goto out;
	}
	if (daily && !o.daily) {
		error("schedule needs --daily HH:MM");
		parse_opt_usage_print(usage, opts, stderr);
		goto out;
	}
	if (daily && !fleet_valid_daily(o.daily)) {
		error("invalid value '%s' for '--daily': expected HH:MM, 00:00 to 23:59", o.daily);
		goto out;
	}
	if (!o.configs.n) {
		error("no config given: use -c FILE");
		parse_opt_usage_print(usage, opts, stderr);
		goto out;
	}
	if (o.all && (o.nodes || o.partition)) {
		error("--all cannot be combined with %s", o.nodes ? "--nodes" : "--partition");
		goto out;
	}
	if (o.results && !*o.results) {
		error("option '--results' needs a URL or a directory, not an empty string");
		goto out;
	}
	rc = check_run_args(&o);
	if (rc)
		goto out;
	rc = 1;
	if (o.results) {
		http_url_redact(&id, o.results);
		if (strcmp(id.buf, o.results))
			warning("the credentials in '--results' go into the job's script, which "
				"Slurm keeps: give them to the nodes in ~/.netrc instead");
		strbuf_reset(&id);
	}
	job_label(&o, &label);
	strbuf_addf(&job_name, "%s%s", daily ? FLEET_DAILY_PREFIX : FLEET_JOB_PREFIX, label.buf);
	if (o.kbench)
		strbuf_addstr(&kbench, o.kbench);
	else if (self_path(&kbench))
		goto out;
	if (o.db_dir)
		strbuf_addstr(&db_dir, o.db_dir);
	else
		default_db_dir(&db_dir);
	job = (struct fleet_job) {
		.job_name = job_name.buf,
		.run_name = o.name,
		.configs = o.configs.v,
		.nconfigs = o.configs.n,
		.results = o.results,
		.kbench = kbench.buf,
		.db_dir = db_dir.buf,
		.partition = o.partition,
		.daily = daily ? o.daily : NULL,
		.node_names = o.node_names,
	};
	if (fleet_job_script(&job, &script))
		goto out;
	begin = o.begin ? o.begin : daily ? o.daily : NULL;
	if (o.dry_run && o.nodes && !strchr(o.nodes, '[')) {
		/* Nothing of Slurm is needed to show what would be submitted. */
		if (fleet_nodes(o.nodes, NULL, &nodes))
			goto out;
	} else if (fleet_nodes(o.nodes, o.partition, &nodes)) {
		goto out;
	}
	if (o.dry_run) {
		fputs(script.buf, stdout);
		for (size_t i = 0; i < nodes.n; i++) {
			strbuf_reset(&id);
			fleet_submit_cmdline(nodes.v[i], begin, "SCRIPT", &id);
			printf("# %s\n", id.buf);
		}
		rc = fflush(stdout) ? 1 : 0;
		goto out;
	}
	/* A chain twice on a node would run twice a night: a node that has
	 * one keeps it, so that scheduling again mends the chain of a node
	 * that lost it and leaves the others alone. */
	if (daily && fleet_chain_jobs(job_name.buf, "PENDING", &pending, &labels, &on_nodes))
		goto out;
	for (size_t i = 0; i < nodes.n; i++) {
		size_t k;

		for (k = 0; k < on_nodes.n && strcmp(on_nodes.v[k], nodes.v[i]); k++)
			;
		if (k < on_nodes.n) {
			warning("chain '%s' is scheduled on %s already (job %s is pending): left as it is",
				job_name.buf, nodes.v[i], pending.v[k]);
			skipped++;
			continue;
		}
		strbuf_reset(&id);
		if (fleet_submit(script.buf, nodes.v[i], begin, &id)) {
			failed++;
			continue;
		}
		printf("submitted job %s (%s) to %s\n", id.buf, job_name.buf, nodes.v[i]);
		strbuf_addf(&ids, "%s%s", ids.len ? ", " : "", id.buf);
	}
	if (daily && ids.len)
		printf("chain '%s' runs daily at %s%s%s; 'kbench fleet unschedule %s' ends it\n",
		       job_name.buf, o.daily, o.begin ? ", first at " : "", o.begin ? o.begin : "",
		       label.buf);
	if (skipped == nodes.n)
		error("chain '%s' is scheduled on every node given already: 'kbench fleet "
		      "unschedule %s' ends it", job_name.buf, label.buf);
	rc = failed || skipped == nodes.n ? 1 : 0;
	if (fflush(stdout))
		rc = 1;
out:
	opt_list_release(&o.configs);
	strbuf_release(&label);
	strbuf_release(&job_name);
	strbuf_release(&script);
	strbuf_release(&kbench);
	strbuf_release(&db_dir);
	strbuf_release(&id);
	strbuf_release(&ids);
	fleet_names_release(&nodes);
	fleet_names_release(&pending);
	fleet_names_release(&labels);
	fleet_names_release(&on_nodes);
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
	.synopsis = "kbench fleet unschedule NAME | --all",
	.description =
		"End the daily chain NAME (kbench-daily-NAME, as 'schedule' printed it):\n"
		"cancel its pending jobs on every node. A job running now finishes; it\n"
		"queued its successor when it started, and that one is cancelled.",
	.help_column = 22,
	.epilogue = "Exit status: 0 jobs cancelled, 1 none pending or an error, 2 bad arguments.",
};

static int cmd_unschedule(int argc, char **argv)
{
	int all = 0;
	const struct parse_opt options[] = {
		OPT_BOOL(0, "all", &all, "every kbench chain"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct strbuf job_name = STRBUF_INIT;
	size_t n = 0;
	int rc = EXIT_USAGE;

	argc = parse_options(argc, argv, options, &unschedule_usage, 0);
	if (argc < 0) {
		rc = argc == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
		goto out;
	}
	if ((argc != 1 && !all) || (argc && all)) {
		error(all ? "unschedule --all takes no NAME" :
		      argc ? "unschedule takes one NAME" : "unschedule needs the chain's NAME or --all");
		parse_opt_usage_print(&unschedule_usage, options, stderr);
		goto out;
	}
	rc = 1;
	if (!all) {
		struct submit_opts o = { .configs = OPT_LIST_INIT, .name = argv[0] };

		/* NAME as schedule printed it, or as given to it. */
		if (!strncmp(argv[0], FLEET_DAILY_PREFIX, strlen(FLEET_DAILY_PREFIX)))
			o.name = argv[0] + strlen(FLEET_DAILY_PREFIX);
		strbuf_addstr(&job_name, FLEET_DAILY_PREFIX);
		job_label(&o, &job_name);
	}
	if (fleet_cancel_pending(all ? NULL : job_name.buf, &n))
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
		"jobcomp log): their nodes, times and results. A finished job's result is\n"
		"its run in this store once collected, else its exit status.",
	.help_column = 22,
};

/* A collected run of a job, known by its note. */
struct job_run {
	char *job_id;
	int64_t run_id;
	char uuid[9];
	char *name;
};

struct job_runs {
	struct job_run *v;
	size_t n, alloc;
};

static int note_job_run(const struct run_info *r, void *arg)
{
	static const char prefix[] = "kbench fleet: Slurm job ";
	struct job_runs *l = arg;
	const char *p = r->notes ? strstr(r->notes, prefix) : NULL;
	size_t len;

	if (!p)
		return 0;
	p += sizeof(prefix) - 1;
	len = strspn(p, "0123456789");
	if (!len || strncmp(p + len, " on node ", 9))
		return 0;
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n].job_id = xstrndup(p, len);
	l->v[l->n].run_id = r->id;
	snprintf(l->v[l->n].uuid, sizeof(l->v[l->n].uuid), "%.8s", r->uuid);
	l->v[l->n].name = xstrdup(r->name);
	l->n++;
	return 0;
}

/* The runs of fleet jobs in the store, if there is a store. */
static void read_job_runs(struct job_runs *l)
{
	struct strbuf path = STRBUF_INIT;
	struct store *s = NULL;
	struct stat st;

	if (global_opts.db)
		strbuf_addstr(&path, global_opts.db);
	else
		store_default_path(&path);
	if (!stat(path.buf, &st) && !cmd_open_store(&s, CMD_STORE_READ))
		store_each_run(s, NULL, note_job_run, l);
	store_close(s);
	strbuf_release(&path);
}

static const struct job_run *find_job_run(const struct job_runs *l, const char *job_id)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].job_id, job_id))
			return &l->v[i];
	return NULL;
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
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
	struct job_runs runs = { .n = 0 };
	struct strbuf result = STRBUF_INIT;
	int wid = 3, wname = 4, wstate = 5, wnode = 4, rc = EXIT_USAGE;

	argc = parse_options(argc, argv, options, &status_usage, 0);
	if (argc < 0) {
		rc = argc == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
		goto out;
	}
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
			if ((l = (int)strlen(j->name)) > wname)
				wname = l;
			if ((l = (int)strlen(j->state)) > wstate)
				wstate = l;
			if ((l = (int)strlen(or_dash(j->nodes))) > wnode)
				wnode = l;
		}
		printf("%-*s  %-*s  %-*s  %-*s  %-19s  %-19s  %s\n", wid, "job", wname, "name",
		       wstate, "state", wnode, "node", "start", "end", "result");
	}
	for (size_t i = 0; i < jobs.n; i++) {
		const struct fleet_job_state *j = &jobs.v[i];
		const struct job_run *r = find_job_run(&runs, j->id);

		strbuf_reset(&result);
		if (r)
			strbuf_addf(&result, "run #%lld %s (%s) collected", (long long)r->run_id,
				    r->name, r->uuid);
		else if (!strcmp(j->state, "PENDING"))
			strbuf_addf(&result, "waits (%s)", or_dash(j->reason));
		else if (!strcmp(j->state, "RUNNING"))
			strbuf_addf(&result, "uploads to %s", or_dash(j->comment));
		else if (*j->exit_code && strcmp(j->exit_code, "0:0"))
			strbuf_addf(&result, "exit %s", j->exit_code);
		else if (!strcmp(j->state, "COMPLETED"))
			strbuf_addstr(&result, "not collected yet");
		else
			strbuf_addch(&result, '-');
		printf("%-*s  %-*s  %-*s  %-*s  %-19s  %-19s  %s\n", wid, j->id, wname, j->name,
		       wstate, j->state, wnode, or_dash(j->nodes), or_dash(j->start),
		       or_dash(j->end), result.buf);
	}
	if (jobs.no_history)
		printf("(finished jobs unknown: Slurm keeps neither accounting nor a jobcomp log)\n");
	rc = fflush(stdout) ? 1 : 0;
out:
	for (size_t i = 0; i < runs.n; i++) {
		free(runs.v[i].job_id);
		free(runs.v[i].name);
	}
	free(runs.v);
	fleet_job_list_release(&jobs);
	strbuf_release(&result);
	return rc;
}

/* ---- upload (what a job runs on its node) ---- */

static const struct parse_opt_usage upload_usage = {
	.synopsis = "kbench fleet upload [--tries N] URL|DIR",
	.description =
		"Export each run of the store (--db) that was not sent yet into\n"
		"outbox/HOST/RUN-UUID.kbench beside the store, then upload every bundle of\n"
		"the outbox to URL|DIR/HOST/RUN-UUID.kbench: a WebDAV PUT under a temporary\n"
		"name then MOVE, or a copy into the directory then rename. A bundle that\n"
		"could not be sent stays in the outbox for the next upload; one sent is\n"
		"removed and remembered in sent/ beside the store. Fleet jobs run this\n"
		"after their run; run it by hand to retry.",
	.help_column = 22,
	.epilogue = "Credentials: KBENCH_UPLOAD_USER and KBENCH_UPLOAD_PASSWORD, else netrc.\n"
		    "Exit status: 0 everything sent, 1 a bundle is left, 2 bad arguments.",
};

/* A run to export: its id, uuid and host. */
struct pending_run {
	int64_t id;
	char uuid[40];
	char *host;
};

struct pending_runs {
	struct pending_run *v;
	size_t n, alloc;
};

/* A host name as a directory name: no '/', not hidden. */
static void host_dir(struct strbuf *out, const char *host)
{
	size_t start = out->len;

	strbuf_addstr(out, *host ? host : "unknown");
	if (out->buf[start] == '.')
		out->buf[start] = '_';
	for (size_t i = start; i < out->len; i++)
		if (out->buf[i] == '/')
			out->buf[i] = '_';
}

static int collect_run(const struct run_info *r, void *arg)
{
	struct pending_runs *l = arg;

	if (!strcmp(r->status, "running"))
		return 0;	/* exported once it has finished */
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n].id = r->id;
	snprintf(l->v[l->n].uuid, sizeof(l->v[l->n].uuid), "%s", r->uuid);
	l->v[l->n].host = xstrdup(r->hostname);
	l->n++;
	return 0;
}

static int mkdir_p(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	strbuf_addstr(&sb, dir);
	for (char *p = sb.buf + 1;; p++) {
		char c = *p;

		if (c && c != '/')
			continue;
		*p = '\0';
		if (mkdir(sb.buf, 0755) && errno != EEXIST) {
			rc = error("cannot create directory '%s': %s", sb.buf, strerror(errno));
			break;
		}
		*p = c;
		if (!c)
			break;
	}
	strbuf_release(&sb);
	return rc;
}

/* Export the runs of the store not sent and not in the outbox yet. */
static int export_new_runs(const char *store_path, const char *outbox, const char *sent)
{
	struct pending_runs runs = { .n = 0 };
	struct strbuf path = STRBUF_INIT, dir = STRBUF_INIT;
	struct store *s = NULL;
	struct stat st;
	int rc = 0;

	if (stat(store_path, &st))
		return 0;	/* no run yet */
	/* As a writer, though nothing is written: store_export may attach its
	 * new bundle to this connection to fill it. */
	if (cmd_open_store(&s, CMD_STORE_WRITE) || store_each_run(s, NULL, collect_run, &runs)) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < runs.n; i++) {
		const struct pending_run *r = &runs.v[i];

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", sent, r->uuid);
		if (!lstat(path.buf, &st))
			continue;
		strbuf_reset(&dir);
		strbuf_addf(&dir, "%s/", outbox);
		host_dir(&dir, r->host);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s.kbench", dir.buf, r->uuid);
		if (!lstat(path.buf, &st))
			continue;
		if (mkdir_p(dir.buf) || store_export(s, &r->id, 1, path.buf))
			rc = -1;
	}
out:
	for (size_t i = 0; i < runs.n; i++)
		free(runs.v[i].host);
	free(runs.v);
	store_close(s);
	strbuf_release(&path);
	strbuf_release(&dir);
	return rc;
}

/* Create the empty file path (or leave it as it is). */
static int touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	return fd < 0 || close(fd) ? -1 : 0;
}

/* Upload every bundle of the outbox; -1 when one is left. */
static int send_outbox(const char *outbox, const char *sent, const char *results, int tries)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, mark = STRBUF_INIT;
	struct strbuf shown = STRBUF_INIT;
	struct fleet_names hosts = FLEET_NAMES_INIT;
	DIR *top = opendir(outbox), *d;
	struct dirent *e;
	int rc = 0;

	if (!top)
		return errno == ENOENT ? 0 : error("cannot list '%s': %s", outbox, strerror(errno));
	while ((e = readdir(top)))
		if (e->d_name[0] != '.')
			fleet_names_add(&hosts, e->d_name);
	closedir(top);
	http_url_redact(&shown, results);
	for (size_t i = 0; i < hosts.n; i++) {
		struct fleet_names files = FLEET_NAMES_INIT;

		strbuf_reset(&dir);
		strbuf_addf(&dir, "%s/%s", outbox, hosts.v[i]);
		d = opendir(dir.buf);
		if (!d)
			continue;
		while ((e = readdir(d)))
			if (fleet_is_bundle_name(e->d_name))
				fleet_names_add(&files, e->d_name);
		closedir(d);
		for (size_t k = 0; k < files.n; k++) {
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s", dir.buf, files.v[k]);
			if (fleet_put_bundle(results, hosts.v[i], files.v[k], path.buf, tries)) {
				warning("kept '%s' for the next upload", path.buf);
				rc = -1;
				continue;
			}
			printf("uploaded %s/%s to %s\n", hosts.v[i], files.v[k], shown.buf);
			/* Remembered as sent before it leaves the outbox. */
			strbuf_reset(&mark);
			strbuf_addf(&mark, "%s/%.36s", sent, files.v[k]);
			if (mkdir_p(sent) || touch(mark.buf) || unlink(path.buf)) {
				error("cannot move '%s' out of the outbox: %s", path.buf,
				      strerror(errno));
				rc = -1;
			}
		}
		fleet_names_release(&files);
	}
	fleet_names_release(&hosts);
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&mark);
	strbuf_release(&shown);
	return rc;
}

static int cmd_upload(int argc, char **argv)
{
	int tries = 0;
	const struct parse_opt options[] = {
		OPT_INT_RANGE(0, "tries", &tries, "N",
			      "tries of each request, with a doubling pause\n"
			      "from 1 s between them (default 4)", 1, 100),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct strbuf store_path = STRBUF_INIT, base = STRBUF_INIT;
	struct strbuf outbox = STRBUF_INIT, sent = STRBUF_INIT;
	const char *slash;
	int rc = EXIT_USAGE;

	argc = parse_options(argc, argv, options, &upload_usage, 0);
	if (argc < 0) {
		rc = argc == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
		goto out;
	}
	if (argc != 1 || !*argv[0]) {
		error(argc > 1 ? "upload takes one URL or directory" :
		      "upload needs the results URL or directory");
		parse_opt_usage_print(&upload_usage, options, stderr);
		goto out;
	}
	rc = 1;
	if (global_opts.db)
		strbuf_addstr(&store_path, global_opts.db);
	else
		store_default_path(&store_path);
	slash = strrchr(store_path.buf, '/');
	if (slash)
		strbuf_add(&base, store_path.buf, (size_t)(slash - store_path.buf) + 1);
	strbuf_addf(&outbox, "%soutbox", base.buf);
	strbuf_addf(&sent, "%ssent", base.buf);
	/* Both steps always: a run that cannot be exported does not keep
	 * waiting bundles from leaving. */
	rc = export_new_runs(store_path.buf, outbox.buf, sent.buf) ? 1 : 0;
	if (send_outbox(outbox.buf, sent.buf, argv[0], tries))
		rc = 1;
	if (fflush(stdout))
		rc = 1;
out:
	strbuf_release(&store_path);
	strbuf_release(&base);
	strbuf_release(&outbox);
	strbuf_release(&sent);
	return rc;
}

/* ---- collect ---- */

static const struct parse_opt_usage collect_usage = {
	.synopsis = "kbench fleet collect [--since DATE] [--report] [--dry-run] URL|DIR",
	.description =
		"Import into the store the bundles of URL|DIR/HOST/ not collected before\n"
		"(a WebDAV PROPFIND listing, or the directory), then print a summary per\n"
		"host. Imports are idempotent by run uuid; what was collected is recorded\n"
		"in the store, so each bundle is fetched once.",
	.help_column = 22,
	.epilogue = "--report then prints 'kbench regressions' for each host of URL|DIR and\n"
		    "compares the newest runs with the ones before them on every host.\n"
		    "Exit status: 0 done, 1 a bundle could not be collected or (--report) a\n"
		    "regression was found, 2 bad arguments.",
};

/* Per host: what the listing held and what collect did. */
struct host_count {
	char *host;
	size_t listed, fetched, failed;
	size_t runs, present;	/* runs added, runs the store had */
	int64_t samples;
};

struct host_counts {
	struct host_count *v;
	size_t n, alloc;
};

static struct host_count *host_count(struct host_counts *l, const char *host)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].host, host))
			return &l->v[i];
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	memset(&l->v[l->n], 0, sizeof(l->v[l->n]));
	l->v[l->n].host = xstrdup(host);
	return &l->v[l->n++];
}

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

static void iso_time(char *buf, size_t len, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Fetch, import and record one bundle. */
static int collect_one(struct store *s, const char *results, const char *key,
		       const char *scratch, const struct fleet_bundle *b, struct host_count *hc)
{
	struct strbuf path = STRBUF_INIT, rel = STRBUF_INIT;
	struct bundle *bundle = NULL;
	struct import_counts c;
	char modified[32], now[32];
	struct fleet_collected rec;
	int rc = -1;

	strbuf_addf(&path, "%s/%s", scratch, b->file);
	strbuf_addf(&rel, "%s/%s", b->host, b->file);
	if (fleet_fetch_bundle(results, b, path.buf) || bundle_open(path.buf, &bundle) ||
	    store_import(s, bundle, 0, NULL, NULL, &c)) {
		error("'%s/%s' not collected; a later collect tries it again", key, rel.buf);
		goto out;
	}
	if (b->modified >= 0)
		iso_time(modified, sizeof(modified), b->modified);
	iso_time(now, sizeof(now), (int64_t)time(NULL));
	rec = (struct fleet_collected) {
		.source = key,
		.path = rel.buf,
		.size_bytes = b->size_bytes,
		.modified_at = b->modified >= 0 ? modified : NULL,
		.collected_at = now,
		.runs_added = (int64_t)c.runs,
	};
	if (store_fleet_add_collected(s, &rec))
		goto out;
	hc->fetched++;
	hc->runs += c.runs;
	hc->present += c.present;
	hc->samples += c.samples;
	rc = 0;
out:
	bundle_close(bundle);
	unlink(path.buf);
	strbuf_release(&path);
	strbuf_release(&rel);
	return rc;
}

/* The newest run of host in the store, for the summary. */
struct newest {
	char *name;
	char *started_at;
	char *finished_at;	/* NULL: not finished */
	int64_t id;
};

/* Whether r is newer than n: started later; in the same second (times are
 * stored to the second), finished later, an unfinished run last; on a
 * full tie, stored later (runs come in id order), so that the answer does
 * not depend on which of two such runs a collect happened to meet first. */
static int newer(const struct run_info *r, const struct newest *n)
{
	int c;

	if (!n->started_at)
		return 1;
	c = strcmp(r->started_at, n->started_at);
	if (c)
		return c > 0;
	if (!r->finished_at || !n->finished_at)
		return !r->finished_at;
	return strcmp(r->finished_at, n->finished_at) >= 0;
}

static int keep_newest(const struct run_info *r, void *arg)
{
	struct newest *n = arg;

	if (newer(r, n)) {
		free(n->name);
		free(n->started_at);
		free(n->finished_at);
		n->name = xstrdup(r->name);
		n->started_at = xstrdup(r->started_at);
		n->finished_at = r->finished_at ? xstrdup(r->finished_at) : NULL;
		n->id = r->id;
	}
	return 0;
}

static void newest_release(struct newest *n)
{
	free(n->name);
	free(n->started_at);
	free(n->finished_at);
	n->name = n->started_at = n->finished_at = NULL;
	n->id = 0;
}

static int newest_run(struct store *s, const char *host, const char *status,
		      struct newest *out)
{
	struct run_filter f = { .host = host, .status = status };

	return store_each_run(s, &f, keep_newest, out);
}

/* Run this kbench with args on the store (stdout and stderr passed
 * through); its exit status, or -1. */
static int run_kbench(struct store *s, const char *const *args)
{
	struct strbuf self = STRBUF_INIT;
	const char *argv[16];
	size_t n = 0;
	int status = -1;

	if (self_path(&self))
		goto out;
	argv[n++] = self.buf;
	argv[n++] = "--db";
	argv[n++] = store_path(s);
	for (; *args && n < 15; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	status = fleet_command(argv, KBENCH_CHILD_TIMEOUT_S, NULL, NULL);
out:
	strbuf_release(&self);
	return status;
}

/* Whether this kbench's compare takes --per-host. */
static int compare_has_per_host(void)
{
	struct strbuf self = STRBUF_INIT, out = STRBUF_INIT;
	int has = 0;

	if (!self_path(&self)) {
		const char *argv[] = { self.buf, "compare", "--help", NULL };

		if (!fleet_command(argv, KBENCH_CHILD_TIMEOUT_S, &out, &out))
			has = strstr(out.buf, "--per-host") != NULL;
	}
	strbuf_release(&self);
	strbuf_release(&out);
	return has;
}

/* The hosts collected from key, in name order. */
static int add_host(const struct fleet_collected *c, void *arg)
{
	struct fleet_names *hosts = arg;
	const char *slash = strchr(c->path, '/');
	char *host = xstrndup(c->path, slash ? (size_t)(slash - c->path) : strlen(c->path));
	size_t i;

	for (i = 0; i < hosts->n && strcmp(hosts->v[i], host); i++)
		;
	if (i == hosts->n)
		fleet_names_add(hosts, host);
	free(host);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The newest complete run not named `name` on any of hosts. */
struct other_name {
	const char *name;
	const struct fleet_names *hosts;
	char *found, *started_at;
};

static int keep_other_name(const struct run_info *r, void *arg)
{
	struct other_name *o = arg;
	size_t i;

	for (i = 0; i < o->hosts->n && strcmp(o->hosts->v[i], r->hostname); i++)
		;
	if (i == o->hosts->n || !strcmp(r->name, o->name) ||
	    (o->started_at && strcmp(r->started_at, o->started_at) <= 0))
		return 0;
	free(o->found);
	free(o->started_at);
	o->found = xstrdup(r->name);
	o->started_at = xstrdup(r->started_at);
	return 0;
}

/* Whether host has a complete run named name: 1, 0, or -1 after an error. */
static int has_run_named(struct store *s, const char *name, const char *host)
{
	int64_t *ids = NULL;
	size_t n = 0;

	if (store_runs_named_on(s, name, host, &ids, &n))
		return -1;
	free(ids);
	return n > 0;
}

/* --report: regressions of each host collected from key, then the newest
 * runs compared with those before them. 1 when a regression was found. */
static int report(struct store *s, const char *key)
{
	struct fleet_names hosts = FLEET_NAMES_INIT;
	struct newest newest = { .name = NULL }, host_new = { .name = NULL };
	struct other_name base = { .name = NULL };
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	int rc = -1, found = 0;

	if (store_fleet_each_collected(s, key, add_host, &hosts))
		goto out;
	if (hosts.n)
		qsort(hosts.v, hosts.n, sizeof(*hosts.v), by_name);
	for (size_t i = 0; i < hosts.n; i++) {
		const char *args[] = { "regressions", "--host", hosts.v[i], NULL };
		int status;

		printf("\nRegressions on %s:\n", hosts.v[i]);
		status = run_kbench(s, args);
		if (status < 0 || status > 1)
			goto out;
		found |= status == 1;
		if (newest_run(s, hosts.v[i], "complete", &newest))
			goto out;
	}
	if (!newest.name) {
		printf("\nNo complete run to compare.\n");
		rc = found;
		goto out;
	}
	/* The newest name against the name run before it, per host. */
	base.name = newest.name;
	base.hosts = &hosts;
	if (store_each_run(s, NULL, keep_other_name, &base))
		goto out;
	if (base.found && compare_has_per_host()) {
		const char *args[] = { "compare", "--per-host", base.found, newest.name, NULL };

		printf("\n%s against %s on each host:\n", newest.name, base.found);
		if (run_kbench(s, args) < 0)
			goto out;
		rc = found;
		goto out;
	}
	for (size_t i = 0; i < hosts.n; i++) {
		int64_t prev = 0;
		int have_prev = 0, status;

		newest_release(&host_new);
		if (newest_run(s, hosts.v[i], "complete", &host_new))
			goto out;
		if (!host_new.name)
			continue;
		strbuf_reset(&a);
		strbuf_reset(&b);
		if (base.found) {
			/* Each host's latest run of both names, as --per-host does. */
			int both = has_run_named(s, base.found, hosts.v[i]);

			if (both > 0)
				both = has_run_named(s, newest.name, hosts.v[i]);
			if (both < 0)
				goto out;
			if (!both)
				continue;
			strbuf_addf(&a, "%s@%s", base.found, hosts.v[i]);
			strbuf_addf(&b, "%s@%s", newest.name, hosts.v[i]);
		} else {
			if (store_previous_run(s, host_new.id, &prev, &have_prev))
				goto out;
			if (!have_prev) {
				printf("\n%s: one complete run of its config, nothing to compare\n",
				       hosts.v[i]);
				continue;
			}
			strbuf_addf(&a, "#%lld", (long long)prev);
			strbuf_addf(&b, "#%lld", (long long)host_new.id);
		}
		printf("\n%s:\n", hosts.v[i]);
		{
			const char *args[] = { "compare", a.buf, b.buf, NULL };

			status = run_kbench(s, args);
		}
		if (status < 0)
			goto out;
	}
	rc = found;
out:
	fleet_names_release(&hosts);
	newest_release(&newest);
	newest_release(&host_new);
	free(base.found);
	free(base.started_at);
	strbuf_release(&a);
	strbuf_release(&b);
	return rc;
}

static void print_summary(struct store *s, const struct host_counts *counts)
{
	struct newest n = { .name = NULL };
	int w = 4;

	for (size_t i = 0; i < counts->n; i++)
		if ((int)strlen(counts->v[i].host) > w)
			w = (int)strlen(counts->v[i].host);
	printf("%-*s  %7s  %5s  %10s  %s\n", w, "host", "bundles", "new", "runs added",
	       "newest run");
	for (size_t i = 0; i < counts->n; i++) {
		const struct host_count *h = &counts->v[i];

		newest_release(&n);
		newest_run(s, h->host, NULL, &n);
		printf("%-*s  %7zu  %5zu  %10zu  %s%s%s\n", w, h->host, h->listed, h->fetched,
		       h->runs, n.name ? n.name : "-", n.name ? "  " : "",
		       n.started_at ? n.started_at : "");
	}
	newest_release(&n);
}

static int cmd_collect(int argc, char **argv)
{
	const char *since = NULL;
	int do_report = 0, dry_run = 0;
	const struct parse_opt options[] = {
		OPT_STRING(0, "since", &since, "DATE",
			   "only bundles uploaded at or after DATE\n"
			   "(YYYY-MM-DD[THH:MM[:SS]], UTC)"),
		OPT_BOOL(0, "report", &do_report,
			 "then regressions and comparisons per host"),
		OPT_BOOL(0, "dry-run", &dry_run, "list what would be collected, change nothing"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct fleet_bundle_list bundles = FLEET_BUNDLE_LIST_INIT;
	struct host_counts counts = { .n = 0 };
	struct strbuf key = STRBUF_INIT, scratch = STRBUF_INIT;
	struct store *s = NULL;
	const char *tmpdir = getenv("TMPDIR");
	size_t nnew = 0, nfailed = 0, nruns = 0, npresent = 0;
	int64_t since_t = 0, nsamples = 0;
	int rc = EXIT_USAGE;

	argc = parse_options(argc, argv, options, &collect_usage, 0);
	if (argc < 0) {
		rc = argc == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
		goto out;
	}
	if (argc != 1 || !*argv[0]) {
		error(argc > 1 ? "collect takes one URL or directory" :
		      "collect needs the results URL or directory");
		parse_opt_usage_print(&collect_usage, options, stderr);
		goto out;
	}
	if (since && parse_since(since, &since_t)) {
		error("invalid value '%s' for '--since': expected YYYY-MM-DD[THH:MM[:SS]]", since);
		goto out;
	}
	rc = 1;
	if (fleet_results_key(argv[0], &key) || fleet_list_bundles(argv[0], &bundles))
		goto out;
	if (dry_run) {
		/* No store yet: everything would be collected. */
		struct strbuf path = STRBUF_INIT;
		struct stat st;
		int missing;

		if (global_opts.db)
			strbuf_addstr(&path, global_opts.db);
		else
			store_default_path(&path);
		missing = stat(path.buf, &st) && errno == ENOENT;
		strbuf_release(&path);
		if (!missing && cmd_open_store(&s, CMD_STORE_READ))
			goto out;
	} else if (cmd_open_store(&s, CMD_STORE_WRITE)) {
		goto out;
	}
	strbuf_addf(&scratch, "%s/kbench-collect-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!dry_run && !mkdtemp(scratch.buf)) {
		error("cannot create a directory in '%s': %s", tmpdir && *tmpdir ? tmpdir : "/tmp",
		      strerror(errno));
		strbuf_reset(&scratch);
		goto out;
	}
	for (size_t i = 0; i < bundles.n; i++) {
		const struct fleet_bundle *b = &bundles.v[i];
		struct host_count *hc = host_count(&counts, b->host);
		struct strbuf rel = STRBUF_INIT;
		int have;

		if (since && b->modified >= 0 && b->modified < since_t)
			continue;
		hc->listed++;
		strbuf_addf(&rel, "%s/%s", b->host, b->file);
		have = 0;
		if (s && store_fleet_is_collected(s, key.buf, rel.buf, &have)) {
			strbuf_release(&rel);
			goto out;
		}
		if (!have && dry_run)
			printf("would collect %s\n", rel.buf);
		else if (!have && collect_one(s, argv[0], key.buf, scratch.buf, b, hc))
			hc->failed++;
		strbuf_release(&rel);
	}
	for (size_t i = 0; i < counts.n; i++) {
		nnew += counts.v[i].fetched;
		nfailed += counts.v[i].failed;
		nruns += counts.v[i].runs;
		nsamples += counts.v[i].samples;
		npresent += counts.v[i].present;
	}
	if (dry_run) {
		rc = fflush(stdout) ? 1 : 0;
		goto out;
	}
	if (counts.n)
		print_summary(s, &counts);
	printf("%s: %zu new bundle%s, %zu run%s added (%lld samples)", key.buf, nnew,
	       nnew == 1 ? "" : "s", nruns, nruns == 1 ? "" : "s", (long long)nsamples);
	if (npresent)
		printf(", %zu already in the store", npresent);
	if (nfailed)
		printf("; %zu bundle%s could not be collected", nfailed, nfailed == 1 ? "" : "s");
	putchar('\n');
	rc = nfailed ? 1 : 0;
	if (do_report) {
		int r = report(s, key.buf);

		if (r < 0 || r == 1)
			rc = 1;
	}
	if (fflush(stdout))
		rc = 1;
out:
	if (scratch.len && !dry_run)
		rmdir(scratch.buf);
	for (size_t i = 0; i < counts.n; i++)
		free(counts.v[i].host);
	free(counts.v);
	fleet_bundle_list_release(&bundles);
	store_close(s);
	strbuf_release(&key);
	strbuf_release(&scratch);
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

int cmd_fleet(int argc, char **argv)
{
	const struct parse_opt options[] = {
		OPT_HELP(NULL),
		OPT_END(),
	};

	if (argc < 2 || argv[1][0] == '-') {
		int rc = parse_options(argc, argv, options, &fleet_usage,
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
