/* store: the SQLite results database; db/ is the only place in kbench with
 * SQL. store.c opens, migrates and writes; query.c reads runs and what
 * each holds. What is read across runs over time (series.c) is declared
 * in db/series.h, kbench query's read-only SQL (sql.c) in db/sql.h.
 *
 * Writers commit each sample as soon as it is measured (BEGIN IMMEDIATE,
 * WAL, busy timeout), so a crash or kill -9 loses at most the sample in
 * flight. Every function returns 0 on success, or -1 after printing an
 * error that names the database and what was being done; then
 * store_last_error_kind() says what kind of failure it was. */
#ifndef KBENCH_STORE_H
#define KBENCH_STORE_H

#include <stddef.h>
#include <stdint.h>

struct kb_regex;
struct strbuf;
struct machine_info;
struct kernel_info;
struct store;

/* The schema version this build writes (PRAGMA user_version). */
#define STORE_SCHEMA_VERSION 12
/* PRAGMA application_id of a kbench store ("kben"), set whenever a store
 * is created or migrated; a store from before it has 0 there. */
#define STORE_APPLICATION_ID 0x6b62656e

/* How long a store locked by another process is waited for, with growing
 * pauses between tries, before an operation fails with STORE_ERROR_BUSY:
 * $KBENCH_BUSY_TIMEOUT_MS milliseconds, else this. */
#define STORE_BUSY_TIMEOUT_MS 30000

/* $KBENCH_DB, else $XDG_DATA_HOME/kbench/kbench.db, else
 * ~/.local/share/kbench/kbench.db. Written into sb. */
void store_default_path(struct strbuf *sb);
/* Open for writing (creating it and its directory if needed) and migrate.
 * An existing file is first looked at read-only and left untouched unless
 * it is a kbench store; creation and migration happen under the write
 * lock, so any number of processes may open a new file at once. Return 0
 * with *out set, or -1 after printing why (*out NULL). */
int store_open(const char *path, struct store **out);
/* A scratch store at path, a file of its own that nothing else opens (a
 * bundle being written): store_open() without waiting for the disk on
 * each transaction. store_remove_scratch() removes its file and what
 * SQLite may have left beside it, once it is closed. */
int store_open_scratch(const char *path, struct store **out);
void store_remove_scratch(const char *path);
/* Open an existing store for reading only: a missing file is an error and
 * is not created, and nothing is written, except that a store of an older
 * schema version is first migrated once (which needs write access; without
 * it the error says so). A store in WAL mode whose directory cannot be
 * written (a read-only directory or mount) is read as immutable when no
 * write-ahead log is left beside it. Return 0 with *out set, or -1 after
 * printing why (*out NULL). */
int store_open_readonly(const char *path, struct store **out);
void store_close(struct store *s);
const char *store_path(const struct store *s);

/* What the last failed operation on a store ran into. */
enum store_error_kind {
	STORE_ERROR_NONE,	/* nothing has failed */
	STORE_ERROR_BUSY,	/* locked by another process past the busy timeout */
	STORE_ERROR_FULL,	/* the disk (or the database's size limit) is full */
	STORE_ERROR_IO,		/* an I/O error, or the file or medium cannot be
				 * opened or written */
	STORE_ERROR_DAMAGED,	/* the file was truncated, replaced, removed or
				 * made unwritable under the open store, or
				 * SQLite found it corrupt: what it held may be
				 * gone */
	STORE_ERROR_OTHER,	/* anything else: not a store, a bug */
};

/* The kind of the last failure of an operation on s (functions that
 * returned -1); STORE_ERROR_NONE before any. A caller that must keep what
 * it failed to store (BUSY, FULL, IO may pass) asks this. */
enum store_error_kind store_last_error_kind(const struct store *s);

/* Who writes a run, stored with it so that a reader can tell whether the
 * writer is still alive: a pid alone may be reused, or be 1 in a pid
 * namespace. */
