/* render_csv: the comparison as one CSV record per section, row, statistic
 * and run (RFC 4180 quoting), preceded by a format-version comment line. */
#include "config.h"
#include "compare/render.h"
#include "compare/decide.h"
#include "compare/model.h"
#include "compare/render_common.h"
#include "lib/csv.h"
#include "lib/strbuf.h"

static void record(struct strbuf *out, const char *section, const char *row,
		   const char *stat, const char *unit, const char *better,
		   const char *run)
{
	csv_field(out, section);
	strbuf_addch(out, ',');
	csv_field(out, row);
	strbuf_addch(out, ',');
	csv_field(out, stat);
	strbuf_addch(out, ',');
	csv_field(out, unit);
	strbuf_addch(out, ',');
	csv_field(out, better);
	strbuf_addch(out, ',');
	csv_field(out, run);
	strbuf_addch(out, ',');
}

int render_csv(const struct cmp_model *m, struct strbuf *out)
{
	strbuf_addf(out, "# kbench compare csv %d; test %s, alpha %g%s\n", CMP_FORMAT_VERSION,
		    m->test->name, m->alpha,
		    model_uses_noise(m) ? ", between-run noise when known (json: per row)" : "");
	strbuf_addstr(out, "section,row,stat,unit,better,run,n,value,pct,significant,p\n");
	for (size_t i = 0; i < m->nsections; i++) {
		const struct cmp_section *s = &m->sections[i];

		for (int st = 0; st < CMP_NSTATS; st++) {
			for (size_t r = 0; r < s->nrows; r++) {
				const struct cmp_row *row = &s->rows[r];

				for (size_t c = 0; c < m->nruns; c++) {
					const struct cmp_cell *cell = &row->cells[c];
					int tested = st == CMP_MEAN && cell->test.done;

					record(out, s->name, row->label,
					       cmp_stat_name(st, row->higher_better), row->unit,
					       row->higher_better ? "higher" : "lower",
					       m->runs[c].label);
					strbuf_addf(out, "%zu,", cell->n);
					csv_number(out, cmp_stat_value(&cell->s, st));
					strbuf_addch(out, ',');
					if (cell->n)
						csv_number(out, render_pct(cell->pct[st]));
					strbuf_addch(out, ',');
					if (tested)
						strbuf_addstr(out, cell->test.significant ? "1" : "0");
					strbuf_addch(out, ',');
					if (tested)
						csv_number(out, cell->test.p);
					strbuf_addch(out, '\n');
				}
			}
		}
		for (size_t b = 0; b < s->nblocks; b++) {
			const struct cmp_block *blk = &s->blocks[b];

			for (size_t k = 0; k < blk->nkeys; k++) {
				struct strbuf stat = STRBUF_INIT;

				strbuf_addf(&stat, "%s %s", blk->name, blk->keys[k]);
				for (size_t c = 0; c < m->nruns; c++) {
					record(out, s->name, "", stat.buf, blk->unit, "",
					       m->runs[c].label);
					strbuf_addstr(out, ",");
					csv_number(out, blk->values[k * m->nruns + c]);
					strbuf_addstr(out, ",,,\n");
				}
				strbuf_release(&stat);
			}
		}
	}
	return 0;
}
