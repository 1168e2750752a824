#!/bin/sh
# t2300: kbench history on a store of 30 synthetic nightly runs (cloned
# from one real run: its machine and config) whose row 1 steps from 0.500
# to 0.550 s at night 20 (10% worse) and whose row 2 stays flat: one line
# per run in time order, the step marked, the sparkline, --since, the
# formats, and each bad input with its message.
# Covers: cli/cmd_history.c compare/history.c compare/render_history.c db/series.c lib/changepoint.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-process-pipes]\niterations = 1\nloops = 10\ngroups = 1\n' > "$tmp/hb.conf"
check "a real run to clone" kb --quiet run -c "$tmp/hb.conf" -n seed --no-report
host=$(sql "SELECT hostname FROM machines")
runs=$(awk -v first=1 -v last=30 -v step_at=20 -v base=0.5 -v step_to=0.55 -v config=hb -v tag=0 \
	-f "$TOP_SRCDIR/tests/data/nightly-runs.awk") &&
	sql_write "$runs UPDATE runs SET config_name = 'seed' WHERE id = 1"
ok $? "30 nightly runs of config hb"

# expect STATUS MESSAGE ARGS...: stderr's first line, the exit status, no stdout.
expect() {
	want_rc=$1 want=$2
	shift 2
	kb history "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	got=$(head -1 "$tmp/err")
	if [ "$rc" = "$want_rc" ] && [ "$got" = "$want" ] && [ ! -s "$tmp/out" ]; then
		ok 0 "history $*: $want"
	else
		ok 1 "history $*: want rc $want_rc '$want', got rc $rc '$got'"
	fi
}

LC_ALL=C kb history --config hb --section hackbench-process-pipes --row 1 > "$tmp/out" 2>"$tmp/err"
ok $? "history of one series"
check "one line per run, a header, a title, the sparkline and the footer" test "$(grep -c . "$tmp/out")" = 35
check "the title names the series" test "$(head -1 "$tmp/out")" = \
	"hackbench-process-pipes 1 on $host, config hb: Amean (s), lower is better"
check "runs in time order" test "$(grep -o 'nightly-[0-9]*' "$tmp/out" | tr '\n' ' ')" = \
	"$(seq -f 'nightly-%02g' 1 30 | tr '\n' ' ')"
line=$(grep ' nightly-20 ' "$tmp/out")
want="2026-10-20 02:00  nightly-20               6.1.20                       0.5460    +-0.0025       0.5450    3  <- -9.90% worse, p 5e-28"
if [ "$line" = "$want" ]; then
	ok 0 "the step is marked on the first run after it, with the change and p"
else
	ok 1 "the step is marked on the first run after it, with the change and p"
	diag "want: $want"
	diag "got:  $line"
fi
check "and nowhere else" test "$(grep -c '<-' "$tmp/out")" = 2
check "mean, 95% CI and Min of three samples 0.001 apart" grep -q \
	'^2026-10-01 02:00  nightly-01  .* 0.5000    +-0.0025       0.4990    3$' "$tmp/out"
check "the header names the columns" grep -q \
	'^date              run                      kernel                        Amean      95% CI          Min    n$' \
	"$tmp/out"
check "ASCII sparkline of the runs' Min in the C locale" grep -q \
	'^trend _\._\.__\._\.__\._\.__\._\.\*##\*#\*##\*#\*  (Min, oldest first; min 0.4950, max 0.5530)$' "$tmp/out"
is "the footer says what the change points were found on" "$(tail -2 "$tmp/out")" \
"Change points (<-): E-Divisive means with a t-test, p < 0.001, window 50, on each run's best sample (Min, Max when higher is better);
% is the change of the runs' best samples, + is better."

# --statistic mean finds them on the run means, as kbench did before.
LC_ALL=C kb history --config hb --row 1 --statistic mean > "$tmp/mean"
check "--statistic mean: the change of the means" \
	grep -q ' nightly-20 .* 0.5450    3  <- -9.88% worse, p 5e-28$' "$tmp/mean"
check "--statistic mean: the sparkline of the means" grep -q \
	'^trend .*  (Amean, oldest first; min 0.4960, max 0.5540)$' "$tmp/mean"
check "--statistic mean: the footer says so" grep -q \
	"^Change points (<-): .* window 50, on each run's mean;$" "$tmp/mean"
LC_ALL=C kb history --config hb --row 1 --min-change 10 > "$tmp/out10"
check "--min-change 10 keeps no change point of 9.9%" test "$(grep -c '<-' "$tmp/out10")" = 1
check "and the footer names the floor" grep -q \
	"window 50, on each run's best sample (Min, Max when higher is better), changes over 10%;$" \
	"$tmp/out10"
LC_ALL=C kb history --config hb --row 1 --min-change 9 > "$tmp/out9"
check "--min-change 9 keeps it" grep -q ' nightly-20 .*<- -9.90% worse' "$tmp/out9"

