#!/bin/sh
# t2320: history and regressions never pool runs that measured different
# work. Four runs of one config with -o loops=5 and four with -o
# loops=50 made regressions report a 10-fold "regression" and exit 1;
# they are two series (named by the key that differs), with no change
# point between them, and regressions lists the change of work and exits
# 0. Which runs measured the same work is decided as compare's Warning
# line decides it (t2040): an override of a runner-only key, one equal
# to the config's value, or a config edited to what an override gave
# changes nothing; a config edited to another value does; a key only one
# run stored does not count, and runs with no values stored are told
# apart by their options. A run joins the latest series whose work it
# measured, so work that alternates keeps two series.
# Covers: compare/history.c db/series.c compare/work.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-process-pipes]\niterations = 2\nloops = 5\ngroups = 1\n' > "$tmp/hb.conf"
# run_of CONF NAME ARGS...: a run of config CONF on host "nightly"
run_of() {
	conf=$1 name=$2
	shift 2
	KBENCH_HOSTNAME=nightly kb --quiet run -c "$conf" -n "$name" --no-report "$@"
}
# run NAME ARGS...: a run of config hb
run() { run_of "$tmp/hb.conf" "$@"; }
check "four runs with -o loops=5, then four with -o loops=50" \
	run a1 -o loops=5 '&&' run a2 -o loops=5 '&&' run a3 -o loops=5 '&&' \
	run a4 -o loops=5 '&&' run b1 -o loops=50 '&&' run b2 -o loops=50 '&&' \
	run b3 -o loops=50 '&&' run b4 -o loops=50

expect_transcript "regressions: two series, the change of work, no regression" kb regressions <<'T'
$ kb regressions
hackbench-process-pipes 1 on nightly, config hb: the work changed, loops=5 -> loops=50 (a new series, not a regression)
  last run before: @4 a4 (KERNEL) YYYY-MM-DD hh:mm
  first run after: @5 b1 (KERNEL) YYYY-MM-DD hh:mm
0 regressions in 2 series, 1 change of work
[exit 0]
T

LC_ALL=C kb history --config hb > "$tmp/h.txt" 2> "$tmp/err"
is "history exits 0, quiet" "$?.$(cat "$tmp/err")" "0."
is "history: a series per work, named by the key that differs" \
	"$(grep ' on nightly, ' "$tmp/h.txt")" \
"hackbench-process-pipes 1 on nightly, config hb, loops=5: Amean (s), lower is better
hackbench-process-pipes 1 on nightly, config hb, loops=50: Amean (s), lower is better"
is "... each with its own runs" "$(grep -o '^[0-9-]* [0-9:]*  [ab][0-9]' "$tmp/h.txt" | cut -c19- |
	tr '\n' ' ')" "a1 a2 a3 a4 b1 b2 b3 b4 "
check "... and no change point" test "$(grep -c ' <- ' "$tmp/h.txt")" = 0

# series FILE: each series of a history's json as "WORK:RUN RUN ...".
series() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "kbench-history", d["format"]
for s in d["series"]:
    print(s["work"] + ":" + " ".join(p["run"] for p in s["points"]))' "$1"
}
kb history --config hb --format json > "$tmp/h.json"
is "history json: the series' work" "$(series "$tmp/h.json")" "loops=5:a1 a2 a3 a4
loops=50:b1 b2 b3 b4"
kb history a1@nightly b4@nightly --format json > "$tmp/h.json"
is "history of two runs of one host and config: each run once" "$(series "$tmp/h.json")" \
	"loops=5:a1 a2 a3 a4
loops=50:b1 b2 b3 b4"
kb history --config hb --format csv > "$tmp/h.csv"
is "history csv: the work column" \
	"$(grep -v '^#' "$tmp/h.csv" | cut -d, -f5,11 | sort -u | tr '\n' ' ')" \
	"loops=5,a1 loops=5,a2 loops=5,a3 loops=5,a4 loops=50,b1 loops=50,b2 loops=50,b3 loops=50,b4 work,run "

