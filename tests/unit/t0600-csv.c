/* t0600-csv: CSV fields are quoted as RFC 4180 asks (only where a reader
 * needs it, quotes doubled) and numbers read back as written, in their
 * shortest such form, with an empty field for what is not a number.
 * Covers: lib/csv.c */
#include "config.h"
#include "lib/csv.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void field(const char *s, const char *want, const char *what)
{
	struct strbuf sb = STRBUF_INIT;

	csv_field(&sb, s);
	if (!ok(!strcmp(sb.buf, want), "csv field: %s", what))
		diag("got [%s], want [%s]", sb.buf, want);
	strbuf_release(&sb);
}

static void number(double v, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	csv_number(&sb, v);
	if (!ok(!strcmp(sb.buf, want), "csv number %g: '%s'", v, want))
		diag("got '%s'", sb.buf);
	strbuf_release(&sb);
}

int main(void)
{
	struct strbuf sb = STRBUF_INIT;
	double third = 1.0 / 3;

	field("plain", "plain", "plain text as it is");
	field("a,b", "\"a,b\"", "a comma quoted");
	field("say \"hi\"", "\"say \"\"hi\"\"\"", "quotes doubled inside quotes");
	field("two\nlines", "\"two\nlines\"", "a newline quoted");
	field("cr\rhere", "\"cr\rhere\"", "a carriage return quoted");
	field("", "", "empty, empty");
	/* Blanks, tabs and semicolons need no quotes in RFC 4180. */
	field(" a b\t;c ", " a b\t;c ", "blanks, tabs and semicolons as they are");

	number(0, "0");
	number(-2.5, "-2.5");
	number(1e300, "1e+300");
	/* The shortest form that reads back: not 0.071900809999999996. */
	number(0.07190081, "0.07190081");
	number(0.1 + 0.2, "0.30000000000000004");
	number(1.0 / 3, "0.3333333333333333");
	number(2.0 / 3, "0.6666666666666666");
	number(123456789012345678.0, "1.2345678901234568e+17");
	number(-0.0, "-0");
	number(NAN, "");
	number(INFINITY, "");
	number(-INFINITY, "");

	/* A field is appended, and a number is written in full. */
	strbuf_addstr(&sb, "x,");
	csv_field(&sb, "y,z");
	strbuf_addch(&sb, ',');
	csv_number(&sb, third);
	ok(!strncmp(sb.buf, "x,\"y,z\",", 8) && strtod(sb.buf + 8, NULL) == third,
	   "appended: %s", sb.buf);
	strbuf_release(&sb);
	return done_testing();
}