LC_ALL= LC_CTYPE= LANG=en_US.UTF-8 kb history --config hb --row 1 > "$tmp/utf8"
check "block characters when LANG names UTF-8" grep -q '^trend ▁▂▁▂▁▁▂▁▂▁▁▂▁▂▁▁▂▁▂▇██▇█▇██▇█▇  ' "$tmp/utf8"
check "and the CI as +-" grep -q ' ±0.0025 ' "$tmp/utf8"

LC_ALL=C kb history nightly-30 > "$tmp/out"
ok $? "history of a run: every row of its host and config"
check "two series" test "$(grep -c '^hackbench-process-pipes [12] on ' "$tmp/out")" = 2
check "the flat row has no change point" test "$(grep -c '<-' "$tmp/out")" = 2
check "both rows over the 30 runs" test "$(grep -c ' nightly-' "$tmp/out")" = 60

LC_ALL=C kb history --config hb --row 1 --since 2026-10-25 > "$tmp/out"
check "--since shows the runs from that date" test "$(grep -c ' nightly-' "$tmp/out")" = 6
check "the step before it is not marked" test "$(grep -c '<-' "$tmp/out")" = 1
LC_ALL=C kb history --config hb --row 1 --since 2026-10-18 > "$tmp/out"
check "a change point found on the whole series stays where it was" \
	grep -q ' nightly-20 .*<- -9.90% worse, p 5e-28$' "$tmp/out"

kb history --config hb --format csv > "$tmp/csv"
ok $? "--format csv"
check "csv: a version line, a header and a record per run and row" test "$(wc -l < "$tmp/csv")" = 62
check "csv: the header" test "$(sed -n 2p "$tmp/csv")" = \
	"host,config,section,row,work,unit,better,stat,run_id,uuid,run,kernel,started_at,n,mean,ci95,change_pct,change_p,best"
check "csv: the version line names the statistic" test "$(head -1 "$tmp/csv")" = \
	"# kbench history csv 3; e-divisive p 0.001 window 50 statistic best"
check "csv: the change on its run" grep -q \
	"^$host,hb,hackbench-process-pipes,1,,s,lower,Amean,21,00000000-0000-4000-8000-000000000020,nightly-20,6.1.20,2026-10-20T02:00:00Z,3,0.546[0-9]*,0.00248[0-9]*,-9.90[0-9]*,5.04[0-9]*e-28,0.545$" "$tmp/csv"
check "csv: one change in all" test "$(grep -c ',-9.90[0-9]*,[0-9.e-]*,[0-9.]*$' "$tmp/csv")" = 1

kb history --config hb --format json > "$tmp/json"
ok $? "--format json"
if command -v python3 >/dev/null 2>&1; then
	got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["series"]
cp = s[0]["change_points"]
m = d["method"]
print(d["format"], d["format_version"], m["window"], m["max_pvalue"], m["statistic"], m["min_segment"],
      m["noise_factor"], len(s), len(s[0]["points"]), s[0]["points"][0]["best"], len(cp),
      cp[0]["run"], cp[0]["of"], cp[0]["direction"], round(cp[0]["change_pct"], 2),
      len(s[1]["change_points"]))' "$tmp/json")
	check "json: format, version, method, series, points and the change ($got)" \
		test "$got" = "kbench-history 3 50 0.001 best 2 2 2 30 0.499 1 nightly-20 Min worse -9.9 0"
else
	skip "no python3 to read the JSON"
fi

# A shorter window or a stricter p are options.
LC_ALL=C kb history --config hb --row 1 --p-value 1e-40 > "$tmp/out"
check "--p-value 1e-40 keeps no change point" test "$(grep -c '<-' "$tmp/out")" = 1

expect 2 "kbench: history needs runs, or --config (with --section and --row for one series)"
expect 2 "kbench: unknown format 'xml' (expected text, csv, json or html)" --format xml --config hb
expect 2 "kbench: invalid --p-value '0': expected a number between 0 and 1" --p-value 0 --config hb
expect 2 "kbench: invalid --window '1': expected a whole number of runs, at least 2" \
	--window 1 --config hb
expect 2 "kbench: invalid --statistic 'min': expected best (each run's best sample) or mean" \
	--statistic min --config hb
expect 2 "kbench: invalid --min-change '-1': expected a percentage, 0 or more (e.g. 5)" \
	--min-change -1 --config hb
expect 2 "kbench: invalid --min-change '5%': expected a percentage, 0 or more (e.g. 5)" \
	--min-change 5% --config hb
expect 2 "kbench: --config and --host pick series without a run: give runs or them, not both" \
	--config hb nightly-30
expect 2 "kbench: unknown option '--bogus'" --bogus
expect 1 "kbench: no run named 'nosuch' in $db (see kbench runs)" nosuch
expect 1 "kbench: no complete run matches config 'nosuch' in $db" --config nosuch
expect 1 "kbench: no complete run matches config 'hb', host 'elsewhere', row '9' in $db" \
	--config hb --host elsewhere --row 9
expect 1 "kbench: no complete run given has samples of section 'nosuch' in $db" \
	--section nosuch nightly-30

done_testing
