/* work: whether two runs measured different work, from what they were
 * asked (config text, options) and the effective values they stored. */
#include "config.h"
#include "compare/work.h"

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

unsigned run_work_differs(const struct run_work *a, const struct run_work *b,
			  const char *section)
{
	unsigned asked = 0;

	if (strcmp(or_empty(a->options), or_empty(b->options)))
		asked |= WORK_OPTIONS;
	if (strcmp(or_empty(a->config_text), or_empty(b->config_text)))
		asked |= WORK_CONFIG;
	if (!asked)
		return 0;
	if (!has_values(or_empty(a->values), section) || !has_values(or_empty(b->values), section))
		return asked & WORK_OPTIONS;
	return values_conflict(a->values, b->values, section) ? asked : 0;
}
