#!/bin/sh
# netperf-vs-peers: kbench netperf side by side with peer tools over
# loopback, alternating runs (kbench, peer, kbench, peer, ...) so that
# machine drift hits both alike. Request/response: sockperf ping-pong
# (TCP, UDP) and qperf tcp_lat/udp_lat, latency converted to transactions
# per second; TCP_STREAM: iperf3. With NETPERF= and NETSERVER= set, netperf
# itself too. Placements: same-pu and cross-CPU (the first of cross-core
# and cross-llc this machine has; both tools' server and client on the
# CPUs `kbench topology --cpus` picks) and unbound.
#
# Prints, per test and placement, the median of the per-pair ratios
# kbench/peer (above 1.00: kbench counts more transactions or bits) and
# its distribution-free 95% confidence interval (order statistics of the
# ratios, bench/median-ci.awk; "-" under 6 pairs), each tool's median and
# coefficient of variation, then the goal's verdict: for TCP_RR and
# UDP_RR pinned, "ok" when the ratio is at least 1.00 and kbench's CoV is
# no higher than the peer's, else "MISSED", or "MISSED~" when each part
# missed is inside the noise of the pairs: 1.00 inside the ratio's
# interval, and kbench's CoV above the peer's by less than 1.96 standard
# errors of the difference (a CoV c from n runs is known to about
# c / sqrt(2(n-1))) ("-": no goal, unbound runs and streams).
#
# A figure that cannot be read from a tool's output, after one more try
# of the peer, stops the script with status 1 and shows what the tool
# printed.
#
# Environment: KBENCH (default ./kbench), SOCKPERF, QPERF, IPERF3, NETPERF,
# NETSERVER (paths), DURATION (seconds per run, default 3), PAIRS (pinned
# pairs, default 7), UNBOUND_PAIRS (default 10), PLACEMENTS (default
# "same-pu cross-core,cross-llc unbound": a pin policy or a preference
# list of them), TESTS (default "tcp_rr udp_rr tcp_stream"), PEERS (only
# these of the peers, e.g. "netperf"; default all that apply).
. "$(dirname "$0")/usage.sh"
. "$(dirname "$0")/figure.sh"
set -u

KBENCH=${KBENCH:-./kbench}
SOCKPERF=${SOCKPERF:-sockperf}
QPERF=${QPERF:-qperf}
IPERF3=${IPERF3:-iperf3}
NETPERF=${NETPERF:-}
NETSERVER=${NETSERVER:-}
DURATION=${DURATION:-3}
PAIRS=${PAIRS:-7}
UNBOUND_PAIRS=${UNBOUND_PAIRS:-10}
PLACEMENTS=${PLACEMENTS:-same-pu cross-core,cross-llc unbound}
TESTS=${TESTS:-tcp_rr udp_rr tcp_stream}
PEERS=${PEERS:-}
PORT=${PORT:-23456}

BENCH_DIR=$(dirname "$0")
work=$(mktemp -d "${TMPDIR:-/tmp}/netperf-vs-peers.XXXXXX") || exit 1
server_pid=

cleanup() {
	stop_server
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

die() {
	echo "netperf-vs-peers: $*" >&2
	exit 1
}

have() {
	command -v "$1" >/dev/null 2>&1
}

# on CPU CMD...: run CMD on CPU (taskset), or unbound when CPU is empty
on() {
	cpu=$1
	shift
	if [ -n "$cpu" ]; then
		taskset -c "$cpu" "$@"
	else
		"$@"
	fi
}

# next_port: a port no earlier run used, so TIME_WAIT never blocks a bind
# (runs happen in subshells, hence the file)
next_port() {
	PORT=$(($(cat "$work/port" 2>/dev/null || echo "$PORT") + 1))
	echo "$PORT" >"$work/port"
}

# start_server CPU CMD...: CMD in the background, $server_pid its own pid
start_server() {
	cpu=$1
	shift
	if [ -n "$cpu" ]; then
		taskset -c "$cpu" "$@" >"$work/server.log" 2>&1 &
	else
		"$@" >"$work/server.log" 2>&1 &
	fi
	server_pid=$!
	sleep 0.5
}

stop_server() {
	if [ -n "$server_pid" ]; then
		kill "$server_pid" 2>/dev/null
		wait "$server_pid" 2>/dev/null
		server_pid=
	fi
}

# Each runner prints one figure (transactions/s or Mbit/s) or nothing.
run_kbench() {	# test pin
	case $1 in
	tcp_rr) t=TCP_RR ;;
	udp_rr) t=UDP_RR ;;
	tcp_stream) t="TCP_STREAM -r 16384" ;;
	esac
	"$KBENCH" netperf -t $t -l "$DURATION" --pin "$2" --format simple 2>"$work/raw.kbench"
}

