/* params: option values for one workload instance, parsed and validated
 * against the workload's option table and stored by offset in the
 * workload's options struct; results a workload appends to its sample. */
#include "config.h"
#include "workloads/params.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "lib/suggest.h"
#include "workloads/stride.h"
#include "machine/sysinfo.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct wl_params *wl_params_new(const struct workload_ops *ops)
{
	struct wl_params *p = xcalloc(1, sizeof(*p));
	size_t n = 0;

	while (ops->options[n].name)
		n++;
	p->ops = ops;
	p->v = xcalloc(n + 1, sizeof(*p->v));
	p->opts = xcalloc(1, ops->opts_size);
	p->metrics = ops->metrics;
	return p;
}

void wl_value_release(struct wl_value *v)
{
	free(v->text);
	free(v->list);
	for (size_t i = 0; i < v->nkeys; i++) {
		free((char *)v->keys[i].name);
		free((char *)v->keys[i].text);
	}
	free(v->keys);
	memset(v, 0, sizeof(*v));
}

void wl_params_free(struct wl_params *p)
{
	if (!p)
		return;
	if (p->ops->release)
		p->ops->release(p);
	free(p->rows);
	for (size_t i = 0; p->ops->options[i].name; i++)
		wl_value_release(&p->v[i]);
	free(p->v);
	free(p->opts);
	free(p);
}

int wl_option_index(const struct wl_option *table, const char *name)
{
	for (int i = 0; table[i].name; i++)
		if (!strcmp(table[i].name, name))
			return i;
	return -1;
}

/* The i-th choice of WL_ENUM option o, *len bytes long (not
 * NUL-terminated in a "a|b|c" list); NULL past the last. */
static const char *choice(const struct wl_option *o, int i, size_t *len)
{
	const char *c = o->choices;

	if (o->choice_names) {
		c = *(const char *const *)((const char *)o->choice_names +
					   (size_t)i * o->choice_stride);
		if (c)
			*len = strlen(c);
		return c;
	}
	for (; c && i > 0; i--) {
		c = strchr(c, '|');
		if (c)
			c++;
	}
	if (c)
		*len = strcspn(c, "|");
	return c;
}

void wl_option_choices(const struct wl_option *o, const char *sep,
		       const char *last_sep, struct strbuf *sb)
{
	const char *c;
	size_t len;
	int n = 0;

	while (choice(o, n, &len))
		n++;
	for (int i = 0; i < n; i++) {
		c = choice(o, i, &len);
		if (i)
			strbuf_addstr(sb, i == n - 1 ? last_sep : sep);
		strbuf_add(sb, c, len);
	}
}

const char *wl_type_expect(const struct wl_option *o)
{
	static char buf[256];

	switch (o->type) {
	case WL_INT:
		if (o->min != o->max)
			snprintf(buf, sizeof(buf), "an integer from %.0f to %.0f", o->min, o->max);
		else
			snprintf(buf, sizeof(buf), "an integer");
		return buf;
	case WL_DOUBLE:
		if (o->min != o->max)
			snprintf(buf, sizeof(buf), "a number from %g to %g", o->min, o->max);
		else
			snprintf(buf, sizeof(buf), "a number");
		return buf;
	case WL_SIZE:
		return "a size in bytes (e.g. 4096, 64k, 64M, 2G, or 20% of MemTotal)";
	case WL_BOOL:
		return "on or off";
	case WL_ENUM: {
		struct strbuf sb = STRBUF_INIT;

		wl_option_choices(o, "|", "|", &sb);
		snprintf(buf, sizeof(buf), "one of %s", sb.buf);
		strbuf_release(&sb);
		return buf;
	}
	case WL_STRING:
		return "text";
	case WL_KEYS:
		if (o->choices || o->choice_names) {
			struct strbuf sb = STRBUF_INIT;

			wl_option_choices(o, "|", "|", &sb);
			snprintf(buf, sizeof(buf), "one of %s", sb.buf);
			strbuf_release(&sb);
			return buf;
		}
		return "text";
	case WL_LIST:
		if (o->min != o->max)
			snprintf(buf, sizeof(buf), "a list of integers from %.0f to %.0f "
				 "(\"1 2 4\" or stride:MIN..MAX[,max=CAP])", o->min, o->max);
		else
			snprintf(buf, sizeof(buf), "a list of integers "
				 "(\"1 2 4\" or stride:MIN..MAX[,max=CAP])");
		return buf;
	}
	return "a value";
}

