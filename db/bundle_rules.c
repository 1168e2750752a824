/* bundle_rules: what each column of a bundle may hold, the rules import
 * checks every value of a bundle against before any joins the store
 * (bundle.c), the watch's tables (watch_bundle.c) among them. */
#include "config.h"
#include "db/bundle_check.h"

#include <string.h>

#define TEXT_MAX(n) "typeof(X) = 'text' AND length(CAST(X AS BLOB)) <= " #n
#define TEXT_OR_NULL(n) "typeof(X) = 'null' OR (" TEXT_MAX(n) ")"
#define NONEMPTY(n) "typeof(X) = 'text' AND length(CAST(X AS BLOB)) BETWEEN 1 AND " #n
/* A time as kbench writes it, ISO 8601 UTC: 2026-01-02T03:04:05Z. */
#define D2 "[0-9][0-9]"
#define ISO_TIME "typeof(X) = 'text' AND length(X) BETWEEN 20 AND 64 AND X GLOB '" \
	D2 D2 "-" D2 "-" D2 "T" D2 ":" D2 ":" D2 "*'"
#define INTEGER "typeof(X) = 'integer'"
#define INTEGER_OR_NULL "typeof(X) IN ('integer', 'null')"
/* The bounds run puts on its plans (runner/plan.c): iterations up to a
 * million, warm-up samples (stored, as their failures, as -1..-1000) up to
 * a thousand, rounds up to a thousand, at most ten million samples. */
#define ITERATION "typeof(X) = 'integer' AND X BETWEEN 0 AND 1000000"
#define ITERATION_OR_WARMUP "typeof(X) = 'integer' AND X BETWEEN -1000 AND 1000000"
#define ROUND "typeof(X) = 'integer' AND X BETWEEN 0 AND 1000"
#define COUNT_OR_NULL "typeof(X) = 'null' OR (typeof(X) = 'integer' AND X BETWEEN 0 AND 1000000)"
/* A finite number: 9e999 is an infinity (an overflow) however SQLite
 * parses it, where DBL_MAX written out parses to one when its long double
 * arithmetic is only double (as under valgrind), which let an infinity
 * through. */
#define FINITE "X > -9e999 AND X < 9e999"
#define NUMBER "typeof(X) IN ('integer', 'real') AND " FINITE
#define HEX4 "[0-9a-f][0-9a-f][0-9a-f][0-9a-f]"
#define UUID "typeof(X) = 'text' AND X GLOB '" HEX4 HEX4 "-" HEX4 "-" HEX4 "-" HEX4 "-" \
	HEX4 HEX4 HEX4 "'"

/* What each column of a bundle may hold (X stands for the column). A
 * column kbench added later and this table does not name may hold NULL,
 * a finite number or a short text. */
