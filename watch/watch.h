/* watch: kbench watch, the nightly loop. A watch (a [watch] section of a
 * config file) follows a branch of a kernel tree; each cycle fetches it,
 * and when its tip moved builds the new tip, runs one interleaved A/B
 * experiment of the last tip tested against it under QEMU, takes each
 * gating row's paired verdict, bisects a row worse beyond the threshold
 * with a verdict, and mails the report of the first bad commit. Every
 * step is stored as it happens (db/watch.h): a cycle killed anywhere is
 * resumed by the next, a report is mailed once, and a mail that could not
 * be sent is sent by the next cycle. */
#ifndef KBENCH_WATCH_H
#define KBENCH_WATCH_H

#include <stddef.h>

#include "runner/conf.h"

struct store;
struct strbuf;

/* The most a git fetch may take by default, in seconds. */
#define WATCH_FETCH_TIMEOUT_S 600
/* The rounds of a cycle's experiment, and the most a bisection step runs,
 * by default: bisect/bisect_run.h's. */
#define WATCH_DEFAULT_ROUNDS 6
#define WATCH_DEFAULT_MAX_ROUNDS 12
#define WATCH_DEFAULT_THRESHOLD 5.0

struct watch_config {
	char *path;			/* the watch's config file, absolute */
	struct config conf;		/* its text */
	char *tree;			/* absolute */
	const char *remote, *branch;
	const char *baseline;		/* a fixed ref tested against; NULL: the
					 * last tip tested */
	char **configs;			/* the benchmark configs, absolute; none:
					 * the file's own sections */
	size_t nconfigs;
	char *bench_text;		/* the benchmark configs' text */
	char **rows;			/* gating SECTION/ROW (or SECTION); none:
					 * every row */
	size_t nrows;
	const char *kconfig;		/* as given; NULL: tinyconfig */
	char **fragments;		/* as given */
	size_t nfragments;
	const char *guest_fragment;	/* as given: a file, or "none"; NULL: the
					 * shipped one */
	const char *cache;		/* NULL: the builder's default */
	int jobs;
	double build_timeout_s, fetch_timeout_s;
	int rounds, max_rounds;
	double threshold_pct;
	const char *accel, *append;
	int vcpus, mem_mib, icount;
	double boot_timeout_s;
	/* The mail: [watch]'s keys, else the file's [mail] section, else
	 * what the caller fills in (the user's [mail]). */
	char **to, **cc;
	size_t nto, ncc;
	const char *from, *smtp, *cafile;
	int mail_timeout_s;
};

/* Read the watch of the config file path: its [watch] section, its [mail]
 * section, and the benchmark configs it names (or its other sections).
 * Return 0, or -1 after saying why, naming FILE:LINE and the key. */
int watch_config_load(struct watch_config *w, const char *path);
void watch_config_release(struct watch_config *w);

/* A [mail] list ("a@x, b@y") split into its addresses, appended to
 * *list. */
void watch_split_list(const char *v, char ***list, size_t *n);

/* What a cycle runs with, resolved by the caller. */
struct watch_run {
	const struct watch_config *cfg;
	const char *kconfig;		/* absolute when a file; NULL: tinyconfig */
	const char *guest_fragment;	/* a path; NULL: none */
	char *const *fragments;		/* paths */
	size_t nfragments;
	const char *command;		/* the command line, for the records */
	int dry_run;			/* say what the cycle would do, do nothing */
};

/* One cycle of the watch into s (s may be NULL for a dry run without a
 * store): resume the last unfinished one first, retry the pending mails,
 * then fetch and test the new tip. Return 0 when the cycle did what it
 * had to (a failed build or fetch recorded and mailed included), 1 after
 * a failure (a mail left pending included), 128+N when stopped by signal
 * N. */
int watch_cycle(struct store *s, const struct watch_run *r);

/* What kbench watch --status prints: each cycle of every watch in s (or
 * of the watch of cfg when not NULL), as text or (json) a kbench-watch
 * document, appended to out. Return 0, or -1 after saying why. */
int watch_status(struct store *s, const struct watch_config *cfg, int json,
		 struct strbuf *out);

/* The format_version of the JSON of --status. */
#define WATCH_STATUS_FORMAT_VERSION 1

#endif
