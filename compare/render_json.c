/* render_json: the whole comparison for programs: format version, test and
 * alpha, runs and their facts, every statistic per row and run with its
 * percentage and test outcome (p-value included), the raw samples, and
 * the blocks. NaN and infinities are written as null. */
#include "config.h"
#include "compare/model.h"
#include "compare/render_util.h"
#include "lib/strbuf.h"

#include <math.h>
#include <string.h>

static void str(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '"');
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			strbuf_addf(out, "\\%c", ch);
		else if (ch == '\n')
			strbuf_addstr(out, "\\n");
		else if (ch == '\t')
			strbuf_addstr(out, "\\t");
		else if (ch < 0x20)
			strbuf_addf(out, "\\u%04x", ch);
		else
			strbuf_addch(out, ch);
	}
	strbuf_addch(out, '"');
}

static void num(struct strbuf *out, double v)
{
	if (isfinite(v))
		strbuf_addf(out, "%.17g", v);
	else
		strbuf_addstr(out, "null");
}

static void key(struct strbuf *out, const char *k, int first)
{
	if (!first)
		strbuf_addch(out, ',');
	str(out, k);
	strbuf_addch(out, ':');
}

static void runs(const struct cmp_model *m, struct strbuf *out)
{
	key(out, "runs", 0);
	strbuf_addch(out, '[');
	for (size_t c = 0; c < m->nruns; c++) {
		const struct cmp_run *r = &m->runs[c];

		strbuf_addstr(out, c ? ",{" : "{");
		key(out, "label", 1);
		str(out, r->label);
		key(out, "ids", 0);
		strbuf_addch(out, '[');
		for (size_t i = 0; i < r->nruns; i++)
			strbuf_addf(out, "%s%lld", i ? "," : "", (long long)r->ids[i]);
		strbuf_addch(out, ']');
		key(out, "uuids", 0);
		strbuf_addch(out, '[');
		for (size_t i = 0; i < r->nruns; i++) {
			if (i)
				strbuf_addch(out, ',');
			str(out, r->uuids[i]);
		}
		strbuf_addch(out, ']');
		key(out, "hostname", 0);
		str(out, r->hostname);
		key(out, "cpu_model", 0);
		str(out, r->cpu_model);
		key(out, "cpus", 0);
		strbuf_addf(out, "%d", r->cpus);
		key(out, "kernel_release", 0);
		str(out, r->kernel_release);
		key(out, "kernel_cmdline", 0);
		str(out, r->kernel_cmdline);
		key(out, "config_name", 0);
		str(out, r->config_name);
		strbuf_addch(out, '}');
	}
	strbuf_addch(out, ']');
}

static void test(const struct stats_test_result *t, struct strbuf *out)
{
	key(out, "test", 0);
	strbuf_addch(out, '{');
	key(out, "done", 1);
	strbuf_addstr(out, t->done ? "true" : "false");
	if (!t->done) {
		key(out, "reason", 0);
		str(out, t->reason ? t->reason : "");
	} else {
		key(out, "statistic", 0);
		num(out, t->statistic);
		key(out, "df", 0);
		num(out, t->df);
		key(out, "p", 0);
		num(out, t->p);
		if (t->method) {
			key(out, "method", 0);
			str(out, t->method);
		}
		if (t->reason) {
			key(out, "note", 0);
			str(out, t->reason);
		}
		key(out, "significant", 0);
		strbuf_addstr(out, t->significant ? "true" : "false");
	}
	strbuf_addch(out, '}');
}

static void cell(const struct cmp_row *row, const struct cmp_cell *c, size_t col,
		 struct strbuf *out)
{
	static const struct { const char *name; size_t off; } all[] = {
#define F(x) { #x, offsetof(struct stats_summary, x) }
		F(min), F(max), F(amean), F(hmean), F(gmean), F(stddev), F(hstddev),
		F(coeffvar), F(hcoeffvar), F(bamean95), F(bhmean95),
#undef F
	};

