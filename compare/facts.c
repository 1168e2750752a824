/* facts: the facts of the compared runs: which differ (for every format),
 * how a cmdline or a config text differs from the baseline's, the config
 * checksum, and what the header block of the text formats says of each
 * run (its renderer, render_facts.c, lays it out). */
#include "config.h"
#include "compare/facts.h"
#include "compare/work.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- facts that differ, for every format ---- */

struct differing {
	struct cmp_fact *v;
	size_t n, alloc;
	size_t nruns;
};

/* Takes ownership of values, one per run. */
static void add_fact(struct differing *d, const char *what, char **values)
{
	ALLOC_GROW(d->v, d->n + 1, d->alloc);
	d->v[d->n++] = (struct cmp_fact){ .what = what, .values = values };
}

/* Each run's value of one fact; kept only when two runs differ. Takes
 * ownership of values. */
static void consider_fact(struct differing *d, const char *what, char **values)
{
	for (size_t c = 1; c < d->nruns; c++)
		if (strcmp(values[c], values[0])) {
			add_fact(d, what, values);
			return;
		}
	for (size_t c = 0; c < d->nruns; c++)
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

static char *fmt_machine(const struct run_facts *r)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, r->hostname);
	if (*r->cpu_model) {
		strbuf_addstr(&sb, ", ");
		facts_cpu_model(r->cpu_model, &sb);
	}
	return strbuf_detach(&sb);
}

static char *kind_text(const struct run_facts *r)
{
	struct strbuf sb = STRBUF_INIT;

	run_kind_describe(r->kind, &sb);
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
	FACT_KIND,
	FACT_MACHINE,
	FACT_CPUS,
	FACT_CMDLINE,
	FACT_CONFIG,
	FACT_OPTIONS,
	NFACT_KINDS
};

static const char *const fact_names[NFACT_KINDS] = {
	[FACT_KERNEL] = "kernel release",
	[FACT_KIND] = "kind",
	[FACT_MACHINE] = "machine",
	[FACT_CPUS] = "CPU count",
	[FACT_CMDLINE] = "kernel cmdline",
	[FACT_CONFIG] = "config text",
	[FACT_OPTIONS] = "effective options",
};

/* Config texts are long: when one differs from the baseline's, show where
 * each departs from it (and the baseline where it departs from the first
 * that differs). */
static void config_fact(struct differing *d, const struct run_facts *const *runs)
{
	const char *base = runs[0]->config_text;
	size_t other = 1;
	char **v;

	while (other < d->nruns && !strcmp(runs[other]->config_text, base))
		other++;
	if (other == d->nruns)
		return;
	v = xcalloc(d->nruns, sizeof(*v));
	for (size_t c = 0; c < d->nruns; c++) {
		const char *text = runs[c]->config_text;

		if (c == 0)
			v[c] = first_difference(runs[other]->config_text, base,
						runs[0]->config_name);
		else if (!strcmp(text, base))
			v[c] = xstrdup("same as the baseline");
		else
			v[c] = first_difference(base, text, runs[c]->config_name);
	}
	add_fact(d, fact_names[FACT_CONFIG], v);
}

/* A run's effective options on one line, separated by blanks. */
static void options_text(const struct run_facts *r, struct strbuf *sb)
{
	for (const char *p = r->options ? r->options : ""; *p;) {
		size_t len = strcspn(p, "\n");

		if (len) {
			if (sb->len)
				strbuf_addch(sb, ' ');
			strbuf_add(sb, p, len);
		}
		p += len + (p[len] == '\n');
	}
}

