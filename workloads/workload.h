/* workload: the contract between the runner and a workload driver.
 *
 * A workload is one file that fills a const struct workload_ops: its
 * option table (which drives config validation, --help and what is
 * stored), its metrics (unit and direction), and run_one(), which runs one
 * sample of one row inside a process the runner forked for it. Workloads
 * never touch SQLite, the terminal or the config file. */
#ifndef KBENCH_WORKLOAD_H
#define KBENCH_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;
struct pin_plan;

enum wl_better { WL_LOWER = 0, WL_HIGHER = 1 };

enum wl_opt_type {
	WL_INT,		/* integer within [min, max] */
	WL_DOUBLE,	/* real number within [min, max] */
	WL_SIZE,	/* bytes: 4096, 64k, 64M, 2G, or 20% of MemTotal */
	WL_BOOL,	/* on/off, yes/no, true/false, 1/0 */
	WL_ENUM,	/* one of .choices, "a|b|c" */
	WL_STRING,	/* free text */
	WL_LIST,	/* integers: "1 2 4", "1,2,4", "stride:1..4*cpus,max=296" */
};

struct wl_option {
	const char *name;
	enum wl_opt_type type;
	const char *def;	/* default, as config text; NULL: unset */
	const char *help;	/* one line */
	const char *choices;	/* WL_ENUM only */
	double min, max;	/* numeric bounds (list items too); min == max: none */
};

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
	const char *help;
};

#define WL_MAX_RESULTS 32
#define WL_MAX_EXTRAS 32
#define WL_ROW_LEN 48

struct wl_result {
	char row[WL_ROW_LEN];	/* "4", "send-64", "system-2" */
	int metric;		/* index into ops->metrics */
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

struct wl_params;

struct workload_ops {
	const char *name;
	const char *summary;
	const struct wl_option *options;	/* ends with { NULL } */
	const struct wl_metric *metrics;	/* ends with { NULL } */
	const char *row_option;		/* the WL_LIST option giving the rows */
	long long direct_row;		/* direct mode's row when none is given */
	const struct wl_flag *flags;	/* direct mode; ends with { 0, NULL } */
	/* The row option's default when it depends on other options (netperf:
	 * 1 byte for RR, nine sizes for STREAM), as config text; called by
	 * wl_params_finish when the row option was not given. Optional: the
	 * table's default otherwise. */
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
};

/* Option values, by name (the name must be in the table: a wrong name is a
 * bug and aborts). */
long long wl_int(const struct wl_params *p, const char *name);
double wl_double(const struct wl_params *p, const char *name);
uint64_t wl_size(const struct wl_params *p, const char *name);
int wl_bool(const struct wl_params *p, const char *name);
const char *wl_str(const struct wl_params *p, const char *name);
const long long *wl_list(const struct wl_params *p, const char *name, size_t *n);
/* The pin plan for this section; NULL when unbound. */
const struct pin_plan *wl_pin(const struct wl_params *p);

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
