/* config: INI configs through inih, with our own line reader so every key
 * knows its line (Debian's inih passes none to the handler), sections
 * without keys and long section names are kept (inih reports only key
 * lines, with names cut short), and a line too long for inih's buffer is
 * an error instead of a silent split. */
#include "config.h"
#include "runner/conf.h"
#include "lib/error.h"
#include "lib/name.h"
#include "lib/suggest.h"
#include "lib/xalloc.h"
#include "workloads/params.h"
#include "workloads/workload.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What inih will make of the line it is given, worked out by our reader
 * with inih's own rules: inih passes the handler a section name cut to 49
 * bytes and no line numbers, so the reader keeps the section itself. */
enum line_kind {
	LINE_OTHER,		/* blank, comment, or key = value */
	LINE_SECTION,		/* [name] */
	LINE_CONTINUATION,	/* indented: continues the last key's value */
};

struct parse_state {
	struct config *c;
	const char *file;	/* owned by c->files */
	const char *pos;	/* next unread byte of the text */
	int line;		/* number of the line last handed to inih */
	enum line_kind kind;	/* of that line */
	int have_key;		/* inih's previous key is set: indented lines continue it */
	struct conf_section *cur;	/* of the last [name] line; NULL before the first */
	size_t last_entry;	/* cur's entry that an indented line continues */
	struct strbuf err;	/* the problem found on err_line, without file:line */
	int err_line;
	int nerrors;		/* problems reported */
	int skip_section;	/* the last [name] line was refused: its keys are skipped */
	int skip_key;		/* the last key was refused: its continuation lines too */
	int stopped;		/* the rest of the text was not read */
};

/* Report the problem in ps->err (on ps->err_line), at most
 * CONF_MAX_ERRORS of them, and go on. */
static void report(struct parse_state *ps)
{
	if (!ps->err.len)
		return;
	if (ps->nerrors++ < CONF_MAX_ERRORS)
		error("%s:%d: %s", ps->file, ps->err_line, ps->err.buf);
	strbuf_reset(&ps->err);
}

static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The slot holding name, or the free slot where it would go. */
static struct conf_index_slot *index_slot(const struct conf_index *ix, const char *name)
{
	size_t mask = ix->cap - 1;
	size_t i = (size_t)name_hash(name) & mask;

	while (ix->slots[i].name && strcmp(ix->slots[i].name, name))
		i = (i + 1) & mask;
	return &ix->slots[i];
}

/* Return 1 and set *pos when name is in ix, else 0. */
static int index_find(const struct conf_index *ix, const char *name, size_t *pos)
{
	const struct conf_index_slot *slot;

	if (!ix->cap)
		return 0;
	slot = index_slot(ix, name);
	if (!slot->name)
		return 0;
	*pos = slot->pos;
	return 1;
}

/* Map name to pos; name must outlive the index. */
static void index_set(struct conf_index *ix, const char *name, size_t pos)
{
	struct conf_index_slot *slot;

	if (2 * (ix->n + 1) > ix->cap) {
		struct conf_index old = *ix;

		ix->cap = old.cap ? 2 * old.cap : 8;
		ix->slots = xcalloc(ix->cap, sizeof(*ix->slots));
		for (size_t i = 0; i < old.cap; i++)
			if (old.slots[i].name)
				*index_slot(ix, old.slots[i].name) = old.slots[i];
		free(old.slots);
	}
	slot = index_slot(ix, name);
	if (!slot->name)
		ix->n++;
	slot->name = name;
	slot->pos = pos;
}

static void index_release(struct conf_index *ix)
{
	free(ix->slots);
	memset(ix, 0, sizeof(*ix));
}

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
		free(s->entries[i].where);
	}
	free(s->entries);
	free(s->name);
	index_release(&s->by_key);
}

void config_release(struct config *c)
{
	for (size_t i = 0; i < c->n; i++)
		section_release(&c->sections[i]);
	free(c->sections);
	section_release(&c->global);
	index_release(&c->by_name);
	for (size_t i = 0; i < c->nfiles; i++)
		free(c->files[i]);
	free(c->files);
	for (size_t i = 0; i < c->noverrides; i++) {
		free(c->overrides[i]);
		free(c->override_from[i]);
	}
	free(c->overrides);
	free(c->override_from);
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
	size_t i;

	if (!strcmp(name, "global"))
		return &c->global;
	if (index_find(&c->by_name, name, &i))
		return &c->sections[i];
	return NULL;
}

