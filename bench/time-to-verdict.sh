#!/bin/sh
# time-to-verdict: the machine time kbench needs to reach a verdict on a
# change in the work, against mmtests' way, at equal false-positive rate,
# on this machine. The work is one row of WORKLOAD (bench/lib-verdict.sh):
# hackbench (the default; process, pipes, 1 group, LOOPS loops) or pft
# (1 thread faulting a mapping of LOOPS MiB, its elapsed-1 row); a change
# of 5% or 10% is made by the work itself (loops or MiB raised in the
# changed side). Four designs, each at the sizes
# given, each size repeated REPS times for each change (the kbench
# designs' A/A REPS_AA times, mmtests' way REPS_MMTESTS times for each):
#   mmtests   one run a side of N iterations, compared with mmtests'
#             confidence-interval rule (kbench compare --test ci), as
#             compare-kernels.sh does (SIZES_MMTESTS: N)
#   pooled    K runs a side of ITERATIONS samples, compared with --pool
#             and the default decision (between-run noise from the runs
#             themselves), what the footer's "calibrate N runs" leads to
#             (SIZES_POOLED: K)
#   ab        one interleaved kbench ab experiment of R rounds of
#             ITERATIONS samples an arm, the paired verdict (SIZES_AB: R)
#   nested    the ab design's experiments read again with compare
#             --paired nested (the samples within the rounds pooled in when
#             no round-by-arm noise is found): a line of its own after
#             each ab size, from the same experiments and times
#   seq       one kbench ab --rounds auto experiment (the group-sequential
#             design: a look after MIN_ROUNDS rounds, then every 2, up to
#             M; no change within +/-EQUIVALENCE%), which stops at the
#             first look that decides (SIZES_SEQ: M)
# "marked" is a comparison whose mean row is significant (* or +); for
# a change, one marked in the wrong direction is counted apart
# ("wrong"). The machine time of a verdict is the wall time of the
# commands that made its samples (runs or experiment).
# Prints one line per design and size:
#   DESIGN SIZE  A/A x/REPS_AA  +5% x/REPS  +10% x/REPS  MEAN s  MEDIAN+10 s
# (mean seconds a verdict over every trial; median over the +10% trials,
# which is what a user waits for a change of that size), then the A/A
# share with its 95% Wilson interval per design and size, then per
# design the smallest size that reached the goal (A/A marked at most 5%,
# +10% marked at least 80%) and its time, and the ratio of the fastest
# kbench design's time to the mmtests way's (an upper bound, "below R",
# when mmtests' way missed the goal at every size tried: then it needs
# more time than its largest size took); and, when seq ran, its own
# goal: A/A at most 5%, +10% at least 90%, and its median time to a
# verdict at +10% at most a quarter of mmtests' way's (at the largest
# mmtests size tried when none reached the goal).
# Goal (docs/statistics.md): the ratio below 0.5. It exits 1 when a
# command fails or a comparison holds no verdict (nothing measured), 2
# on bad arguments; a goal not reached is printed, not an error.
#
# Usage: bench/time-to-verdict.sh [KBENCH]   (default ./kbench)
# Variables: WORKLOAD (hackbench or pft, default hackbench), REPS
# (default 20), REPS_AA (default REPS), REPS_MMTESTS (default REPS),
# LOOPS (default 200), ITERATIONS (samples a run or a round, default 3), SIZES_MMTESTS
# (default "6 12 24"), SIZES_POOLED (default "3 5"), SIZES_AB (default
# "6 12"), SIZES_SEQ (default "24"), MIN_ROUNDS (default 4), EQUIVALENCE
# (default 5), CHANGES (default "0 5 10"), LOG (a file to which each
# trial appends a line as it ends: design, size, change, repetition,
# marked, wrong way, the change's sign, seconds; for the progress of a
# long run, and the trials of one stopped part way). Needs python3 (to read the
# json). Hours at the defaults: run it on a machine left alone.
. "$(dirname "$0")/usage.sh"
. "$(dirname "$0")/lib-verdict.sh"
set -u
kbench=${1:-${KBENCH:-./kbench}}
REPS=${REPS:-20}
REPS_AA=${REPS_AA:-$REPS}
REPS_MMTESTS=${REPS_MMTESTS:-$REPS}
LOOPS=${LOOPS:-200}
ITERATIONS=${ITERATIONS:-3}
SIZES_MMTESTS=${SIZES_MMTESTS-6 12 24}
SIZES_POOLED=${SIZES_POOLED-3 5}
SIZES_AB=${SIZES_AB-6 12}
SIZES_SEQ=${SIZES_SEQ-24}
MIN_ROUNDS=${MIN_ROUNDS:-4}
EQUIVALENCE=${EQUIVALENCE:-5}
CHANGES=${CHANGES:-0 5 10}
LOG=${LOG-}
for v in REPS REPS_AA REPS_MMTESTS LOOPS ITERATIONS MIN_ROUNDS EQUIVALENCE; do
	eval "x=\$$v"
	case $x in
	'' | *[!0-9]* | 0) echo "time-to-verdict: $v must be a positive integer ('$x')" >&2; exit 2 ;;
	esac
