/* cmd_compare: kbench compare BASE NEW [NEW...]: resolves the runs, feeds
 * their samples into the comparison model and prints it in the chosen
 * format. */
#include "config.h"
#include "harness/cmd.h"
#include "lib/error.h"
#include "lib/regex.h"
#include "lib/strbuf.h"
#include "compare/model.h"
#include "db/store.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char compare_usage[] =
	"usage: kbench compare [options] BASE NEW [NEW...]\n"
	"\n"
	"Compare runs side by side in mmtests' table layout. BASE is the baseline;\n"
	"each run is a name (its latest complete run), #ID, a uuid prefix or\n"
	"NAME@HOST (the latest complete run of NAME on HOST).\n"
	"Per section: Min, Amean or Hmean, Stddev, CoeffVar, Max and the mean of\n"
	"the best 95% of samples, with the change against BASE in percent.\n"
	"Positive % = better. A significant change of the mean row prints\n"
	"*  x.xx%* instead of (  x.xx%); fewer than 3 samples a side: no star.\n"
	"\n"
	"  --format FMT   text (default), markdown, csv or json (every statistic,\n"
	"                 p-values and raw samples; carries a format version)\n"
	"  --test TEST    welch: Welch's t-test, on 1/x for Hmean rows (default)\n"
	"                 mwu: Mann-Whitney U, two-sided (exact for small samples\n"
	"                      without ties, else normal approximation)\n"
	"                 ci: mmtests' rule, mean +- 1.96 sd intervals apart\n"
	"                 ttest: mmtests' 2018-2024 t-test (df n1+n2-2)\n"
	"  --alpha A      significance level, 0 < A < 1 (default 0.05; ttest 0.10)\n"
	"  --pool         pool the samples of every complete run with the same\n"
	"                 name as each given run into its column\n"
	"  --only REGEX   keep sections or rows whose name matches (PCRE2)\n"
	"  --monitors M   the monitor totals after each section (Ops block):\n"
	"                 summary (default: faults, context switches, perf\n"
	"                 events, slab growth), all (every stored key), or none\n"
	"  -h, --help     this text\n"
	"\n"
	"The formulas are in docs/statistics.md.\n";

struct feed {
	struct cmp_model *model;
	size_t col;
	const struct kb_regex *only;
	/* The last (section, row) decision, since samples of a row come
	 * together: one match per row instead of one per sample. */
	struct strbuf last_section, last_row;
	int last_keep;
	int failed;
};

static int feed_sample(const struct sample_row *r, void *arg)
{
	struct feed *f = arg;

	if (f->only) {
		if (strcmp(f->last_section.buf, r->section) || strcmp(f->last_row.buf, r->row)) {
			strbuf_reset(&f->last_section);
			strbuf_addstr(&f->last_section, r->section);
			strbuf_reset(&f->last_row);
			strbuf_addstr(&f->last_row, r->row);
			f->last_keep = kb_regex_match(f->only, r->section) ||
				kb_regex_match(f->only, r->row);
		}
		if (!f->last_keep)
			return 0;
	}
	model_add_sample(f->model, f->col, r);
	return 0;
}

static int feed_monitor(const struct monitor_row *r, void *arg)
{
	struct feed *f = arg;

	if (f->only && !kb_regex_match(f->only, r->section) && !kb_regex_match(f->only, r->row))
		return 0;
	model_add_monitor(f->model, f->col, r);
	return 0;
}

/* Resolve one selector to the run ids of its column. */
static int column_runs(struct store *s, const char *sel, int pool, int64_t **ids, size_t *n)
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
		if (store_get_run(s, id, &r))
			goto out;
		rc = store_runs_named(s, r.name, ids, n);
		run_info_release(&r);
		if (rc == 0 && !*n) {
			/* The selector named an unfinished run: pool just it. */
			free(*ids);
			*ids = NULL;
		}
		if (rc || *n)
			goto out;
		rc = -1;
	}
	*ids = malloc(sizeof(**ids));
	if (!*ids)
		goto out;
	(*ids)[0] = id;
	*n = 1;
	rc = 0;
out:
	strbuf_release(&err);
	return rc;
}

/* Columns that would read the same get the run id appended. */
static int label_for(struct store *s, int nsel, int i, const struct run_info *r,
		     const int64_t *first_ids, struct strbuf *label)
{
	strbuf_addstr(label, r->name);
	for (int j = 0; j < nsel; j++) {
		struct run_info o;
		int same;

		if (j == i)
			continue;
		if (store_get_run(s, first_ids[j], &o))
			return -1;
		same = !strcmp(o.name, r->name);
		run_info_release(&o);
		if (same) {
			strbuf_addf(label, "#%lld", (long long)r->id);
			break;
		}
	}
	return 0;
}

static int parse_alpha(const char *s, double *alpha)
{
	char *end;
	double a = strtod(s, &end);

	if (!*s || *end || !(a > 0 && a < 1))
		return error("invalid --alpha '%s': expected a number between 0 and 1", s);
	*alpha = a;
	return 0;
}

/* Feed the runs of every column into model and finish it. Returns 0, or
 * -1 after printing why. */
