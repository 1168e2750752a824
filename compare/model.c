/* model: builds the comparison of runs from their samples: sections in
 * order of first appearance, rows in numeric order, per-column statistics,
 * mmtests' percentages, the significance test, the Duration and Ops
 * (monitor) blocks, and the facts that differ between runs (facts.c). */
#include "config.h"
#include "compare/model.h"
#include "compare/decide.h"
#include "compare/facts.h"
#include "compare/work.h"
#include "db/series.h"
#include "db/store.h"
#include "lib/name.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Facts may be missing (NULL): they read as "". */
static char *dup_or_empty(const char *s)
{
	return xstrdup(s ? s : "");
}

void model_init(struct cmp_model *m, size_t ncolumns,
		const struct stats_test_desc *test, double alpha)
{
	*m = (struct cmp_model){
		.runs = xcalloc(ncolumns ? ncolumns : 1, sizeof(*m->runs)),
		.nruns = ncolumns,
		.test = test,
		.alpha = alpha,
		.noise_threshold = CMP_NOISE_THRESHOLD,
		.margin_pct = CMP_MARGIN_PCT,
	};
}

static void run_release(struct cmp_run *r)
{
	free(r->label);
	free(r->head1);
	free(r->head2);
	free(r->ids);
	for (size_t i = 0; i < r->nruns; i++)
		free(r->uuids[i]);
	free(r->uuids);
	free(r->experiment_uuid);
	free(r->experiment_design);
	free(r->note);
	run_facts_release(&r->facts);
}

static void block_release(struct cmp_block *b)
{
	free(b->name);
	for (size_t i = 0; i < b->nkeys; i++)
		free(b->keys[i]);
	free(b->keys);
	free(b->values);
}

static void section_release(struct cmp_section *s, size_t ncols)
{
	for (size_t i = 0; i < s->nrows; i++) {
		struct cmp_row *r = &s->rows[i];

		for (size_t c = 0; c < ncols; c++) {
			free(r->cells[c].samples);
			free(r->cells[c].rep_end);
			free(r->cells[c].rep_run);
			free(r->cells[c].rounds);
		}
		free(r->cells);
		free(r->hist);
		free(r->label);
		free(r->unit);
	}
	free(s->rows);
	for (size_t i = 0; i < s->nblocks; i++)
		block_release(&s->blocks[i]);
	free(s->blocks);
	free(s->name);
	free(s->workload);
	free(s->user_ns);
	free(s->sys_ns);
	free(s->elapsed_ns);
	for (size_t i = 0; i < s->nmons; i++) {
		free(s->mons[i].source);
		free(s->mons[i].key);
		free(s->mons[i].sum);
		free(s->mons[i].n);
	}
	free(s->mons);
}

void model_release(struct cmp_model *m)
{
	for (size_t i = 0; i < m->nsections; i++)
		section_release(&m->sections[i], m->nruns);
	free(m->sections);
	for (size_t i = 0; i < m->nfacts; i++) {
		for (size_t c = 0; c < m->nruns; c++)
			free(m->facts[i].values[c]);
		free(m->facts[i].values);
	}
	free(m->facts);
	for (size_t i = 0; m->runs && i < m->nruns; i++)
		run_release(&m->runs[i]);
	free(m->runs);
	free(m->paired_title);
	free(m->seq);
	free(m->noise_runs);
	memset(m, 0, sizeof(*m));
}

/* mmtests keeps "-rcN" in the first header line. */
static const char *split_point(const char *name)
{
	const char *dash = strchr(name, '-');

	if (dash && dash[1] == 'r' && dash[2] == 'c' && dash[3] >= '0' && dash[3] <= '9') {
		const char *p = dash + 3;

		while (*p >= '0' && *p <= '9')
			p++;
		if (!*p)
			return NULL;
		if (*p == '-')
			return p;
	}
	return dash;
}

void model_split_name(const char *name, char **head1, char **head2)
{
	const char *at = split_point(name);

	*head1 = at ? xstrndup(name, at - name) : xstrdup(name);
	*head2 = xstrdup(at ? at + 1 : "");
}

