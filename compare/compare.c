/* compare: from run selectors to a rendered comparison. Resolves each
 * selector to the runs of its column, labels the columns, streams every
 * run's samples and monitor values from the store into the model (kept
 * or dropped by --only), finishes the model and renders it. */
#include "config.h"
#include "compare/compare.h"
#include "compare/decide.h"
#include "compare/render.h"
#include "db/series.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/regex.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The runs of one column: one, or every run of a name with --pool. */
struct column {
	int64_t *ids;
	size_t n;
	/* A pool over several hosts (NAME@*): their names joined by '+', to
	 * show for the column's machine; NULL for one host. */
	char *hosts;
};

/* What the store callbacks need while one run is read. */
struct feed {
	struct cmp_model *model;
	size_t col;
	const struct kb_regex *only;
	/* The last (section, row) decision, since samples of a row come
	 * together: one match per row instead of one per sample. */
	struct strbuf last_section, last_row;
	int last_keep;
	int failed;	/* --only could not tell a name, or a row's units
			 * differ: stop, printed */
	const char *run;	/* the name of the run being read */
};

/* Does --only keep the section or row? 1 or 0, or -1 after printing why
 * the pattern could not tell. */
static int only_keeps(const struct kb_regex *only, const char *section, const char *row)
{
	int keep = kb_regex_match(only, section);

	return keep ? keep : kb_regex_match(only, row);
}

/* The unit the model holds row of section in (NULL: it holds no such
 * row), and in *label the label of the first column with samples of it. */
static const char *row_unit(const struct cmp_model *m, const char *section, const char *row,
			    const char **label)
{
	for (size_t i = 0; i < m->nsections; i++) {
		const struct cmp_section *s = &m->sections[i];

		if (strcmp(s->name, section))
			continue;
		for (size_t j = 0; j < s->nrows; j++) {
			const struct cmp_row *r = &s->rows[j];

			if (strcmp(r->label, row))
				continue;
			*label = "";
			for (size_t c = 0; c < m->nruns; c++)
				if (r->cells[c].n) {
					*label = m->runs[c].label ? m->runs[c].label : "";
					break;
				}
			return r->unit;
		}
		return NULL;
	}
	return NULL;
}

/* Whether row r comes in another unit than the samples of its row read
 * before (1, after printing why): figures of different units are
 * neither pooled nor compared (netperf's 10^6 bit/s against its
 * transactions per second reads as a change of millions of %). */
static int unit_differs(const struct feed *f, const struct sample_row *r)
{
	const char *label, *unit = row_unit(f->model, r->section, r->row, &label);
	const char *mine = r->unit ? r->unit : "";

	if (!unit || !strcmp(unit, mine))
		return 0;
	error("%s %s: '%s' stores it in '%s', '%s' in '%s': rows of different units are "
	      "neither pooled nor compared", r->section, r->row, label, unit, f->run, mine);
	return 1;
}

static int feed_sample(const struct sample_row *r, void *arg)
{
	struct feed *f = arg;

	if (strcmp(f->last_section.buf, r->section) || strcmp(f->last_row.buf, r->row)) {
		strbuf_reset(&f->last_section);
		strbuf_addstr(&f->last_section, r->section);
		strbuf_reset(&f->last_row);
		strbuf_addstr(&f->last_row, r->row);
		f->last_keep = f->only ? only_keeps(f->only, r->section, r->row) : 1;
		if (f->last_keep > 0 && unit_differs(f, r))
			return f->failed = 1;
	}
	if (f->last_keep < 0)
		return f->failed = 1;
	if (!f->last_keep)
		return 0;
	model_add_sample(f->model, f->col, r);
	return 0;
}

static int feed_row_result(const struct row_result *r, void *arg)
{
	struct feed *f = arg;

	model_add_row_result(f->model, f->col, r);
	return 0;
}

static int feed_monitor(const struct monitor_row *r, void *arg)
{
	struct feed *f = arg;
	int keep = f->only ? only_keeps(f->only, r->section, r->row) : 1;

	if (keep < 0)
		return f->failed = 1;
	if (!keep)
		return 0;
	model_add_monitor(f->model, f->col, r);
	return 0;
}

/* The hosts of a pooled column in the order its runs were made, when
 * there are several. Returns 0, or -1 after printing why. */
