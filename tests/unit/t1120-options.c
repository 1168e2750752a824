/* t1120-options: every workload's option table agrees with its options
 * struct (each field inside it, aligned for its type, none overlapping),
 * every default parses into its field, and given values, the row default
 * and "was it given" reach the workload as typed fields.
 * Covers: workloads/params.c workloads/workloads.c */
#include "config.h"
#include "tests/tap.h"
#include "lib/strbuf.h"
#include "workloads/params.h"
#include "workloads/workload.h"

#include <limits.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static size_t type_size(enum wl_opt_type t)
{
	switch (t) {
	case WL_INT: case WL_ENUM: return sizeof(int);
	case WL_DOUBLE: return sizeof(double);
	case WL_SIZE: return sizeof(uint64_t);
	case WL_BOOL: return sizeof(bool);
	case WL_STRING: return sizeof(const char *);
	case WL_LIST: return sizeof(struct wl_list);
	case WL_KEYS: return sizeof(struct wl_keys);
	}
	return 0;
}

static size_t type_align(enum wl_opt_type t)
{
	switch (t) {
	case WL_INT: case WL_ENUM: return alignof(int);
	case WL_DOUBLE: return alignof(double);
	case WL_SIZE: return alignof(uint64_t);
	case WL_BOOL: return alignof(bool);
	case WL_STRING: return alignof(const char *);
	case WL_LIST: return alignof(struct wl_list);
	case WL_KEYS: return alignof(struct wl_keys);
	}
	return 1;
}

/* Does the field of option o in opts hold the value v? Say what it holds
 * in got otherwise. */
static int field_holds(const struct wl_option *o, const void *opts,
		       const struct wl_value *v, struct strbuf *got)
{
	const char *f = (const char *)opts + o->offset;

	switch (o->type) {
	case WL_INT:
	case WL_ENUM:
		strbuf_addf(got, "%d", *(const int *)f);
		return *(const int *)f == v->i;
	case WL_DOUBLE:
		strbuf_addf(got, "%g", *(const double *)f);
		return *(const double *)f == v->d;
	case WL_SIZE:
		strbuf_addf(got, "%llu", (unsigned long long)*(const uint64_t *)f);
		return *(const uint64_t *)f == v->size;
	case WL_BOOL:
		strbuf_addf(got, "%d", *(const bool *)f);
		return *(const bool *)f == (v->i != 0);
	case WL_STRING:
		strbuf_addf(got, "'%s'", *(const char *const *)f ? *(const char *const *)f : "(null)");
		return *(const char *const *)f && !strcmp(*(const char *const *)f, v->text);
	case WL_LIST: {
		const struct wl_list *l = (const struct wl_list *)f;

		for (size_t i = 0; i < l->n; i++)
			strbuf_addf(got, "%s%lld", i ? " " : "", l->v[i]);
		if (l->n != v->nlist)
			return 0;
		for (size_t i = 0; i < l->n; i++)
			if (l->v[i] != v->list[i])
				return 0;
		return 1;
	}
	case WL_KEYS: {
		const struct wl_keys *k = (const struct wl_keys *)f;

		strbuf_addf(got, "%zu keys", k->n);
		return k->n == v->nkeys;
	}
	}
	return 0;
}

/* The option table of ops against its options struct. */
static void check_layout(const struct workload_ops *ops)
{
	const struct wl_option *t = ops->options;
	int bad = 0;

	ok(ops->opts_size > 0, "%s: has an options struct (%zu bytes)", ops->name, ops->opts_size);
	for (int i = 0; t[i].name; i++) {
		size_t size = type_size(t[i].type), align = type_align(t[i].type);

		if (!size || t[i].offset + size > ops->opts_size || t[i].offset % align) {
			diag("%s: option '%s' at offset %zu (%zu bytes, align %zu) does not fit "
			     "a %zu-byte struct", ops->name, t[i].name, t[i].offset, size, align,
			     ops->opts_size);
			bad++;
		}
		for (int j = 0; j < i; j++) {
			size_t sj = type_size(t[j].type);

			if (t[i].offset < t[j].offset + sj && t[j].offset < t[i].offset + size) {
				diag("%s: options '%s' and '%s' share bytes of the struct",
				     ops->name, t[j].name, t[i].name);
				bad++;
			}
		}
		if (t[i].type == WL_ENUM && !t[i].choices && !t[i].choice_names) {
			diag("%s: enum option '%s' has no choices", ops->name, t[i].name);
			bad++;
		}
		if (t[i].type == WL_INT && t[i].min != t[i].max &&
		    (t[i].min < INT_MIN || t[i].max > INT_MAX)) {
			diag("%s: int option '%s' has bounds beyond an int", ops->name, t[i].name);
			bad++;
		}
	}
	ok(!bad, "%s: every option has a field of its own, inside the struct and aligned "
	   "for its type", ops->name);
	if (!ops->row_option) {
		/* Rows of its own (external's params): they need labels. */
		ok(ops->prepare && ops->row_label, "%s: builds its rows and labels them",
		   ops->name);
	} else {
		int row = wl_option_index(t, ops->row_option);

		ok(row >= 0 && t[row].type == WL_LIST, "%s: the row option '%s' is a list",
		   ops->name, ops->row_option);
	}
}

