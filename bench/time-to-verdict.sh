#!/bin/sh
# time-to-verdict: the machine time kbench needs to reach a verdict on a
# change in the work, against mmtests' way, at equal false-positive rate,
# on this machine. The work is one hackbench row (process, pipes, 1
# group, LOOPS loops); a change of 5% or 10% is made by the work itself
# (loops raised in the changed side). Three designs, each at the sizes
# given, each size repeated REPS times for A/A, +5% and +10%:
#   mmtests   one run a side of N iterations, compared with mmtests'
#             confidence-interval rule (kbench compare --test ci), as
#             compare-kernels.sh does (SIZES_MMTESTS: N)
#   pooled    K runs a side of ITERATIONS samples, compared with --pool
#             and the default decision (between-run noise from the runs
#             themselves), what the footer's "calibrate N runs" leads to
#             (SIZES_POOLED: K)
#   ab        one interleaved kbench ab experiment of R rounds of
#             ITERATIONS samples an arm, the paired verdict (SIZES_AB: R)
# "marked" is a comparison whose mean row is significant (* or +). The
# machine time of a verdict is the wall time of the commands that made
# its samples (runs or experiment), averaged over the repetitions.
# Prints one line per design and size:
#   DESIGN   SIZE   A/A x/REPS  +5% x/REPS  +10% x/REPS  S s a verdict
# then, per design, the smallest size that reached the goal (A/A marked
# at most 5%, +10% marked at least 80%) and its time, and the ratio of
# the fastest kbench design's time to the mmtests way's (an upper bound,
# "below R", when mmtests' way missed the goal at every size tried: then
# it needs more time than its largest size took).
# Goal (docs/statistics.md): the ratio below 0.5. It exits 1 when a
# command fails or a comparison holds no verdict (nothing measured), 2
# on bad arguments; a goal not reached is printed, not an error.
#
# Usage: bench/time-to-verdict.sh [KBENCH]   (default ./kbench)
# Variables: REPS (default 20), LOOPS (default 200), ITERATIONS (samples
# a run or a round, default 3), SIZES_MMTESTS (default "6 12 24"),
# SIZES_POOLED (default "3 5"), SIZES_AB (default "6 12"), CHANGES
# (default "0 5 10"). Needs python3 (to read the json). Hours at the
# defaults: run it on a machine left alone.
. "$(dirname "$0")/usage.sh"
. "$(dirname "$0")/lib-verdict.sh"
set -u
kbench=${1:-${KBENCH:-./kbench}}
REPS=${REPS:-20}
LOOPS=${LOOPS:-200}
ITERATIONS=${ITERATIONS:-3}
SIZES_MMTESTS=${SIZES_MMTESTS-6 12 24}
SIZES_POOLED=${SIZES_POOLED-3 5}
SIZES_AB=${SIZES_AB-6 12}
CHANGES=${CHANGES:-0 5 10}
for v in REPS LOOPS ITERATIONS; do
	eval "x=\$$v"
	case $x in
	'' | *[!0-9]* | 0) echo "time-to-verdict: $v must be a positive integer ('$x')" >&2; exit 2 ;;
	esac
done
for x in $SIZES_MMTESTS $SIZES_POOLED $SIZES_AB $CHANGES; do
	case $x in
	'' | *[!0-9]*) echo "time-to-verdict: sizes and changes are integers ('$x')" >&2; exit 2 ;;
	esac
done
case " $CHANGES " in
*" 0 "*) ;;
*) echo "time-to-verdict: CHANGES must hold 0 (the A/A trials)" >&2; exit 2 ;;
esac
work=$(mktemp -d "${TMPDIR:-/tmp}/time-to-verdict.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

fail() {
	[ -s "$work/err" ] && sed 's/^/  /' "$work/err" >&2
	echo "time-to-verdict: $*" >&2
	exit 1
}

now() { date +%s.%N; }


# run NAME LOOPS_B ITERS: one plain run into $db.
run() {
	"$kbench" --db "$db" -q run -c "$work/x.conf" --only hackbench -n "$1" \
		-o loops="$2" -o iterations="$3" --no-report >/dev/null 2>>"$work/err"
}

# trial DESIGN SIZE LOOPS_B: one comparison; sets m (0 or 1) and t (the
# seconds its samples took).
trial() {
	db=$work/t.db
	rm -f "$db" "$db"-* "$work/err"
	hb_conf "$work/x.conf" "$2" "$3"
	t0=$(now)
	case $1 in
	mmtests)
		run a "$LOOPS" "$2" && run b "$3" "$2" || fail "kbench run failed"
		t1=$(now)
		"$kbench" --db "$db" compare --test ci --format json a b >"$work/c.json" \
			2>>"$work/err" || fail "kbench compare failed"
		;;
	pooled)
		i=0
		while [ "$i" -lt "$2" ]; do
			i=$((i + 1))
			run a "$LOOPS" "$ITERATIONS" && run b "$3" "$ITERATIONS" ||
				fail "kbench run failed"
		done
		t1=$(now)
		"$kbench" --db "$db" compare --pool --format json a b >"$work/c.json" \
			2>>"$work/err" || fail "kbench compare failed"
		;;
	ab)
		"$kbench" --db "$db" -q ab -c "$work/x.conf" -n e --no-report \
			>/dev/null 2>>"$work/err" || fail "kbench ab failed"
		t1=$(now)
		"$kbench" --db "$db" compare --format json e/a e/b >"$work/c.json" \
			2>>"$work/err" || fail "kbench compare failed"
		;;
	esac
	m=$(mean_marked "$work/c.json" time-to-verdict) || exit 1
	t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
}

