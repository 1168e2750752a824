/* json: the JSON writer. Every token goes through begin_element(), which
 * knows from the stack of open containers whether a comma, a newline or
 * a key must come first, and refuses what would not be JSON. */
#include "config.h"
#include "lib/json.h"
#include "lib/error.h"
#include "lib/name.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void json_bug(const char *what) __attribute__((noreturn));
static void json_bug(const char *what)
{
	error("BUG: json writer: %s", what);
	abort();
}

static char innermost(const struct json *j)
{
	return j->depth ? j->open[j->depth - 1] : 0;
}

void json_init(struct json *j, struct strbuf *out)
{
	*j = (struct json){ .out = out };
}

void json_finish(struct json *j)
{
	if (!j->done)
		json_bug("the document is not complete");
	free(j->open);
	*j = (struct json){ .out = NULL };
}

/* The separator before an element of an array or a key of an object. */
static void separate(struct json *j)
{
	if (j->has_element)
		strbuf_addch(j->out, ',');
	if (j->newline)
		strbuf_addch(j->out, '\n');
	j->newline = 0;
}

/* Before any value: check that one may come here and separate it. */
static void begin_value(struct json *j)
{
	if (j->done)
		json_bug("a second value after the whole document");
	switch (innermost(j)) {
	case '{':
		if (!j->has_key)
			json_bug("a value without a key in an object");
		j->has_key = 0;
		break;
	case '[':
		separate(j);
		break;
	}
}

/* After any value, a scalar or a closed container. */
static void end_value(struct json *j)
{
	j->has_element = 1;
	if (!j->depth)
		j->done = 1;
}

/* s as a JSON string: never invalid UTF-8, whatever s holds (a byte
 * that is not part of valid UTF-8 becomes U+FFFD), nor a raw control
 * character. */
static void add_escaped(struct strbuf *out, const char *s)
{
	size_t n = strlen(s);

	strbuf_addch(out, '"');
	for (size_t i = 0, u; i < n; i += u) {
		unsigned char ch = (unsigned char)s[i];

		u = name_utf8_len(s + i, n - i);
		if (!u) {
			strbuf_addstr(out, "\\ufffd");
			u = 1;
		} else if (ch == '"' || ch == '\\') {
			strbuf_addf(out, "\\%c", ch);
		} else if (ch == '\n') {
			strbuf_addstr(out, "\\n");
		} else if (ch == '\t') {
			strbuf_addstr(out, "\\t");
		} else if (ch < 0x20 || ch == 0x7f) {
			strbuf_addf(out, "\\u%04x", ch);
		} else if (ch == 0xc2 && (unsigned char)s[i + 1] <= 0x9f) {
			strbuf_addf(out, "\\u%04x", (unsigned char)s[i + 1]);	/* C1 */
		} else {
			strbuf_add(out, s + i, u);
		}
	}
	strbuf_addch(out, '"');
}

static void open_container(struct json *j, char c)
{
	begin_value(j);
	strbuf_addch(j->out, c);
	ALLOC_GROW(j->open, j->depth + 1, j->alloc);
	j->open[j->depth++] = c;
	j->has_element = 0;
	j->newline = 0;
}

static void close_container(struct json *j, char c)
{
	if (innermost(j) != c)
		json_bug(c == '{' ? "closing an object that is not the innermost open container"
			 : "closing an array that is not the innermost open container");
	if (j->has_key)
		json_bug("closing an object whose last key has no value");
	strbuf_addch(j->out, c == '{' ? '}' : ']');
	j->depth--;
	j->newline = 0;
	end_value(j);
}

void json_object_begin(struct json *j)
{
	open_container(j, '{');
}

void json_document_begin(struct json *j, const char *format, int version)
{
	json_object_begin(j);
	json_key_string(j, "format", format);
	json_key_int(j, "format_version", version);
}

void json_object_end(struct json *j)
{
	close_container(j, '{');
}

void json_array_begin(struct json *j)
{
	open_container(j, '[');
}

void json_array_end(struct json *j)
{
	close_container(j, '[');
}

void json_key(struct json *j, const char *key)
{
	if (innermost(j) != '{')
		json_bug("a key outside an object");
	if (j->has_key)
		json_bug("a key after a key");
	separate(j);
	add_escaped(j->out, key);
	strbuf_addch(j->out, ':');
	j->has_key = 1;
}

void json_string(struct json *j, const char *s)
{
	begin_value(j);
	add_escaped(j->out, s);
	end_value(j);
}

void json_double(struct json *j, double v)
{
	begin_value(j);
	if (isfinite(v))
		strbuf_addf(j->out, "%.17g", v);
	else
		strbuf_addstr(j->out, "null");
	end_value(j);
}

void json_int(struct json *j, long long v)
{
	begin_value(j);
	strbuf_addf(j->out, "%lld", v);
	end_value(j);
}

void json_bool(struct json *j, int v)
{
	begin_value(j);
	strbuf_addstr(j->out, v ? "true" : "false");
	end_value(j);
}

void json_null(struct json *j)
{
	begin_value(j);
	strbuf_addstr(j->out, "null");
	end_value(j);
}

void json_key_string(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	if (s)
		json_string(j, s);
	else
		json_null(j);
}

void json_key_int(struct json *j, const char *key, long long v)
{
	json_key(j, key);
	json_int(j, v);
}

void json_key_double(struct json *j, const char *key, double v)
{
	json_key(j, key);
	json_double(j, v);
}

void json_key_bool(struct json *j, const char *key, int v)
{
	json_key(j, key);
	json_bool(j, v);
}

void json_newline(struct json *j)
{
	if (!j->depth)
		json_bug("a newline outside any container");
	if (j->has_key)
		json_bug("a newline between a key and its value");
	j->newline = 1;
}