size_t facts_differing(const struct run_facts *const *runs, size_t n, struct cmp_fact **out)
{
	struct differing d = { .nruns = n };

	for (int f = 0; n && f < FACT_CONFIG; f++) {
		char **v = xcalloc(n, sizeof(*v));

		for (size_t c = 0; c < n; c++) {
			const struct run_facts *r = runs[c];

			switch (f) {
			case FACT_KERNEL: v[c] = xstrdup(r->kernel_release); break;
			case FACT_KIND: v[c] = kind_text(r); break;
			case FACT_MACHINE: v[c] = fmt_machine(r); break;
			case FACT_CPUS: v[c] = fmt_int(r->cpus); break;
			case FACT_CMDLINE: v[c] = xstrdup(r->kernel_cmdline); break;
			}
		}
		consider_fact(&d, fact_names[f], v);
	}
	if (n) {
		char **v = xcalloc(n, sizeof(*v));

		config_fact(&d, runs);
		for (size_t c = 0; c < n; c++) {
			struct strbuf sb = STRBUF_INIT;

			options_text(runs[c], &sb);
			v[c] = strbuf_detach(&sb);
		}
		consider_fact(&d, fact_names[FACT_OPTIONS], v);
	}
	*out = d.v;
	return d.n;
}

/* ---- cmdline and config differences ---- */

/* Split a cmdline into its parameters: blank-separated words, where a
 * double-quoted part may hold blanks (param="a b"). A lone "--" and what
 * follows it are init's arguments, not parameters: one word, "-- ARGS". */
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
		if (s[0] == '-' && s[1] == '-' && (!s[2] || strchr(" \t\n", s[2]))) {
			size_t len = strlen(s);

			while (len && strchr(" \t\n", s[len - 1]))
				len--;
			ALLOC_GROW(w, n + 1, alloc);
			w[n++] = xstrndup(s, len);
			break;
		}
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

/* Word w marked by mark ('-' or '+'): quoted when it holds a blank or
 * starts with a mark itself, so that "--x" removed reads -'--x', not ---x. */