void model_set_run(struct cmp_model *m, size_t col, const char *label,
		   int64_t id, const char *uuid, const char *hostname,
		   const char *cpu_model, int cpus, const char *kernel_release,
		   const char *kernel_cmdline, const char *config_name,
		   const char *config_text)
{
	struct cmp_run *r = &m->runs[col];

	ALLOC_GROW(r->ids, r->nruns + 1, r->ids_alloc);
	ALLOC_GROW(r->uuids, r->nruns + 1, r->uuids_alloc);
	r->uuids[r->nruns] = dup_or_empty(uuid);
	r->ids[r->nruns++] = id;
	if (r->label)
		return;		/* a pooled run: the first one names the column */
	r->label = dup_or_empty(label);
	r->facts.hostname = dup_or_empty(hostname);
	r->facts.cpu_model = dup_or_empty(cpu_model);
	r->facts.kernel_release = dup_or_empty(kernel_release);
	r->facts.kernel_cmdline = dup_or_empty(kernel_cmdline);
	r->facts.config_name = dup_or_empty(config_name);
	r->facts.config_text = dup_or_empty(config_text);
	r->facts.vm = dup_or_empty(NULL);
	r->facts.kind = dup_or_empty(NULL);
	r->facts.note = dup_or_empty(NULL);
	r->facts.cpus = cpus;
	model_split_name(r->label, &r->head1, &r->head2);
}

void model_set_vm(struct cmp_model *m, size_t col, const char *vm)
{
	struct cmp_run *r = &m->runs[col];

	if (r->nruns > 1)
		return;		/* a pooled run: the first one describes the column */
	free(r->facts.vm);
	r->facts.vm = xstrdup(vm ? vm : "");
}

void model_set_kind(struct cmp_model *m, size_t col, const char *kind)
{
	struct cmp_run *r = &m->runs[col];

	if (r->nruns > 1)
		return;		/* a pooled run: the first one describes the column */
	free(r->facts.kind);
	r->facts.kind = dup_or_empty(kind);
}

void model_set_guest(struct cmp_model *m, size_t col, const char *cpu_model, int cpus,
		     int nodes, uint64_t mem_bytes)
{
	struct run_facts *f = &m->runs[col].facts;

	if (m->runs[col].nruns > 1 || f->host_cpu_model)
		return;		/* a pooled run: the first one describes the column */
	f->host_cpu_model = f->cpu_model;
	f->host_cpus = f->cpus;
	f->host_cores = f->cores;
	f->host_nodes = f->nodes;
	f->host_mem_bytes = f->mem_bytes;
	f->cpu_model = dup_or_empty(cpu_model);
	f->cpus = cpus;
	f->cores = 0;
	f->nodes = nodes;
	f->mem_bytes = mem_bytes;
}

void model_set_note(struct cmp_model *m, size_t col, const char *note)
{
	struct cmp_run *r = &m->runs[col];

	if (r->nruns > 1)
		return;		/* a pooled run: the first one describes the column */
	free(r->facts.note);
	r->facts.note = dup_or_empty(note);
}

void model_set_options(struct cmp_model *m, size_t col, const char *options)
{
	struct cmp_run *r = &m->runs[col];

	if (r->facts.options)
		return;		/* a pooled run: the first one describes the column */
	r->facts.options = dup_or_empty(options);
}

void model_set_work(struct cmp_model *m, size_t col, const char *work)
{
	struct cmp_run *r = &m->runs[col];

	if (r->facts.work)
		return;		/* a pooled run: the first one describes the column */
	r->facts.work = dup_or_empty(work);
}

void model_set_machine(struct cmp_model *m, size_t col, int cores, int nodes,
		       uint64_t mem_bytes)
{
	struct cmp_run *r = &m->runs[col];

	if (r->nruns > 1)
		return;		/* a pooled run: the first one describes the column */
	r->facts.cores = cores;
	r->facts.nodes = nodes;
	r->facts.mem_bytes = mem_bytes;
}

void model_begin_run(struct cmp_model *m)
{
	m->run_seq++;
	m->last_set.section = NULL;
	m->last_section = NULL;
	m->last_row = NULL;
}

void model_set_rounds(struct cmp_model *m, size_t col, int rounds)
{
	m->split_rounds = rounds >= 3;
	if (rounds > m->runs[col].rounds)
		m->runs[col].rounds = rounds;
}

/* Whether a compared row labelled label is the row a row result names:
 * the same, or label ends with "-" and it (a metric's name before it). */
