#!/bin/sh
# ab-power: false positives and power of kbench ab's interleaved design
# against the sequential one, on this machine. Each experiment compares
# two arms of one hackbench row (process, pipes, 1 group): A/A (both arms
# identical), and A/B with a change of known size made by the work
# itself (loops +5% and +10% in arm B). The interleaved design is one
# `kbench ab` (ROUNDS rounds of ITERATIONS samples per arm, ABBA, the
# paired verdict); the sequential design is two plain `kbench run`s of
# ROUNDS x ITERATIONS samples each, one after the other, compared by the
# default `kbench compare` in a store of their own (what a user doing the
# before/after by hand gets). Both designs take the same samples. Each is
# repeated REPS times; "marked" is the share whose mean row is
# significant (* or +). Prints one line per design and change:
#   DESIGN       CHANGE  marked x/REPS (pct%)
# Goals (docs/statistics.md): A/A marked <= 5%, +10% marked >= 80% with the
# default rounds, and the interleaved design's power above the sequential
# one's at the same samples.
#
# Usage: bench/ab-power.sh [KBENCH]   (default ./kbench)
# Variables: REPS (default 20), ROUNDS (default 6), ITERATIONS (default
# 3), LOOPS (default 200). Needs python3 (to read the json). No knob is
# changed: no root needed. Run it on a machine left alone.
. "$(dirname "$0")/usage.sh"
set -u
kbench=${1:-${KBENCH:-./kbench}}
REPS=${REPS:-20}
ROUNDS=${ROUNDS:-6}
ITERATIONS=${ITERATIONS:-3}
LOOPS=${LOOPS:-200}
work=$(mktemp -d "${TMPDIR:-/tmp}/ab-power.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# conf FILE LOOPS_B: the experiment's config, arm b at LOOPS_B.
conf() {
	cat > "$1" <<CONF
[experiment]
rounds = $ROUNDS

[arm:a]

[arm:b]
option.loops = $2

[global]
iterations = $ITERATIONS
warmup = 1
loops = $LOOPS
groups = 1
timeout = 60

[hackbench-process-pipes]
mode = process
transport = pipes
CONF
}

# marked JSON: 1 when the mean row of the last column is significant.
marked() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
t = d["sections"][0]["rows"][0]["runs"][-1].get("test", {})
print(1 if t.get("significant") else 0)' "$1"
}

for pct in 0 5 10; do
	lb=$((LOOPS + LOOPS * pct / 100))
	conf "$work/x.conf" "$lb"
	label=$([ "$pct" = 0 ] && echo "A/A" || echo "+$pct%")
	inter=0 seq=0
	r=0
	while [ "$r" -lt "$REPS" ]; do
		r=$((r + 1))
		db=$work/i$pct-$r.db
		"$kbench" --db "$db" -q ab -c "$work/x.conf" -n e --format json \
			> "$work/i.json" 2>"$work/i.err" || { cat "$work/i.err" >&2; exit 1; } || { echo "kbench ab failed" >&2; exit 1; }
		inter=$((inter + $(marked "$work/i.json")))
		db=$work/s$pct-$r.db
		"$kbench" --db "$db" -q run -c "$work/x.conf" --only hackbench -n a \
			-o rounds=1 -o iterations=$((ROUNDS * ITERATIONS)) --no-report \
			>/dev/null 2>&1 &&
		"$kbench" --db "$db" -q run -c "$work/x.conf" --only hackbench -n b \
			-o rounds=1 -o iterations=$((ROUNDS * ITERATIONS)) -o loops="$lb" \
			--no-report >/dev/null 2>&1 &&
		"$kbench" --db "$db" compare --format json a b > "$work/s.json" 2>/dev/null ||
			{ echo "sequential runs failed" >&2; exit 1; }
		seq=$((seq + $(marked "$work/s.json")))
		rm -f "$work"/*.db "$work"/*.db-*
	done
	printf '%-12s %-6s  marked %d/%d (%d%%)\n' interleaved "$label" "$inter" "$REPS" \
		$((inter * 100 / REPS))
	printf '%-12s %-6s  marked %d/%d (%d%%)\n' sequential "$label" "$seq" "$REPS" \
		$((seq * 100 / REPS))
done
