/* name: the one check of the names kbench stores and prints (runs, hosts,
 * sections and rows), whichever way they come in (run -n, import, fleet
 * collect), and the one way such a name is printed. */
#ifndef KBENCH_NAME_H
#define KBENCH_NAME_H

#include "lib/strbuf.h"

#include <stddef.h>

enum name_kind {
	NAME_RUN,	/* a run's name: 1..NAME_RUN_MAX bytes, no leading '#', no '@' */
	NAME_HOST,	/* a host name: letters, digits, '.', '_', '-'; not '.' or '..' */
	NAME_LABEL,	/* a section, row, key or config name: up to 255 bytes */
};

/* The longest run name, in bytes: names head tables and columns. */
#define NAME_RUN_MAX 128
#define NAME_HOST_MAX 255
#define NAME_LABEL_MAX 255

/* Whether name (len bytes, which may hold NUL) is acceptable as a name of
 * kind: NULL when it is, else why not, as a phrase ("it must not contain
 * control characters") with the offending byte's offset in *at (when
 * at is not NULL). No name holds a control character: C0, DEL, or C1
 * written in UTF-8 (U+0080..U+009F), which terminals obey; every name is
 * valid UTF-8, as JSON and terminals expect. */
const char *name_invalid(enum name_kind kind, const char *name, size_t len, size_t *at);

/* The length in bytes of the valid UTF-8 character at s (n bytes left):
 * 1 to 4; 0 when the bytes there are not one (a stray or truncated
 * byte, an overlong form, a surrogate, past U+10FFFF) or n is 0. */
size_t name_utf8_len(const char *s, size_t n);

/* Append c to out as \xNN (two lowercase hex digits): the one way kbench
 * writes a byte it does not print as it is. name_escape() and
 * name_escape_text() say which bytes those are for names and messages;
 * an HTML page, a query's table cell and a quoted token of an mmtests
 * log keep rules of their own (entities, \n and \t, ASCII only) but
 * write the bytes they escape through it. */
void name_escape_byte(struct strbuf *out, unsigned char c);

/* Append s to out with every control character, and every byte that is
 * not part of valid UTF-8, written as \xNN (and a backslash as \\), so
 * that text from a store or a bundle cannot move the cursor, set a
 * title, ring or break a line when printed, nor garble a terminal. */
void name_escape(struct strbuf *out, const char *s);

/* Append text[0..len) to out with every control character but newline
 * and tab, and every byte that is not part of valid UTF-8, written as
 * \xNN (backslashes left as they are): a message or a note of several
 * lines that cannot move the cursor, set a title or ring
 * when printed. error(), warning() and notice() print through it. */
void name_escape_text(struct strbuf *out, const char *text, size_t len);

/* s escaped as name_escape_text() does (newlines, tabs and backslashes
 * kept), in the rotating buffers of name_printable(); s itself when it
 * needs no escaping. For stored text that is not a name: a fact's value,
 * a failure's reason. */
const char *name_printable_text(const char *s);

/* s escaped as name_escape() does, in one of four rotating static buffers
 * (for the arguments of one printf); s itself when it needs no escaping. */
const char *name_printable(const char *s);

#endif
