/* render_json: the whole comparison for programs: format version, test and
 * alpha, runs and their facts, every statistic per row and run with its
 * percentage and test outcome (p-value included), each row's between-run
 * noise and minimum detectable effect, the raw samples, and the blocks.
 * NaN and infinities are written as null. */
#include "config.h"
#include "compare/render.h"
#include "compare/decide.h"
#include "compare/model.h"
#include "compare/render_common.h"
#include "lib/json.h"
#include "lib/strbuf.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The guest a run measured in: how it ran ("accel": "tcg", "icount",
 * "vcpus", "memory_mib", from its kind) and, when it said, its own CPU
 * model, CPUs, NUMA nodes and memory. */
static void guest(const struct run_facts *f, struct json *j)
{
	struct strbuf key = STRBUF_INIT, value = STRBUF_INIT;

	json_key(j, "guest");
	json_object_begin(j);
	for (const char *l = f->kind; *l;) {
		size_t n = strcspn(l, "\n"), eq = strcspn(l, "="), skip = 0;
		char *end;
		long long v;

		if (eq < n) {
			if (!strncmp(l, "vm.", 3) && eq > 3)
				skip = 3;
			strbuf_reset(&key);
			strbuf_add(&key, l + skip, eq - skip);
			strbuf_reset(&value);
			strbuf_add(&value, l + eq + 1, n - eq - 1);
			v = strtoll(value.buf, &end, 10);
			if (value.len && !*end)
				json_key_int(j, key.buf, v);
			else
				json_key_string(j, key.buf, value.buf);
		}
		l += n + (l[n] == '\n');
	}
	if (f->host_cpu_model) {
		json_key_string(j, "cpu_model", f->cpu_model);
		json_key_int(j, "cpus", f->cpus);
		json_key_int(j, "numa_nodes", f->nodes);
		json_key_int(j, "mem_bytes", (long long)f->mem_bytes);
	}
	json_object_end(j);
	strbuf_release(&key);
	strbuf_release(&value);
}

static void runs(const struct cmp_model *m, struct json *j)
{
	json_key(j, "runs");
	json_array_begin(j);
	for (size_t c = 0; c < m->nruns; c++) {
		const struct cmp_run *r = &m->runs[c];

		json_object_begin(j);
		json_key_string(j, "label", r->label);
		json_key(j, "ids");
		json_array_begin(j);
		for (size_t i = 0; i < r->nruns; i++)
			json_int(j, r->ids[i]);
		json_array_end(j);
		json_key(j, "uuids");
		json_array_begin(j);
		for (size_t i = 0; i < r->nruns; i++)
			json_string(j, r->uuids[i]);
		json_array_end(j);
		json_key_string(j, "hostname", r->facts.hostname);
		/* The host's, for a run in a guest too (guest says the guest's). */
		json_key_string(j, "cpu_model", r->facts.host_cpu_model ? r->facts.host_cpu_model :
				r->facts.cpu_model);
		json_key_int(j, "cpus",
			     r->facts.host_cpu_model ? r->facts.host_cpus : r->facts.cpus);
		json_key_string(j, "kind", *r->facts.kind ? "guest" : "native");
		if (*r->facts.kind)
			guest(&r->facts, j);
		json_key_string(j, "kernel_release", r->facts.kernel_release);
		json_key_string(j, "kernel_cmdline", r->facts.kernel_cmdline);
		json_key_string(j, "config_name", r->facts.config_name);
		if (r->facts.options && *r->facts.options)
			json_key_string(j, "options", r->facts.options);
		if (*r->facts.note)
			json_key_string(j, "note", r->facts.note);
		/* Only runs with repeat rounds or iterations = auto say so. */
		if (r->rounds > 1)
			json_key_int(j, "rounds", r->rounds);
		if (r->adaptive_rows) {
			json_key_int(j, "adaptive_rows", (long long)r->adaptive_rows);
			json_key_int(j, "adaptive_met", (long long)r->adaptive_met);
		}
		json_object_end(j);
	}
	json_array_end(j);
}