static int row_result_names(const char *label, const char *row)
{
	size_t n = strlen(label), l = strlen(row);

	return n == l ? !strcmp(label, row) :
	       n > l && label[n - l - 1] == '-' && !strcmp(label + n - l, row);
}

void model_add_row_result(struct cmp_model *m, size_t col, const struct row_result *rr)
{
	struct cmp_run *run = &m->runs[col];

	if (!run->adaptive_rows || rr->ci_target < run->ci_target_lo)
		run->ci_target_lo = rr->ci_target;
	if (!run->adaptive_rows || rr->ci_target > run->ci_target_hi)
		run->ci_target_hi = rr->ci_target;
	if (!run->adaptive_rows || rr->iterations < run->adaptive_n_lo)
		run->adaptive_n_lo = rr->iterations;
	if (!run->adaptive_rows || rr->iterations > run->adaptive_n_hi)
		run->adaptive_n_hi = rr->iterations;
	run->adaptive_rows++;
	run->adaptive_met += rr->met != 0;
	for (size_t i = 0; i < m->nsections; i++) {
		struct cmp_section *s = &m->sections[i];

		if (strcmp(s->name, rr->section))
			continue;
		for (size_t r = 0; r < s->nrows; r++) {
			struct cmp_cell *c = &s->rows[r].cells[col];

			if (!row_result_names(s->rows[r].label, rr->row))
				continue;
			c->adaptive_met = (c->adaptive ? c->adaptive_met : 1) && rr->met;
			c->adaptive = 1;
			c->adaptive_n += rr->iterations;
		}
	}
}

static struct cmp_section *find_section(struct cmp_model *m, const char *name,
					const char *workload)
{
	struct cmp_section *s;

	if (m->last_section && !strcmp(m->last_section->name, name))
		return m->last_section;
	m->last_row = NULL;	/* it belongs to another section */
	for (size_t i = 0; i < m->nsections; i++)
		if (!strcmp(m->sections[i].name, name))
			return m->last_section = &m->sections[i];
	if (m->nsections == m->alloc) {
		ALLOC_GROW(m->sections, m->nsections + 1, m->alloc);
		/* The caches point into the old array: forget them. */
		m->last_set.section = NULL;
		m->last_row = NULL;
	}
	s = &m->sections[m->nsections++];
	*s = (struct cmp_section){
		.name = xstrdup(name),
		.workload = dup_or_empty(workload),
		.user_ns = xcalloc(m->nruns, sizeof(*s->user_ns)),
		.sys_ns = xcalloc(m->nruns, sizeof(*s->sys_ns)),
		.elapsed_ns = xcalloc(m->nruns, sizeof(*s->elapsed_ns)),
	};
	return m->last_section = s;
}

static struct cmp_row *find_row(struct cmp_model *m, struct cmp_section *s,
				const struct sample_row *sr)
{
	struct cmp_row *r;

	if (m->last_row && !strcmp(m->last_row->label, sr->row))
		return m->last_row;
	for (size_t i = 0; i < s->nrows; i++)
		if (!strcmp(s->rows[i].label, sr->row))
			return m->last_row = &s->rows[i];
	if (s->nrows == s->alloc) {
		ALLOC_GROW(s->rows, s->nrows + 1, s->alloc);
		m->last_row = NULL;
	}
	r = &s->rows[s->nrows++];
	*r = (struct cmp_row){
		.label = xstrdup(sr->row),
		.unit = dup_or_empty(sr->unit),
		.higher_better = sr->higher_better,
		.decimals = sr->unit && !strcmp(sr->unit, "s") ? 4 : 2,
		.cells = xcalloc(m->nruns, sizeof(*r->cells)),
		.mde_pct = NAN,
	};
	for (size_t c = 0; c < m->nruns; c++)
		r->cells[c].mde_pct = NAN;
	return m->last_row = r;
}