kb regressions --format json > "$tmp/r.json" 2> "$tmp/err"
is "regressions --format json exits 0, quiet" "$?.$(cat "$tmp/err")" "0."
is "... the change of work, no regression" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
w = d["work_changes"]
print(d["format"], d["format_version"], d["series"], len(d["regressions"]), len(w),
      w[0]["row"], w[0]["work_before"], w[0]["work_after"], w[0]["before"]["run"],
      w[0]["after"]["run"])' "$tmp/r.json")" \
	"kbench-regressions 1 2 0 1 1 loops=5 loops=50 a4 b1"

# What changes nothing: a runner-only override, an override equal to the
# config's value (no override at all), a config edited to what the
# override gave.
check "a5 (-o loops=5 -o iterations=3), a6 (no -o: the config's loops = 5)" \
	run a5 -o loops=5 -o iterations=3 '&&' run a6
sed 's/^loops = 5$/loops = 50/' "$tmp/hb.conf" > "$tmp/hb50.conf"
mkdir "$tmp/edited" && cp "$tmp/hb50.conf" "$tmp/edited/hb.conf"
check "b5: config hb edited to loops = 50, no -o" run_of "$tmp/edited/hb.conf" b5
kb history --config hb --format json > "$tmp/h.json"
is "runs that measured the same work join their series, alternating" \
	"$(series "$tmp/h.json")" "loops=5:a1 a2 a3 a4 a5 a6
loops=50:b1 b2 b3 b4 b5"
kb regressions > "$tmp/out"
is "the change of work is where the newest series starts" "$(head -1 "$tmp/out")" \
	"hackbench-process-pipes 1 on nightly, config hb: the work changed, loops=5 -> loops=50 (a new series, not a regression)"

# A config edited to a value no run had: a series of its own.
sed 's/^loops = 5$/loops = 9/' "$tmp/hb.conf" > "$tmp/edited/hb.conf"
check "c1: config hb edited to loops = 9" run_of "$tmp/edited/hb.conf" c1
kb history --config hb --format json > "$tmp/h.json"
is "an edited config value is other work" "$(series "$tmp/h.json")" "loops=5:a1 a2 a3 a4 a5 a6
loops=50:b1 b2 b3 b4 b5
loops=9:c1"
kb regressions > "$tmp/out"
is "regressions names the edit" "$(sed -n '1p;$p' "$tmp/out")" \
"hackbench-process-pipes 1 on nightly, config hb: the work changed, loops=50 -> loops=9 (a new series, not a regression)
0 regressions in 3 series, 1 change of work"
is "--since after it: no change of work listed" \
	"$(kb regressions --since 2999-01-01)" "0 regressions in 3 series"

# Stores of older versions: a key one run lacks does not count; runs
# with no value stored are told apart by their options.
cp "$tmp/hb.conf" "$tmp/old.conf"
old() { run_of "$tmp/old.conf" "$@"; }
check "config old: o1 (-o loops=5), o2 (-o loops=6), o3 and o4 (-o loops=50 -o datasize=50)" \
	old o1 -o loops=5 '&&' old o2 -o loops=6 '&&' old o3 -o loops=50 -o datasize=50 '&&' \
	old o4 -o loops=50 -o datasize=50
check "forget o2's loops, then every section value of o3 and o4" \
	sql_write "DELETE FROM run_meta WHERE run_id = (SELECT id FROM runs WHERE name = 'o2')
		AND key = 'loops';
		DELETE FROM run_meta WHERE run_id IN (SELECT id FROM runs WHERE name IN ('o3', 'o4'))
		AND section <> ''"
kb history --config old --format json > "$tmp/h.json"
is "a key one run lacks does not count; with no values the options decide, and name" \
	"$(series "$tmp/h.json")" "loops=5:o1 o2
datasize=50, loops=50:o3 o4"

done_testing
