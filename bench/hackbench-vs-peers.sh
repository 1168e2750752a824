#!/bin/bash
# hackbench-vs-peers: kbench hackbench side by side with rt-tests hackbench
# and perf bench sched messaging, on this machine, alternating A B A B so
# that drift hits both alike. For each variant (process/thread x
# sockets/pipes) and group count it prints the median of the per-pair
# ratios kbench/peer of the times (< 1.00: kbench is faster) with its
# distribution-free 95% confidence interval (order statistics of the
# ratios; "-" under 6 pairs), each tool's coefficient of variation, and
# the goal's verdict against rt-tests: "ok" when the ratio is at most
# 1.00, else "MISSED", or "MISSED~" when 1.00 lies inside the interval
# (a miss the pairs cannot tell from noise) ("-" for perf, which has no
# goal). Pairs alternate who runs first.
#
# The peer "rt-tests-kbench" (not in the default PEERS) is rt-tests'
# hackbench started by `kbench external` instead of by the shell, so
# that it runs under the same process tree as kbench's own sample:
# against it the ratio compares the two loops alone, without what being
# started under kbench costs (on a 2-vCPU guest the same rt-tests binary
# ran 3-4% slower so started, at thread pipes, 4 groups). No goal ("-").
#
# Each invocation starts after REST seconds of idle (default 0.3): on a
# shared 2-vCPU guest a run started straight after another was 4.5%
# slower than one started after 0.3 s idle (12 pairs of rt-tests
# hackbench, thread pipes, 4 groups), which favoured whichever tool
# starts its window with less work of its own before it.
#
# A time that cannot be read from a tool's output (no "Time:" line from
# rt-tests, not a number above 0) stops the script with status 1 and
# shows what the tool printed.
#
# Variables: KBENCH (default ./kbench), HACKBENCH (default hackbench from
# rt-tests), PERF (default perf), PAIRS (default 7), GROUPS_LIST
# (default "1 2 4", or "1 4 16" where 16 CPUs or more are usable: the
# goal's group counts for each size), MODES (default "process thread"),
# TRANSPORTS (default "sockets pipes"), PEERS (default "rt-tests perf": the peers
# to pair kbench with, of rt-tests, perf and rt-tests-kbench), TARGET_S
# (seconds a sample should last, default 0.5), REST (default 0.3; 0:
# back to back).
. "$(dirname "$0")/usage.sh"
. "$(dirname "$0")/figure.sh"
set -u
BENCH_DIR=$(dirname "$0")
KBENCH=${KBENCH:-./kbench}
HACKBENCH=${HACKBENCH:-$(command -v hackbench || true)}
PERF=${PERF:-$(command -v perf || true)}
PAIRS=${PAIRS:-7}
if [ "$(nproc)" -ge 16 ]; then
	GROUPS_LIST=${GROUPS_LIST:-"1 4 16"}
else
	GROUPS_LIST=${GROUPS_LIST:-"1 2 4"}
fi
TARGET_S=${TARGET_S:-0.5}
REST=${REST:-0.3}
MODES=${MODES:-"process thread"}
TRANSPORTS=${TRANSPORTS:-"sockets pipes"}
PEERS=${PEERS:-"rt-tests perf"}
for p in $PEERS; do
	case $p in
	rt-tests|perf|rt-tests-kbench) ;;
	*) echo "bench: PEERS: unknown peer '$p' (rt-tests, perf, rt-tests-kbench)" >&2; exit 2 ;;
	esac
done
wanted() { case " $PEERS " in *" $1 "*) return 0 ;; esac; return 1; }
perf_runs() {
	"$PERF" bench --format=simple sched messaging -g 1 -l 1 >/dev/null 2>&1 && return 0
	echo "bench: '$PERF bench' does not run here; comparing with rt-tests only" >&2
	return 1
}
peer_label() { case $1 in rt) echo rt-tests ;; rtkb) echo rt-kbench ;; perf) echo perf ;; kb) echo kbench ;; esac; }

[ -x "$KBENCH" ] || { echo "bench: KBENCH=$KBENCH is not executable (build first)" >&2; exit 2; }
# The peers to run, each by its key (its *_time function), in row order.
run_peers=""
wanted rt-tests && [ -n "$HACKBENCH" ] && run_peers="$run_peers rt"
wanted perf && [ -n "$PERF" ] && perf_runs && run_peers="$run_peers perf"
wanted rt-tests-kbench && [ -n "$HACKBENCH" ] && run_peers="$run_peers rtkb"
if [ -z "$run_peers" ]; then
	echo "bench: neither rt-tests hackbench nor perf found (apt-get install rt-tests linux-perf)" >&2
	exit 2
fi