struct run_writer {
	int64_t pid;
	char boot_id[40];		/* /proc/sys/kernel/random/boot_id; "" unknown */
	uint64_t start_ticks;		/* field 22 of /proc/PID/stat: clock ticks
					 * after boot; 0 unknown */
};

/* The calling process as a run writer. */
void run_writer_self(struct run_writer *w);

struct run_record {
	const char *uuid;
	const char *name;
	const char *config_name;
	const char *config_text;
	const char *kbench_version;
	const char *started_at;
	const struct run_writer *writer;	/* NULL: the pid of the caller only */
	/* Called with the new run's id inside the transaction that records
	 * it (NULL: none): what it writes (run_meta facts that a resume
	 * rebuilds the plan from) is stored with the run or not at all.
	 * Non-zero (after printing why) records nothing. */
	int (*facts)(struct store *s, int64_t run_id, void *arg);
	void *facts_arg;
};

/* The one machine of s with m's host name and CPU, NUMA node and MiB
 * counts, its CPU model the same but for trailing blanks, and its cores
 * and sockets the same where m gives them (not 0): its CPU model, cores,
 * sockets and memory are copied into m. Return 1 when one was found, 0
 * when none or several were, -1 after an error reading s. */
int store_adopt_machine(struct store *s, struct machine_info *m);

int store_begin_run(struct store *s, const struct machine_info *m,
		    const struct kernel_info *k, const struct run_record *r,
		    int64_t *run_id);
/* status: "complete", "interrupted" or "failed". */
int store_finish_run(struct store *s, int64_t run_id, const char *status,
		     const char *finished_at);
int store_add_meta(struct store *s, int64_t run_id, const char *section,
		   const char *key, const char *value);

struct sample_record {
	const char *row;
	double value;
	const char *unit;
	int higher_better;
};

/* What a monitor value is, which says how the values of one key combine
 * over samples; stored as its name (monitor_values.kind). */
enum monitor_kind {
	MONITOR_KIND_DELTA,	/* "delta": a count over the sample (a counter's
				 * change, or what its processes accumulated);
				 * totals over samples add up */
	MONITOR_KIND_MAX,	/* "max": a peak over the sample */
	MONITOR_KIND_FRACTION,	/* "fraction": a ratio in [0, 1] */
	MONITOR_KIND_BEFORE,	/* "before": a level read before the sample, or
				 * before a section's first sample */
	MONITOR_KIND_AFTER,	/* "after": the same level read after it */
	MONITOR_NKINDS
};

/* The stored name of kind ("delta", "max", ...), or NULL for none. */
const char *monitor_kind_name(enum monitor_kind kind);

struct monitor_record {
	const char *row;
	const char *source;
	const char *key;
	double value;
	enum monitor_kind kind;
};

/* Everything one sample measured, committed in one transaction. */
struct sample_set {
	const char *section;
	const char *workload;
	int iteration;		/* unique within (run, section, row) across rounds;
				 * a warm-up's -1 to -N within its round */
	int round;		/* the repeat round, from 1; 0 reads as 1 */
	int warmup;		/* a warm-up sample (iteration -1, -2, ...): stored,
				 * counted nowhere, read by no statistic */
	int64_t started_ns, duration_ns, user_ns, sys_ns;
	const char *flag;		/* NULL: none */
	const struct sample_record *samples;
	size_t nsamples;
	const struct monitor_record *monitors;
	size_t nmonitors;
};

int store_add_sample_set(struct store *s, int64_t run_id, const struct sample_set *set);
int store_add_failure(struct store *s, int64_t run_id, const char *section,
		      const char *row, int iteration, const char *reason);

/* How one round of one row of a section with iterations = auto ended
 * (table row_results). */
struct row_result {
	const char *section;
	const char *row;	/* the row's label ("4", "64") */
	int round;		/* from 1 */
	int iterations;		/* samples stored in that round */
	double ci_target;	/* half-width of the 95% CI over the mean, a fraction */
	double ci_reached;	/* the same reached; NaN: not known (< 2 samples) */
	int met;		/* ci_reached <= ci_target after min_iterations */
};

