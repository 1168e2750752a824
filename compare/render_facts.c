/* render_facts: the header block of the text formats: a fact shared by
 * every run printed once, one that differs printed per run, as a diff
 * where the values are long. What it says comes from facts.c. */
#include "config.h"
#include "compare/render_facts.h"
#include "compare/facts.h"
#include "compare/model.h"
#include "compare/render_common.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* "Samples:  " */
#define KEY_WIDTH 10

/* The lines of the header, in order. */
enum line_kind {
	LINE_VALUE,		/* one value per run */
	LINE_CMDLINE,		/* the parameters each run changed */
	LINE_CONFIG,		/* a value per run, then the lines it changed */
	LINE_SAMPLES,		/* the sample counts of every run */
	LINE_NOTE,		/* the runs' notes, a line of text a line */
};

static const struct header_line {
	const char *key;
	enum line_kind kind;
	enum facts_item item;	/* LINE_VALUE and LINE_CONFIG */
} header_lines[] = {
	{ .key = "Kernel:", .kind = LINE_VALUE, .item = FACTS_KERNEL },
	{ .key = "Cmdline:", .kind = LINE_CMDLINE },
	{ .key = "Host:", .kind = LINE_VALUE, .item = FACTS_HOST },
	{ .key = "CPU:", .kind = LINE_VALUE, .item = FACTS_CPU },
	{ .key = "Machine:", .kind = LINE_VALUE, .item = FACTS_MACHINE },
	{ .key = "VM:", .kind = LINE_VALUE, .item = FACTS_VM },	/* kbench vm's runs only */
	{ .key = "Config:", .kind = LINE_CONFIG, .item = FACTS_CONFIG },
	{ .key = "Options:", .kind = LINE_VALUE, .item = FACTS_OPTIONS },
	{ .key = "Note:", .kind = LINE_NOTE, .item = FACTS_NOTE },
	{ .key = "Samples:", .kind = LINE_SAMPLES },
};

struct header {
	const struct cmp_model *m;
	const struct facts_header *facts;
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
		strbuf_add_wrapped(h->out, col, KEY_WIDTH, h->width, value);
		return;
	}
	strbuf_addstr(h->out, h->m->runs[c].label);
	if (h->own_line) {
		strbuf_addch(h->out, '\n');
		strbuf_addf(h->out, "%*s", KEY_WIDTH + 2, "");
		strbuf_add_wrapped(h->out, KEY_WIDTH + 2, KEY_WIDTH + 2, h->width, value);
		return;
	}
	strbuf_addf(h->out, "%*s", (int)(h->labelw + 2 - strlen(h->m->runs[c].label)), "");
	col = KEY_WIDTH + h->labelw + 2;
	strbuf_add_wrapped(h->out, col, col, h->width, value);
}

/* The lines a config text changed, under its run's line. */
static void config_lines(struct header *h, const char *diff)
{
	for (const char *p = diff; *p; p += strcspn(p, "\n") + 1) {
		struct strbuf line = STRBUF_INIT;

		strbuf_add(&line, p, strcspn(p, "\n"));
		strbuf_addf(h->out, "%*s", KEY_WIDTH + 2, "");
		strbuf_add_wrapped(h->out, KEY_WIDTH + 2, KEY_WIDTH + 4, h->width, line.buf);
		strbuf_release(&line);
	}
}

static void header_values(struct header *h, const struct header_line *l)
{
	const struct facts_value *fv = &h->facts->items[l->item];

	if (!fv->known)
		return;
	if (fv->shared) {
		value_line(h, l->key, -1, fv->values[0]);
		return;
	}
	for (size_t c = 0; c < h->m->nruns; c++) {
		value_line(h, l->key, (ssize_t)c, fv->values[c]);
		if (l->kind == LINE_CONFIG && h->facts->config_diff[c])
			config_lines(h, h->facts->config_diff[c]);
	}
}

/* The notes: once when every run has the same, else each run's that has
 * one; a line of a note starts a line of its own. */
static void header_note(struct header *h, const struct header_line *l)
{
	const struct facts_value *fv = &h->facts->items[l->item];
	size_t indent = fv->shared ? KEY_WIDTH : KEY_WIDTH + (h->own_line ? 2 : h->labelw + 2);

	for (size_t c = 0; fv->known && c < (fv->shared ? 1 : h->m->nruns); c++) {
		const char *p = fv->values[c] + strspn(fv->values[c], "\n");
		char *line;

		for (int first = 1; *p; first = 0) {
			line = xstrndup(p, strcspn(p, "\n"));
			p += strlen(line);
			p += strspn(p, "\n");
			if (first) {
				value_line(h, l->key, fv->shared ? -1 : (ssize_t)c, line);
			} else {
				strbuf_addf(h->out, "%*s", (int)indent, "");
				strbuf_add_wrapped(h->out, indent, indent, h->width, line);
			}
			free(line);
		}
	}
}

static void header_cmdline(struct header *h, const struct header_line *l)
{
	for (size_t c = 1; c < h->m->nruns; c++)
		if (*h->facts->cmdline_diff[c])
			value_line(h, l->key, (ssize_t)c, h->facts->cmdline_diff[c]);
}

static void header_samples(struct header *h, const struct header_line *l)
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
	value_line(h, l->key, -1, sb.buf);
	strbuf_release(&sb);
}

void render_facts_header(const struct cmp_model *m, size_t width, struct strbuf *out)
{
	struct facts_header facts;
	struct header h = { .m = m, .facts = &facts, .out = out, .width = width };
	const struct run_facts **runs = xcalloc(m->nruns ? m->nruns : 1, sizeof(*runs));

	for (size_t c = 0; c < m->nruns; c++) {
		runs[c] = &m->runs[c].facts;
		if (strlen(m->runs[c].label) > h.labelw)
			h.labelw = strlen(m->runs[c].label);
	}
	facts_header_build(&facts, runs, m->nruns);
	h.own_line = KEY_WIDTH + h.labelw + 2 > width / 2;
	for (size_t i = 0; i < sizeof(header_lines) / sizeof(header_lines[0]); i++) {
		const struct header_line *l = &header_lines[i];

		h.keyed = 0;
		switch (l->kind) {
		case LINE_VALUE:
		case LINE_CONFIG:
			header_values(&h, l);
			break;
		case LINE_CMDLINE:
			header_cmdline(&h, l);
			break;
		case LINE_SAMPLES:
			header_samples(&h, l);
			break;
		case LINE_NOTE:
			header_note(&h, l);
			break;
		}
	}
	h.keyed = 0;
	if (m->different_kinds) {
		struct strbuf warn = STRBUF_INIT;

		render_kind_warning(m, &warn);
		strbuf_addstr(&warn, ", and the noise of one is not the other's.");
		value_line(&h, "Warning:", -1, warn.buf);
		strbuf_release(&warn);
		h.keyed = 0;
	}
	if (m->different_work) {
		struct strbuf warn = STRBUF_INIT;

		render_work_warning(m->different_work, &warn);
		strbuf_addstr(&warn, ", and the noise of one is not the other's.");
		value_line(&h, "Warning:", -1, warn.buf);
		strbuf_release(&warn);
	}
	strbuf_addch(out, '\n');
	facts_header_release(&facts);
	free(runs);
}
