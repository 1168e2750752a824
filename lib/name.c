/* name: checking stored names and printing them safely. */
#include "config.h"
#include "lib/name.h"

#include <string.h>

/* The length of the control character at s (of n bytes left): 1 for C0
 * or DEL, 2 for a C1 character in UTF-8, 0 for none. */
static size_t control_at(const unsigned char *s, size_t n)
{
	if (s[0] < 0x20 || s[0] == 0x7f)
		return 1;
	if (s[0] == 0xc2 && n > 1 && s[1] >= 0x80 && s[1] <= 0x9f)
		return 2;
	return 0;
}

const char *name_invalid(enum name_kind kind, const char *name, size_t len, size_t *at)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t max = kind == NAME_RUN ? NAME_RUN_MAX :
		kind == NAME_HOST ? NAME_HOST_MAX : NAME_LABEL_MAX;
	size_t where = 0;
	const char *why = NULL;

	for (size_t i = 0; i < len && !why; i++)
		if (control_at(s + i, len - i)) {
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

void name_escape(struct strbuf *out, const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i < n; i++) {
		size_t c = control_at((const unsigned char *)s + i, n - i);

		if (s[i] == '\\')
			strbuf_addstr(out, "\\\\");
		else if (!c)
			strbuf_addch(out, s[i]);
		for (size_t k = 0; k < c; k++)
			strbuf_addf(out, "\\x%02x", (unsigned char)s[i + k]);
		if (c)
			i += c - 1;
	}
}

void name_escape_text(struct strbuf *out, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		size_t c = text[i] == '\n' || text[i] == '\t' ? 0 :
			control_at((const unsigned char *)text + i, len - i);

		if (!c)
			strbuf_addch(out, text[i]);
		for (size_t k = 0; k < c; k++)
			strbuf_addf(out, "\\x%02x", (unsigned char)text[i + k]);
		if (c)
			i += c - 1;
	}
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
	size_t n;

	if (!s)
		return s;
	n = strlen(s);
	for (size_t i = 0; i < n; i++)
		if (s[i] == '\\' || control_at((const unsigned char *)s + i, n - i))
			goto escape;
	return s;
escape:
	b = next_buffer();
	name_escape(b, s);
	return b->buf;
}

const char *name_printable_text(const char *s)
{
	struct strbuf *b;
	size_t n;

	if (!s)
		return s;
	n = strlen(s);
	for (size_t i = 0; i < n; i++)
		if (s[i] != '\n' && s[i] != '\t' && control_at((const unsigned char *)s + i, n - i))
			goto escape;
	return s;
escape:
	b = next_buffer();
	name_escape_text(b, s, n);
	return b->buf;
}
