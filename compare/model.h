/* model: the comparison of runs, built once (sections -> rows -> one cell
 * per compared column with its statistics, % and significance, then
 * blocks such as Duration); the renderers only format it. */
#ifndef KBENCH_MODEL_H
#define KBENCH_MODEL_H

#include "compare/decide.h"
#include "compare/facts.h"
#include "compare/noise.h"
#include "compare/stats.h"

#include <stddef.h>
#include <stdint.h>

struct monitor_row;
struct row_result;
struct run_row_summary;
struct sample_row;

/* The statistic rows of a section, in mmtests' block order. */
enum cmp_stat {
	CMP_MIN,
	CMP_MEAN,
	CMP_STDDEV,
	CMP_COEFFVAR,
	CMP_MAX,
	CMP_BMEAN95,
	CMP_NSTATS
};

struct cmp_stat_desc {
	const char *lower_name;		/* row name when lower is better */
	const char *higher_name;	/* row name when higher is better */
	const char *key;		/* machine-readable name (csv, json) */
	int spread;			/* less is better whatever the metric */
};

extern const struct cmp_stat_desc cmp_stats[CMP_NSTATS];

/* The value of statistic st in a summary, for the metric's direction. */
double cmp_stat_value(const struct stats_summary *s, enum cmp_stat st);
const char *cmp_stat_name(enum cmp_stat st, int higher_better);

/* One column of the table: a run, or every run of a name with --pool. */
struct cmp_run {
	char *label;		/* the run name as shown */
	char *head1, *head2;	/* label split at its first '-' */
	char *note;		/* the (first) run's note; NULL: none */
	size_t nruns;		/* runs pooled into this column */
	int64_t *ids;		/* their store ids */
	char **uuids;
	size_t ids_alloc, uuids_alloc;
	/* Facts of the (first) run, compared in the header. */
	struct run_facts facts;
	int rounds;		/* the most repeat rounds of its runs (1: none) */
	/* iterations = auto: rows (and rounds) that stopped, those that met
	 * their target, the targets and the sample counts reached. */
	size_t adaptive_rows, adaptive_met;
	double ci_target_lo, ci_target_hi;	/* fractions */
	int adaptive_n_lo, adaptive_n_hi;
	/* The A/B experiment (kbench ab) the run is an arm of: its uuid
	 * (NULL: none) and its id in the store it was read from. */
	char *experiment_uuid;
	int64_t experiment_id;
	/* Its design when sequential (kbench ab --rounds auto), as the fact
	 * experiment-design holds it (compare/sequential.h's seq_plan);
	 * NULL: a fixed number of rounds. */
	char *experiment_design;
};

struct cmp_cell {
	double *samples;	/* in measurement order */
	size_t n, alloc;
	struct stats_summary s;
	double pct[CMP_NSTATS];			/* vs the baseline, + is better */
	struct stats_test_result test;		/* of the mean row, vs the baseline */
	/* Where each replicate's samples end: one run each (several in a
	 * pooled column), on samples[]. */
	size_t *rep_end;
	unsigned *rep_run;	/* the model's run_seq of each replicate:
				 * replicates of one run are its rounds */
	size_t nrep, rep_alloc, rep_run_alloc;
	unsigned rep_seq;	/* the model's run_seq when the last one began */
	int rep_round;		/* the round of the last replicate */
	/* iterations = auto: the samples the row reached (over its rounds)
	 * and whether every round met the target; adaptive 0: none. */
	int adaptive, adaptive_n, adaptive_met;
	/* How the mean row was tested and what the test says: written by
	 * decide_cell alone (compare/decide.h). */
	enum cmp_method method;
	enum cmp_verdict verdict;
	/* CoeffVar above the model's threshold, or fewer than 3 samples:
	 * the mean is marked ~. */
	int noisy;
	/* The round of each sample (samples[i] was measured in round
	 * rounds[i]), which the paired test pairs. */
	int *rounds;
	size_t rounds_alloc;
	/* The smallest change the test detects (power NOISE_POWER), in % of
	 * the baseline's mean; NaN: unknown. */
	double mde_pct;
	/* Paired: the rounds that would detect CMP_TARGET_PCT at power
	 * NOISE_POWER (0: more than CMP_MAX_ROUNDS_NEEDED). */
	size_t rounds_needed;
	/* Paired in an experiment with a sequential design (m->seq): the
	 * look's decision (enum seq_decision), its bound on |t|, and its
	 * repeated confidence interval of the change in % of the baseline's
	 * mean (+ is better); seq_rounds_needed as seq_look's. seq_look is
	 * the look's index + 1, 0: none. */
	int seq_look, seq_decision, seq_rounds_needed;
	double seq_bound, seq_lo_pct, seq_hi_pct;
	/* Paired with the nested model (m->paired_nested): whether the
	 * samples' variance was pooled in, and the p of the test for
	 * round-by-arm noise (NaN: none, the samples have no spread to
	 * test it with); compare/paired.h's paired_nested_test. */
	int nested, pooled;
	double interaction_p;
};

