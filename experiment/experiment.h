/* experiment: an interleaved A/B experiment (kbench ab): two or more arms,
 * each a set of changes (runtime knobs, workload options, environment, a
 * command prefix, or a kernel booted under QEMU for each of its rounds,
 * kernel/vm.h) applied before its samples and undone after, run in
 * rounds of every arm in a balanced order, each arm stored as a run of its
 * own (NAME/ARM) tied to one experiment; every knob journalled in the
 * store before it is first written and restored on every way out. */
#ifndef KBENCH_EXPERIMENT_H
#define KBENCH_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

#include "compare/sequential.h"
#include "runner/conf.h"
#include "kernel/kbuild.h"
#include "experiment/knob.h"
#include "runner/plan.h"

struct background;
struct store;
struct vm_config;

/* The default rounds of an experiment: twelve rounds give the paired test
 * 11 degrees of freedom, what finding a 10% change at 80% power takes at
 * the noise of this project's small workloads on a 2-CPU machine; six
 * found it in 7 of 20 experiments (docs/statistics.md). */
#define EXPERIMENT_DEFAULT_ROUNDS 12
/* The most arms and rounds: far beyond any real design. */
#define EXPERIMENT_MAX_ARMS 26
#define EXPERIMENT_MAX_ROUNDS 1000
/* The sequential design's defaults (rounds = auto): the first look after
 * 4 rounds, then one every 2 (an ABBA pair), up to 24 rounds; "no change"
 * when the interval lies within +/-5% of the baseline's mean; alpha 0.05
 * over all the looks (docs/statistics.md). */
#define EXPERIMENT_SEQ_MIN_ROUNDS 4
#define EXPERIMENT_SEQ_MAX_ROUNDS 24
#define EXPERIMENT_SEQ_EVERY 2
#define EXPERIMENT_SEQ_EQUIVALENCE 5.0
#define EXPERIMENT_SEQ_ALPHA 0.05

enum arm_order {
	ARM_ORDER_ABBA,		/* AB BA AB ...: forward, then backward */
	ARM_ORDER_SHUFFLE,	/* a seeded random order each round */
};

/* One value an arm gives a knob file (an index into the experiment's
 * files). */
struct arm_knob {
	size_t file;
	const char *value;	/* owned by the config */
};

/* A key of an arm, as written (for facts and the dry run). */
struct arm_key {
	const char *key, *value;	/* owned by the config */
	size_t nfiles;			/* files a knob key names; 0: not a knob */
};

struct arm {
	char *name;
	const struct conf_section *cs;	/* [arm:NAME] of the experiment's config */
	struct arm_knob *knobs;
	size_t nknobs, knobs_alloc;
	struct arm_key *keys;
	size_t nkeys, keys_alloc;
	char **overrides;		/* option.KEY = V as "KEY=V" */
	size_t noverrides, overrides_alloc;
	char **env;			/* env.NAME = V as "NAME=V" */
	size_t nenv, env_alloc;
	const char *prefix;		/* before an external workload's command */
	struct background *bg;		/* what runs beside its samples; NULL: nothing */
	/* A kernel arm: each of its rounds boots this guest and runs there
	 * (NULL: the arm runs on this machine). Its strings are the config's. */
	struct vm_config *vm;
	/* A kernel arm built from a git tree (its keys tree, ref, kconfig,
	 * fragment): what to build, and the kernel, resolved when loaded
	 * and built before the first round (vm's kernel is its image, its
	 * facts the run's kernel-* facts). NULL: its image is given. */
	struct kbuild_request *build;
	struct kbuild_result *built;
	const char **fragments;		/* build's: the defaults', then the arm's */
	size_t nfragments, fragments_alloc;
	const char *build_facts[2 * KBUILD_NFACTS + 1];
	struct config conf;		/* the configs with the arm's options */
	struct plan plan;
	int64_t run_id;			/* 0: not recorded yet */
	int ran_here;			/* this process ran a round of it */
	int done;			/* resumed with its run complete: every round
					 * ran; it is not switched in again */
	char *run_name;
};