/* The section a [name] line opens, new or (for [global]) again; NULL with
 * ps->err set when name is taken. Takes name. */
static struct conf_section *add_section(struct parse_state *ps, char *name)
{
	struct config *c = ps->c;
	struct conf_section *s = find_section(c, name);

	if (s) {
		if (s != &c->global && s->file == ps->file)
			strbuf_addf(&ps->err, "duplicate section [%s] (first at line %d)",
				    name, s->line);
		else if (s != &c->global)
			strbuf_addf(&ps->err, "section [%s] is already defined in %s:%d",
				    name, s->file, s->line);
		free(name);
		if (ps->err.len) {
			ps->err_line = ps->line;
			return NULL;
		}
		return s;
	}
	ALLOC_GROW(c->sections, c->n + 1, c->alloc);
	s = &c->sections[c->n];
	*s = (struct conf_section){
		.name = name,
		.file = ps->file,
		.line = ps->line,
	};
	index_set(&c->by_name, s->name, c->n++);
	return s;
}

/* inih's find_chars_or_comment: the first of chars in [s, end), or where
 * an inline comment (a prefix after whitespace) starts, or end. */
static const char *find_close(const char *s, const char *end, const char *chars)
{
	int was_space = 0;

	while (s < end && !strchr(chars, *s) &&
	       !(was_space && strchr(INI_INLINE_COMMENT_PREFIXES, *s))) {
		was_space = isspace((unsigned char)*s);
		s++;
	}
	return s;
}

/* Open the section of a [name] line: b..e is the text between the
 * brackets. */
static void section_line(struct parse_state *ps, const char *b, const char *e)
{
	while (b < e && isspace((unsigned char)*b))
		b++;
	while (e > b && isspace((unsigned char)e[-1]))
		e--;
	if (b == e) {
		strbuf_addstr(&ps->err, "empty section name");
		ps->err_line = ps->line;
		return;
	}
	/* Names are printed in tables and stored with the run: the one
	 * check of lib/name.c (no control character, valid UTF-8). */
	for (const char *p = b; p < e; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			strbuf_addf(&ps->err, "section name contains control character 0x%02x",
				    (unsigned char)*p);
			ps->err_line = ps->line;
			return;
		}
	}
	for (const char *p = b; p < e;) {
		size_t u = name_utf8_len(p, (size_t)(e - p));

		if (!u) {
			strbuf_addf(&ps->err, "section name is not valid UTF-8 (byte 0x%02x at "
				    "offset %zu)", (unsigned char)*p, (size_t)(p - b));
			ps->err_line = ps->line;
			return;
		}
		p += u;
	}
	ps->cur = add_section(ps, xstrndup(b, (size_t)(e - b)));
}

/* A [name] line: its section opened, or its keys skipped when refused. */
static void open_section(struct parse_state *ps, const char *b, const char *e)
{
	ps->cur = NULL;
	section_line(ps, b, e);
	ps->skip_section = ps->cur == NULL;
}

/* Classify line as inih's ini_parse_stream will (r55): skip a BOM on line
 * 1, strip whitespace; then a comment, a continuation (indented, after a
 * key), a [section] or a key line. Lines inih rejects are reported here,
 * so that errors come in file order. */
static void classify(struct parse_state *ps, const char *line)
{
	const char *b = line, *e, *p;

	ps->kind = LINE_OTHER;
	if (ps->line == 1 && !strncmp(b, "\xef\xbb\xbf", 3))
		b += 3;
	e = b + strlen(b);
	while (e > b && isspace((unsigned char)e[-1]))
		e--;
	while (b < e && isspace((unsigned char)*b))
		b++;
	if (b == e || strchr(INI_START_COMMENT_PREFIXES, *b))
		return;
	if (ps->have_key && b > line) {
		ps->kind = LINE_CONTINUATION;
		return;
	}
	if (*b == '[') {
		p = find_close(b + 1, e, "]");
		if (p == e || *p != ']')
			goto bad;
		ps->kind = LINE_SECTION;
		ps->have_key = 0;
		open_section(ps, b + 1, p);
		return;
	}
	p = find_close(b, e, "=:");
	if (p == e || (*p != '=' && *p != ':'))
		goto bad;
	ps->have_key = p > b;
	return;
bad:
	strbuf_addstr(&ps->err, "cannot parse this line: expected [section], key = value, "
		      "or a comment starting with # or ;");
	ps->err_line = ps->line;
}

