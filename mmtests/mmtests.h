/* mmtests: mmtests' results directories as kbench runs (kbench import
 * --mmtests) and kbench runs in mmtests' layout (kbench export --mmtests),
 * for the benchmarks both have: hackbench, netperf, pft, tbench and
 * sysbench's cpu test. docs/mmtests.md says what maps to what. */
#ifndef KBENCH_MMTESTS_H
#define KBENCH_MMTESTS_H

#include <stddef.h>
#include <stdint.h>

struct bundle_run;
struct import_counts;
struct store;
struct strbuf;

/* ---- reading one log (mmtests_log.c) ---- */

/* The logs kbench reads, each as mmtests' extraction reads it. */
enum mmtests_log {
	MMTESTS_LOG_HACKBENCH,	/* every "Total time: T" line (perf bench
				 * sched messaging, which mmtests has run
				 * since May 2019): T seconds */
	MMTESTS_LOG_NETPERF,	/* netperf's output: the last field of the
				 * last line of five or more numbers */
	MMTESTS_LOG_UDP_STREAM,	/* UDP_STREAM: the last field of the line of
				 * six numbers (send), then of four (receive) */
	MMTESTS_LOG_PFT,	/* pft: per line of eight numbers, user, system,
				 * elapsed, faults/cpu, faults/sec */
	MMTESTS_LOG_TBENCH,	/* the final "Throughput X MB/sec" */
	MMTESTS_LOG_SYSBENCH_CPU, /* every "events per second: X" */
	MMTESTS_LOG_HACKBENCH_TIME, /* every line starting "Time: T" (the
				 * hackbench.c mmtests ran before May 2019) */
	MMTESTS_NLOGS
};

/* The figures read from one log: per record `per` values (1; 2 for
 * UDP_STREAM; 5 for pft), n values in all. */
struct mmtests_values {
	double *v;
	size_t n, alloc;
	size_t per;
	/* hackbench: the lines the log's other form would read (a "Time:"
	 * line of a log read for "Total time:", and the reverse), not read */
	size_t other;
	/* netperf: the unit its header gives the result in, as netperf's
	 * -f letter: 'x' ("per sec": transactions), 'k', 'm' or 'g'
	 * ("10^3bits/sec" ...), or another of -f's letters ('b', 'B', 'K',
	 * 'M', 'G'); 0 when no header line before the result names one */
	char unit;
	size_t unit_line;	/* the header line that names it (0: none) */
	size_t result_line;	/* the result line's (0: no result) */
};

void mmtests_values_release(struct mmtests_values *vals);

/* The compiled patterns the logs are read with (PCRE2). */
struct mmtests_parser;

/* Compile the patterns; NULL after printing why (a bug). */
struct mmtests_parser *mmtests_parser_new(void);
void mmtests_parser_free(struct mmtests_parser *p);

/* Read the figures of log text[0..len) of kind into vals (reset first);
 * name is the file for messages. Return 0 (a log without figures reads as
 * none), or -1 with "NAME:LINE: what was expected, what was found" in err
 * for a line that holds a figure mmtests would read but is not a number. */
int mmtests_parse_log(struct mmtests_parser *p, enum mmtests_log kind, const char *name,
		      const char *text, size_t len, struct mmtests_values *vals,
		      struct strbuf *err);

/* ---- import (mmtests.c) ---- */

/* What the import says as it goes; any may be NULL. */
struct mmtests_import_cbs {
	/* A benchmark directory that is not imported, once per run and name;
	 * benchmark NULL: the whole run is not. */
	int (*skipped)(const char *run, const char *benchmark, const char *why, void *arg);
	/* A run found, before anything is stored (as store_import's cb). */
	int (*run)(const struct bundle_run *r, void *arg);
	void *arg;
};

/* How mmtests_import() imports. */
enum {
	MMTESTS_DRY_RUN = 1,	/* change nothing */
	MMTESTS_UNFINISHED = 2,	/* runs mmtests has not finished too, as
				 * interrupted runs (else skipped) */
};

/* Read dir, an mmtests results directory (work/log: one directory per
 * run, each with iter-N directories; or one run's directory, the run
 * named as the directory is, whatever path reaches it), into runs of the
 * store it lacks, in one transaction through a bundle (runs are known by
 * a uuid made from the host, run name and start time, or what the run
 * holds when no start time is recorded: importing twice adds nothing).
 * Only regular files of at most 64 MiB, raw and decompressed, are read.
 * A run mmtests has not finished (its tests-timestamp or tests-activity
 * say so) is passed to cbs->skipped and left out, unless flags has
 * MMTESTS_UNFINISHED. Every run, section, row and host name is checked
 * as lib/name.c checks them; a malformed log or fact refuses the whole
 * directory, naming the file and line, and nothing is stored. Return 0
 * with c filled, or -1 after printing why. */
int mmtests_import(struct store *s, const char *dir, unsigned flags,
		   const struct mmtests_import_cbs *cbs, struct import_counts *c);

/* ---- export (mmtests_export.c) ---- */

/* Write runs run_ids[0..n-1] into dir (created when absent) as mmtests
 * lays out its results, one directory per run name, for compare-kernels.sh
 * to read. A run directory that exists already is refused, as are two runs
 * of one name, before anything is written; nothing is left behind on
 * failure. A section kbench cannot write in mmtests' layout is passed to
 * skipped (may be NULL) and left out. Return 0, or -1 after printing why. */
int mmtests_export(struct store *s, const int64_t *run_ids, size_t n, const char *dir,
		   int (*skipped)(const char *run, const char *section, const char *why,
				  void *arg), void *arg);

#endif
