/* render: the table of the comparison's renderers, in the order of enum
 * compare_format, and lookup by name. */
#include "config.h"
#include "compare/render.h"
#include "lib/strbuf.h"

#include <string.h>

const struct renderer renderers[COMPARE_NFORMATS + 1] = {
	[COMPARE_FORMAT_TEXT] = { .name = "text", .render = render_text },
	[COMPARE_FORMAT_MARKDOWN] = { .name = "markdown", .render = render_markdown },
	[COMPARE_FORMAT_CSV] = { .name = "csv", .render = render_csv },
	[COMPARE_FORMAT_JSON] = { .name = "json", .render = render_json },
	[COMPARE_FORMAT_BRIEF] = { .name = "brief", .render = render_brief },
	[COMPARE_FORMAT_HTML] = { .name = "html", .render = render_html },
	[COMPARE_NFORMATS] = { .name = NULL },
};

const struct renderer *renderer_find(const char *name)
{
	for (const struct renderer *r = renderers; r->name; r++)
		if (!strcmp(r->name, name))
			return r;
	return NULL;
}

void renderer_names(struct strbuf *sb)
{
	for (int i = 0; i < COMPARE_NFORMATS; i++)
		strbuf_addf(sb, "%s%s", i == 0 ? "" : i + 1 < COMPARE_NFORMATS ? ", " : " or ",
			    renderers[i].name);
}