static void test(const struct stats_test_result *t, struct json *j)
{
	json_key(j, "test");
	json_object_begin(j);
	json_key_bool(j, "done", t->done);
	if (!t->done) {
		json_key_string(j, "reason", t->reason ? t->reason : "");
	} else {
		json_key_double(j, "statistic", t->statistic);
		json_key_double(j, "df", t->df);
		json_key_double(j, "p", t->p);
		if (t->method)
			json_key_string(j, "method", t->method);
		if (t->reason)
			json_key_string(j, "note", t->reason);
		json_key_bool(j, "significant", t->significant);
	}
}

/* The test of a cell, and what variance it saw. */
static void cell_test(const struct cmp_cell *c, struct json *j)
{
	test(&c->test, j);
	if (c->test.done) {
		json_key_string(j, "basis", c->method == CMP_METHOD_PAIRED ?
				(c->nested ? "paired-nested" : "paired-rounds") :
				c->method == CMP_METHOD_BETWEEN ? "between-run" : "within-run");
		if (c->method == CMP_METHOD_PAIRED && c->nested) {
			json_key_bool(j, "pooled", c->pooled);
			json_key_double(j, "interaction_p", c->interaction_p);
		}
		json_key_bool(j, "cannot_tell", c->verdict == CMP_VERDICT_CANNOT_TELL);
		json_key_double(j, "mde_pct", c->mde_pct);
		if (c->method == CMP_METHOD_PAIRED && c->rounds_needed)
			json_key_int(j, "rounds_needed_10pct", (long long)c->rounds_needed);
		if (decide_within_only(c))
			json_key_bool(j, "within_run_significant", c->test.significant);
	}
	json_object_end(j);
}

/* A row's between-run noise: where it comes from, what it is, and the
 * smallest change the decision in use detects. */
static void noise(const struct cmp_model *m, const struct cmp_row *r, struct json *j)
{
	const struct noise_estimate *e = &r->noise;

	json_key(j, "noise");
	json_object_begin(j);
	json_key_string(j, "source", !model_uses_noise(m) ? "not used" :
		   e->known ? "between-run" : "unknown");
	if (model_uses_noise(m) && e->runs) {
		json_key_int(j, "runs", (long long)e->runs);
		json_key_int(j, "kernels", (long long)e->groups);
		json_key_int(j, "calibration_runs", (long long)e->calibration);
		json_key_double(j, "df", e->df);
		json_key_double(j, "run_mean_coeffvar", e->run_cv);
		json_key_double(j, "between_coeffvar", e->between_cv);
		json_key_double(j, "within_coeffvar", e->within_cv);
		json_key_int(j, "rounds", (long long)e->rounds);
		json_key_double(j, "round_coeffvar", e->round_cv);
		if (e->outlier_run)
			json_key_int(j, "outlier_run", (long long)e->outlier_run);
		if (r->runs_needed)
			json_key_int(j, "runs_needed_10pct", (long long)r->runs_needed);
	}
	json_key_double(j, "mde_pct", r->mde_pct);
	json_key_double(j, "mde_power", NOISE_POWER);
	json_object_end(j);
}