struct cmp_row {
	char *label;
	char *unit;
	int higher_better;
	int decimals;		/* 4 for second-scale times, else 2 */
	struct cmp_cell *cells;	/* one per column */
	/* The row's series: stored runs of the compared runs' hosts and
	 * configs, one replicate each, grouped by what they measured (host,
	 * config, kernel); on the test's scale. */
	struct noise_replicate *hist;
	size_t nhist, hist_alloc;
	struct noise_estimate noise;
	/* Runs a side that would detect a change of CMP_TARGET_PCT at
	 * power NOISE_POWER with the baseline's rounds and samples (0: more
	 * than CMP_MAX_RUNS_NEEDED, or the noise unknown). */
	size_t runs_needed;
	/* The smallest change of the mean the decision in use detects
	 * (power NOISE_POWER), in % of the baseline's mean, with the
	 * baseline's runs and samples on each side; NaN when untold. */
	double mde_pct;
};

/* A table of plain values per column after a section's statistics, with no
 * percentage (as mmtests' monitor tables): Duration (User, System,
 * Elapsed), then Ops (the monitors' values, a mean per sample). */
struct cmp_block {
	char *name;		/* the row prefix, e.g. "Duration" */
	const char *title;	/* what the values are, e.g. "mean per sample";
				 * NULL: none */
	size_t nkeys;
	char **keys;		/* e.g. "User" */
	double *values;		/* nkeys x ncolumns, row-major; NaN: the
				 * column has none */
	const char *unit;	/* static text, e.g. "s" */
	int decimals;
};

/* Which monitor totals follow a section (compare --monitors). */
enum cmp_monitors {
	CMP_MONITORS_SUMMARY = 0,	/* faults, switches, perf events, slab growth */
	CMP_MONITORS_NONE,
	CMP_MONITORS_ALL,		/* every stored key, vmstat's included */
};

/* One monitor key of a section being summed, per column. */
struct cmp_monitor {
	char *source, *key;
	double *sum;		/* one per column: total over its samples */
	size_t *n;		/* one per column: the samples that recorded it */
};

struct cmp_section {
	char *name;
	char *workload;
	struct cmp_row *rows;
	size_t nrows, alloc;
	struct cmp_block *blocks;
	size_t nblocks, blocks_alloc;
	/* Rusage of the distinct sample sets, per column (ns). */
	int64_t *user_ns, *sys_ns, *elapsed_ns;
	struct cmp_monitor *mons;
	size_t nmons, mons_alloc, monhint;
};

/* What the cells marked "cannot tell" could have detected, for footers. */
struct cmp_cannot_tell {
	size_t cells;		/* cells marked ? */
	size_t unknown;		/* of them, without between-run noise */
	size_t nmde;		/* of them, with a minimum detectable change */
	double mde_lo, mde_hi, mde_median;	/* % of the baseline's mean */
	/* Runs a side to detect CMP_TARGET_PCT, over their rows (0: none);
	 * need_none: rows with known noise that would need more than
	 * CMP_MAX_RUNS_NEEDED. */
	size_t need_lo, need_hi, need_none;
	/* Of the cells, those paired by round (an A/B experiment's arms),
	 * and the rounds that would detect CMP_TARGET_PCT over them
	 * (rounds_none: more than CMP_MAX_ROUNDS_NEEDED). */
	size_t paired, rounds_lo, rounds_hi, rounds_none;
};