run_sockperf() {	# test server-cpu client-cpu
	next_port
	proto=
	[ "$1" = tcp_rr ] && proto=--tcp
	start_server "$2" "$SOCKPERF" server $proto -i 127.0.0.1 -p $PORT
	on "$3" "$SOCKPERF" ping-pong $proto -i 127.0.0.1 -p $PORT -m 14 -t "$DURATION" 2>&1 |
		tee "$work/raw.peer" | awk '/\[Valid Duration\]/ {
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^RunTime=/) { split($i, a, "="); t = a[2] + 0 }
				if ($i ~ /^ReceivedMessages=/) { split($i, a, "="); m = a[2] + 0 }
			}
		}
		END { if (t > 0 && m > 0) printf "%.2f\n", m / t }'
	stop_server
}

run_qperf() {	# test server-cpu client-cpu
	next_port
	case $1 in
	tcp_rr) q=tcp_lat ;;
	udp_rr) q=udp_lat ;;
	esac
	start_server "$2" "$QPERF" -lp $PORT
	# qperf's latency is half a round trip: one transaction = 2 latencies.
	on "$3" "$QPERF" -lp $PORT 127.0.0.1 -t "$DURATION" -m 1 $q 2>&1 |
		tee "$work/raw.peer" | awk '$1 == "latency" {
			v = $3 + 0
			if ($4 == "ns") v /= 1000; else if ($4 == "ms") v *= 1000; else if ($4 == "sec") v *= 1e6
			if (v > 0) printf "%.2f\n", 1e6 / (2 * v)
		}'
	stop_server
}

run_iperf3() {	# test server-cpu client-cpu
	next_port
	start_server "$2" "$IPERF3" -s -1 -p $PORT
	on "$3" "$IPERF3" -c 127.0.0.1 -p $PORT -t "$DURATION" -l 16384 -f m 2>&1 |
		tee "$work/raw.peer" | awk '/receiver$/ { for (i = 1; i < NF; i++) if ($(i + 1) == "Mbits/sec") v = $i }
		     END { if (v != "") print v }'
	stop_server
}

run_netperf() {	# test server-cpu client-cpu
	next_port
	case $1 in
	tcp_rr) t="TCP_RR -- -r 1,1" ;;
	udp_rr) t="UDP_RR -- -r 1,1" ;;
	tcp_stream) t="TCP_STREAM -- -m 16384 -M 16384" ;;
	esac
	start_server "$2" "$NETSERVER" -D -p $PORT
	# -P 0: no banner; the data line's last field is the result.
	on "$3" "$NETPERF" -H 127.0.0.1 -p $PORT -P 0 -l "$DURATION" -t $t 2>&1 |
		tee "$work/raw.peer" | awk 'NF >= 5 && $NF ~ /^[0-9.]+$/ { print $NF; exit }'
	stop_server
}

# stats FILE: "median cov%" of the figures in FILE
stats() {
	sort -g "$1" | awk '{ v[NR] = $1; s += $1; ss += $1 * $1 }
		END {
			if (!NR) { print "- -"; exit }
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			mean = s / NR; var = NR > 1 ? (ss - NR * mean * mean) / (NR - 1) : 0
			if (var < 0) var = 0
			printf "%.2f %.1f\n", m, mean ? 100 * sqrt(var) / mean : 0
		}'
}

# the pair ratios kbench/peer, sorted, from two files of equal length
ratios() {
	paste "$1" "$2" | awk '$2 > 0 { print $1 / $2 }' | sort -g
}

# their median, or "-"
ratio() {
	ratios "$1" "$2" | awk '{ v[NR] = $1 } END {
		if (!NR) { print "-"; exit }
		printf "%.3f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	}'
}

# the 95% confidence interval of that median, "lo-hi" or "-"
ratio_ci() {
	ratios "$1" "$2" | awk -f "$BENCH_DIR/median-ci.awk"
}

peers_for() {
	case $1 in
	tcp_rr | udp_rr) p="sockperf qperf" ;;
	tcp_stream) p=iperf3 ;;
	esac
	[ -n "$NETPERF" ] && [ -n "$NETSERVER" ] && p="$p netperf"
	if [ -n "$PEERS" ]; then
		q=
		for x in $p; do
			case " $PEERS " in *" $x "*) q="$q $x" ;; esac
		done
		p=$q
	fi
	echo $p
}

