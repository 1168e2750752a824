/* monitor: what the kernel did while a sample ran, measured around it.
 *
 * A monitor source is one file that fills a const struct monitor_ops;
 * monitor_sources[] in monitor.c is the one table of them. A section's
 * monitor set holds the sources its config chose (`monitors =`). The
 * runner drives the set around every counted sample:
 *
 *   monitor_set_before()   before the sample's process is forked
 *   monitor_set_attach()   after the fork, while the child is held
 *                          (child_start_held), before it runs anything
 *   monitor_set_after()    after the child is reaped
 *
 * and around every section (monitor_set_section_begin/_end) for figures
 * too slow to take per sample. Nothing runs inside the timed window: the
 * workload times itself inside the child. Sources never touch the store
 * or the config; values come back in a struct monitor_values and facts
 * about the run (an event this machine cannot count, and why) in a
 * struct monitor_facts, which the runner stores. */
#ifndef KBENCH_MONITOR_H
#define KBENCH_MONITOR_H

#include "db/store.h"

#include <stddef.h>
#include <sys/types.h>

struct rusage;
struct strbuf;

#define MONITOR_KEY_LEN 96

struct monitor_value {
	const char *source;		/* static: "perf", "vmstat", ... */
	char key[MONITOR_KEY_LEN];	/* "page-faults", "pgfault", "Slab:after" */
	enum monitor_kind kind;		/* how values of the key combine */
	double value;			/* unit by source: see docs/monitors.md */
};

/* A growable list of values; initialise with MONITOR_VALUES_INIT. */
struct monitor_values {
	struct monitor_value *v;
	size_t n, alloc;
};
#define MONITOR_VALUES_INIT { .v = NULL, .n = 0, .alloc = 0 }

void monitor_values_add(struct monitor_values *mv, const char *source,
			const char *key, enum monitor_kind kind, double value);
/* The value of source/key, or NULL. */
const struct monitor_value *monitor_values_find(const struct monitor_values *mv,
						const char *source, const char *key);
void monitor_values_reset(struct monitor_values *mv);
void monitor_values_release(struct monitor_values *mv);

/* Facts about the run, stored as run_meta (key, value). */
struct monitor_fact {
	char *key;	/* "perf.cycles" */
	char *value;	/* "not counted: no PMU on this machine (ENOENT)" */
	char *notice;	/* NULL, or a notice for the user; the runner prints each
			 * distinct one once per run */
};

struct monitor_facts {
	struct monitor_fact *f;
	size_t n, alloc;
};

/* notice may be NULL. */
void monitor_facts_add(struct monitor_facts *mf, const char *key, const char *value,
		       const char *notice);
void monitor_facts_release(struct monitor_facts *mf);

/* What configures a set: the two runner keys. */
struct monitor_conf {
	const char *monitors;		/* "rusage,perf,vmstat", "all", "none" */
	const char *perf_events;	/* "task-clock,page-faults,..." */
};

/* Defaults of the runner keys `monitors` and `perf_events`. */
#define MONITOR_DEFAULT_SOURCES "rusage,perf,vmstat"
#define MONITOR_DEFAULT_PERF_EVENTS "task-clock,page-faults,context-switches,cpu-migrations"

struct monitor_ops {
	const char *name;	/* as written in `monitors =` */
	const char *summary;	/* one line */
	/* Check the configuration and allocate the source's state. Return 0
	 * with *state set, or -1 with the reason in err. */
	int (*init)(const struct monitor_conf *conf, void **state, struct strbuf *err);
	/* Once per run, before any sample: find what this machine cannot
	 * measure, print one notice per item and add a fact. Optional. */
	void (*prepare)(void *state, struct monitor_facts *facts);
	/* Around each sample, see the header comment. Optional each. A
	 * source that cannot measure a sample warns once and adds nothing;
	 * it never fails the sample. */
	void (*before)(void *state);
	void (*attach)(void *state, pid_t pid);
	void (*after)(void *state, const struct rusage *ru, struct monitor_values *out);
	/* Around each section. Optional each. */
	void (*section_begin)(void *state, struct monitor_values *out);
	void (*section_end)(void *state, struct monitor_values *out);
	void (*free)(void *state);
};

/* The table of sources (monitor.c), NULL-terminated, in display order. */
extern const struct monitor_ops *const monitor_sources[];
const struct monitor_ops *monitor_find(const char *name);

extern const struct monitor_ops monitor_rusage;
extern const struct monitor_ops monitor_perf;
extern const struct monitor_ops monitor_vmstat;
extern const struct monitor_ops monitor_slab;

struct monitor_set;

/* Build the set conf names (NULL fields: the defaults). Return 0, or -1
 * with the reason in err (an unknown source, an unknown perf event). */
int monitor_set_new(const struct monitor_conf *conf, struct monitor_set **out,
		    struct strbuf *err);
void monitor_set_free(struct monitor_set *ms);
/* The sources of the set, "rusage,perf,vmstat", or "none". */
void monitor_set_describe(const struct monitor_set *ms, struct strbuf *sb);
int monitor_set_has(const struct monitor_set *ms, const char *source);
/* Does any source need monitor_set_attach() on the held child? */
int monitor_set_wants_attach(const struct monitor_set *ms);

void monitor_set_prepare(struct monitor_set *ms, struct monitor_facts *facts);
void monitor_set_before(struct monitor_set *ms);
void monitor_set_attach(struct monitor_set *ms, pid_t pid);
void monitor_set_after(struct monitor_set *ms, const struct rusage *ru,
		       struct monitor_values *out);
void monitor_set_section_begin(struct monitor_set *ms, struct monitor_values *out);
void monitor_set_section_end(struct monitor_set *ms, struct monitor_values *out);

/* Why perf_event_open failed with errno err, for facts and notices:
 * "no PMU on this machine (ENOENT)". Exposed for tests. */
void monitor_perf_reason(int err, struct strbuf *sb);

/* For sources parsing lists: copy the next item of a list separated by
 * commas or blanks from *p into buf (truncated to len) and advance *p.
 * Return 0 at the end of the list. */
int monitor_next_item(const char **p, char *buf, size_t len);

#endif
