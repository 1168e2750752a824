/* t1230-output: the cells of kbench runs' and query's text tables (cut to
 * their column with '~', padded either side, UTF-8 never split) and the
 * format names (CSV fields: t0600). */
#include "config.h"
#include "views/output.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <string.h>

static void cell(const char *s, int width, int right, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	output_cell(&sb, s, width, right);
	if (!ok(!strcmp(sb.buf, want), "'%s' in %d columns%s: '%s'", s, width,
		right ? ", right" : "", want))
		diag("got '%s'", sb.buf);
	strbuf_release(&sb);
}

int main(void)
{
	enum output_format f = OUTPUT_NFORMATS;

	cell("base", 6, 0, "base  ");
	cell("base", 6, 1, "  base");
	cell("base", 4, 0, "base");
	cell("nightly", 4, 0, "nig~");
	cell("nightly", 4, 1, "nig~");
	cell("", 3, 0, "   ");
	cell("ab", 1, 0, "~");
	cell("ab", 0, 0, "");
	/* é is two bytes and one column. */
	cell("été", 4, 0, "été ");
	cell("été", 3, 1, "été");
	cell("étéété", 4, 0, "été~");
	cell("ééééé", 3, 0, "éé~");

	ok(!output_format_parse("json", &f) && f == OUTPUT_JSON, "json is a format");
	ok(!output_format_parse("csv", &f) && f == OUTPUT_CSV, "csv is a format");
	ok(!output_format_parse("text", &f) && f == OUTPUT_TEXT, "text is a format");
	ok(output_format_parse("xml", &f) && f == OUTPUT_TEXT, "xml is none, and changes nothing");
	return done_testing();
}
