#!/bin/sh
# t1096-bench-scripts: the bench/ scripts this suite can run here work
# at a tiny size: harness-overhead.sh prints its header and one row per
# config with every column filled; hackbench-vs-peers.sh refuses an
# unknown peer and, where rt-tests' hackbench is installed, prints one
# row per case (also against rt-tests started by kbench external), at
# groups 1, 4 and 16 by default where 16 CPUs are usable, and
# netperf-vs-peers.sh, where sockperf is installed, one row with its
# verdict; median-ci.awk, which both *-vs-peers.sh scripts use for the
# ratio's interval, gives the order statistics a binomial table gives.
# compare-scale.sh and history-scale.sh build their stores and time each
# command at a small size. ab-power.sh runs one repetition of tiny
# experiments and prints its lines, and stops when it finds no verdict;
# so does time-to-verdict.sh, for each design at one size (and for the
# pft row at one), with the sign test of its A/A experiments, and
# equal-time.sh, both designs sized to one wall time;
# bisect-accuracy.sh refuses bad variables;
# ab-order-sim.py prints its rates at a tiny size;
# verdict-rates.sh prints a rate for each of its checks at its smallest
# size. valgrind.sh, where valgrind is installed and
# the build has no sanitizers, checks a run whose samples succeed and
# finds it clean.
# Every script's --help prints its header comment and runs nothing.
# Each script that prints figures read from another program's output
# (pft-vs-reference, hackbench-vs-peers, netperf-vs-peers against a fake
# peer; history-scale, harness-overhead, monitor-overhead and
# aa-false-positives against a fake kbench) exits 1 when that output is
# wrong, saying what it read.
# No timing is judged: that belongs to bench/ itself.
# Covers: runner/runner.c sampler/main.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

bench=$TOP_SRCDIR/bench
num='[0-9]+(\.[0-9]+)?'

# has FILE PATTERN: FILE has a line matching PATTERN, else show FILE.
has() {
	grep -Eq "$2" "$1" || { echo "no line matches: $2"; cat "$1"; return 1; }
}

for f in "$bench"/*.sh; do
	case $f in
	"$bench"/usage.sh | "$bench"/lib-verdict.sh | "$bench"/lib-plant.sh | \
	"$bench"/empty-store.sh | "$bench"/figure.sh)
		continue ;;
	esac
	name=${f##*/}
	KBENCH=/nonexistent bash "$f" --help > "$tmp/help" 2> "$tmp/help.err"
	is "$name --help exits 0" "$?" 0
	is "... says nothing on stderr" "$(cat "$tmp/help.err")" ""
	is "... prints the header comment" "$(cat "$tmp/help")" \
		"$(awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$f")"
done
is "compare-scale.sh -h ends with its usage line" \
	"$(bash "$bench/compare-scale.sh" -h | tail -n 1)" \
	"Usage: bench/compare-scale.sh [KBENCH]   (default ./kbench; needs sqlite3)"

CONFIGS=quick N=1 WARMUP=1 EXECS=3 HACKBENCH=/nonexistent TMPDIR=$tmp \
	sh "$bench/harness-overhead.sh" > "$tmp/ho" 2> "$tmp/ho.err"
is "harness-overhead.sh at N=1 exits 0" "$?" 0
is "... says nothing on stderr" "$(cat "$tmp/ho.err")" ""
is "... names what it measured" "$(sed -n '1p' "$tmp/ho")" \
	"# harness overhead of 'kbench run': 1 samples per section and row, warm-up 1"
check "... gives the start of a served sample" \
	has "$tmp/ho" "^# a sample's start, a fork of the serving kbench-sample: $num ms \(mean of 3\)$"
check "... the exec cost of kbench-sample and the machine's floor" \
	has "$tmp/ho" "^# exec of kbench-sample, alone, from a shell: $num ms \(mean of 3\); of [^ ]+, the machine's floor: $num ms$"
is "... its column header" "$(grep '^config' "$tmp/ho" | tr -s ' ')" \
	"config samples warmup window-s wall% goal nowarm% all-ms setup-ms harn-ms harn% betw-ms monit-ms start-ms"
# quick: 4 sections x 3 group counts, one sample and one warm-up each.
check "... one row for quick, every column a figure and a verdict" \
	has "$tmp/ho" "^quick +12 +12 +$num +-?$num +(ok|MISSED) +-?$num +-?$num +-?$num +-?$num +-?$num +-?$num +-?$num +$num$"
is "... and no other row" "$(grep -vc '^#' "$tmp/ho")" 2
check "... and leaves no work directory behind" \
	test -z "$(ls -d "$tmp"/harness-overhead.* 2>/dev/null)"