/* Record r for run_id. Return 0 or -1. */
int store_add_row_result(struct store *s, int64_t run_id, const struct row_result *r);

/* ---- reading (query.c) ---- */

/* One stored run, as listed and compared. */
struct run_info {
	int64_t id;
	char uuid[40];
	char *name;
	char *hostname;
	char *cpu_model;
	int cpus;
	int cores;
	uint64_t mem_bytes;
	char *fingerprint;
	char *kernel_release;
	char *kernel_version;
	char *kernel_cmdline;
	char *config_name;
	char *config_text;
	char *kbench_version;
	char *started_at;
	char *finished_at;
	char *status;		/* as shown: a dead writer's "running" reads "interrupted" */
	int64_t nsamples;	/* samples, not result rows: one sample (one run of
				 * a row of a section) may store several rows, as
				 * pft's four per worker count */
	int64_t nfailures;
	char *notes;		/* runs.notes; NULL: none */
	int numa_nodes;
};

void run_info_release(struct run_info *r);

struct run_filter {
	const char *name;	/* NULL: any */
	const char *host;
	const char *config;
	const char *since;	/* ISO date/time prefix comparison */
	int limit;		/* 0: all; else the newest N runs that match */
	const struct kb_regex *name_re;	/* NULL: any; matched anywhere in the name */
	const char *kernel;	/* a GLOB pattern on the kernel release */
	const char *status;	/* as shown: complete, running, interrupted, failed */
	const char *until;	/* ISO date/time: runs started before it */
};

/* Call cb for each run that f (NULL: none) lets through, in id order;
 * stop early when cb returns non-zero. */
int store_each_run(struct store *s, const struct run_filter *f,
		   int (*cb)(const struct run_info *r, void *arg), void *arg);
int store_get_run(struct store *s, int64_t run_id, struct run_info *out);
/* *name: a copy of run run_id's name (free() it), without what
 * store_get_run() also reads (machine, counts). Return 0 or -1. */
int store_run_name(struct store *s, int64_t run_id, char **name);

/* Resolve a selector: "@ID" (or "#ID", which a shell takes for a comment
 * unless quoted); NAME, the latest complete run of that name on
 * this host (sysinfo_hostname()); a uuid prefix (4+ hex digits, when no
 * run of this host has that name); "NAME@HOST", the latest complete run of
 * NAME on HOST; or "NAME@*", the latest on any host. On no match or
 * ambiguity, err says why (for a name run only on other hosts: the
 * NAME@HOST choices; for a name no run has: the closest stored name, "did
 * you mean") and -1 is returned without printing. "NAME#ID", the label
 * compare prints, is run ID when it is named NAME and no run is named
 * "NAME#ID"; digits alone, as kbench runs lists an id, are run ID when
 * no run is named so (ambiguous when a uuid prefix of them names another
 * run). */
int store_resolve_run(struct store *s, const char *selector, int64_t *run_id,
		      struct strbuf *err);
/* The latest complete run before run_id with the same config name on the
 * same machine; *found set to 0 when none. */
int store_previous_run(struct store *s, int64_t run_id, int64_t *prev, int *found);

struct sample_row {
	const char *section;
	const char *workload;
	const char *row;
	int iteration;
	double value;
	const char *unit;
	int higher_better;
	int64_t duration_ns, user_ns, sys_ns;
	const char *flag;	/* NULL: none */
	int round;		/* the repeat round, from 1 */
};

/* Samples of a run in measurement order, warm-ups left out; cb returning
 * non-zero stops. */
int store_each_sample(struct store *s, int64_t run_id,
		      int (*cb)(const struct sample_row *r, void *arg), void *arg);

struct monitor_row {
	const char *section;
	const char *row;
	int iteration;
	const char *source;
	const char *key;
	enum monitor_kind kind;
	double value;
};

int store_each_monitor(struct store *s, int64_t run_id,
		       int (*cb)(const struct monitor_row *r, void *arg), void *arg);

/* The per-sample monitor values of one key of one row of a section,
 * summarised over the run's samples. */