static void add_marked(struct strbuf *out, char mark, const char *w)
{
	if (*w == '-' || *w == '+' || strpbrk(w, " \t\n"))
		strbuf_addf(out, "%c'%s'", mark, w);
	else
		strbuf_addf(out, "%c%s", mark, w);
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
			add_marked(out, '-', wa[i]);
		}
	}
	for (size_t j = 0; j < nb; j++) {
		if (ub[j])
			continue;
		if (out->len > start)
			strbuf_addch(out, ' ');
		add_marked(out, '+', wb[j]);
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

/* ---- what the header block says of each run ---- */

static void value_kernel(const struct run_facts *r, struct strbuf *sb)
{
	strbuf_addstr(sb, r->kernel_release);
}

static void add_count(struct strbuf *sb, long long n, const char *what)
{
	strbuf_addf(sb, "%s%lld %s%s", sb->len ? ", " : "", n, what, n == 1 ? "" : "s");
}

/* "8 CPUs, 4 cores, 1 node, 15.5 GiB", what is known, after what sb
 * holds; memory below 1 GiB (a guest's) in MiB. */
static void machine_text(int cpus, int cores, int nodes, uint64_t mem_bytes,
			 struct strbuf *sb)
{
	if (cpus > 0)
		add_count(sb, cpus, "CPU");
	if (cores > 0)
		add_count(sb, cores, "core");
	if (nodes > 0)
		add_count(sb, nodes, "node");
	if (mem_bytes >= (uint64_t)1 << 30)
		strbuf_addf(sb, "%s%.1f GiB", sb->len ? ", " : "", (double)mem_bytes / (1 << 30));
	else if (mem_bytes)
		strbuf_addf(sb, "%s%.0f MiB", sb->len ? ", " : "", (double)mem_bytes / (1 << 20));
}

/* The hostname; for a run in a guest, the host's CPU and machine too
 * ("vm: AMD EPYC 7B13, 8 CPUs, 4 cores, 1 node, 31.3 GiB"). */
static void value_host(const struct run_facts *r, struct strbuf *sb)
{
	struct strbuf machine = STRBUF_INIT;

	strbuf_addstr(sb, r->hostname);
	if (!r->host_cpu_model)
		return;
	facts_cpu_model(r->host_cpu_model, &machine);
	machine_text(r->host_cpus, r->host_cores, r->host_nodes, r->host_mem_bytes, &machine);
	if (machine.len)
		strbuf_addf(sb, ": %s", machine.buf);
	strbuf_release(&machine);
}

static void value_cpu(const struct run_facts *r, struct strbuf *sb)
{
	facts_cpu_model(r->cpu_model, sb);
}

static void value_machine(const struct run_facts *r, struct strbuf *sb)
{
	machine_text(r->cpus, r->cores, r->nodes, r->mem_bytes, sb);
}

static void value_vm(const struct run_facts *r, struct strbuf *sb)
{
	strbuf_addstr(sb, r->vm);
}

static void value_config(const struct run_facts *r, struct strbuf *sb)
{
	strbuf_addf(sb, "%s%scksum %lu", r->config_name, *r->config_name ? ", " : "",
		    (unsigned long)facts_cksum(r->config_text, strlen(r->config_text)));
}

static void value_note(const struct run_facts *r, struct strbuf *sb)
{
	for (const char *p = r->note ? r->note : ""; *p; p++)
		strbuf_addch(sb, *p == '\t' ? ' ' : *p);
}

static void (*const item_value[FACTS_NITEMS])(const struct run_facts *r, struct strbuf *sb) = {
	[FACTS_KERNEL] = value_kernel,
	[FACTS_HOST] = value_host,
	[FACTS_CPU] = value_cpu,
	[FACTS_MACHINE] = value_machine,
	[FACTS_VM] = value_vm,
	[FACTS_CONFIG] = value_config,
	[FACTS_OPTIONS] = options_text,
	[FACTS_NOTE] = value_note,
};

void facts_header_build(struct facts_header *h, const struct run_facts *const *runs, size_t n)
{
	memset(h, 0, sizeof(*h));
	h->n = n;
	for (int i = 0; i < FACTS_NITEMS; i++) {
		struct facts_value *fv = &h->items[i];

		fv->values = xcalloc(n ? n : 1, sizeof(*fv->values));
		fv->shared = 1;
		for (size_t c = 0; c < n; c++) {
			struct strbuf sb = STRBUF_INIT;

			item_value[i](runs[c], &sb);
			fv->values[c] = strbuf_detach(&sb);
			if (*fv->values[c])
				fv->known = 1;
			if (c && strcmp(fv->values[c], fv->values[0]))
				fv->shared = 0;
		}
	}
	h->cmdline_diff = xcalloc(n ? n : 1, sizeof(*h->cmdline_diff));
	h->config_diff = xcalloc(n ? n : 1, sizeof(*h->config_diff));
	for (size_t c = 1; c < n; c++) {
		struct strbuf d = STRBUF_INIT;

		facts_cmdline_diff(runs[0]->kernel_cmdline, runs[c]->kernel_cmdline, &d);
		h->cmdline_diff[c] = strbuf_detach(&d);
		if (!strcmp(runs[c]->config_text, runs[0]->config_text))
			continue;
		facts_config_diff(runs[0]->config_text, runs[c]->config_text,
				  FACTS_CONFIG_LINES, &d);
		if (!d.len)
			strbuf_addstr(&d, "(comments or blank lines only)\n");
		h->config_diff[c] = strbuf_detach(&d);
	}
}

void run_facts_release(struct run_facts *f)
{
	free(f->hostname);
	free(f->cpu_model);
	free(f->kernel_release);
	free(f->kernel_cmdline);
	free(f->config_name);
	free(f->config_text);
	free(f->vm);
	free(f->kind);
	free(f->host_cpu_model);
	free(f->options);
	free(f->work);
	free(f->note);
}

void facts_header_release(struct facts_header *h)
{
	for (int i = 0; i < FACTS_NITEMS; i++) {
		for (size_t c = 0; h->items[i].values && c < h->n; c++)
			free(h->items[i].values[c]);
		free(h->items[i].values);
	}
	for (size_t c = 0; c < h->n; c++) {
		free(h->cmdline_diff ? h->cmdline_diff[c] : NULL);
		free(h->config_diff ? h->config_diff[c] : NULL);
	}
	free(h->cmdline_diff);
	free(h->config_diff);
	memset(h, 0, sizeof(*h));
}