done
for x in $SIZES_MMTESTS $SIZES_POOLED $SIZES_AB $SIZES_SEQ $CHANGES; do
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

# The sizes that reached the goal: "DESIGN SIZE SECONDS", one a line;
# every size: "DESIGN SIZE UNIT MEAN MEDIAN10 AA TEN" (MEDIAN10 and TEN
# "-" without +10% trials).
: >"$work/reached"
: >"$work/sizes"
: >"$work/signs"
echo "# $(vd_what); $ITERATIONS samples a run or round; $REPS repetitions ($REPS_AA for the kbench designs' A/A, $REPS_MMTESTS for mmtests' way)"
printf '%-8s %-10s' design size
for pct in $CHANGES; do
	printf '  %-10s' "$([ "$pct" = 0 ] && echo A/A || echo "+$pct%")"
done
printf '  %-9s %s\n' "mean s" "median s at +10%"
# size_done DESIGN AA TEN [FIVE FIVEW]: the size's figures into sizes
# (FIVE and FIVEW: +5% found, and marked the wrong way), and into
# reached when it reaches the goal, A/A at most 5% and +10% at least 80%
# of the trials (the first size of the design that does).
size_done() {
	echo "$1 $size $unit $secs $med $2 $3 $aareps ${4:--} ${5:--} $fivereps" >>"$work/sizes"
	if [ "$3" != - ] && [ $(($2 * 100)) -le $((5 * aareps)) ] &&
	   [ $(($3 * 100)) -ge $((80 * tenreps)) ] && ! grep -q "^$1 " "$work/reached"; then
		echo "$1 $size $unit $secs" >>"$work/reached"
	fi
}

