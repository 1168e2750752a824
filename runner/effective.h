/* effective: a run's effective options, section by section (the keys set
 * and the defaults its workload filled in), as a plan makes them and as
 * the store holds them, compared and diffed for reports and estimates. */
#ifndef KBENCH_EFFECTIVE_H
#define KBENCH_EFFECTIVE_H

#include <stddef.h>
#include <stdint.h>

struct plan;
struct store;
struct strbuf;

struct effective_opt {
	char *section;
	char *key;
	char *value;
};

/* The options in the order the run stores them: per section its
 * workload, the workload's options, iterations, warmup and timeout. */
struct effective {
	struct effective_opt *v;
	size_t n, alloc;
};

#define EFFECTIVE_INIT { .v = NULL, .n = 0, .alloc = 0 }
void effective_release(struct effective *e);

/* The effective options of every section of p, as record_begin_run stores
 * them. */
void effective_from_plan(const struct plan *p, struct effective *out);
/* The effective options stored with run run_id (its sections' run_meta
 * rows that are options: workload, the workload's own keys, iterations,
 * warmup, timeout). Return 0, or -1 after an error. */
int effective_from_run(struct store *s, int64_t run_id, struct effective *out);

/* Whether section has the same options in a and b (1), the same keys
 * with the same values whatever their order; 0 when it differs or is
 * missing from either. */
int effective_section_equal(const struct effective *a, const struct effective *b,
			    const char *section);
/* Whether a and b have the same sections with the same options. */
int effective_equal(const struct effective *a, const struct effective *b);
/* What changed from old to new, one line per key ("    key: old -> new")
 * under a line per section ("  [name]"); a section in one only says so. */
void effective_diff(const struct effective *old, const struct effective *new,
		    struct strbuf *out);

#endif