struct cmp_model {
	struct cmp_run *runs;
	size_t nruns;		/* columns; runs[0] is the baseline */
	struct cmp_section *sections;
	size_t nsections, alloc;
	struct cmp_fact *facts;	/* those not the same in every column */
	size_t nfacts;
	const struct stats_test_desc *test;
	double alpha;
	enum cmp_monitors monitors;	/* set before adding monitor values */
	/* Rows keep the order of their first appearance (compare --order
	 * config) instead of the numeric order model_finish sorts them in. */
	int order_config;
	/* The statistic rows the text formats show, in this order (compare
	 * --stats); none given: all of them, in mmtests' order. */
	enum cmp_stat stats[CMP_NSTATS];
	size_t nstats;
	/* Decide on within-run variance only, as before between-run noise
	 * (compare --within-run); set before model_finish. */
	int within_run;
	/* A mean whose CoeffVar exceeds this (%) is marked noisy. */
	double noise_threshold;
	/* See CMP_MARGIN_PCT (compare --margin). */
	double margin_pct;
	/* The runs the rows' between-run noise was read from, ascending (the
	 * compared runs among them): --noise-from with these gives the same
	 * noise later, whatever is stored since. */
	int64_t *noise_runs;
	size_t nnoise_runs, noise_runs_alloc;
	struct cmp_cannot_tell cannot_tell;
	/* The noise was pinned (compare --noise-from). */
	int noise_pinned;
	/* Columns measured different work than the baseline
	 * (run_work_differs): why, WORK_OPTIONS and WORK_CONFIG as their
	 * options or config texts differ from the baseline's; 0 when none
	 * did. */
	unsigned different_work;
	/* Some column measured on another kind than the baseline (natively,
	 * in a guest of another accelerator, vCPU count or memory:
	 * run_kinds_differ). */
	int different_kinds;
	unsigned run_seq;	/* counts model_begin_run calls */
	/* The run being fed has 3 rounds or more: each round of a row is a
	 * replicate of it (model_set_rounds). */
	int split_rounds;
	/* The columns are the arms of one A/B experiment: the mean rows are
	 * tested paired by round, as paired_title says (NULL: not). */
	char *paired_title;
	/* The arms' experiment has a sequential design: the paired test of
	 * a mean row reads its t against the design's bound at the look of
	 * its rounds (compare/sequential.h), with equivalence bound
	 * seq_equivalence_pct; NULL: the fixed design's Student t. */
	struct seq_design *seq;
	double seq_equivalence_pct;
	/* The paired test uses the samples within the rounds too (compare
	 * --paired nested; compare/paired.h); set before model_finish. */
	int paired_nested;
	struct {		/* the row model_add_history found last */
		struct cmp_section *section;
		size_t row;
	} hist_hint;
	/* Where the next sample of each column goes, and the last sample set
	 * seen, to count each set's rusage once. */
	struct cmp_section *last_section;
	struct cmp_row *last_row;
	struct {
		const struct cmp_section *section;
		int iteration;
		int64_t duration_ns, user_ns, sys_ns;
	} last_set;
};

/* Start a model with ncolumns columns; the test and alpha are used by
 * model_finish. */
void model_init(struct cmp_model *m, size_t ncolumns,
		const struct stats_test_desc *test, double alpha);
void model_release(struct cmp_model *m);

/* Name column col (label split into the two header lines) and record its
 * facts; later calls for a pooled column add run ids. All strings are
 * copied; NULL reads as "". */
void model_set_run(struct cmp_model *m, size_t col, const char *label,
		   int64_t id, const char *uuid, const char *hostname,
		   const char *cpu_model, int cpus, const char *kernel_release,
		   const char *kernel_cmdline, const char *config_name,
		   const char *config_text);

/* How column col's (first) run was run in a guest under QEMU (kbench
 * vm): "TCG, 2 vCPUs, 512 MiB"; NULL or "": natively. */
void model_set_vm(struct cmp_model *m, size_t col, const char *vm);
/* Where column col's (first) run measured (store_run_kind); copied. */
void model_set_kind(struct cmp_model *m, size_t col, const char *kind);
/* The guest that column col's (first) run measured in (kbench vm), as
 * the guest saw itself: its CPU model, CPUs, NUMA nodes and memory (0:
 * not known). The CPU and machine facts set so far become the host's. */