/* strtod alone also takes hex ("0x10"), "inf", "nan(...)" and locale
 * forms that a config must not mean. */
int wl_parse_decimal(const char *text, double *out, const char **end)
{
	const char *s = text, *p;
	char *e;
	int digits = 0;

	while (isspace((unsigned char)*s))
		s++;
	p = s;
	if (*p == '+' || *p == '-')
		p++;
	for (; isdigit((unsigned char)*p); p++)
		digits++;
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			digits++;
	if (!digits)
		return -1;
	if (*p == 'e' || *p == 'E') {
		const char *q = p + 1;

		if (*q == '+' || *q == '-')
			q++;
		if (isdigit((unsigned char)*q)) {
			while (isdigit((unsigned char)*q))
				q++;
			p = q;
		}
	}
	errno = 0;
	*out = strtod(s, &e);
	if (errno || e != p || !isfinite(*out))
		return -1;
	while (isspace((unsigned char)*p))
		p++;
	*end = p;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	const char *end;
	double v;
	uint64_t mult = 1;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	if (wl_parse_decimal(s, &v, &end) || v < 0)
		return -1;
	switch (*end) {
	case '\0':
		break;
	case '%': {
		uint64_t mem = sysinfo_mem_total();

		if (end[1] || v > 100)
			return -1;
		*out = (uint64_t)((double)mem * v / 100.0);
		return 0;
	}
	case 'k': case 'K': mult = 1ULL << 10; end++; break;
	case 'm': case 'M': mult = 1ULL << 20; end++; break;
	case 'g': case 'G': mult = 1ULL << 30; end++; break;
	case 't': case 'T': mult = 1ULL << 40; end++; break;
	default:
		return -1;
	}
	if (*end == 'i' || *end == 'I')
		end++;
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end)
		return -1;
	if (v * (double)mult > 1.8e19)
		return -1;
	*out = (uint64_t)(v * (double)mult);
	return 0;
}

static int parse_ll(const char *s, long long *out)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return -1;
	errno = 0;
	*out = strtoll(s, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	return (errno || *end) ? -1 : 0;
}

static int in_range(const struct wl_option *o, double v)
{
	return o->min == o->max || (v >= o->min && v <= o->max);
}

static int parse_list(const struct wl_option *o, const char *text,
		      struct wl_value *v, struct strbuf *err)
{
	const char *s = text;
	size_t alloc = 0;

	while (isspace((unsigned char)*s))
		s++;
	if (!strncmp(s, "stride:", 7)) {
		if (stride_parse(s, sysinfo_cpus_allowed(), &v->list, &v->nlist, err))
			return -1;
	} else {
		while (*s) {
			char *end;
			long long x;

			while (isspace((unsigned char)*s) || *s == ',')
				s++;
			if (!*s)
				break;
			errno = 0;
			x = strtoll(s, &end, 10);
			if (errno || end == s || (*end && !isspace((unsigned char)*end) && *end != ',')) {
				strbuf_addf(err, "invalid value '%s' for '%s': expected %s",
					    text, o->name, wl_type_expect(o));
				return -1;
			}
			ALLOC_GROW(v->list, v->nlist + 1, alloc);
			v->list[v->nlist++] = x;
			s = end;
		}
	}
	if (!v->nlist) {
		strbuf_addf(err, "empty list for '%s': expected %s", o->name, wl_type_expect(o));
		return -1;
	}
	for (size_t i = 0; i < v->nlist; i++) {
		if (!in_range(o, (double)v->list[i])) {
			strbuf_addf(err, "invalid value %lld in '%s' for '%s': expected %s",
				    v->list[i], text, o->name, wl_type_expect(o));
			return -1;
		}
	}
	return 0;
}

/* Append " (did you mean 'CHOICE'?)" to err when a choice of enum o is
 * close to text. */
static void enum_suggest(const struct wl_option *o, const char *text, struct strbuf *err)
{
	struct suggest sg = SUGGEST_INIT(text);
	char *names[64];
	size_t len;
	const char *c;
	int n = 0;

	while (n < 64 && (c = choice(o, n, &len))) {
		names[n] = xstrndup(c, len);
		suggest_add(&sg, names[n++]);
	}
	if (sg.best)
		strbuf_addf(err, " (did you mean '%s'?)", sg.best);
	while (n)
		free(names[--n]);
}

