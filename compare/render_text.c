/* render_text: the comparison as mail-ready plain text in mmtests' layout,
 * as pasted on linux-mm: the header block (what the runs were), then per
 * section its title, two header lines per run and statistic-major rows
 * with %12.Nf ( %7.2f%%) cells, stars for significant mean rows (+ when
 * only within-run variance was seen, ~ before a noisy mean), then its
 * Duration and Ops blocks, and a footer that says what the marks and signs
 * mean. Runs that do not fit the width wrap into column groups, each
 * repeating the label column; one run prints its statistics alone. ASCII
 * only, no trailing blanks. */
#include "config.h"
#include "compare/render.h"
#include "compare/decide.h"
#include "compare/model.h"
#include "compare/render_facts.h"
#include "compare/render_common.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD_WIDTH 12	/* %12.2f */
#define PCT_WIDTH 11	/* " (%7.2f%%)" */
#define PCT_FIELD 7
#define TEXT_WIDTH 80

/* Sections of these workloads print as several tables, as mmtests does:
 * the rows whose labels start with each prefix in turn. Rows no table
 * takes print after them, in a table named after the section. */
static const struct text_split {
	const char *workload;
	const char *title;		/* after the section's name */
	const char *prefixes[3];	/* NULL-terminated */
	int decimals;
} text_splits[] = {
	{ .workload = "pft", .title = "timings", .prefixes = { "system-", "elapsed-" },
	  .decimals = 2 },
	{ .workload = "pft", .title = "faults", .prefixes = { "faults/cpu-", "faults/sec-" },
	  .decimals = 2 },
};
#define NSPLITS (sizeof(text_splits) / sizeof(text_splits[0]))

/* One table of a section: some of its rows. */
struct table {
	struct strbuf title;
	const struct cmp_row **rows;
	size_t nrows;
	int decimals;		/* -1: each row's own */
};

struct text {
	const struct cmp_model *m;
	size_t width;
	struct strbuf *out;
	int pct;		/* percentage columns: two runs or more */
	enum cmp_stat stats[CMP_NSTATS];
	size_t nstats;
};

/* v right-aligned in width columns with up to decimals decimals: fewer
 * when it would not fit (-1444.1 rather than -1444.09 in a %7.2f field),
 * then clamped (>9999999), so that no line grows past its width. */
static void fit_number(char *buf, size_t size, size_t width, double v, int decimals)
{
	for (int d = decimals; d >= 0; d--) {
		int n = snprintf(buf, size, "%*.*f", (int)width, d, v);

		if (n >= 0 && (size_t)n <= width)
			return;
	}
	if (width >= size)
		width = size - 1;
	memset(buf, '9', width);
	buf[width] = '\0';
	buf[0] = v < 0 ? '<' : '>';
	if (v < 0 && width > 1)
		buf[1] = '-';
}

static void end_line(struct strbuf *out, size_t start)
{
	/* No trailing blanks, whatever the cells held. */
	while (out->len > start && out->buf[out->len - 1] == ' ')
		out->len--;
	out->buf[out->len] = '\0';
	strbuf_addch(out, '\n');
}

/* The widest head line of the runs, plus the blank before it. */
static size_t head_width(const struct cmp_model *m)
{
	size_t w = 0;

	for (size_t c = 0; c < m->nruns; c++) {
		if (strlen(m->runs[c].head1) + 1 > w)
			w = strlen(m->runs[c].head1) + 1;
		if (strlen(m->runs[c].head2) + 1 > w)
			w = strlen(m->runs[c].head2) + 1;
	}
	return w;
}

/* How many runs go in each column group: as many as fit, the groups as
 * even as they can be. */
static size_t group_size(const struct text *t, size_t left, size_t cellw)
{
	size_t n = t->m->nruns, fit = 1, groups;

	if (t->width > left + cellw)
		fit = (t->width - left) / cellw;
	if (fit >= n)
		return n;
	groups = (n + fit - 1) / fit;
	return (n + groups - 1) / groups;
}

/* The two header lines of runs [from, to): each part of a run's name
 * right-aligned in its cell; title (if any) at the start of the first. */
static void render_headers(const struct text *t, const char *title, size_t left,
			   size_t width, size_t from, size_t to)
{
	const struct cmp_model *m = t->m;
	struct strbuf *out = t->out;
	int second = 0;
	size_t start;

	for (size_t c = from; c < to; c++)
		if (*m->runs[c].head2)
			second = 1;
	start = out->len;
	if (title && strlen(title) < left)
		strbuf_addf(out, "%-*s", (int)left, title);
	else
		strbuf_addf(out, "%*s", (int)left, "");
	for (size_t c = from; c < to; c++)
		strbuf_addf(out, "%*s", (int)width, m->runs[c].head1);
	end_line(out, start);
	if (!second)
		return;
	start = out->len;
	strbuf_addf(out, "%*s", (int)left, "");
	for (size_t c = from; c < to; c++)
		strbuf_addf(out, "%*s", (int)width, m->runs[c].head2);
	end_line(out, start);
}