void model_set_guest(struct cmp_model *m, size_t col, const char *cpu_model, int cpus,
		     int nodes, uint64_t mem_bytes);
/* The note of column col's (first) run; NULL or "": none. */
void model_set_note(struct cmp_model *m, size_t col, const char *note);
/* The effective options of column col's (first) run that change the work
 * (store_run_work_options), one a line; copied. */
void model_set_options(struct cmp_model *m, size_t col, const char *options);
/* The effective values of column col's (first) run that change the work
 * (store_run_work_values); copied. */
void model_set_work(struct cmp_model *m, size_t col, const char *work);

/* The machine of column col's (first) run: its cores, NUMA nodes and
 * memory (0: not known). */
void model_set_machine(struct cmp_model *m, size_t col, int cores, int nodes,
		       uint64_t mem_bytes);

/* Tell the model a new run's samples start (resets sample-set tracking). */
void model_begin_run(struct cmp_model *m);

/* The run being fed into column col (after model_begin_run) went
 * through its plan `rounds` times: with 3 or more, its rounds are the
 * replicates of its rows. */
void model_set_rounds(struct cmp_model *m, size_t col, int rounds);

/* Column col's run is an arm of the A/B experiment uuid (id in its
 * store); uuid NULL: none. */
void model_set_experiment(struct cmp_model *m, size_t col, int64_t id, const char *uuid,
			  const char *design);

/* How a row of column col's run stopped with iterations = auto. */
void model_add_row_result(struct cmp_model *m, size_t col, const struct row_result *rr);

/* Add one sample of column col. Sections and rows keep their order of
 * first appearance. */
void model_add_sample(struct cmp_model *m, size_t col, const struct sample_row *r);

/* Add one stored monitor value of column col to its section's totals
 * (the section must have samples already: add a run's samples first).
 * Deltas add up; a before and after pair adds up to its growth, under
 * the key the two share up to its last ':'; maxima and fractions, per-
 * section values (iteration 0) and values m->monitors leaves out are
 * ignored. */
void model_add_monitor(struct cmp_model *m, size_t col, const struct monitor_row *r);

/* Compute statistics, percentages, tests, blocks and differing facts, and
 * put each section's rows in numeric order (unless m->order_config): rows
 * whose labels differ only in their last number ("send-64", "send-1024")
 * are grouped in the order the first of each group appeared, and sorted
 * by that number within the group. */
void model_finish(struct cmp_model *m);

/* The statistic rows named in list, separated by commas, into stats[]
 * (deduplicated, in the order given): min, amean, hmean or mean (the
 * mean row, whatever the metric's direction), stddev, coeffvar, max,
 * bmean-95; an H in front (hstddev) or an A or H in bmean-95 (bamean-95)
 * as the rows are named is also taken. Returns the count, or -1 after
 * printing which name is unknown. */
int cmp_stats_parse(const char *list, enum cmp_stat stats[CMP_NSTATS]);
/* The statistic rows m shows, in order, into stats[]; returns the count. */
size_t cmp_stats_shown(const struct cmp_model *m, enum cmp_stat stats[CMP_NSTATS]);

/* A mean row that is not significant reads "within noise" only when the
 * test would have detected a change of this many % (or of the change
 * seen, if larger) at power NOISE_POWER; otherwise "cannot tell". */
#define CMP_MARGIN_PCT 5.0
/* The change the footer says how many runs a side would detect. */
#define CMP_TARGET_PCT 10.0
#define CMP_MAX_RUNS_NEEDED 20
#define CMP_MAX_ROUNDS_NEEDED 200

/* The default CoeffVar (%) above which a mean is marked noisy. */
#define CMP_NOISE_THRESHOLD 5.0

/* Add one stored run's summary of a row to the row's series (the
 * between-run noise); rows the model does not have are ignored. Call
 * after the samples, before model_finish. */
void model_add_history(struct cmp_model *m, const struct run_row_summary *r);

/* Split a run name at its first '-' as mmtests does, keeping "-rcN" with
 * the version ("6.1.0-rc3-vanilla" -> "6.1.0-rc3" + "vanilla"). The
 * results are malloc'd. */
void model_split_name(const char *name, char **head1, char **head2);

#endif
