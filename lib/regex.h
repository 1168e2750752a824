/* regex: PCRE2 patterns for --only selections. */
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

#endif
