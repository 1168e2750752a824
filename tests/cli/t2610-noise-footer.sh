#!/bin/sh
# t2610: between-run noise in kbench compare, on a store built from SQL
# (no benchmark runs, so every figure is known): ? (cannot tell) when the
# noise is unknown or the detectable change exceeds the change seen, the
# estimate named in the footer when it is known (runs of one host, config,
# options and kernel; complete runs only; calibration runs counted),
# --within-run as before, ~ on noisy means, and the json fields.
# Covers: compare/noise.c compare/decide.c compare/render_common.c db/series.c

. "$TOP_SRCDIR/tests/cli/lib.sh"

# run ID NAME MACHINE KERNEL STATUS [CONFIG_TEXT]
run() {
	printf "INSERT INTO runs (id, uuid, name, machine_id, kernel_release, kernel_version,
		kernel_cmdline, config_name, config_text, kbench_version, started_at, finished_at,
		status) VALUES (%s, '00000000-0000-4000-8000-%012d', '%s', %s, '%s', '#1 SMP',
		'quiet', 'hb', '%s', '0.1.0', '2026-01-0%sT00:00:00Z', '2026-01-0%sT00:10:00Z',
		'%s');\n" "$1" "$1" "$2" "$3" "$4" "${6:-[hb]}" "$1" "$1" "$5"
}
# rows RUN ROW MEAN SPREAD: four samples MEAN -1.5, -0.5, +0.5, +1.5 SPREAD
rows() {
	for k in -1.5 -0.5 0.5 1.5; do
		printf "INSERT INTO samples (run_id, section, workload, row, iteration, value,
			unit, better, started_at, duration_ns, user_ns, sys_ns) VALUES (%s,
			'hackbench-process-pipes', 'hackbench', '%s', 1, %s + %s * %s, 's',
			'lower', 0, 1000000000, 100000000, 200000000);\n" "$1" "$2" "$3" "$k" "$4"
	done
}
# A run of kernel KERNEL: row 1 at MEAN1, row 2 at MEAN2 (spread 0.01),
# row n at 1.0 with a wide spread (CoeffVar 13%).
hb() {	# ID NAME MACHINE KERNEL STATUS MEAN1 MEAN2 [CONFIG_TEXT]
	run "$1" "$2" "$3" "$4" "$5" "${8:-}"
	rows "$1" 1 "$6" 0.01
	rows "$1" 2 "$7" 0.01
	rows "$1" n 1.0 0.1
}

{
	echo "BEGIN;"
	echo "INSERT INTO machines (id, hostname, cpu_model, cpus, fingerprint)
		VALUES (1, 'alpha', 'CPU A', 2, 'fa'), (2, 'beta', 'CPU B', 2, 'fb');"
	# Kernel 6.1 on alpha, run three times with drift between runs of
	# 3-7%; kernel 6.2 once, 40% slower on row 1 and 6% on row 2.
	hb 1 k1-a 1 6.1.0 complete 1.00 2.00
	hb 2 k1-b 1 6.1.0 complete 1.04 2.14
	hb 3 k1-c 1 6.1.0 complete 0.97 1.94
	hb 4 k2-a 1 6.2.0 complete 1.40 2.12
	# Row 4 is in runs 1 and 4 only: no between-run noise for it.
	rows 1 4 1.00 0.01
	rows 4 4 1.50 0.01
	# Not counted: an interrupted run, a run of another config text, runs
	# of another host (wildly apart).
	hb 5 k1-x 1 6.1.0 interrupted 3.00 9.00
	hb 6 k1-other 1 6.1.0 complete 5.00 9.00 '[hb]\nloops = 20'
	hb 7 b-1 2 6.1.0 complete 1.00 1.00
	hb 8 b-2 2 6.1.0 complete 9.00 9.00
	hb 9 b-3 2 6.1.0 complete 5.00 5.00
	echo "INSERT INTO run_meta (run_id, section, key, value) VALUES (3, '', 'calibration', '1/1');"
	echo "COMMIT;"
} > "$tmp/store.sql"
# An empty file: the first reader makes it a store.
: >"$db"
kb runs >/dev/null 2>&1
check "a store of 9 runs built from SQL" sql_write_file "$tmp/store.sql"

# Run names resolve on this host only: compare as alpha, where the runs
# named bare were measured (NAME@beta names beta's).
KBENCH_HOSTNAME=alpha
export KBENCH_HOSTNAME

# The mean rows and the footer of a comparison.
means() { grep -E '^Amean|^$|^[A-Z~+?]|^  ' | sed -n '/^Amean/p; /^Significance/,$p'; }

