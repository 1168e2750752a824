/* fleet: kbench on a Slurm cluster, one idea to a file: the batch script
 * of a fleet job and the Slurm commands that submit, list and cancel such
 * jobs (slurm.c); the results location that jobs upload bundles to and
 * collect reads, a WebDAV URL through fleet/http or a shared directory
 * (results.c); a node's outbox (outbox.c); collect into the store and its
 * report (collect.c); a job submitted or scheduled on nodes (schedule.c);
 * and what they share (fleet.c). */
#ifndef KBENCH_FLEET_H
#define KBENCH_FLEET_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;
struct opt_list;
struct store;
struct http_options;

/* Slurm job names start with this; a nightly chain's with FLEET_DAILY. */
#define FLEET_JOB_PREFIX "kbench-"
#define FLEET_DAILY_PREFIX "kbench-daily-"

/* What one fleet job does on its node. */
struct fleet_job {
	const char *job_name;		/* the Slurm job name (FLEET_*_PREFIX...) */
	const char *run_name;		/* kbench run -n; NULL: the node's uname -r */
	const char *const *configs;	/* config files, read now and carried in the script */
	size_t nconfigs;
	const char *watch;		/* a watch's config file, read now and carried:
					 * the job runs one cycle of it (kbench watch),
					 * not the configs; NULL: kbench run */
	const char *results;		/* a URL or directory; NULL: the runs stay on the node */
	const char *kbench;		/* the kbench binary on the nodes */
	const char *db_dir;		/* the node-local directory of the job's store;
					 * "%n" in it stands for the node's name */
	const char *partition;		/* NULL: Slurm's default */
	const char *daily;		/* "HH:MM": the job queues its successor for
					 * that time first; NULL: it runs once */
	int node_names;			/* runs recorded under the Slurm node name */
	int run_minutes;		/* the run's time limit; the job's is this plus
					 * the upload's; 0: Slurm's default */
	int upload_timeout_s;		/* the upload's whole time limit (fleet upload
					 * --timeout); 0: FLEET_UPLOAD_TIMEOUT_S */
};

/* How long a job's upload may take in all (fleet upload --timeout) by
 * default, and collect's default. */
#define FLEET_UPLOAD_TIMEOUT_S 600
#define FLEET_COLLECT_TIMEOUT_S 3600

/* The batch script of job, into out. Return 0, or -1 after printing why
 * (a config that cannot be read). */
int fleet_job_script(const struct fleet_job *job, struct strbuf *out);

/* The name a chain or job is known by, appended to out: name, else
 * "watch-" and the watch's file name, else the configs' file names as
 * kbench run stores them ("a+b"), without ".conf"; what Slurm and a
 * shell would not take replaced by '_'. */
void fleet_job_label(const char *name, const char *watch, const char *const *configs,
		     size_t nconfigs, struct strbuf *out);

/* kbench fleet submit and schedule: job (its job_name filled from its
 * label: FLEET_DAILY_PREFIX with daily, else FLEET_JOB_PREFIX; kbench
 * NULL: this binary; db_dir NULL: /var/tmp/kbench-fleet-USER) submitted
 * to nodes (a Slurm node list; NULL: those of job->partition, else
 * every node), starting at begin (NULL: job->daily's next time, else
 * now), each node's job said on stdout; with dry_run its script and
 * sbatch command lines printed instead. Return 0, or 1 after saying why
 * (a submission failed, every node had the chain already). */
int fleet_schedule(const struct fleet_job *job, const char *nodes, const char *begin,
		   int dry_run);

/* Whether s is a daily time "HH:MM" (00:00 to 23:59). */
int fleet_valid_daily(const char *s);

/* A list of strings owned by it. */
struct fleet_names {
	char **v;
	size_t n, alloc;
};
#define FLEET_NAMES_INIT { .v = NULL, .n = 0, .alloc = 0 }
void fleet_names_add(struct fleet_names *l, const char *s);
void fleet_names_release(struct fleet_names *l);

/* The nodes to run on: those of list (commas and Slurm ranges, "n1,n[3-4]",
 * expanded by scontrol), else those of partition, else every node Slurm
 * knows (sinfo), in Slurm's order without repeats. Return 0, or -1 after
 * printing why (the command that failed and its output). */
int fleet_nodes(const char *list, const char *partition, struct fleet_names *out);

/* Submit script to node with sbatch --parsable (begin: --begin=BEGIN, or
 * NULL); the job id into *job_id. Return 0, or -1 after printing the
 * command and its output. */
int fleet_submit(const char *script, const char *node, const char *begin,
		 struct strbuf *job_id);

/* The sbatch command line fleet_submit runs, for --dry-run. */
void fleet_submit_cmdline(const char *node, const char *begin, const char *script_path,
			  struct strbuf *out);

