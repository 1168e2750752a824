/* render_brief: the comparison in a few lines per section, as replies to
 * patches summarise a benchmark: the header block, then per section (and
 * compared run) "hmean before 127045.79 after 121092.94 (-4.69%, worse)"
 * and "stddev before 2634.37 after 1254.08", the verdict taken from the
 * significance decision of the mean row ("worse+" when it saw within-run
 * variance only, as the text table's + marks). */
#include "config.h"
#include "compare/render.h"
#include "compare/decide.h"
#include "compare/model.h"
#include "compare/render_facts.h"
#include "compare/render_common.h"
#include "lib/strbuf.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#define BRIEF_WIDTH 80

/* The statistics shown when --stats names none: the mean and the spread. */
static const enum cmp_stat brief_stats[] = { CMP_MEAN, CMP_STDDEV };

struct brief {
	const struct cmp_model *m;
	struct strbuf *out;
	enum cmp_stat stats[CMP_NSTATS];
	size_t nstats;
	int untested;		/* a verdict said "untested" */
	int within_only;	/* a verdict was marked + */
	int cannot_tell;	/* a verdict was cannot tell */
};

/* A cell's value as shown, or "-" when the column has no sample. */
static void value_text(const struct cmp_row *r, const struct cmp_cell *cell,
		       enum cmp_stat st, struct strbuf *sb)
{
	double v = cmp_stat_value(&cell->s, st);

	strbuf_reset(sb);
	if (!cell->n)
		strbuf_addch(sb, '-');
	else
		strbuf_addf(sb, "%.*f", r->decimals, isnan(v) ? 0.0 : v);
}

/* What a line is about: "hmean", or "amean 4" in a section of several
 * rows. */
static void line_name(const struct cmp_section *s, enum cmp_stat st,
		      const struct cmp_row *r, struct strbuf *sb)
{
	strbuf_reset(sb);
	for (const char *p = cmp_stat_name(st, r->higher_better); *p; p++)
		strbuf_addch(sb, (char)tolower((unsigned char)*p));
	if (s->nrows > 1)
		strbuf_addf(sb, " %s", r->label);
}

/* The lines of section s comparing column col with the baseline (col 0
 * alone when there is one column); numbers right-aligned per column. */
static void brief_section(struct brief *b, const struct cmp_section *s, size_t col)
{
	const struct cmp_model *m = b->m;
	struct strbuf v = STRBUF_INIT, name = STRBUF_INIT;
	size_t wname = 0, wbase = 0, wnew = 0;

	if (m->nruns > 2)
		strbuf_addf(b->out, "%s, %s vs %s:\n", s->name, m->runs[col].label,
			    m->runs[0].label);
	else
		strbuf_addf(b->out, "%s:\n", s->name);
	for (size_t i = 0; i < b->nstats; i++)
		for (size_t r = 0; r < s->nrows; r++) {
			line_name(s, b->stats[i], &s->rows[r], &name);
			if (name.len > wname)
				wname = name.len;
			value_text(&s->rows[r], &s->rows[r].cells[0], b->stats[i], &v);
			if (v.len > wbase)
				wbase = v.len;
			value_text(&s->rows[r], &s->rows[r].cells[col], b->stats[i], &v);
			if (v.len > wnew)
				wnew = v.len;
		}
	for (size_t i = 0; i < b->nstats; i++) {
		enum cmp_stat st = b->stats[i];

		for (size_t r = 0; r < s->nrows; r++) {
			const struct cmp_row *row = &s->rows[r];
			const struct cmp_cell *cell = &row->cells[col];

			line_name(s, st, row, &name);
			value_text(row, &row->cells[0], st, &v);
			if (m->nruns == 1) {
				strbuf_addf(b->out, "%-*s %*s\n", (int)wname, name.buf,
					    (int)wbase, v.buf);
				continue;
			}
			strbuf_addf(b->out, "%-*s before %*s", (int)wname, name.buf, (int)wbase,
				    v.buf);
			value_text(row, cell, st, &v);
			strbuf_addf(b->out, " after %*s", (int)wnew, v.buf);
			if (st == CMP_MEAN && cell->n && row->cells[0].n) {
				const char *verdict = render_verdict(row, cell);
				int plus = render_within_only(cell);

				if (!strcmp(verdict, "untested"))
					b->untested = 1;
				b->within_only |= plus;
				b->cannot_tell |= cell->verdict == CMP_VERDICT_CANNOT_TELL;
				strbuf_addf(b->out, " (%.2f%%, %s%s)", render_pct(cell->pct[st]),
					    verdict, plus ? "+" : "");
			}
			strbuf_addch(b->out, '\n');
		}
	}
	strbuf_release(&v);
	strbuf_release(&name);
}

static void note_line(const char *line, void *arg)
{
	strbuf_addf(arg, "%s\n", line);
}

int render_brief_layout(const struct cmp_model *m, int note_too, struct strbuf *out)
{
	struct brief b = { .m = m, .out = out };
	struct strbuf note = STRBUF_INIT;
	size_t start = out->len;
	int first = 1;

	if (m->nstats) {
		b.nstats = cmp_stats_shown(m, b.stats);
	} else {
		b.nstats = sizeof(brief_stats) / sizeof(brief_stats[0]);
		memcpy(b.stats, brief_stats, sizeof(brief_stats));
	}
	render_facts_header(m, BRIEF_WIDTH, out);
	for (size_t i = 0; i < m->nsections; i++)
		for (size_t c = m->nruns > 1; c < m->nruns; c++) {
			if (!first)
				strbuf_addch(out, '\n');
			first = 0;
			brief_section(&b, &m->sections[i], c);
		}
	if (!m->nsections)
		strbuf_addstr(out, "No samples to compare.\n");
	if (m->nruns < 2 || (!note_too && !b.within_only && !b.cannot_tell))
		goto out;
	if (note_too) {
		strbuf_addf(&note, "better or worse: a significant change of the mean (%s, "
			    "alpha %g); within noise: not significant", render_test_title(m),
			    m->alpha);
		if (b.untested)
			strbuf_addstr(&note, "; untested: too few samples to test, or no test "
				      "possible");
		if (b.within_only)
			strbuf_addstr(&note, "; ");
	}
	if (b.cannot_tell) {
		if (note.len && (note.len < 2 || strcmp(note.buf + note.len - 2, "; ")))
			strbuf_addstr(&note, "; ");
		strbuf_addstr(&note, "cannot tell: not significant, and the between-run noise "
			      "unknown or the smallest change these runs detect");
		if (m->cannot_tell.nmde)
			strbuf_addf(&note, " (%.0f%% power, median %.1f%%)", NOISE_POWER * 100,
				    m->cannot_tell.mde_median);
		strbuf_addf(&note, " larger than the change seen and %g%%", m->margin_pct);
		if (b.within_only)
			strbuf_addstr(&note, "; ");
	}
	/* Even without the closing note (per host): + is this model's. */
	if (b.within_only)
		strbuf_addstr(&note, "better+ or worse+: significant within the runs only, "
			      "between-run noise unknown (see kbench calibrate)");
	strbuf_addstr(&note, note_too ? ". Positive % = better." : ".");
	strbuf_addch(out, '\n');
	render_wrapped(&note, BRIEF_WIDTH, note_line, out);
out:
	render_ascii(out, start);
	strbuf_release(&note);
	return 0;
}

int render_brief(const struct cmp_model *m, struct strbuf *out)
{
	return render_brief_layout(m, 1, out);
}