struct experiment_options {
	char *const *configs;		/* paths */
	size_t nconfigs;
	char *const *overrides;		/* -o, over every arm */
	size_t noverrides;
	const char *name;		/* NULL: the config's name */
	int rounds;			/* 0: [experiment] rounds, else the default */
	/* rounds = auto: a sequential design, with its first look, its
	 * most rounds, its looks' step and its equivalence bound in % (0:
	 * [experiment]'s or the defaults; equivalence: when has_equivalence), and
	 * the rows that decide when it stops (PCRE2 over SECTION/ROW; NULL:
	 * [experiment] watch, else every mean row). design: the stored
	 * design's text (a resume) instead. */
	int rounds_auto;
	int min_rounds, max_rounds, look_every;
	double equivalence;
	int has_equivalence;
	const char *watch;
	const char *design;
	int iterations;			/* 0: as the configs say */
	const char *order;		/* "abba", "shuffle"; NULL: [experiment] order */
	uint64_t seed;			/* with has_seed: the seed of a shuffle */
	int has_seed;			/* 0: [experiment] seed, else drawn */
	const char *only;		/* PCRE2 over section names; NULL: all */
	/* Config text read after the configs, named `extra_name` in messages
	 * (kbench vm's -k and --append as [arm:NAME] sections); NULL: none. */
	const char *extra, *extra_name;
	/* What a kernel arm's guest takes from the command line (accel,
	 * vCPUs, memory...) before its own keys; NULL: VM_CONFIG_INIT. */
	const struct vm_config *vm;
	/* What a kernel arm built from a tree (tree = DIR, ref = REF) takes
	 * before its own keys: the cache, make's jobs, the timeout, the base
	 * config, the fragments merged before the arm's; NULL: no fragment,
	 * tinyconfig, the default cache. */
	const struct kbuild_request *build;
	/* The kernel arms' images are not checked: they are still to be
	 * built (kbench bisect checks its configs with stand-ins). */
	int images_later;
	/* The configs' text as a run stored it, instead of configs (a
	 * resumed experiment); config_origin names it in messages. */
	const char *config_text, *config_origin;
	/* The arms are extra's (the arms a resumed experiment stored), not
	 * the [arm:NAME] sections of the configs' text. */
	int arms_stored;
};

struct experiment {
	struct config conf;		/* the configs as given */
	struct arm *arms;
	size_t narms;
	struct knob_files files;	/* every knob file of every arm */
	int rounds;			/* sequential: the most */
	/* A sequential design (rounds = auto): the experiment looks at its
	 * arms as seq says and stops at the first look that decides every
	 * watched row (experiment/ab_looks.h); watch as experiment_options'. */
	int sequential;
	struct seq_plan seq;
	char *watch;
	enum arm_order order;
	uint64_t seed;
	int has_seed;			/* seed given (shuffle) */
	char *name;
	int64_t id;			/* in the store; 0: not recorded */
	char uuid[37];
	int resumed;			/* id is an experiment stopped before, resumed */
	double wait_knobs;		/* s to wait for another kbench's knobs; 0: refuse */
	/* What was asked of every arm, stored with each arm's run so that
	 * a resume builds the same arms. */
	char **overrides;		/* -o */
	size_t noverrides;
	char *only;
	int iterations;
	/* The experiment as it runs, stored with each arm's run for a
	 * resume: its arms as [arm:NAME] sections, every path in them
	 * absolute (experiment-arms), and the guest's options the kernel
	 * arms start from, KEY=VALUE lines (experiment-guest; NULL: none
	 * given). guest_buf holds the strings of a resumed one's. */
	char *arms_text, *guest_text, *guest_buf;
	/* Called after each round but the last, once every arm ran it (NULL:
	 * none): 1 ends the experiment there, complete, its design cut to
	 * that many rounds (a sequential design: kbench bisect looks every
	 * few rounds and stops at the first look that decides), 0 goes on,
	 * -1 (after saying why) fails it. */
	int (*round_done)(struct experiment *e, struct store *s, int round, void *arg);
	void *round_done_arg;
};