void model_add_sample(struct cmp_model *m, size_t col, const struct sample_row *sr)
{
	struct cmp_section *s = find_section(m, sr->section, sr->workload);
	struct cmp_row *r = find_row(m, s, sr);
	struct cmp_cell *c = &r->cells[col];

	ALLOC_GROW(c->samples, c->n + 1, c->alloc);
	ALLOC_GROW(c->rounds, c->n + 1, c->rounds_alloc);
	c->rounds[c->n] = sr->round;
	c->samples[c->n++] = sr->value;
	/* A run's samples are one replicate of the row; with 3 rounds or
	 * more, each round's are. */
	if (!c->nrep || c->rep_seq != m->run_seq ||
	    (m->split_rounds && c->rep_round != sr->round)) {
		ALLOC_GROW(c->rep_end, c->nrep + 1, c->rep_alloc);
		ALLOC_GROW(c->rep_run, c->nrep + 1, c->rep_run_alloc);
		c->rep_run[c->nrep] = m->run_seq;
		c->nrep++;
		c->rep_seq = m->run_seq;
		c->rep_round = sr->round;
	}
	c->rep_end[c->nrep - 1] = c->n;
	/* The values of one sample set share its rusage and arrive together:
	 * count each set once. */
	if (m->last_set.section != s || m->last_set.iteration != sr->iteration ||
	    m->last_set.duration_ns != sr->duration_ns ||
	    m->last_set.user_ns != sr->user_ns || m->last_set.sys_ns != sr->sys_ns) {
		s->user_ns[col] += sr->user_ns;
		s->sys_ns[col] += sr->sys_ns;
		s->elapsed_ns[col] += sr->duration_ns;
		m->last_set.section = s;
		m->last_set.iteration = sr->iteration;
		m->last_set.duration_ns = sr->duration_ns;
		m->last_set.user_ns = sr->user_ns;
		m->last_set.sys_ns = sr->sys_ns;
	}
}

static double pct(enum cmp_stat st, int higher_better, double v, double base)
{
	/* mmtests prints NaN as 0.00 with no change; keep the pair coherent. */
	if (isnan(v))
		return 0;
	if (cmp_stats[st].spread || !higher_better)
		return stats_pndiff(v, base);
	return stats_pdiff(v, base);
}

static void finish_row(struct cmp_model *m, struct cmp_row *r)
{
	struct cmp_cell *base = &r->cells[0];

	for (size_t c = 0; c < m->nruns; c++) {
		struct cmp_cell *cell = &r->cells[c];

		stats_summarise(cell->samples, cell->n, r->higher_better, &cell->s);
		cell->noisy = cell->n && (cell->n < STATS_MIN_SAMPLES ||
					  cell->s.cv > m->noise_threshold);
	}
	noise_estimate(r->hist, r->nhist, &r->noise);
	r->mde_pct = decide_row_mde_pct(m, r);
	for (size_t c = 0; c < m->nruns; c++) {
		struct cmp_cell *cell = &r->cells[c];

		for (int st = 0; st < CMP_NSTATS; st++)
			cell->pct[st] = c == 0 ? 0 :
				pct(st, r->higher_better, cmp_stat_value(&cell->s, st),
				    cmp_stat_value(&base->s, st));
		decide_cell(m, r, c);
	}
	r->runs_needed = decide_row_runs_needed(m, r);
}

/* A new block of nkeys rows after the section's others. */
static struct cmp_block *add_block(struct cmp_model *m, struct cmp_section *s,
				   const char *name, const char *unit, size_t nkeys)
{
	struct cmp_block *b;

	ALLOC_GROW(s->blocks, s->nblocks + 1, s->blocks_alloc);
	b = &s->blocks[s->nblocks++];
	*b = (struct cmp_block){
		.name = xstrdup(name),
		.nkeys = nkeys,
		.keys = xcalloc(nkeys, sizeof(*b->keys)),
		.values = xcalloc(nkeys * m->nruns, sizeof(*b->values)),
		.unit = unit,
		.decimals = 2,
	};
	return b;
}

static const char *const duration_keys[] = { "User", "System", "Elapsed" };

/* Has column col any sample in section s? */
static int has_samples(const struct cmp_section *s, size_t col)
{
	for (size_t r = 0; r < s->nrows; r++)
		if (s->rows[r].cells[col].n)
			return 1;
	return 0;
}

