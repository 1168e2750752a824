/* workload: the contract between the runner and a workload driver.
 *
 * A workload is one file that fills a const struct workload_ops: its
 * option table (which drives config validation, --help and what is
 * stored), its metrics (unit and direction), and run_one(), which runs one
 * sample of one row inside a process the runner forked for it. Workloads
 * never touch SQLite, the terminal or the config file. */
#ifndef KBENCH_WORKLOAD_H
#define KBENCH_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf;
struct pin_plan;

enum wl_better { WL_LOWER = 0, WL_HIGHER = 1 };

/* What an option's text may be, and the C type of the field of the
 * workload's options struct it is stored in. */
enum wl_opt_type {
	WL_INT,		/* int, within [min, max] */
	WL_DOUBLE,	/* double, within [min, max] */
	WL_SIZE,	/* uint64_t bytes: 4096, 64k, 64M, 2G, or 20% of MemTotal */
	WL_BOOL,	/* bool: on/off, yes/no, true/false, 1/0 */
	WL_ENUM,	/* int: the index of one of the choices */
	WL_STRING,	/* const char *: free text */
	WL_LIST,	/* struct wl_list of integers: "1 2 4", "1,2,4",
			 * "stride:1..4*cpus,max=296" */
	WL_KEYS,	/* struct wl_keys: a family of keys named by the
			 * option's pattern, "metric.*" taking metric.tput,
			 * metric.lat, ...; each value is text, or one of the
			 * choices when there are some */
};

/* A WL_LIST field. */
struct wl_list {
	const long long *v;
	size_t n;
};

/* One key of a WL_KEYS family: "metric.tput = PATTERN" is { "tput",
 * "PATTERN", 0 }. */
struct wl_key {
	const char *name;	/* the part after the family's prefix */
	const char *text;	/* the value as given */
	int choice;		/* with choices: the index of the value */
};

/* A WL_KEYS field: the keys given, in the order first given. */
struct wl_keys {
	const struct wl_key *v;
	size_t n;
};

struct wl_option {
	const char *name;	/* a WL_KEYS option: "prefix.*" */
	enum wl_opt_type type;
	size_t offset;		/* of its field in the workload's options struct */
	const char *def;	/* default, as config text; NULL: unset */
	const char *help;	/* one line */
	/* WL_ENUM: the choices, value i being the i-th. Either "a|b|c", or
	 * the names in a table the driver keeps anyway (netperf's tests):
	 * choice_names points at the first, each next one choice_stride
	 * bytes further, up to a NULL name. */
	const char *choices;
	const char *const *choice_names;
	size_t choice_stride;
	double min, max;	/* numeric bounds (list items too); min == max: none */
	/* Check one value further, once it parsed (a pattern compiles); key
	 * is the whole key ("metric.tput"). Return 0, or -1 with the reason
	 * in err. Optional. */
	int (*validate)(const char *key, const char *text, struct strbuf *err);
	/* WL_ENUM: a comma-separated preference list of choices is accepted
	 * ("cross-core,cross-llc"); the value is the first one's index. */
	int preference_list;
};

/* .type and .offset of an option stored in field f of the options struct
 * S, as in { .name = "loops", WL_INT_FIELD(struct hackbench_opts, loops) }.
 * The build fails ("size of unnamed array is negative") unless f has the
 * C type the option type says. */
#define WL_FIELD_(t, S, f, T) \
	.type = (t), \
	.offset = offsetof(S, f) + 0 * sizeof(char[ \
		__builtin_types_compatible_p(__typeof__(((S *)0)->f), T) ? 1 : -1])
#define WL_INT_FIELD(S, f)	WL_FIELD_(WL_INT, S, f, int)
#define WL_DOUBLE_FIELD(S, f)	WL_FIELD_(WL_DOUBLE, S, f, double)
#define WL_SIZE_FIELD(S, f)	WL_FIELD_(WL_SIZE, S, f, uint64_t)
#define WL_BOOL_FIELD(S, f)	WL_FIELD_(WL_BOOL, S, f, bool)
#define WL_ENUM_FIELD(S, f)	WL_FIELD_(WL_ENUM, S, f, int)
#define WL_STRING_FIELD(S, f)	WL_FIELD_(WL_STRING, S, f, const char *)
#define WL_LIST_FIELD(S, f)	WL_FIELD_(WL_LIST, S, f, struct wl_list)
#define WL_KEYS_FIELD(S, f)	WL_FIELD_(WL_KEYS, S, f, struct wl_keys)

struct wl_metric {
	const char *name;	/* row prefix as printed, e.g. "system" */
	const char *unit;	/* "s", "trans/s", "Mbit/s", "faults/s" */
	enum wl_better better;
	const char *help;
};

/* A direct-mode flag: `kbench <workload> -g 4 --pipe`. An entry with the
 * same short and long name as the entry before it is applied along with
 * that one and must carry a fixed value: `-t N` can set both the worker
 * count and the model. */
struct wl_flag {
	char short_name;	/* 0: long only */
	const char *long_name;
	const char *option;	/* the option it sets */
	const char *value;	/* fixed value; NULL: the flag takes an argument */
	const char *help;	/* NULL on a flag that sets a WL_ENUM option: its
				 * choices, "a, b or c" */
};