static const struct column_rule {
	const char *table, *column, *check;
} column_rules[] = {
	{ "machines", "id", INTEGER },
	{ "machines", "hostname", "kbench_name_ok(X, 'host')" },
	{ "machines", "cpu_model", TEXT_OR_NULL(1024) },
	{ "machines", "cpus", COUNT_OR_NULL },
	{ "machines", "cores", COUNT_OR_NULL },
	{ "machines", "packages", COUNT_OR_NULL },
	{ "machines", "numa_nodes", COUNT_OR_NULL },
	{ "machines", "mem_bytes", "typeof(X) = 'null' OR (typeof(X) = 'integer' AND X >= 0)" },
	{ "machines", "topology_xml", TEXT_OR_NULL(16777216) },
	{ "machines", "fingerprint", NONEMPTY(64) },
	{ "runs", "id", INTEGER },
	{ "runs", "uuid", UUID },
	{ "runs", "name", "kbench_name_ok(X, 'run')" },
	{ "runs", "machine_id", INTEGER },
	{ "runs", "kernel_release", TEXT_OR_NULL(255) },
	{ "runs", "kernel_version", TEXT_OR_NULL(1024) },
	{ "runs", "kernel_cmdline", TEXT_OR_NULL(65536) },
	{ "runs", "config_name", "typeof(X) = 'null' OR kbench_name_ok(X, 'label')" },
	{ "runs", "config_text", TEXT_OR_NULL(1048576) },
	{ "runs", "kbench_version", TEXT_OR_NULL(64) },
	{ "runs", "started_at", ISO_TIME },
	{ "runs", "finished_at", "typeof(X) = 'null' OR (" ISO_TIME ")" },
	{ "runs", "status", "typeof(X) = 'text' AND X IN ('running', 'complete', 'interrupted', "
	  "'failed')" },
	{ "runs", "notes", TEXT_OR_NULL(65536) },
	{ "runs", "pid", INTEGER_OR_NULL },
	{ "runs", "nsamples", "typeof(X) = 'integer' AND X BETWEEN 0 AND " BUNDLE_MAX_RUN_SAMPLES },
	{ "samples", "run_id", INTEGER },
	{ "samples", "section", "kbench_name_ok(X, 'label')" },
	{ "samples", "workload", "kbench_name_ok(X, 'label')" },
	{ "samples", "row", "kbench_name_ok(X, 'label')" },
	{ "samples", "iteration", "typeof(X) = 'integer' AND CASE warmup WHEN 1 THEN "
	  "X BETWEEN -1000 AND -1 ELSE X BETWEEN 0 AND 1000000 END" },
	{ "samples", "value", NUMBER },
	{ "samples", "unit", TEXT_OR_NULL(64) },
	{ "samples", "better", "typeof(X) = 'text' AND X IN ('higher', 'lower')" },
	{ "samples", "started_at", INTEGER_OR_NULL },
	{ "samples", "duration_ns", INTEGER_OR_NULL },
	{ "samples", "user_ns", INTEGER_OR_NULL },
	{ "samples", "sys_ns", INTEGER_OR_NULL },
	{ "samples", "flag", TEXT_OR_NULL(1024) },
	{ "samples", "round", ROUND },
	{ "samples", "warmup", "typeof(X) = 'integer' AND X IN (0, 1)" },
	{ "monitor_values", "run_id", INTEGER },
	{ "monitor_values", "section", "kbench_name_ok(X, 'label')" },
	{ "monitor_values", "row", "kbench_name_ok(X, 'label')" },
	{ "monitor_values", "iteration", ITERATION_OR_WARMUP },
	{ "monitor_values", "source", "kbench_name_ok(X, 'label')" },
	{ "monitor_values", "key", "kbench_name_ok(X, 'label')" },
	{ "monitor_values", "value", "typeof(X) = 'null' OR (" NUMBER ")" },
	{ "monitor_values", "kind", "typeof(X) = 'text' AND X IN ('delta', 'max', 'fraction', "
	  "'before', 'after')" },
	{ "failures", "run_id", INTEGER },
	{ "failures", "section", "kbench_name_ok(X, 'label')" },
	{ "failures", "row", "kbench_name_ok(X, 'label')" },
	{ "failures", "iteration", ITERATION_OR_WARMUP },
	{ "failures", "reason", TEXT_MAX(65536) },
	{ "failures", "at", TEXT_OR_NULL(64) },
	{ "run_meta", "run_id", INTEGER },
	{ "run_meta", "section", "kbench_name_ok(X, 'label')" },
	{ "run_meta", "key", "kbench_name_ok(X, 'label')" },
	{ "run_meta", "value", TEXT_OR_NULL(1048576) },
	{ "row_results", "run_id", INTEGER },
	{ "row_results", "section", "kbench_name_ok(X, 'label')" },
	{ "row_results", "row", "kbench_name_ok(X, 'label')" },
	{ "row_results", "round", ROUND },
	{ "row_results", "iterations", ITERATION },
	{ "row_results", "ci_target", NUMBER },
	{ "row_results", "ci_reached", "typeof(X) = 'null' OR (" NUMBER ")" },
	{ "row_results", "met", "typeof(X) = 'integer' AND X IN (0, 1)" },
	/* A watch's records (watch_bundle.c): the watches, their cycles,
	 * verdicts and mails, the experiments and bisections they name. */
	{ "watches", "id", INTEGER },
	{ "watches", "hostname", "kbench_name_ok(X, 'host')" },
	{ "watches", "tree", NONEMPTY(4096) },
	{ "watches", "remote", NONEMPTY(4096) },
	{ "watches", "branch", NONEMPTY(1024) },
	{ "watches", "config_name", NONEMPTY(4096) },
	{ "watches", "config_text", TEXT_MAX(1048576) },
	{ "watches", "created_at", ISO_TIME },
	{ "watch_cycles", "id", INTEGER },
	{ "watch_cycles", "watch_id", INTEGER },
	{ "watch_cycles", "old_tip", TEXT_OR_NULL(64) },
	{ "watch_cycles", "new_tip", TEXT_OR_NULL(64) },
	{ "watch_cycles", "step", "typeof(X) = 'text' AND X IN ('fetch', 'build', 'experiment', "
	  "'bisect', 'mail', 'done')" },
	{ "watch_cycles", "state", "typeof(X) = 'text' AND X IN ('running', 'complete', 'failed')" },
	{ "watch_cycles", "result", "typeof(X) = 'null' OR X IN ('nothing-new', 'baseline', "
	  "'no-regression', 'regression', 'fetch-failed', 'build-failed')" },
	{ "watch_cycles", "error", TEXT_OR_NULL(65536) },
	{ "watch_cycles", "experiment_id", INTEGER_OR_NULL },
	{ "watch_cycles", "bisect_id", INTEGER_OR_NULL },
	{ "watch_cycles", "hostname", "kbench_name_ok(X, 'host')" },
	{ "watch_cycles", "pid", INTEGER },
	{ "watch_cycles", "started_at", ISO_TIME },
	{ "watch_cycles", "finished_at", "typeof(X) = 'null' OR (" ISO_TIME ")" },
	{ "watch_verdicts", "cycle_id", INTEGER },
	{ "watch_verdicts", "section", "kbench_name_ok(X, 'label')" },
	{ "watch_verdicts", "row", "kbench_name_ok(X, 'label')" },
	{ "watch_verdicts", "verdict", "typeof(X) = 'text' AND X IN ('better', 'worse', "
	  "'within noise', 'cannot tell', 'untested')" },
	{ "watch_verdicts", "change_pct", "typeof(X) = 'null' OR (" NUMBER ")" },
	{ "watch_verdicts", "p", "typeof(X) = 'null' OR (" NUMBER " AND X BETWEEN 0 AND 1)" },
	{ "watch_verdicts", "gating", "typeof(X) = 'integer' AND X IN (0, 1)" },
	{ "watch_verdicts", "regression", "typeof(X) = 'integer' AND X IN (0, 1)" },
	{ "watch_verdicts", "bisect_id", INTEGER_OR_NULL },
	{ "watch_verdicts", "culprit", TEXT_OR_NULL(64) },
	{ "watch_mails", "id", INTEGER },
	{ "watch_mails", "watch_id", INTEGER },
	{ "watch_mails", "cycle_id", INTEGER },
	{ "watch_mails", "kind", "typeof(X) = 'text' AND X IN ('report', 'failure')" },
	{ "watch_mails", "section", TEXT_MAX(1024) },
	{ "watch_mails", "row", TEXT_MAX(1024) },
	{ "watch_mails", "culprit", NONEMPTY(64) },
	{ "watch_mails", "subject", TEXT_MAX(4096) },
	{ "watch_mails", "message_id", NONEMPTY(1024) },
	{ "watch_mails", "message", TEXT_MAX(1048576) },
	{ "watch_mails", "state", "typeof(X) = 'text' AND X IN ('pending', 'sent')" },
	{ "watch_mails", "attempts", "typeof(X) = 'integer' AND X >= 0" },
	{ "watch_mails", "last_error", TEXT_OR_NULL(65536) },
	{ "watch_mails", "queued_at", ISO_TIME },
	{ "watch_mails", "sent_at", "typeof(X) = 'null' OR (" ISO_TIME ")" },
	{ "experiments", "id", INTEGER },
	{ "experiments", "uuid", UUID },
	{ "experiments", "name", "kbench_name_ok(X, 'run')" },
	{ "experiments", "config_name", "typeof(X) = 'null' OR kbench_name_ok(X, 'label')" },
	{ "experiments", "arms", NONEMPTY(65536) },
	{ "experiments", "rounds", ROUND },
	{ "experiments", "arm_order", "typeof(X) = 'text' AND X IN ('abba', 'shuffle')" },
	{ "experiments", "seed", INTEGER_OR_NULL },
	{ "experiments", "started_at", ISO_TIME },
	{ "experiments", "finished_at", "typeof(X) = 'null' OR (" ISO_TIME ")" },
	{ "experiments", "status", "typeof(X) = 'text' AND X IN ('running', 'complete', "
	  "'interrupted', 'failed')" },
	{ "experiments", "design", TEXT_OR_NULL(65536) },
	{ "bisects", "id", INTEGER },
	{ "bisects", "uuid", UUID },
	{ "bisects", "tree", NONEMPTY(4096) },
	{ "bisects", "good", NONEMPTY(64) },
	{ "bisects", "bad", NONEMPTY(64) },
	{ "bisects", "config_text", TEXT_MAX(1048576) },
	{ "bisects", "status", "typeof(X) = 'text' AND X IN ('running', 'complete', "
	  "'interrupted', 'failed')" },
	{ "bisects", "result", "typeof(X) = 'null' OR X IN ('found', 'skipped', 'no-regression')" },
	{ "bisects", "first_bad", TEXT_OR_NULL(64) },
	{ "bisects", "hostname", "kbench_name_ok(X, 'host')" },
	{ "bisects", "pid", INTEGER },
	{ "bisects", "started_at", ISO_TIME },
	{ "bisects", "finished_at", "typeof(X) = 'null' OR (" ISO_TIME ")" },
	{ "bisect_commits", "bisect_id", INTEGER },
	{ "bisect_commits", "idx", "typeof(X) = 'integer' AND X >= 0" },
	{ "bisect_commits", "commit_id", NONEMPTY(64) },
	{ "bisect_commits", "parents", "typeof(X) = 'integer' AND X >= 0" },
	{ "bisect_steps", "bisect_id", INTEGER },
	{ "bisect_steps", "step", "typeof(X) = 'integer' AND X >= 0" },
	{ "bisect_steps", "commit_id", NONEMPTY(64) },
	{ "bisect_steps", "good_commit", NONEMPTY(64) },
	{ "bisect_steps", "bad_commit", NONEMPTY(64) },
	{ "bisect_steps", "experiment_id", INTEGER_OR_NULL },
	{ "bisect_steps", "verdict", "typeof(X) = 'null' OR X IN ('good', 'bad', 'skip', "
	  "'regression', 'no-regression')" },
	{ "bisect_steps", "started_at", ISO_TIME },
	{ "bisect_steps", "finished_at", "typeof(X) = 'null' OR (" ISO_TIME ")" },
};

static const char other_column[] =
	"typeof(X) IN ('null', 'integer') OR (typeof(X) = 'real' AND " FINITE ") OR ("
	TEXT_MAX(65536) ")";

const char *bundle_column_rule(const char *table, const char *column)
{
	for (size_t i = 0; i < sizeof(column_rules) / sizeof(column_rules[0]); i++)
		if (!strcmp(column_rules[i].table, table) && !strcmp(column_rules[i].column, column))
			return column_rules[i].check;
	return other_column;
}