# ci N: the interval median-ci.awk gives for the numbers 1..N
ci() {
	seq "$1" | awk -f "$bench/median-ci.awk"
}
is "median-ci.awk: no interval under 6 numbers" "$(ci 5)" "-"
is "... 6 numbers: ranks 1 and 6 (96.9%)" "$(ci 6)" "1.000-6.000"
is "... 7 numbers: ranks 1 and 7 (98.4%; 2 and 6 cover 87.5%)" "$(ci 7)" "1.000-7.000"
is "... 21 numbers: ranks 6 and 16" "$(ci 21)" "6.000-16.000"
is "... 41 numbers: ranks 14 and 28" "$(ci 41)" "14.000-28.000"
is "... 100 numbers: ranks 40 and 61" "$(ci 100)" "40.000-61.000"
is "... whatever order the ranks hold" "$(printf '0.99\n1.02\n0.97\n1.01\n1.00\n0.98\n1.03\n' | sort -g | awk -f "$bench/median-ci.awk")" "0.970-1.030"

PEERS=nonesuch expect_err "hackbench-vs-peers.sh refuses an unknown peer" 2 \
	"bench: PEERS: unknown peer 'nonesuch' (rt-tests, perf, rt-tests-kbench)" \
	bash "$bench/hackbench-vs-peers.sh"

if command -v hackbench > /dev/null 2>&1; then
	PEERS=rt-tests MODES=thread TRANSPORTS=pipes GROUPS_LIST=1 PAIRS=1 TARGET_S=0.01 \
		REST=0 bash "$bench/hackbench-vs-peers.sh" > "$tmp/hb" 2> "$tmp/hb.err"
	is "hackbench-vs-peers.sh, one case against rt-tests, exits 0" "$?" 0
	is "... says nothing on stderr" "$(cat "$tmp/hb.err")" ""
	check "... prints that case's row" \
		has "$tmp/hb" "^thread-pipes +1 +[0-9]+ +rt-tests +$num +- +$num +$num +$num +$num +(ok|MISSED)$"
	is "... and no other" "$(grep -c '^[a-z]*-[a-z]* ' "$tmp/hb")" 1
	PEERS=rt-tests-kbench MODES=process TRANSPORTS=sockets GROUPS_LIST=1 PAIRS=1 \
		TARGET_S=0.01 REST=0 bash "$bench/hackbench-vs-peers.sh" > "$tmp/hb" 2> "$tmp/hb.err"
	is "... against rt-tests started by kbench external, exits 0" "$?" 0
	is "... says nothing on stderr" "$(cat "$tmp/hb.err")" ""
	check "... prints that case's row, with no goal" \
		has "$tmp/hb" "^process-sockets +1 +[0-9]+ +rt-kbench +$num +- +$num +$num +$num +$num +-$"
	# The default group counts follow the CPUs usable: nproc is made to
	# say 16 by a stand-in earlier in PATH.
	mkdir "$tmp/cpus16" && printf '#!/bin/sh\necho 16\n' > "$tmp/cpus16/nproc" &&
		chmod +x "$tmp/cpus16/nproc"
	PATH=$tmp/cpus16:$PATH PEERS=rt-tests MODES=thread TRANSPORTS=pipes PAIRS=1 \
		TARGET_S=0.01 REST=0 bash "$bench/hackbench-vs-peers.sh" > "$tmp/hb" 2> "$tmp/hb.err"
	is "... on 16 CPUs, by default, exits 0" "$?" 0
	is "... runs groups 1, 4 and 16" "$(awk '/^thread-pipes /{printf "%s ", $2}' "$tmp/hb")" "1 4 16 "
	PEERS=rt-tests MODES=thread TRANSPORTS=pipes PAIRS=1 TARGET_S=0.01 REST=0 \
		taskset -c 0 bash "$bench/hackbench-vs-peers.sh" > "$tmp/hb" 2> "$tmp/hb.err"
	is "... on fewer, groups 1, 2 and 4" "$(awk '/^thread-pipes /{printf "%s ", $2}' "$tmp/hb")" "1 2 4 "
else
	skip "no rt-tests hackbench here"
fi
# The scale checks at a small size: each builds its store (a new one:
# only 'kbench run' creates a store) and times every command it names.
# Timings are printed, not judged here; compare-scale.sh exits 1 when one
# is over its goal.
if command -v gnuplot > /dev/null 2>&1; then
(cd "$tmp" && RUNS=10 sh "$bench/compare-scale.sh" "$KBENCH") > "$tmp/cs" 2> "$tmp/cs.err"
rc=$?
is "compare-scale.sh at 10 runs exits 0 (or 1: a goal missed)" "$([ "$rc" -le 1 ] && echo "0 or 1" || echo "$rc")" "0 or 1"
is "... says nothing on stderr" "$(cat "$tmp/cs.err")" ""
is "... builds a store of 100,000 samples" \
	"$(sed -n '1s/ built in .*//p' "$tmp/cs")" "database: 100000 samples in 10 runs,"
