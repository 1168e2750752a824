/* regex: a thin owner of compiled PCRE2 patterns (JIT when available):
 * whether one matches, and where each match and named group lies; every
 * PCRE2 error is reported with the pattern and what it was for. */
#include "config.h"
#include "lib/regex.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>
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
	struct strbuf err = STRBUF_INIT;
	struct kb_regex *re = kb_regex_compile(pattern, 0, &err);

	if (!re)
		error("invalid regular expression '%s' for %s %s", pattern, what, err.buf);
	else
		re->what = xstrdup(what);
	strbuf_release(&err);
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
	      re->pattern, re->what ? re->what : "a pattern", subject, (const char *)msg);
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

struct kb_regex *kb_regex_compile(const char *pattern, unsigned flags, struct strbuf *err)
{
	struct kb_regex *re = xcalloc(1, sizeof(*re));
	uint32_t options = (flags & KB_REGEX_MULTILINE) ? PCRE2_MULTILINE : 0;
	int errcode;
	PCRE2_SIZE off;

	re->code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, options,
				 &errcode, &off, NULL);
	if (!re->code) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(errcode, msg, sizeof(msg));
		strbuf_addf(err, "at offset %zu: %s", (size_t)off, (const char *)msg);
		free(re);
		return NULL;
	}
	/* JIT is an optimisation; without it matching still works. */
	pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE);
	re->md = pcre2_match_data_create_from_pattern(re->code, NULL);
	if (!re->md)
		abort();
	re->pattern = xstrdup(pattern);
	return re;
}

int kb_regex_group(const struct kb_regex *re, const char *name)
{
	int n = pcre2_substring_number_from_name(re->code, (PCRE2_SPTR)name);

	return n > 0 ? n : -1;
}

int kb_regex_jit(const struct kb_regex *re)
{
	size_t size = 0;

	return pcre2_pattern_info(re->code, PCRE2_INFO_JITSIZE, &size) == 0 && size > 0;
}

int kb_regex_find(const struct kb_regex *re, const char *subject, size_t len,
		  size_t *pos, int group, struct kb_regex_span *m, struct strbuf *err)
{
	PCRE2_SIZE *ov;
	int rc;

	if (*pos > len)
		return 0;
	rc = pcre2_match(re->code, (PCRE2_SPTR)subject, len, *pos, 0, re->md, NULL);
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	if (rc < 0) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(rc, msg, sizeof(msg));
		strbuf_addf(err, "matching failed: %s", (const char *)msg);
		return -1;
	}
	ov = pcre2_get_ovector_pointer(re->md);
	m->start = ov[0];
	m->end = ov[1];
	m->gstart = m->gend = (size_t)-1;
	/* rc is the highest group that matched, plus one; groups past it
	 * did not take part. */
	if (group >= 0 && group < rc && ov[2 * group] != PCRE2_UNSET) {
		m->gstart = ov[2 * group];
		m->gend = ov[2 * group + 1];
	}
	*pos = m->end > m->start ? m->end : m->end + 1;
	return 1;
}