/* With nothing given, every option's field holds its default, parsed. */
static void check_defaults(const struct workload_ops *ops)
{
	struct strbuf err = STRBUF_INIT;
	struct wl_params *p = wl_params_new(ops);
	int bad = 0;

	if (!ok(!wl_params_finish(p, &err), "%s: the defaults finish (%s)", ops->name, err.buf))
		goto out;
	for (int i = 0; ops->options[i].name; i++) {
		const struct wl_option *o = &ops->options[i];
		const char *def = wl_params_text(p, o->name);
		struct wl_value v = { 0 };
		struct strbuf got = STRBUF_INIT;

		if (!def) {
			/* No default: the field stays zero. */
			static const char zero[sizeof(struct wl_list)];

			if (memcmp((const char *)p->opts + o->offset, zero, type_size(o->type))) {
				diag("%s: option '%s' has no default but its field is set",
				     ops->name, o->name);
				bad++;
			}
			continue;
		}
		if (o->def && strcmp(def, o->def) &&
		    (!ops->row_option || strcmp(o->name, ops->row_option))) {
			diag("%s: option '%s' took '%s', not its default '%s'", ops->name,
			     o->name, def, o->def);
			bad++;
		}
		strbuf_reset(&err);
		if (wl_value_parse(o, def, &v, &err)) {
			diag("%s: default of '%s' does not parse: %s", ops->name, o->name, err.buf);
			bad++;
		} else if (!field_holds(o, p->opts, &v, &got)) {
			diag("%s: option '%s' defaults to '%s' but its field holds %s",
			     ops->name, o->name, def, got.buf);
			bad++;
		}
		wl_value_release(&v);
		strbuf_release(&got);
	}
	ok(!bad, "%s: every default parses into its field", ops->name);
out:
	wl_params_free(p);
	strbuf_release(&err);
}

/* Every flag sets an option of the table, and a fixed value is valid. */
static void check_flags(const struct workload_ops *ops)
{
	struct strbuf err = STRBUF_INIT;
	int bad = 0;

	for (const struct wl_flag *fl = ops->flags; fl && fl->long_name; fl++) {
		int i = wl_option_index(ops->options, fl->option);
		struct wl_value v = { 0 };

		if (i < 0) {
			diag("%s: flag --%s sets unknown option '%s'", ops->name, fl->long_name,
			     fl->option);
			bad++;
			continue;
		}
		if (fl->value && wl_value_parse(&ops->options[i], fl->value, &v, &err)) {
			diag("%s: flag --%s: %s", ops->name, fl->long_name, err.buf);
			bad++;
		}
		if (!fl->help && ops->options[i].type != WL_ENUM && !fl->value) {
			diag("%s: flag --%s has no help", ops->name, fl->long_name);
			bad++;
		}
		wl_value_release(&v);
		strbuf_reset(&err);
	}
	ok(!bad, "%s: every flag sets an option of the table", ops->name);
	strbuf_release(&err);
}

/* Options as "key=value" strings; NULL when one is refused (in err). */
static struct wl_params *params(const struct workload_ops *ops, const char *const *kv,
				struct strbuf *err)
{
	struct wl_params *p = wl_params_new(ops);