int wl_value_parse(const struct wl_option *o, const char *text,
		   struct wl_value *v, struct strbuf *err)
{
	struct wl_value nv = { 0 };
	int rc = -1;

	nv.text = xstrdup(text);
	switch (o->type) {
	case WL_INT:
		if (parse_ll(text, &nv.i) || nv.i < INT_MIN || nv.i > INT_MAX ||
		    !in_range(o, (double)nv.i))
			goto bad;
		break;
	case WL_DOUBLE: {
		const char *end;

		if (wl_parse_decimal(text, &nv.d, &end) || *end || !in_range(o, nv.d))
			goto bad;
		break;
	}
	case WL_SIZE:
		if (parse_size(text, &nv.size) || !in_range(o, (double)nv.size))
			goto bad;
		break;
	case WL_BOOL:
		if (!strcasecmp(text, "on") || !strcasecmp(text, "yes") ||
		    !strcasecmp(text, "true") || !strcmp(text, "1"))
			nv.i = 1;
		else if (!strcasecmp(text, "off") || !strcasecmp(text, "no") ||
			 !strcasecmp(text, "false") || !strcmp(text, "0"))
			nv.i = 0;
		else
			goto bad;
		break;
	case WL_ENUM: {
		size_t len = o->preference_list ? strcspn(text, ",") : strlen(text), clen;
		const char *c, *next;
		int idx = 0;

		while ((c = choice(o, idx, &clen)) && (clen != len || strncmp(c, text, len)))
			idx++;
		if (!c)
			goto bad;
		nv.i = idx;
		/* A preference list: every item a choice; the value is the first's. */
		for (next = text + len; *next; next += len) {
			int k = 0;

			next++;
			len = strcspn(next, ",");
			while ((c = choice(o, k, &clen)) && (clen != len || strncmp(c, next, len)))
				k++;
			if (!c || !len)
				goto bad;
		}
		break;
	}
	case WL_STRING:
		break;
	case WL_LIST:
		if (parse_list(o, text, &nv, err))
			goto out;
		break;
	case WL_KEYS:
		/* A family takes its keys one by one (wl_params_set). */
		strbuf_addf(err, "'%s' is a family of keys: give each as %.*sNAME",
			    o->name, (int)strlen(o->name) - 1, o->name);
		goto out;
	}
	wl_value_release(v);
	*v = nv;
	return 0;
bad:
	strbuf_addf(err, "invalid value '%s' for '%s': expected %s",
		    text, o->name, wl_type_expect(o));
	if (o->type == WL_ENUM)
		enum_suggest(o, text, err);
out:
	wl_value_release(&nv);
	return rc;
}

/* Is o a family of keys ("metric.*") that key ("metric.tput") belongs
 * to? */
static int family_takes(const struct wl_option *o, const char *key)
{
	size_t len = strlen(o->name);

	return o->type == WL_KEYS && len >= 2 && o->name[len - 1] == '*' &&
	       !strncmp(o->name, key, len - 1) && key[len - 1];
}

int wl_option_lookup(const struct wl_option *table, const char *key)
{
	int i = wl_option_index(table, key);

	for (int j = 0; i < 0 && table[j].name; j++)
		if (family_takes(&table[j], key))
			i = j;
	return i;
}

/* Set key (of family o) to text in v: a key given again keeps its place
 * and takes the new value. */
static int keys_set(const struct wl_option *o, const char *key, const char *text,
		    struct wl_value *v, struct strbuf *err)
{
	const char *name = key + strlen(o->name) - 1;
	struct wl_key *k = NULL;
	int idx = 0;

	if (strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
	    strlen(name)) {
		strbuf_addf(err, "invalid key '%s': the name after '%.*s' may hold letters, "
			    "digits, '_' and '-'", key, (int)(name - key), key);
		return -1;
	}
	if (o->choices || o->choice_names) {
		size_t len = strlen(text), clen;
		const char *c;

		while ((c = choice(o, idx, &clen)) && (clen != len || strncmp(c, text, len)))
			idx++;
		if (!c) {
			strbuf_addf(err, "invalid value '%s' for '%s': expected %s", text, key,
				    wl_type_expect(o));
			return -1;
		}
	}
	if (o->validate && o->validate(key, text, err))
		return -1;
	for (size_t i = 0; i < v->nkeys && !k; i++)
		if (!strcmp(v->keys[i].name, name))
			k = &v->keys[i];
	if (!k) {
		ALLOC_GROW(v->keys, v->nkeys + 1, v->keys_alloc);
		k = &v->keys[v->nkeys++];
		k->name = xstrdup(name);
	} else {
		free((char *)k->text);
	}
	k->text = xstrdup(text);
	k->choice = idx;
	return 0;
}

