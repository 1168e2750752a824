/* csv: RFC 4180 fields, quoted only where a reader needs it, and numbers
 * in the shortest form that reads back as the same double. */
#include "config.h"
#include "lib/csv.h"
#include "lib/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void csv_field(struct strbuf *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		strbuf_addstr(out, s);
		return;
	}
	strbuf_addch(out, '"');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addch(out, '"');
		strbuf_addch(out, *s);
	}
	strbuf_addch(out, '"');
}

void csv_number(struct strbuf *out, double v)
{
	char buf[32];

	if (!isfinite(v))
		return;
	/* The fewest digits that read back as v: 15 digits name a normal
	 * double's short decimal when it has one (0.07190081, not
	 * 0.071900809999999996); 17 always read back. */
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	strbuf_addstr(out, buf);
}
