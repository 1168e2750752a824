#!/bin/sh
# verdict-rates: how often kbench's verdicts are right, in both
# directions, on this machine. The work is an external workload: a perl
# loop of LOOPS iterations (times FACTOR) timed inside perl, one row
# per series (ROWS rows a run, each row its own series), so a change of
# known size is made by the work itself. Checks, each printed as a rate:
#   aa-rounds      A/A: consecutive runs of 3 rounds (RUNS runs), the
#                  default decision; "marked" is a starred mean row
#   pooled A/A     3 runs a side (--pool) of the same work, REPS times;
#                  "marked" is a starred mean row
#   pooled +10%    3 runs a side (--pool) against 3 runs with the loop
#   pooled +25%    raised 10% or 25% (REPS times); "found" is a starred
#                  worse mean row, "wrong" a starred better one, "?" cannot
#                  tell
#   ab A/A, ab +10%, ab +25%
#                  the same with one interleaved kbench ab experiment of
#                  AB_ROUNDS rounds (REPS times), the paired verdict
#   ab +10% advice the design the footer recommends: where the +10%
#                  experiment could not tell, runs it again with the rounds the
#                  footer names ("Rounds to detect 10%"; at most
#                  AB_MAX_ROUNDS), counted as that rerun found; "rounds"
#                  is the range of rounds the reruns used
#   cp x2, cp +25% change points: 8 runs of the base, 8 changed (factor 2
#                  or 1.25, changed outside the config, as a kernel change
#                  is), 8 of the base; "found" is a change point at the
#                  first changed run (kbench history), "wrong" one at a
#                  run where nothing changed
#   cp A/A         false alarms: series of 16 runs where nothing changed;
#                  "largest" is the largest change alarmed on, the
#                  --min-change this machine needs for none
# Change points are kbench history's defaults (each run's best sample),
# or STATISTIC and MIN_CHANGE's (its --statistic and --min-change).
# Prints one line per check:
#   CHECK          RATE x/y (pct%)  [wrong w]  [? c]  [largest L%]  [rounds R]
# Goals (docs/statistics.md): A/A marked <= 5% in every design; +10%
# found >= 80% with the design the footer recommends; no verdict of the
# wrong direction; x2 steps found 6/6, +25% steps >= 4/6, A/A series 0
# alarms. Exits 1 when a command fails or its output cannot be parsed
# (nothing tested), 2 on bad arguments.
#
# Usage: bench/verdict-rates.sh [KBENCH]   (default ./kbench)
# Variables: RUNS (A/A runs with rounds, default 8), REPS (repetitions of
# the pooled and interleaved checks, default 3), ROWS (series per run,
# default 6), AB_ROUNDS (default 12, kbench ab's), AB_MAX_ROUNDS (default
# 48), ITERATIONS (samples a
# round, default 3), LOOPS (default 300000), STATISTIC and MIN_CHANGE (for
# history; unset: its defaults). The store is a temporary file. Run it on a
# machine left alone: it measures that machine's noise.
. "$(dirname "$0")/usage.sh"
set -u
kbench=${1:-${KBENCH:-./kbench}}
RUNS=${RUNS:-8}
REPS=${REPS:-3}
ROWS=${ROWS:-6}
AB_ROUNDS=${AB_ROUNDS:-12}
AB_MAX_ROUNDS=${AB_MAX_ROUNDS:-48}
ITERATIONS=${ITERATIONS:-3}
LOOPS=${LOOPS:-300000}
STATISTIC=${STATISTIC:-}
MIN_CHANGE=${MIN_CHANGE:-}

die() { echo "verdict-rates: $*" >&2; exit 1; }
[ -x "$kbench" ] || { echo "verdict-rates: $kbench is not executable (build first)" >&2; exit 2; }
for v in "$RUNS" "$REPS" "$ROWS" "$AB_ROUNDS" "$AB_MAX_ROUNDS" "$ITERATIONS" "$LOOPS"; do
	case $v in '' | *[!0-9]*) echo "verdict-rates: '$v' is not a whole number" >&2; exit 2 ;; esac
done
[ "$RUNS" -ge 2 ] && [ "$AB_ROUNDS" -ge 2 ] && [ "$AB_MAX_ROUNDS" -ge 2 ] &&
	[ "$ROWS" -ge 1 ] && [ "$REPS" -ge 1 ] ||
	{ echo "verdict-rates: RUNS, AB_ROUNDS and AB_MAX_ROUNDS must be 2 or more, ROWS and REPS 1 or more" >&2; exit 2; }