kb compare k1-a k2-a > "$tmp/known"
is "with 3 runs of kernel 6.1 on this host and config: their noise, named" \
	"$(means < "$tmp/known")" \
"Amean     1      1.0000 (   0.00%)      1.4000 * -40.00%*
Amean     2      2.0000 (   0.00%)      2.1200 ?  -6.00%?
Amean     4      1.0000 (   0.00%)      1.5000 ? -50.00%?
Amean     n     ~1.0000 (   0.00%)     ~1.0000 ?   0.00%?
Significance: a t-test of run means with between-run noise on the mean row only,
  alpha 0.05; a significant change prints *  x.xx%* instead of (  x.xx%).
Between-run noise: from 3 stored runs of one host, config, options and kernel
  (df 2, 1 calibration run); the difference of the run means is tested against
  it plus each side's within-run variance.
Noise read from runs @1-@4,@6: --noise-from with them gives the same verdicts
  later.
Between-run noise unknown for hackbench-process-pipes 4 (fewer than 3 stored
  runs of one host, config, options and kernel): a test on the samples of two
  runs ignores the drift between them, so it gives no verdict; --within-run
  shows its stars.
? after a mean row's %: cannot tell, neither a change nor its absence is shown:
  the between-run noise is unknown, or the smallest change these runs detect at
  80% power exceeds both the change seen and the margin of 5% (--margin). For a
  verdict: calibrate the baseline (kbench calibrate --runs 3), pool more runs a
  side (kbench compare --pool), or run an interleaved A/B experiment (kbench
  ab), which cancels the drift between runs.
Cannot tell: 3 rows, 1 without between-run noise.
Detectable change: 30.6-38.7% (median 34.6%).
Runs a side to detect 10%: 9-15.
Positive % = better: the sign follows each metric's direction.
~ before a mean: its CoeffVar is above 5% or it has fewer than 3 samples."

kb compare --within-run k1-a k2-a > "$tmp/within"
is "--within-run: Welch on the samples, the 6% drift starred *, the old footer" \
	"$(means < "$tmp/within")" \
"Amean     1      1.0000 (   0.00%)      1.4000 * -40.00%*
Amean     2      2.0000 (   0.00%)      2.1200 *  -6.00%*
Amean     4      1.0000 (   0.00%)      1.5000 * -50.00%*
Amean     n     ~1.0000 (   0.00%)     ~1.0000 (   0.00%)
Significance: Welch's t-test on the mean row only, alpha 0.05; a significant
  change prints *  x.xx%* instead of (  x.xx%).
Within-run test: it sees the samples within each run only and ignores drift
  between runs, so its stars overstate what two runs show.
Positive % = better: the sign follows each metric's direction.
~ before a mean: its CoeffVar is above 5% or it has fewer than 3 samples."

kb compare --test welch k1-a k2-a > "$tmp/welch"
check "--test welch is the default decision" cmp "$tmp/known" "$tmp/welch"

kb compare k1-b k1-a > "$tmp/aa"
is "two runs of one kernel: their drift is not starred (Welch stars it)" \
	"$(grep '^Amean     [12] ' "$tmp/aa"; kb compare --within-run k1-b k1-a | grep '^Amean     [12] ')" \
"Amean     1      1.0400 (   0.00%)      1.0000 ?   3.85%?
Amean     2      2.1400 (   0.00%)      2.0000 ?   6.54%?
Amean     1      1.0400 (   0.00%)      1.0000 *   3.85%*
Amean     2      2.1400 (   0.00%)      2.0000 *   6.54%*"

# Another host's runs are another series: three runs of kernel 6.1 on
# beta, compared with alpha's 6.2, make two groups.
kb compare b-1@beta k2-a > "$tmp/hosts"
is "runs of two hosts: each host's runs are a group of their own" \
	"$(sed -n '/^Between-run noise:/,/^[A-Z]/p' "$tmp/hosts" | sed '$d')" \
"Between-run noise: from 6 stored runs in 2 groups of one host, config, options
  and kernel (df 4, 1 calibration run); the difference of the run means is
  tested against it plus each side's within-run variance."

# Without history: a new store with one run of each kernel.
{
	echo "BEGIN;"
	echo "INSERT INTO machines (id, hostname, cpu_model, cpus, fingerprint)
		VALUES (1, 'alpha', 'CPU A', 2, 'fa');"
	hb 1 k1-a 1 6.1.0 complete 1.00 2.00
	hb 2 k2-a 1 6.2.0 complete 1.40 2.12
	echo "COMMIT;"
} > "$tmp/two.sql"
: >"$tmp/two.db"
"$KBENCH" --db "$tmp/two.db" runs >/dev/null 2>&1
check "a store of one run of each kernel" "$KB_SQL" --write "$tmp/two.db" "$(cat "$tmp/two.sql")"
"$KBENCH" --db "$tmp/two.db" compare --noise-threshold 20 k1-a k2-a > "$tmp/two"
is "no history: noise unknown, every mean row cannot tell (?), said in the footer" \
	"$(means < "$tmp/two")" \
