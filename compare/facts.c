/* facts: the facts of the compared runs: which differ (for every format),
 * how a cmdline or a config text differs from the baseline's, the config
 * checksum, and the header block that the text formats print first. */
#include "config.h"
#include "compare/facts.h"
#include "compare/model.h"
#include "compare/render_util.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* ---- facts that differ, for every format ---- */

/* Takes ownership of values, one per column. */
static void add_fact(struct cmp_model *m, const char *what, char **values)
{
	ALLOC_GROW(m->facts, m->nfacts + 1, m->facts_alloc);
	m->facts[m->nfacts++] = (struct cmp_fact){ .what = what, .values = values };
}

/* Each column's value of one fact; added to the model only when two
 * columns differ. Takes ownership of values. */
static void consider_fact(struct cmp_model *m, const char *what, char **values)
{
	for (size_t c = 1; c < m->nruns; c++)
		if (strcmp(values[c], values[0])) {
			add_fact(m, what, values);
			return;
		}
	for (size_t c = 0; c < m->nruns; c++)
		free(values[c]);
	free(values);
}

void facts_cpu_model(const char *model, struct strbuf *out)
{
	int blank = 0;
	size_t start = out->len;

	for (const char *p = model; *p; p++) {
		if (*p == ' ' || *p == '\t') {
			blank = 1;
			continue;
		}
		if (blank && out->len > start)
			strbuf_addch(out, ' ');
		blank = 0;
		strbuf_addch(out, *p);
	}
}

static char *fmt_machine(const struct cmp_run *r)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, r->hostname);
	if (*r->cpu_model) {
		strbuf_addstr(&sb, ", ");
		facts_cpu_model(r->cpu_model, &sb);
	}
	return strbuf_detach(&sb);
}

static char *fmt_int(int v)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%d", v);
	return strbuf_detach(&sb);
}

/* Where config text b first differs from a: "line N: TEXT". */
static char *first_difference(const char *a, const char *b, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	size_t line = 1;
	const char *la = a, *lb = b, *end;

	if (!strcmp(a, b))
		return xstrdup("");
	while (*la && *lb) {
		size_t na = strcspn(la, "\n"), nb = strcspn(lb, "\n");

		if (na != nb || memcmp(la, lb, na))
			break;
		la += na + (la[na] == '\n');
		lb += nb + (lb[nb] == '\n');
		line++;
	}
	end = lb + strcspn(lb, "\n");
	if (*lb)
		strbuf_addf(&sb, "%s%sline %zu: %.*s", name, *name ? ", " : "",
			    line, (int)(end - lb), lb);
	else
		strbuf_addf(&sb, "%s%sline %zu: (end of text)", name, *name ? ", " : "", line);
	return strbuf_detach(&sb);
}

/* The facts compared between columns, in the order they are shown. */
enum cmp_fact_kind {
	FACT_KERNEL,
	FACT_MACHINE,
	FACT_CPUS,
	FACT_CMDLINE,
	FACT_CONFIG,
	NFACT_KINDS
};

static const char *const fact_names[NFACT_KINDS] = {
	[FACT_KERNEL] = "kernel release",
	[FACT_MACHINE] = "machine",
	[FACT_CPUS] = "CPU count",
	[FACT_CMDLINE] = "kernel cmdline",
	[FACT_CONFIG] = "config text",
};

/* Config texts are long: when one differs from the baseline's, show where
 * each departs from it (and the baseline where it departs from the first
 * that differs). */
static void config_fact(struct cmp_model *m)
{
	const char *base = m->runs[0].config_text;
	size_t other = 1;
	char **d;

	while (other < m->nruns && !strcmp(m->runs[other].config_text, base))
		other++;
	if (other == m->nruns)
		return;
	d = xcalloc(m->nruns, sizeof(*d));
	for (size_t c = 0; c < m->nruns; c++) {
		const char *text = m->runs[c].config_text;

		if (c == 0)
			d[c] = first_difference(m->runs[other].config_text, base,
						m->runs[0].config_name);
		else if (!strcmp(text, base))
			d[c] = xstrdup("same as the baseline");
		else
			d[c] = first_difference(base, text, m->runs[c].config_name);
	}
	add_fact(m, fact_names[FACT_CONFIG], d);
}

