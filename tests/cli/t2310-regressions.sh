#!/bin/sh
# t2310: kbench regressions over synthetic nightly runs: config hb gets 10%
# worse at night 20, hb2 10% better at night 10, hb3 worse at night 8 and
# back at night 24. The latest change for the worse of each series is
# reported with the runs either side, in text or json; exit 1 when there
# is one, 0 when not, 2 on bad arguments, 128 on other errors (a --config
# or --host that no run has among them).
# Covers: cli/cmd_regressions.c compare/history.c compare/render_history.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-process-pipes]\niterations = 1\nloops = 10\ngroups = 1\n' > "$tmp/hb.conf"
check "a real run to clone" kb --quiet run -c "$tmp/hb.conf" -n seed --no-report
host=$(sql "SELECT hostname FROM machines")
gen() {
	gen_runs=$(awk -v first=1 -v last=30 -v base=0.5 "$@" \
		-f "$TOP_SRCDIR/tests/data/nightly-runs.awk") && sql_write "$gen_runs"
}
gen -v config=hb -v tag=0 -v step_at=20 -v step_to=0.55 &&
	gen -v config=hb2 -v tag=1 -v step_at=10 -v step_to=0.45 &&
	gen -v config=hb3 -v tag=2 -v step_at=8 -v step_to=0.55 -v step2_at=24 -v step2_to=0.5 &&
	sql_write "UPDATE runs SET config_name = 'seed' WHERE id = 1"
ok $? "90 nightly runs of configs hb, hb2 and hb3"

# run_regressions WANT_RC ARGS...: output in $tmp/out, stderr in $tmp/err
run_regressions() {
	want_rc=$1
	shift
	kb regressions "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" = "$want_rc" ]; then
		ok 0 "regressions $*: exit $want_rc"
	else
		ok 1 "regressions $*: exit $want_rc"
		diag "got exit $rc; stdout and stderr:"
		sed 's/^/#   /' "$tmp/out" "$tmp/err"
	fi
}

run_regressions 1
cat > "$tmp/want" <<WANT
hackbench-process-pipes 1 on $host, config hb: Min 0.4992 -> 0.5486 s (-9.90%), p 5e-28
  last run before: @20 nightly-19 (6.1.19) 2026-10-19 02:00
  first run after: @21 nightly-20 (6.1.20) 2026-10-20 02:00
hackbench-process-pipes 1 on $host, config hb3: Min 0.4996 -> 0.5489 s (-9.87%), p 4.1e-21
  last run before: @68 nightly-07 (6.1.7) 2026-10-07 02:00
  first run after: @69 nightly-08 (6.1.8) 2026-10-08 02:00
2 regressions in 7 series
WANT
if cmp -s "$tmp/want" "$tmp/out"; then
	ok 0 "the latest change for the worse of each series, with the runs either side"
else
	ok 1 "the latest change for the worse of each series, with the runs either side"
	diff -u "$tmp/want" "$tmp/out" | sed 's/^/# /'
fi
check "nothing on stderr" test ! -s "$tmp/err"

run_regressions 0 --config hb2
check "an improvement is no regression" test "$(cat "$tmp/out")" = "0 regressions in 2 series"
run_regressions 1 --since 2026-10-10
check "--since keeps the change points from that date" \
	test "$(grep -c '^hackbench.* on ' "$tmp/out")" = 1
check "... hb's" grep -q "^hackbench-process-pipes 1 on $host, config hb: " "$tmp/out"
run_regressions 0 --since 2026-10-21
check "none since the last one" test "$(cat "$tmp/out")" = "0 regressions in 7 series"
run_regressions 1 --host "$host" --config hb3
check "--host and --config pick the series" test "$(tail -1 "$tmp/out")" = "1 regression in 2 series"
# A mistyped name must not pass a nightly job: no series is an error
# (128, as git bisect run stops on) that names the closest stored one.
run_regressions 128 --host elsewhere
check "an unknown host: an error" test "$(cat "$tmp/err")" = \
	"kbench: no complete run matches host 'elsewhere' in $db"
