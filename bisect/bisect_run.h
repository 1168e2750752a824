/* bisect_run: kbench bisect's steps. git lists the commits between the
 * ends; step 0 runs the good end against the bad one to confirm the
 * regression and choose its row; each later step builds the commit the
 * walk picks (bisect/bisect.h) and runs one interleaved experiment whose
 * kernel arms are the good end of the range still open, that commit and
 * the bad end (experiment/experiment.h), and takes its verdict from the
 * paired comparisons (compare/verdict.h). Everything is stored as it
 * happens (db/bisect.h), so that a stopped bisection resumes. */
#ifndef KBENCH_BISECT_RUN_H
#define KBENCH_BISECT_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "bisect/bisect_settings.h"

struct store;
struct strbuf;
struct vm_config;

struct bisect_options {
	const char *tree;
	const char *good, *bad;		/* refs, as git takes them */
	char *const *configs;		/* paths */
	size_t nconfigs;
	char *const *overrides;		/* -o KEY=VALUE, over the configs */
	size_t noverrides;
	const char *only;		/* PCRE2 over section names; NULL: all */
	const char *row;		/* "SECTION/ROW"; NULL: the largest regression */
	double threshold_pct;
	int rounds, max_rounds;
	const char *kconfig;		/* NULL: the builder's default */
	char *const *fragments;
	size_t nfragments;
	const char *guest_fragment;	/* merged first; NULL: none */
	const char *cache_dir;		/* NULL: the builder's default */
	int jobs;			/* make -jN; 0: the online CPUs */
	double build_timeout_s;		/* 0: the builder's default */
	/* The guests: accel, vcpus, mem_mib and append are taken. */
	const struct vm_config *vm;
	const char *command;		/* the command line, quoted, for the report */
	/* List the commits and the first step on stdout, then stop: nothing
	 * is built, run or stored. */
	int dry_run;
};

/* What a bisection ended with. */
enum {
	BISECT_DONE_FOUND = 0,		/* a first bad commit is named */
	BISECT_DONE_NOT_FOUND = 1,	/* nothing to bisect, only skipped commits
					 * left, or a failure */
};

/* Check the rounds and the threshold of o, setting its max_rounds when
 * 0 (BISECT_DEFAULT_MAX_ROUNDS, or its rounds when more). Return 0, or
 * -1 with err saying which option is wrong. */
int bisect_options_check(struct bisect_options *o, struct strbuf *err);

/* Start a bisection into s: list the commits, record it, then run its
 * steps to the end (o->dry_run: list them and stop, returning 0). *id is
 * set as soon as it is stored (0 before).
 * Return BISECT_DONE_FOUND, BISECT_DONE_NOT_FOUND, 128+N when stopped by
 * signal N, or -1 after an error found before anything was stored (a
 * tree that is not there, a ref git does not know, ends that are not in
 * order), -2 after a usage error found before it (a config that does not
 * validate, a row it lacks). */
int bisect_start(struct store *s, const struct bisect_options *o, int64_t *id);

/* Go on with bisection id of s where it stopped: its finished steps are
 * taken as they are, the built kernels come from the builder's cache.
 * Return as bisect_start; -1 when it cannot be resumed (complete, still
 * running, its tree or commits gone), after saying why. */
int bisect_resume(struct store *s, int64_t id);

#endif