static void cell(const struct cmp_cell *c, size_t col, struct json *j)
{
	static const struct {
		const char *name;
		size_t off;
	} all[] = {
#define F(x) { .name = #x, .off = offsetof(struct stats_summary, x) }
		F(min), F(max), F(amean), F(hmean), F(gmean), F(stddev), F(hstddev),
		F(coeffvar), F(hcoeffvar), F(bamean95), F(bhmean95),
#undef F
	};

	json_object_begin(j);
	json_key_int(j, "n", (long long)c->n);
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		json_key_double(j, all[i].name,
				*(const double *)((const char *)&c->s + all[i].off));
	json_key(j, "pct");
	json_object_begin(j);
	for (int st = 0; st < CMP_NSTATS; st++)
		json_key_double(j, cmp_stats[st].key, c->n ? render_pct(c->pct[st]) : NAN);
	json_object_end(j);
	json_key_bool(j, "noisy", c->noisy);
	if (c->adaptive) {
		json_key(j, "adaptive");
		json_object_begin(j);
		json_key_int(j, "reached", c->adaptive_n);
		json_key_bool(j, "met", c->adaptive_met);
		json_object_end(j);
	}
	if (col > 0)
		cell_test(c, j);
	json_key(j, "samples");
	json_array_begin(j);
	for (size_t i = 0; i < c->n; i++)
		json_double(j, c->samples[i]);
	json_array_end(j);
	json_object_end(j);
}

static void section(const struct cmp_model *m, const struct cmp_section *s, struct json *j)
{
	json_object_begin(j);
	json_key_string(j, "name", s->name);
	json_key_string(j, "workload", s->workload);
	json_key(j, "rows");
	json_array_begin(j);
	for (size_t r = 0; r < s->nrows; r++) {
		const struct cmp_row *row = &s->rows[r];

		json_newline(j);
		json_object_begin(j);
		json_key_string(j, "label", row->label);
		json_key_string(j, "unit", row->unit);
		json_key_string(j, "better", row->higher_better ? "higher" : "lower");
		json_key_string(j, "mean", row->higher_better ? "hmean" : "amean");
		noise(m, row, j);
		json_key(j, "runs");
		json_array_begin(j);
		for (size_t c = 0; c < m->nruns; c++)
			cell(&row->cells[c], c, j);
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_key(j, "blocks");
	json_array_begin(j);
	for (size_t b = 0; b < s->nblocks; b++) {
		const struct cmp_block *blk = &s->blocks[b];

		json_object_begin(j);
		json_key_string(j, "name", blk->name);
		json_key_string(j, "unit", blk->unit);
		json_key(j, "rows");
		json_array_begin(j);
		for (size_t k = 0; k < blk->nkeys; k++) {
			json_object_begin(j);
			json_key_string(j, "key", blk->keys[k]);
			json_key(j, "values");
			json_array_begin(j);
			for (size_t c = 0; c < m->nruns; c++)
				json_double(j, blk->values[k * m->nruns + c]);
			json_array_end(j);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

int render_json(const struct cmp_model *m, struct strbuf *out)
{
	struct json j;

	json_init(&j, out);
	json_document_begin(&j, "kbench-compare", CMP_FORMAT_VERSION);
	json_key(&j, "test");
	json_object_begin(&j);
	json_key_string(&j, "name", m->test->name);
	json_key_string(&j, "title", m->test->title);
	json_key_double(&j, "alpha", m->alpha);
	json_key_int(&j, "min_samples", STATS_MIN_SAMPLES);
	json_key_bool(&j, "positive_is_better", 1);
	json_key_string(&j, "decision", model_uses_noise(m) ? "between-run noise when known" :
		   "within-run");
	json_key_double(&j, "noise_threshold_pct", m->noise_threshold);
	json_object_end(&j);
	runs(m, &j);
	json_key_bool(&j, "different_work", m->different_work);
	json_key_bool(&j, "different_kinds", m->different_kinds);
	json_key(&j, "differs");
	json_array_begin(&j);
	for (size_t f = 0; f < m->nfacts; f++) {
		json_object_begin(&j);
		json_key_string(&j, "fact", m->facts[f].what);
		json_key(&j, "values");
		json_array_begin(&j);
		for (size_t c = 0; c < m->nruns; c++)
			json_string(&j, m->facts[f].values[c]);
		json_array_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_key(&j, "sections");
	json_array_begin(&j);
	for (size_t i = 0; i < m->nsections; i++) {
		json_newline(&j);
		section(m, &m->sections[i], &j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
	strbuf_addch(out, '\n');
	return 0;
}