void facts_finish(struct cmp_model *m)
{
	for (int f = 0; f < FACT_CONFIG; f++) {
		char **v = xcalloc(m->nruns, sizeof(*v));

		for (size_t c = 0; c < m->nruns; c++) {
			const struct cmp_run *r = &m->runs[c];

			switch (f) {
			case FACT_KERNEL: v[c] = xstrdup(r->kernel_release); break;
			case FACT_MACHINE: v[c] = fmt_machine(r); break;
			case FACT_CPUS: v[c] = fmt_int(r->cpus); break;
			case FACT_CMDLINE: v[c] = xstrdup(r->kernel_cmdline); break;
			}
		}
		consider_fact(m, fact_names[f], v);
	}
	config_fact(m);
}

/* ---- cmdline and config differences ---- */

/* Split a cmdline into its parameters: blank-separated words, where a
 * double-quoted part may hold blanks (param="a b"). */
static size_t split_words(const char *s, char ***out)
{
	char **w = NULL;
	size_t n = 0, alloc = 0;

	while (*s) {
		const char *start;
		int quoted = 0;

		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		start = s;
		while (*s && (quoted || (*s != ' ' && *s != '\t' && *s != '\n'))) {
			if (*s == '"')
				quoted = !quoted;
			s++;
		}
		ALLOC_GROW(w, n + 1, alloc);
		w[n++] = xstrndup(start, (size_t)(s - start));
	}
	*out = w;
	return n;
}

static void free_words(char **w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(w[i]);
	free(w);
}

/* The length of a parameter's name: up to its '=', or all of it. */
static size_t key_len(const char *w)
{
	return strcspn(w, "=");
}

static int same_key(const char *a, const char *b)
{
	size_t n = key_len(a);

	return a[n] == '=' && n == key_len(b) && b[n] == '=' && !memcmp(a, b, n);
}

/* How many of the unused words of w[0..n-1] have w0's name. */
static size_t count_key(char **w, size_t n, const char *used, const char *w0)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!used[i] && same_key(w[i], w0))
			k++;
	return k;
}

void facts_cmdline_diff(const char *a, const char *b, struct strbuf *out)
{
	char **wa, **wb;
	size_t na = split_words(a, &wa), nb = split_words(b, &wb);
	char *ua = xcalloc(na + 1, 1), *ub = xcalloc(nb + 1, 1);
	size_t *pair = xcalloc(na + 1, sizeof(*pair));	/* 1 + index in b, 0: none */
	size_t start = out->len;

	/* Words on both sides (as many times as on both) are no change. */
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			if (!ub[j] && !strcmp(wa[i], wb[j])) {
				ua[i] = ub[j] = 1;
				break;
			}
	/* A parameter left once on each side changed its value. */
	for (size_t i = 0; i < na; i++) {
		if (ua[i] || key_len(wa[i]) == strlen(wa[i]) ||
		    count_key(wa, na, ua, wa[i]) != 1 || count_key(wb, nb, ub, wa[i]) != 1)
			continue;
		for (size_t j = 0; j < nb; j++)
			if (!ub[j] && same_key(wa[i], wb[j]))
				pair[i] = j + 1;
	}
	for (size_t i = 0; i < na; i++) {
		if (ua[i])
			continue;
		if (out->len > start)
			strbuf_addch(out, ' ');
		if (pair[i]) {
			strbuf_addf(out, "%s->%s", wa[i], wb[pair[i] - 1] + key_len(wa[i]) + 1);
			ub[pair[i] - 1] = 1;
		} else {
			strbuf_addf(out, "-%s", wa[i]);
		}
	}
	for (size_t j = 0; j < nb; j++) {
		if (ub[j])
			continue;
		if (out->len > start)
			strbuf_addch(out, ' ');
		strbuf_addf(out, "+%s", wb[j]);
	}
	free(pair);
	free(ua);
	free(ub);
	free_words(wa, na);
	free_words(wb, nb);
}

/* Config texts longer than this many lines are only said to differ. */
#define MAX_DIFF_LINES 4000

/* The lines of a config text that say something, each named by the
 * section it is in: "[section] key = value", or "[section]" for the
 * section's own line. */
static size_t config_lines(const char *text, char ***out)
{
	struct strbuf section = STRBUF_INIT, line = STRBUF_INIT;
	char **v = NULL;
	size_t n = 0, alloc = 0;

	while (*text) {
		size_t len = strcspn(text, "\n");
		const char *p = text, *e = text + len;

		text += len + (text[len] == '\n');
		while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		if (p == e || *p == '#' || *p == ';')
			continue;
		strbuf_reset(&line);
		if (*p == '[') {
			strbuf_reset(&section);
			strbuf_add(&section, p, (size_t)(e - p));
			strbuf_addstr(&line, section.buf);
		} else {
			if (section.len)
				strbuf_addf(&line, "%s ", section.buf);
			strbuf_add(&line, p, (size_t)(e - p));
		}
		ALLOC_GROW(v, n + 1, alloc);
		v[n++] = xstrdup(line.buf);
	}
	strbuf_release(&section);
	strbuf_release(&line);
	*out = v;
	return n;
}

