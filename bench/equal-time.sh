#!/bin/sh
# equal-time: the power of mmtests' fixed design and of kbench's
# sequential one at the same wall time, on this machine. mmtests' way
# (compare-kernels.sh's) runs one side then the other, N samples each,
# and compares them with its confidence-interval rule (kbench compare
# --test ci); it never stops early, so its time is set by N. kbench ab
# --rounds auto interleaves the arms in rounds of ITERATIONS samples and
# stops at the first look that decides, at most M rounds; its longest
# time is set by M. For each wall time W in WALLS, N and M are the
# largest that fit in W, from a line through two timed trials of each
# design (printed); each design then runs REPS trials of each change in
# CHANGES (0: A/A, both sides the same; 5 and 10: the changed side does
# 5% or 10% more work, WORKLOAD's row as bench/lib-verdict.sh makes it).
# Prints the fit, then one line per wall time and design:
#   W  DESIGN  SIZE  A/A k/REPS  +5% k/REPS  +10% k/REPS  MEAN s  MAX s
# ("k/REPS,Nw": N marked the wrong way, the changed side faster, which
# are not counted as found; MEAN and MAX: the seconds the trials' samples
# took, to check they were within W), then each share with its 95%
# Wilson interval. It exits 1 when a command fails or a comparison holds
# no verdict, 2 on bad arguments; a W too short for a design's smallest
# size is said and left out.
#
# Usage: bench/equal-time.sh [KBENCH]   (default ./kbench)
# Variables: WORKLOAD (hackbench or pft, default hackbench), WALLS
# (seconds, default "30 60 120"), REPS (default 10), LOOPS (default
# 100), ITERATIONS (samples a round, default 3), MIN_ROUNDS (the first
# look, default 4), EQUIVALENCE (default 5), CHANGES (default "0 5 10"),
# LOG (a file to which each trial appends a line as it ends). Needs
# python3 (to read the json). Hours at the defaults: run it on a machine
# left alone.
. "$(dirname "$0")/usage.sh"
. "$(dirname "$0")/lib-verdict.sh"
set -u
kbench=${1:-${KBENCH:-./kbench}}
WALLS=${WALLS-30 60 120}
REPS=${REPS:-10}
LOOPS=${LOOPS:-100}
ITERATIONS=${ITERATIONS:-3}
MIN_ROUNDS=${MIN_ROUNDS:-4}
EQUIVALENCE=${EQUIVALENCE:-5}
CHANGES=${CHANGES:-0 5 10}
LOG=${LOG-}
for v in REPS LOOPS ITERATIONS MIN_ROUNDS EQUIVALENCE; do
	eval "x=\$$v"
	case $x in
	'' | *[!0-9]* | 0) echo "equal-time: $v must be a positive integer ('$x')" >&2; exit 2 ;;
	esac
done
[ -n "$WALLS" ] || { echo "equal-time: WALLS is empty" >&2; exit 2; }
for x in $WALLS; do
	case $x in
	*[!0-9]* | 0*) echo "equal-time: WALLS are seconds, integers above 0 ('$x')" >&2; exit 2 ;;
	esac
done
for x in $CHANGES; do
	case $x in
	*[!0-9]*) echo "equal-time: CHANGES are percentages, integers ('$x')" >&2; exit 2 ;;
	esac
done
work=$(mktemp -d "${TMPDIR:-/tmp}/equal-time.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# fit DESIGN S1 S2: a line through the time of one trial at each size,
# "A B" (seconds = A + B * size).
fit() {
	trial "$1" "$2" "$LOOPS"
	ta=$t
	trial "$1" "$3" "$LOOPS"
	awk -v s1="$2" -v s2="$3" -v t1="$ta" -v t2="$t" 'BEGIN {
		b = (t2 - t1) / (s2 - s1)
		if (b <= 0) b = t2 / s2		# noise larger than the slope
		printf "%.4f %.4f\n", t1 - b * s1, b
	}'
}

mm=$(fit mmtests 4 32) || exit 1
sq=$(fit ab 2 12) || exit 1
echo "# $(vd_what); $ITERATIONS samples a round; $REPS trials a change and design"
echo "$mm $sq" | awk '{ printf "# time of a trial, fitted: mmtests %.2f + %.3f s a sample a side; seq %.2f + %.3f s a round\n", $1, $2, $3, $4 }'

# size DESIGN W: the largest size that fits in W seconds (seq: even, for
# ABBA), 0 when the smallest does not.
size() {
	case $1 in
	mmtests) echo "$mm" | awk -v w="$2" '{ n = int((w - $1) / $2); print (n >= 2 ? n : 0) }' ;;
	seq) echo "$sq" | awk -v w="$2" -v min="$MIN_ROUNDS" '{
		r = int((w - $1) / $2); r -= r % 2; print (r >= min ? r : 0) }' ;;
	esac
}

printf '%-5s %-8s %-9s' wall design size
for pct in $CHANGES; do
	printf ' %-9s' "$([ "$pct" = 0 ] && echo A/A || echo "+$pct%")"
done
printf ' %-8s %s\n' "mean s" "max s"
: >"$work/shares"
for w in $WALLS; do
	for design in mmtests seq; do
		n=$(size "$design" "$w")
		unit=iter
		[ "$design" = seq ] && unit=max
		if [ "$n" = 0 ]; then
			printf '%-5s %-8s too short for the smallest size\n' "$w" "$design"
			continue
		fi
		printf '%-5s %-8s %-9s' "$w" "$design" "$n $unit"
		: >"$work/times"
		for pct in $CHANGES; do
			lb=$((LOOPS + LOOPS * pct / 100))
			marks=0 wrongs=0 r=0
			while [ "$r" -lt "$REPS" ]; do
				r=$((r + 1))
				trial "$design" "$n" "$lb"
				[ -n "$LOG" ] && echo "$w s $design $n +$pct% $r/$REPS: marked $m," \
					"wrong way $wrong, $t s" >>"$LOG"
				marks=$((marks + m - wrong))
				wrongs=$((wrongs + wrong))
				echo "$t" >>"$work/times"
			done
			cell="$marks/$REPS"
			[ "$wrongs" -gt 0 ] && cell="$cell,${wrongs}w"
			printf ' %-9s' "$cell"
			echo "$w $design $pct $marks $REPS" >>"$work/shares"
		done
		awk '{ s += $1; if ($1 > m) m = $1 } END { printf " %-8.1f %.1f\n", s / NR, m }' "$work/times"
	done
done
[ -s "$work/shares" ] || fail "no wall time held a trial of either design"

wilson=$(cat "$(dirname "$0")/wilson.awk") || exit 1
echo "# marked, with its 95% interval (Wilson):"
awk "$wilson"'{
	printf "%-5s %-8s %-4s %d/%d = %.0f%% (%.0f-%.0f%%)\n", $1, $2, $3 == 0 ? "A/A" : "+" $3 "%",
		$4, $5, 100 * $4 / $5, 100 * wilson_lo($4, $5), 100 * wilson_hi($4, $5)
}' "$work/shares"
