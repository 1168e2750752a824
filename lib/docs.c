/* docs: the guides a text names, under the directory they are installed in. */
#include "config.h"
#include "lib/docs.h"
#include "lib/strbuf.h"

#include <ctype.h>
#include <string.h>

static const char *docs_dir;

void docs_set_dir(const char *dir)
{
	docs_dir = dir;
}

/* The length of the guide's name at name ("NAME.md" after "docs/"), or 0
 * when it is not one. */
static size_t guide_len(const char *name)
{
	size_t n = 0;

	while (isalnum((unsigned char)name[n]) || name[n] == '-' || name[n] == '_')
		n++;
	return n && !strncmp(name + n, ".md", 3) ? n + 3 : 0;
}

void docs_add_text(struct strbuf *out, const char *text)
{
	const char *p = text, *at;

	while (docs_dir && (at = strstr(p, "docs/"))) {
		int part_of_path = at > text && (isalnum((unsigned char)at[-1]) ||
						 strchr("/._-~$", at[-1]));

		strbuf_add(out, p, (size_t)(at - p));
		if (!part_of_path && guide_len(at + 5))
			strbuf_addf(out, "%s/", docs_dir);
		strbuf_addstr(out, "docs/");
		p = at + 5;
	}
	strbuf_addstr(out, p);
}
