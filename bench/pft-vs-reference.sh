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
# Variables: KBENCH (default ./kbench), PFT (the reference binary; unset:
# threads vs processes), PAIRS (default 7), COUNTS (worker counts,
# default "1 2"), SIZE (bytes mapped, default MemTotal/5 as mmtests).
. "$(dirname "$0")/usage.sh"
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

# Both tools print one line: GiB workers cachelines user sys elapsed
# faults/cpu faults/sec (times with an "s"). Print "faults/sec system".
figures() {
	awk '!/^#/ && NF == 8 { gsub(/s$/, "", $5); print $8, $5; found = 1 }
	     END { if (!found) exit 1 }'
}
kb_run() {	# model count
	local flag=-t
	[ "$1" = processes ] && flag=-n
	"$KBENCH" pft -m "$SIZE" "$flag" "$2" | figures
}
ref_run() {
	local flag=-t
	[ "$1" = processes ] && flag=-n
	"$PFT" -m "$SIZE" "$flag" "$2" | figures
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
run_case() {	# label a_fn a_model b_fn b_model count
	local label=$1 afn=$2 amodel=$3 bfn=$4 bmodel=$5 n=$6 i a b
	: > "$work/a"; : > "$work/b"; : > "$work/r"
	"$afn" "$amodel" "$n" >/dev/null && "$bfn" "$bmodel" "$n" >/dev/null || return 1
	for i in $(seq "$PAIRS"); do
		if [ $((i % 2)) -eq 1 ]; then
			a=$("$afn" "$amodel" "$n") && b=$("$bfn" "$bmodel" "$n") || return 1
		else
			b=$("$bfn" "$bmodel" "$n") && a=$("$afn" "$amodel" "$n") || return 1
		fi
		echo "$a" >> "$work/a"
		echo "$b" >> "$work/b"
		set -- $a $b
		awk -v af="$1" -v as="$2" -v bf="$3" -v bs="$4" \
			'BEGIN { if (bf > 0 && bs > 0) printf "%.6f %.6f\n", af / bf, as / bs }' >> "$work/r"
	done
	cat "$work/r" >> "$work/all"
	read -r afm afcv < <(cut -d' ' -f1 "$work/a" | stats)
	read -r bfm bfcv < <(cut -d' ' -f1 "$work/b" | stats)
	read -r rf _ < <(cut -d' ' -f1 "$work/r" | stats)
	read -r rs _ < <(cut -d' ' -f2 "$work/r" | stats)
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
			run_case "$model" kb_run "$model" ref_run "$model" "$n" ||
				{ echo "bench: a $model run with $n workers failed" >&2; exit 1; }
		done
	else
		run_case "thr/proc" kb_run threads kb_run processes "$n" ||
			{ echo "bench: a run with $n workers failed" >&2; exit 1; }
	fi
done
read -r rf _ < <(cut -d' ' -f1 "$work/all" | stats)
read -r rs _ < <(cut -d' ' -f2 "$work/all" | stats)
printf '%-12s %3s %5s  %10s %10s\n' all - "$(wc -l < "$work/all")" "$rf" "$rs"
echo "ratios: medians over pairs of $what; fault/s higher is better"
echo "(goal >= 1.00 against the reference), system time lower is better"