static void render_cell(const struct text *t, const struct cmp_row *r, int decimals,
			const struct cmp_cell *cell, enum cmp_stat st, size_t col,
			size_t cellw)
{
	double v = cmp_stat_value(&cell->s, st);
	int star = st == CMP_MEAN && col > 0 && cell->test.done && cell->test.significant;
	size_t field = t->pct ? cellw - PCT_WIDTH : cellw;
	char num[64];

	if (!cell->n) {
		strbuf_addf(t->out, "%*s%*s", (int)field, "-", (int)(cellw - field), "");
		return;
	}
	/* mmtests prints an undefined value as 0.00 with no change. A noisy
	 * mean is marked ~ where a footer says so: not in one run's report. */
	if (st == CMP_MEAN && cell->noisy && t->pct) {
		size_t lead;

		fit_number(num, sizeof(num), field - 1, isnan(v) ? 0.0 : v,
			   decimals < 0 ? r->decimals : decimals);
		lead = strspn(num, " ");
		strbuf_addf(t->out, "%*s~%s", (int)lead, "", num + lead);
	} else {
		fit_number(num, sizeof(num), field, isnan(v) ? 0.0 : v,
			   decimals < 0 ? r->decimals : decimals);
		strbuf_addstr(t->out, num);
	}
	if (t->pct) {
		char pct[16];

		fit_number(pct, sizeof(pct), PCT_FIELD, render_pct(cell->pct[st]), 2);
		if (st == CMP_MEAN && col > 0 && cell->verdict == CMP_VERDICT_CANNOT_TELL)
			strbuf_addf(t->out, " ?%s%%?", pct);
		else if (star && decide_within_only(cell))
			strbuf_addf(t->out, " +%s%%+", pct);
		else
			strbuf_addf(t->out, star ? " *%s%%*" : " (%s%%)", pct);
	}
}

static void render_block(const struct text *t, const struct cmp_block *b)
{
	const struct cmp_model *m = t->m;
	struct strbuf title = STRBUF_INIT;
	size_t keyw = 0, width = head_width(m), left, per;

	if (width < FIELD_WIDTH)
		width = FIELD_WIDTH;
	for (size_t k = 0; k < b->nkeys; k++)
		if (strlen(b->keys[k]) > keyw)
			keyw = strlen(b->keys[k]);
	if (b->title)
		strbuf_addf(&title, "%s (%s)", b->name, b->title);
	left = strlen(b->name) + 1 + keyw;
	per = group_size(t, left, width);
	for (size_t from = 0; from < m->nruns; from += per) {
		size_t to = from + per < m->nruns ? from + per : m->nruns;

		strbuf_addch(t->out, '\n');
		if (title.len && title.len >= left)
			strbuf_addf(t->out, "%s\n", title.buf);
		render_headers(t, title.len ? title.buf : NULL, left, width, from, to);
		for (size_t k = 0; k < b->nkeys; k++) {
			size_t start = t->out->len;

			strbuf_addf(t->out, "%s %-*s", b->name, (int)keyw, b->keys[k]);
			for (size_t c = from; c < to; c++) {
				double v = b->values[k * m->nruns + c];
				char num[64];

				if (isnan(v)) {
					strbuf_addf(t->out, "%*s", (int)width, "-");
					continue;
				}
				/* A blank first, whatever the figure. */
				fit_number(num, sizeof(num), width - 1, v, b->decimals);
				strbuf_addf(t->out, " %s", num);
			}
			end_line(t->out, start);
		}
	}
	strbuf_release(&title);
}

