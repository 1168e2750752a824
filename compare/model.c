/* model: builds the comparison of runs from their samples: sections and
 * rows in order of first appearance, per-column statistics, mmtests'
 * percentages, the significance test, the Duration and Ops (monitor)
 * blocks and the facts that differ between runs. */
#include "config.h"
#include "compare/model.h"
#include "db/store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct cmp_stat_desc cmp_stats[CMP_NSTATS] = {
	[CMP_MIN] = { "Min", "Min", "min", 0 },
	[CMP_MEAN] = { "Amean", "Hmean", "mean", 0 },
	[CMP_STDDEV] = { "Stddev", "HStddev", "stddev", 1 },
	[CMP_COEFFVAR] = { "CoeffVar", "HCoeffVar", "coeffvar", 1 },
	[CMP_MAX] = { "Max", "Max", "max", 0 },
	[CMP_BMEAN95] = { "BAmean-95", "BHmean-95", "bmean95", 0 },
};

double cmp_stat_value(const struct stats_summary *s, enum cmp_stat st)
{
	switch (st) {
	case CMP_MIN: return s->min;
	case CMP_MEAN: return s->mean;
	case CMP_STDDEV: return s->spread;
	case CMP_COEFFVAR: return s->cv;
	case CMP_MAX: return s->max;
	case CMP_BMEAN95: return s->bmean95;
	case CMP_NSTATS: break;
	}
	return NAN;
}

const char *cmp_stat_name(enum cmp_stat st, int higher_better)
{
	return higher_better ? cmp_stats[st].higher_name : cmp_stats[st].lower_name;
}

static char *xstrdup(const char *s)
{
	return strdup(s ? s : "");
}

int model_init(struct cmp_model *m, size_t ncolumns,
	       const struct stats_test_desc *test, double alpha)
{
	memset(m, 0, sizeof(*m));
	m->runs = calloc(ncolumns ? ncolumns : 1, sizeof(*m->runs));
	if (!m->runs)
		return -1;
	m->nruns = ncolumns;
	m->test = test;
	m->alpha = alpha;
	return 0;
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
	free(r->hostname);
	free(r->cpu_model);
	free(r->kernel_release);
	free(r->kernel_cmdline);
	free(r->config_name);
	free(r->config_text);
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

		for (size_t c = 0; c < ncols; c++)
			free(r->cells[c].samples);
		free(r->cells);
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

int model_split_name(const char *name, char **head1, char **head2)
{
	const char *at = split_point(name);

	*head1 = at ? strndup(name, at - name) : strdup(name);
	*head2 = strdup(at ? at + 1 : "");
	if (!*head1 || !*head2) {
		free(*head1);
		free(*head2);
		*head1 = *head2 = NULL;
		return -1;
	}
	return 0;
}

int model_set_run(struct cmp_model *m, size_t col, const char *label,
		  int64_t id, const char *uuid, const char *hostname,
		  const char *cpu_model, int cpus, const char *kernel_release,
		  const char *kernel_cmdline, const char *config_name,
		  const char *config_text)
{
	struct cmp_run *r = &m->runs[col];
	int64_t *ids;
	char **uuids;

	ids = realloc(r->ids, (r->nruns + 1) * sizeof(*ids));
	if (!ids)
		return -1;
	r->ids = ids;
	uuids = realloc(r->uuids, (r->nruns + 1) * sizeof(*uuids));
	if (!uuids)
		return -1;
	r->uuids = uuids;
	if (!(uuids[r->nruns] = xstrdup(uuid)))
		return -1;
	ids[r->nruns++] = id;
	if (r->label)
		return 0;	/* a pooled run: the first one names the column */
	r->label = xstrdup(label);
	r->hostname = xstrdup(hostname);
	r->cpu_model = xstrdup(cpu_model);
	r->kernel_release = xstrdup(kernel_release);
	r->kernel_cmdline = xstrdup(kernel_cmdline);
	r->config_name = xstrdup(config_name);
	r->config_text = xstrdup(config_text);
	r->cpus = cpus;
	if (!r->label || !r->hostname || !r->cpu_model || !r->kernel_release ||
	    !r->kernel_cmdline || !r->config_name || !r->config_text)
		return -1;
	return model_split_name(r->label, &r->head1, &r->head2);
}

void model_begin_run(struct cmp_model *m)
{
	m->last_set.section = NULL;
	m->last_section = NULL;
	m->last_row = NULL;
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
		size_t alloc = m->alloc ? 2 * m->alloc : 8;
		struct cmp_section *n = realloc(m->sections, alloc * sizeof(*n));

		if (!n)
			return NULL;
		/* Rows cache pointers into sections: forget them. */
		m->sections = n;
		m->alloc = alloc;
		m->last_set.section = NULL;
		m->last_row = NULL;
	}
	s = &m->sections[m->nsections];
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	s->workload = xstrdup(workload);
	s->user_ns = calloc(m->nruns, sizeof(*s->user_ns));
	s->sys_ns = calloc(m->nruns, sizeof(*s->sys_ns));
	s->elapsed_ns = calloc(m->nruns, sizeof(*s->elapsed_ns));
	m->nsections++;
	if (!s->name || !s->workload || !s->user_ns || !s->sys_ns || !s->elapsed_ns)
		return NULL;
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
		size_t alloc = s->alloc ? 2 * s->alloc : 16;
		struct cmp_row *n = realloc(s->rows, alloc * sizeof(*n));

		if (!n)
			return NULL;
		s->rows = n;
		s->alloc = alloc;
		m->last_row = NULL;
	}
	r = &s->rows[s->nrows];
	memset(r, 0, sizeof(*r));
	r->label = strdup(sr->row);
	r->unit = xstrdup(sr->unit);
	r->higher_better = sr->higher_better;
	r->decimals = sr->unit && !strcmp(sr->unit, "s") ? 4 : 2;
	r->cells = calloc(m->nruns, sizeof(*r->cells));
	s->nrows++;
	if (!r->label || !r->unit || !r->cells)
		return NULL;
	return m->last_row = r;
}