for design in mmtests pooled ab seq; do
	case $design in
	mmtests) sizes=$SIZES_MMTESTS unit=iter ;;
	pooled) sizes=$SIZES_POOLED unit=runs ;;
	ab) sizes=$SIZES_AB unit=rounds ;;
	seq) sizes=$SIZES_SEQ unit=max ;;
	esac
	for size in $sizes; do
		printf '%-8s %-10s' "$design" "$size $unit"
		total=0 n=0 aa=0 ten=- tenreps=0 aan=0 tenn=- nline= five=- fivew=- fivereps=-
		: >"$work/t10"
		for pct in $CHANGES; do
			lb=$((LOOPS + LOOPS * pct / 100))
			reps=$REPS
			[ "$pct" = 0 ] && reps=$REPS_AA
			[ "$design" = mmtests ] && reps=$REPS_MMTESTS
			marks=0 wrongs=0 marksn=0 wrongsn=0 r=0
			while [ "$r" -lt "$reps" ]; do
				r=$((r + 1))
				trial "$design" "$size" "$lb"
				sign=$(mean_sign "$work/c.json" "$vd_who") || exit 1
				[ "$pct" = 0 ] && echo "$design $size $sign" >>"$work/signs"
				[ -n "$LOG" ] && echo "$design $size +$pct% $r/$reps: marked $m," \
					"wrong way $wrong, $sign, $t s" >>"$LOG"
				marks=$((marks + m - wrong))
				wrongs=$((wrongs + wrong))
				if [ "$design" = ab ]; then
					marksn=$((marksn + mn - wrongn))
					wrongsn=$((wrongsn + wrongn))
				fi
				total=$(awk -v a="$total" -v b="$t" 'BEGIN { printf "%.6f", a + b }')
				n=$((n + 1))
				[ "$pct" = 10 ] && echo "$t" >>"$work/t10"
			done
			[ "$pct" = 0 ] && aa=$marks aan=$marksn
			[ "$pct" = 10 ] && ten=$marks tenn=$marksn tenreps=$reps
			[ "$pct" = 5 ] && five=$marks fivew=$wrongs fivereps=$reps
			cell="$marks/$reps"
			[ "$wrongs" -gt 0 ] && cell="$cell,${wrongs}w"
			printf '  %-10s' "$cell"
			cell="$marksn/$reps"
			[ "$wrongsn" -gt 0 ] && cell="$cell,${wrongsn}w"
			nline=$nline$(printf '  %-10s' "$cell")
		done
		secs=$(awk -v a="$total" -v n="$n" 'BEGIN { printf "%.2f", a / n }')
		case $secs in
		'' | *[!0-9.]* | .) fail "cannot compute the time a verdict ('$secs')" ;;
		esac
		med=-
		if [ -s "$work/t10" ]; then
			med=$(sort -g "$work/t10" | awk '{ v[NR] = $1 }
				END { printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
		fi
		printf '  %-9s %s\n' "$secs" "$med"
		aareps=$REPS_AA
		[ "$design" = mmtests ] && aareps=$REPS_MMTESTS
		size_done "$design" "$aa" "$ten" "$five" "$fivew"
		if [ "$design" = ab ]; then
			printf '%-8s %-10s%s  %-9s %s\n' nested "$size $unit" "$nline" "$secs" "$med"
			size_done nested "$aan" "$tenn"
		fi
	done
done

# The A/A share of each size, with its 95% Wilson score interval.
wilson=$(cat "$(dirname "$0")/wilson.awk") || exit 1
echo "# A/A marked, with its 95% interval (Wilson):"
awk "$wilson"'{
	printf "%-8s %-10s %d/%d = %.1f%% (%.1f-%.1f%%)\n", $1, $2 " " $3, $6, $8, 100 * $6 / $8,
		100 * wilson_lo($6, $8), 100 * wilson_hi($6, $8)
}' "$work/sizes"

# The A/A changes' signs: are they centred on zero? A two-sided exact
# sign test of the number in which the second arm was slower.
echo "# A/A: the second arm slower, with the two-sided sign test's p:"
awk '{ k[$1 " " $2] += ($3 == "worse"); n[$1 " " $2]++ }
function lchoose(n, k,    i, s) { s = 0; for (i = 1; i <= k; i++) s += log(n - k + i) - log(i); return s }
END {
	for (key in n) {
		lo = 0; hi = 0
		for (i = 0; i <= n[key]; i++) {
			pr = exp(lchoose(n[key], i) - n[key] * log(2))
			if (i <= k[key]) lo += pr
			if (i >= k[key]) hi += pr
		}
		p = 2 * (lo < hi ? lo : hi); if (p > 1) p = 1
		printf "%-19s %d of %d (p %.3g)\n", key, k[key], n[key], p
	}
}' "$work/signs" | sort
echo "# the smallest size reaching the goal (A/A <= 5%, +10% >= 80%):"
designs="mmtests pooled ab"
[ -n "$SIZES_AB" ] && designs="$designs nested"
for design in $designs seq; do
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

# The sequential design's own goal, at each size it ran.
grep -q '^seq ' "$work/sizes" || exit 0
mmline=$(awk '$1 == "mmtests" && $5 != "-"' "$work/sizes" | sort -k2,2n | tail -1)
for line in $(awk '$1 == "seq" { print $2 ":" $5 ":" $6 ":" $7 }' "$work/sizes"); do
	IFS=: read -r size med aa ten <<EOT
$line
EOT
	if [ "$ten" = - ]; then
		echo "seq goal at $size max: cannot be told (no +10% trials: CHANGES must hold 10)"
		continue
	fi
	verdict=met
	[ $((aa * 100)) -le $((5 * REPS_AA)) ] || verdict="not met"
	[ $((ten * 100)) -ge $((90 * REPS)) ] || verdict="not met"
	if [ -n "$mmline" ]; then
		mmed=$(echo "$mmline" | awk '{ print $5 }')
		q=$(awk -v a="$med" -v b="$mmed" 'BEGIN { if (b > 0) printf "%.3f", a / b }')
		case $q in
		'' | *[!0-9.]*) fail "cannot compute the median ratio from '$med' and '$mmed'" ;;
		esac
		awk -v q="$q" 'BEGIN { exit !(q <= 0.25) }' || verdict="not met"
		rel="median at +10% $med s, $q of mmtests' way at $(echo "$mmline" | awk '{ print $2 }') iterations ($mmed s; goal <= 0.25)"
		# mmtests' way that found under 80% at +10% has a longer time to a
		# verdict than its trials took: the ratio is an upper bound.
		mmten=$(echo "$mmline" | awk '{ print $7 }')
		[ $((mmten * 100)) -lt $((80 * REPS_MMTESTS)) ] &&
			rel="$rel, an upper bound: mmtests' way found $mmten/$REPS_MMTESTS there"
	else
		verdict="not told"
		rel="median at +10% $med s (mmtests' way not run at +10%)"
	fi
	echo "seq goal at $size max: A/A $aa/$REPS_AA (<= 5%), +10% $ten/$REPS (>= 90%), $rel: $verdict"
done
# The +5% goal of the sequential design, at each size it ran: found at
# least 80%, none the wrong way, and A/A within 5%, shown by the upper
# end of its 95% Wilson interval at most 7%.
awk "$wilson"'$1 == "seq" && $9 != "-" {
	hi = wilson_hi($6, $8); q = $9 / $11
	met = q >= 0.8 && $10 == 0 && hi <= 0.07
	printf "seq +5%% goal at %s max: +5%% %d/%d = %.0f%% (%.0f-%.0f%%; >= 80%%), wrong way %d (0), A/A %d/%d, upper %.1f%% (<= 7%%): %s\n",
		$2, $9, $11, 100 * q, 100 * wilson_lo($9, $11), 100 * wilson_hi($9, $11), $10, $6, $8,
		100 * hi, met ? "met" : "not met"
}' "$work/sizes"
