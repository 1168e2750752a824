/* values: what the monitor sources fill and the runner reads (a sample's
 * values, a run's facts) and the list reader the sources share. Kept
 * apart from monitor.c, whose table names every source, so that a
 * source calls down into this file and never back into the table. */
#include "config.h"
#include "monitors/monitor.h"
#include "lib/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int monitor_next_item(const char **p, char *buf, size_t len)
{
	const char *s = *p + strspn(*p, ", \t\n");
	size_t n = strcspn(s, ", \t\n");

	if (!n)
		return 0;
	snprintf(buf, len, "%.*s", (int)n, s);
	*p = s + n;
	return 1;
}

void monitor_values_add(struct monitor_values *mv, const char *source,
			const char *key, enum monitor_kind kind, double value)
{
	struct monitor_value *v;

	ALLOC_GROW(mv->v, mv->n + 1, mv->alloc);
	v = &mv->v[mv->n++];
	v->source = source;
	snprintf(v->key, sizeof(v->key), "%s", key);
	v->kind = kind;
	v->value = value;
}

const struct monitor_value *monitor_values_find(const struct monitor_values *mv,
						const char *source, const char *key)
{
	for (size_t i = 0; i < mv->n; i++)
		if (!strcmp(mv->v[i].source, source) && !strcmp(mv->v[i].key, key))
			return &mv->v[i];
	return NULL;
}

void monitor_values_reset(struct monitor_values *mv)
{
	mv->n = 0;
}

void monitor_values_release(struct monitor_values *mv)
{
	free(mv->v);
	mv->v = NULL;
	mv->n = mv->alloc = 0;
}

void monitor_facts_add(struct monitor_facts *mf, const char *key, const char *value,
		       const char *notice)
{
	ALLOC_GROW(mf->f, mf->n + 1, mf->alloc);
	mf->f[mf->n++] = (struct monitor_fact){
		.key = xstrdup(key),
		.value = xstrdup(value),
		.notice = xstrdup_or_null(notice),
	};
}

void monitor_facts_release(struct monitor_facts *mf)
{
	for (size_t i = 0; i < mf->n; i++) {
		free(mf->f[i].key);
		free(mf->f[i].value);
		free(mf->f[i].notice);
	}
	free(mf->f);
	mf->f = NULL;
	mf->n = mf->alloc = 0;
}