int wl_params_set(struct wl_params *p, const char *name, const char *text,
		  struct strbuf *err)
{
	int i = wl_option_lookup(p->ops->options, name);

	if (i < 0) {
		const char *s = wl_option_suggest(p->ops->options, name);

		strbuf_addf(err, "unknown option '%s' for workload '%s'", name, p->ops->name);
		if (s)
			strbuf_addf(err, " (did you mean '%s'?)", s);
		return -1;
	}
	if (p->ops->options[i].type == WL_KEYS) {
		if (keys_set(&p->ops->options[i], name, text, &p->v[i], err))
			return -1;
	} else if (wl_value_parse(&p->ops->options[i], text, &p->v[i], err)) {
		return -1;
	} else if (p->ops->options[i].validate &&
		   p->ops->options[i].validate(name, text, err)) {
		return -1;
	}
	p->v[i].given = 1;
	return 0;
}

/* The size of the field an option of type t is stored in. */
static inline size_t field_size(enum wl_opt_type t)
{
	switch (t) {
	case WL_INT:
	case WL_ENUM:
		return sizeof(int);
	case WL_DOUBLE:
		return sizeof(double);
	case WL_SIZE:
		return sizeof(uint64_t);
	case WL_BOOL:
		return sizeof(bool);
	case WL_STRING:
		return sizeof(const char *);
	case WL_LIST:
		return sizeof(struct wl_list);
	case WL_KEYS:
		return sizeof(struct wl_keys);
	}
	return 0;
}

/* Store option i's value in its field of p->opts; an unset option
 * leaves its field zero. */
static void store(struct wl_params *p, int i)
{
	const struct wl_option *o = &p->ops->options[i];
	const struct wl_value *v = &p->v[i];
	char *field = (char *)p->opts + o->offset;

	/* The table's offsets are those of the workload's options struct
	 * (WL_*_FIELD checks the types, not which struct). */
	assert(o->offset + field_size(o->type) <= p->ops->opts_size);

	if (o->type == WL_KEYS) {
		((struct wl_keys *)field)->v = v->keys;
		((struct wl_keys *)field)->n = v->nkeys;
		return;
	}
	if (!v->text)
		return;
	switch (o->type) {
	case WL_INT:
	case WL_ENUM:
		*(int *)field = (int)v->i;
		break;
	case WL_DOUBLE:
		*(double *)field = v->d;
		break;
	case WL_SIZE:
		*(uint64_t *)field = v->size;
		break;
	case WL_BOOL:
		*(bool *)field = v->i != 0;
		break;
	case WL_STRING:
		*(const char **)field = v->text;
		break;
	case WL_LIST:
		((struct wl_list *)field)->v = v->list;
		((struct wl_list *)field)->n = v->nlist;
		break;
	case WL_KEYS:
		break;
	}
}

int wl_params_finish(struct wl_params *p, struct strbuf *err)
{
	const struct workload_ops *ops = p->ops;
	int row = ops->row_option ? wl_option_index(ops->options, ops->row_option) : -1;
	int row_later = ops->row_default && row >= 0 && !p->v[row].text;

	for (int i = 0; ops->options[i].name; i++) {
		const struct wl_option *o = &ops->options[i];

		if (p->v[i].text || !o->def || (row_later && i == row))
			continue;
		if (wl_value_parse(o, o->def, &p->v[i], err))
			return -1;
	}
	for (int i = 0; ops->options[i].name; i++)
		store(p, i);
	if (row_later) {
		const char *def = ops->row_default(p);

		if (def && wl_value_parse(&ops->options[row], def, &p->v[row], err))
			return -1;
		store(p, row);
	}
	if (ops->prepare)
		return ops->prepare(p, err);
	return 0;
}

/* The key of family i named by the whole key name, or NULL. */
static const struct wl_key *family_key(const struct wl_params *p, int i, const char *name)
{
	const struct wl_option *o = &p->ops->options[i];

	if (!family_takes(o, name))
		return NULL;
	for (size_t k = 0; k < p->v[i].nkeys; k++)
		if (!strcmp(p->v[i].keys[k].name, name + strlen(o->name) - 1))
			return &p->v[i].keys[k];
	return NULL;
}