int model_add_sample(struct cmp_model *m, size_t col, const struct sample_row *sr)
{
	struct cmp_section *s = find_section(m, sr->section, sr->workload);
	struct cmp_row *r;
	struct cmp_cell *c;

	if (!s || !(r = find_row(m, s, sr)))
		return -1;
	c = &r->cells[col];
	if (c->n == c->alloc) {
		size_t alloc = c->alloc ? 2 * c->alloc : 8;
		double *n = realloc(c->samples, alloc * sizeof(*n));

		if (!n)
			return -1;
		c->samples = n;
		c->alloc = alloc;
	}
	c->samples[c->n++] = sr->value;
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
	return 0;
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

static int finish_row(struct cmp_model *m, struct cmp_row *r)
{
	struct cmp_cell *base = &r->cells[0];

	for (size_t c = 0; c < m->nruns; c++)
		if (stats_summarise(r->cells[c].samples, r->cells[c].n, r->higher_better,
				    &r->cells[c].s))
			return -1;
	for (size_t c = 0; c < m->nruns; c++) {
		struct cmp_cell *cell = &r->cells[c];

		for (int st = 0; st < CMP_NSTATS; st++)
			cell->pct[st] = c == 0 ? 0 :
				pct(st, r->higher_better, cmp_stat_value(&cell->s, st),
				    cmp_stat_value(&base->s, st));
		if (c == 0) {
			memset(&cell->test, 0, sizeof(cell->test));
			cell->test.statistic = cell->test.df = cell->test.p = NAN;
			cell->test.reason = "baseline";
			continue;
		}
		if (!cell->n || !base->n) {
			memset(&cell->test, 0, sizeof(cell->test));
			cell->test.statistic = cell->test.df = cell->test.p = NAN;
			cell->test.reason = "row missing in a run";
			continue;
		}
		if (stats_test(m->test->kind, base->samples, base->n, cell->samples,
			       cell->n, r->higher_better, m->alpha, &cell->test))
			return -1;
	}
	return 0;
}

static const char *const duration_keys[] = { "User", "System", "Elapsed" };

static int finish_duration(struct cmp_model *m, struct cmp_section *s)
{
	struct cmp_block *b;
	int any = 0;

	for (size_t c = 0; c < m->nruns; c++)
		if (s->user_ns[c] || s->sys_ns[c] || s->elapsed_ns[c])
			any = 1;
	if (!any)
		return 0;
	s->blocks = calloc(1, sizeof(*s->blocks));
	if (!s->blocks)
		return -1;
	s->nblocks = 1;
	b = &s->blocks[0];
	b->decimals = 2;
	b->unit = "s";
	b->nkeys = 3;
	b->name = strdup("Duration");
	b->keys = calloc(3, sizeof(*b->keys));
	b->values = calloc(3 * m->nruns, sizeof(*b->values));
	if (!b->name || !b->keys || !b->values)
		return -1;
	for (size_t k = 0; k < 3; k++)
		if (!(b->keys[k] = strdup(duration_keys[k])))
			return -1;
	for (size_t c = 0; c < m->nruns; c++) {
		/* Seconds per run: a pooled column shows the mean of its runs. */
		double runs = m->runs[c].nruns ? m->runs[c].nruns : 1;

		b->values[0 * m->nruns + c] = s->user_ns[c] / 1e9 / runs;
		b->values[1 * m->nruns + c] = s->sys_ns[c] / 1e9 / runs;
		b->values[2 * m->nruns + c] = s->elapsed_ns[c] / 1e9 / runs;
	}
	return 0;
}

/* ---- monitor totals (the Ops block) ---- */

/* The summary's keys, shown under mmtests' names where it has one; the
 * other keys of --monitors all show as "<source> <key>". */
static const struct {
	const char *source, *key, *name;
	double scale;
} ops_names[] = {
	{ "rusage", "minor-faults", "Minor Faults", 1 },
	{ "rusage", "major-faults", "Major Faults", 1 },
	{ "rusage", "voluntary-switches", "Voluntary Switches", 1 },
	{ "rusage", "involuntary-switches", "Involuntary Switches", 1 },
	{ "perf", "context-switches", "Context Switches", 1 },
	{ "perf", "cpu-migrations", "CPU Migrations", 1 },
	{ "perf", "page-faults", "Page Faults", 1 },
	{ "perf", "task-clock", "Task Clock (s)", 1e-9 },
	{ "vmstat", "pgfault", "vmstat pgfault", 1 },
	{ "vmstat", "pgmajfault", "vmstat pgmajfault", 1 },
	{ "slab", "Slab", "Slab Growth (KiB)", 1.0 / 1024 },
	{ "slab", "SUnreclaim", "SUnreclaim Growth (KiB)", 1.0 / 1024 },
};
#define NOPS_NAMES (sizeof(ops_names) / sizeof(ops_names[0]))

static int ops_index(const char *source, const char *key)
{
	for (size_t i = 0; i < NOPS_NAMES; i++)
		if (!strcmp(ops_names[i].source, source) && !strcmp(ops_names[i].key, key))
			return (int)i;
	return -1;
}

int model_add_monitor(struct cmp_model *m, size_t col, const struct monitor_row *r)
{
	struct cmp_section *s = NULL;
	struct cmp_monitor *mon = NULL;
	char key[128];
	const char *colon;
	double v = r->value;

	if (m->monitors == CMP_MONITORS_NONE || r->iteration <= 0 || col >= m->nruns)
		return 0;
	/* Maxima do not add up; perf's :running is a fraction. */
	if (!strcmp(r->key, "max-rss-bytes") || strstr(r->key, ":running"))
		return 0;
	/* The slab totals come as before and after: keep the growth. */
	snprintf(key, sizeof(key), "%s", r->key);
	colon = strrchr(r->key, ':');
	if (!strcmp(r->source, "slab") && colon) {
		if (!strcmp(colon, ":before"))
			v = -v;
		else if (strcmp(colon, ":after"))
			return 0;
		key[colon - r->key] = '\0';
	}
	if (m->monitors == CMP_MONITORS_SUMMARY && strcmp(r->source, "perf") &&
	    ops_index(r->source, key) < 0)
		return 0;
	for (size_t i = 0; i < m->nsections && !s; i++)
		if (!strcmp(m->sections[i].name, r->section))
			s = &m->sections[i];
	if (!s)
		return 0;	/* no samples kept for it */
	/* Samples store their keys in the same order: try the next one. */
	if (s->monhint < s->nmons && !strcmp(s->mons[s->monhint].key, key) &&
	    !strcmp(s->mons[s->monhint].source, r->source))
		mon = &s->mons[s->monhint];
	for (size_t i = 0; !mon && i < s->nmons; i++)
		if (!strcmp(s->mons[i].key, key) && !strcmp(s->mons[i].source, r->source))
			mon = &s->mons[i];
	if (!mon) {
		struct cmp_monitor *n = realloc(s->mons, (s->nmons + 1) * sizeof(*n));

		if (!n)
			return -1;
		s->mons = n;
		mon = &s->mons[s->nmons++];
		mon->source = strdup(r->source);
		mon->key = strdup(key);
		mon->sum = calloc(m->nruns, sizeof(*mon->sum));
		if (!mon->source || !mon->key || !mon->sum)
			return -1;
	}
	s->monhint = (size_t)(mon - s->mons) + 1;
	mon->sum[col] += v;
	return 0;
}

/* The Ops block after Duration: each monitor's total per column, the
 * mean per run for a pooled column. */
static int finish_ops(struct cmp_model *m, struct cmp_section *s)
{
	struct cmp_block *blocks, *b;

	if (!s->nmons)
		return 0;
	blocks = realloc(s->blocks, (s->nblocks + 1) * sizeof(*blocks));
	if (!blocks)
		return -1;
	s->blocks = blocks;
	b = &s->blocks[s->nblocks++];
	memset(b, 0, sizeof(*b));
	b->decimals = 2;
	b->unit = "";
	b->nkeys = s->nmons;
	b->name = strdup("Ops");
	b->keys = calloc(s->nmons, sizeof(*b->keys));
	b->values = calloc(s->nmons * m->nruns, sizeof(*b->values));
	if (!b->name || !b->keys || !b->values)
		return -1;
	for (size_t k = 0; k < s->nmons; k++) {
		const struct cmp_monitor *mon = &s->mons[k];
		int i = ops_index(mon->source, mon->key);
		double scale = i < 0 ? 1 : ops_names[i].scale;
		char name[160];

		if (i >= 0)
			snprintf(name, sizeof(name), "%s", ops_names[i].name);
		else
			snprintf(name, sizeof(name), "%s %s", mon->source, mon->key);
		if (!(b->keys[k] = strdup(name)))
			return -1;
		for (size_t c = 0; c < m->nruns; c++) {
			double runs = m->runs[c].nruns ? m->runs[c].nruns : 1;

			b->values[k * m->nruns + c] = mon->sum[c] * scale / runs;
		}
	}
	return 0;
}

static int add_fact(struct cmp_model *m, const char *what, char **values)
{
	struct cmp_fact *f = realloc(m->facts, (m->nfacts + 1) * sizeof(*f));

	if (!f)
		return -1;
	m->facts = f;
	f[m->nfacts].what = what;
	f[m->nfacts].values = values;
	m->nfacts++;
	return 0;
}

/* Each column's value of one fact; added to the model only when two
 * columns differ. Takes ownership of values. */
static int consider_fact(struct cmp_model *m, const char *what, char **values)
{
	for (size_t c = 1; c < m->nruns; c++)
		if (strcmp(values[c], values[0]))
			return add_fact(m, what, values);
	for (size_t c = 0; c < m->nruns; c++)
		free(values[c]);
	free(values);
	return 0;
}

static char *fmt_machine(const struct cmp_run *r)
{
	size_t len = strlen(r->hostname) + strlen(r->cpu_model) + 8;
	char *s = malloc(len);

	if (s)
		snprintf(s, len, "%s%s%s", r->hostname, *r->cpu_model ? ", " : "", r->cpu_model);
	return s;
}

static char *fmt_int(int v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d", v);
	return strdup(buf);
}

/* Where config text b first differs from a: "line N: TEXT". */
static char *first_difference(const char *a, const char *b, const char *name)
{
	size_t line = 1, len;
	const char *la = a, *lb = b, *end;
	char *s;

	if (!strcmp(a, b))
		return strdup("");
	while (*la && *lb) {
		size_t na = strcspn(la, "\n"), nb = strcspn(lb, "\n");

		if (na != nb || memcmp(la, lb, na))
			break;
		la += na + (la[na] == '\n');
		lb += nb + (lb[nb] == '\n');
		line++;
	}
	end = lb + strcspn(lb, "\n");
	len = (end - lb) + strlen(name) + 64;
	s = malloc(len);
	if (s && *lb)
		snprintf(s, len, "%s%sline %zu: %.*s", name, *name ? ", " : "",
			 line, (int)(end - lb), lb);
	else if (s)
		snprintf(s, len, "%s%sline %zu: (end of text)", name, *name ? ", " : "", line);
	return s;
}

static int finish_facts(struct cmp_model *m)
{
	static const char *const whats[] = { "machine", "CPU count", "kernel cmdline", "config text" };

	for (size_t w = 0; w < sizeof(whats) / sizeof(whats[0]); w++) {
		char **v = calloc(m->nruns, sizeof(*v));
		int differs = 0;

		if (!v)
			return -1;
		for (size_t c = 0; c < m->nruns; c++) {
			const struct cmp_run *r = &m->runs[c];

			switch (w) {
			case 0: v[c] = fmt_machine(r); break;
			case 1: v[c] = fmt_int(r->cpus); break;
			case 2: v[c] = strdup(r->kernel_cmdline); break;
			case 3:
				/* The raw texts are long: compare them, then
				 * show where each one departs from the base. */
				if (strcmp(r->config_text, m->runs[0].config_text))
					differs = 1;
				v[c] = strdup(r->config_text);
				break;
			}
			if (!v[c]) {
				for (size_t i = 0; i < c; i++)
					free(v[i]);
				free(v);
				return -1;
			}
		}
		if (w == 3 && differs) {
			char **d = calloc(m->nruns, sizeof(*d));
			size_t other = 1;

			if (!d)
				return -1;
			while (other < m->nruns && !strcmp(v[other], v[0]))
				other++;
			for (size_t c = 0; c < m->nruns; c++) {
				if (c == 0)
					d[c] = first_difference(v[other], v[0], m->runs[0].config_name);
				else if (!strcmp(v[c], v[0]))
					d[c] = strdup("same as the baseline");
				else
					d[c] = first_difference(v[0], v[c], m->runs[c].config_name);
			}
			for (size_t c = 0; c < m->nruns; c++)
				free(v[c]);
			free(v);
			for (size_t c = 0; c < m->nruns; c++)
				if (!d[c])
					differs = 0;
			if (!differs || add_fact(m, whats[w], d)) {
				for (size_t c = 0; c < m->nruns; c++)
					free(d[c]);
				free(d);
				return -1;
			}
			continue;
		}
		if (w == 3) {
			for (size_t c = 0; c < m->nruns; c++)
				free(v[c]);
			free(v);
			continue;
		}
		if (consider_fact(m, whats[w], v))
			return -1;
	}
	return 0;
}

int model_finish(struct cmp_model *m)
{
	for (size_t i = 0; i < m->nsections; i++) {
		struct cmp_section *s = &m->sections[i];

		for (size_t r = 0; r < s->nrows; r++)
			if (finish_row(m, &s->rows[r]))
				return -1;
		if (finish_duration(m, s) || finish_ops(m, s))
			return -1;
	}
	return m->nruns > 1 ? finish_facts(m) : 0;
}
