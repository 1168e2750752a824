/* t0400-regex: lib/regex's three answers (match, no match, error), and a
 * subject that runs PCRE2 into its match limit reported as an error with
 * the pattern, what it was for and PCRE2's reason, never as "no match". */
#include "config.h"
#include "../tap.h"
#include "lib/regex.h"
#include "lib/strbuf.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A pattern that backtracks exponentially on a run of 'a's that does not
 * end the subject; the '|!' keeps PCRE2 from proving early that it cannot
 * match. */
#define SLOW_PATTERN "(a+)+$|!"

struct captured {
	int rc;
	struct strbuf err;
};

/* Compile pattern into *re unless it holds one, then match subject
 * against it: into c, what kb_regex_match returned (-2: nothing was
 * matched) and what was written on stderr. */
static void capture(struct kb_regex **re, const char *pattern, const char *subject,
		    struct captured *c)
{
	FILE *fe = tmpfile();
	int se = dup(2);
	char buf[4096];
	size_t n;

	fflush(stderr);
	dup2(fileno(fe), 2);
	if (!*re)
		*re = kb_regex_new(pattern, "--only");
	c->rc = *re && subject ? kb_regex_match(*re, subject) : -2;
	fflush(stderr);
	dup2(se, 2);
	close(se);
	strbuf_reset(&c->err);
	rewind(fe);
	while ((n = fread(buf, 1, sizeof(buf), fe)))
		strbuf_add(&c->err, buf, n);
	fclose(fe);
}

/* ok() that shows the return and stderr seen when it fails. */
static void expect(const struct captured *c, int rc, const char *err, const char *what)
{
	if (!ok(c->rc == rc && !strcmp(c->err.buf, err), "%s", what))
		diag("got %d and stderr '%s', wanted %d and '%s'", c->rc, c->err.buf, rc, err);
}

int main(void)
{
	struct captured c = { .err = STRBUF_INIT };
	struct strbuf subject = STRBUF_INIT, want = STRBUF_INIT;
	struct kb_regex *re = NULL;

	capture(&re, "netperf-.*", "netperf-tcp-rr", &c);
	expect(&c, 1, "", "a matching subject: 1, nothing printed");
	capture(&re, NULL, "hackbench-process-pipes", &c);
	expect(&c, 0, "", "a subject that does not match: 0, nothing printed");
	capture(&re, NULL, "x netperf-udp", &c);
	expect(&c, 1, "", "a match anywhere in the subject counts");
	kb_regex_free(re);
	re = NULL;

	capture(&re, "(", NULL, &c);
	ok(!re, "a bad pattern does not compile");
	expect(&c, -2, "kbench: invalid regular expression '(' for --only at offset 1: "
	       "missing closing parenthesis\n", "a bad pattern is explained with its offset");

	for (int i = 0; i < 40; i++)
		strbuf_addch(&subject, 'a');
	strbuf_addch(&subject, 'b');
	capture(&re, SLOW_PATTERN, subject.buf, &c);
	strbuf_addf(&want, "kbench: cannot match regular expression '%s' for --only against "
		    "'%s': match limit exceeded\n", SLOW_PATTERN, subject.buf);
	expect(&c, -1, want.buf, "PCRE2's match limit is an error naming pattern, option, "
	       "subject and reason");
	capture(&re, NULL, "aaaa", &c);
	expect(&c, 1, "", "the same pattern still matches afterwards");
	capture(&re, NULL, "b!", &c);
	expect(&c, 1, "", "and its other branch too");
	capture(&re, NULL, "bbb", &c);
	expect(&c, 0, "", "and says no to a short subject it cannot match");
	kb_regex_free(re);
	kb_regex_free(NULL);
	ok(1, "kb_regex_free(NULL) is harmless");

	strbuf_release(&c.err);
	strbuf_release(&subject);
	strbuf_release(&want);
	return done_testing();
}
