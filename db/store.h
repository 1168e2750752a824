/* store: the SQLite results database; db/ is the only place in kbench with
 * SQL. store.c opens, migrates and writes; query.c reads.
 *
 * Writers commit each sample as soon as it is measured (BEGIN IMMEDIATE,
 * WAL, busy timeout), so a crash or kill -9 loses at most the sample in
 * flight. Every function returns 0 on success, or -1 after printing an
 * error that names the database. */
#ifndef KBENCH_STORE_H
#define KBENCH_STORE_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;
struct machine_info;
struct kernel_info;
struct store;

/* The schema version this build writes (PRAGMA user_version). */
#define STORE_SCHEMA_VERSION 2

/* $KBENCH_DB, else $XDG_DATA_HOME/kbench/kbench.db, else
 * ~/.local/share/kbench/kbench.db. Written into sb. */
void store_default_path(struct strbuf *sb);
/* Open (creating it and its directory if needed) and migrate. */
int store_open(const char *path, struct store **out);
void store_close(struct store *s);
const char *store_path(const struct store *s);

struct run_record {
	const char *uuid;
	const char *name;
	const char *config_name;
	const char *config_text;
	const char *kbench_version;
	const char *started_at;
};

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
	int iteration;
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
	int64_t nsamples;
	int64_t nfailures;
};

void run_info_release(struct run_info *r);

struct run_filter {
	const char *name;	/* NULL: any */
	const char *host;
	const char *config;
	const char *since;	/* ISO date/time prefix comparison */
	int limit;		/* 0: all */
};

/* Call cb for each run in id order; stop early when cb returns non-zero. */
int store_each_run(struct store *s, const struct run_filter *f,
		   int (*cb)(const struct run_info *r, void *arg), void *arg);
int store_get_run(struct store *s, int64_t run_id, struct run_info *out);

/* Resolve a selector: "#ID", a uuid prefix (8+ hex digits), "NAME@HOST" or
 * NAME (latest complete run of that name). On no match or ambiguity,
 * err says why and -1 is returned without printing. */
int store_resolve_run(struct store *s, const char *selector, int64_t *run_id,
		      struct strbuf *err);
/* Every run of that name (complete ones), for pooling; *ids malloc'd
 * (NULL when there is none). */
int store_runs_named(struct store *s, const char *name, int64_t **ids, size_t *n);
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
};

/* Samples of a run in measurement order; cb returning non-zero stops. */
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

/* How many samples each section of a run holds. */
struct section_count {
	const char *section;
	int64_t samples;
	int64_t flagged;	/* samples with a flag */
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

/* One run's samples of one row of a section, summarised: what the
 * between-run noise of the row is estimated from. */
struct run_row_summary {
	int64_t run_id;
	/* Runs that measured the same thing share a group: same machine,
	 * config (name and text) and kernel (release, version, cmdline).
	 * Numbered from 1 in the order of the runs returned. */
	int64_t group;
	int calibration;	/* the run is tagged run_meta ('', 'calibration') */
	const char *section;
	const char *row;
	const char *unit;
	int higher_better;
	int64_t n;		/* samples */
	double mean, m2;	/* of the values: mean, sum of squared deviations */
	double inv_mean, inv_m2; /* the same of 1/value; NaN when a value <= 0 */
};

/* Summarise per run, section and row the complete runs among
 * run_ids[0..n-1] and, when series_runs > 0, the latest series_runs
 * complete runs on the machine and with the config name of each of them
 * (the rows' series). In order of group, run and first sample; cb
 * returning non-zero stops. The strings last until cb returns. */
int store_each_run_row_summary(struct store *s, const int64_t *run_ids, size_t n,
			       int series_runs,
			       int (*cb)(const struct run_row_summary *r, void *arg), void *arg);

#endif