is "... times 13 compares in every format, and the html's size" "$(grep -Ec '^compare (( 2|10) runs \((text|brief|markdown|csv|json|html), [0-9]+ samples\): [0-9.]+ s \(cpu ([0-9.]+|-) s\)  (ok|OVER the 1 s goal)|10 runs \(html\), the page.s size: [0-9.]+ MiB  (ok|OVER the 3 MiB goal)|--pool \(text\): [0-9.]+ s \(cpu ([0-9.]+|-) s\))$' "$tmp/cs")" 14
is "... and no other line but the load" "$(wc -l < "$tmp/cs" | tr -d ' ')" 16
check "... and leaves no work directory behind" \
	test -z "$(ls -d "$tmp"/compare-scale.* 2>/dev/null)"
else
	skip "compare-scale.sh times html with its charts: no gnuplot here"
fi
(cd "$tmp" && NIGHTS=10 sh "$bench/history-scale.sh" "$KBENCH") > "$tmp/hs" 2> "$tmp/hs.err"
is "history-scale.sh at 10 nights exits 0" "$?" 0
is "... says nothing on stderr" "$(cat "$tmp/hs.err")" ""
is "... builds a store of 500 runs" \
	"$(sed -n '1s/ built in .*//p' "$tmp/hs")" "store: 500 runs, 25000 samples,"
is "... times four commands" "$(grep -Ec '^(runs \(500 runs\)|history of one row \(10 runs\)|regressions \(500 series\)|import of the bundle \(new store\)) +wall +[0-9.]+ s  cpu +([0-9.]+|-) s  \(goal < [0-9.]+ s\)(  wall over goal)?$' "$tmp/hs")" 4
is "... finds the slowdown of cfg-3 on every host and row" \
	"$(grep 'regressions in' "$tmp/hs")" "50 regressions in 500 series"
is "... and bundles every run" "$(sed -n 's/^bundle: \([0-9]*\) samples, [0-9]* KiB$/\1/p' "$tmp/hs")" 25000
check "... and leaves no work directory behind" \
	test -z "$(ls -d "$tmp"/history-scale.* 2>/dev/null)"
RUNS=9 expect_err "compare-scale.sh refuses fewer than 10 runs" 2 \
	"compare-scale: RUNS must be 10 or more (it compares ten runs)" sh "$bench/compare-scale.sh" "$KBENCH"
NIGHTS=x expect_err "history-scale.sh refuses a NIGHTS that is not a number" 2 \
	"history-scale: NIGHTS must be a number of nights, 10 or more" sh "$bench/history-scale.sh" "$KBENCH"

# ab-power.sh at its smallest: one repetition of each design and change,
# six lines of verdicts counted after the line naming the size, then the
# four of the changes at equal false-positive rate; and a
# kbench whose comparison holds no verdict stops it with status 1 rather
# than counting it unmarked.
REPS=1 ROUNDS=3 ITERATIONS=1 LOOPS=10 TMPDIR=$tmp sh "$bench/ab-power.sh" "$KBENCH" \
	> "$tmp/abp" 2> "$tmp/abp.err"
is "ab-power.sh at REPS=1 exits 0" "$?" 0
is "... says nothing on stderr" "$(cat "$tmp/abp.err")" ""
is "... names its size first" "$(sed -n 1p "$tmp/abp")" \
	"# hackbench process pipes, 1 group, loops 10; 3 rounds x 1 samples an arm; 1 repetitions"
is "... then one line per design and change, in order" \
	"$(sed -n '2,$p' "$tmp/abp" | sed -E 's/ at p < [0-9.e-]+$/ at p < L/; s/marked [01]\/1 \((0|100)%\)/marked N/')" \
	"interleaved  A/A     marked N
sequential   A/A     marked N
interleaved  +5%     marked N
sequential   +5%     marked N
interleaved  +10%    marked N
sequential   +10%    marked N
# at equal false-positive rate: p below each design's own A/A 5% level
interleaved  +5%     marked N at p < L
interleaved  +10%    marked N at p < L
sequential   +5%     marked N at p < L
sequential   +10%    marked N at p < L"
check "... and leaves no work directory behind" \
	test -z "$(ls -d "$tmp"/ab-power.* 2>/dev/null)"
printf '#!/bin/sh\necho "{}"\n' > "$tmp/nojson" && chmod +x "$tmp/nojson"
REPS=1 TMPDIR=$tmp sh "$bench/ab-power.sh" "$tmp/nojson" > "$tmp/abp" 2> "$tmp/abp.err"
is "ab-power.sh exits 1 when a comparison has no verdict" "$?" 1
check "... says so" grep -q '^ab-power: no verdict in the comparison' "$tmp/abp.err"
check "... and prints no rate" sh -c "! grep -q marked '$tmp/abp'"

