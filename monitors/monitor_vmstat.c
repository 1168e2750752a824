/* monitor_vmstat: /proc/vmstat read just before the sample's process is
 * forked and just after it is reaped; every counter is kept, by name, as
 * its delta (system-wide: the whole machine over the sample). Unchanged
 * counters are kept too, as 0, so that every sample has every key. */
#include "config.h"
#include "monitors/monitor.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VMSTAT_PATH "/proc/vmstat"

struct vmstat_counter {
	char name[64];
	long long value;
};

struct vmstat_state {
	struct vmstat_counter *before;
	size_t n, alloc;
	int valid;	/* before holds a reading for the sample in flight */
	int warned;
	struct strbuf text;
};

static int vmstat_init(const struct monitor_conf *conf, void **state, struct strbuf *err)
{
	struct vmstat_state *vs = xcalloc(1, sizeof(*vs));

	(void)conf;
	(void)err;
	strbuf_init(&vs->text);
	*state = vs;
	return 0;
}

/* Read /proc/vmstat into vs->text; return 0, or -1 after one warning. */
static int vmstat_read(struct vmstat_state *vs)
{
	int ret;

	strbuf_reset(&vs->text);
	ret = strbuf_read_file(&vs->text, VMSTAT_PATH);
	if (ret) {
		if (!vs->warned++)
			warning("cannot read %s: %s; the vmstat monitor records nothing",
				VMSTAT_PATH, strerror(-ret));
		return -1;
	}
	return 0;
}

/* Parse "name value" lines; call fn for each (a name too long for a
 * counter, or a line without a number, is passed over). By hand rather
 * than with sscanf: this runs twice a sample, on 170-odd lines. */
static void vmstat_each(const char *text, void (*fn)(void *arg, const char *name, long long v),
			void *arg)
{
	const char *p = text;

	while (*p) {
		const char *sp = p + strcspn(p, " \n");
		const char *nl = sp + strcspn(sp, "\n");
		size_t len = (size_t)(sp - p);
		char name[64], *end;
		long long v;

		if (*sp == ' ' && len && len < sizeof(name)) {
			v = strtoll(sp + 1, &end, 10);
			if (end != sp + 1) {
				memcpy(name, p, len);
				name[len] = '\0';
				fn(arg, name, v);
			}
		}
		p = *nl ? nl + 1 : nl;
	}
}

static void keep(void *arg, const char *name, long long v)
{
	struct vmstat_state *vs = arg;

	ALLOC_GROW(vs->before, vs->n + 1, vs->alloc);
	strcpy(vs->before[vs->n].name, name);	/* it fits: vmstat_each */
	vs->before[vs->n++].value = v;
}

static void vmstat_before(void *state)
{
	struct vmstat_state *vs = state;

	vs->n = 0;
	vs->valid = !vmstat_read(vs);
	if (vs->valid)
		vmstat_each(vs->text.buf, keep, vs);
}

struct delta_ctx {
	struct vmstat_state *vs;
	struct monitor_values *out;
	size_t next;	/* counters come in the same order: look here first */
};

static void delta(void *arg, const char *name, long long v)
{
	struct delta_ctx *d = arg;
	struct vmstat_state *vs = d->vs;
	size_t i = d->next;

	if (i >= vs->n || strcmp(vs->before[i].name, name))
		for (i = 0; i < vs->n && strcmp(vs->before[i].name, name); i++)
			;
	if (i == vs->n)
		return;		/* appeared meanwhile: no baseline */
	d->next = i + 1;
	monitor_values_add(d->out, "vmstat", name, MONITOR_KIND_DELTA,
			   (double)(v - vs->before[i].value));
}

static void vmstat_after(void *state, const struct rusage *ru, struct monitor_values *out)
{
	struct vmstat_state *vs = state;
	struct delta_ctx d = { .vs = vs, .out = out };

	(void)ru;
	if (!vs->valid || vmstat_read(vs))
		return;
	vs->valid = 0;
	vmstat_each(vs->text.buf, delta, &d);
}

static void vmstat_free(void *state)
{
	struct vmstat_state *vs = state;

	if (!vs)
		return;
	free(vs->before);
	strbuf_release(&vs->text);
	free(vs);
}

const struct monitor_ops monitor_vmstat = {
	.name = "vmstat",
	.summary = "/proc/vmstat deltas over the sample (system-wide, every counter)",
	.init = vmstat_init,
	.before = vmstat_before,
	.after = vmstat_after,
	.free = vmstat_free,
};
