/* config: INI configs through inih, with our own line reader so every key
 * knows its line (Debian's inih passes none to the handler), sections
 * without keys are kept (inih reports only key lines), and a line too long
 * for inih's buffer is an error instead of a silent split. */
#include "config.h"
#include "harness/conf.h"
#include "lib/error.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>

struct parse_state {
	struct config *c;
	const char *file;	/* owned by c->files */
	const char *pos;	/* next unread byte of the text */
	int line;		/* number of the line last handed to inih */
	int continuation;	/* that line started with whitespace */
	struct strbuf err;	/* first problem found, without file:line */
	int err_line;
};

void config_init(struct config *c)
{
	memset(c, 0, sizeof(*c));
	strbuf_init(&c->text);
	strbuf_init(&c->name);
	c->global.name = xstrdup("global");
}

static void section_release(struct conf_section *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->entries[i].key);
		free(s->entries[i].value);
	}
	free(s->entries);
	free(s->name);
}

void config_release(struct config *c)
{
	for (size_t i = 0; i < c->n; i++)
		section_release(&c->sections[i]);
	free(c->sections);
	section_release(&c->global);
	for (size_t i = 0; i < c->nfiles; i++)
		free(c->files[i]);
	free(c->files);
	strbuf_release(&c->text);
	strbuf_release(&c->name);
	memset(c, 0, sizeof(*c));
}

const struct conf_entry *conf_section_get(const struct conf_section *s, const char *key)
{
	for (size_t i = s->n; i-- > 0;)
		if (!strcmp(s->entries[i].key, key))
			return &s->entries[i];
	return NULL;
}

static struct conf_section *find_section(struct config *c, const char *name)
{
	if (!strcmp(name, "global"))
		return &c->global;
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->sections[i].name, name))
			return &c->sections[i];
	return NULL;
}

static struct conf_section *add_section(struct parse_state *ps, const char *name)
{
	struct config *c = ps->c;
	struct conf_section *s = find_section(c, name);

	if (s) {
		if (s != &c->global && s->file == ps->file && s->line != ps->line) {
			strbuf_addf(&ps->err, "duplicate section [%s] (first at line %d)",
				    name, s->line);
			ps->err_line = ps->line;
			return NULL;
		}
		if (s != &c->global && s->file != ps->file) {
			strbuf_addf(&ps->err, "section [%s] is already defined in %s:%d",
				    name, s->file, s->line);
			ps->err_line = ps->line;
			return NULL;
		}
		return s;
	}
	if (c->n == c->alloc) {
		c->alloc = c->alloc ? 2 * c->alloc : 8;
		c->sections = realloc(c->sections, c->alloc * sizeof(*c->sections));
		if (!c->sections)
			abort();
	}
	s = &c->sections[c->n++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->file = ps->file;
	s->line = ps->line;
	return s;
}

/* inih's line source: one line at a time, counting. */
static char *reader(char *str, int num, void *stream)
{
	struct parse_state *ps = stream;
	const char *nl, *p = ps->pos;
	size_t len, body, max;

	if (!*p || ps->err.len)
		return NULL;
	nl = strchr(p, '\n');
	len = nl ? (size_t)(nl - p) + 1 : strlen(p);
	ps->line++;
	ps->pos = p + len;
	/* The line end is not counted, and not handed on: inih strips it. */
	body = len;
	if (body && p[body - 1] == '\n')
		body--;
	if (body && p[body - 1] == '\r')
		body--;
	max = CONF_MAX_LINE;
	if (num < CONF_MAX_LINE + 2)	/* inih built with a smaller buffer */
		max = num > 2 ? (size_t)num - 2 : 0;
	if (body > max) {
		strbuf_addf(&ps->err, "line is %zu characters long; at most %zu are allowed "
			    "(continue a long list on indented lines)", body, max);
		ps->err_line = ps->line;
		return NULL;
	}
	memcpy(str, p, body);
	str[body] = '\0';
	ps->continuation = len && (p[0] == ' ' || p[0] == '\t');
	/* Note sections here too: inih reports only sections holding keys. */
	if (!ps->continuation) {
		const char *b = p, *e = p + len;

		while (b < e && isspace((unsigned char)*b))
			b++;
		while (e > b && isspace((unsigned char)e[-1]))
			e--;
		if (b < e && *b == '[' && e[-1] == ']' && e - b > 2) {
			char name[256];
			size_t n = (size_t)(e - b - 2);

			if (n >= sizeof(name))
				n = sizeof(name) - 1;
			memcpy(name, b + 1, n);
			name[n] = '\0';
			/* trim like inih does */
			while (n && isspace((unsigned char)name[n - 1]))
				name[--n] = '\0';
			add_section(ps, name + strspn(name, " \t"));
		}
	}
	return str;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
	struct parse_state *ps = user;
	struct conf_section *s;
	struct conf_entry *e;

	if (ps->err.len)
		return 0;
	if (!section || !*section) {
		strbuf_addf(&ps->err, "key '%s' is outside any section (put it under [global])", key);
		ps->err_line = ps->line;
		return 0;
	}
	s = find_section(ps->c, section);
	if (!s)
		s = add_section(ps, section);
	if (!s)
		return 0;
	e = NULL;
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->entries[i].key, key) && s->entries[i].file == ps->file)
			e = &s->entries[i];
	if (e && ps->continuation) {
		/* An indented line continues the value: lists may span lines. */
		size_t len = strlen(e->value) + strlen(value) + 2;
		char *v = malloc(len);

		if (!v)
			abort();
		snprintf(v, len, "%s %s", e->value, value);
		free(e->value);
		e->value = v;
		return 1;
	}
	if (e && s != &ps->c->global) {
		strbuf_addf(&ps->err, "duplicate key '%s' in [%s] (first at line %d)",
			    key, section, e->line);
		ps->err_line = ps->line;
		return 0;
	}
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 8;
		s->entries = realloc(s->entries, s->alloc * sizeof(*s->entries));
		if (!s->entries)
			abort();
	}
	e = &s->entries[s->n++];
	e->key = xstrdup(key);
	e->value = xstrdup(value);
	e->file = ps->file;
	e->line = ps->line;
	return 1;
}

