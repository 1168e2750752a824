/* background: a load an experiment's arm runs beside its samples (kbench
 * ab, `background = COMMAND` or `background-trigger = pcp-drain RATE/s`
 * in [arm:NAME]). It starts before the arm's first measured sample of a
 * round (after that row's warm-up), runs in a process group of its own
 * on the CPUs the samples are not pinned to, is stopped after the arm's
 * samples of the round (SIGTERM to the group, a bounded wait, SIGKILL),
 * and starts again when the arm is switched in again. A load that ends
 * while it should run fails the round. Nothing outlives kbench: the
 * load runs in a box of its own (machine/cgroup.h: a cgroup, which a
 * process that leaves the group with setsid stays in), killed whole when
 * the load is stopped; the leader dies with kbench (PR_SET_PDEATHSIG);
 * and the group and its box are recorded (machine/leftover.h) for the
 * next kbench command to kill. */
#ifndef KBENCH_BACKGROUND_H
#define KBENCH_BACKGROUND_H

#include <stdint.h>

#include "lib/strbuf.h"
#include "lib/worker.h"
#include "machine/cgroup.h"
#include "machine/leftover.h"

struct plan;
struct store;
struct strbuf;

/* The built-in trigger's most operations a second. */
#define BACKGROUND_MAX_RATE 100000
/* How long a stopped load has to end after SIGTERM before SIGKILL. */
#define BACKGROUND_TERM_WAIT_S 2.0

struct background {
	const char *arm;		/* its arm's name, for messages */
	const char *command;		/* background = COMMAND (run by /bin/sh -c); NULL */
	double rate;			/* background-trigger = pcp-drain RATE/s; 0: none */
	char *block;			/* the trigger's memory block state file */
	char *cpus;			/* where it runs ("P#1", "every CPU: ..."), once set */
	int apart;			/* it runs on CPUs the samples do not use */
	/* While it runs: */
	struct worker w;		/* the group's leader */
	struct leftover rec;
	struct cgroup_box box;		/* its processes, and all they start */
	int escaped;			/* processes of the box left after the group */
	int running;
	int64_t start_ns;		/* CLOCK_MONOTONIC */
	unsigned long long *ops;	/* the trigger's operations, shared with it */
	int *kfd;			/* the kernel's count (kprobes), one a CPU */
	int nkfd;
	char *kwhy;			/* why the kernel cannot count; NULL: it can */
	/* How its last run ended (background_stop): */
	int died;			/* it ended by itself while it should run */
	struct strbuf end;		/* "exited with status 1", ... */
};

/* Whether key is one of an arm's background keys. */
int background_key(const char *key);
/* Read an arm's background key (background, background-trigger) into
 * b, where naming its config line. Return 0, or -1 after saying why
 * (the file and line, the key, what was expected). */
int background_parse(struct background *b, const char *key, const char *value,
		     const char *where);
/* Where b runs beside plan p's samples: the CPUs none of p's sections is
 * pinned to (every CPU, said, when a section is unbound or nothing is
 * left). Return 0, or -1 after saying why. */
int background_place(struct background *b, const struct plan *p);

/* Start b, unless it runs. Return 0, or -1 with why in err. */
int background_start(struct background *b, struct strbuf *err);
/* Whether b, running, still does: 0, or -1 with why in err (it ended:
 * naming the arm, the load and how it ended); reaped then. */
int background_check(struct background *b, struct strbuf *err);
/* Stop b when it runs and store how its run of round `round` went as
 * facts of run_id (0: none stored). Return 0; 1 when it had ended by
 * itself (b->died); -1 when the facts cannot be stored. */
int background_stop(struct background *b, struct store *s, int64_t run_id, int round);
void background_release(struct background *b);

/* The run_request hook (runner/runner.h): start b before the first
 * measured sample, and check it is alive before and after each sample
 * while it runs. */
int background_around_sample(void *arg, int warm, int after, struct strbuf *why);

#endif