# ab-order-sim.py (python3 with scipy): its header for --help, a line
# of rates per state and order at a tiny size, and bad sizes refused.
/usr/bin/python3 "$bench/ab-order-sim.py" --help > "$tmp/help" 2> "$tmp/help.err"
is "ab-order-sim.py --help exits 0, quiet, with its header comment" \
	"$?.$(cat "$tmp/help.err").$(cat "$tmp/help")" \
	"0..$(awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$bench/ab-order-sim.py")"
N=8 ROUNDS=4 /usr/bin/python3 "$bench/ab-order-sim.py" > "$tmp/sim" 2> "$tmp/sim.err"
is "ab-order-sim.py at N=8 exits 0, quiet" "$?.$(cat "$tmp/sim.err")" "0."
is "... one line per state and order, each with two rates" \
	"$(sed -E 's/ A\/A [01]\.[0-9]{3}  power [01]\.[0-9]{3}$/ R/' "$tmp/sim" | tr -s ' ' | tr '\n' ,)" \
	"two-level 0.10 abba R,two-level 0.10 ab R,two-level 0.10 random R,two-level 0.30 abba R,two-level 0.30 ab R,two-level 0.30 random R,two-level 0.50 abba R,two-level 0.50 ab R,two-level 0.50 random R,ar1 0.10 abba R,ar1 0.10 ab R,ar1 0.10 random R,ar1 0.30 abba R,ar1 0.30 ab R,ar1 0.30 random R,linear 0.10 abba R,linear 0.10 ab R,linear 0.10 random R,"
ROUNDS=2 /usr/bin/python3 "$bench/ab-order-sim.py" > /dev/null 2> "$tmp/sim.err"
is "... refuses ROUNDS below 3" "$?.$(cat "$tmp/sim.err")" "2.ab-order-sim: ROUNDS must be 3 or more"

# time-to-verdict.sh at its smallest: each design at one size (the ab
# design's experiments read again with --paired nested), its
# verdicts counted (mmtests' way by its CI rule, whose test gives no
# p-value), the sizes reaching the goal and the ratio in one of its three
# forms; a kbench whose comparison holds no verdict stops it with status 1.
REPS=1 LOOPS=10 ITERATIONS=1 SIZES_MMTESTS=2 SIZES_POOLED=2 SIZES_AB=3 SIZES_SEQ=6 \
	CHANGES="0 10" TMPDIR=$tmp sh "$bench/time-to-verdict.sh" "$KBENCH" > "$tmp/ttv" 2> "$tmp/ttv.err"
is "time-to-verdict.sh at REPS=1 exits 0" "$?" 0
is "... says nothing on stderr" "$(cat "$tmp/ttv.err")" ""
is "... one line per design and size, the A/A intervals, the goal's sizes, the ratios" \
	"$(sed -E 's/[01]\/1 = [0-9.]+% \([0-9.]+-[0-9.]+%\)$/W/; s/ [01]\/1(,1w)? / N /g; s/ +[0-9]+\.[0-9]+ +[0-9]+\.[0-9]+$/         S M/; s/(not reached at the sizes tried|[0-9]+ [a-z]+, [0-9.]+ s a verdict)$/R/; s/^(ratio kbench\/mmtests:) ([0-9.]+ \(goal < 0\.5\)|below [0-9.]+ \(goal < 0\.5\): .*|cannot be told .*)$/\1 X/; s/ [01] of 1 \(p 1\)$/ K/; s/^(seq goal at 6 max): A\/A N \(<= 5%\), \+10% N \(>= 90%\), median at \+10% [0-9.]+ s, [0-9.]+ of mmtests. way at 2 iterations \([0-9.]+ s; goal <= 0\.25\)(, an upper bound: mmtests. way found N there)?: (met|not met)$/\1: G/' "$tmp/ttv")" \
	"# hackbench process pipes, 1 group, loops 10; 1 samples a run or round; 1 repetitions (1 for the kbench designs' A/A, 1 for mmtests' way)
design   size        A/A         +10%        mean s    median s at +10%
mmtests  2 iter      N         N         S M
pooled   2 runs      N         N         S M
ab       3 rounds    N         N         S M
nested   3 rounds    N         N         S M
seq      6 max       N         N         S M
# A/A marked, with its 95% interval (Wilson):
mmtests  2 iter     W
pooled   2 runs     W
ab       3 rounds   W
nested   3 rounds   W
seq      6 max      W
# A/A: the second arm slower, with the two-sided sign test's p:
ab 3                K
mmtests 2           K
pooled 2            K
seq 6               K
# the smallest size reaching the goal (A/A <= 5%, +10% >= 80%):
mmtests  R
pooled   R
ab       R
nested   R
seq      R
ratio kbench/mmtests: X
seq goal at 6 max: G"
check "... and leaves no work directory behind" \
	test -z "$(ls -d "$tmp"/time-to-verdict.* 2>/dev/null)"