	for (; *kv; kv++) {
		char key[64];
		const char *eq = strchr(*kv, '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - *kv), *kv);
		if (wl_params_set(p, key, eq + 1, err))
			goto fail;
	}
	if (wl_params_finish(p, err))
		goto fail;
	return p;
fail:
	wl_params_free(p);
	return NULL;
}

/* The rows as "a b c". */
static void rows_str(const struct wl_params *p, struct strbuf *sb)
{
	size_t n;
	const long long *rows = wl_params_rows(p, &n);

	strbuf_reset(sb);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s%lld", i ? " " : "", rows[i]);
}

/* netperf: the row default follows the test and `size`, and whether
 * `size` was given is known by its field's offset. */
static void check_netperf(void)
{
	const struct workload_ops *ops = workload_find("netperf");
	const char *rr[] = { NULL }, *stream[] = { "test=UDP_STREAM", NULL };
	const char *size[] = { "test=TCP_STREAM", "size=512", NULL };
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	struct wl_params *p;
	int i = ops ? wl_option_index(ops->options, "size") : -1;
	int t = ops ? wl_option_index(ops->options, "test") : -1;

	if (!ok(ops && i >= 0 && t >= 0, "netperf is in the table with 'size' and 'test'"))
		return;
	p = params(ops, rr, &err);
	rows_str(p, &sb);
	ok(!strcmp(sb.buf, "1"), "netperf: RR rows default to 1 byte (%s)", sb.buf);
	ok(!wl_given(p, ops->options[i].offset), "netperf: 'size' not given");
	wl_params_free(p);

	p = params(ops, stream, &err);
	rows_str(p, &sb);
	ok(!strcmp(sb.buf, "64 128 256 1024 2048 3312 4096 8192 16384"),
	   "netperf: STREAM rows default to netperf's nine sizes (%s)", sb.buf);
	ok(*(const int *)((const char *)p->opts + ops->options[t].offset) == 3,
	   "netperf: test = UDP_STREAM is choice 3 in its field");
	wl_params_free(p);

	p = params(ops, size, &err);
	rows_str(p, &sb);
	ok(!strcmp(sb.buf, "512"), "netperf: 'size' gives the row (%s)", sb.buf);
	ok(p && wl_given(p, ops->options[i].offset) &&
	   !strcmp(wl_given(p, ops->options[i].offset), "512") &&
	   *(const int *)((const char *)p->opts + ops->options[i].offset) == 512,
	   "netperf: 'size' given as 512 and in its field");
	wl_params_free(p);

	strbuf_reset(&sb);
	wl_option_choices(&ops->options[t], ", ", " or ", &sb);
	ok(!strcmp(sb.buf, "TCP_RR, UDP_RR, TCP_STREAM or UDP_STREAM"),
	   "netperf: the test names come from its table: %s", sb.buf);
	strbuf_reset(&err);
	p = params(ops, (const char *const[]){ "test=SCTP_RR", NULL }, &err);
	ok(!p && strstr(err.buf, "invalid value 'SCTP_RR' for 'test': expected one of "
			"TCP_RR|UDP_RR|TCP_STREAM|UDP_STREAM"),
	   "netperf: an unknown test lists the table's names: %s", err.buf);
	wl_params_free(p);
	strbuf_release(&err);
	strbuf_release(&sb);
}

/* hackbench: given values land in typed fields. */
static void check_given(void)
{
	const struct workload_ops *ops = workload_find("hackbench");
	const char *kv[] = { "mode=thread", "loops=7", "groups=1,3", NULL };
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	struct wl_params *p = ops ? params(ops, kv, &err) : NULL;
	int mode, loops;

	if (!ok(p != NULL, "hackbench: options set (%s)", err.buf))
		return;
	mode = wl_option_index(ops->options, "mode");
	loops = wl_option_index(ops->options, "loops");
	ok(*(const int *)((const char *)p->opts + ops->options[mode].offset) == 1 &&
	   *(const int *)((const char *)p->opts + ops->options[loops].offset) == 7,
	   "hackbench: mode = thread is choice 1, loops = 7, in their fields");
	ok(wl_params_given(p, "loops") && !wl_params_given(p, "fds"),
	   "hackbench: given and defaulted options are told apart");
	rows_str(p, &sb);
	ok(!strcmp(sb.buf, "1 3"), "hackbench: the rows are the groups given (%s)", sb.buf);
	wl_params_free(p);
	strbuf_reset(&err);
	p = params(ops, (const char *const[]){ "loops=99999999999", NULL }, &err);
	ok(!p && strstr(err.buf, "invalid value '99999999999' for 'loops'"),
	   "hackbench: a value beyond the bounds is refused: %s", err.buf);
	wl_params_free(p);
	strbuf_release(&err);
	strbuf_release(&sb);
}

int main(void)
{
	for (int i = 0; workloads[i]; i++) {
		check_layout(workloads[i]);
		check_defaults(workloads[i]);
		check_flags(workloads[i]);
	}
	check_netperf();
	check_given();
	return done_testing();
}