# The sizes that reached the goal: "DESIGN SIZE SECONDS", one a line.
: >"$work/reached"
: >"$work/sizes"
echo "# hackbench process pipes, 1 group, loops $LOOPS; $ITERATIONS samples a run or round; $REPS repetitions"
printf '%-8s %-10s' design size
for pct in $CHANGES; do
	printf '  %-8s' "$([ "$pct" = 0 ] && echo A/A || echo "+$pct%")"
done
printf '  %s\n' "s a verdict"
for design in mmtests pooled ab; do
	case $design in
	mmtests) sizes=$SIZES_MMTESTS unit=iter ;;
	pooled) sizes=$SIZES_POOLED unit=runs ;;
	ab) sizes=$SIZES_AB unit=rounds ;;
	esac
	for size in $sizes; do
		printf '%-8s %-10s' "$design" "$size $unit"
		total=0 n=0 aa=0 ten=
		for pct in $CHANGES; do
			lb=$((LOOPS + LOOPS * pct / 100))
			marks=0 r=0
			while [ "$r" -lt "$REPS" ]; do
				r=$((r + 1))
				trial "$design" "$size" "$lb"
				marks=$((marks + m))
				total=$(awk -v a="$total" -v b="$t" 'BEGIN { printf "%.6f", a + b }')
				n=$((n + 1))
			done
			[ "$pct" = 0 ] && aa=$marks
			[ "$pct" = 10 ] && ten=$marks
			printf '  %-8s' "$marks/$REPS"
		done
		secs=$(awk -v a="$total" -v n="$n" 'BEGIN { printf "%.2f", a / n }')
		case $secs in
		'' | *[!0-9.]* | .) fail "cannot compute the time a verdict ('$secs')" ;;
		esac
		printf '  %s\n' "$secs"
		echo "$design $size $unit $secs" >>"$work/sizes"
		# The goal: A/A at most 5%, +10% at least 80% of REPS.
		if [ -n "$ten" ] && [ $((aa * 100)) -le $((5 * REPS)) ] &&
		   [ $((ten * 100)) -ge $((80 * REPS)) ] && ! grep -q "^$design " "$work/reached"; then
			echo "$design $size $unit $secs" >>"$work/reached"
		fi
	done
done

echo "# the smallest size reaching the goal (A/A <= 5%, +10% >= 80%):"
for design in mmtests pooled ab; do
	line=$(grep "^$design " "$work/reached")
	if [ -n "$line" ]; then
		echo "$line" | awk '{ printf "%-8s %s %s, %s s a verdict\n", $1, $2, $3, $4 }'
	else
		printf "%-8s not reached at the sizes tried\n" "$design"
	fi
done
mm=$(awk '$1 == "mmtests" { print $4 }' "$work/reached")
best=$(awk '$1 != "mmtests" { print $4 }' "$work/reached" | sort -g | head -1)
if [ -n "$mm" ] && [ -n "$best" ]; then
	ratio=$(awk -v a="$best" -v b="$mm" 'BEGIN { if (b > 0) printf "%.3f", a / b }')
	case $ratio in
	'' | 0.000 | *[!0-9.]*) fail "cannot compute the ratio from '$best' and '$mm'" ;;
	esac
	echo "ratio kbench/mmtests: $ratio (goal < 0.5)"
elif [ -n "$best" ] && grep -q '^mmtests ' "$work/sizes"; then
	# mmtests' way missed the goal at every size tried: it needs more
	# than its largest size's time (its rule does not gain power with
	# samples), so the ratio is below the one to that time.
	last=$(awk '$1 == "mmtests" && $2 + 0 >= s + 0 { s = $2; t = $4 } END { print s, t }' "$work/sizes")
	ratio=$(awk -v a="$best" -v b="${last#* }" 'BEGIN { if (b > 0) printf "%.3f", a / b }')
	case $ratio in
	'' | 0.000 | *[!0-9.]*) fail "cannot compute the ratio from '$best' and '${last#* }'" ;;
	esac
	echo "ratio kbench/mmtests: below $ratio (goal < 0.5): mmtests' way did not reach the goal at ${last% *} iterations, ${last#* } s a verdict"
else
	echo "ratio kbench/mmtests: cannot be told (no kbench design reached the goal at the sizes tried, or mmtests' way was not run)"
fi