static void finish_duration(struct cmp_model *m, struct cmp_section *s)
{
	struct cmp_block *b;
	int any = 0;

	for (size_t c = 0; c < m->nruns; c++)
		if (s->user_ns[c] || s->sys_ns[c] || s->elapsed_ns[c])
			any = 1;
	if (!any)
		return;
	b = add_block(m, s, "Duration", "s", 3);
	for (size_t k = 0; k < 3; k++)
		b->keys[k] = xstrdup(duration_keys[k]);
	for (size_t c = 0; c < m->nruns; c++) {
		/* Seconds per run: a pooled column shows the mean of its runs. */
		double runs = m->runs[c].nruns ? m->runs[c].nruns : 1;

		if (!has_samples(s, c)) {
			for (size_t k = 0; k < 3; k++)
				b->values[k * m->nruns + c] = NAN;
			continue;
		}
		b->values[0 * m->nruns + c] = s->user_ns[c] / 1e9 / runs;
		b->values[1 * m->nruns + c] = s->sys_ns[c] / 1e9 / runs;
		b->values[2 * m->nruns + c] = s->elapsed_ns[c] / 1e9 / runs;
	}
}

/* ---- monitor totals (the Ops block) ---- */

/* The summary's keys, shown under mmtests' names where it has one; the
 * other keys of --monitors all show as "<source> <key>". */
static const struct {
	const char *source, *key, *name;
	double scale;
} ops_names[] = {
#define OPS(src, k, n, sc) { .source = src, .key = k, .name = n, .scale = sc }
	OPS("rusage", "minor-faults", "Minor Faults", 1),
	OPS("rusage", "major-faults", "Major Faults", 1),
	OPS("rusage", "voluntary-switches", "Voluntary Switches", 1),
	OPS("rusage", "involuntary-switches", "Involuntary Switches", 1),
	OPS("perf", "context-switches", "Context Switches", 1),
	OPS("perf", "cpu-migrations", "CPU Migrations", 1),
	OPS("perf", "page-faults", "Page Faults", 1),
	OPS("perf", "task-clock", "Task Clock (s)", 1e-9),
	OPS("vmstat", "pgfault", "vmstat pgfault", 1),
	OPS("vmstat", "pgmajfault", "vmstat pgmajfault", 1),
	OPS("slab", "Slab", "Slab Growth (KiB)", 1.0 / 1024),
	OPS("slab", "SUnreclaim", "SUnreclaim Growth (KiB)", 1.0 / 1024),
#undef OPS
};
#define NOPS_NAMES (sizeof(ops_names) / sizeof(ops_names[0]))

static int ops_index(const char *source, const char *key)
{
	for (size_t i = 0; i < NOPS_NAMES; i++)
		if (!strcmp(ops_names[i].source, source) && !strcmp(ops_names[i].key, key))
			return (int)i;
	return -1;
}

void model_add_monitor(struct cmp_model *m, size_t col, const struct monitor_row *r)
{
	struct cmp_section *s = NULL;
	struct cmp_monitor *mon = NULL;
	char key[128], *colon;
	double v = r->value;

	if (m->monitors == CMP_MONITORS_NONE || r->iteration <= 0 || col >= m->nruns)
		return;
	snprintf(key, sizeof(key), "%s", r->key);
	switch (r->kind) {
	case MONITOR_KIND_MAX:
	case MONITOR_KIND_FRACTION:
		return;		/* peaks and ratios do not add up */
	case MONITOR_KIND_BEFORE:
		v = -v;
		/* fall through */
	case MONITOR_KIND_AFTER:
		/* A level read before and after the sample: keep its growth,
		 * under the name the pair shares ("Slab:before", "Slab:after"
		 * -> "Slab"). */
		if ((colon = strrchr(key, ':')))
			*colon = '\0';
		break;
	case MONITOR_KIND_DELTA:
	case MONITOR_NKINDS:
		break;
	}
	if (m->monitors == CMP_MONITORS_SUMMARY && strcmp(r->source, "perf") &&
	    ops_index(r->source, key) < 0)
		return;
	for (size_t i = 0; i < m->nsections && !s; i++)
		if (!strcmp(m->sections[i].name, r->section))
			s = &m->sections[i];
	if (!s)
		return;		/* no samples kept for it */
	/* Samples store their keys in the same order: try the next one. */
	if (s->monhint < s->nmons && !strcmp(s->mons[s->monhint].key, key) &&
	    !strcmp(s->mons[s->monhint].source, r->source))
		mon = &s->mons[s->monhint];
	for (size_t i = 0; !mon && i < s->nmons; i++)
		if (!strcmp(s->mons[i].key, key) && !strcmp(s->mons[i].source, r->source))
			mon = &s->mons[i];
	if (!mon) {
		ALLOC_GROW(s->mons, s->nmons + 1, s->mons_alloc);
		mon = &s->mons[s->nmons++];
		*mon = (struct cmp_monitor){
			.source = xstrdup(r->source),
			.key = xstrdup(key),
			.sum = xcalloc(m->nruns, sizeof(*mon->sum)),
			.n = xcalloc(m->nruns, sizeof(*mon->n)),
		};
	}
	s->monhint = (size_t)(mon - s->mons) + 1;
	mon->sum[col] += v;
	/* A before and after pair is one sample's. */
	if (r->kind != MONITOR_KIND_BEFORE)
		mon->n[col]++;
}