static int build_model(struct store *store, struct cmp_model *model, int ncol,
		       int64_t *const *ids, const size_t *nids, const int64_t *first_ids,
		       const struct kb_regex *only, const char *only_pattern)
{
	struct feed feed = { 0 };
	int rc = -1;

	feed.model = model;
	feed.only = only;
	for (int i = 0; i < ncol; i++) {
		for (size_t k = 0; k < nids[i]; k++) {
			struct run_info r;
			struct strbuf label = STRBUF_INIT;
			int bad;

			if (store_get_run(store, ids[i][k], &r))
				goto out;
			bad = k == 0 && label_for(store, ncol, i, &r, first_ids, &label);
			if (!bad)
				model_set_run(model, i, label.buf, r.id, r.uuid, r.hostname,
					      r.cpu_model, r.cpus, r.kernel_release,
					      r.kernel_cmdline, r.config_name, r.config_text);
			strbuf_release(&label);
			run_info_release(&r);
			if (bad)
				goto out;
			feed.col = i;
			model_begin_run(model);
			strbuf_reset(&feed.last_section);
			strbuf_reset(&feed.last_row);
			/* A fresh run may repeat the last (section, row) pair. */
			feed.last_keep = 0;
			strbuf_addstr(&feed.last_section, "\n");
			if (store_each_sample(store, ids[i][k], feed_sample, &feed) || feed.failed)
				goto out;
			if (model->monitors != CMP_MONITORS_NONE &&
			    (store_each_monitor(store, ids[i][k], feed_monitor, &feed) || feed.failed))
				goto out;
		}
	}
	model_finish(model);
	if (only && !model->nsections) {
		error("no section or row matches --only '%s'", only_pattern);
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&feed.last_section);
	strbuf_release(&feed.last_row);
	return rc;
}

int compare_runs_text(struct store *store, const int64_t *run_ids, size_t n,
		      struct strbuf *out)
{
	const struct stats_test_desc *test = stats_test_find("welch");
	struct cmp_model model;
	int64_t **ids = calloc(n, sizeof(*ids));
	size_t *nids = calloc(n, sizeof(*nids));
	int rc = -1;

	if (!ids || !nids) {
		free(ids);
		free(nids);
		return error("out of memory");
	}
	model_init(&model, n, test, test->default_alpha);
	for (size_t i = 0; i < n; i++) {
		ids[i] = (int64_t *)&run_ids[i];
		nids[i] = 1;
	}
	if (!build_model(store, &model, (int)n, ids, nids, run_ids, NULL, NULL))
		rc = render_text(&model, out);
	model_release(&model);
	free(ids);
	free(nids);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "test", required_argument, NULL, 't' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "pool", no_argument, NULL, 'p' },
		{ "only", required_argument, NULL, 'o' },
		{ "monitors", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const struct renderer *render = renderer_find("text");
	const struct stats_test_desc *test = stats_test_find("welch");
	struct kb_regex *only = NULL;
	const char *only_pattern = NULL;
	struct store *store = NULL;
	struct cmp_model model;
	struct strbuf out = STRBUF_INIT;
	int64_t **ids = NULL, *first_ids = NULL;
	size_t *nids = NULL;
	double alpha = NAN;
	enum cmp_monitors monitors = CMP_MONITORS_SUMMARY;
	int opt, pool = 0, nsel, rc = 2, have_model = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (!(render = renderer_find(optarg))) {
				error("unknown format '%s' (expected text, markdown, csv or json)",
				      optarg);
				goto out;
			}
			break;
		case 't':
			if (!(test = stats_test_find(optarg))) {
				error("unknown test '%s' (expected welch, mwu, ci or ttest)", optarg);
				goto out;
			}
			break;
		case 'a':
			if (parse_alpha(optarg, &alpha))
				goto out;
			break;
		case 'p':
			pool = 1;
			break;
		case 'o':
			kb_regex_free(only);
			if (!(only = kb_regex_new(optarg, "--only")))
				goto out;
			only_pattern = optarg;
			break;
		case 'm':
			if (!strcmp(optarg, "none")) {
				monitors = CMP_MONITORS_NONE;
			} else if (!strcmp(optarg, "summary")) {
				monitors = CMP_MONITORS_SUMMARY;
			} else if (!strcmp(optarg, "all")) {
				monitors = CMP_MONITORS_ALL;
			} else {
				error("invalid --monitors '%s': expected none, summary or all", optarg);
				goto out;
			}
			break;
		case 'h':
			fputs(compare_usage, stdout);
			rc = 0;
			goto out;
		default:
			fputs(compare_usage, stderr);
			goto out;
		}
	}
	nsel = argc - optind;
	if (nsel < 2) {
		error("compare needs a baseline and at least one run to compare with it");
		fputs(compare_usage, stderr);
		goto out;
	}
	if (isnan(alpha))
		alpha = test->default_alpha;
	rc = 1;
	if (cmd_open_store(&store))
		goto out;
	ids = calloc(nsel, sizeof(*ids));
	nids = calloc(nsel, sizeof(*nids));
	first_ids = calloc(nsel, sizeof(*first_ids));
	if (!ids || !nids || !first_ids) {
		error("out of memory");
		goto out;
	}
	model_init(&model, nsel, test, alpha);
	have_model = 1;
	model.monitors = monitors;
	for (int i = 0; i < nsel; i++) {
		if (column_runs(store, argv[optind + i], pool, &ids[i], &nids[i]))
			goto out;
		first_ids[i] = ids[i][0];
	}
	if (build_model(store, &model, nsel, ids, nids, first_ids, only, only_pattern))
		goto out;
	render->render(&model, &out);
	fwrite(out.buf, 1, out.len, stdout);
	rc = fflush(stdout) ? 1 : 0;
out:
	if (have_model)
		model_release(&model);
	for (int i = 0; ids && i < argc - optind; i++)
		free(ids[i]);
	free(ids);
	free(nids);
	free(first_ids);
	strbuf_release(&out);
	kb_regex_free(only);
	store_close(store);
	return rc;
}
