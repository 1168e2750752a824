/* external: what the external workload (external.c) and its option
 * table (external_options.c) share. Nothing else includes it. */
#ifndef KBENCH_WORKLOADS_EXTERNAL_H
#define KBENCH_WORKLOADS_EXTERNAL_H

#include "workloads/workload.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ext_state;
struct kb_regex;
struct strbuf;

enum { AGG_LAST, AGG_FIRST, AGG_SUM, AGG_MEAN };	/* aggregate.NAME */

struct external_opts {
	const char *command;
	bool shell;
	const char *cwd;
	struct wl_keys env;
	struct wl_keys params;
	struct wl_keys metrics;
	struct wl_keys units;
	struct wl_keys betters;
	struct wl_keys aggregates;
	const char *server;
	const char *server_ready;
	int server_port;
	double server_timeout;	/* s */
	uint64_t output_limit;	/* bytes of output kept, the last ones */
	struct ext_state *st;	/* built by prepare(); not an option */
};

extern const struct wl_option ext_options[];
extern const struct wl_flag ext_flags[];
extern const struct wl_metric ext_no_metrics[];

/* The values of a param list: words separated by blanks or commas, or a
 * sequence of integers, stride:MIN..MAX[,max=CAP] (mmtests' large
 * stride) or doubling:MIN..MAX. Return 0 with *out malloc'd (free it with
 * ext_free_values), or -1 with why in err. */
int ext_param_values(const char *text, char ***out, size_t *n, struct strbuf *err);
void ext_free_values(char **v, size_t n);

/* pattern compiled for option key (^ and $ at each line); NULL with why
 * in err. */
struct kb_regex *ext_compile(const char *key, const char *pattern, struct strbuf *err);

#endif