/* A kbench job as Slurm describes it. */
struct fleet_job_state {
	char *id;
	char *name;
	char *state;		/* PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, ... */
	char *nodes;		/* allocated, else requested; "" none */
	char *start;		/* start time, or the earliest for a pending job; "" none */
	char *end;		/* "" while it runs */
	char *exit_code;	/* "0:0" ("status:signal"); "" unknown */
	char *reason;		/* why it waits (squeue); "" none */
	char *comment;		/* the results it uploads to (squeue); "" none */
};

struct fleet_job_list {
	struct fleet_job_state *v;
	size_t n, alloc;
	int from_jobcomp;	/* finished jobs came from the jobcomp log (sacct -c) */
	int no_history;		/* neither accounting nor jobcomp: queued jobs only */
};
#define FLEET_JOB_LIST_INIT { .v = NULL, .n = 0, .alloc = 0 }
void fleet_job_list_release(struct fleet_job_list *l);

/* What fleet_submit_each did on one node: submitted job_id, or left the
 * chain's job pending there as it is (pending), or neither (fleet_submit
 * failed and said why). */
struct fleet_submitted {
	char *node;
	char *job_id;
	char *pending;
};

struct fleet_submissions {
	struct fleet_submitted *v;
	size_t n, alloc;
};
#define FLEET_SUBMISSIONS_INIT { .v = NULL, .n = 0, .alloc = 0 }
void fleet_submissions_release(struct fleet_submissions *l);

/* Submit script, the job job_name, to each of nodes as fleet_submit
 * does, in order, into out. With chain (a daily chain's job), a node on
 * which a job of that name is pending already is left as it is: a chain
 * twice on a node would run twice a night. Return 0, or -1 after
 * printing why the pending jobs could not be listed. */
int fleet_submit_each(const char *script, const char *job_name, int chain,
		      const struct fleet_names *nodes, const char *begin,
		      struct fleet_submissions *out);

/* A collected run of a job, known by its fact slurm-job (or, stored
 * before runs recorded it, by the note the job's script gave it). */
struct fleet_job_run {
	char *job_id;
	int64_t run_id;
};

struct fleet_job_runs {
	struct fleet_job_run *v;
	size_t n, alloc;
};
#define FLEET_JOB_RUNS_INIT { .v = NULL, .n = 0, .alloc = 0 }

/* The runs of fleet jobs in s, appended to l. */
void fleet_job_runs_read(struct store *s, struct fleet_job_runs *l);
/* The run of job job_id in l; NULL: none. */
const struct fleet_job_run *fleet_job_runs_find(const struct fleet_job_runs *l,
						const char *job_id);
void fleet_job_runs_release(struct fleet_job_runs *l);

/* The kbench jobs (named FLEET_JOB_PREFIX...) queued or running (squeue)
 * and those that ended since `since` (sacct -S, a Slurm time such as
 * "now-1days"; with accounting, else sacct -c on the jobcomp log), in job
 * id order. Return 0, or -1 after printing why. */
int fleet_list_jobs(const char *since, struct fleet_job_list *out);

/* The jobs named job_name (every one whose name starts with
 * FLEET_DAILY_PREFIX when job_name is NULL) in Slurm state state
 * ("PENDING", "RUNNING"): their ids into ids, "NAME on NODE" into labels
 * and, unless nodes is NULL, the node (allocated, else requested; "" for
 * any) into nodes. Return 0, or -1 after printing why. */
int fleet_chain_jobs(const char *job_name, const char *state, struct fleet_names *ids,
		     struct fleet_names *labels, struct fleet_names *nodes);

/* Cancel the pending jobs named job_name (every pending job whose name
 * starts with FLEET_DAILY_PREFIX when job_name is NULL), printing each
 * one cancelled; *n the count. With dry_run, print each one that would
 * be ("would cancel ..."), cancelling nothing. Return 0, or -1 after
 * printing why. */
int fleet_cancel_pending(const char *job_name, int dry_run, size_t *n);

/* Run argv (argv[0] looked up in PATH) with its stdout into out and its
 * stderr into err (either may be NULL: passed through), stopping it after
 * timeout_s seconds. Return its exit status (128 + N when killed by
 * signal N), or -1 after printing why it could not run. */
int fleet_command(const char *const *argv, double timeout_s, struct strbuf *out,
		  struct strbuf *err);

/* ---- results locations ---- */

/* One bundle in a results location: HOST/RUN-UUID.kbench. */
struct fleet_bundle {
	char *host;
	char *file;		/* RUN-UUID.kbench */
	int64_t size_bytes;	/* -1: not known */
	int64_t modified;	/* seconds since the epoch; -1: not known */
};

struct fleet_bundle_list {
	struct fleet_bundle *v;
	size_t n, alloc;
};
#define FLEET_BUNDLE_LIST_INIT { .v = NULL, .n = 0, .alloc = 0 }
void fleet_bundle_list_release(struct fleet_bundle_list *l);

/* Whether name is a bundle's file name: a run uuid and ".kbench". */
int fleet_is_bundle_name(const char *name);

