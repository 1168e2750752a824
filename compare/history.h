/* history: metrics over time. A series is one row of one section of one
 * config on one host, a point per complete run (its mean and 95% CI); the
 * change points of each series and its regressions (kbench history,
 * kbench regressions); render.h declares how they are shown. */
#ifndef KBENCH_HISTORY_H
#define KBENCH_HISTORY_H

#include "lib/changepoint.h"
#include "db/series.h"
#include "db/store.h"

#include <stddef.h>
#include <stdint.h>

/* One run of a series. The strings belong to the history, shared by the
 * points of one run. */
struct history_point {
	int64_t run_id;
	const char *uuid;
	const char *run_name;
	const char *kernel_release;
	const char *started_at;	/* UTC, ISO 8601 */
	size_t n;		/* samples */
	double mean;		/* Hmean when higher is better, else Amean */
	double ci95;		/* half-width of the mean's 95% CI; NaN below 2
				 * samples or without a mean */
	double best;		/* the best sample: Max when higher is better,
				 * else Min */
	/* What the run was asked to do and did (compare/work.h): its
	 * config text, work options, effective values and where it
	 * measured (store_run_kind: "" natively). */
	const char *config_text, *options, *values, *kind;
};

/* A series is one row of one section of one config on one host, of the
 * runs that measured the same work (run_work_differs): runs that did not
 * make series of their own, whose work says how they differ. */
struct history_series {
	char *host, *config, *section, *row, *unit;
	/* "" when no other series has the same host, config, section and
	 * row; else the effective values of the section in which this
	 * series differs from those, "KEY=VALUE, ..." (its latest run's),
	 * or when none is stored its options (or its first run). */
	char *work;
	int higher_better;
	struct history_point *points;	/* oldest first (start time, then id) */
	size_t npoints, alloc;
	struct changepoint *cps;	/* cps[i].index indexes points */
	size_t ncps;
};

/* The per-run value a series' change points are found on: the run's best
 * sample (the default: interference only slows a run, so its best sample
 * moves with the kernel and not with the machine's slow spells) or its
 * mean. docs/statistics.md section 8 says why. */
enum history_stat {
	HISTORY_STAT_BEST,
	HISTORY_STAT_MEAN,
};

/* The series read, in order of first appearance; after history_finish
 * the series of one host, config, section and row (split by their work)
 * are next to each other, in order of their first run. */
struct history {
	struct history_series *series;
	size_t n, alloc;
	struct changepoint_params params;
	enum history_stat stat;
	/* Series by key while reading: a series index + 1, 0 when free. */
	size_t *slots;
	size_t nslots;
	/* The strings of the runs read, one block a run. */
	char **run_strings;
	size_t nrun_strings, run_strings_alloc;
};

/* Start an empty history whose change points will be found with params,
 * on the best sample of each run. */
void history_init(struct history *h, const struct changepoint_params *params);
/* --statistic's text, "best" or "mean", into *stat. Returns 0, or -1
 * after printing why. */
int history_stat_parse(const char *name, enum history_stat *stat);
/* h's statistic as --statistic names it: "best" or "mean". */
const char *history_stat_option(const struct history *h);
/* The names of a series' per-run mean ("Hmean" when higher is better, else
 * "Amean") and best sample ("Max", else "Min"), and of the one of them
 * change points are found on in h. */
const char *history_mean_name(const struct history_series *hs);
const char *history_best_name(const struct history_series *hs);
const char *history_stat_name(const struct history *h, const struct history_series *hs);
/* The value of point p for its series' change points (NaN: none). */
double history_point_value(const struct history *h, const struct history_point *p);
/* The change point parameters kbench history and regressions take as
 * option text, --p-value, --window and --min-change (a percentage; NULL:
 * not given), into params. Returns 0, or -1 after printing why. */
int history_params_parse(const char *pvalue, const char *window, const char *min_change,
			 struct changepoint_params *params);
/* Add the series matching f from the store (a series read before is not
 * read twice). Returns 0, or -1 after printing why. */
int history_read(struct store *s, const struct series_filter *f, struct history *h);
/* Put each series' points in time order, split it where its runs
 * measured different work (each run joins the latest series of its
 * host, config, section and row whose last run did the same work, else
 * starts one; compare/work.h decides) and find the change points of
 * each. Nothing is read after. */
void history_finish(struct history *h);
void history_release(struct history *h);

/* The direction-normalised change of a change point in percent (of the
 * per-run values it was found on), as kbench compare shows a change
 * (positive: better). */
double history_change_pct(const struct history_series *hs, const struct changepoint *cp);
/* Whether a change point makes the metric worse. */
int history_change_worse(const struct history_series *hs, const struct changepoint *cp);

/* A series whose metric got worse: its latest change point for the worse. */
struct history_regression {
	const struct history_series *series;
	const struct changepoint *cp;
};

/* For every series of h, the latest change point that makes it worse and
 * whose first run started at or after since (NULL: any), into *out
 * (malloc'd; NULL when none); returns how many. */
size_t history_regressions(const struct history *h, const char *since,
			   struct history_regression **out);

/* Where the runs of a host, config, section and row started measuring
 * other work (history_finish split their series there): the first run
 * of the newer series, and the run before it and its series. */
struct history_work_change {
	const struct history_series *before_series, *after_series;
	const struct history_point *before, *after;
};

/* For every host, config, section and row of h whose runs measured more
 * than one work, where its newest series starts (the latest change to
 * work not measured before), when that run started at or after since
 * (NULL: any), into *out (malloc'd; NULL when none), in the order of h's
 * series; returns how many. */
size_t history_work_changes(const struct history *h, const char *since,
			    struct history_work_change **out);

#endif