int facts_config_value(const char *text, const char *section, const char *key,
		       struct strbuf *out)
{
	struct strbuf want = STRBUF_INIT, global = STRBUF_INIT;
	const char *found = NULL, *found_global = NULL;
	char **lines;
	size_t n = config_lines(text, &lines);

	strbuf_addf(&want, "[%s] ", section);
	strbuf_addstr(&global, "[global] ");
	for (size_t i = 0; i < n; i++) {
		const char *l = lines[i], **slot;
		size_t klen = strlen(key);

		if (!strncmp(l, want.buf, want.len))
			slot = &found;
		else if (!strncmp(l, global.buf, global.len))
			slot = &found_global;
		else
			continue;
		l = strchr(l, ' ') + 1;
		if (strncmp(l, key, klen))
			continue;
		l += klen;
		while (*l == ' ' || *l == '\t')
			l++;
		if (*l == '=')
			*slot = l + 1 + strspn(l + 1, " \t");
	}
	if (!found)
		found = found_global;
	if (found)
		strbuf_addstr(out, found);
	free_words(lines, n);
	strbuf_release(&want);
	strbuf_release(&global);
	return found ? 0 : -1;
}

size_t facts_config_diff(const char *a, const char *b, size_t max_lines, struct strbuf *out)
{
	char **la, **lb;
	size_t na = config_lines(a, &la), nb = config_lines(b, &lb);
	size_t *lcs, w = nb + 1, i = 0, j = 0, shown = 0, count = 0;

	if (na > MAX_DIFF_LINES || nb > MAX_DIFF_LINES) {
		strbuf_addstr(out, "(too long to show the lines that differ)\n");
		free_words(la, na);
		free_words(lb, nb);
		return 1;
	}
	/* lcs[i][j]: the longest common subsequence of la[i..] and lb[j..]. */
	lcs = xcalloc((na + 1) * w, sizeof(*lcs));
	for (size_t x = na; x-- > 0;)
		for (size_t y = nb; y-- > 0;)
			lcs[x * w + y] = !strcmp(la[x], lb[y]) ? lcs[(x + 1) * w + y + 1] + 1 :
				lcs[(x + 1) * w + y] > lcs[x * w + y + 1] ?
				lcs[(x + 1) * w + y] : lcs[x * w + y + 1];
	while (i < na || j < nb) {
		const char *sign, *text;

		if (i < na && j < nb && !strcmp(la[i], lb[j])) {
			i++;
			j++;
			continue;
		}
		if (j >= nb || (i < na && lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
			sign = "-";
			text = la[i++];
		} else {
			sign = "+";
			text = lb[j++];
		}
		count++;
		if (shown < max_lines) {
			strbuf_addf(out, "%s%s\n", sign, text);
			shown++;
		}
	}
	if (count > shown)
		strbuf_addf(out, "... and %zu more\n", count - shown);
	free(lcs);
	free_words(la, na);
	free_words(lb, nb);
	return count;
}

static uint32_t crc_add(uint32_t crc, unsigned char c)
{
	crc ^= (uint32_t)c << 24;
	for (int bit = 0; bit < 8; bit++)
		crc = crc & 0x80000000u ? (crc << 1) ^ 0x04c11db7u : crc << 1;
	return crc;
}

uint32_t facts_cksum(const char *text, size_t len)
{
	uint32_t crc = 0;

	for (size_t i = 0; i < len; i++)
		crc = crc_add(crc, (unsigned char)text[i]);
	/* Then the length, least significant byte first, in as few bytes as
	 * it takes. */
	for (size_t n = len; n; n >>= 8)
		crc = crc_add(crc, (unsigned char)(n & 0xff));
	return ~crc;
}

/* ---- the header block of the text formats ---- */

/* "Samples:  " */
#define KEY_WIDTH 10
/* The config lines shown per run, at most. */
#define MAX_CONFIG_LINES 12

static void newline_indent(struct strbuf *out, size_t indent, size_t *col)
{
	strbuf_addch(out, '\n');
	strbuf_addf(out, "%*s", (int)indent, "");
	*col = indent;
}

/* Append text's words at column col, wrapped before width columns into
 * lines indented by indent; a word longer than a line is cut. Ends the
 * line, without trailing blanks. */
static void add_wrapped(struct strbuf *out, size_t col, size_t indent, size_t width,
			const char *text)
{
	int first = 1;

	if (width < indent + 16)
		width = indent + 16;	/* overflow rather than loop */
	for (const char *p = text; *p;) {
		size_t len;

		if (*p == ' ') {
			p++;
			continue;
		}
		len = strcspn(p, " ");
		if (!first) {
			if (col + 1 + len > width && col > indent) {
				newline_indent(out, indent, &col);
			} else {
				strbuf_addch(out, ' ');
				col++;
			}
		}
		while (col + len > width) {
			size_t fit = col < width ? width - col : 0;

			strbuf_add(out, p, fit);
			p += fit;
			len -= fit;
			newline_indent(out, indent, &col);
		}
		strbuf_add(out, p, len);
		col += len;
		p += len;
		first = 0;
	}
	while (out->len && out->buf[out->len - 1] == ' ')
		out->len--;
	out->buf[out->len] = '\0';
	strbuf_addch(out, '\n');
}

static char *value_kernel(const struct cmp_run *r)
{
	return xstrdup(r->kernel_release);
}

static char *value_host(const struct cmp_run *r)
{
	return xstrdup(r->hostname);
}

static char *value_cpu(const struct cmp_run *r)
{
	struct strbuf sb = STRBUF_INIT;

	facts_cpu_model(r->cpu_model, &sb);
	return strbuf_detach(&sb);
}

static void add_count(struct strbuf *sb, long long n, const char *what)
{
	strbuf_addf(sb, "%s%lld %s%s", sb->len ? ", " : "", n, what, n == 1 ? "" : "s");
}

static char *value_machine(const struct cmp_run *r)
{
	struct strbuf sb = STRBUF_INIT;

	if (r->cpus > 0)
		add_count(&sb, r->cpus, "CPU");
	if (r->cores > 0)
		add_count(&sb, r->cores, "core");
	if (r->nodes > 0)
		add_count(&sb, r->nodes, "node");
	if (r->mem_bytes)
		strbuf_addf(&sb, "%s%.1f GiB", sb.len ? ", " : "",
			    (double)r->mem_bytes / (1 << 30));
	return strbuf_detach(&sb);
}

static char *value_vm(const struct cmp_run *r)
{
	return xstrdup(r->vm ? r->vm : "");
}

static char *value_config(const struct cmp_run *r)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s%scksum %lu", r->config_name, *r->config_name ? ", " : "",
		    (unsigned long)facts_cksum(r->config_text, strlen(r->config_text)));
	return strbuf_detach(&sb);
}