# The pft row: the change made by the mapping's size, the row read by
# its label; the +5% goal's line of the sequential design.
WORKLOAD=pft REPS=1 LOOPS=4 ITERATIONS=1 SIZES_MMTESTS= SIZES_POOLED= SIZES_AB= SIZES_SEQ=4 \
	MIN_ROUNDS=3 CHANGES="0 5" TMPDIR=$tmp sh "$bench/time-to-verdict.sh" "$KBENCH" > "$tmp/ttv" 2> "$tmp/ttv.err"
is "time-to-verdict.sh WORKLOAD=pft exits 0" "$?" 0
is "... says nothing on stderr" "$(cat "$tmp/ttv.err")" ""
is "... names its row" "$(sed -n 1p "$tmp/ttv")" \
	"# pft, 1 thread, a mapping of 4 MiB, its elapsed-1 row; 1 samples a run or round; 1 repetitions (1 for the kbench designs' A/A, 1 for mmtests' way)"
check "... and the +5% goal of its sequential design" grep -Eq \
	"^seq \+5% goal at 4 max: \+5% [01]/1 = (0|100)% \([0-9]+-[0-9]+%; >= 80%\), wrong way [01] \(0\), A/A [01]/1, upper [0-9.]+% \(<= 7%\): not met\$" "$tmp/ttv"
# equal-time.sh at its smallest: one wall time, both designs sized to
# it from the fitted line, a trial of each change, the shares with their
# intervals; bad variables refused, no verdict an error.
WALLS=8 REPS=1 LOOPS=10 ITERATIONS=1 MIN_ROUNDS=3 CHANGES="0 10" TMPDIR=$tmp \
	sh "$bench/equal-time.sh" "$KBENCH" > "$tmp/et" 2> "$tmp/et.err"
is "equal-time.sh at REPS=1 exits 0" "$?" 0
is "... says nothing on stderr" "$(cat "$tmp/et.err")" ""
is "... the fit, a line per design, the shares with their intervals" \
	"$(sed -E 's/-?[0-9]+\.[0-9]+/F/g; s/^8     (mmtests|seq) +[0-9]+ (iter|max) +[01]\/1 +[01]\/1(,1w)? +F +F$/8 \1 \2 N/; s/ [01]\/1 = (0|100)% \(F?[0-9]*-[0-9]+%\)$/ W/' "$tmp/et")" \
	"# hackbench process pipes, 1 group, loops 10; 1 samples a round; 1 trials a change and design
# time of a trial, fitted: mmtests F + F s a sample a side; seq F + F s a round
wall  design   size      A/A       +10%      mean s   max s
8 mmtests iter N
8 seq max N
# marked, with its 95% interval (Wilson):
8     mmtests  A/A  W
8     mmtests  +10% W
8     seq      A/A  W
8     seq      +10% W"
check "... and leaves no work directory behind" \
	test -z "$(ls -d "$tmp"/equal-time.* 2>/dev/null)"
WALLS="30 1x" expect_err "equal-time.sh refuses a wall time that is no number" 2 \
	"equal-time: WALLS are seconds, integers above 0 ('1x')" sh "$bench/equal-time.sh" "$KBENCH"
CHANGES="0 -5" expect_err "... and a change that is not a percentage" 2 \
	"equal-time: CHANGES are percentages, integers ('-5')" sh "$bench/equal-time.sh" "$KBENCH"
REPS=1 WALLS=8 TMPDIR=$tmp sh "$bench/equal-time.sh" "$tmp/nojson" > "$tmp/et" 2> "$tmp/et.err"
is "equal-time.sh exits 1 when a comparison has no verdict" "$?" 1
check "... says so" grep -q '^equal-time: no verdict in the comparison' "$tmp/et.err"
WORKLOAD=netperf expect_err "time-to-verdict.sh refuses an unknown WORKLOAD" 2 \
	"time-to-verdict.sh: WORKLOAD is hackbench or pft ('netperf')" sh "$bench/time-to-verdict.sh" "$KBENCH"
TREE=git expect_err "bisect-accuracy.sh refuses an unknown TREE" 2 \
	"bisect-accuracy: TREE is linux or stand-in ('git')" sh "$bench/bisect-accuracy.sh" "$KBENCH"
SIZES="5 101" expect_err "... and a size above 100%" 2 \
	"bisect-accuracy: SIZES are percents from 1 to 100 ('101')" sh "$bench/bisect-accuracy.sh" "$KBENCH"
