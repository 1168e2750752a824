/* compare: a comparison end to end: run selectors resolved in the store,
 * columns pooled and labelled, --only applied, samples and monitor values
 * fed into a finished model, and the model rendered in a named format. */
#ifndef KBENCH_COMPARE_H
#define KBENCH_COMPARE_H

#include "compare/model.h"
#include "compare/render.h"

#include <stddef.h>
#include <stdint.h>

struct kb_regex;
struct store;
struct strbuf;

/* The between-run noise of a row is estimated from the compared runs and
 * the latest this many complete runs of each one's series (host and
 * config): enough for its degrees of freedom, and a bound on what a
 * comparison reads however large the store grows. */
#define CMP_SERIES_RUNS 20

/* How to compare; all zero is the default comparison. */
struct compare_options {
	const struct stats_test_desc *test;	/* NULL: Welch's t-test */
	double alpha;				/* 0: the test's default */
	/* Each column takes every complete run with the name of the run its
	 * selector picks (kbench compare --pool), made on the same host as
	 * that run; a NAME@* selector pools every host. */
	int pool;
	/* Keep only the sections and rows whose name matches; compiled by the
	 * caller, so that a bad pattern is found with the other arguments.
	 * NULL: keep everything. only_pattern is the text, for messages. */
	const struct kb_regex *only;
	const char *only_pattern;
	enum cmp_monitors monitors;
	/* Rows in the order they were measured, not numeric (--order config). */
	int order_config;
	/* The statistic rows shown (--stats), in order; 0: all. */
	enum cmp_stat stats[CMP_NSTATS];
	size_t nstats;
	/* Decide on within-run variance only, ignoring between-run noise
	 * (kbench compare --within-run). */
	int within_run;
	/* The arms of an experiment are tested with the nested model, the
	 * samples within the rounds pooled in when they can be (kbench
	 * compare --paired nested); 0: the paired t of the rounds' means. */
	int paired_nested;
	/* CoeffVar in % above which a mean is marked noisy; 0: the default,
	 * CMP_NOISE_THRESHOLD. */
	double noise_threshold;
	/* See CMP_MARGIN_PCT; used when margin_set (compare --margin). */
	double margin_pct;
	int margin_set;
	/* Pin the between-run noise to these runs and the compared ones
	 * (compare --noise-from): selectors, or "@A-@B" ranges of ids, each
	 * string a comma-separated list of them; nnoise_from 0: the latest
	 * CMP_SERIES_RUNS of each compared run's series. */
	const char *const *noise_from;
	size_t nnoise_from;
};

/* Build the comparison of the runs that selectors[0..n-1] name, the first
 * the baseline (selectors as store_resolve_run takes them). Columns whose
 * runs share a name are labelled "NAME#ID". Returns 0 with model finished
 * (the caller releases it with model_release), or -1 after printing why
 * (no such run, a store error, nothing matching --only), with model
 * released. */
int compare_build(struct store *s, const char *const *selectors, size_t n,
		  const struct compare_options *opt, struct cmp_model *model);

/* Build the comparison of runs run_ids[0..n-1], one run a column, the
 * first the baseline, with opt (opt->pool is not looked at): what
 * compare_build does once its selectors are resolved. Returns as
 * compare_build does. */
int compare_build_runs(struct store *s, const int64_t *run_ids, size_t n,
		       const struct compare_options *opt, struct cmp_model *model);

/* kbench compare --per-host: for each host that has a complete run named
 * base and one named new (imported from a fleet), the comparison of the
 * two (selectors "base@HOST", "new@HOST"), in format f (text, brief or
 * html), appended to out: text lines are prefixed with "HOST-" (empty
 * ones stay empty) and the host's title line with "HOST:", as
 * per-machine tables are posted on linux-mm; then a summary line per
 * section counting the hosts on which the mean rows are better, worse or
 * within noise, and the footer. As html, one page: the summary first,
 * the hosts linked to their parts, each part as compare --format html
 * shows a comparison. Hosts are in
 * name order. Returns 0, or -1 after printing why (no host has both runs,
 * a store error). */
int compare_per_host(struct store *s, const char *base, const char *new_name,
		     const struct compare_options *opt, enum compare_format f,
		     struct strbuf *out);
struct plot_page;
/* compare_per_host's html without the page's frame, for a page of more
 * (the fleet report): its charts counted on pg. */
int compare_per_host_html(struct store *s, const char *base, const char *new_name,
			  const struct compare_options *opt, struct plot_page *pg,
			  struct strbuf *out);

/* The format named name ("text", "markdown", "csv", "json", "brief",
 * "html"); returns 0, or -1 without printing when there is none by that
 * name. */
int compare_format_parse(const char *name, enum compare_format *f);

/* Render a finished model in format f, appended to out. Returns 0, or -1
 * after printing why. */
int compare_render(const struct cmp_model *m, enum compare_format f, struct strbuf *out);

/* The default comparison of runs run_ids[0..n-1] (one column each, the
 * first the baseline) as text, appended to out: what kbench run prints
 * when a run ends. Returns 0, or -1 after printing why. */
int compare_runs_text(struct store *s, const int64_t *run_ids, size_t n,
		      struct strbuf *out);

/* The between-run noise of one row of a set of runs, as kbench calibrate
 * prints it. Statistics are on the test's scale (1/x for an Hmean row);
 * the MDE is in % of its mean. */
struct compare_noise_row {
	const char *section;
	const char *row;
	const char *unit;
	int higher_better;
	struct noise_estimate est;	/* est.run_cv: the spread of run means */
	size_t samples;		/* per run (the smallest) */
	double mde_pct;		/* at `samples` samples and one run a side */
};

/* Estimate the noise of every row of the complete runs run_ids[0..n-1]
 * alone (not their series), with the default test at alpha; call cb for
 * each row in stored order (cb returning non-zero stops). Returns 0, or
 * -1 after printing why. */
int compare_noise(struct store *s, const int64_t *run_ids, size_t n, double alpha,
		  int (*cb)(const struct compare_noise_row *r, void *arg), void *arg);

#endif
