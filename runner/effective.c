/* effective: the options a run ran with, section by section, from the
 * plan or from the store; what "the same configuration" means for the
 * report after a run and for the estimates of --dry-run, so that comment
 * or whitespace edits of a config do not count and -o overrides do. */
#include "config.h"
#include "runner/effective.h"
#include "runner/conf.h"
#include "runner/plan.h"
#include "db/store.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "workloads/params.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void effective_release(struct effective *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->v[i].section);
		free(e->v[i].key);
		free(e->v[i].value);
	}
	free(e->v);
	memset(e, 0, sizeof(*e));
}

static void add(struct effective *e, const char *section, const char *key, const char *value)
{
	ALLOC_GROW(e->v, e->n + 1, e->alloc);
	e->v[e->n++] = (struct effective_opt){
		.section = xstrdup(section),
		.key = xstrdup(key),
		.value = xstrdup(value),
	};
}

struct plan_add {
	struct effective *e;
	const char *section;
};

static int add_option(const char *key, const char *text, void *arg)
{
	struct plan_add *pa = arg;

	add(pa->e, pa->section, key, text);
	return 0;
}

void effective_from_plan(const struct plan *p, struct effective *out)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct plan_section *ps = &p->sections[i];
		struct plan_add pa = { .e = out, .section = ps->cs->name };
		char buf[64];

		/* Formatted as record.c stores them. */
		add(out, ps->cs->name, "workload", ps->ops->name);
		wl_params_each(ps->params, add_option, &pa);
		if (ps->auto_iterations) {
			add(out, ps->cs->name, "iterations", "auto");
			snprintf(buf, sizeof(buf), "%g%%", ps->ci_target * 100);
			add(out, ps->cs->name, "ci_target", buf);
			snprintf(buf, sizeof(buf), "%d", ps->min_iterations);
			add(out, ps->cs->name, "min_iterations", buf);
			snprintf(buf, sizeof(buf), "%d", ps->max_iterations);
			add(out, ps->cs->name, "max_iterations", buf);
		} else {
			snprintf(buf, sizeof(buf), "%d", ps->iterations);
			add(out, ps->cs->name, "iterations", buf);
		}
		/* Only when not the default, as record.c stores them; the
		 * shuffle's seed orders samples, it does not change them. */
		if (ps->rounds > 1) {
			snprintf(buf, sizeof(buf), "%d", ps->rounds);
			add(out, ps->cs->name, "rounds", buf);
		}
		if (ps->order != ORDER_ROWS)
			add(out, ps->cs->name, "sample_order", plan_order_name(ps->order));
		snprintf(buf, sizeof(buf), "%d", ps->warmup);
		add(out, ps->cs->name, "warmup", buf);
		snprintf(buf, sizeof(buf), "%g", ps->timeout_s);
		add(out, ps->cs->name, "timeout", buf);
	}
}

struct run_add {
	struct effective *e;
	const struct workload_ops *ops;	/* of the section read last */
	struct strbuf section;
};

/* The runner's keys a run stores when they matter (record.c). */
static int is_runner_key(const char *key)
{
	static const char *const keys[] = {
		"iterations", "warmup", "timeout", "ci_target", "min_iterations",
		"max_iterations", "rounds", "sample_order", NULL
	};

	for (size_t i = 0; keys[i]; i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

static int add_meta(const char *section, const char *key, const char *value, void *arg)
{
	struct run_add *ra = arg;

	if (!*section)
		return 0;
	if (strcmp(ra->section.buf, section)) {
		strbuf_reset(&ra->section);
		strbuf_addstr(&ra->section, section);
		ra->ops = NULL;
	}
	if (!strcmp(key, "workload"))
		ra->ops = workload_find(value);
	else if (!is_runner_key(key) &&
		 (!ra->ops || wl_option_lookup(ra->ops->options, key) < 0))
		return 0;
	add(ra->e, section, key, value);
	return 0;
}

int effective_from_run(struct store *s, int64_t run_id, struct effective *out)
{
	struct run_add ra = { .e = out, .ops = NULL };
	int rc;

	strbuf_init(&ra.section);
	rc = store_each_meta(s, run_id, add_meta, &ra);
	strbuf_release(&ra.section);
	return rc;
}

static const struct effective_opt *find(const struct effective *e, const char *section,
					const char *key)
{
	for (size_t i = 0; i < e->n; i++)
		if (!strcmp(e->v[i].section, section) && !strcmp(e->v[i].key, key))
			return &e->v[i];
	return NULL;
}

static size_t count(const struct effective *e, const char *section)
{
	size_t n = 0;

	for (size_t i = 0; i < e->n; i++)
		n += !strcmp(e->v[i].section, section);
	return n;
}

int effective_section_equal(const struct effective *a, const struct effective *b,
			    const char *section)
{
	size_t n = count(a, section);

	if (!n || n != count(b, section))
		return 0;
	for (size_t i = 0; i < a->n; i++) {
		const struct effective_opt *o;

		if (strcmp(a->v[i].section, section))
			continue;
		o = find(b, section, a->v[i].key);
		if (!o || strcmp(o->value, a->v[i].value))
			return 0;
	}
	return 1;
}

int effective_equal(const struct effective *a, const struct effective *b)
{
	if (!a->n || a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if ((!i || strcmp(a->v[i].section, a->v[i - 1].section)) &&
		    !effective_section_equal(a, b, a->v[i].section))
			return 0;
	for (size_t i = 0; i < b->n; i++)
		if (!count(a, b->v[i].section))
			return 0;
	return 1;
}

/* Whether section was seen in e before index i. */
static int seen_before(const struct effective *e, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(e->v[j].section, e->v[i].section))
			return 1;
	return 0;
}

void effective_diff(const struct effective *old, const struct effective *new,
		    struct strbuf *out)
{
	for (size_t i = 0; i < new->n; i++) {
		const char *sec = new->v[i].section;

		if (seen_before(new, i) || effective_section_equal(old, new, sec))
			continue;
		if (!count(old, sec)) {
			strbuf_addf(out, "  [%s]: new section\n", sec);
			continue;
		}
		strbuf_addf(out, "  [%s]\n", sec);
		for (size_t j = 0; j < old->n; j++) {
			const struct effective_opt *o;

			if (strcmp(old->v[j].section, sec))
				continue;
			o = find(new, sec, old->v[j].key);
			if (!o)
				strbuf_addf(out, "    %s: %s -> (unset)\n", old->v[j].key,
					    old->v[j].value);
			else if (strcmp(o->value, old->v[j].value))
				strbuf_addf(out, "    %s: %s -> %s\n", o->key, old->v[j].value,
					    o->value);
		}
		for (size_t j = 0; j < new->n; j++)
			if (!strcmp(new->v[j].section, sec) && !find(old, sec, new->v[j].key))
				strbuf_addf(out, "    %s: (unset) -> %s\n", new->v[j].key,
					    new->v[j].value);
	}
	for (size_t i = 0; i < old->n; i++)
		if (!seen_before(old, i) && !count(new, old->v[i].section))
			strbuf_addf(out, "  [%s]: not in this run\n", old->v[i].section);
}
