/* regex: PCRE2 patterns for --only selections and for the figures an
 * external benchmark prints (named groups, every match in turn). */
#ifndef KBENCH_REGEX_H
#define KBENCH_REGEX_H

struct kb_regex;

/* Compile pattern, for what (an option name, for messages); on error print
 * "kbench: invalid regular expression 'P' for WHAT at offset N: reason" and
 * return NULL. */
struct kb_regex *kb_regex_new(const char *pattern, const char *what);
/* Does re match subject anywhere? Return 1 if it does, 0 if it does not,
 * or -1 after printing "kbench: cannot match regular expression 'P' for
 * WHAT against 'SUBJECT': reason" when PCRE2 cannot tell (it hit its match
 * limit, say): such a subject is neither kept nor dropped in silence. */
int kb_regex_match(const struct kb_regex *re, const char *subject);
/* Free re; NULL is fine. */
void kb_regex_free(struct kb_regex *re);

#include <stddef.h>

struct strbuf;

/* Options of kb_regex_compile. */
#define KB_REGEX_MULTILINE 1u	/* ^ and $ match at every line's start and end */

/* Compile pattern with flags (KB_REGEX_*), JIT-compiled when PCRE2 can.
 * On error write "at offset N: reason" (PCRE2's message) to err and
 * return NULL; nothing is printed. */
struct kb_regex *kb_regex_compile(const char *pattern, unsigned flags, struct strbuf *err);
/* The number of the group named name, or -1 when there is none. */
int kb_regex_group(const struct kb_regex *re, const char *name);
/* Is re matched by PCRE2's JIT code (rather than its interpreter)? */
int kb_regex_jit(const struct kb_regex *re);

/* Where one match of kb_regex_find lies: the whole match and the group
 * asked for, as byte offsets into the subject [start, end). */
struct kb_regex_span {
	size_t start, end;	/* the whole match */
	size_t gstart, gend;	/* the group; gstart == (size_t)-1 when it did
				 * not take part in the match */
};

/* Find the first match of re in subject[0..len) that starts at or after
 * *pos, with the span of group number `group` (0: the whole match). On a
 * match fill *m, move *pos past it (one byte further after an empty
 * match, so a loop ends) and return 1; return 0 when there is none left,
 * or -1 with PCRE2's reason in err when matching failed (a resource
 * limit). */
int kb_regex_find(const struct kb_regex *re, const char *subject, size_t len,
		  size_t *pos, int group, struct kb_regex_span *m, struct strbuf *err);

#endif
