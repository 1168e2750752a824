/* monitor: the table of monitor sources, a section's monitor set, and the
 * rusage source (the sample process's own counters from wait4: faults,
 * context switches; its user and system time stay in the samples table). */
#include "config.h"
#include "monitors/monitor.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* In display order: the cheap per-process figures first. */
const struct monitor_ops *const monitor_sources[] = {
	&monitor_rusage,
	&monitor_perf,
	&monitor_vmstat,
	&monitor_slab,
	NULL
};

#define MAX_SOURCES 8

struct monitor_set {
	const struct monitor_ops *ops[MAX_SOURCES];
	void *state[MAX_SOURCES];
	int n;
};

const struct monitor_ops *monitor_find(const char *name)
{
	for (int i = 0; monitor_sources[i]; i++)
		if (!strcmp(monitor_sources[i]->name, name))
			return monitor_sources[i];
	return NULL;
}

/* ---- the set ---- */

static void list_sources(struct strbuf *sb)
{
	for (int i = 0; monitor_sources[i]; i++)
		strbuf_addf(sb, "%s, ", monitor_sources[i]->name);
	strbuf_addstr(sb, "all or none");
}

static int set_add(struct monitor_set *ms, const struct monitor_ops *ops)
{
	for (int i = 0; i < ms->n; i++)
		if (ms->ops[i] == ops)
			return 0;
	ms->ops[ms->n++] = ops;
	return 0;
}

int monitor_set_new(const struct monitor_conf *conf, struct monitor_set **out,
		    struct strbuf *err)
{
	struct monitor_conf c = *conf;
	struct monitor_set *ms = xcalloc(1, sizeof(*ms));
	const struct monitor_ops *chosen[MAX_SOURCES];
	const char *p;
	char tok[64];
	int none = 0, n = 0;

	if (!c.monitors)
		c.monitors = MONITOR_DEFAULT_SOURCES;
	if (!c.perf_events)
		c.perf_events = MONITOR_DEFAULT_PERF_EVENTS;
	p = c.monitors;
	while (monitor_next_item(&p, tok, sizeof(tok))) {
		const struct monitor_ops *ops;

		if (!strcmp(tok, "none")) {
			none = 1;
			continue;
		}
		if (!strcmp(tok, "all")) {
			for (int i = 0; monitor_sources[i]; i++)
				set_add(ms, monitor_sources[i]);
			continue;
		}
		ops = monitor_find(tok);
		if (!ops) {
			strbuf_addf(err, "unknown monitor '%s' in 'monitors' (expected a list of ", tok);
			list_sources(err);
			strbuf_addch(err, ')');
			goto fail;
		}
		set_add(ms, ops);
	}
	if (none && ms->n) {
		strbuf_addstr(err, "'monitors = none' cannot be combined with other monitors");
		goto fail;
	}
	/* Keep the table's order whatever the config's. */
	for (int i = 0; monitor_sources[i]; i++)
		for (int j = 0; j < ms->n; j++)
			if (ms->ops[j] == monitor_sources[i])
				chosen[n++] = monitor_sources[i];
	memcpy(ms->ops, chosen, (size_t)n * sizeof(chosen[0]));
	for (int i = 0; i < ms->n; i++) {
		/* On failure the state, if any, is freed with the set. */
		if (ms->ops[i]->init && ms->ops[i]->init(&c, &ms->state[i], err))
			goto fail;
	}
	*out = ms;
	return 0;
fail:
	monitor_set_free(ms);
	*out = NULL;
	return -1;
}

void monitor_set_free(struct monitor_set *ms)
{
	if (!ms)
		return;
	for (int i = 0; i < ms->n; i++)
		if (ms->ops[i]->free)
			ms->ops[i]->free(ms->state[i]);
	free(ms);
}

void monitor_set_describe(const struct monitor_set *ms, struct strbuf *sb)
{
	if (!ms || !ms->n) {
		strbuf_addstr(sb, "none");
		return;
	}
	for (int i = 0; i < ms->n; i++)
		strbuf_addf(sb, "%s%s", i ? "," : "", ms->ops[i]->name);
}

int monitor_set_has(const struct monitor_set *ms, const char *source)
{
	for (int i = 0; ms && i < ms->n; i++)
		if (!strcmp(ms->ops[i]->name, source))
			return 1;
	return 0;
}

int monitor_set_wants_attach(const struct monitor_set *ms)
{
	for (int i = 0; ms && i < ms->n; i++)
		if (ms->ops[i]->attach)
			return 1;
	return 0;
}

void monitor_set_prepare(struct monitor_set *ms, struct monitor_facts *facts)
{
	for (int i = 0; ms && i < ms->n; i++)
		if (ms->ops[i]->prepare)
			ms->ops[i]->prepare(ms->state[i], facts);
}

void monitor_set_before(struct monitor_set *ms)
{
	for (int i = 0; ms && i < ms->n; i++)
		if (ms->ops[i]->before)
			ms->ops[i]->before(ms->state[i]);
}

void monitor_set_attach(struct monitor_set *ms, pid_t pid)
{
	for (int i = 0; ms && i < ms->n; i++)
		if (ms->ops[i]->attach)
			ms->ops[i]->attach(ms->state[i], pid);
}

void monitor_set_after(struct monitor_set *ms, const struct rusage *ru,
		       struct monitor_values *out)
{
	for (int i = 0; ms && i < ms->n; i++)
		if (ms->ops[i]->after)
			ms->ops[i]->after(ms->state[i], ru, out);
}

void monitor_set_section_begin(struct monitor_set *ms, struct monitor_values *out)
{
	for (int i = 0; ms && i < ms->n; i++)
		if (ms->ops[i]->section_begin)
			ms->ops[i]->section_begin(ms->state[i], out);
}

void monitor_set_section_end(struct monitor_set *ms, struct monitor_values *out)
{
	for (int i = 0; ms && i < ms->n; i++)
		if (ms->ops[i]->section_end)
			ms->ops[i]->section_end(ms->state[i], out);
}

/* ---- rusage ---- */

/* The counters wait4 returns for the sample's process and its reaped
 * descendants; mmtests' "Ops Minor Faults" comes from here. */
static void rusage_after(void *state, const struct rusage *ru, struct monitor_values *out)
{
	(void)state;
	if (!ru)
		return;
	monitor_values_add(out, "rusage", "minor-faults", MONITOR_KIND_DELTA,
			   (double)ru->ru_minflt);
	monitor_values_add(out, "rusage", "major-faults", MONITOR_KIND_DELTA,
			   (double)ru->ru_majflt);
	monitor_values_add(out, "rusage", "voluntary-switches", MONITOR_KIND_DELTA,
			   (double)ru->ru_nvcsw);
	monitor_values_add(out, "rusage", "involuntary-switches", MONITOR_KIND_DELTA,
			   (double)ru->ru_nivcsw);
	monitor_values_add(out, "rusage", "max-rss-bytes", MONITOR_KIND_MAX,
			   (double)ru->ru_maxrss * 1024);
}

const struct monitor_ops monitor_rusage = {
	.name = "rusage",
	.summary = "faults and context switches of the sample's processes (wait4)",
	.after = rusage_after,
};
