/* suggest: the closest known name to a typed one, by edit distance. */
#include "config.h"
#include "lib/suggest.h"
#include "lib/strbuf.h"

#include <string.h>

size_t suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64], prev, tmp;

	if (la >= 63 || lb >= 63)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

void suggest_add(struct suggest *s, const char *candidate)
{
	size_t d;

	if (!candidate || !strcmp(candidate, s->typed))
		return;
	d = suggest_distance(s->typed, candidate);
	if (d < s->distance) {
		s->distance = d;
		s->best = candidate;
	}
}

void suggest_keep(struct suggest *s, struct strbuf *keep, const char *candidate)
{
	if (!candidate || s->best != candidate)
		return;
	strbuf_reset(keep);
	strbuf_addstr(keep, candidate);
	s->best = keep->buf;
}