#define WL_MAX_RESULTS 32
#define WL_MAX_EXTRAS 32
#define WL_ROW_LEN 48

struct wl_result {
	/* "4", "send-64", "system-2": the row it was measured for, last,
	 * after any "name-" (a resumed run finds what it holds by it) */
	char row[WL_ROW_LEN];
	int metric;		/* index into the instance's metrics (p->metrics) */
	double value;
};

/* A figure measured beside the result (losses, minor faults); stored as a
 * monitor value of source "workload". */
struct wl_extra {
	char key[WL_ROW_LEN];
	double value;
};

struct wl_sample {
	int nresults;
	struct wl_result results[WL_MAX_RESULTS];
	int nextras;
	struct wl_extra extras[WL_MAX_EXTRAS];
	char flag[128];		/* non-empty: why this sample is suspect */
};

struct wl_value;

/* The options of one workload instance: wl_params (workloads/params.h)
 * parses and validates them against the option table, then fills opts,
 * the workload's own options struct, once. */
struct wl_params {
	const struct workload_ops *ops;
	void *opts;			/* ops->opts_size bytes */
	const struct pin_plan *pin;	/* the section's pin plan; NULL: unbound */
	struct wl_value *v;		/* params.c's: one per option */
	/* What this instance reports: ops->metrics, or the table its
	 * prepare() built from the config (external's metric.NAME keys). */
	const struct wl_metric *metrics;
	/* Rows of the instance's own, set by prepare() (external's params):
	 * the values run_one is given, named by ops->row_label. NULL: the
	 * values of ops->row_option. */
	long long *rows;
	size_t nrows;
	/* When wl_params_finish or ops->check fails because of one key, its
	 * name, so that the error can point at the key's line; else NULL. */
	const char *err_key;
};

struct workload_ops {
	const char *name;
	const char *summary;
	const struct wl_option *options;	/* ends with { .name = NULL } */
	size_t opts_size;		/* of the struct the options are stored in */
	const struct wl_metric *metrics;	/* ends with { .name = NULL } */
	const char *row_option;		/* the WL_LIST option giving the rows */
	long long direct_row;		/* direct mode's row when none is given */
	const struct wl_flag *flags;	/* direct mode; ends with { .long_name = NULL } */
	/* The row option's default when it depends on other options (netperf:
	 * 1 byte for RR, nine sizes for STREAM), as config text; called by
	 * wl_params_finish when the row option was not given, with every
	 * other option in p->opts. Optional: the table's default otherwise. */
	const char *(*row_default)(const struct wl_params *p);
	/* Check the options together before anything runs (limits, sizes,
	 * pin policy). Return 0, or -1 with the reason in err. Optional. */
	int (*check)(const struct wl_params *p, struct strbuf *err);
	/* Run one sample of row `row` in the calling process (forked by the
	 * runner: it may fork, bind and exit freely). Return 0 with out
	 * filled, or -1 with the reason in err. */
	int (*run_one)(const struct wl_params *p, long long row,
		       struct wl_sample *out, struct strbuf *err);
	/* Direct mode: one line as the peer tool prints it. */
	void (*format_direct)(const struct wl_params *p, long long row,
			      const struct wl_sample *s, struct strbuf *out);

	/* The hooks below are optional; hackbench, netperf and pft need none. */

	/* Called by wl_params_finish once every option is stored: build what
	 * the instance derives from its options (p->metrics, p->rows and
	 * state kept in p->opts). Return 0, or -1 with the reason in err
	 * (and p->err_key set when one key is at fault). */
	int (*prepare)(struct wl_params *p, struct strbuf *err);
	/* Free what prepare() and section_begin() left in p->opts; called by
	 * wl_params_free. */
	void (*release)(struct wl_params *p);
	/* The label of row `row` of p->rows as stored and shown ("clients-4");
	 * without it a row is its value ("4"). */
	void (*row_label)(const struct wl_params *p, long long row, char *buf, size_t len);
	/* Called by the runner in its own process before the first sample of
	 * a section and after the last (a server the samples talk to). On
	 * failure return -1 with the reason in err: the section's samples
	 * are not run. section_end is called after every section_begin that
	 * returned 0. */
	int (*section_begin)(struct wl_params *p, struct strbuf *err);
	void (*section_end)(struct wl_params *p);
	/* The least time one sample of row `row` takes, in seconds, with what
	 * sets it in why ("duration = 10"), so that a timeout no sample can
	 * fit in is refused before anything runs. Optional: no minimum. */
	double (*min_sample_s)(const struct wl_params *p, long long row, struct strbuf *why);
};

/* The text the user gave for the option stored at offset in p->opts
 * (offsetof(struct S, field)), or NULL when it was left to its default:
 * for options whose meaning depends on whether they were given. */
const char *wl_given(const struct wl_params *p, size_t offset);

/* Append a result to s; rowfmt names the row ("%lld", "send-%lld"). */
void wl_sample_add(struct wl_sample *s, int metric, double value,
		   const char *rowfmt, ...) __attribute__((format(printf, 4, 5)));
void wl_sample_extra(struct wl_sample *s, const char *key, double value);
void wl_sample_flag(struct wl_sample *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The table of workloads (workloads/workloads.c), NULL-terminated. */
extern const struct workload_ops *const workloads[];
const struct workload_ops *workload_find(const char *name);

#endif