/* The facts of the header, in order. */
enum header_kind {
	HEADER_VALUE,		/* one value per run */
	HEADER_CMDLINE,		/* the parameters each run changed */
	HEADER_CONFIG,		/* a value per run, then the lines it changed */
	HEADER_SAMPLES,		/* the sample counts of every run */
};

static const struct header_fact {
	const char *key;
	enum header_kind kind;
	char *(*value)(const struct cmp_run *r);
} header_facts[] = {
	{ .key = "Kernel:", .kind = HEADER_VALUE, .value = value_kernel },
	{ .key = "Cmdline:", .kind = HEADER_CMDLINE },
	{ .key = "Host:", .kind = HEADER_VALUE, .value = value_host },
	{ .key = "CPU:", .kind = HEADER_VALUE, .value = value_cpu },
	{ .key = "Machine:", .kind = HEADER_VALUE, .value = value_machine },
	{ .key = "VM:", .kind = HEADER_VALUE, .value = value_vm },	/* kbench vm's runs only */
	{ .key = "Config:", .kind = HEADER_CONFIG, .value = value_config },
	{ .key = "Samples:", .kind = HEADER_SAMPLES },
};

struct header {
	const struct cmp_model *m;
	struct strbuf *out;
	size_t width;
	size_t labelw;		/* the widest column label */
	int own_line;		/* labels too wide: values go on the next line */
	int keyed;		/* the current fact's key is printed */
};

/* Start a line of the current fact: its key on the first line only. */
static size_t start_line(struct header *h, const char *key)
{
	strbuf_addf(h->out, "%-*s", KEY_WIDTH, h->keyed ? "" : key);
	h->keyed = 1;
	return KEY_WIDTH;
}