TREE=stand-in SIZES=5 expect_err "... and the stand-in's sizes but 25 and 10" 2 \
	"bisect-accuracy: the stand-in's SIZES are 25 and 10 ('5')" sh "$bench/bisect-accuracy.sh" "$KBENCH"
REPS=1 SIZES_MMTESTS=2 SIZES_POOLED= SIZES_AB= CHANGES="0 10" TMPDIR=$tmp \
	sh "$bench/time-to-verdict.sh" "$tmp/nojson" > "$tmp/ttv" 2> "$tmp/ttv.err"
is "time-to-verdict.sh exits 1 when a comparison has no verdict" "$?" 1
check "... says so" grep -q '^time-to-verdict: no verdict in the comparison' "$tmp/ttv.err"
REPS=0 expect_err "ab-power.sh refuses REPS=0" 2 \
	"ab-power: REPS must be a positive integer ('0')" sh "$bench/ab-power.sh" "$KBENCH"

# valgrind.sh on a test of its own: a run whose samples must succeed,
# kbench under memcheck and the sample program beside it (natively when
# static), the verdict and the test's counts as the script prints them.
if ! command -v valgrind > /dev/null 2>&1; then
	skip "no valgrind here"
elif nm "$KBENCH" 2>/dev/null | grep -q __asan_init; then
	skip "a sanitizer build does not run under valgrind"
else
	cat > "$tmp/vg-run.sh" <<'EOF'
. "$TOP_SRCDIR/tests/cli/lib.sh"
printf '[hb]\nworkload = hackbench\niterations = 2\nwarmup = 0\nloops = 2\ngroups = 1\n' \
	> "$tmp/vg.conf"
check "a run of two hackbench samples exits 0" kb --quiet run -c "$tmp/vg.conf"
is "... and stores both" "$(sql 'SELECT count(*) FROM samples')" 2
is "... and no failure" "$(sql 'SELECT count(*) FROM failures')" 0
done_testing
EOF
	(cd "$(dirname "$KBENCH")" && sh "$bench/valgrind.sh" "$tmp/vg-run.sh") \
		> "$tmp/vg" 2> "$tmp/vg.err"
	is "valgrind.sh on a run exits 0" "$?" 0
	is "... says nothing on stderr" "$(cat "$tmp/vg.err")" ""
	is "... where the run's samples succeed" "$(grep '^vg-run:' "$tmp/vg" | sed 's/ ([0-9]* s)$//')" \
		"vg-run: 3 ok, 0 not ok"
	check "... says how the sample program ran" \
		has "$tmp/vg" "^valgrind: kbench-sample (runs under memcheck too|is linked statically and runs natively)"
	check "... and finds the processes clean" \
		has "$tmp/vg" "^valgrind: clean \([0-9]+ kbench processes checked\)$"
fi
# verdict-rates.sh at its smallest: every check prints a rate.
RUNS=2 REPS=1 ROWS=1 AB_ROUNDS=3 AB_MAX_ROUNDS=4 ITERATIONS=2 LOOPS=1000 TMPDIR=$tmp \
	sh "$bench/verdict-rates.sh" "$KBENCH" > "$tmp/vr" 2> "$tmp/vr.err"
is "verdict-rates.sh at its smallest exits 0" "$?" 0
is "... names the checks in order" "$(cut -c1-14 "$tmp/vr" | sed 's/ *$//' | tr '\n' ,)" \
	"aa-rounds,pooled A/A,pooled +10%,pooled +25%,ab A/A,ab +10%,ab +10% advice,ab +25%,cp x2,cp +25%,cp A/A alarms,"
check "... each a rate" sh -c '! grep -Ev "^[-a-zA-Z/ +%0-9]{14} [0-9]+/[1-9][0-9]* \([0-9]+%\)(  wrong [0-9]+)?(  \? [0-9]+)?(  largest [0-9]+\.[0-9]%)?(  rounds [0-9]+(-[0-9]+)?)?$" "$1"' \
	sh "$tmp/vr"
if grep -q '^ab +10%  .*  ? 1$' "$tmp/vr"; then
	check "... where +10% could not tell, reruns with the footer's rounds (at most 4)" \
		grep -q '^ab +10% advice .*  rounds [1-4]$' "$tmp/vr"
else
	check "... where +10% was told, reruns nothing" grep -q '^ab +10% advice .*[0-9]$' "$tmp/vr" \
		'&&' sh -c '! grep -q "^ab +10% advice .*rounds" "$1"' sh "$tmp/vr"
fi
check "... and leaves no work directory behind" \
	test -z "$(ls -d "$tmp"/verdict-rates.* 2>/dev/null)"
