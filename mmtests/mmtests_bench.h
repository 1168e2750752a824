/* mmtests_bench: what the reading of an mmtests results directory
 * (mmtests.c), its writing (mmtests_export.c) and the benchmarks
 * (bench_*.c, one file each or per family, listed in mmtests_benches.c)
 * share: a run as it is read and as it is written, the reading and
 * writing of its files, and the one table of what kbench knows of each
 * benchmark. Nothing outside mmtests/ includes it. */
#ifndef KBENCH_MMTESTS_BENCH_H
#define KBENCH_MMTESTS_BENCH_H

#include "mmtests/mmtests.h"
#include "db/store.h"
#include "lib/strbuf.h"
#include "machine/sysinfo.h"

#include <stddef.h>
#include <stdint.h>

/* ---- a run as it is read (mmtests.c, mmtests_run.c) ---- */

/* One sample as kbench stores it: up to five result rows (pft's four). */
struct mm_set {
	char *section;
	const char *workload;
	int iteration;
	size_t n;
	struct sample_record r[4];
};

/* A counter of samples per (section, first row), which numbers them. */
struct mm_count {
	char *key;
	int n;
};

/* A benchmark directory not imported, and why. */
struct mm_skip {
	char *bench, *why;
};

/* One run directory, read. */
struct mm_run {
	char *name, *path;
	struct machine_info m;
	struct kernel_info k;
	char *mmtests_version, *config_text;
	long long start, finish;	/* epoch seconds; -1: not known */
	char *unfinished;		/* why mmtests has not finished the run;
					 * NULL: it has, or nothing says */
	struct mm_set *sets;
	size_t nsets, asets;
	struct mm_count *counts;
	size_t ncounts;
	struct mm_skip *skips;
	size_t nskips;
	struct strbuf benches;		/* "section\tbenchmark\n" of what was read */
};

struct mm_ctx {
	struct mmtests_parser *parser;
	struct mmtests_values vals;
	struct strbuf text, err;
};

/* What each result row of a benchmark is. */
struct mm_metric {
	const char *prefix;	/* the row is PREFIX-LABEL, or LABEL for "" */
	const char *unit;
	int higher;
};

/* ---- a run as it is written (mmtests_export.c, mmtests_write.c) ---- */

struct ex_sample {
	char *section, *workload, *row, *unit;
	int iteration, round;
	double value;
	double user_s, duration_s;
	int64_t duration_ns, user_ns, sys_ns;	/* the sample set's */
	const char *bench;	/* the mmtests benchmark it is written as; NULL:
				 * none */
	int dir;		/* the iter-N directory it is written to */
};

struct ex_run {
	struct run_info info;
	struct ex_sample *v;
	size_t n, alloc;
	long long start, finish;	/* epoch seconds */
	struct strbuf mmtests;		/* the benchmarks, blank-separated */
	struct strbuf config;		/* the config's exports */
	int iterations;			/* iter-N directories written */
};

/* The entries of a directory, in natural order (hackbench-2 before
 * hackbench-10). */
struct mm_names {
	char **v;
	size_t n;
};

/* One benchmark of mmtests (its directory iter-N/NAME/logs), as kbench
 * reads and writes it: the benchmarks kbench reads, and those it knows it
 * cannot. */
struct mmtests_bench {
	const char *name;	/* a name, or a prefix ending in '*' */
	/* Read the logs of benchmark directory bench (its logs/ is logs)
	 * into samples of run r. Return 0 (a benchmark kbench cannot read
	 * there is passed to mmtests_skip()), or -1 after printing why. */
	int (*import)(struct mm_ctx *c, struct mm_run *r, const char *bench, const char *logs);
	const char *why;	/* no import: why it is not read */
	/* Whether s, the first sample of its section in a run, is one this
	 * benchmark writes (by its workload, or its section and row). NULL:
	 * kbench writes none. */
	int (*exports)(const struct ex_sample *s);
	/* Write section of r under root as this benchmark's logs, with
	 * *bench set to the benchmark directory they are written to (set
	 * first, even when the writing fails). Return 0, or -1 after
	 * printing why. */
	int (*export)(const char *root, struct ex_run *r, const char *section,
		      const char **bench);
};

/* The benchmarks (bench_*.c). */
extern const struct mmtests_bench mmtests_hackbench;
extern const struct mmtests_bench mmtests_netperf;
extern const struct mmtests_bench mmtests_pft;
extern const struct mmtests_bench mmtests_tbench;
extern const struct mmtests_bench mmtests_sysbench_cpu;

