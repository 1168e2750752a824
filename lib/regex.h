/* regex: PCRE2 patterns for --only selections. */
#ifndef KBENCH_REGEX_H
#define KBENCH_REGEX_H

struct kb_regex;

/* Compile pattern; on error print "kbench: invalid regular expression for
 * WHAT at offset N: reason" and return NULL. */
struct kb_regex *kb_regex_new(const char *pattern, const char *what);
/* 1 if subject matches anywhere, else 0. */
int kb_regex_match(const struct kb_regex *re, const char *subject);
void kb_regex_free(struct kb_regex *re);

#endif