RUNS=2 REPS=1 ROWS=1 AB_ROUNDS=2 ITERATIONS=2 LOOPS=1000 MIN_CHANGE=x TMPDIR=$tmp \
	sh "$bench/verdict-rates.sh" "$KBENCH" > /dev/null 2> "$tmp/vr.err"
is "... passes MIN_CHANGE to history, whose error stops it" "$?.$(tail -2 "$tmp/vr.err")" \
	"1.kbench: invalid --min-change 'x': expected a percentage, 0 or more (e.g. 5)
verdict-rates: history of cpx2 failed"
RUNS=1 sh "$bench/verdict-rates.sh" "$KBENCH" > /dev/null 2> "$tmp/vr.err"
is "... refuses RUNS below 2" "$?.$(cat "$tmp/vr.err")" \
	"2.verdict-rates: RUNS, AB_ROUNDS and AB_MAX_ROUNDS must be 2 or more, ROWS and REPS 1 or more"
if command -v sockperf > /dev/null 2>&1; then
	DURATION=1 PAIRS=1 TESTS=udp_rr PLACEMENTS=same-pu PEERS=sockperf TMPDIR=$tmp \
		PORT=$((20000 + $$ % 20000)) \
		sh "$bench/netperf-vs-peers.sh" > "$tmp/np" 2> "$tmp/np.err"
	is "netperf-vs-peers.sh, UDP_RR same-pu against sockperf, exits 0" "$?" 0
	is "... says nothing on stderr" "$(cat "$tmp/np.err")" ""
	is "... its column header" "$(grep '^test' "$tmp/np" | tr -s ' ')" \
		"test placement peer pairs kbench CoV% peer CoV% ratio ratio-95%ci goal"
	check "... one row, with the interval '-' for one pair and a verdict" \
		has "$tmp/np" "^udp_rr +same-pu +sockperf +1 +$num +$num +$num +$num +$num +- +(ok|MISSED~?)$"
	is "... and no other" "$(grep -c '^udp_rr ' "$tmp/np")" 1
	check "... and leaves no work directory behind" \
		test -z "$(ls -d "$tmp"/netperf-vs-peers.* 2>/dev/null)"
else
	skip "no sockperf here"
fi

# Fed garbage, every script that prints figures read from another
# program's output stops with status 1 and says what it read, rather
# than print 0, nan or nothing as a figure and exit 0. The fakes stand in
# for a peer tool, or for kbench itself where the script has no peer.
fake() {	# fake NAME SCRIPT: an executable $tmp/fake/NAME running SCRIPT
	mkdir -p "$tmp/fake" && printf '#!/bin/sh\n%s\n' "$2" > "$tmp/fake/$1" &&
		chmod +x "$tmp/fake/$1"
}
# garbage DESCRIPTION PATTERN COMMAND...: COMMAND exits 1 and its stderr
# matches PATTERN.
garbage() {
	g_desc=$1 g_pat=$2
	shift 2
	"$@" > "$tmp/g.out" 2> "$tmp/g.err"
	g_rc=$?
	if [ "$g_rc" = 1 ] && grep -Eq "$g_pat" "$tmp/g.err"; then
		ok 0 "$g_desc"
	else
		ok 1 "$g_desc"
		echo "# exit $g_rc (want 1), stderr (want a line matching: $g_pat):"
		comment "$tmp/g.err"
		echo "# stdout:"
		comment "$tmp/g.out"
	fi
}
# pft: the reference's figures without its title line (as it prints them
# without -T), a title with figures that are no numbers, then a correct
# title and line, which passes.
fake pft-untitled 'echo "   0    1   1     0.01s      0.08s      0.09s   12345.000  23456.000"'
PFT=$tmp/fake/pft-untitled SIZE=128M PAIRS=1 COUNTS=1 garbage \
	"pft-vs-reference.sh: a reference without its title line fails" \
	"^pft-vs-reference.sh: '.*pft-untitled -T -t 1': fault/wsec: expected a number above 0, read ''" \
	bash "$bench/pft-vs-reference.sh"
check "... showing what it printed" grep -q '^  |    0    1   1     0.01s' "$tmp/g.err"
fake pft-nan 'echo "  Gb  Thr CLine   User     System     Wall    flt/cpu/s fault/wsec"
echo "   0    1   1     0.01s      nans      0.09s   12345.000  23456.000"'
PFT=$tmp/fake/pft-nan SIZE=128M PAIRS=1 COUNTS=1 garbage \
	"... a reference whose System is no number fails" \
	"': System: expected a number above 0, read 'nan'" bash "$bench/pft-vs-reference.sh"