static void render_table(const struct text *t, const struct table *tb)
{
	const struct cmp_model *m = t->m;
	size_t statw = 0, labelw = 0, cellw, per, left;

	for (size_t r = 0; r < tb->nrows; r++) {
		if (strlen(tb->rows[r]->label) > labelw)
			labelw = strlen(tb->rows[r]->label);
		for (size_t i = 0; i < t->nstats; i++) {
			size_t len = strlen(cmp_stat_name(t->stats[i], tb->rows[r]->higher_better));

			if (len > statw)
				statw = len;
		}
	}
	cellw = t->pct ? FIELD_WIDTH + PCT_WIDTH : FIELD_WIDTH;
	if (head_width(m) > cellw)
		cellw = head_width(m);
	left = statw + 1 + labelw;
	per = group_size(t, left, cellw);
	strbuf_addf(t->out, "%s\n", tb->title.buf);
	for (size_t from = 0; from < m->nruns; from += per) {
		size_t to = from + per < m->nruns ? from + per : m->nruns;

		if (from)
			strbuf_addch(t->out, '\n');
		render_headers(t, NULL, left, cellw, from, to);
		for (size_t i = 0; i < t->nstats; i++) {
			for (size_t r = 0; r < tb->nrows; r++) {
				const struct cmp_row *row = tb->rows[r];
				size_t start = t->out->len;

				strbuf_addf(t->out, "%-*s %-*s", (int)statw,
					    cmp_stat_name(t->stats[i], row->higher_better),
					    (int)labelw, row->label);
				for (size_t c = from; c < to; c++)
					render_cell(t, row, tb->decimals, &row->cells[c],
						    t->stats[i], c, cellw);
				end_line(t->out, start);
			}
		}
	}
}

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static struct table *add_table(struct table **tables, size_t *n, const char *section,
			       const char *title, int decimals, size_t nrows)
{
	struct table *tb;

	*tables = xreallocarray(*tables, *n + 1, sizeof(**tables));
	tb = &(*tables)[(*n)++];
	*tb = (struct table){
		.title = STRBUF_INIT,
		.rows = xcalloc(nrows ? nrows : 1, sizeof(*tb->rows)),
		.decimals = decimals,
	};
	strbuf_addstr(&tb->title, section);
	if (title)
		strbuf_addf(&tb->title, " %s", title);
	return tb;
}

/* The tables of section s: those of its workload's splits that have rows,
 * then one of the rows they leave (the only one for most workloads). */
static size_t section_tables(const struct cmp_section *s, struct table **out)
{
	char *taken = xcalloc(s->nrows ? s->nrows : 1, 1);
	struct table *tables = NULL, *rest;
	size_t n = 0;

	for (size_t i = 0; i < NSPLITS; i++) {
		const struct text_split *sp = &text_splits[i];
		struct table *tb;

		if (strcmp(sp->workload, s->workload))
			continue;
		tb = add_table(&tables, &n, s->name, sp->title, sp->decimals, s->nrows);
		for (size_t p = 0; sp->prefixes[p]; p++)
			for (size_t r = 0; r < s->nrows; r++)
				if (!taken[r] && starts_with(s->rows[r].label, sp->prefixes[p])) {
					taken[r] = 1;
					tb->rows[tb->nrows++] = &s->rows[r];
				}
		if (!tb->nrows) {
			free(tb->rows);
			strbuf_release(&tb->title);
			n--;
		}
	}
	rest = add_table(&tables, &n, s->name, NULL, -1, s->nrows);
	for (size_t r = 0; r < s->nrows; r++)
		if (!taken[r])
			rest->rows[rest->nrows++] = &s->rows[r];
	if (!rest->nrows && n > 1) {
		free(rest->rows);
		strbuf_release(&rest->title);
		n--;
	}
	free(taken);
	*out = tables;
	return n;
}

static void render_section(const struct text *t, const struct cmp_section *s)
{
	struct table *tables;
	size_t n = section_tables(s, &tables);

	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addch(t->out, '\n');
		render_table(t, &tables[i]);
		free(tables[i].rows);
		strbuf_release(&tables[i].title);
	}
	free(tables);
	for (size_t b = 0; b < s->nblocks; b++)
		render_block(t, &s->blocks[b]);
}

static void note_line(const char *line, void *arg)
{
	strbuf_addf(arg, "%s\n", line);
}

int render_text_layout(const struct cmp_model *m, const struct text_layout *l,
		       struct strbuf *out)
{
	struct text t = {
		.m = m,
		.width = l->width ? l->width : TEXT_WIDTH,
		.out = out,
		.pct = m->nruns > 1,
	};
	size_t start = out->len;
	unsigned parts = 0;

	t.nstats = cmp_stats_shown(m, t.stats);
	render_facts_header(m, t.width, out);
	for (size_t i = 0; i < m->nsections; i++) {
		if (i)
			strbuf_addch(out, '\n');
		render_section(&t, &m->sections[i]);
	}
	if (!m->nsections)
		strbuf_addstr(out, "No samples to compare.\n");
	if (m->nruns > 1 && l->footer == TEXT_FOOTER_ALL)
		parts = FOOTER_TEST | FOOTER_NOISE | FOOTER_NOTES;
	else if (m->nruns > 1 && l->footer == TEXT_FOOTER_NOTES)
		parts = FOOTER_NOISE | FOOTER_NOTES;
	if (parts) {
		size_t before = out->len;

		if (m->nsections)
			strbuf_addch(out, '\n');
		render_footer_parts(m, t.width, parts, note_line, out);
		if (out->len == before + 1)	/* nothing to say after all */
			out->len = before;
		out->buf[out->len] = '\0';
	}
	render_ascii(out, start);
	return 0;
}

int render_text(const struct cmp_model *m, struct strbuf *out)
{
	const struct text_layout l = { .width = TEXT_WIDTH, .footer = TEXT_FOOTER_ALL };

	return render_text_layout(m, &l, out);
}
