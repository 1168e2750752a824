/* html: the HTML page every page renderer writes (comparison, history,
 * the charts in them): its frame and the one escape of text. */
#ifndef KBENCH_HTML_H
#define KBENCH_HTML_H

struct strbuf;

/* Append s to out with &, <, >, " and ' as character references and
 * control characters but tab and newline as \xNN, as name_escape writes
 * them (C1 in UTF-8 too): the one way text
 * from a store (run names, notes, config text, labels) enters a page, in
 * element content and in quoted attribute values alike. */
void html_escape(struct strbuf *out, const char *s);

/* Start a self-contained HTML page titled title (escaped): the style is
 * inline, and its content security policy forbids scripts and every
 * fetch, so that the page shows the same offline and nothing in it can
 * run. Leaves the body open. */
void html_page_begin(struct strbuf *out, const char *title);
/* Close the page html_page_begin opened. */
void html_page_end(struct strbuf *out);

#endif