struct monitor_summary {
	const char *section;
	const char *row;
	const char *source;
	const char *key;
	enum monitor_kind kind;
	double mean, min, max;
	int64_t n;		/* samples that recorded it */
};

/* Summarise a run's per-sample monitor values (iteration > 0: the slab
 * caches' per-section snapshots are left out) per section, row, source,
 * key and kind, in order of first appearance; cb returning non-zero
 * stops. The strings last until cb returns. */
int store_each_monitor_summary(struct store *s, int64_t run_id,
			       int (*cb)(const struct monitor_summary *m, void *arg),
			       void *arg);

/* How many result rows each section of a run holds (a sample may store
 * several, as run_info.nsamples says). */
struct section_count {
	const char *section;
	int64_t samples;	/* result rows */
	int64_t flagged;	/* result rows with a flag */
	int64_t warmups;	/* warm-up result rows, in neither count above */
	int64_t warmup_ns;	/* the warm-up samples' time, spawn to reap */
};

/* Every section of a run with samples, in order of first appearance; cb
 * returning non-zero stops. The strings last until cb returns. */
int store_each_section_count(struct store *s, int64_t run_id,
			     int (*cb)(const struct section_count *c, void *arg), void *arg);

struct failure_row {
	const char *section;
	const char *row;
	int iteration;
	const char *reason;
};

int store_each_failure(struct store *s, int64_t run_id,
		       int (*cb)(const struct failure_row *r, void *arg), void *arg);
int store_each_meta(struct store *s, int64_t run_id,
		    int (*cb)(const char *section, const char *key, const char *value, void *arg),
		    void *arg);
/* Every run that holds the fact key of section ('' for the whole run),
 * in id order, with its value ("" for NULL): cb(run_id, value, arg);
 * non-zero stops. The value lasts until cb returns. Returns 0 or -1. */
int store_each_run_with_meta(struct store *s, const char *section, const char *key,
			     int (*cb)(int64_t run_id, const char *value, void *arg),
			     void *arg);

/* ---- selectors per host, names, notes (query.c, manage.c) ---- */

/* The complete runs named name made on host (a hostname; NULL: every
 * host), in id order, for pooling; *ids malloc'd (NULL when none). */
int store_runs_named_on(struct store *s, const char *name, const char *host,
			int64_t **ids, size_t *n);

/* How many runs the store holds, of any status, into *n. */
int store_count_runs(struct store *s, int64_t *n);

/* The names runs carry, each once, sorted. */
enum store_name_kind {
	STORE_NAME_RUN,		/* run names */
	STORE_NAME_CONFIG,	/* config names */
	STORE_NAME_HOST,	/* host names of the machines */
	STORE_NAME_EXPERIMENT,	/* names of the experiments (kbench ab) */
};

/* Call cb for every distinct name of kind in the store; cb returning
 * non-zero stops. The string lasts until cb returns. Returns 0 or -1. */
int store_each_name(struct store *s, enum store_name_kind kind,
		    int (*cb)(const char *name, void *arg), void *arg);

/* Write the note of run run_id (runs.notes): text replaces it, or with
 * append is added to it on a new line; an empty text clears it (or, with
 * append, leaves it as it is). Returns 0, or -1 after printing why (no
 * such run, a store error). */
int store_set_note(struct store *s, int64_t run_id, const char *text, int append);

/* ---- bundles (bundle.c): kbench export and import ---- */

/* Write runs run_ids[0..n-1], with their samples, monitor values, failures
 * and facts and the machines they ran on, into a new SQLite file at path
 * with this store's schema, all read in one transaction. A run still being
 * written is refused; one whose writer died is written as interrupted.
 * path must not exist; nothing is left there on failure. Returns 0, or -1
 * after printing why. */
int store_export(struct store *s, const int64_t *run_ids, size_t n, const char *path);

/* Write the watches of host (watches.hostname) with their cycles, each
 * row's verdicts and the mails they queued, and the experiments and
 * bisections those name, into a new bundle at path as store_export does
 * (watch_bundle.c); import adds them to a store (store_import). Returns
 * 0, or -1 after printing why. */
