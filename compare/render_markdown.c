/* render_markdown: the comparison as Markdown tables (one per section, then
 * its Duration block), for issues, wikis and review comments. */
#include "config.h"
#include "compare/render.h"
#include "compare/decide.h"
#include "compare/model.h"
#include "compare/render_common.h"
#include "lib/strbuf.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

/* Table cells must not break the table: escape the pipe, the characters
 * Markdown would read as emphasis, a link's '[' and a '<' that would open
 * inline HTML. */
static void add_escaped(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("|*_`\\~[", *s) ||
		    (*s == '<' && (isalpha((unsigned char)s[1]) || (s[1] && strchr("/!?", s[1])))))
			strbuf_addch(out, '\\');
		strbuf_addch(out, *s);
	}
}

static void header(const struct cmp_model *m, struct strbuf *out, const char *first,
		   const char *second)
{
	strbuf_addf(out, "| %s | %s |", first, second);
	for (size_t c = 0; c < m->nruns; c++) {
		strbuf_addch(out, ' ');
		add_escaped(out, m->runs[c].label);
		strbuf_addstr(out, " |");
	}
	strbuf_addstr(out, "\n|:---|:---|");
	for (size_t c = 0; c < m->nruns; c++)
		strbuf_addstr(out, "---:|");
	strbuf_addch(out, '\n');
}

static void section(const struct cmp_model *m, const struct cmp_section *s,
		    struct strbuf *out)
{
	strbuf_addstr(out, "### ");
	add_escaped(out, s->name);
	strbuf_addstr(out, "\n\n");
	header(m, out, "Stat", "Row");
	for (int st = 0; st < CMP_NSTATS; st++) {
		for (size_t r = 0; r < s->nrows; r++) {
			const struct cmp_row *row = &s->rows[r];

			strbuf_addf(out, "| %s | ", cmp_stat_name(st, row->higher_better));
			add_escaped(out, row->label);
			strbuf_addstr(out, " |");
			for (size_t c = 0; c < m->nruns; c++) {
				const struct cmp_cell *cell = &row->cells[c];
				double v = cmp_stat_value(&cell->s, st);
				int star = st == CMP_MEAN && c > 0 && cell->test.done &&
					cell->test.significant;

				if (!cell->n) {
					strbuf_addstr(out, " - |");
					continue;
				}
				strbuf_addf(out, " %s%.*f ",
					    st == CMP_MEAN && cell->noisy ? "\\~" : "",
					    row->decimals, isnan(v) ? 0.0 : v);
				if (st == CMP_MEAN && c > 0 && cell->verdict == CMP_VERDICT_CANNOT_TELL)
					strbuf_addf(out, "?%.2f%%? |", render_pct(cell->pct[st]));
				else if (star && decide_within_only(cell))
					strbuf_addf(out, "+%.2f%%+ |", render_pct(cell->pct[st]));
				else
					strbuf_addf(out, star ? "\\*%.2f%%\\* |" : "(%.2f%%) |",
						    render_pct(cell->pct[st]));
			}
			strbuf_addch(out, '\n');
		}
	}
	for (size_t b = 0; b < s->nblocks; b++) {
		const struct cmp_block *blk = &s->blocks[b];

		strbuf_addch(out, '\n');
		header(m, out, "Block", "Key");
		for (size_t k = 0; k < blk->nkeys; k++) {
			strbuf_addstr(out, "| ");
			add_escaped(out, blk->name);
			strbuf_addstr(out, " | ");
			add_escaped(out, blk->keys[k]);
			strbuf_addstr(out, " |");
			for (size_t c = 0; c < m->nruns; c++) {
				double v = blk->values[k * m->nruns + c];

				if (isnan(v))
					strbuf_addstr(out, " - |");	/* none in this run */
				else
					strbuf_addf(out, " %.*f |", blk->decimals, v);
			}
			strbuf_addch(out, '\n');
		}
	}
}

static void note_line(const char *line, void *arg)
{
	struct strbuf *out = arg;

	strbuf_addstr(out, "- ");
	add_escaped(out, line);
	strbuf_addch(out, '\n');
}

/* The runs' notes, a list item each; a line of a note on a line of its
 * own (a hard break), within the item. */
static void notes(const struct cmp_model *m, struct strbuf *out)
{
	struct strbuf line = STRBUF_INIT;
	int any = 0;

	for (size_t c = 0; c < m->nruns; c++) {
		const char *p = m->runs[c].facts.note;

		if (!*p)
			continue;
		strbuf_addstr(out, any++ ? "- " : "**Notes:**\n\n- ");
		add_escaped(out, m->runs[c].label);
		strbuf_addstr(out, ":");
		for (; *p; p += strcspn(p, "\n"), p += *p == '\n') {
			strbuf_reset(&line);
			strbuf_add(&line, p, strcspn(p, "\n"));
			strbuf_addstr(out, p == m->runs[c].facts.note ? " " : "  \n  ");
			add_escaped(out, line.buf);
		}
		strbuf_addch(out, '\n');
	}
	if (any)
		strbuf_addch(out, '\n');
	strbuf_release(&line);
}

int render_markdown(const struct cmp_model *m, struct strbuf *out)
{
	if (m->different_kinds) {
		strbuf_addstr(out, "**Warning:** ");
		render_kind_warning(m, out);
		strbuf_addstr(out, ".\n\n");
	}
	if (m->different_work) {
		strbuf_addstr(out, "**Warning:** ");
		render_work_warning(m->different_work, out);
		strbuf_addstr(out, ".\n\n");
	}
	notes(m, out);
	for (size_t f = 0; f < m->nfacts; f++) {
		strbuf_addf(out, "**%s differs:**\n\n", m->facts[f].what);
		for (size_t c = 0; c < m->nruns; c++) {
			strbuf_addstr(out, "- ");
			add_escaped(out, m->runs[c].label);
			strbuf_addstr(out, ": ");
			add_escaped(out, m->facts[f].values[c]);
			strbuf_addch(out, '\n');
		}
		strbuf_addch(out, '\n');
	}
	for (size_t i = 0; i < m->nsections; i++) {
		section(m, &m->sections[i], out);
		strbuf_addch(out, '\n');
	}
	if (!m->nsections)
		strbuf_addstr(out, "No samples to compare.\n\n");
	render_footer(m, 0, note_line, out);
	return 0;
}