kb_time() {	# mode transport groups loops
	local flags=""
	sleep "$REST"
	[ "$1" = thread ] && flags="$flags --thread"
	[ "$2" = pipes ] && flags="$flags --pipe"
	"$KBENCH" hackbench $flags -g "$3" -l "$4" --format simple
}
rt_args() {	# mode transport groups loops: rt-tests hackbench's arguments
	local flags=""
	[ "$1" = thread ] && flags="$flags -T"
	[ "$2" = pipes ] && flags="$flags -p"
	echo "$flags -g $3 -l $4"
}
rt_time() {
	sleep "$REST"
	# All it printed goes to stderr too: what timed shows when no time is read.
	"$HACKBENCH" $(rt_args "$@") > /tmp/raw.$$ 2>&1
	cat /tmp/raw.$$ >&2
	sed -n 's/^Time: *//p' /tmp/raw.$$
}
rtkb_time() {	# rt-tests' hackbench as kbench's external workload
	sleep "$REST"
	"$KBENCH" external -c "'$HACKBENCH'$(rt_args "$@")" -o 'metric.time=^Time: *(?<value>\S+)' \
		-o better.time=lower --format simple
}
perf_time() {
	local flags=""
	sleep "$REST"
	[ "$1" = thread ] && flags="$flags -t"
	[ "$2" = pipes ] && flags="$flags -p"
	"$PERF" bench --format=simple sched messaging $flags -g "$3" -l "$4" 2>/dev/null | tail -1
}

# timed TOOL ARGS...: TOOL's time (TOOL: kb or a peer's key) into fig, or
# exit 1 showing what it printed.
timed() {
	local tool=$1
	shift
	fig=$("${tool}_time" "$@" 2> /tmp/err.$$)
	printf '%s\n' "$fig" | cat - /tmp/err.$$ > /tmp/out.$$
	need_figure "$(peer_label "$tool") $*: its time" "$fig" /tmp/out.$$
}

# median and coefficient of variation (%) of the numbers on stdin
stats() {
	sort -g | awk '{ v[NR] = $1; s += $1; ss += $1 * $1 }
		END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
		      mean = s / NR; sd = (NR > 1) ? sqrt((ss - NR * mean * mean) / (NR - 1)) : 0;
		      printf "%.3f %.1f\n", m, (mean > 0) ? 100 * sd / mean : 0 }'
}

echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs; $REST s idle before each run"
printf '%-16s %3s %6s  %-9s %8s %-12s %8s %8s %8s %8s  %s\n' variant g loops peer "ratio" \
	"ratio-95%ci" "kb-med" "peer-med" "kb-CV%" "peer-CV%" goal
for mode in $MODES; do
	for tr in $TRANSPORTS; do
		for g in $GROUPS_LIST; do
			# Calibrate loops so one sample lasts about TARGET_S.
			timed kb "$mode" "$tr" "$g" 100
			t=$fig
			loops=$(awk -v t="$t" -v want="$TARGET_S" 'BEGIN { l = int(100 * want / t); print (l < 100) ? 100 : l }')
			for peer in $run_peers; do
				: > /tmp/kb.$$; : > /tmp/peer.$$; : > /tmp/ratio.$$
				for i in $(seq "$PAIRS"); do
					# Alternate who goes first, so neither always runs warm.
					if [ $((i % 2)) -eq 1 ]; then
						timed kb "$mode" "$tr" "$g" "$loops"; a=$fig
						timed "$peer" "$mode" "$tr" "$g" "$loops"; b=$fig
					else
						timed "$peer" "$mode" "$tr" "$g" "$loops"; b=$fig
						timed kb "$mode" "$tr" "$g" "$loops"; a=$fig
					fi
					echo "$a" >> /tmp/kb.$$
					echo "$b" >> /tmp/peer.$$
					awk -v a="$a" -v b="$b" 'BEGIN { printf "%.6f\n", a / b }' >> /tmp/ratio.$$
				done
				read -r kmed kcv < <(stats < /tmp/kb.$$)
				read -r pmed pcv < <(stats < /tmp/peer.$$)
				read -r rmed _ < <(stats < /tmp/ratio.$$)
				need_figure "$mode-$tr g=$g, $(peer_label "$peer"): the median ratio" "$rmed"
				ci=$(sort -g /tmp/ratio.$$ | awk -f "$BENCH_DIR/median-ci.awk")
				goal=-
				[ $peer = rt ] && goal=$(awk -v r="$rmed" -v ci="$ci" 'BEGIN {
					if (r > 0 && r <= 1.00) { print "ok"; exit }
					split(ci, b, "-")
					print (ci != "-" && b[1] + 0 <= 1.00) ? "MISSED~" : "MISSED" }')
				printf '%-16s %3s %6s  %-9s %8s %-12s %8s %8s %8s %8s  %s\n' "$mode-$tr" "$g" "$loops" \
					"$(peer_label "$peer")" "$rmed" "$ci" "$kmed" "$pmed" "$kcv" "$pcv" "$goal"
			done
		done
	done
done
rm -f /tmp/kb.$$ /tmp/peer.$$ /tmp/ratio.$$ /tmp/err.$$ /tmp/out.$$ /tmp/raw.$$
echo "ratio = median over pairs of kbench time / peer time (lower is better; <= 1.00 meets the goal);"
echo "MISSED~ = 1.00 is inside the ratio's 95% interval: more pairs are needed to tell it from noise"
