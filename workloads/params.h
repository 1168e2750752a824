/* params: option values for one workload instance, parsed and validated
 * against the workload's option table, then stored in the workload's own
 * options struct (struct wl_params, workloads/workload.h). The harness
 * speaks option names here, as configs and flags do; workloads read the
 * typed fields of p->opts. */
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
	struct wl_key *keys;	/* WL_KEYS: the keys given, names and texts
				 * owned here */
	size_t nkeys, keys_alloc;
};

struct wl_params *wl_params_new(const struct workload_ops *ops);
void wl_params_free(struct wl_params *p);
/* Index of option name in the table, or -1. */
int wl_option_index(const struct wl_option *table, const char *name);
/* Parse text for option name (or a key of a WL_KEYS family: a key given
 * again replaces its value); on a bad value write "invalid value 'x' for
 * 'name': expected ..." to err and return -1. */
int wl_params_set(struct wl_params *p, const char *name, const char *text,
		  struct strbuf *err);
/* Fill every unset option from its default (the row option last, from
 * ops->row_default when there is one), then store every value in p->opts.
 * Call once, after the last wl_params_set. Return 0 or -1 with err. */
int wl_params_finish(struct wl_params *p, struct strbuf *err);
/* The text of option name, as given or defaulted; NULL when it is unset
 * or not an option of the workload. */
const char *wl_params_text(const struct wl_params *p, const char *name);
/* Was option name set by wl_params_set rather than defaulted? */
int wl_params_given(const struct wl_params *p, const char *name);
/* The rows, after finishing: the values of the row option
 * (ops->row_option), or the instance's own (p->rows, from prepare). */
const long long *wl_params_rows(const struct wl_params *p, size_t *n);
/* Parse one value of an option table entry into v (exposed for the
 * runner's own options). */
int wl_value_parse(const struct wl_option *o, const char *text,
		   struct wl_value *v, struct strbuf *err);
void wl_value_release(struct wl_value *v);
/* "integer", "size (e.g. 64M, 2G, 20%)", "one of a|b" */
const char *wl_type_expect(const struct wl_option *o);
/* Parse a decimal number, [+-]DIGITS[.DIGITS][e[+-]DIGITS], with blanks
 * around it allowed as for integers (no hex, inf or nan). Set *end past
 * the number and its trailing blanks; return -1 if text does not start
 * with one or it overflows. */
int wl_parse_decimal(const char *text, double *out, const char **end);
/* Append the choices of WL_ENUM option o to sb, between each two sep and
 * between the last two last_sep: "a|b|c", "a, b or c". */
void wl_option_choices(const struct wl_option *o, const char *sep,
		       const char *last_sep, struct strbuf *sb);

/* Index of the option in table that takes key: its name, or a WL_KEYS
 * option's pattern ("metric.*" takes "metric.tput"); -1 when none does. */
int wl_option_lookup(const struct wl_option *table, const char *key);
/* Call fn for each option that has a value, in table order, with its key
 * and text as given or defaulted; a WL_KEYS option gives one call per key
 * ("metric.tput"). Stop at the first non-zero return and return it. */
int wl_params_each(const struct wl_params *p,
		   int (*fn)(const char *key, const char *text, void *arg), void *arg);
/* Row `row` as stored and shown: its value ("4"), or ops->row_label's
 * label for it ("clients-4"). */
void wl_params_row_label(const struct wl_params *p, long long row, char *buf, size_t len);
/* Row `row` as progress and messages name it: the row option and its
 * value ("groups 4"), or ops->row_label's label ("clients-4"). */
void wl_params_row_text(const struct wl_params *p, long long row, char *buf, size_t len);

/* Parse a size: digits with an optional k/M/G/T suffix (powers of 1024)
 * or a percentage of MemTotal. Return 0 or -1. */
int parse_size(const char *s, uint64_t *out);
/* The nearest name in table to name (for "did you mean"), or NULL. */
const char *wl_option_suggest(const struct wl_option *table, const char *name);

#endif
