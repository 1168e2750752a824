/* t0010-regex: lib/regex's three answers (match, no match, error), and a
 * subject that runs PCRE2 into its match limit reported as an error with
 * the pattern, what it was for and PCRE2's reason, never as "no match".
 * Covers: lib/regex.c */
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

/* Subjects a pattern decides, silently. */
struct decided {
	const char *subject;
	int rc;
	const char *what;
};

static const struct decided plain_cases[] = {
	{ .subject = "netperf-tcp-rr", .rc = 1, .what = "a matching subject: 1, nothing printed" },
	{ .subject = "hackbench-process-pipes", .rc = 0,
	  .what = "a subject that does not match: 0, nothing printed" },
	{ .subject = "x netperf-udp", .rc = 1, .what = "a match anywhere in the subject counts" },
};

/* After the match limit: the pattern still answers where it can. */
static const struct decided slow_cases[] = {
	{ .subject = "aaaa", .rc = 1, .what = "the same pattern still matches afterwards" },
	{ .subject = "b!", .rc = 1, .what = "and its other branch too" },
	{ .subject = "bbb", .rc = 0, .what = "and says no to a short subject it cannot match" },
};

static void expect_decided(struct kb_regex **re, const struct decided *cases, size_t n,
			   struct captured *c)
{
	for (size_t i = 0; i < n; i++) {
		capture(re, NULL, cases[i].subject, c);
		expect(c, cases[i].rc, "", cases[i].what);
	}
}

#define NCASES(a) (sizeof(a) / sizeof((a)[0]))

int main(void)
{
	struct captured c = { .err = STRBUF_INIT };
	struct strbuf subject = STRBUF_INIT, want = STRBUF_INIT;
	struct kb_regex *re = kb_regex_new("netperf-.*", "--only");

	expect_decided(&re, plain_cases, NCASES(plain_cases), &c);
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
	expect_decided(&re, slow_cases, NCASES(slow_cases), &c);
	kb_regex_free(re);
	kb_regex_free(NULL);
	ok(1, "kb_regex_free(NULL) is harmless");

	strbuf_release(&c.err);
	strbuf_release(&subject);
	strbuf_release(&want);
	return done_testing();
}
