/* suggest: "did you mean" for a name the user typed, the closest known
 * name by edit distance. */
#ifndef KBENCH_SUGGEST_H
#define KBENCH_SUGGEST_H

#include <stddef.h>

/* The Levenshtein distance between a and b (insertions, deletions and
 * substitutions of one byte each); strings of 63 bytes or more are
 * reported as far apart (a large number). */
size_t suggest_distance(const char *a, const char *b);

/* The closest candidate to a typed name so far: start with SUGGEST_INIT,
 * offer every known name with suggest_add(), then read best (NULL when
 * none was within 2 edits). */
struct strbuf;

struct suggest {
	const char *typed;
	const char *best;
	size_t distance;	/* of best */
};
#define SUGGEST_INIT(name) { .typed = (name), .best = NULL, .distance = 3 }

/* Consider candidate (NULL is ignored); the first of equally close ones wins. */
void suggest_add(struct suggest *s, const char *candidate);

/* After candidate was offered: when it is best, copy it into keep and
 * point best there, for a candidate that does not outlive the call (a
 * name a store callback lends). */
void suggest_keep(struct suggest *s, struct strbuf *keep, const char *candidate);

#endif
