/* bisect_ctx: what a bisection in progress holds, shared by its start
 * and resume (bisect/bisect_run.c) and its steps (bisect/bisect_step.c):
 * its commits, its walk, its settings, the row it bisects, the kernels
 * built for it. */
#ifndef KBENCH_BISECT_CTX_H
#define KBENCH_BISECT_CTX_H

#include "bisect/bisect.h"
#include "bisect/bisect_settings.h"
#include "compare/sequential.h"
#include "kernel/kbuild.h"
#include "kernel/vm.h"

#include <stddef.h>
#include <stdint.h>

struct store;
struct strbuf;

struct bcommit {
	char *id, *subject, *author;
	int parents;
};

/* A kernel built for a commit in this process. */
struct built {
	char *commit;
	struct kbuild_result res;
};

struct bisect_ctx {
	struct store *s;
	int64_t id;
	char *tree;
	/* commits[0] the good end, commits[1 + i] commit i of the walk. */
	struct bcommit *commits;
	size_t ncommits, commits_alloc;
	struct bisect_walk walk;
	/* The settings, as stored. */
	struct bisect_settings set;
	struct vm_config vc;
	/* The looks of a step (every `rounds` rounds up to max_rounds) and
	 * their bounds, so that looking does not raise the false-positive
	 * rate (compare/sequential.h). */
	struct seq_design design;
	char *config_text, *config_name;
	/* The row decided on (NULL until step 0 chose it) and its change
	 * from the good end to the bad one. */
	char *section, *row;
	double regression_pct;
	int next_step;
	int64_t started_ns;
	double spent_s;			/* by the finished steps before a resume */
	struct built *built;
	size_t nbuilt, built_alloc;
};

/* Free what b holds and leave it zeroed. */
void bisect_ctx_release(struct bisect_ctx *b);

/* Commit idx of the walk (-1: the good end). */
const struct bcommit *bisect_ctx_commit(const struct bisect_ctx *b, long idx);

/* A commit id as the messages name it: its first 12 characters. */
void bisect_short_id(const char *id, char *buf, size_t len);

/* The time the bisection has taken, with the steps finished before a
 * resume: "M:SS" or "H:MM:SS", appended to sb. */
void bisect_ctx_elapsed(const struct bisect_ctx *b, struct strbuf *sb);

#endif