check "... and nothing on stdout" test ! -s "$tmp/out"
run_regressions 128 --config hb4
check "a mistyped config: did you mean" test "$(cat "$tmp/err")" = \
	"kbench: no complete run matches config 'hb4' in $db (did you mean 'hb'?)"
run_regressions 128 --config hb --host "${host}x"
check "a mistyped host with a known config: did you mean" test "$(cat "$tmp/err")" = \
	"kbench: no complete run matches config 'hb', host '${host}x' in $db (did you mean '$host'?)"
run_regressions 0 --host "$host" --since 2026-10-21
check "a known host with nothing since: no error" \
	test "$(cat "$tmp/out")" = "0 regressions in 7 series"

# --format json: a kbench-regressions document of what the text says.
run_regressions 1 --format json
check "json: the envelope, the method, and hb's and hb3's regressions" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert (d["format"], d["format_version"]) == ("kbench-regressions", 1), d
assert d["method"]["statistic"] == "best" and d["method"]["window"] == 50, d["method"]
assert d["since"] is None and d["series"] == 7, d
r = {x["config"]: x for x in d["regressions"]}
assert sorted(r) == ["hb", "hb3"], sorted(r)
c = r["hb"]["change"]
assert (r["hb"]["section"], r["hb"]["row"]) == ("hackbench-process-pipes", "1"), r["hb"]
assert (c["direction"], c["of"], round(c["change_pct"], 2)) == ("worse", "Min", -9.9), c
assert (r["hb"]["before"]["run"], r["hb"]["after"]["run"]) == ("nightly-19", "nightly-20")
assert (r["hb"]["before"]["run_id"], r["hb"]["after"]["run_id"]) == (20, 21)
' "$tmp/out"
check "... nothing on stderr" test ! -s "$tmp/err"
run_regressions 0 --format json --since 2026-10-21
check "json: no regression since: an empty list" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["regressions"] == [] and d["since"] == "2026-10-21T00:00:00Z" and d["series"] == 7, d
' "$tmp/out"
run_regressions 2 --format csv
check "another format: usage error" test "$(cat "$tmp/err")" = \
	"kbench: unknown format 'csv' (expected text or json)"
run_regressions 0 --p-value 1e-40
check "--p-value 1e-40: no change point is strong enough" \
	test "$(cat "$tmp/out")" = "0 regressions in 7 series"
run_regressions 1 --config hb --statistic mean
check "--statistic mean: the change of the run means" test "$(head -1 "$tmp/out")" = \
	"hackbench-process-pipes 1 on $host, config hb: Amean 0.5002 -> 0.5496 s (-9.88%), p 5e-28"
run_regressions 0 --min-change 10
check "--min-change 10: no change of 9.9% is reported" \
	test "$(cat "$tmp/out")" = "0 regressions in 7 series"
run_regressions 2 --statistic median
check "a bad --statistic: usage error" test "$(cat "$tmp/err")" = \
	"kbench: invalid --statistic 'median': expected best (each run's best sample) or mean"

run_regressions 2 extra
check "an argument: usage error" test "$(cat "$tmp/err")" = "kbench: unexpected argument 'extra'"
run_regressions 2 --window x
check "a bad --window: usage error" test "$(cat "$tmp/err")" = \
	"kbench: invalid --window 'x': expected a whole number of runs, at least 2"
echo "not a database" > "$tmp/bad.db"
"$KBENCH" --db "$tmp/bad.db" regressions > "$tmp/out" 2> "$tmp/err"
rc=$?
check "a store that cannot be read: exit 128, not 1 ($rc)" test "$rc" = 128
check "... and says why" test "$(cat "$tmp/err")" = \
	"kbench: $tmp/bad.db: not a kbench database (not an SQLite file)"

done_testing
