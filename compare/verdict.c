/* verdict: the mean rows of two stored runs, decided as kbench compare
 * decides them, handed out one by one. */
#include "config.h"
#include "compare/verdict.h"
#include "compare/compare.h"
#include "compare/decide.h"
#include "compare/model.h"
#include "compare/render_common.h"

#include <math.h>

int compare_each_row_verdict(struct store *s, int64_t base, int64_t new_run,
			     int (*cb)(const struct row_verdict *v, void *arg), void *arg)
{
	const struct compare_options opt = { .monitors = CMP_MONITORS_NONE };
	const int64_t ids[2] = { base, new_run };
	struct cmp_model m;
	int stop = 0;

	if (compare_build_runs(s, ids, 2, &opt, &m))
		return -1;
	for (size_t i = 0; i < m.nsections && !stop; i++) {
		const struct cmp_section *sec = &m.sections[i];

		for (size_t r = 0; r < sec->nrows && !stop; r++) {
			const struct cmp_row *row = &sec->rows[r];
			const struct cmp_cell *c0 = &row->cells[0], *c1 = &row->cells[1];
			struct row_verdict v = {
				.section = sec->name,
				.row = row->label,
				.stat = cmp_stat_name(CMP_MEAN, row->higher_better),
				.unit = row->unit,
				.higher_better = row->higher_better,
				.decimals = row->decimals,
			};

			if (!c0->n || !c1->n)
				continue;
			v.base_mean = cmp_stat_value(&c0->s, CMP_MEAN);
			v.new_mean = cmp_stat_value(&c1->s, CMP_MEAN);
			v.pct = render_pct(c1->pct[CMP_MEAN]);
			v.p = c1->test.done ? c1->test.p : NAN;
			v.significant = c1->test.done && !c1->test.reason && c1->test.significant;
			v.paired = c1->method == CMP_METHOD_PAIRED;
			/* The test's statistic has the sign of new - base. */
			v.t = v.paired && c1->test.done ?
			      (row->higher_better ? 1 : -1) * c1->test.statistic : NAN;
			v.df = v.paired && c1->test.done ? c1->test.df : NAN;
			v.verdict = render_verdict(row, c1);
			v.seq_look = c1->seq_look - 1;
			v.seq_decision = c1->seq_decision;
			v.seq_rounds_needed = c1->seq_rounds_needed;
			v.seq_bound = c1->seq_bound;
			v.seq_lo_pct = c1->seq_lo_pct;
			v.seq_hi_pct = c1->seq_hi_pct;
			stop = cb(&v, arg);
		}
	}
	model_release(&m);
	return stop;
}
