#!/bin/sh
# t1097-run-warmup: warm-up samples are stored, marked (warmup = 1, the
# iterations -1..-N their failures have), without monitor values, and
# left out of everything that counts or compares samples: the run's
# count, compare, history, calibration's noise, show's section table;
# show says what they cost; an export and import keeps the mark.
# Covers: runner/runner.c runner/record.c compare/model.c views/report.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

val() { "$KB_SQL" "$db" "$1"; }

cat > "$tmp/w.conf" <<'CONF'
[hackbench-process-pipes]
transport = pipes
groups = 1 2
loops = 10
iterations = 3
warmup = 2
CONF
for n in a b; do
	check "run $n: 2 warm-ups and 3 samples a row" kb --quiet run -c "$tmp/w.conf" -n "$n" --no-report
done
is "the warm-ups are stored, marked, as iterations -1 and -2 of each row" \
	"$(val "SELECT group_concat(row || ':' || iteration, ' ') FROM (SELECT row, iteration
		FROM samples WHERE warmup = 1 AND run_id = 1 ORDER BY row, iteration)")" \
	"1:-2 1:-1 2:-2 2:-1"
is "... beside the measured samples 1 to 3" \
	"$(val "SELECT group_concat(iteration, ' ') FROM (SELECT DISTINCT iteration FROM samples
		WHERE warmup = 0 ORDER BY iteration)")" "1 2 3"
is "... with their times" \
	"$(val "SELECT count(*) FROM samples WHERE warmup = 1 AND duration_ns > 0 AND value > 0")" 8
is "... and no monitor values" "$(val "SELECT count(*) FROM monitor_values WHERE iteration < 0")" 0
is "the run's count is of measured samples" "$(val "SELECT group_concat(nsamples, ' ') FROM runs")" \
	"6 6"
kb runs --format csv > "$tmp/out" 2>&1
is "... as runs lists it" "$(awk -F, '$1 == "id" { for (i = 1; i <= NF; i++) if ($i == "samples") c = i }
	$1 ~ /^[0-9]+$/ { printf "%s ", $c }' "$tmp/out")" "6 6 "

# Warm-ups far off the samples change no statistic.
"$KB_SQL" --write "$db" "UPDATE samples SET value = 1000 WHERE warmup = 1"
kb compare --format csv a b > "$tmp/csv" 2>"$tmp/err"
ok $? "compare reads the two runs"
is "... whose Max rows are the measured samples' (none of 1000)" \
	"$(awk -F, '$3 == "Max" && $8 + 0 >= 1000' "$tmp/csv")" ""
is "... and whose means are theirs" \
	"$(awk -F, '$3 == "Amean" && $6 == "a" { printf "%.6f\n", $8 }' "$tmp/csv")" \
	"$(val "SELECT printf('%.6f', avg(value)) FROM samples WHERE run_id = 1 AND warmup = 0
		GROUP BY row ORDER BY CAST(row AS INTEGER)")"
is "... of 3 samples a row" "$(awk -F, '$3 == "Amean" { printf "%s ", $7 }' "$tmp/csv")" "3 3 3 3 "
kb history --config w --section hackbench-process-pipes --row 1 --format csv > "$tmp/h" 2>"$tmp/err"
ok $? "history reads the series"
# Each run's point is its 3 measured samples, none of the warm-ups.
is "... and no warm-up in it" \
	"$(awk -F, '!/^#/ && $1 != "host" && ($14 != 3 || $15 + 0 >= 1000)' "$tmp/h")" ""
kb show a > "$tmp/show" 2>&1
check "show counts the samples" grep -q '^hackbench-process-pipes  *6  *0$' "$tmp/show"
check "... and says what the warm-ups were" \
	grep -Eq '^warm-up: 4 results in [0-9]+\.[0-9]{3} s, stored but in no statistic$' "$tmp/show"
kb show --format json a > "$tmp/json" 2>&1
check "... as its json does" grep -q '^{"section":"hackbench-process-pipes","samples":6,"flagged":0,"warmups":4,"warmup_s":[0-9.]*}' "$tmp/json"

# An export and import keeps them, marked.
check "the runs export" kb export a b -o "$tmp/w.kbb"
check "... and import into a new store" "$KBENCH" --db "$tmp/new.db" import "$tmp/w.kbb"
is "... with the warm-ups marked as they were" \
	"$("$KB_SQL" "$tmp/new.db" "SELECT sum(warmup) || ' ' || count(*) FROM samples")" \
	"$(val "SELECT sum(warmup) || ' ' || count(*) FROM samples")"
is "... and the runs' counts" "$("$KB_SQL" "$tmp/new.db" "SELECT group_concat(nsamples, ' ') FROM runs")" \
	"6 6"
"$KBENCH" --db "$tmp/new.db" compare --format csv a b > "$tmp/csv2" 2>"$tmp/err"
is "... and compare reads the same there" "$(sed 1d "$tmp/csv2")" "$(sed 1d "$tmp/csv")"
done_testing
