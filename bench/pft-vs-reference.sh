#!/bin/bash
# pft-vs-reference: kbench pft side by side with a reference pft binary
# (gormanm/pft, as mmtests ran it), alternating the two tools pair by pair
# (kbench first in odd pairs, the reference first in even ones) so that
# drift hits both alike. For threads and processes and each worker count
# it prints the median of the per-pair ratios kbench/reference of
# faults/sec (>= 1.00: kbench faults as fast or faster) and of system time
# (<= 1.00: kbench spends no more), each tool's median and CV, then the
# medians over all pairs. One discarded run of each tool precedes each
# case: memory a hypervisor reclaimed while idle is slow to fault in.
#
# Without PFT it compares kbench's own models: the ratios are then
# threads/processes.
#
# Each tool's output is read by its title line: the columns named System
# and fault/wsec (the reference prints its title with -T, which it is
# given). An output without that title, or whose figures are not numbers
# above 0, stops the script with status 1 and shows what was read, as
# does a ratio that is not a number above 0.
#
# Variables: KBENCH (default ./kbench), PFT (the reference binary; unset:
# threads vs processes), PAIRS (default 7), COUNTS (worker counts,
# default "1 2"), SIZE (bytes mapped, default MemTotal/5 as mmtests).
. "$(dirname "$0")/usage.sh"
. "$(dirname "$0")/figure.sh"
set -u
KBENCH=${KBENCH:-./kbench}
PFT=${PFT:-}
PAIRS=${PAIRS:-7}
COUNTS=${COUNTS:-"1 2"}
SIZE=${SIZE:-$(awk '/^MemTotal:/ { printf "%.0f\n", $2 * 1024 / 5 }' /proc/meminfo)}

[ -x "$KBENCH" ] || { echo "bench: KBENCH=$KBENCH is not executable (build first)" >&2; exit 2; }
if [ -n "$PFT" ] && [ ! -x "$PFT" ]; then
	echo "bench: PFT=$PFT is not executable" >&2
	exit 2
fi
[ "$PAIRS" -ge 1 ] 2>/dev/null || { echo "bench: PAIRS must be a positive count" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/pft-bench.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

# Both tools print a title line and a data line under it: Size (or Gb),
# Thr, CLine, User, System, Wall, flt/cpu/s, fault/wsec, times with an
# "s". Print "faults/sec system" from the columns the title names, or
# nothing (status 1) when there is no such title or line.
figures() {
	awk '/^#/ { next }
	     !cols { for (i = 1; i <= NF; i++) { if ($i == "fault/wsec") f = i; if ($i == "System") y = i }
		     if (f && y) cols = NF; next }
	     NF == cols && !found { sy = $y; sub(/s$/, "", sy); print $f, sy; found = 1 }
	     END { if (!found) exit 1 }'
}
# one TOOL MODEL COUNT: run TOOL (kb or ref) once; set fig to "faults/sec
# system", or exit 1 showing what it printed.
one() {
	local flag=-t cmd
	[ "$2" = processes ] && flag=-n
	if [ "$1" = ref ]; then
		cmd="$PFT -T"
	else
		cmd="$KBENCH pft"
	fi
	$cmd -m "$SIZE" "$flag" "$3" > "$work/out" 2>&1 ||
		{ echo "bench: '$cmd $flag $3' failed:" >&2; sed 's/^/  | /' "$work/out" >&2; exit 1; }
	fig=$(figures < "$work/out")
	need_figure "'$cmd $flag $3': fault/wsec" "${fig% *}" "$work/out"
	need_figure "'$cmd $flag $3': System" "${fig#* }" "$work/out"
}

# median and coefficient of variation (%) of the numbers on stdin
stats() {
	sort -g | awk '{ v[NR] = $1; s += $1; ss += $1 * $1 }
		END { if (!NR) { print "nan nan"; exit }
		      m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
		      mean = s / NR; sd = (NR > 1) ? sqrt((ss - NR * mean * mean) / (NR - 1)) : 0;
		      printf "%.3f %.1f\n", m, (mean > 0) ? 100 * sd / mean : 0 }'
}

# one case: A and B are "tool model", PAIRS alternating pairs; appends the
# pair ratios to the all-cases files and prints one line
run_case() {	# label a_tool a_model b_tool b_model count
	local label=$1 at=$2 amodel=$3 bt=$4 bmodel=$5 n=$6 i a b
	: > "$work/a"; : > "$work/b"; : > "$work/r"
	one "$at" "$amodel" "$n" && one "$bt" "$bmodel" "$n"
	for i in $(seq "$PAIRS"); do
		if [ $((i % 2)) -eq 1 ]; then
			one "$at" "$amodel" "$n"; a=$fig
			one "$bt" "$bmodel" "$n"; b=$fig
		else
			one "$bt" "$bmodel" "$n"; b=$fig
			one "$at" "$amodel" "$n"; a=$fig
		fi
		echo "$a" >> "$work/a"
		echo "$b" >> "$work/b"
		set -- $a $b
		awk -v af="$1" -v as="$2" -v bf="$3" -v bs="$4" \
			'BEGIN { printf "%.6f %.6f\n", af / bf, as / bs }' >> "$work/r"
	done
	cat "$work/r" >> "$work/all"
	read -r afm afcv < <(cut -d' ' -f1 "$work/a" | stats)
	read -r bfm bfcv < <(cut -d' ' -f1 "$work/b" | stats)
	read -r rf _ < <(cut -d' ' -f1 "$work/r" | stats)
	read -r rs _ < <(cut -d' ' -f2 "$work/r" | stats)
	need_figure "$label $n: the median fault/s ratio" "$rf"
	need_figure "$label $n: the median system ratio" "$rs"
	printf '%-12s %3s %5s  %10s %10s  %12.0f %12.0f %7s %7s\n' "$label" "$n" "$PAIRS" \
		"$rf" "$rs" "$afm" "$bfm" "$afcv" "$bfcv"
}

: > "$work/all"
if [ -n "$PFT" ]; then
	what="kbench/reference"
	echo "kbench pft vs $PFT, mapping $SIZE bytes, $PAIRS pairs per case"
	head=(model N pairs "fault/s" "system" "kb-fault/s" "ref-fault/s" "kb-CV%" "ref-CV%")
else
	what="threads/processes (kbench only: set PFT to compare with the reference)"
	echo "kbench pft threads vs processes, mapping $SIZE bytes, $PAIRS pairs per case"
	head=(models N pairs "fault/s" "system" "thr-fault/s" "proc-fault/s" "thr-CV%" "proc-CV%")
fi
printf '%-12s %3s %5s  %10s %10s  %12s %12s %7s %7s\n' "${head[@]}"
for n in $COUNTS; do
	if [ -n "$PFT" ]; then
		for model in threads processes; do
			run_case "$model" kb "$model" ref "$model" "$n"
		done
	else
		run_case "thr/proc" kb threads kb processes "$n"
	fi
done
read -r rf _ < <(cut -d' ' -f1 "$work/all" | stats)
read -r rs _ < <(cut -d' ' -f2 "$work/all" | stats)
need_figure "all cases: the median fault/s ratio" "$rf"
need_figure "all cases: the median system ratio" "$rs"
printf '%-12s %3s %5s  %10s %10s\n' all - "$(wc -l < "$work/all")" "$rf" "$rs"
echo "ratios: medians over pairs of $what; fault/s higher is better"
echo "(goal >= 1.00 against the reference), system time lower is better"