	strbuf_addch(out, '{');
	key(out, "n", 1);
	strbuf_addf(out, "%zu", c->n);
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		key(out, all[i].name, 0);
		num(out, *(const double *)((const char *)&c->s + all[i].off));
	}
	key(out, "pct", 0);
	strbuf_addch(out, '{');
	for (int st = 0; st < CMP_NSTATS; st++) {
		key(out, cmp_stats[st].key, st == 0);
		num(out, c->n ? render_pct(c->pct[st]) : NAN);
	}
	strbuf_addch(out, '}');
	if (col > 0)
		test(&c->test, out);
	key(out, "samples", 0);
	strbuf_addch(out, '[');
	for (size_t i = 0; i < c->n; i++) {
		if (i)
			strbuf_addch(out, ',');
		num(out, c->samples[i]);
	}
	strbuf_addstr(out, "]}");
	(void)row;
}

static void section(const struct cmp_model *m, const struct cmp_section *s,
		    struct strbuf *out)
{
	strbuf_addch(out, '{');
	key(out, "name", 1);
	str(out, s->name);
	key(out, "workload", 0);
	str(out, s->workload);
	key(out, "rows", 0);
	strbuf_addch(out, '[');
	for (size_t r = 0; r < s->nrows; r++) {
		const struct cmp_row *row = &s->rows[r];

		strbuf_addstr(out, r ? ",\n{" : "\n{");
		key(out, "label", 1);
		str(out, row->label);
		key(out, "unit", 0);
		str(out, row->unit);
		key(out, "better", 0);
		str(out, row->higher_better ? "higher" : "lower");
		key(out, "mean", 0);
		str(out, row->higher_better ? "hmean" : "amean");
		key(out, "runs", 0);
		strbuf_addch(out, '[');
		for (size_t c = 0; c < m->nruns; c++) {
			if (c)
				strbuf_addch(out, ',');
			cell(row, &row->cells[c], c, out);
		}
		strbuf_addstr(out, "]}");
	}
	strbuf_addch(out, ']');
	key(out, "blocks", 0);
	strbuf_addch(out, '[');
	for (size_t b = 0; b < s->nblocks; b++) {
		const struct cmp_block *blk = &s->blocks[b];

		strbuf_addstr(out, b ? ",{" : "{");
		key(out, "name", 1);
		str(out, blk->name);
		key(out, "unit", 0);
		str(out, blk->unit);
		key(out, "rows", 0);
		strbuf_addch(out, '[');
		for (size_t k = 0; k < blk->nkeys; k++) {
			strbuf_addstr(out, k ? ",{" : "{");
			key(out, "key", 1);
			str(out, blk->keys[k]);
			key(out, "values", 0);
			strbuf_addch(out, '[');
			for (size_t c = 0; c < m->nruns; c++) {
				if (c)
					strbuf_addch(out, ',');
				num(out, blk->values[k * m->nruns + c]);
			}
			strbuf_addstr(out, "]}");
		}
		strbuf_addstr(out, "]}");
	}
	strbuf_addstr(out, "]}");
}

int render_json(const struct cmp_model *m, struct strbuf *out)
{
	strbuf_addch(out, '{');
	key(out, "format", 1);
	str(out, "kbench-compare");
	key(out, "format_version", 0);
	strbuf_addf(out, "%d", CMP_FORMAT_VERSION);
	key(out, "test", 0);
	strbuf_addch(out, '{');
	key(out, "name", 1);
	str(out, m->test->name);
	key(out, "title", 0);
	str(out, m->test->title);
	key(out, "alpha", 0);
	num(out, m->alpha);
	key(out, "min_samples", 0);
	strbuf_addf(out, "%d", STATS_MIN_SAMPLES);
	key(out, "positive_is_better", 0);
	strbuf_addstr(out, "true}");
	runs(m, out);
	key(out, "differs", 0);
	strbuf_addch(out, '[');
	for (size_t f = 0; f < m->nfacts; f++) {
		strbuf_addstr(out, f ? ",{" : "{");
		key(out, "fact", 1);
		str(out, m->facts[f].what);
		key(out, "values", 0);
		strbuf_addch(out, '[');
		for (size_t c = 0; c < m->nruns; c++) {
			if (c)
				strbuf_addch(out, ',');
			str(out, m->facts[f].values[c]);
		}
		strbuf_addstr(out, "]}");
	}
	strbuf_addch(out, ']');
	key(out, "sections", 0);
	strbuf_addch(out, '[');
	for (size_t i = 0; i < m->nsections; i++) {
		strbuf_addstr(out, i ? ",\n" : "\n");
		section(m, &m->sections[i], out);
	}
	strbuf_addstr(out, "]}\n");
	return 0;
}
