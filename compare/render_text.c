/* render_text: the comparison in mmtests' plain-text layout, as pasted on
 * linux-mm: section title, two header lines per run, statistic-major rows
 * with %12.Nf ( %7.2f%%) cells, stars for significant mean rows (+ when
 * only within-run variance was seen, ~ before a noisy mean), then the
 * Duration block and a footer that says what the marks and signs mean. */
#include "config.h"
#include "compare/model.h"
#include "compare/render_util.h"
#include "lib/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define FIELD_WIDTH 12
#define CELL_WIDTH 23	/* %12.2f plus " (%7.2f%%)" */

static void end_line(struct strbuf *out, size_t start)
{
	/* No trailing blanks, whatever the cells held. */
	while (out->len > start && out->buf[out->len - 1] == ' ')
		out->len--;
	out->buf[out->len] = '\0';
	strbuf_addch(out, '\n');
}

static void render_facts(const struct cmp_model *m, struct strbuf *out)
{
	size_t width = 0;

	for (size_t c = 0; c < m->nruns; c++)
		if (strlen(m->runs[c].label) > width)
			width = strlen(m->runs[c].label);
	for (size_t f = 0; f < m->nfacts; f++) {
		strbuf_addf(out, "%s differs:\n", m->facts[f].what);
		for (size_t c = 0; c < m->nruns; c++) {
			size_t start = out->len;

			strbuf_addf(out, "  %-*s  %s", (int)width, m->runs[c].label,
				    m->facts[f].values[c]);
			end_line(out, start);
		}
	}
	if (m->nfacts)
		strbuf_addch(out, '\n');
}

static void render_headers(const struct cmp_model *m, struct strbuf *out,
			   size_t left, size_t width, const char *sep)
{
	int second = 0;
	size_t start;

	for (size_t c = 0; c < m->nruns; c++)
		if (*m->runs[c].head2)
			second = 1;
	start = out->len;
	strbuf_addf(out, "%*s", (int)left, "");
	for (size_t c = 0; c < m->nruns; c++)
		strbuf_addf(out, "%s%*s", sep, (int)width, m->runs[c].head1);
	end_line(out, start);
	if (!second)
		return;
	start = out->len;
	strbuf_addf(out, "%*s", (int)left, "");
	for (size_t c = 0; c < m->nruns; c++)
		strbuf_addf(out, "%s%*s", sep, (int)width, m->runs[c].head2);
	end_line(out, start);
}

static void render_cell(struct strbuf *out, const struct cmp_row *r,
			const struct cmp_cell *cell, enum cmp_stat st, size_t col)
{
	double v = cmp_stat_value(&cell->s, st);
	int star = st == CMP_MEAN && col > 0 && cell->test.done && cell->test.significant;
	char num[64];

	if (!cell->n) {
		strbuf_addf(out, "%*s%*s", FIELD_WIDTH, "-", CELL_WIDTH - FIELD_WIDTH, "");
		return;
	}
	/* mmtests prints an undefined value as 0.00 with no change; a noisy
	 * mean is marked ~ (render_footer says so). */
	snprintf(num, sizeof(num), "%s%.*f", st == CMP_MEAN && cell->noisy ? "~" : "",
		 r->decimals, isnan(v) ? 0.0 : v);
	strbuf_addf(out, "%*s", FIELD_WIDTH, num);
	if (star && cell->within_only)
		strbuf_addf(out, " +%7.2f%%+", render_pct(cell->pct[st]));
	else
		strbuf_addf(out, star ? " *%7.2f%%*" : " (%7.2f%%)", render_pct(cell->pct[st]));
}

static void render_block(const struct cmp_model *m, const struct cmp_block *b,
			 struct strbuf *out)
{
	size_t keyw = 0, width = FIELD_WIDTH, left;

	for (size_t k = 0; k < b->nkeys; k++)
		if (strlen(b->keys[k]) > keyw)
			keyw = strlen(b->keys[k]);
	for (size_t c = 0; c < m->nruns; c++) {
		if (strlen(m->runs[c].head1) + 1 > width)
			width = strlen(m->runs[c].head1) + 1;
		if (strlen(m->runs[c].head2) + 1 > width)
			width = strlen(m->runs[c].head2) + 1;
	}
	left = strlen(b->name) + 1 + keyw;
	strbuf_addch(out, '\n');
	render_headers(m, out, left, width, "");
	for (size_t k = 0; k < b->nkeys; k++) {
		size_t start = out->len;

		strbuf_addf(out, "%s %-*s", b->name, (int)keyw, b->keys[k]);
		for (size_t c = 0; c < m->nruns; c++)
			strbuf_addf(out, "%*.*f", (int)width, b->decimals,
				    b->values[k * m->nruns + c]);
		end_line(out, start);
	}
}

static void render_section(const struct cmp_model *m, const struct cmp_section *s,
			   struct strbuf *out)
{
	size_t statw = 0, labelw = 0;

	for (size_t r = 0; r < s->nrows; r++) {
		if (strlen(s->rows[r].label) > labelw)
			labelw = strlen(s->rows[r].label);
		for (int st = 0; st < CMP_NSTATS; st++) {
			size_t len = strlen(cmp_stat_name(st, s->rows[r].higher_better));

			if (len > statw)
				statw = len;
		}
	}
	strbuf_addf(out, "%s\n", s->name);
	render_headers(m, out, statw + 1 + labelw, CELL_WIDTH, "");
	for (int st = 0; st < CMP_NSTATS; st++) {
		for (size_t r = 0; r < s->nrows; r++) {
			const struct cmp_row *row = &s->rows[r];
			size_t start = out->len;

			strbuf_addf(out, "%-*s %-*s", (int)statw,
				    cmp_stat_name(st, row->higher_better), (int)labelw, row->label);
			for (size_t c = 0; c < m->nruns; c++)
				render_cell(out, row, &row->cells[c], st, c);
			end_line(out, start);
		}
	}
	for (size_t b = 0; b < s->nblocks; b++)
		render_block(m, &s->blocks[b], out);
}

static void note_line(const char *line, void *arg)
{
	strbuf_addf(arg, "%s\n", line);
}

int render_text(const struct cmp_model *m, struct strbuf *out)
{
	render_facts(m, out);
	for (size_t i = 0; i < m->nsections; i++) {
		if (i)
			strbuf_addch(out, '\n');
		render_section(m, &m->sections[i], out);
	}
	if (m->nsections)
		strbuf_addch(out, '\n');
	else
		strbuf_addstr(out, "No samples to compare.\n");
	render_footer(m, 80, note_line, out);
	return 0;
}