"Amean     1      1.0000 (   0.00%)      1.4000 ? -40.00%?
Amean     2      2.0000 (   0.00%)      2.1200 ?  -6.00%?
Amean     n      1.0000 (   0.00%)      1.0000 ?   0.00%?
Significance: Welch's t-test on the mean row only, alpha 0.05; a significant
  change prints *  x.xx%* instead of (  x.xx%).
Between-run noise unknown (fewer than 3 stored runs of one host, config, options
  and kernel): a test on the samples of two runs ignores the drift between them,
  so it gives no verdict; --within-run shows its stars.
? after a mean row's %: cannot tell, neither a change nor its absence is shown:
  the between-run noise is unknown. For a verdict: calibrate the baseline
  (kbench calibrate --runs 3), or run an interleaved A/B experiment (kbench ab),
  which cancels the drift between runs.
Cannot tell: 3 rows, 3 without between-run noise.
Positive % = better: the sign follows each metric's direction."
check "--noise-threshold 20: CoeffVar 13% is not marked" sh -c '! grep -q "~" "$1"' sh "$tmp/two"
expect_err "--noise-threshold must be a positive percentage" 2 \
	"invalid --noise-threshold '0': expected a percentage above 0" \
	kb compare --noise-threshold 0 k1-a k2-a

# json: the noise per row (source, runs, MDE), the basis of each test.
kb compare --format json k1-a k2-a > "$tmp/json"
kb compare --format json --within-run k1-a k2-a > "$tmp/json-within"
if [ -x /usr/bin/python3 ]; then
	/usr/bin/python3 - "$tmp/json" "$tmp/json-within" >"$tmp/py.out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
w = json.load(open(sys.argv[2]))
assert d["test"]["decision"] == "between-run noise when known", d["test"]
assert d["test"]["noise_threshold_pct"] == 5, d["test"]
rows = {r["label"]: r for r in d["sections"][0]["rows"]}
n1 = rows["1"]["noise"]
assert n1["source"] == "between-run" and n1["runs"] == 3 and n1["kernels"] == 1, n1
assert n1["calibration_runs"] == 1 and n1["df"] == 2, n1
# run means 1.00, 1.04, 0.97: sd 0.0351, 3.5% of their mean
assert abs(n1["run_mean_coeffvar"] - 3.51) < 0.01, n1
assert 10 < n1["mde_pct"] < 40 and n1["mde_power"] == 0.8, n1
assert rows["4"]["noise"]["source"] == "unknown", rows["4"]["noise"]
assert 0 < rows["4"]["noise"]["mde_pct"] < 5, rows["4"]["noise"]
t1 = rows["1"]["runs"][1]["test"]
assert t1["basis"] == "between-run" and t1["significant"], t1
t4 = rows["4"]["runs"][1]["test"]
assert t4["basis"] == "within-run" and t4["significant"], t4
assert rows["n"]["runs"][0]["noisy"] and not rows["1"]["runs"][0]["noisy"], rows["n"]
assert w["test"]["decision"] == "within-run", w["test"]
wr = w["sections"][0]["rows"][0]
assert wr["noise"]["source"] == "not used" and "runs" not in wr["noise"], wr["noise"]
assert wr["runs"][1]["test"]["basis"] == "within-run", wr["runs"][1]["test"]
PY
	st=$?
	ok $st "json: noise source, runs, calibration, MDE per row; basis per test; noisy"
	[ $st -eq 0 ] || comment "$tmp/py.out"
else
	skip "no python3 to parse json"
fi

kb compare --format csv k1-a k2-a > "$tmp/csv"
is "csv: the decision on the version line, columns as before" "$(sed -n '1,2p' "$tmp/csv")" \
"# kbench compare csv 1; test welch, alpha 0.05, between-run noise when known (json: per row)
section,row,stat,unit,better,run,n,value,pct,significant,p"

kb compare --format markdown k1-a k2-a > "$tmp/md"
is "markdown: ~ escaped, the noise footer as list items" \
	"$(grep -E '^\| Amean \| n |^- (Between|\\~)' "$tmp/md" | cut -d' ' -f1-7)" \
"| Amean | n | \~1.0000 (0.00%)
- Between-run noise: from 3 stored runs
- Between-run noise unknown for hackbench-process-pipes 4
- \~ before a mean: its CoeffVar"

done_testing
