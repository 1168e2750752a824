/* bisect_monitors: the monitors of a bisection's first bad commit
 * against its parent's that changed beyond their noise, for its report
 * (cli/bisect_report.c), as LKP's reports list perf-stat deltas. */
#ifndef KBENCH_BISECT_MONITORS_H
#define KBENCH_BISECT_MONITORS_H

#include <stddef.h>
#include <stdint.h>

struct monitor_row;
struct store;
struct strbuf;

/* A key is listed when Welch's t-test on its values per sample gives a
 * p-value below this: stricter than a row's 0.05, as a run stores
 * hundreds of keys (vmstat's alone) and a few would pass 0.05 by
 * chance. */
#define BISECT_MONITOR_ALPHA 0.01

/* The monitor values per sample of row `row` of section `section` (the
 * bisected row) in base[0..nbase-1] (the parent's run) and
 * new_rows[0..nnew-1] (the culprit's), each key compared: appended to
 * out, a sentence saying the rule and the keys that changed beyond their
 * noise as a table (the two means, named base_name and new_name, the
 * change in %, p, source.key), or that none did, or that no monitor was
 * recorded. Return the number of keys listed. */
int bisect_monitor_changes(const struct monitor_row *base, size_t nbase,
			   const struct monitor_row *new_rows, size_t nnew, const char *section,
			   const char *row, const char *base_name, const char *new_name,
			   struct strbuf *out);

/* bisect_monitor_changes over the stored values of runs base_run and
 * new_run of s. Return the number of keys listed, or -1 after a store
 * error (printed). */
int bisect_monitor_text(struct store *s, int64_t base_run, int64_t new_run, const char *section,
			const char *row, const char *base_name, const char *new_name,
			struct strbuf *out);

#endif