/* The Ops block after Duration: each monitor's mean per sample per column,
 * so that runs of different lengths compare; NaN where a column has no
 * value of it. */
static void finish_ops(struct cmp_model *m, struct cmp_section *s)
{
	struct cmp_block *b;

	if (!s->nmons)
		return;
	b = add_block(m, s, "Ops", "", s->nmons);
	b->title = "mean per sample";
	for (size_t k = 0; k < s->nmons; k++) {
		const struct cmp_monitor *mon = &s->mons[k];
		int i = ops_index(mon->source, mon->key);
		double scale = i < 0 ? 1 : ops_names[i].scale;
		char name[160];

		if (i >= 0)
			snprintf(name, sizeof(name), "%s", ops_names[i].name);
		else
			snprintf(name, sizeof(name), "%s %s", mon->source, mon->key);
		b->keys[k] = xstrdup(name);
		for (size_t c = 0; c < m->nruns; c++)
			b->values[k * m->nruns + c] = mon->n[c] ?
				mon->sum[c] * scale / (double)mon->n[c] : NAN;
	}
}

/* ---- numeric row order ---- */

/* Where the last run of digits of label starts (its length in *len), or
 * NULL. */
static const char *last_number(const char *label, size_t *len)
{
	const char *start = NULL;

	for (const char *p = label; *p; p++)
		if (*p >= '0' && *p <= '9' && (p == label || p[-1] < '0' || p[-1] > '9'))
			start = p;
	if (start)
		*len = strspn(start, "0123456789");
	return start;
}

/* A row's place: its group (labels equal but for their last number), in
 * order of the group's first row, then that number. */
struct row_order {
	size_t group;
	double number;
	size_t index;
	struct cmp_row row;
};

static int row_order_cmp(const void *a, const void *b)
{
	const struct row_order *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->number != y->number)
		return x->number < y->number ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The label with its last number taken out ("send-#"); malloc'd. */
static char *row_shape(const char *label, double *number)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len;
	const char *num = last_number(label, &len);

	*number = 0;
	if (!num)
		return xstrdup(label);
	*number = strtod(num, NULL);
	strbuf_add(&sb, label, (size_t)(num - label));
	strbuf_addch(&sb, '#');
	strbuf_addstr(&sb, num + len);
	return strbuf_detach(&sb);
}

static void sort_rows(struct cmp_section *s)
{
	struct row_order *o = xcalloc(s->nrows ? s->nrows : 1, sizeof(*o));
	char **shapes = xcalloc(s->nrows ? s->nrows : 1, sizeof(*shapes));
	size_t ngroups = 0;

	for (size_t r = 0; r < s->nrows; r++) {
		char *shape = row_shape(s->rows[r].label, &o[r].number);
		size_t g = 0;

		while (g < ngroups && strcmp(shapes[g], shape))
			g++;
		if (g == ngroups)
			shapes[ngroups++] = shape;
		else
			free(shape);
		o[r].group = g;
		o[r].index = r;
		o[r].row = s->rows[r];
	}
	qsort(o, s->nrows, sizeof(*o), row_order_cmp);
	for (size_t r = 0; r < s->nrows; r++)
		s->rows[r] = o[r].row;
	for (size_t g = 0; g < ngroups; g++)
		free(shapes[g]);
	free(shapes);
	free(o);
}

/* Does the baseline's config ask for section s's rows as it gives them
 * (order = config)? */
