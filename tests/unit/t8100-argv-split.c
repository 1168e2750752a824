/* t8100-argv-split: command lines split into words as sh splits them
 * (quotes, backslashes, blanks), the refusals of what only a shell would
 * mean, and words quoted back into a line that splits into them again.
 * Covers: lib/argv.c */
#include "config.h"
#include "lib/argv.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <string.h>

/* The words of line joined by '|' (each in <>), or "error: why". */
static void split(const char *line, struct strbuf *got)
{
	struct argv_list a = ARGV_LIST_INIT;
	struct strbuf err = STRBUF_INIT;

	strbuf_reset(got);
	if (argv_split(line, &a, &err)) {
		strbuf_addf(got, "error: %s", err.buf);
	} else {
		for (size_t i = 0; i < a.n; i++)
			strbuf_addf(got, "%s<%s>", i ? "|" : "", a.v[i]);
		if (a.n && a.v[a.n])
			strbuf_addstr(got, " (not NULL-terminated)");
	}
	argv_list_release(&a);
	strbuf_release(&err);
}

/* s with newlines and tabs written \n and \t, for one TAP line. */
static const char *visible(const char *s, struct strbuf *sb)
{
	strbuf_reset(sb);
	for (; *s; s++)
		if (*s == '\n')
			strbuf_addstr(sb, "\\n");
		else if (*s == '\t')
			strbuf_addstr(sb, "\\t");
		else
			strbuf_addch(sb, *s);
	return sb->buf;
}

static void is_split(const char *line, const char *want)
{
	struct strbuf got = STRBUF_INIT, v1 = STRBUF_INIT, v2 = STRBUF_INIT;

	split(line, &got);
	ok(!strcmp(got.buf, want), "split [%s]: %s%s%s", visible(line, &v1),
	   visible(got.buf, &v2), strcmp(got.buf, want) ? " -- want " : "",
	   strcmp(got.buf, want) ? want : "");
	strbuf_release(&got);
	strbuf_release(&v1);
	strbuf_release(&v2);
}

/* argv_quote(split(line)) splits back into the same words. */
static void round_trip(const char *line)
{
	struct argv_list a = ARGV_LIST_INIT, b = ARGV_LIST_INIT;
	struct strbuf err = STRBUF_INIT, q = STRBUF_INIT, v = STRBUF_INIT;
	int same;

	argv_split(line, &a, &err);
	argv_quote(a.v, a.n, &q);
	argv_split(q.buf, &b, &err);
	same = a.n == b.n && !err.len;
	for (size_t i = 0; same && i < a.n; i++)
		same = !strcmp(a.v[i], b.v[i]);
	ok(same, "quoted back as [%s], which splits into the same %zu words%s%s",
	   visible(q.buf, &v), a.n, err.len ? ": " : "", err.buf);
	strbuf_release(&v);
	argv_list_release(&a);
	argv_list_release(&b);
	strbuf_release(&err);
	strbuf_release(&q);
}

int main(void)
{
	struct strbuf q = STRBUF_INIT;
	char *words[] = { "tbench", "-t", "60", "", "a b", "it's", "x=1,y:2" };

	is_split("tbench -t 60 4 127.0.0.1", "<tbench>|<-t>|<60>|<4>|<127.0.0.1>");
	is_split("  a \t b\n c  ", "<a>|<b>|<c>");
	is_split("", "");
	is_split("   ", "");
	is_split("'a b' c", "<a b>|<c>");
	is_split("a'b c'd", "<ab cd>");
	is_split("'$HOME \\n \"x\"'", "<$HOME \\n \"x\">");
	is_split("\"a b\" \"\"", "<a b>|<>");
	is_split("''", "<>");
	is_split("\"a \\\"q\\\" \\\\ \\$x \\` \\n\"", "<a \"q\" \\ $x ` \\n>");
	is_split("a\\ b c\\'d \\\\", "<a b>|<c'd>|<\\>");
	is_split("a \\\nb", "<a>|<b>");
	is_split("a\\\nb", "<ab>");
	is_split("\"a\\\nb\"", "<ab>");
	is_split("x#y {clients} a=b * ?", "<x#y>|<{clients}>|<a=b>|<*>|<?>");
	is_split("'a|b' \"a;b\" a\\|b", "<a|b>|<a;b>|<a|b>");

	is_split("'abc", "error: unterminated single quote");
	is_split("a \"b", "error: unterminated double quote");
	is_split("a \\", "error: backslash at the end of the line");
	is_split("a | b", "error: '|' means something to a shell but none runs this command: "
		 "quote it, or set shell = yes");
	is_split("a >out", "error: '>' means something to a shell but none runs this "
		 "command: quote it, or set shell = yes");
	is_split("echo $HOME", "error: '$' means something to a shell but none runs this "
		 "command: quote it, or set shell = yes");
	is_split("a && b", "error: '&' means something to a shell but none runs this "
		 "command: quote it, or set shell = yes");
	is_split("a `b`", "error: '`' means something to a shell but none runs this "
		 "command: quote it, or set shell = yes");
	is_split("a; b", "error: ';' means something to a shell but none runs this "
		 "command: quote it, or set shell = yes");
	is_split("a # comment", "error: '#' starts a comment in a shell: quote it, or set "
		 "shell = yes");

	argv_quote(words, sizeof(words) / sizeof(words[0]), &q);
	ok(!strcmp(q.buf, "tbench -t 60 '' 'a b' 'it'\\''s' x=1,y:2"),
	   "words quoted only where a shell needs it: %s", q.buf);
	round_trip("tbench -t 60 '' 'a b' \"it's\" x=1,y:2");
	round_trip("'a|b' '$x' 'tab\there' \"new\nline\" 'back\\slash'");
	strbuf_release(&q);
	return done_testing();
}
