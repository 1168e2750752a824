/* regex: a thin owner of compiled PCRE2 patterns (JIT when available),
 * reporting every PCRE2 error with the pattern and what it was for. */
#include "config.h"
#include "lib/regex.h"
#include "lib/error.h"
#include "lib/xalloc.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

struct kb_regex {
	pcre2_code *code;
	pcre2_match_data *md;
	char *pattern;	/* for messages */
	char *what;	/* "--only" */
};

struct kb_regex *kb_regex_new(const char *pattern, const char *what)
{
	struct kb_regex *re = xcalloc(1, sizeof(*re));
	int errcode;
	PCRE2_SIZE off;

	re->code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0,
				 &errcode, &off, NULL);
	if (!re->code) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(errcode, msg, sizeof(msg));
		error("invalid regular expression '%s' for %s at offset %zu: %s",
		      pattern, what, (size_t)off, (const char *)msg);
		free(re);
		return NULL;
	}
	/* JIT is an optimisation; without it matching still works. */
	pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE);
	re->md = pcre2_match_data_create_from_pattern(re->code, NULL);
	if (!re->md)
		abort();
	re->pattern = xstrdup(pattern);
	re->what = xstrdup(what);
	return re;
}

int kb_regex_match(const struct kb_regex *re, const char *subject)
{
	PCRE2_UCHAR msg[256];
	int rc = pcre2_match(re->code, (PCRE2_SPTR)subject, strlen(subject), 0, 0,
			     re->md, NULL);

	if (rc >= 0)
		return 1;
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	/* The match limit, the JIT stack, ...: no answer is not "no". */
	pcre2_get_error_message(rc, msg, sizeof(msg));
	error("cannot match regular expression '%s' for %s against '%s': %s",
	      re->pattern, re->what, subject, (const char *)msg);
	return -1;
}

void kb_regex_free(struct kb_regex *re)
{
	if (!re)
		return;
	pcre2_match_data_free(re->md);
	pcre2_code_free(re->code);
	free(re->pattern);
	free(re->what);
	free(re);
}