static int config_order(const struct cmp_model *m, const struct cmp_section *s)
{
	struct strbuf v = STRBUF_INIT;
	int keep = 0;

	/* A comment may follow the value (" ; ..."). */
	if (m->runs[0].facts.config_text &&
	    !facts_config_value(m->runs[0].facts.config_text, s->name, "order", &v))
		keep = !strcmp(v.buf, "config") || !strncmp(v.buf, "config ", 7);
	strbuf_release(&v);
	return keep;
}

void model_set_experiment(struct cmp_model *m, size_t col, int64_t id, const char *uuid,
			  const char *design)
{
	struct cmp_run *r = &m->runs[col];

	free(r->experiment_uuid);
	free(r->experiment_design);
	r->experiment_uuid = uuid ? xstrdup(uuid) : NULL;
	r->experiment_design = design ? xstrdup(design) : NULL;
	r->experiment_id = id;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Summarise the cells marked cannot tell for the footers. */
static void summarise_cannot_tell(struct cmp_model *m)
{
	struct cmp_cannot_tell *ct = &m->cannot_tell;
	double *mde = NULL;
	size_t alloc = 0;

	memset(ct, 0, sizeof(*ct));
	for (size_t i = 0; i < m->nsections; i++)
		for (size_t r = 0; r < m->sections[i].nrows; r++) {
			const struct cmp_row *row = &m->sections[i].rows[r];
			int hit = 0;	/* a cell not paired by round is marked ? */

			for (size_t c = 1; c < m->nruns; c++) {
				const struct cmp_cell *cell = &row->cells[c];

				if (cell->verdict != CMP_VERDICT_CANNOT_TELL)
					continue;
				hit |= cell->method != CMP_METHOD_PAIRED;
				ct->cells++;
				ct->unknown += decide_within_only(cell);
				if (cell->method == CMP_METHOD_PAIRED) {
					ct->paired++;
					if (!cell->rounds_needed)
						ct->rounds_none++;
					else {
						if (!ct->rounds_lo ||
						    cell->rounds_needed < ct->rounds_lo)
							ct->rounds_lo = cell->rounds_needed;
						if (cell->rounds_needed > ct->rounds_hi)
							ct->rounds_hi = cell->rounds_needed;
					}
				}
				if (!isnan(cell->mde_pct)) {
					ALLOC_GROW(mde, ct->nmde + 1, alloc);
					mde[ct->nmde++] = cell->mde_pct;
				}
			}
			if (!hit)
				continue;
			if (!row->runs_needed) {
				ct->need_none += row->noise.known != 0;
				continue;
			}
			if (!ct->need_lo || row->runs_needed < ct->need_lo)
				ct->need_lo = row->runs_needed;
			if (row->runs_needed > ct->need_hi)
				ct->need_hi = row->runs_needed;
		}
	if (ct->nmde) {
		size_t n = ct->nmde;

		qsort(mde, n, sizeof(*mde), cmp_double);
		ct->mde_lo = mde[0];
		ct->mde_hi = mde[n - 1];
		ct->mde_median = n % 2 ? mde[n / 2] : (mde[n / 2 - 1] + mde[n / 2]) / 2;
	}
	free(mde);
}

/* *s made printable (name_escape) in place, when it needs to be. */
static void printable(char **s)
{
	const char *p = *s ? name_printable(*s) : NULL;

	if (p && p != *s) {
		free(*s);
		*s = xstrdup(p);
	}
}

/* Every name from the store made printable, once for every format: a
 * name holding control characters (imported before they were refused, or
 * written by hand) shows them as \xNN and cannot drive a terminal. */
static void printable_names(struct cmp_model *m)
{
	for (size_t c = 0; c < m->nruns; c++) {
		struct cmp_run *r = &m->runs[c];
		char **v[] = { &r->label, &r->head1, &r->head2, &r->facts.hostname,
			       &r->facts.cpu_model, &r->facts.kernel_release,
			       &r->facts.kernel_cmdline, &r->facts.config_name };

		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
			printable(v[i]);
	}
	for (size_t i = 0; i < m->nsections; i++) {
		struct cmp_section *s = &m->sections[i];

		printable(&s->name);
		for (size_t r = 0; r < s->nrows; r++)
			printable(&s->rows[r].label);
		for (size_t b = 0; b < s->nblocks; b++)
			for (size_t k = 0; k < s->blocks[b].nkeys; k++)
				printable(&s->blocks[b].keys[k]);
	}
}

void model_finish(struct cmp_model *m)
{
	decide_setup(m);
	for (size_t i = 0; i < m->nsections; i++) {
		struct cmp_section *s = &m->sections[i];

		if (!m->order_config && !config_order(m, s))
			sort_rows(s);
		for (size_t r = 0; r < s->nrows; r++)
			finish_row(m, &s->rows[r]);
		finish_duration(m, s);
		finish_ops(m, s);
	}
	summarise_cannot_tell(m);
	m->different_work = 0;
	m->different_kinds = 0;
	for (size_t c = 1; c < m->nruns; c++) {
		const struct run_facts *a = &m->runs[0].facts, *b = &m->runs[c].facts;
		const struct run_work wa = { .config_text = a->config_text, .options = a->options,
					     .values = a->work, .kind = a->kind };
		const struct run_work wb = { .config_text = b->config_text, .options = b->options,
					     .values = b->work, .kind = b->kind };

		/* Kinds are said apart from the work (different_kinds). */
		m->different_work |= run_work_differs(&wa, &wb, NULL) & ~WORK_KIND;
		m->different_kinds |= run_kinds_differ(a->kind, b->kind);
	}
	/* The caches point into rows that moved. */
	m->last_section = NULL;
	m->last_row = NULL;
	m->last_set.section = NULL;
	printable_names(m);
	if (m->nruns > 1) {
		const struct run_facts **runs = xcalloc(m->nruns, sizeof(*runs));

		for (size_t c = 0; c < m->nruns; c++)
			runs[c] = &m->runs[c].facts;
		m->nfacts = facts_differing(runs, m->nruns, &m->facts);
		free(runs);
	}
}

/* The row named section/label, or NULL. Series come row after row in
 * stored order: try the row after the last one found first. */
static struct cmp_row *lookup_row(struct cmp_model *m, const char *section, const char *label)
{
	struct cmp_section *s = m->hist_hint.section;
	size_t next = m->hist_hint.row + 1;

	if (s && next < s->nrows && !strcmp(s->name, section) &&
	    !strcmp(s->rows[next].label, label)) {
		m->hist_hint.row = next;
		return &s->rows[next];
	}
	for (size_t i = 0; i < m->nsections; i++) {
		s = &m->sections[i];
		if (strcmp(s->name, section))
			continue;
		for (size_t r = 0; r < s->nrows; r++)
			if (!strcmp(s->rows[r].label, label)) {
				m->hist_hint.section = s;
				m->hist_hint.row = r;
				return &s->rows[r];
			}
	}
	return NULL;
}

/* Remember run id among the runs the noise was read from (ascending). */
static void add_noise_run(struct cmp_model *m, int64_t id)
{
	size_t lo = 0, hi = m->nnoise_runs;

	if (hi && m->noise_runs[hi - 1] == id)
		return;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (m->noise_runs[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->nnoise_runs && m->noise_runs[lo] == id)
		return;
	ALLOC_GROW(m->noise_runs, m->nnoise_runs + 1, m->noise_runs_alloc);
	memmove(m->noise_runs + lo + 1, m->noise_runs + lo,
		(m->nnoise_runs - lo) * sizeof(*m->noise_runs));
	m->noise_runs[lo] = id;
	m->nnoise_runs++;
}

void model_add_history(struct cmp_model *m, const struct run_row_summary *h)
{
	struct cmp_row *r = lookup_row(m, h->section, h->row);
	double mean, m2;

	add_noise_run(m, h->run_id);
	if (!r || h->n < 1)
		return;
	mean = r->higher_better ? h->inv_mean : h->mean;
	m2 = r->higher_better ? h->inv_m2 : h->m2;
	if (isnan(mean) || isnan(m2))
		return;		/* an Hmean row with a sample <= 0 */
	ALLOC_GROW(r->hist, r->nhist + 1, r->hist_alloc);
	r->hist[r->nhist++] = (struct noise_replicate){
		.group = (size_t)h->group,
		.run = h->run_id,
		.n = (size_t)h->n,
		.mean = mean,
		.m2 = m2 < 0 ? 0 : m2,
		.calibration = h->calibration,
	};
}