fake pft-ok 'echo "  Gb  Thr CLine   User     System     Wall    flt/cpu/s fault/wsec"
echo "   0    1   1     0.01s      0.08s      0.09s   12345.000  23456.000"'
PFT=$tmp/fake/pft-ok SIZE=128M PAIRS=1 COUNTS=1 bash "$bench/pft-vs-reference.sh" \
	> "$tmp/pft" 2> "$tmp/pft.err"
is "... a reference whose figures read exits 0" "$?.$(cat "$tmp/pft.err")" "0."
check "... and prints the ratios, read from kbench pft's own title" \
	has "$tmp/pft" "^threads +1 +1 +$num +$num +[0-9]+ +23456 +$num +$num$"
# hackbench: rt-tests printing no number, or no Time line at all.
fake hackbench-nan 'echo "Running in threaded mode with 1 groups using 40 file descriptors"
echo "Time: nan"'
HACKBENCH=$tmp/fake/hackbench-nan PEERS=rt-tests MODES=thread TRANSPORTS=pipes GROUPS_LIST=1 \
	PAIRS=1 TARGET_S=0.01 REST=0 garbage \
	"hackbench-vs-peers.sh: a peer's time that is no number fails" \
	"^hackbench-vs-peers.sh: rt-tests thread pipes 1 [0-9]+: its time: expected a number above 0, read 'nan'" \
	bash "$bench/hackbench-vs-peers.sh"
check "... showing what it printed" grep -q '^  | Running in threaded mode' "$tmp/g.err"
fake hackbench-none 'echo "hackbench: cannot start"'
HACKBENCH=$tmp/fake/hackbench-none PEERS=rt-tests MODES=thread TRANSPORTS=pipes GROUPS_LIST=1 \
	PAIRS=1 TARGET_S=0.01 REST=0 garbage \
	"... as does one without a Time line" "its time: expected a number above 0, read ''" \
	bash "$bench/hackbench-vs-peers.sh"
# netperf: sockperf printing no [Valid Duration] line, twice.
fake sockperf 'echo "sockperf: garbage"'
SOCKPERF=$tmp/fake/sockperf DURATION=1 UNBOUND_PAIRS=1 TESTS=udp_rr PLACEMENTS=unbound \
	PEERS=sockperf TMPDIR=$tmp PORT=$((20000 + $$ % 20000)) garbage \
	"netperf-vs-peers.sh: a peer's output without its figure fails" \
	"^netperf-vs-peers.sh: udp_rr unbound pair 0: sockperf: expected a number above 0, read ''" \
	sh "$bench/netperf-vs-peers.sh"
check "... showing what it printed" grep -q '^  | sockperf: garbage' "$tmp/g.err"
# The scripts whose figures come from kbench itself.
fake kbench-runs-fails "case \" \$* \" in *' runs '*) echo 'kbench: cannot read' >&2; exit 1 ;; esac
exec '$KBENCH' \"\$@\""
NIGHTS=10 garbage "history-scale.sh: runs failing with status 1 fails" \
	"^history-scale: '.*kbench-runs-fails --db .* runs' exited with status 1, expected 0:" \
	sh -c 'cd "$1" && shift && exec "$@"' sh "$tmp" \
	sh "$bench/history-scale.sh" "$tmp/fake/kbench-runs-fails"
check "... and leaves no work directory behind" \
	test -z "$(ls -d "$tmp"/history-scale.* 2>/dev/null)"
fake kbench-stores-nothing "case \" \$* \" in *' run '*) exit 0 ;; esac
exec '$KBENCH' \"\$@\""
ln -s "$(dirname "$KBENCH")/kbench-sample" "$tmp/fake/kbench-sample"
KBENCH=$tmp/fake/kbench-stores-nothing CONFIGS=quick N=1 EXECS=3 HACKBENCH=/nonexistent \
	TMPDIR=$tmp garbage "harness-overhead.sh: a run that stores nothing fails" \
	"^harness-overhead.sh: quick: the samples' time: expected a number above 0, read ''" \
	sh "$bench/harness-overhead.sh"
if command -v sqlite3 > /dev/null 2>&1; then
	KBENCH=$tmp/fake/kbench-stores-nothing PAIRS=5 garbage \
		"monitor-overhead.sh: a run that stores nothing fails" \
		"^monitor-overhead.sh: pair 1, monitors all: the median time: expected a number above 0" \
		bash "$bench/monitor-overhead.sh"
else
	skip "no sqlite3 here"
fi
fake kbench-compares-nothing "case \" \$* \" in *' run '* | *' compare '*) exit 0 ;; esac
exec '$KBENCH' \"\$@\""
K=6 J=1 TMPDIR=$tmp garbage "aa-false-positives.sh: comparisons that test nothing fail" \
	"^aa-false-positives: no mean row was tested \(default, aa\)" \
	sh "$bench/aa-false-positives.sh" "$tmp/fake/kbench-compares-nothing"
done_testing