static int pool_hosts(struct store *s, struct column *col)
{
	struct strbuf hosts = STRBUF_INIT;
	char **seen = xcalloc(col->n, sizeof(*seen));
	size_t nseen = 0;
	int rc = 0;

	for (size_t k = 0; k < col->n; k++) {
		struct run_info r;
		size_t i = 0;

		if ((rc = store_get_run(s, col->ids[k], &r)))
			break;
		while (i < nseen && strcmp(seen[i], r.hostname))
			i++;
		if (i == nseen) {
			seen[nseen++] = xstrdup(r.hostname);
			strbuf_addf(&hosts, "%s%s", i ? "+" : "", r.hostname);
		}
		run_info_release(&r);
	}
	if (!rc && nseen > 1)
		col->hosts = strbuf_detach(&hosts);
	strbuf_release(&hosts);
	for (size_t i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	return rc;
}

/* Resolve one selector to the runs of its column. A pool stays on the
 * host of the run the selector picks (NAME: this host, NAME@HOST: HOST)
 * unless the selector says NAME@*. Returns 0, or -1 after printing why. */
static int column_runs(struct store *s, const char *sel, int pool, struct column *col)
{
	struct strbuf err = STRBUF_INIT;
	struct run_info r;
	int64_t id;
	int rc = -1;

	if (store_resolve_run(s, sel, &id, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (pool) {
		const char *at = strrchr(sel, '@');
		int every_host = at && !strcmp(at + 1, "*");

		if (store_get_run(s, id, &r))
			goto out;
		rc = store_runs_named_on(s, r.name, every_host ? NULL : r.hostname,
					 &col->ids, &col->n);
		run_info_release(&r);
		if (!rc && every_host)
			rc = pool_hosts(s, col);
		if (rc || col->n)
			goto out;
		/* The selector named an unfinished run: pool just it. */
		free(col->ids);
	}
	col->ids = xmalloc(sizeof(*col->ids));
	col->ids[0] = id;
	col->n = 1;
	rc = 0;
out:
	strbuf_release(&err);
	return rc;
}

/* The label of column i: its run's name, with the run id appended when
 * another column's first run has the same name (names[j]: the name of
 * column j's first run). */
static void label_for(char *const *names, size_t ncols, size_t i, const struct run_info *r,
		      struct strbuf *label)
{
	strbuf_addstr(label, r->name);
	for (size_t j = 0; j < ncols; j++)
		if (j != i && !strcmp(names[j], r->name)) {
			/* NAME#ID, a label in one word: a shell passes it whole. */
			strbuf_addch(label, '#');
			strbuf_addf(label, "%lld", (long long)r->id);
			break;
		}
}

/* The A/B experiment a run is an arm of (kbench ab), from its facts. */
struct run_experiment {
	int64_t id;
	char *uuid;
	char *design;
};

static int experiment_fact(const char *section, const char *key, const char *value, void *arg)
{
	struct run_experiment *x = arg;

	if (*section)
		return 0;
	if (!strcmp(key, "experiment"))
		x->id = strtoll(value, NULL, 10);
	else if (!strcmp(key, "experiment-uuid") && !x->uuid)
		x->uuid = xstrdup(value);
	else if (!strcmp(key, "experiment-design") && !x->design)
		x->design = xstrdup(value);
	return 0;
}

/* What a run in a guest (kbench vm) stored of it: its vm.* facts as one
 * line, "TCG, 2 vCPUs, 512 MiB" ("TCG counting instructions (icount
 * shift 3), 1 vCPUs, 512 MiB" when its clock counted instructions), and
 * the guest's own guest.* facts. */
struct guest_facts {
	struct strbuf vm;
	char *cpu_model;	/* NULL: the guest said nothing of itself */
	int cpus, nodes;
	uint64_t mem_bytes;
};

static int vm_fact(const char *section, const char *key, const char *value, void *arg)
{
	struct guest_facts *g = arg;
	struct strbuf *sb = &g->vm;

	if (*section || !value)
		return 0;
	if (!strcmp(key, "guest.cpu_model")) {
		free(g->cpu_model);
		g->cpu_model = xstrdup(value);
	} else if (!strcmp(key, "guest.cpus")) {
		g->cpus = atoi(value);
	} else if (!strcmp(key, "guest.numa_nodes")) {
		g->nodes = atoi(value);
	} else if (!strcmp(key, "guest.mem_bytes")) {
		g->mem_bytes = strtoull(value, NULL, 10);
	} else if (!strcmp(key, "vm.accel"))
		strbuf_addf(sb, "%s%s", sb->len ? ", " : "", !strcmp(value, "kvm") ? "KVM" : "TCG");
	else if (!strcmp(key, "vm.icount"))
		strbuf_addf(sb, " counting instructions (icount shift %s)", value);
	else if (!strcmp(key, "vm.vcpus"))
		strbuf_addf(sb, "%s%s vCPUs", sb->len ? ", " : "", value);
	else if (!strcmp(key, "vm.memory_mib"))
		strbuf_addf(sb, "%s%s MiB", sb->len ? ", " : "", value);
	return 0;
}

/* Read one run into column col of the model. */
static int feed_run(struct store *s, const struct column *cols, char *const *names,
		    size_t ncols, size_t col, size_t k, struct feed *feed)
{
	struct cmp_model *model = feed->model;
	int64_t id = cols[col].ids[k];
	struct strbuf label = STRBUF_INIT;
	struct run_info r;
	int rounds, rc = -1;

	if (store_get_run(s, id, &r))
		return -1;
	/* Only the first run of a pooled column names it. */
	if (k == 0)
		label_for(names, ncols, col, &r, &label);
	model_set_run(model, col, label.buf, r.id, r.uuid,
		      cols[col].hosts ? cols[col].hosts : r.hostname, r.cpu_model, r.cpus,
		      r.kernel_release, r.kernel_cmdline, r.config_name, r.config_text);
	model_set_machine(model, col, r.cores, r.numa_nodes, r.mem_bytes);
	model_set_note(model, col, r.notes);
	{
		struct guest_facts g = { .vm = STRBUF_INIT };
		struct strbuf kind = STRBUF_INIT;
		int failed = store_each_meta(s, id, vm_fact, &g) || store_run_kind(s, id, &kind);

		if (!failed) {
			model_set_vm(model, col, g.vm.buf);
			model_set_kind(model, col, kind.buf);
			if (kind.len && g.cpu_model)
				model_set_guest(model, col, g.cpu_model, g.cpus, g.nodes,
						g.mem_bytes);
		}
		strbuf_release(&g.vm);
		strbuf_release(&kind);
		free(g.cpu_model);
		if (failed)
			goto out;
	}
	if (k == 0 && r.notes && *r.notes)
		model->runs[col].note = xstrdup(r.notes);
	feed->col = col;
	feed->run = r.name;
	model_begin_run(model);
	/* A fresh run may repeat the last (section, row) pair: forget it. */
	strbuf_reset(&feed->last_section);
	strbuf_addstr(&feed->last_section, "\n");
	strbuf_reset(&feed->last_row);
	feed->last_keep = 0;
	if (store_run_rounds(s, id, &rounds))
		goto out;
	model_set_rounds(model, col, rounds);
	if (k == 0) {
		struct run_experiment x = { .id = 0 };
		struct strbuf opts = STRBUF_INIT;

		if (store_run_work_options(s, id, &opts)) {
			strbuf_release(&opts);
			goto out;
		}
		model_set_options(model, col, opts.buf);
		strbuf_reset(&opts);
		if (store_run_work_values(s, id, &opts)) {
			strbuf_release(&opts);
			goto out;
		}
		model_set_work(model, col, opts.buf);
		strbuf_release(&opts);

		if (!store_each_meta(s, id, experiment_fact, &x)) {
			model_set_experiment(model, col, x.id, x.uuid, x.design);
			x.id = -1;
		}
		free(x.uuid);
		free(x.design);
		if (x.id != -1)
			goto out;
	}
	if (store_each_sample(s, id, feed_sample, feed) || feed->failed)
		goto out;
	if (store_each_row_result(s, id, feed_row_result, feed))
		goto out;
	if (model->monitors != CMP_MONITORS_NONE &&
	    (store_each_monitor(s, id, feed_monitor, feed) || feed->failed))
		goto out;
	rc = 0;
out:
	strbuf_release(&label);
	run_info_release(&r);
	return rc;
}

static int feed_history(const struct run_row_summary *r, void *arg)
{
	model_add_history(arg, r);
	return 0;
}

/* The runs one item of --noise-from names into *ids: "@A-@B" or "#A-#B"
 * (every stored id from A to B), or a selector. Returns 0, or -1 after
 * printing why. */
static int noise_item(struct store *s, const char *item, int64_t **ids, size_t *n,
		      size_t *alloc)
{
	long long a, b;
	int used = 0;
	struct strbuf err = STRBUF_INIT;
	int64_t id;

	if ((sscanf(item, "@%lld-@%lld%n", &a, &b, &used) == 2 ||
	     sscanf(item, "#%lld-#%lld%n", &a, &b, &used) == 2) && !item[used]) {
		if (a > b || a < 1)
			return error("invalid --noise-from range '%s'", item);
		for (long long k = a; k <= b; k++) {
			ALLOC_GROW(*ids, *n + 1, *alloc);
			(*ids)[(*n)++] = k;
		}
		return 0;
	}
	if (store_resolve_run(s, item, &id, &err)) {
		error("--noise-from: %s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	strbuf_release(&err);
	ALLOC_GROW(*ids, *n + 1, *alloc);
	(*ids)[(*n)++] = id;
	return 0;
}

/* The series of every compared run (runs of its host and config) into the
 * model's rows, for their between-run noise; with --noise-from, the runs
 * it names and the compared ones only. */
static int add_series(struct store *s, const struct column *cols, size_t ncols,
		      const struct compare_options *opt, struct cmp_model *model)
{
	int64_t *ids = NULL;
	size_t n = 0, alloc = 0;
	int rc = 0;

	for (size_t i = 0; i < ncols; i++)
		for (size_t k = 0; k < cols[i].n; k++) {
			ALLOC_GROW(ids, n + 1, alloc);
			ids[n++] = cols[i].ids[k];
		}
	for (size_t i = 0; i < opt->nnoise_from && !rc; i++) {
		for (const char *p = opt->noise_from[i]; *p && !rc;) {
			size_t len = strcspn(p, ",");
			char *item = xstrndup(p, len);

			if (len)
				rc = noise_item(s, item, &ids, &n, &alloc);
			free(item);
			p += len + (p[len] == ',');
		}
	}
	model->noise_pinned = opt->nnoise_from > 0;
	if (!rc)
		rc = store_each_run_row_summary(s, ids, n, opt->nnoise_from ? 0 : CMP_SERIES_RUNS,
						feed_history, model);
	free(ids);
	return rc;
}

/* Feed the runs of every column into model (started with ncols columns)
 * and finish it. Returns 0, or -1 after printing why. */
static int build_columns(struct store *s, const struct column *cols, size_t ncols,
			 const struct compare_options *opt, struct cmp_model *model)
{
	struct feed feed = {
		.model = model,
		.only = opt->only,
		.last_section = STRBUF_INIT,
		.last_row = STRBUF_INIT,
	};
	/* Each column's first run's name, read once: every label is checked
	 * against all of them. */
	char **names = xcalloc(ncols, sizeof(*names));
	int rc = -1;

	for (size_t i = 0; i < ncols; i++)
		if (store_run_name(s, cols[i].ids[0], &names[i]))
			goto out;
	for (size_t i = 0; i < ncols; i++)
		for (size_t k = 0; k < cols[i].n; k++)
			if (feed_run(s, cols, names, ncols, i, k, &feed))
				goto out;
	/* One column has nothing to test: no series to read. */
	if (ncols > 1 && model_uses_noise(model) && add_series(s, cols, ncols, opt, model))
		goto out;
	model_finish(model);
	if (opt->only && !model->nsections) {
		error("no section or row matches --only '%s'", opt->only_pattern);
		goto out;
	}
	rc = 0;
out:
	for (size_t i = 0; i < ncols; i++)
		free(names[i]);
	free(names);
	strbuf_release(&feed.last_section);
	strbuf_release(&feed.last_row);
	return rc;
}

static void start_model(struct cmp_model *model, size_t ncols,
			const struct compare_options *opt)
{
	const struct stats_test_desc *test = opt->test ? opt->test : stats_test_find("welch");

	model_init(model, ncols, test, opt->alpha ? opt->alpha : test->default_alpha);
	model->monitors = opt->monitors;
	model->order_config = opt->order_config;
	model->nstats = opt->nstats;
	memcpy(model->stats, opt->stats, opt->nstats * sizeof(*opt->stats));
	model->within_run = opt->within_run;
	model->paired_nested = opt->paired_nested;
	if (opt->noise_threshold > 0)
		model->noise_threshold = opt->noise_threshold;
	if (opt->margin_set)
		model->margin_pct = opt->margin_pct;
}

static void columns_free(struct column *cols, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(cols[i].ids);
		free(cols[i].hosts);
	}
	free(cols);
}

int compare_build(struct store *s, const char *const *selectors, size_t n,
		  const struct compare_options *opt, struct cmp_model *model)
{
	struct column *cols = xcalloc(n, sizeof(*cols));
	int rc = -1;

	start_model(model, n, opt);
	for (size_t i = 0; i < n; i++)
		if (column_runs(s, selectors[i], opt->pool, &cols[i]))
			goto out;
	rc = build_columns(s, cols, n, opt, model);
out:
	columns_free(cols, n);
	if (rc)
		model_release(model);
	return rc;
}

int compare_build_runs(struct store *s, const int64_t *run_ids, size_t n,
		       const struct compare_options *opt, struct cmp_model *model)
{
	struct column *cols = xcalloc(n, sizeof(*cols));
	int rc;

	for (size_t i = 0; i < n; i++) {
		cols[i].ids = xmalloc(sizeof(*cols[i].ids));
		cols[i].ids[0] = run_ids[i];
		cols[i].n = 1;
	}
	start_model(model, n, opt);
	rc = build_columns(s, cols, n, opt, model);
	columns_free(cols, n);
	if (rc)
		model_release(model);
	return rc;
}

int compare_format_parse(const char *name, enum compare_format *f)
{
	for (int i = 0; i < COMPARE_NFORMATS; i++)
		if (!strcmp(renderers[i].name, name)) {
			*f = i;
			return 0;
		}
	return -1;
}

int compare_render(const struct cmp_model *m, enum compare_format f, struct strbuf *out)
{
	if ((unsigned)f >= COMPARE_NFORMATS)
		return error("BUG: unknown comparison format %d", (int)f);
	return renderers[f].render(m, out);
}

int compare_runs_text(struct store *s, const int64_t *run_ids, size_t n,
		      struct strbuf *out)
{
	const struct compare_options opt = { .monitors = CMP_MONITORS_SUMMARY };
	struct cmp_model model;
	int rc;

	if (compare_build_runs(s, run_ids, n, &opt, &model))
		return -1;
	rc = compare_render(&model, COMPARE_FORMAT_TEXT, out);
	model_release(&model);
	return rc;
}

/* One row's replicates while kbench calibrate's runs are read. */
struct noise_row {
	char *section, *row, *unit;
	int higher_better;
	struct noise_replicate *reps;
	size_t n, alloc;
};

struct noise_rows {
	struct noise_row *rows;
	size_t n, alloc;
};

static int collect_noise_row(const struct run_row_summary *r, void *arg)
{
	struct noise_rows *all = arg;
	struct noise_row *row = NULL;
	double mean = r->higher_better ? r->inv_mean : r->mean;
	double m2 = r->higher_better ? r->inv_m2 : r->m2;

	for (size_t i = 0; i < all->n && !row; i++)
		if (!strcmp(all->rows[i].section, r->section) && !strcmp(all->rows[i].row, r->row))
			row = &all->rows[i];
	if (!row) {
		ALLOC_GROW(all->rows, all->n + 1, all->alloc);
		row = &all->rows[all->n++];
		*row = (struct noise_row){
			.section = xstrdup(r->section),
			.row = xstrdup(r->row),
			.unit = xstrdup(r->unit),
			.higher_better = r->higher_better,
		};
	}
	if (isnan(mean) || isnan(m2) || r->n < 1)
		return 0;	/* an Hmean row with a sample <= 0 */
	ALLOC_GROW(row->reps, row->n + 1, row->alloc);
	row->reps[row->n++] = (struct noise_replicate){
		.group = (size_t)r->group,
		.n = (size_t)r->n,
		.mean = mean,
		.m2 = m2 < 0 ? 0 : m2,
		.calibration = r->calibration,
	};
	return 0;
}

int compare_noise(struct store *s, const int64_t *run_ids, size_t n, double alpha,
		  int (*cb)(const struct compare_noise_row *r, void *arg), void *arg)
{
	struct noise_rows all = { .n = 0 };
	int rc = store_each_run_row_summary(s, run_ids, n, 0, collect_noise_row, &all);

	for (size_t i = 0; i < all.n; i++) {
		struct noise_row *row = &all.rows[i];
		struct compare_noise_row out = {
			.section = row->section,
			.row = row->row,
			.unit = row->unit,
			.higher_better = row->higher_better,
		};

		if (rc)
			break;
		noise_estimate(row->reps, row->n, &out.est);
		for (size_t k = 0; k < row->n; k++)
			if (!out.samples || row->reps[k].n < out.samples)
				out.samples = row->reps[k].n;
		out.mde_pct = 100 * noise_mde(out.est.between_var, out.est.df,
					      out.est.within_var, out.samples, 1, alpha,
					      NOISE_POWER) / fabs(out.est.mean);
		if (cb(&out, arg))
			break;
	}
	for (size_t i = 0; i < all.n; i++) {
		free(all.rows[i].section);
		free(all.rows[i].row);
		free(all.rows[i].unit);
		free(all.rows[i].reps);
	}
	free(all.rows);
	return rc;
}