/* inih's line source: one line at a time, counting. */
static char *reader(char *str, int num, void *stream)
{
	struct parse_state *ps = stream;
	const char *nl, *p = ps->pos;
	size_t len, body, max;

	if (!*p)
		return NULL;
	if (ps->nerrors >= CONF_MAX_ERRORS) {
		ps->stopped = 1;
		return NULL;
	}
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
		ps->kind = LINE_OTHER;
		body = 0;
	} else {
		memcpy(str, p, body);
		str[body] = '\0';
		classify(ps, str);
	}
	/* A line in error is reported and handed on blank: the rest of the
	 * file is still read, for its own errors. */
	if (ps->err.len) {
		report(ps);
		str[0] = '\0';
	}
	return str;
}

/* A new last entry of s; where is "file:line". */
static struct conf_entry *section_append(struct conf_section *s, const char *key,
					 const char *value, const char *file, int line)
{
	struct strbuf where = STRBUF_INIT;
	struct conf_entry *e;

	strbuf_addf(&where, "%s:%d", file, line);
	ALLOC_GROW(s->entries, s->n + 1, s->alloc);
	e = &s->entries[s->n];
	*e = (struct conf_entry){
		.key = xstrdup(key),
		.value = xstrdup(value),
		.file = file,
		.line = line,
		.where = strbuf_detach(&where),
	};
	return e;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
	struct parse_state *ps = user;
	struct conf_section *s = ps->cur;
	struct conf_entry *e;
	size_t first;

	if (ps->skip_section || (ps->kind == LINE_CONTINUATION && ps->skip_key))
		return 1;
	if (ps->kind == LINE_CONTINUATION && s) {
		/* An indented line continues the value: lists may span lines. */
		size_t len;
		char *v;

		e = &s->entries[ps->last_entry];
		len = strlen(e->value) + strlen(value) + 2;
		v = xmalloc(len);
		snprintf(v, len, "%s %s", e->value, value);
		free(e->value);
		e->value = v;
		return 1;
	}
	if (!s) {
		strbuf_addf(&ps->err, "key '%s' is outside any section (put it under [global])", key);
		ps->err_line = ps->line;
		ps->skip_key = 1;
		report(ps);
		return 1;
	}
	if (s != &ps->c->global && index_find(&s->by_key, key, &first)) {
		strbuf_addf(&ps->err, "duplicate key '%s' in [%s] (first at line %d)",
			    key, s->name, s->entries[first].line);
		ps->err_line = ps->line;
		ps->skip_key = 1;
		report(ps);
		return 1;
	}
	ps->skip_key = 0;
	e = section_append(s, key, value, ps->file, ps->line);
	if (s != &ps->c->global)
		index_set(&s->by_key, e->key, s->n);
	ps->last_entry = s->n++;
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

	c->files = xreallocarray(c->files, c->nfiles + 1, sizeof(*c->files));
	c->files[c->nfiles] = xstrdup(name);
	ps.file = c->files[c->nfiles++];
	ps.c = c;
	ps.pos = text;
	strbuf_init(&ps.err);
	rc = ini_parse_stream(reader, &ps, handler, &ps);
	strbuf_release(&ps.err);
	if (ps.stopped)
		error("%s: stopped after %d errors", name, CONF_MAX_ERRORS);
	if (ps.nerrors)
		return -1;
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

/* The section arg names before its key: the longest section name that
 * arg starts with, followed by '.'; NULL when none does. *key is set to
 * what follows. */
static struct conf_section *override_section(struct config *c, const char *arg,
					     const char *eq, const char **key)
{
	struct conf_section *s = NULL;

	for (const char *dot = eq; dot-- > arg;) {
		char *name;

		if (*dot != '.')
			continue;
		name = xstrndup(arg, (size_t)(dot - arg));
		s = find_section(c, name);
		free(name);
		if (s) {
			*key = dot + 1;
			break;
		}
	}
	return s;
}

/* The section name closest to the one arg names (up to its last '.'
 * before eq); NULL when none is close. */
static const char *section_suggest(const struct config *c, const char *arg, const char *eq)
{
	const char *dot = eq;
	char *typed;
	const char *best;

	while (dot > arg && *dot != '.')
		dot--;
	typed = xstrndup(arg, (size_t)(dot - arg));
	{
		struct suggest sg = SUGGEST_INIT(typed);

		suggest_add(&sg, "global");
		for (size_t i = 0; i < c->n; i++)
			suggest_add(&sg, c->sections[i].name);
		best = sg.best;
	}
	free(typed);
	return best;
}

/* Append key = value to s as the -o argument where gave it. */
static void override_entry(struct conf_section *s, const char *key, const char *value,
			   const char *where)
{
	struct conf_entry *e = section_append(s, key, value, "-o", 0);

	free(e->where);
	e->where = xstrdup(where);
	if (strcmp(s->name, "global"))
		index_set(&s->by_key, e->key, s->n);
	s->n++;
}

/* Whether some workload takes the key arg..eq as it stands. */
static int workload_key(const char *arg, const char *eq)
{
	char *key = xstrndup(arg, (size_t)(eq - arg));
	int found = 0;

	for (int i = 0; workloads[i] && !found; i++)
		found = wl_option_lookup(workloads[i]->options, key) >= 0;
	free(key);
	return found;
}

int config_add_override(struct config *c, const char *arg)
{
	return config_add_override_from(c, arg, NULL);
}

int config_add_override_from(struct config *c, const char *arg, const char *from)
{
	const char *eq = strchr(arg, '=');
	const char *key = arg;
	struct conf_section *s = &c->global;
	struct strbuf where = STRBUF_INIT;
	const char *kk, *vv;
	char *k = NULL;
	int rc = -1;

	if (from)
		strbuf_addf(&where, "%s ('%s')", from, arg);
	else
		strbuf_addf(&where, "-o '%s'", arg);
	if (!eq || eq == arg) {
		error("%s: expected KEY=VALUE or SECTION.KEY=VALUE", where.buf);
		goto out;
	}
	if (memchr(arg, '.', (size_t)(eq - arg)) && !(s = override_section(c, arg, eq, &key))) {
		/* A key of its own with a dot ("metric.tput") is a bare KEY. */
		s = &c->global;
		if (!workload_key(arg, eq)) {
			const char *best = section_suggest(c, arg, eq);
			const char *dot = eq;

			while (*dot != '.')
				dot--;
			if (best)
				error("%s: no section [%.*s] in the configs (did you mean '%s'?)",
				      where.buf, (int)(dot - arg), arg, best);
			else
				error("%s: no section [%.*s] in the configs", where.buf,
				      (int)(dot - arg), arg);
			goto out;
		}
	}
	/* Trimmed as a config line's key and value are. */
	k = xstrndup(key, (size_t)(eq - key));
	for (size_t n = strlen(k); n && isspace((unsigned char)k[n - 1]);)
		k[--n] = '\0';
	kk = k + strspn(k, " \t");
	vv = eq + 1 + strspn(eq + 1, " \t");
	if (!*kk) {
		error("%s: expected KEY=VALUE or SECTION.KEY=VALUE", where.buf);
		goto out;
	}
	c->overrides = xreallocarray(c->overrides, c->noverrides + 1, sizeof(*c->overrides));
	c->override_from = xreallocarray(c->override_from, c->noverrides + 1,
					 sizeof(*c->override_from));
	c->override_from[c->noverrides] = from ? xstrdup(from) : NULL;
	c->overrides[c->noverrides++] = xstrdup(arg);
	override_entry(s, kk, vv, where.buf);
	/* A bare KEY wins over the sections' own values too. */
	for (size_t i = 0; s == &c->global && i < c->n; i++)
		if (conf_section_get(&c->sections[i], kk))
			override_entry(&c->sections[i], kk, vv, where.buf);
	rc = 0;
out:
	free(k);
	strbuf_release(&where);
	return rc;
}
