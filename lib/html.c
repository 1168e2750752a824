/* html: one self-contained HTML page (inline style, a content
 * security policy forbidding scripts and fetches) and the escape through
 * which every text from a store enters it. */
#include "config.h"
#include "lib/html.h"
#include "lib/name.h"
#include "lib/strbuf.h"

void html_escape(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			strbuf_addstr(out, "&amp;");
			break;
		case '<':
			strbuf_addstr(out, "&lt;");
			break;
		case '>':
			strbuf_addstr(out, "&gt;");
			break;
		case '"':
			strbuf_addstr(out, "&quot;");
			break;
		case '\'':
			strbuf_addstr(out, "&#39;");
			break;
		default:
			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
				name_escape_byte(out, c);
			else if (c == 0xc2 && (unsigned char)s[1] >= 0x80 &&
				 (unsigned char)s[1] <= 0x9f) {
				name_escape_byte(out, c);
				name_escape_byte(out, (unsigned char)*++s);
			}
			else
				strbuf_addch(out, (char)c);
		}
	}
}

/* One style for every page: tables as compact as the text ones, the
 * verdict of a cell as its colour (and still its star), charts as wide
 * as the page allows. */
static const char html_style[] =
	"body{font-family:sans-serif;margin:1em 2em;color:#222;background:#fff;max-width:75em}\n"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}\n"
	"pre.facts{background:#f6f6f6;padding:.5em;overflow-x:auto}\n"
	"table{border-collapse:collapse;margin:.6em 0;font-size:.9em}\n"
	"th,td{padding:.15em .6em;border-bottom:1px solid #e4e4e4;white-space:nowrap}\n"
	"th{background:#f0f0f0;text-align:center}td.num{text-align:right;"
	"font-variant-numeric:tabular-nums}\n"
	"td.better{background:#cdeccd}td.worse{background:#f4c7c7}td.noise{color:#888}td.cannot{background:#fbeeb8}\n"
	"tr.mean td{font-weight:bold}tr.mean td.noise{font-weight:normal}\n"
	"figure.chart{margin:.8em 0}svg.plot{max-width:100%;height:auto}\n"
	"figcaption{font-size:.9em;color:#444}\n"
	"ul.legend{list-style:none;padding:0;margin:.2em 0;font-size:.9em}\n"
	"ul.legend li{display:inline-block;margin-right:1.4em}\n"
	"span.swatch{display:inline-block;width:1.6em;height:.5em;margin-right:.4em}\n"
	"p.noplot,p.plot-error{background:#fff4d6;border:1px solid #e0c060;padding:.5em}\n"
	"ul.notes{font-size:.9em;color:#444}\n"
	"div.multiples{display:flex;flex-wrap:wrap;gap:.6em}\n"
	"div.multiples figure{margin:0;width:14em;font-size:.75em}\n"
	"div.multiples figcaption{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}\n"
	"table.cycles td{white-space:normal;vertical-align:top}\n";

void html_page_begin(struct strbuf *out, const char *title)
{
	strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta http-equiv=\"Content-Security-Policy\" "
		      "content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		      "<title>");
	html_escape(out, title);
	strbuf_addf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", html_style);
}

void html_page_end(struct strbuf *out)
{
	strbuf_addstr(out, "</body>\n</html>\n");
}