/* A seed of the shuffled order, an integer from 0 to 2^64 - 1, into
 * *out, as the seed key reads it (experiment/experiment_settings.h).
 * Return 0, or -1 after saying "WHERE: seed = 'TEXT': expected ...". */
int experiment_parse_seed(const char *text, const char *where, uint64_t *out);

/* Read the configs, their [experiment] section and [arm:NAME] sections,
 * find every knob file (with its current value) and build each arm's
 * plan. Nothing is written. Return 0, or -1 after saying why (file,
 * line, section and key). */
int experiment_load(struct experiment *e, const struct experiment_options *o);
void experiment_release(struct experiment *e);

/* The arms of round `round` (from 1) in the order they run: indexes into
 * order[0..narms-1]. */
void experiment_round_order(const struct experiment *e, int round, size_t *order);

/* The arms' order as an experiment says it when it starts, in buf (len
 * bytes): "abba" for two arms, "shuffle"; for more, the order the rounds
 * run them in ("abc cba": forward in odd rounds, backward in even ones),
 * so that three arms do not read as two. */
const char *experiment_order_text(const struct experiment *e, char *buf, size_t len);

/* What --dry-run prints: the design, the arms, the knobs with their
 * current values and whether this process may write them, then each
 * arm's plan (estimates from s when not NULL). Return 0, or -1. */
int experiment_dry_run(const struct experiment *e, struct store *s);

/* Load experiment id of s to resume it: the configs' text, the design
 * and what was asked of every arm, as its arms' runs stored them, each
 * arm tied to its run (an arm with none starts one); build: as
 * experiment_options' build. Refused on another machine or kernel, when
 * an arm's plan would differ from its run's, or when the ref of an arm
 * built from a tree now names another commit than its run's, unless
 * force. Return 0, 1 when it is complete (nothing to resume, after
 * saying so), or -1 after saying why. */
int experiment_load_stored(struct experiment *e, struct store *s, int64_t id, int force,
			   const struct kbuild_request *build);

/* How an experiment ended, and the status stored with it. */
enum experiment_outcome {
	EXPERIMENT_COMPLETE,	/* "complete": every round of every arm ran */
	EXPERIMENT_FAILED,	/* "failed": a build, the store, a sample or a
				 * knob's restoring failed */
	EXPERIMENT_REFUSED,	/* "failed": a knob cannot be changed or
				 * restored; nothing was measured */
	EXPERIMENT_STOPPED,	/* "interrupted": a signal stopped it */
};

/* The exit status of an outcome: 0, 1, 2, or 128+signal for
 * EXPERIMENT_STOPPED. */
int experiment_exit_status(enum experiment_outcome outcome, int signal);

/* Whether this process may write every knob file of e: checked before
 * the store is opened, so that a refused experiment leaves nothing, not
 * even an empty store. Return 0, or -1 after saying which it cannot. */
int experiment_check_knobs(const struct experiment *e);

/* Run the experiment into s: build the kernels of the arms built from a
 * tree (or find them in the kernel cache; a build that fails stops it
 * before anything), journal every knob, check that every arm's
 * knobs can be set and restored (else stop before any sample), then run
 * the rounds, switching the arms' changes in and out, and restore every
 * knob whatever happens. Return the exit status of its outcome
 * (experiment_exit_status): 0 when complete, 1 after a failure, 2 when a
 * knob cannot be changed or restored (nothing measured), 128+N when
 * stopped by signal N. */
int experiment_run(struct experiment *e, struct store *s);

#endif
