#!/bin/bash
# monitor-overhead: what recording every monitor costs the measurement.
# hackbench (process, sockets, g = 4) runs through 'kbench run' with
# 'monitors = all' and with 'monitors = none', alternating A B A B so that
# drift hits both alike. Each pair's ratio is median(all)/median(none) of
# the samples' times; the script prints the median of the per-pair ratios
# (goal: <= 1.01) and each side's coefficient of variation.
# A run that stores no sample time, or a median or ratio that is not a
# number above 0, stops the script with status 1.
#
# Variables: KBENCH (default ./kbench), PAIRS (default 7), SAMPLES (samples
# per side and pair, default 5), GROUPS_N (default 4), LOOPS (default 200).
. "$(dirname "$0")/usage.sh"
. "$(dirname "$0")/figure.sh"
set -u
KBENCH=${KBENCH:-./kbench}
PAIRS=${PAIRS:-7}
SAMPLES=${SAMPLES:-5}
GROUPS_N=${GROUPS_N:-4}
LOOPS=${LOOPS:-200}

[ -x "$KBENCH" ] || { echo "bench: KBENCH=$KBENCH is not executable (build first)" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "bench: needs the sqlite3 command (apt-get install sqlite3)" >&2; exit 2; }
[ "$PAIRS" -ge 5 ] || { echo "bench: PAIRS must be at least 5" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
db=$dir/bench.db

for side in all none; do
	cat > "$dir/$side.conf" <<CONF
[global]
iterations = $SAMPLES
warmup = 1
loops = $LOOPS
groups = $GROUPS_N
monitors = $side
perf_events = task-clock,page-faults,context-switches,cpu-migrations

[hackbench-process-sockets]
CONF
done

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
cv() { awk '{ s += $1; q += $1 * $1; n++ } END { m = s / n; sd = sqrt((q - n * m * m) / (n - 1)); printf "%.2f", 100 * sd / m }'; }

: > "$dir/ratios"
for p in $(seq 1 "$PAIRS"); do
	for side in all none; do
		"$KBENCH" --quiet --db "$db" run -c "$dir/$side.conf" -n "$side-$p" >/dev/null ||
			{ echo "bench: kbench run failed" >&2; exit 1; }
		sqlite3 "$db" "SELECT value FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.name = '$side-$p' AND s.warmup = 0" > "$dir/$side-$p"
		cat "$dir/$side-$p" >> "$dir/$side.all"
	done
	a=$(median < "$dir/all-$p")
	n=$(median < "$dir/none-$p")
	need_figure "pair $p, monitors all: the median time" "$a" "$dir/all-$p"
	need_figure "pair $p, monitors none: the median time" "$n" "$dir/none-$p"
	r=$(awk -v a="$a" -v n="$n" 'BEGIN { printf "%.4f", a / n }')
	need_figure "pair $p: the ratio" "$r"
	echo "$r" >> "$dir/ratios"
	printf 'pair %d: monitors all %.4f s, none %.4f s, ratio %s\n' "$p" "$a" "$n" "$r"
done
printf 'hackbench process sockets g=%s loops=%s, %s pairs x %s samples\n' "$GROUPS_N" "$LOOPS" "$PAIRS" "$SAMPLES"
printf 'CV monitors all %s%%, none %s%%\n' "$(cv < "$dir/all.all")" "$(cv < "$dir/none.all")"
printf 'median ratio all/none: %s (goal <= 1.01)\n' "$(median < "$dir/ratios")"
