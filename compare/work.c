/* work: whether two runs measured different work, from what they were
 * asked (config text, options), the effective values they stored and
 * where they measured (natively or in which guest). */
#include "config.h"
#include "compare/work.h"
#include "lib/strbuf.h"

#include <string.h>

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* The next line of values at *p that belongs to section (every line
 * when section is NULL): its start, its length in *len, *p moved past
 * it; NULL at the end. */
static const char *next_value(const char **p, const char *section, size_t *len)
{
	size_t slen = section ? strlen(section) : 0;

	while (**p) {
		const char *line = *p;
		size_t n = strcspn(line, "\n");

		*p += n + (line[n] == '\n');
		if (!section || (n > slen && !strncmp(line, section, slen) && line[slen] == '.')) {
			*len = n;
			return line;
		}
	}
	return NULL;
}

/* Whether values a and b (sorted) of section hold a key both have with
 * a different value in each. */
static int values_conflict(const char *a, const char *b, const char *section)
{
	size_t la = 0, lb = 0;
	const char *x = next_value(&a, section, &la), *y = next_value(&b, section, &lb);

	while (x && y) {
		size_t ka = strcspn(x, "="), kb = strcspn(y, "=");
		int c;

		if (ka >= la || kb >= lb)
			return 1;	/* not KEY=VALUE: not a store's values */
		/* "KEY=" against "KEY=": the store's order (bytes). */
		c = strncmp(x, y, (ka < kb ? ka : kb) + 1);
		if (!c && (la != lb || strncmp(x, y, la)))
			return 1;
		if (c <= 0)
			x = next_value(&a, section, &la);
		if (c >= 0)
			y = next_value(&b, section, &lb);
	}
	return 0;
}

/* Whether values holds a line of section. */
static int has_values(const char *values, const char *section)
{
	size_t len;

	return next_value(&values, section, &len) != NULL;
}

int run_kinds_differ(const char *a, const char *b)
{
	return strcmp(or_empty(a), or_empty(b)) != 0;
}

/* The value of key in kind, its length in *len; NULL when kind has none. */
static const char *kind_value(const char *kind, const char *key, size_t *len)
{
	size_t klen = strlen(key);

	for (const char *l = kind; *l;) {
		size_t n = strcspn(l, "\n");

		if (n > klen && !strncmp(l, key, klen) && l[klen] == '=') {
			*len = n - klen - 1;
			return l + klen + 1;
		}
		l += n + (l[n] == '\n');
	}
	return NULL;
}

void run_kind_describe(const char *kind, struct strbuf *out)
{
	const char *accel, *icount, *vcpus, *mem;
	size_t la = 0, li = 0, lv = 0, lm = 0, start;

	kind = or_empty(kind);
	if (!*kind) {
		strbuf_addstr(out, "native");
		return;
	}
	accel = kind_value(kind, "vm.accel", &la);
	icount = kind_value(kind, "vm.icount", &li);
	vcpus = kind_value(kind, "vm.vcpus", &lv);
	mem = kind_value(kind, "vm.memory_mib", &lm);
	strbuf_addstr(out, "guest (");
	start = out->len;
	if (accel && la == 3 && !strncmp(accel, "kvm", 3))
		strbuf_addstr(out, "KVM");
	else if (accel && la == 3 && !strncmp(accel, "tcg", 3))
		strbuf_addstr(out, "TCG");
	else if (accel)
		strbuf_add(out, accel, la);
	if (icount)
		strbuf_addf(out, "%sicount shift %.*s", out->len > start ? " " : "", (int)li,
			    icount);
	if (vcpus)
		strbuf_addf(out, "%s%.*s vCPU%s", out->len > start ? ", " : "", (int)lv, vcpus,
			    lv == 1 && *vcpus == '1' ? "" : "s");
	if (mem)
		strbuf_addf(out, "%s%.*s MiB", out->len > start ? ", " : "", (int)lm, mem);
	strbuf_addch(out, ')');
}

unsigned run_work_differs(const struct run_work *a, const struct run_work *b,
			  const char *section)
{
	unsigned asked = 0, kind = run_kinds_differ(a->kind, b->kind) ? WORK_KIND : 0;

	if (strcmp(or_empty(a->options), or_empty(b->options)))
		asked |= WORK_OPTIONS;
	if (strcmp(or_empty(a->config_text), or_empty(b->config_text)))
		asked |= WORK_CONFIG;
	if (!asked)
		return kind;
	if (!has_values(or_empty(a->values), section) || !has_values(or_empty(b->values), section))
		return kind | (asked & WORK_OPTIONS);
	return kind | (values_conflict(a->values, b->values, section) ? asked : 0);
}