[ -x "$KBENCH" ] || die "no kbench at '$KBENCH' (set KBENCH=)"
have taskset || die "taskset (util-linux) is needed"
for t in $TESTS; do
	for peer in $(peers_for $t); do
		case $peer in
		sockperf) have "$SOCKPERF" || die "sockperf not found: apt-get install sockperf" ;;
		qperf) have "$QPERF" || die "qperf not found: apt-get install qperf" ;;
		iperf3) have "$IPERF3" || die "iperf3 not found: apt-get install iperf3" ;;
		netperf) [ -x "$NETPERF" ] && [ -x "$NETSERVER" ] || die "NETPERF/NETSERVER not executable" ;;
		esac
	done
done

echo "# kbench netperf vs peers: $DURATION s per run, alternating; ratio = median of kbench/peer per pair"
"$KBENCH" topology 2>/dev/null | head -n 1 | sed 's/^/# /'
echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-11s %-11s %-9s %6s %12s %7s %12s %7s  %-7s %-12s %s\n' test placement peer pairs \
	kbench "CoV%" peer "CoV%" "ratio" "ratio-95%ci" goal
for place in $PLACEMENTS; do
	if [ "$place" = unbound ]; then
		n=$UNBOUND_PAIRS scpu= ccpu= label=unbound
	else
		cpus=$("$KBENCH" topology --cpus "$place") || die "cannot place '$place' here"
		set -- $cpus
		n=$PAIRS scpu=$1 ccpu=$2
		# A preference list: name the policy the CPUs stand for.
		case $place in
		*,*) for pol in $(echo "$place" | tr ',' ' '); do
			if [ "$("$KBENCH" topology --cpus "$pol" 2>/dev/null)" = "$cpus" ]; then
				label=$pol
				break
			fi
		     done ;;
		*) label=$place ;;
		esac
	fi
	for t in $TESTS; do
		peers=$(peers_for $t)
		for peer in $peers; do
			: >"$work/k.$peer"
			: >"$work/p.$peer"
		done
		i=0
		while [ $i -lt "$n" ]; do
			for peer in $peers; do
				# Alternate who goes first, so neither always runs warm.
				if [ $((i % 2)) -eq 0 ]; then
					k=$(run_kbench $t "$place")
					p=$(run_$peer $t "$scpu" "$ccpu")
				else
					p=$(run_$peer $t "$scpu" "$ccpu")
					k=$(run_kbench $t "$place")
				fi
				# A server slow to start under load: one more try.
				is_figure "$p" || p=$(run_$peer $t "$scpu" "$ccpu")
				need_figure "$t $place pair $i: kbench" "$k" "$work/raw.kbench"
				need_figure "$t $place pair $i: $peer" "$p" "$work/raw.peer"
				echo "$k" >>"$work/k.$peer"
				echo "$p" >>"$work/p.$peer"
			done
			i=$((i + 1))
		done
		for peer in $peers; do
			set -- $(stats "$work/k.$peer") $(stats "$work/p.$peer")
			r=$(ratio "$work/k.$peer" "$work/p.$peer")
			need_figure "$t $label $peer: the median ratio" "$r"
			ci=$(ratio_ci "$work/k.$peer" "$work/p.$peer")
			pairs=$(wc -l <"$work/k.$peer")
			goal=-
			case $t/$place in
			*_rr/unbound | tcp_stream/*) ;;
			*) goal=$(awk -v r="$r" -v ci="$ci" -v kc="$2" -v pc="$4" -v n="$pairs" 'BEGIN {
				if (r == "-") { print "MISSED"; exit }
				if (r + 0 >= 1.00 && kc + 0 <= pc + 0) { print "ok"; exit }
				split(ci, b, "-")
				noise_r = r + 0 >= 1.00 || (ci != "-" && b[2] + 0 >= 1.00)
				se = n > 1 ? sqrt((kc * kc + pc * pc) / (2 * (n - 1))) : 0
				noise_c = kc + 0 <= pc + 0 || (n > 1 && kc - pc < 1.96 * se)
				print (noise_r && noise_c) ? "MISSED~" : "MISSED" }') ;;
			esac
			printf '%-11s %-11s %-9s %6s %12s %7s %12s %7s  %-7s %-12s %s\n' $t "$label" $peer \
				"$pairs" "$1" "$2" "$3" "$4" "$r" "$ci" "$goal"
		done
	done
done
