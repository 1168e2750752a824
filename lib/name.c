/* name: checking stored names and printing them safely. */
#include "config.h"
#include "lib/name.h"

#include <string.h>

size_t name_utf8_len(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len;
	unsigned lo = 0x80, hi = 0xbf;

	if (!n)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	/* No overlong form, no surrogate, nothing past U+10FFFF. */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

/* The character at s (n bytes left, n > 0): its length in bytes, and in
 * *esc whether it is printed escaped: a control character (C0, DEL, or
 * C1 in UTF-8), or a byte that is not part of valid UTF-8 (alone). */
static size_t unit_at(const unsigned char *s, size_t n, int *esc)
{
	size_t u = name_utf8_len((const char *)s, n);

	if (!u) {
		*esc = 1;
		return 1;
	}
	*esc = s[0] < 0x20 || s[0] == 0x7f || (s[0] == 0xc2 && s[1] <= 0x9f);
	return u;
}

const char *name_invalid(enum name_kind kind, const char *name, size_t len, size_t *at)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t max = kind == NAME_RUN ? NAME_RUN_MAX :
		kind == NAME_HOST ? NAME_HOST_MAX : NAME_LABEL_MAX;
	size_t where = 0;
	const char *why = NULL;

	for (size_t i = 0, u; i < len && !why; i += u) {
		int esc;

		u = unit_at(s + i, len - i, &esc);
		if (!name_utf8_len(name + i, len - i))
			why = "it must be valid UTF-8";
		else if (esc)
			why = "it must not contain control characters";
		where = i;
	}
	if (!why && len > max)
		why = "it is too long";
	if (!why && kind == NAME_RUN) {
		if (!len)
			why = "it must not be empty";
		else if (s[0] == '#')
			why = "it must not start with '#' (#ID and @ID select a run by id)";
		else if (memchr(s, '@', len))
			why = "it must not contain '@' (NAME@HOST selects a run by host)";
	}
	if (!why && kind == NAME_HOST) {
		if (!len)
			why = "it must not be empty";
		else if (s[0] == '.' || s[0] == '-')
			why = "it must not start with '.' or '-'";
		for (size_t i = 0; i < len && !why; i++)
			if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
			      (s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == '_' ||
			      s[i] == '-')) {
				why = "it may hold only letters, digits, '.', '_' and '-'";
				where = i;
			}
	}
	if (at)
		*at = where;
	return why;
}

void name_escape_byte(struct strbuf *out, unsigned char c)
{
	strbuf_addf(out, "\\x%02x", c);
}

/* Append text[0..len) to out with what unit_at() says is escaped
 * written as \xNN, newline and tab too unless keep_lines, and a
 * backslash as \\ when double_backslash. */
static void escape(struct strbuf *out, const char *text, size_t len, int keep_lines,
		   int double_backslash)
{
	for (size_t i = 0, u; i < len; i += u) {
		int esc;

		u = unit_at((const unsigned char *)text + i, len - i, &esc);
		if (keep_lines && (text[i] == '\n' || text[i] == '\t'))
			esc = 0;
		if (text[i] == '\\' && double_backslash)
			strbuf_addstr(out, "\\\\");
		else if (!esc)
			strbuf_add(out, text + i, u);
		else
			for (size_t k = 0; k < u; k++)
				name_escape_byte(out, (unsigned char)text[i + k]);
	}
}

/* Whether escape() would change text[0..len). */
static int needs_escape(const char *text, size_t len, int keep_lines, int double_backslash)
{
	for (size_t i = 0, u; i < len; i += u) {
		int esc;

		u = unit_at((const unsigned char *)text + i, len - i, &esc);
		if (keep_lines && (text[i] == '\n' || text[i] == '\t'))
			esc = 0;
		if (esc || (text[i] == '\\' && double_backslash))
			return 1;
	}
	return 0;
}

void name_escape(struct strbuf *out, const char *s)
{
	escape(out, s, strlen(s), 0, 1);
}

void name_escape_text(struct strbuf *out, const char *text, size_t len)
{
	escape(out, text, len, 1, 0);
}

/* Four rotating buffers: enough for the arguments of one printf. */
static struct strbuf *next_buffer(void)
{
	static struct strbuf bufs[4] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	static unsigned next;
	struct strbuf *b = &bufs[next++ % 4];

	strbuf_reset(b);
	return b;
}

const char *name_printable(const char *s)
{
	struct strbuf *b;

	if (!s || !needs_escape(s, strlen(s), 0, 1))
		return s;
	b = next_buffer();
	name_escape(b, s);
	return b->buf;
}

const char *name_printable_text(const char *s)
{
	struct strbuf *b;

	if (!s || !needs_escape(s, strlen(s), 1, 0))
		return s;
	b = next_buffer();
	name_escape_text(b, s, strlen(s));
	return b->buf;
}