int store_export_watch(struct store *s, const char *host, const char *path);

/* A line that changes whenever the watch records of host do (a cycle
 * begins, moves on, ends, names a culprit, sends or tries a mail),
 * appended to out; nothing when host has no cycle. Returns 0, or -1
 * after printing why. */
int store_watch_signature(struct store *s, const char *host, struct strbuf *out);

/* Call cb with each host that has a watch in s, in name order. Returns 0,
 * or -1 after printing why. */
int store_watch_hosts(struct store *s, void (*cb)(const char *host, void *arg), void *arg);

/* ---- removing and renaming runs (manage.c): kbench rm and rename ---- */

/* What removing one run takes with it. */
struct run_removal {
	int64_t run_id;
	const char *name, *hostname, *started_at, *status;
	int64_t samples, monitor_values, failures, facts;	/* rows */
	int note;			/* it has a note */
	char *experiment_uuid;		/* of the experiment it is an arm of; NULL */
	char *experiment;		/* that experiment's name here; NULL: none */
	int64_t experiment_id;		/* its row, removed with its last run; 0 */
};

/* Remove runs run_ids[0..n-1] with everything that is theirs (samples,
 * monitor values, failures, facts, row results, note), the row of an
 * experiment whose last run goes, and a machine no run names any more, in
 * one transaction; with dry_run, change nothing. cb (may be NULL) sees
 * each run before it goes, and stops everything by returning non-zero.
 * Refused, with nothing removed, when a run is running (its writer may be
 * at work) or is an arm of an experiment whose other runs in the store
 * are not among run_ids. Returns 0, or -1 after printing why. */
int store_remove_runs(struct store *s, const int64_t *run_ids, size_t n, int dry_run,
		      int (*cb)(const struct run_removal *r, void *arg), void *arg);

/* Give run run_id the name name (checked by the caller); refused while
 * the run is running. With dry_run, only check that it would be (s may
 * be open read-only). Returns 0, or -1 after printing why. */
int store_rename_run(struct store *s, int64_t run_id, const char *name, int dry_run);

/* A bundle being imported: a private, checked copy of the file given. */
struct bundle;

/* Copy the bundle file at path (opened read-only; never written) and check
 * the copy: an SQLite file that passes integrity_check, a kbench schema version
 * no newer than this build's, sqlite_master exactly kbench's schema of that
 * version (no trigger, view or table more), every value of the type and
 * size its column takes, every reference resolved, uuids and fingerprints
 * unique. An older copy is migrated. Returns 0 with *out, or -1 after
 * printing why (naming path). */
int bundle_open(const char *path, struct bundle **out);
/* bundle_open() of a copy at path that messages call name (a bundle
 * fetched into a scratch file is named by where it came from). */
int bundle_open_as(const char *path, const char *name, struct bundle **out);
void bundle_close(struct bundle *b);

/* One run of a bundle, as import sees it. */
struct bundle_run {
	const char *uuid;
	const char *name;
	const char *hostname;
	const char *started_at;
	int64_t nsamples;
	int present;		/* the store has a run with this uuid already */
};

struct import_counts {
	size_t runs;		/* runs added (dry run: that would be) */
	size_t present;		/* runs the store had already */
	size_t machines;	/* machines added */
	int64_t samples;	/* samples added */
	size_t cycles;		/* watch cycles added or brought up to date */
};

/* Add to the store the runs of b it lacks (by uuid) with everything they
 * hold, their machines merged by fingerprint, in one transaction; with
 * dry_run, change nothing. cb (may be NULL) sees each run of the bundle
 * first. A machine whose fingerprint the store knows with other facts
 * (host name, CPU model, counts, memory) refuses the bundle. Returns 0
 * with c filled, or -1 after printing why (the store unchanged). */
int store_import(struct store *s, struct bundle *b, int dry_run,
		 int (*cb)(const struct bundle_run *r, void *arg), void *arg,
		 struct import_counts *c);

/* ---- fleet collections (store.c, query.c): kbench fleet collect ---- */