const char *wl_params_text(const struct wl_params *p, const char *name)
{
	int i = wl_option_lookup(p->ops->options, name);

	if (i >= 0 && p->ops->options[i].type == WL_KEYS) {
		const struct wl_key *k = family_key(p, i, name);

		return k ? k->text : NULL;
	}
	return i < 0 ? NULL : p->v[i].text;
}

int wl_params_given(const struct wl_params *p, const char *name)
{
	int i = wl_option_lookup(p->ops->options, name);

	if (i >= 0 && p->ops->options[i].type == WL_KEYS)
		return family_key(p, i, name) != NULL;
	return i >= 0 && p->v[i].given;
}

int wl_params_each(const struct wl_params *p,
		   int (*fn)(const char *key, const char *text, void *arg), void *arg)
{
	struct strbuf key = STRBUF_INIT;
	int rc = 0;

	for (int i = 0; !rc && p->ops->options[i].name; i++) {
		const struct wl_option *o = &p->ops->options[i];

		if (o->type != WL_KEYS) {
			if (p->v[i].text)
				rc = fn(o->name, p->v[i].text, arg);
			continue;
		}
		for (size_t k = 0; !rc && k < p->v[i].nkeys; k++) {
			strbuf_reset(&key);
			strbuf_addf(&key, "%.*s%s", (int)strlen(o->name) - 1, o->name,
				    p->v[i].keys[k].name);
			rc = fn(key.buf, p->v[i].keys[k].text, arg);
		}
	}
	strbuf_release(&key);
	return rc;
}

void wl_params_row_label(const struct wl_params *p, long long row, char *buf, size_t len)
{
	if (p->ops->row_label)
		p->ops->row_label(p, row, buf, len);
	else
		snprintf(buf, len, "%lld", row);
}

void wl_params_row_text(const struct wl_params *p, long long row, char *buf, size_t len)
{
	if (p->ops->row_label)
		p->ops->row_label(p, row, buf, len);
	else
		snprintf(buf, len, "%s %lld", p->ops->row_option, row);
}

const long long *wl_params_rows(const struct wl_params *p, size_t *n)
{
	int i = p->ops->row_option ? wl_option_index(p->ops->options, p->ops->row_option) : -1;

	if (p->rows) {
		*n = p->nrows;
		return p->rows;
	}

	*n = i < 0 ? 0 : p->v[i].nlist;
	return i < 0 ? NULL : p->v[i].list;
}

const char *wl_given(const struct wl_params *p, size_t offset)
{
	for (int i = 0; p->ops->options[i].name; i++)
		if (p->ops->options[i].offset == offset && p->ops->options[i].type != WL_KEYS)
			return p->v[i].given ? p->v[i].text : NULL;
	return NULL;
}

const char *wl_option_suggest(const struct wl_option *table, const char *name)
{
	struct suggest s = SUGGEST_INIT(name);

	for (int i = 0; table[i].name; i++)
		suggest_add(&s, table[i].name);
	return s.best;
}

void wl_sample_add(struct wl_sample *s, int metric, double value,
		   const char *rowfmt, ...)
{
	struct wl_result *r;
	va_list ap;

	if (s->nresults >= WL_MAX_RESULTS)
		return;
	r = &s->results[s->nresults++];
	va_start(ap, rowfmt);
	vsnprintf(r->row, sizeof(r->row), rowfmt, ap);
	va_end(ap);
	r->metric = metric;
	r->value = value;
}

void wl_sample_extra(struct wl_sample *s, const char *key, double value)
{
	if (s->nextras >= WL_MAX_EXTRAS)
		return;
	snprintf(s->extras[s->nextras].key, sizeof(s->extras[0].key), "%s", key);
	s->extras[s->nextras++].value = value;
}

void wl_sample_flag(struct wl_sample *s, const char *fmt, ...)
{
	size_t len = strlen(s->flag);
	va_list ap;

	if (len && len + 2 < sizeof(s->flag)) {
		s->flag[len++] = ';';
		s->flag[len++] = ' ';
		s->flag[len] = '\0';
	}
	va_start(ap, fmt);
	vsnprintf(s->flag + len, sizeof(s->flag) - len, fmt, ap);
	va_end(ap);
}
