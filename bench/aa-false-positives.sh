#!/bin/sh
# aa-false-positives: how often kbench compare stars a change that is not
# there, and how often it finds one that is. Runs a small hackbench config
# (process-sockets and thread-pipes at groups 1 2 4, 8 samples after one
# warm-up) K times back to back on this kernel and compares consecutive
# runs (A/A: every starred mean row is a false positive); then runs the
# same rows with loops raised 25% and 10% (a real effect of known size,
# under another config name) and compares each with an A run (power).
# Prints one line per test:
#   TEST  FPR x/y  power@25% a/b  power@10% c/d
# A comparison that fails, or that tests no mean row, stops the script
# with status 1: a rate of 0/0 is no figure.
# Goals (docs/statistics.md): the default decision stars at most 5% of
# >= 60 A/A rows, finds >= 80% of 25% changes, and at least as many 10%
# changes as the CI-overlap rule.
#
# Usage: bench/aa-false-positives.sh [KBENCH]   (default ./kbench)
# Variables: K (A runs, default 11: 10 pairs x 6 rows = 60 A/A rows),
# J (runs per injected size, default 5), LOOPS (default 100), ITERATIONS
# (default 8), KEEP (a file to copy the store to). The store is a
# temporary file, never the default database. Run it on a machine left
# alone: it measures that machine's noise.
# ROUNDS (2 or more; default none): run the whole bench again with
# `rounds = ROUNDS` in the configs (ROUND_ITERATIONS samples a round,
# default ITERATIONS), under other config names, and print a second set
# of lines labelled "TEST (rounds N)": with 3 rounds or more the default
# decision takes each run's rounds as its replicates.
. "$(dirname "$0")/usage.sh"
set -u
kbench=${1:-${KBENCH:-./kbench}}
K=${K:-11}
J=${J:-5}
LOOPS=${LOOPS:-100}
ITERATIONS=${ITERATIONS:-8}
ROUNDS=${ROUNDS:-}
ROUND_ITERATIONS=${ROUND_ITERATIONS:-$ITERATIONS}

[ -x "$kbench" ] || { echo "aa-false-positives: $kbench is not executable (build first)" >&2; exit 2; }
[ "$K" -ge 6 ] || { echo "aa-false-positives: K must be 6 or more" >&2; exit 2; }
[ "$J" -le "$K" ] || { echo "aa-false-positives: J must not exceed K" >&2; exit 2; }
case $ROUNDS in
''|[2-9]|[1-9][0-9]) ;;
*) echo "aa-false-positives: ROUNDS must be a number from 2 to 99" >&2; exit 2 ;;
esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/aa-false-positives.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
db=$tmp/aa.db
kb() { "$kbench" --db "$db" --quiet "$@"; }

conf() {	# FILE LOOPS [ROUNDS]
	n=$ITERATIONS
	[ -n "${3:-}" ] && n=$ROUND_ITERATIONS
	cat > "$1" <<CONF
[global]
iterations = $n
warmup = 1
loops = $2
groups = 1 2 4
${3:+rounds = $3}

[hackbench-process-sockets]
mode = process
transport = sockets

[hackbench-thread-pipes]
mode = thread
transport = pipes
CONF
}
conf "$tmp/aa.conf" "$LOOPS"
conf "$tmp/aa-loops125.conf" $((LOOPS * 125 / 100))
conf "$tmp/aa-loops110.conf" $((LOOPS * 110 / 100))
if [ -n "$ROUNDS" ]; then
	conf "$tmp/aa-rounds.conf" "$LOOPS" "$ROUNDS"
	conf "$tmp/aa-rounds-loops125.conf" $((LOOPS * 125 / 100)) "$ROUNDS"
	conf "$tmp/aa-rounds-loops110.conf" $((LOOPS * 110 / 100)) "$ROUNDS"
fi

run() {	# CONF NAME
	s=$(date +%s)
	kb run -c "$1" -n "$2" --no-report >/dev/null 2>"$tmp/err" ||
		{ echo "aa-false-positives: run $2 failed:" >&2; cat "$tmp/err" >&2; exit 1; }
	echo "  $2: $(($(date +%s) - s)) s" >&2
}

# runs PREFIX CONF-STEM: the K A runs and J runs per injected size, named
# PREFIXa1..., PREFIXe25-1..., PREFIXe10-1...
runs() {
	i=1
	while [ "$i" -le "$K" ]; do
		run "$tmp/$2.conf" "${1}a$i"
		i=$((i + 1))
	done
	j=1
	while [ "$j" -le "$J" ]; do
		run "$tmp/$2-loops125.conf" "${1}e25-$j"
		run "$tmp/$2-loops110.conf" "${1}e10-$j"
		j=$((j + 1))
	done
}

