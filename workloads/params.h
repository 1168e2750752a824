/* params: option values for one workload instance, parsed and validated
 * against the workload's option table. */
#ifndef KBENCH_PARAMS_H
#define KBENCH_PARAMS_H

#include "workloads/workload.h"

struct strbuf;

struct wl_value {
	char *text;		/* as given, or the default; NULL: unset */
	long long i;		/* WL_INT, WL_BOOL, WL_ENUM (index) */
	double d;		/* WL_DOUBLE */
	uint64_t size;		/* WL_SIZE, bytes */
	long long *list;	/* WL_LIST */
	size_t nlist;
	int given;		/* set by the user rather than defaulted */
};

struct wl_params {
	const struct workload_ops *ops;
	struct wl_value *v;		/* one per ops->options entry */
	const struct pin_plan *pin;	/* NULL: unbound */
};

struct wl_params *wl_params_new(const struct workload_ops *ops);
void wl_params_free(struct wl_params *p);
/* Index of option name in the table, or -1. */
int wl_option_index(const struct wl_option *table, const char *name);
/* Parse text for option name; on a bad value write "invalid value 'x' for
 * 'name': expected ..." to err and return -1. */
int wl_params_set(struct wl_params *p, const char *name, const char *text,
		  struct strbuf *err);
/* Fill every unset option from its default; return 0 or -1 with err. */
int wl_params_finish(struct wl_params *p, struct strbuf *err);
/* Parse one value of an option table entry into v (exposed for the
 * runner's own options). */
int wl_value_parse(const struct wl_option *o, const char *text,
		   struct wl_value *v, struct strbuf *err);
void wl_value_release(struct wl_value *v);
/* "integer", "size (e.g. 64M, 2G, 20%)", "one of a|b" */
const char *wl_type_expect(const struct wl_option *o);

/* Parse a size: digits with an optional k/M/G/T suffix (powers of 1024)
 * or a percentage of MemTotal. Return 0 or -1. */
int parse_size(const char *s, uint64_t *out);
/* The nearest name in table to name (for "did you mean"), or NULL. */
const char *wl_option_suggest(const struct wl_option *table, const char *name);

#endif