command -v python3 >/dev/null || { echo "verdict-rates: needs python3 (to read json)" >&2; exit 2; }
command -v perl >/dev/null || { echo "verdict-rates: needs perl (its workload)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/verdict-rates.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
db=$work/v.db
kb() { "$kbench" --db "$db" --quiet "$@"; }

# The workload: row ROW runs LOOPS x FACTOR x factor.ROW (a file, 1 when
# absent: the change made outside the config) iterations of a perl loop,
# timed inside the process: the interpreter's start is outside the value,
# so a change of the loop count is the same change of the value (timed
# around a process, as an awk loop was, its start halved a change).
cat > "$work/wl.pl" <<'WL'
use strict;
use Time::HiRes qw(clock_gettime CLOCK_MONOTONIC);
my ($row, $loops, $g) = @ARGV;
my $f = 1;
(my $dir = $0) =~ s{/[^/]*$}{};
if (open(my $fh, '<', "$dir/factor.$row")) { $f = <$fh>; chomp $f; }
my $n = int($f * $g * $loops);
my $t = clock_gettime(CLOCK_MONOTONIC);
my $s = 0;
$s += $_ * $_ for 0 .. $n - 1;
printf "v=%d\n", (clock_gettime(CLOCK_MONOTONIC) - $t) * 1e6;
WL
rows=$(seq 1 "$ROWS" | tr '\n' ' ')

# conf FILE FACTOR [ROUNDS] [ARM_B_FACTOR]: a config (an experiment when
# ARM_B_FACTOR is given). The factor is part of the command, so runs of
# different factors are different series and groups.
conf() {
	{
		if [ -n "${4:-}" ]; then
			printf '[experiment]\nrounds = %s\n\n[arm:a]\n\n[arm:b]\n' "$3"
			printf 'option.command = perl %s/wl.pl {row} %s %s\n\n' "$work" "$LOOPS" "$4"
		fi
		printf '[global]\nworkload = external\nmonitors = none\niterations = %s\n' \
			"$ITERATIONS"
		[ -n "${3:-}" ] && [ -z "${4:-}" ] && printf 'rounds = %s\n' "$3"
		printf '\n[ext]\nparam.row = %s\n' "$rows"
		printf 'command = perl %s/wl.pl {row} %s %s\n' "$work" "$LOOPS" "$2"
		printf 'metric.v = v=(?<value>[0-9.]+)\nbetter.v = lower\n'
	} > "$1"
}
run() {	# CONF NAME
	kb run -c "$1" -n "$2" --no-report >/dev/null 2>"$work/err" ||
		{ cat "$work/err" >&2; die "run $2 failed"; }
}

# verdicts OPTIONS...: "marked worse better cannot tested rounds" over the
# mean rows of the last column of a json comparison (lower is better here,
# so more work is worse); rounds, the most rounds a cannot-tell row's
# footer asks for (AB_MAX_ROUNDS for "more than" the most it names; 0
# without such a row).
verdicts() {
	kb compare --format json "$@" > "$work/json" 2>"$work/err" ||
		{ cat "$work/err" >&2; die "compare $* failed"; }
	python3 - "$work/json" "$AB_MAX_ROUNDS" <<'PY' || die "cannot read the comparison of $*"
import json, sys
d = json.load(open(sys.argv[1]))
m = w = b = c = t = rounds = 0
for s in d["sections"]:
    for r in s["rows"]:
        cell = r["runs"][-1]
        test = cell.get("test", {})
        if not test.get("done"):
            continue
        t += 1
        # A cannot-tell cell may carry a significant within-run test: no verdict.
        sig = bool(test.get("significant")) and not test.get("cannot_tell")
        pct = cell["pct"]["mean"]
        m += sig
        w += sig and pct < 0
        b += sig and pct > 0
        c += bool(test.get("cannot_tell"))
        if test.get("cannot_tell") and test.get("basis") == "paired-rounds":
            rounds = max(rounds, min(int(test.get("rounds_needed_10pct", sys.argv[2])),
                                     int(sys.argv[2])))
if not t:
    sys.exit(1)
print(m, w, b, c, t, rounds)
PY
}

# line CHECK COUNT TOTAL [WRONG] [CANNOT] [LARGEST] [ROUNDS]
line() {
	[ "$3" -gt 0 ] || die "$1: nothing was tested"
	printf '%-14s %s/%s (%s%%)%s%s%s%s\n' "$1" "$2" "$3" "$(awk -v a="$2" -v b="$3" \
		'BEGIN { printf "%.0f", 100 * a / b }')" "${4:+  wrong $4}" "${5:+  ? $5}" \
		"${6:+  largest $6%}" "${7:+  rounds $7}"
}

echo "verdict-rates: on $(uname -n), $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
start=$(date +%s)

# ---- A/A with rounds ----
conf "$work/aa.conf" 1 3
i=1
while [ "$i" -le "$RUNS" ]; do
	run "$work/aa.conf" "aa$i"
	i=$((i + 1))
done
m=0 t=0
i=1
while [ "$i" -lt "$RUNS" ]; do
	got=$(verdicts "aa$i" "aa$((i + 1))") || exit 1
	set -- $got
	m=$((m + $1)) t=$((t + $5))
	i=$((i + 1))
done
line "aa-rounds" "$m" "$t"

# ---- pooled, 3 runs a side (A/A: both sides of the base) ----
for pct in 0 10 25; do
	changed=$work/p$pct.conf
	if [ "$pct" = 0 ]; then
		changed=$work/aa.conf
	else
		conf "$changed" "1.$pct"
	fi
	f=0 m=0 w=0 c=0 t=0
	rep=1
	while [ "$rep" -le "$REPS" ]; do
		for k in 1 2 3; do
			run "$work/aa.conf" "pb$pct-$rep"
			run "$changed" "pn$pct-$rep"
		done
		got=$(verdicts --pool "pb$pct-$rep" "pn$pct-$rep") || exit 1
		set -- $got
		m=$((m + $1)) f=$((f + $2)) w=$((w + $3)) c=$((c + $4)) t=$((t + $5))
		rep=$((rep + 1))
	done
	if [ "$pct" = 0 ]; then
		line "pooled A/A" "$m" "$t"
	else
		line "pooled +$pct%" "$f" "$t" "$w" "$c"
	fi
done

# ---- interleaved (kbench ab) ----
for pct in 0 10 25; do
	factor=1.$pct
	[ "$pct" = 0 ] && factor=1
	conf "$work/ab$pct.conf" 1 "$AB_ROUNDS" "$factor"
	f=0 m=0 w=0 c=0 t=0
	af=0 aw=0 ac=0 at=0 lo= hi=
	rep=1
	while [ "$rep" -le "$REPS" ]; do
		kb ab -c "$work/ab$pct.conf" -n "ab$pct-$rep" >/dev/null 2>"$work/err" ||
			{ cat "$work/err" >&2; die "kbench ab failed"; }
		got=$(verdicts "ab$pct-$rep/a" "ab$pct-$rep/b") || exit 1
		set -- $got
		m=$((m + $1)) f=$((f + $2)) w=$((w + $3)) c=$((c + $4)) t=$((t + $5))
		# The footer's advice at +10%: the rounds it names, once.
		if [ "$pct" = 10 ] && [ "$6" -gt 0 ]; then
			rounds=$6
			[ -z "$lo" ] || [ "$rounds" -lt "$lo" ] && lo=$rounds
			[ -z "$hi" ] || [ "$rounds" -gt "$hi" ] && hi=$rounds
			kb ab -c "$work/ab$pct.conf" --rounds "$rounds" -n "ab$pct-$rep-more" \
				>/dev/null 2>"$work/err" ||
				{ cat "$work/err" >&2; die "kbench ab --rounds $rounds failed"; }
			got=$(verdicts "ab$pct-$rep-more/a" "ab$pct-$rep-more/b") || exit 1
			set -- $got
		fi
		af=$((af + $2)) aw=$((aw + $3)) ac=$((ac + $4)) at=$((at + $5))
		rep=$((rep + 1))
	done
	if [ "$pct" = 0 ]; then
		line "ab A/A" "$m" "$t"
	else
		line "ab +$pct%" "$f" "$t" "$w" "$c"
	fi
	if [ "$pct" = 10 ]; then
		range=$lo
		[ "$lo" != "$hi" ] && range=$lo-$hi
		line "ab +10% advice" "$af" "$at" "$aw" "$ac" "" "$range"
	fi
done

# ---- change points ----
# series NAME FACTOR LEN: LEN runs of config NAME, runs 9-16 at FACTOR
# (every row), then "found wrong any series largest" from kbench history:
# found, a change point at run 9 of a row's series; wrong, one at a run
# other than 9 and 17; any, every change point; largest, the largest
# change in percent (0 without any).
series() {
	conf "$work/$1.conf" 1
	i=1
	while [ "$i" -le "$3" ]; do
		for r in $rows; do
			rm -f "$work/factor.$r"
			[ "$i" -ge 9 ] && [ "$i" -le 16 ] && echo "$2" > "$work/factor.$r"
		done
		run "$work/$1.conf" "$1-$i"
		i=$((i + 1))
	done
	for r in $rows; do rm -f "$work/factor.$r"; done
	kb history --config "$1" --format csv ${STATISTIC:+--statistic "$STATISTIC"} \
		${MIN_CHANGE:+--min-change "$MIN_CHANGE"} > "$work/h.csv" 2>"$work/err" ||
		{ cat "$work/err" >&2; die "history of $1 failed"; }
	awk -F, -v name="$1" '
		/^#/ || $1 == "host" { next }
		{ rows[$4] = 1; n++ }
		$16 != "" { at = $10; sub(/^.*-/, "", at)
			any++; if (at == 9) found++; else if (at != 17) wrong++
			c = $16 < 0 ? -$16 : $16; if (c > largest) largest = c }
		END { if (!n) exit 1; for (r in rows) nrows++
			printf "%d %d %d %d %.1f\n", found, wrong, any, nrows, largest }' "$work/h.csv" ||
		die "cannot read the history of $1"
}
got=$(series cpx2 2 24) || exit 1
set -- $got
line "cp x2" "$1" "$4" "$2"
got=$(series cp25 1.25 24) || exit 1
set -- $got
line "cp +25%" "$1" "$4" "$2"
got=$(series cpaa 1 16) || exit 1
set -- $got
largest=
[ "$3" -gt 0 ] && largest=$5
line "cp A/A alarms" "$3" "$4" "" "" "$largest"
echo "verdict-rates: took $(($(date +%s) - start)) s" >&2