/* A line of fact key for column c (every column when c is -1). */
static void value_line(struct header *h, const char *key, ssize_t c, const char *value)
{
	size_t col = start_line(h, key);

	if (!*value)
		value = "-";
	if (c < 0) {
		add_wrapped(h->out, col, KEY_WIDTH, h->width, value);
		return;
	}
	strbuf_addstr(h->out, h->m->runs[c].label);
	if (h->own_line) {
		strbuf_addch(h->out, '\n');
		strbuf_addf(h->out, "%*s", KEY_WIDTH + 2, "");
		add_wrapped(h->out, KEY_WIDTH + 2, KEY_WIDTH + 2, h->width, value);
		return;
	}
	strbuf_addf(h->out, "%*s", (int)(h->labelw + 2 - strlen(h->m->runs[c].label)), "");
	col = KEY_WIDTH + h->labelw + 2;
	add_wrapped(h->out, col, col, h->width, value);
}

static void header_values(struct header *h, const struct header_fact *f)
{
	const struct cmp_model *m = h->m;
	char **v = xcalloc(m->nruns, sizeof(*v));
	int same = 1, any = 0;

	for (size_t c = 0; c < m->nruns; c++) {
		v[c] = f->value(&m->runs[c]);
		if (*v[c])
			any = 1;
		if (c && strcmp(v[c], v[0]))
			same = 0;
	}
	if (!any)
		goto out;
	if (same) {
		value_line(h, f->key, -1, v[0]);
		goto out;
	}
	for (size_t c = 0; c < m->nruns; c++) {
		value_line(h, f->key, (ssize_t)c, v[c]);
		if (f->kind == HEADER_CONFIG && c &&
		    strcmp(m->runs[c].config_text, m->runs[0].config_text)) {
			struct strbuf d = STRBUF_INIT;
			const char *p;

			facts_config_diff(m->runs[0].config_text, m->runs[c].config_text,
					  MAX_CONFIG_LINES, &d);
			if (!d.len)
				strbuf_addstr(&d, "(comments or blank lines only)\n");
			for (p = d.buf; *p; p += strcspn(p, "\n") + 1) {
				struct strbuf line = STRBUF_INIT;

				strbuf_add(&line, p, strcspn(p, "\n"));
				strbuf_addf(h->out, "%*s", KEY_WIDTH + 2, "");
				add_wrapped(h->out, KEY_WIDTH + 2, KEY_WIDTH + 4, h->width, line.buf);
				strbuf_release(&line);
			}
			strbuf_release(&d);
		}
	}
out:
	for (size_t c = 0; c < m->nruns; c++)
		free(v[c]);
	free(v);
}

static void header_cmdline(struct header *h, const struct header_fact *f)
{
	const struct cmp_model *m = h->m;

	for (size_t c = 1; c < m->nruns; c++) {
		struct strbuf d = STRBUF_INIT;

		facts_cmdline_diff(m->runs[0].kernel_cmdline, m->runs[c].kernel_cmdline, &d);
		if (d.len)
			value_line(h, f->key, (ssize_t)c, d.buf);
		strbuf_release(&d);
	}
}

static void header_samples(struct header *h, const struct header_fact *f)
{
	const struct cmp_model *m = h->m;
	struct strbuf sb = STRBUF_INIT;

	for (size_t c = 0; c < m->nruns; c++) {
		if (m->nruns > 1)
			strbuf_addf(&sb, "%s ", m->runs[c].label);
		render_samples(m, c, &sb);
		if (c + 1 < m->nruns)
			strbuf_addstr(&sb, ", ");
	}
	value_line(h, f->key, -1, sb.buf);
	strbuf_release(&sb);
}

void facts_header(const struct cmp_model *m, size_t width, struct strbuf *out)
{
	struct header h = { .m = m, .out = out, .width = width };

	for (size_t c = 0; c < m->nruns; c++)
		if (strlen(m->runs[c].label) > h.labelw)
			h.labelw = strlen(m->runs[c].label);
	h.own_line = KEY_WIDTH + h.labelw + 2 > width / 2;
	for (size_t i = 0; i < sizeof(header_facts) / sizeof(header_facts[0]); i++) {
		const struct header_fact *f = &header_facts[i];

		h.keyed = 0;
		switch (f->kind) {
		case HEADER_VALUE:
		case HEADER_CONFIG:
			header_values(&h, f);
			break;
		case HEADER_CMDLINE:
			header_cmdline(&h, f);
			break;
		case HEADER_SAMPLES:
			header_samples(&h, f);
			break;
		}
	}
	strbuf_addch(out, '\n');
}
