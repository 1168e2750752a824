/* series: what the store holds of runs over time (series.c): a metric's
 * samples over runs, each run's per-row summaries for the between-run
 * noise, the work a run measured, and a machine's recent runs. */
#ifndef KBENCH_DB_SERIES_H
#define KBENCH_DB_SERIES_H

#include <stddef.h>
#include <stdint.h>

struct store;
struct strbuf;

/* ---- series over time: kbench history and regressions ---- */

/* Which series to read; NULL: any. */
struct series_filter {
	const char *host;
	const char *config;
	const char *section;
	const char *row;
};

/* One sample of a complete run, with what places it in a series (host,
 * config, section, row) and the run in time. */
struct series_sample {
	int64_t run_id;
	const char *uuid;
	const char *run_name;
	const char *hostname;
	const char *config_name;
	const char *kernel_release;
	const char *started_at;
	const char *section;
	const char *row;
	const char *unit;
	int higher_better;
	double value;
};

/* Every sample of the complete runs matching f: runs in id order, a run's
 * samples together (in no promised order within the run); cb returning
 * non-zero stops. The strings last until cb returns. */
int store_each_series_sample(struct store *s, const struct series_filter *f,
			     int (*cb)(const struct series_sample *r, void *arg), void *arg);

/* ---- between-run noise: compare and calibrate ---- */

/* One run's samples of one row of a section, summarised: what the
 * between-run noise of the row is estimated from. */
struct run_row_summary {
	int64_t run_id;
	/* Runs that measured the same thing share a group: same machine,
	 * config (name and text), effective options that change the work
	 * (store_run_work_options) and kernel (release, version, cmdline).
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

/* Summarise per run, section and row (and round, for a run of 3 rounds
 * or more: its rounds are replicates of its group) the complete runs among
 * run_ids[0..n-1] and, when series_runs > 0, the latest series_runs
 * complete runs on the machine and with the config name of each of them
 * (the rows' series). In order of group, run and first sample; cb
 * returning non-zero stops. The strings last until cb returns. */
int store_each_run_row_summary(struct store *s, const int64_t *run_ids, size_t n,
			       int series_runs,
			       int (*cb)(const struct run_row_summary *r, void *arg), void *arg);

/* The effective options of run run_id that its config text does not hold
 * and that change what it measured (-o overrides but of runner-only keys
 * such as iterations, an A/B arm's keys), "KEY=VALUE" a line, sorted,
 * appended to out (nothing when none). Runs that differ in them are in
 * different groups of store_each_run_row_summary. Returns 0 or -1. */
int store_run_work_options(struct store *s, int64_t run_id, struct strbuf *out);

/* The effective values of run run_id's sections that change what it
 * measured (all but the runner-only keys), "SECTION.KEY=VALUE" a line,
 * sorted, each line ending in a newline, appended to out. Two runs
 * measured different work when a line of one holds a SECTION.KEY that
 * the other has with another value. Returns 0 or -1. */
int store_run_work_values(struct store *s, int64_t run_id, struct strbuf *out);

/* Where run run_id measured, appended to out: "" natively; for a run in a
 * guest (kbench vm) its accelerator, icount shift, vCPUs and memory,
 * "vm.accel=tcg\nvm.memory_mib=512\nvm.vcpus=2" (KEY=VALUE lines, sorted,
 * no newline after the last). Runs of different kinds are in different
 * groups of store_each_run_row_summary. Returns 0 or -1. */
int store_run_kind(struct store *s, int64_t run_id, struct strbuf *out);

/* What one run was asked to do and what it did, to tell runs that
 * measured different work apart (compare/work.h). NULL reads as "". */
struct run_work {
	const char *config_text;	/* the config text the run was started with */
	/* The effective options the config text does not hold and that
	 * change the work (store_run_work_options): "KEY=VALUE" a line. */
	const char *options;
	/* The effective values that change the work (store_run_work_values):
	 * "SECTION.KEY=VALUE\n" each, sorted, without the last newline; ""
	 * when the run stored none (a kbench older than those values). */
	const char *values;
	/* Where it measured (store_run_kind): "" natively, else its guest's
	 * "vm.KEY=VALUE" lines. */
	const char *kind;
	int64_t run_id;		/* 0 where no stored run is meant */
};

/* For each complete run of f's host and config (its section and row are
 * not looked at), in order of id, its work into cb; cb returning non-zero
 * stops. The strings last until cb returns. Returns 0 or -1. */
int store_each_run_work(struct store *s, const struct series_filter *f,
			int (*cb)(const struct run_work *w, void *arg), void *arg);

/* ---- previous runs for reports and estimates ---- */

/* The complete runs made on the machine of fingerprint before run
 * `before` (0: any), newest first, at most limit of them: cb gets each
 * run's id and config name, and stops the walk by returning non-zero. */
int store_each_recent_run(struct store *s, const char *fingerprint, int64_t before, int limit,
			  int (*cb)(int64_t id, const char *config_name, void *arg), void *arg);

#endif