static void add_name(struct config *c, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 5 && !strcmp(base + len - 5, ".conf"))
		len -= 5;
	if (c->name.len)
		strbuf_addch(&c->name, '+');
	strbuf_add(&c->name, base, len);
}

int config_load_string(struct config *c, const char *name, const char *text)
{
	struct parse_state ps = { 0 };
	int rc;

	c->files = realloc(c->files, (c->nfiles + 1) * sizeof(*c->files));
	if (!c->files)
		abort();
	c->files[c->nfiles] = xstrdup(name);
	ps.file = c->files[c->nfiles++];
	ps.c = c;
	ps.pos = text;
	strbuf_init(&ps.err);
	rc = ini_parse_stream(reader, &ps, handler, &ps);
	if (ps.err.len) {
		error("%s:%d: %s", name, ps.err_line, ps.err.buf);
		strbuf_release(&ps.err);
		return -1;
	}
	strbuf_release(&ps.err);
	if (rc > 0)
		return error("%s:%d: cannot parse this line: expected [section], key = value, "
			     "or a comment starting with # or ;", name, rc);
	if (rc < 0)
		return error("%s: cannot be parsed", name);
	if (c->nfiles > 1)
		strbuf_addf(&c->text, "# --- %s ---\n", name);
	strbuf_addstr(&c->text, text);
	if (c->text.len && c->text.buf[c->text.len - 1] != '\n')
		strbuf_addch(&c->text, '\n');
	add_name(c, name);
	return 0;
}

int config_load(struct config *c, const char *path)
{
	struct strbuf text = STRBUF_INIT;
	int rc = strbuf_read_file(&text, path);

	if (rc) {
		strbuf_release(&text);
		return error("cannot read config '%s': %s", path, strerror(-rc));
	}
	if (memchr(text.buf, '\0', text.len)) {
		strbuf_release(&text);
		return error("%s: not a text file", path);
	}
	rc = config_load_string(c, path, text.buf);
	strbuf_release(&text);
	return rc;
}