/* The bundles of results (a URL: PROPFIND of it and of each host's
 * collection, requests made as net says, NULL: fleet/http's defaults; a
 * directory: its subdirectories), hosts and files in name order; anything
 * else there (temporary uploads, other files) is left out. Return 0, or
 * -1 after printing why. */
int fleet_list_bundles(const char *results, const struct http_options *net,
		       struct fleet_bundle_list *out);

/* Fetch bundle b of results into a new file at path (a download as net
 * says, or a copy from the directory). Return 0, or -1 after printing why. */
int fleet_fetch_bundle(const char *results, const struct http_options *net,
		       const struct fleet_bundle *b, const char *path);

/* Put the bundle file at path into results as HOST/FILE: PUT then MOVE
 * for a URL (tries and time limits as net says, NULL: fleet/http's
 * defaults), a copy then rename for a directory; a reader never sees it
 * half written. Return 0, or -1 after printing why. */
int fleet_put_bundle(const char *results, const struct http_options *net, const char *host,
		     const char *file, const char *path);

/* results as it is recorded and shown: a URL without credentials, a
 * directory as an absolute path; without a '/' at the end. Return 0, or
 * -1 after printing why (a directory that does not exist). */
int fleet_results_key(const char *results, struct strbuf *out);

/* ---- outbox, collect and report ---- */

/* The path of the running kbench (/proc/self/exe), for the nodes' job
 * scripts, appended to out. Return 0, or -1 after printing why. */
int fleet_self_path(struct strbuf *out);

/* Export each finished run of s that is neither remembered as sent (a
 * file sent/RUN-UUID) nor in the outbox yet into outbox/HOST/RUN-UUID.kbench.
 * Return 0, or -1 after printing why (the other runs exported still). */
int fleet_export_new_runs(struct store *s, const char *outbox, const char *sent);

/* Upload every bundle of outbox/HOST/ to results (net as fleet_put_bundle
 * takes it): for each one uploaded call uploaded(HOST,
 * FILE, arg), then remember it in sent/ and remove it from the outbox;
 * one that cannot be uploaded stays, with a warning. Return 0, or -1
 * when a bundle is left (after printing why). */
int fleet_send_outbox(const char *outbox, const char *sent, const char *results,
		      const struct http_options *net,
		      void (*uploaded)(const char *host, const char *file, void *arg),
		      void *arg);

/* What collect did for one host of a listing. */
struct fleet_host_count {
	char *host;
	size_t listed;		/* bundles listed (since the date asked) */
	size_t fetched;		/* bundles collected now */
	size_t failed;		/* bundles that could not be collected */
	size_t runs, present;	/* runs added, runs the store had */
	int64_t samples;	/* samples added */
	size_t cycles;		/* watch cycles added or brought up to date */
};

/* A collect: what to do, and per host what was done. */
struct fleet_collect {
	const char *results;	/* the URL or directory, as given */
	const char *key;	/* results as recorded (fleet_results_key) */
	const struct http_options *net;	/* downloads; NULL: fleet/http's defaults */
	int since_set;		/* skip bundles modified before since */
	int64_t since;		/* seconds since the epoch */
	int dry_run;		/* change nothing: would_collect(HOST/FILE, arg)
				 * for each bundle not collected yet */
	void (*would_collect)(const char *rel, void *arg);
	void *arg;
	struct fleet_host_count *hosts;	/* out: in listing order */
	size_t nhosts, alloc;
};

/* Collect each bundle of the listing not collected from c->key before
 * into s (NULL with dry_run: a store that does not exist yet), each in
 * its own import, recording it in s; one that fails is reported, counted
 * and left for a later collect, and the others are still collected.
 * Return 0 with c's hosts filled, or -1 after printing why the collect
 * could not go on (a scratch directory, a store error). */
int fleet_collect_bundles(struct store *s, const struct fleet_bundle_list *bundles,
			  struct fleet_collect *c);
void fleet_collect_release(struct fleet_collect *c);

/* The newest run of a host: the one that started last; in the same
 * second, finished last (an unfinished one last of all); then stored last. */
struct fleet_newest {
	char *name;		/* NULL: none */
	char *started_at;
	char *finished_at;	/* NULL: not finished */
	int64_t id;
};

/* The newest run of host in s with status (NULL: any) into out, which
 * starts zeroed or released. Return 0, or -1 after printing why. */
int fleet_newest_run(struct store *s, const char *host, const char *status,
		     struct fleet_newest *out);
void fleet_newest_release(struct fleet_newest *n);

/* collect --report: what 'kbench regressions --host HOST' prints for each
 * host collected from key, then the newest run name compared with the
 * name run before it on each host that has both (as 'kbench compare
 * --per-host' prints it), or where there is no such name each host's
 * newest run with the one before it, all on stdout. With page (not NULL)
 * the same as one HTML page appended to it: the regressions per host,
 * then the comparisons as compare --format html (--per-host) shows them.
 * Return 1 when a regression was found, 0 when none, -1 after an error. */
int fleet_report(struct store *s, const char *key, struct strbuf *page);

#endif