echo "aa-false-positives: $K A runs and $J runs at +25% and +10% loops" \
	"(loops $LOOPS, $ITERATIONS samples, warm-up 1) on $(uname -n), $(uname -r)" >&2
start=$(date +%s)
runs "" aa
echo "aa-false-positives: runs took $(($(date +%s) - start)) s" >&2
if [ -n "$ROUNDS" ]; then
	echo "aa-false-positives: again with rounds = $ROUNDS ($ROUND_ITERATIONS samples a" \
		"round)" >&2
	start=$(date +%s)
	runs r aa-rounds
	echo "aa-false-positives: runs with rounds took $(($(date +%s) - start)) s" >&2
fi

# starred TEST-OPTIONS BASE NEW: "starred tested" over the mean rows of
# the new run (csv: the significant column of its Amean/Hmean records).
starred() {
	opts=$1
	shift
	# shellcheck disable=SC2086 # the options are words
	kb compare --format csv $opts "$@" > "$tmp/csv" 2> "$tmp/cmp.err" || {
		echo "aa-false-positives: 'kbench compare $opts $*' failed:" >&2
		cat "$tmp/cmp.err" >&2
		return 1
	}
	awk -F, -v run="$2" '$3 ~ /^[AH]mean$/ && $6 == run && $10 != "" {
		tested++; starred += $10 } END { print starred + 0, tested + 0 }' "$tmp/csv"
}

# count TEST-OPTIONS KIND [PREFIX]: "starred tested" summed over the
# pairs of KIND (aa: consecutive A runs; 25, 10: each injected run against
# A run K-J+j) among the runs named with PREFIX.
count() {
	opts=$1 kind=$2 p=${3:-} s=0 t=0
	if [ "$kind" = aa ]; then
		i=1
		while [ "$i" -lt "$K" ]; do
			r=$(starred "$opts" "${p}a$i" "${p}a$((i + 1))") || return 1
			set -- $r
			s=$((s + $1)) t=$((t + $2))
			i=$((i + 1))
		done
	else
		j=1
		while [ "$j" -le "$J" ]; do
			r=$(starred "$opts" "${p}a$((K - J + j))" "${p}e$kind-$j") || return 1
			set -- $r
			s=$((s + $1)) t=$((t + $2))
			j=$((j + 1))
		done
	fi
	[ "$t" -gt 0 ] || {
		echo "aa-false-positives: no mean row was tested (${opts:-default}, $kind)" >&2
		return 1
	}
	echo "$s/$t"
}

# The noise that was there: per row, the within-run CoeffVar (mean over
# the A runs) and the CoeffVar of the A runs' means.
names=
i=1
while [ "$i" -le "$K" ]; do
	names="$names a$i"
	i=$((i + 1))
done
# shellcheck disable=SC2086 # the names are words
kb compare --format csv --within-run $names | awk -F, '
	$3 ~ /^[AH]mean$/ { key = $1 " " $2; if (!(key in n)) order[++rows] = key
		n[key]++; s[key] += $8; ss[key] += $8 * $8 }
	$3 ~ /CoeffVar$/ { cv[$1 " " $2] += $8 }
	END {
		printf "%-32s %9s %12s\n", "A runs: row", "CoeffVar", "between-run"
		for (r = 1; r <= rows; r++) {
			k = order[r]; m = s[k] / n[k]
			v = (ss[k] - n[k] * m * m) / (n[k] - 1)
			printf "%-32s %8.2f%% %11.2f%%\n", k, cv[k] / n[k], 100 * sqrt(v > 0 ? v : 0) / m
		}
	}' >&2

for test in "default" "welch --within-run" "mwu" "ci" "ttest"; do
	case $test in
	default) opts= ;;
	"welch --within-run") opts="--test welch --within-run" ;;
	*) opts="--test $test" ;;
	esac
	fpr=$(count "$opts" aa) && p25=$(count "$opts" 25) && p10=$(count "$opts" 10) || exit 1
	printf '%-20s FPR %s  power@25%% %s  power@10%% %s\n' "$test" "$fpr" "$p25" "$p10"
done
for test in ${ROUNDS:+"default" "welch --within-run" "mwu" "ci" "ttest"}; do
	case $test in
	default) opts= ;;
	"welch --within-run") opts="--test welch --within-run" ;;
	*) opts="--test $test" ;;
	esac
	fpr=$(count "$opts" aa r) && p25=$(count "$opts" 25 r) && p10=$(count "$opts" 10 r) ||
		exit 1
	printf '%-20s FPR %s  power@25%% %s  power@10%% %s\n' "$test (rounds $ROUNDS)" \
		"$fpr" "$p25" "$p10"
done
if [ -n "${KEEP:-}" ]; then
	for f in "$db"*; do
		cp "$f" "$KEEP${f#"$db"}"
	done
	echo "aa-false-positives: store kept in $KEEP" >&2
fi
