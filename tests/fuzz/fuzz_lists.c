/* fuzz_lists: libFuzzer target for the value parsers of option tables:
 * stride: lists, integer lists, sizes, integers, numbers, booleans and
 * choices. What they accept is checked against what they promise. */
#include "config.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "workloads/params.h"
#include "workloads/stride.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One option of each type, bounded as the workloads bound theirs. */
static const struct wl_option options[] = {
	{ .name = "groups", .type = WL_LIST, .help = "", .min = 1, .max = 100000 },
	{ .name = "sizes", .type = WL_LIST, .help = "", .min = 1, .max = 64 << 20 },
	{ .name = "any", .type = WL_LIST, .help = "" },
	{ .name = "loops", .type = WL_INT, .help = "", .min = 1, .max = 100000000 },
	{ .name = "count", .type = WL_INT, .help = "" },
	{ .name = "timeout", .type = WL_DOUBLE, .help = "", .min = 0.001, .max = 86400 },
	{ .name = "mapping_size", .type = WL_SIZE, .help = "" },
	{ .name = "thp", .type = WL_BOOL, .help = "" },
	{ .name = "mode", .type = WL_ENUM, .help = "", .choices = "process|thread" },
	{ .name = "name", .type = WL_STRING, .help = "" },
	{ .name = NULL }
};

static void check_stride(const char *text, long long cpus)
{
	struct strbuf err = STRBUF_INIT;
	long long *v = NULL;
	size_t n = 0;

	if (!stride_parse(text, cpus, &v, &n, &err)) {
		if (!n || n > STRIDE_MAX_ROWS || v[0] < 1)
			abort();
		for (size_t i = 1; i < n; i++)
			if (v[i] <= v[i - 1])
				abort();
	} else if (!err.len) {
		abort();	/* an error must say why */
	}
	free(v);
	strbuf_release(&err);
}

static void check_option(const struct wl_option *o, const char *text)
{
	struct strbuf err = STRBUF_INIT;
	struct wl_value v = { 0 };

	if (!wl_value_parse(o, text, &v, &err)) {
		if (o->type == WL_LIST) {
			if (!v.nlist)
				abort();
			for (size_t i = 0; i < v.nlist; i++)
				if (o->min != o->max && (v.list[i] < o->min || v.list[i] > o->max))
					abort();
		}
		if (o->type == WL_INT && o->min != o->max && (v.i < o->min || v.i > o->max))
			abort();
	} else if (!err.len) {
		abort();
	}
	wl_value_release(&v);
	strbuf_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xstrndup((const char *)data, size);
	uint64_t bytes;

	check_stride(text, 1);
	check_stride(text, 74);
	check_stride(text, 1LL << 40);
	parse_size(text, &bytes);
	for (const struct wl_option *o = options; o->name; o++)
		check_option(o, text);
	free(text);
	return 0;
}