/* A bundle collected from a results location (table fleet_collected). */
struct fleet_collected {
	const char *source;		/* the URL or directory, no credentials */
	const char *path;		/* HOST/RUN-UUID.kbench under it */
	int64_t size_bytes;		/* -1: not known */
	const char *modified_at;	/* ISO 8601 UTC; NULL: not known */
	const char *collected_at;	/* ISO 8601 UTC */
	int64_t runs_added;
};

/* Whether the bundle path of source is recorded as collected: *found 1 or
 * 0. Returns 0, or -1 after printing why. */
int store_fleet_is_collected(struct store *s, const char *source, const char *path,
			     int *found);
/* Record c as collected (a record of the same source and path is
 * replaced). Returns 0, or -1 after printing why. */
int store_fleet_add_collected(struct store *s, const struct fleet_collected *c);
/* The records of source (NULL: every source) in the order they were
 * made; cb returning non-zero stops. The strings last until cb returns. */
int store_fleet_each_collected(struct store *s, const char *source,
			       int (*cb)(const struct fleet_collected *c, void *arg), void *arg);

/* ---- recovery files and resumed runs (recover.c) ---- */

/* PRAGMA application_id of a recovery file ("kbRC"): a store of the same
 * schema holding one run's uuid, facts and what its writer could not
 * write into the run's own store. */
#define STORE_RECOVERY_APP_ID 0x6b625243

/* Create the recovery file path (absent, or empty as mkstemp leaves it):
 * a store of the current schema in one file, marked as a recovery file. */
int store_create_recovery(const char *path, struct store **out);
/* Write a copy of s, whole and in one file, to path (absent, or empty as
 * mkstemp leaves it): how a recovery file kept in memory (path ":memory:"
 * to store_create_recovery) is saved. Return 0, or -1 after saying why. */
int store_save_copy(struct store *s, const char *path);

struct store_recovered {
	int64_t run_id;		/* the run in the store */
	char uuid[40];
	int created;		/* the store lacked the run: made from the file */
	int64_t samples, monitors, failures;	/* rows added */
};

/* Load the recovery file path into s: its run, found by uuid or created
 * with its machine and facts, then every sample, monitor value and
 * failure s does not hold yet (loading a file twice adds nothing); a run
 * still marked running takes the status the file gives it. Refused while
 * the run's writer is alive. */
int store_recover(struct store *s, const char *path, struct store_recovered *out);
/* store_recover() as a dry run: the same load, counted in out, in a
 * transaction rolled back, so that s is left as it was. */
int store_recover_dry(struct store *s, const char *path, struct store_recovered *out);

/* Mark run_id running again, written by this process, to resume it;
 * refused for a complete run. */
int store_resume_run(struct store *s, int64_t run_id);
/* The latest run named name, whatever its status; *found 0 when none. */
int store_latest_run_named(struct store *s, const char *name, int64_t *run_id, int *found);

/* Every row result of run_id in the order recorded; cb returning non-zero
 * stops. The strings last until cb returns. Return 0 or -1. */
int store_each_row_result(struct store *s, int64_t run_id,
			  int (*cb)(const struct row_result *r, void *arg), void *arg);
/* Every sample row of run_id in measurement order with its round,
 * iteration and value (what a resumed run needs to go on); cb returning
 * non-zero stops. Return 0 or -1. */
int store_each_sample_round(struct store *s, int64_t run_id,
			    int (*cb)(const char *section, const char *row, int round,
				      int iteration, double value, void *arg), void *arg);

/* The most rounds any sample of run_id was measured in (1 for a run
 * without repeat rounds or without samples). Return 0 or -1. */
int store_run_rounds(struct store *s, int64_t run_id, int *rounds);

/* ---- the time a section took (query.c) ---- */

/* The samples run run_id stored of section (one per sample, however many
 * result rows it has) and their total duration. Return 0 or -1. */
int store_section_time(struct store *s, int64_t run_id, const char *section,
		       int64_t *nsamples, int64_t *duration_ns);

#endif
