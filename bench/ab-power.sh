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
# significant (* or +). Prints a line naming the size, then one line per
# design and change:
#   DESIGN       CHANGE  marked x/REPS (pct%)
# and, when CHANGES holds 0, the same at equal false-positive rate: the
# share of each change's p-values below the level at which the design's
# own A/A experiments are marked at most 5% of the time
#   DESIGN       CHANGE  marked x/REPS (pct%) at p < LEVEL
# It exits 1 when a command fails or a comparison holds no verdict.
# Goals (docs/statistics.md): A/A marked <= 5%, +10% marked >= 80% with the
# default rounds, and the interleaved design's power above the sequential
# one's at the same samples.
#
# Usage: bench/ab-power.sh [KBENCH]   (default ./kbench)
# Variables: REPS (default 20), ROUNDS (default 6), ITERATIONS (default
# 3), LOOPS (default 200), CHANGES (the changes in percent, default
# "0 5 10"). Needs python3 (to read the json). No knob is
# changed: no root needed. Run it on a machine left alone.
. "$(dirname "$0")/usage.sh"
. "$(dirname "$0")/lib-verdict.sh"
set -u
kbench=${1:-${KBENCH:-./kbench}}
REPS=${REPS:-20}
ROUNDS=${ROUNDS:-6}
ITERATIONS=${ITERATIONS:-3}
LOOPS=${LOOPS:-200}
CHANGES=${CHANGES:-0 5 10}
for pct in $CHANGES; do
	case $pct in
	'' | *[!0-9]*) echo "ab-power: CHANGES must be percentages ('$pct')" >&2; exit 2 ;;
	esac
done
for v in REPS ROUNDS ITERATIONS LOOPS; do
	eval "x=\$$v"
	case $x in
	'' | *[!0-9]* | 0) echo "ab-power: $v must be a positive integer ('$x')" >&2; exit 2 ;;
	esac
done
work=$(mktemp -d "${TMPDIR:-/tmp}/ab-power.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# count FILE: marked FILE, or stop the script when it has no verdict.
count() {
	m=$(mean_marked "$1" ab-power) || exit 1
	case $m in
	0 | 1) echo "$m" ;;
	*) echo "ab-power: no verdict in the comparison ('$m')" >&2; exit 1 ;;
	esac
}

echo "# hackbench process pipes, 1 group, loops $LOOPS; $ROUNDS rounds x $ITERATIONS samples an arm; $REPS repetitions"
for pct in $CHANGES; do
	lb=$((LOOPS + LOOPS * pct / 100))
	hb_conf "$work/x.conf" "$ROUNDS" "$lb"
	label=$([ "$pct" = 0 ] && echo "A/A" || echo "+$pct%")
	inter=0 seq=0
	r=0
	while [ "$r" -lt "$REPS" ]; do
		r=$((r + 1))
		db=$work/i$pct-$r.db
		"$kbench" --db "$db" -q ab -c "$work/x.conf" -n e --format json \
			> "$work/i.json" 2>"$work/i.err" ||
			{ cat "$work/i.err" >&2; echo "ab-power: kbench ab failed" >&2; exit 1; }
		m=$(count "$work/i.json") || exit 1
		inter=$((inter + m))
		mean_p "$work/i.json" ab-power >> "$work/p.interleaved.$pct" || exit 1
		db=$work/s$pct-$r.db
		"$kbench" --db "$db" -q run -c "$work/x.conf" --only hackbench -n a \
			-o rounds=1 -o iterations=$((ROUNDS * ITERATIONS)) --no-report \
			>/dev/null 2>"$work/s.err" &&
		"$kbench" --db "$db" -q run -c "$work/x.conf" --only hackbench -n b \
			-o rounds=1 -o iterations=$((ROUNDS * ITERATIONS)) -o loops="$lb" \
			--no-report >/dev/null 2>>"$work/s.err" &&
		"$kbench" --db "$db" compare --format json a b > "$work/s.json" 2>>"$work/s.err" ||
			{ cat "$work/s.err" >&2; echo "ab-power: the sequential runs failed" >&2; exit 1; }
		m=$(count "$work/s.json") || exit 1
		seq=$((seq + m))
		mean_p "$work/s.json" ab-power >> "$work/p.sequential.$pct" || exit 1
		rm -f "$work"/*.db "$work"/*.db-*
	done
	printf '%-12s %-6s  marked %d/%d (%d%%)\n' interleaved "$label" "$inter" "$REPS" \
		$((inter * 100 / REPS))
	printf '%-12s %-6s  marked %d/%d (%d%%)\n' sequential "$label" "$seq" "$REPS" \
		$((seq * 100 / REPS))
done

# Power at equal false-positive rate: each design's own A/A p-values set
# the level at which it marks at most 5% of them (the largest threshold
# c <= 0.05 with at most 5% of the A/A p-values below it), and the power
# is the share of each change's p-values below that c. A design whose
# A/A marks run above 5% at p < 0.05 gets a smaller c, so its power is
# told at the rate the other design keeps.
case " $CHANGES " in
*" 0 "*)
	echo "# at equal false-positive rate: p below each design's own A/A 5% level"
	for design in interleaved sequential; do
		for pct in $CHANGES; do
			[ "$pct" = 0 ] && continue
			python3 - "$work/p.$design.0" "$work/p.$design.$pct" "$design" "+$pct%" <<'PY' ||
import sys
aa = sorted(float(x) for x in open(sys.argv[1]))
ch = [float(x) for x in open(sys.argv[2])]
k = int(0.05 * len(aa))            # A/A marks allowed
c = min(0.05, aa[k]) if k < len(aa) else 0.05
n = sum(p < c for p in ch)
print("%-12s %-6s  marked %d/%d (%d%%) at p < %.3g" % (
    sys.argv[3], sys.argv[4], n, len(ch), 100 * n // len(ch), c))
PY
				{ echo "ab-power: cannot read the p-values" >&2; exit 1; }
		done
	done
	;;
esac
