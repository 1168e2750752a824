/* docs: where kbench's texts send the reader for a guide. A text names a
 * guide as the source tree holds it, "docs/NAME.md"; make install puts
 * the guides under the documentation directory in the same layout
 * ($(docdir)/docs/NAME.md), and an installed kbench names them there. */
#ifndef KBENCH_DOCS_H
#define KBENCH_DOCS_H

struct strbuf;

/* The directory the guides' docs/ lies in: an installed kbench's
 * $(docdir), or NULL (the default) for texts as they are written, naming
 * docs/NAME.md of the source tree. dir is kept, not copied. */
void docs_set_dir(const char *dir);

/* Append text to out, with each guide it names ("docs/NAME.md", NAME made
 * of letters, digits, '-' and '_', not the end of a longer path) under
 * the directory docs_set_dir() gave. */
void docs_add_text(struct strbuf *out, const char *text);

#endif
