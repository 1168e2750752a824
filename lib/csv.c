/* csv: RFC 4180 fields, quoted only where a reader needs it, and numbers
 * written in full so that a record reads back as written. */
#include "config.h"
#include "lib/csv.h"
#include "lib/strbuf.h"

#include <math.h>
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
	if (isfinite(v))
		strbuf_addf(out, "%.17g", v);
}