/* The entry of the table (mmtests_benches.c) for a benchmark directory
 * named name; NULL: not a benchmark kbench knows. */
const struct mmtests_bench *mmtests_find_bench(const char *name);
/* The entry of the table that writes sample s, the first of its section;
 * NULL: no mmtests benchmark reads it. */
const struct mmtests_bench *mmtests_find_export(const struct ex_sample *s);

/* ---- the files of a results directory (mmtests_files.c) ---- */

void mmtests_names_release(struct mm_names *d);
/* The entries of path (not . or ..) in natural order; a missing directory
 * has none. Return 0, or -1 after printing why. */
int mmtests_list_dir(const char *path, struct mm_names *out);
/* The text of the file at path into sb (reset first), through gzip or xz
 * for a .gz or .xz file; only a regular file of at most 64 MiB, raw and
 * decompressed, not one of the kernel's file systems. Return 0, 1 when
 * there is no such file, or -1 after printing why. */
int mmtests_read_file(const char *path, struct strbuf *sb);
/* mmtests_read_file() of path, else of path.gz: path is left naming the
 * file read. */
int mmtests_read_file_gz(struct strbuf *path, struct strbuf *sb);

/* ---- a run as it is read (mmtests_run.c) ---- */

/* Note that benchmark directory bench of r is not imported, and why
 * (once per name). */
void mmtests_skip(struct mm_run *r, const char *bench, const char *why);
/* Add one sample of section (workload) for row label with the n values
 * v, one for each of metrics m; file names it for messages. Return 0, or
 * -1 after printing why (a section or row name kbench refuses). */
int mmtests_add_set(struct mm_run *r, const char *file, const char *section, const char *workload,
		    const char *label, const struct mm_metric *m, const double *v, size_t n);
/* Remember that section was read from benchmark (run_meta), once: a
 * section that got no sample too. logs names the benchmark's directory
 * for messages. Return 0, or -1 after printing why section cannot be a
 * section's name. */
int mmtests_note_bench(struct mm_run *r, const char *logs, const char *section,
		       const char *bench);
/* Parse the log at path as kind into c->vals; 1 when there is no such
 * file, 0, or -1 after printing why. */
int mmtests_parse_file(struct mm_ctx *c, const char *path, enum mmtests_log kind);
/* The number after prefix in name and before one of the suffixes given
 * (NULL-terminated; "" for none, "*S" for S and anything after it, left
 * in *rest when rest is not NULL): hackbench-4 gives 4. 0 when it is
 * not. */
long long mmtests_name_number(const char *name, const char *prefix, const char *const *suffixes,
			      const char **rest);
/* Read every file of logs named PREFIX<N><SUFFIX>, whose <N> is the row
 * label, as kind, each figure one sample of section with metric m.
 * Return 0, or -1 after printing why. */
int mmtests_import_numbered(struct mm_ctx *c, struct mm_run *r, const char *logs,
			    const char *section, const char *workload, const char *prefix,
			    const char *const *suffixes, enum mmtests_log kind,
			    const char *label_prefix, const struct mm_metric *m);

/* ---- what writes a run's files (mmtests_write.c) ---- */

/* v with the fewest decimals that read back as v, never in exponent form
 * (mmtests' patterns read [0-9.]), appended to out. */
void mmtests_add_exact(double v, struct strbuf *out);
/* mkdir -p path. Return 0, or -1 after printing why. */
int mmtests_make_dirs(const char *path);
/* Write text to the new file at path (its directory made first). Return
 * 0, or -1 after printing why. */
int mmtests_write_new(const char *path, const struct strbuf *text);
/* Append text to the file at path (made when absent). Return 0, or -1
 * after printing why. */
int mmtests_append(const char *path, const struct strbuf *text);
/* The number after prefix in row ("clients-4" with "clients-"), or 0. */
long long mmtests_row_number(const char *row, const char *prefix);
/* How many samples of (section, row) came before sample i: its number in
 * the files that hold one sample each, from 1. */
int mmtests_ordinal(const struct ex_run *r, size_t i);
/* The benchmark's logs directory of iteration iter under root, into p
 * (reset first). */
void mmtests_logs_dir(struct strbuf *p, const char *root, const struct ex_run *r, int iter,
		      const char *bench);

#endif
