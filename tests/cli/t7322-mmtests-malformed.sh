#!/bin/sh
# t7322: a malformed mmtests directory is refused, naming the file and
# line and what was expected there, and nothing of it is stored: not the
# run with the bad log, not the good runs beside it.
# Covers: mmtests/mmtests.c mmtests/mmtests_log.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

check "a store holding one imported run" \
	kb import --mmtests "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-patched"
before=$(store_digest "$db")
n=0
# refused DESC TEXT: a fresh copy of the fixture, changed by the commands
# that follow on stdin (run in it), is refused with TEXT on stderr and
# leaves the store as it was.
refused() {
	n=$((n + 1))
	d=$tmp/log$n
	cp -R "$TOP_SRCDIR/tests/data/mmtests/log" "$d" && chmod -R u+w "$d" &&
		(cd "$d/5.15.0-vanilla/iter-0" && sh -e) || { ok 1 "$1 (fixture)"; return; }
	expect_err "$1" 1 "$2" kb import --mmtests "$d"
	is "... nothing stored" "$(store_digest "$db")" "$before"
}
refused "a hackbench time that is not a number" \
	"hackbench-process-pipes/logs/hackbench-4-2:5: expected a time in seconds, found '0.1x8'" <<'S'
sed -i 's/0\.158/0.1x8/' hackbench-process-pipes/logs/hackbench-4-2
S
refused "a perf bench time missing" \
	"hackbench-thread-sockets/logs/hackbench-2:10: expected a time in seconds, found nothing" <<'S'
sed -i '10s/.*/     Total time:/' hackbench-thread-sockets/logs/hackbench-2
S
refused "a netperf result that is not a number" \
	"netperf-tcp-rr/logs/TCP_RR-1.2:9: expected a throughput as the result line's last field, found '50321.9.0'" <<'S'
sed -i 's/50321\.90/50321.9.0/' netperf-tcp-rr/logs/TCP_RR-1.2
S
refused "netperf's units unknown" \
	"netperf-tcp-rr/logs/units-TCP_RR:1: expected netperf's units (k, m or g, or x), found 'q'" <<'S'
echo q > netperf-tcp-rr/logs/units-TCP_RR
S
refused "a pft line short of a field" \
	"pft/logs/base/pft-2.log:2: expected 8 fields (size, threads, cache lines, user, system, elapsed, faults/cpu, faults/sec), found 7" <<'S'
sed -i '2s/ 995310.125//' pft/logs/base/pft-2.log
S
refused "a tbench throughput that is not a number" \
	"tbench/logs/tbench-1.log:8: expected MB/sec after 'Throughput', found '2-41.456'" <<'S'
sed -i 's/Throughput 241/Throughput 2-41/' tbench/logs/tbench-1.log
S
refused "a sysbench rate that is not a number" \
	"sysbenchcpu/logs/sysbench-raw-1-2:7: expected a rate after 'events per second:', found 'inf'" <<'S'
sed -i 's/1240.02/inf/' sysbenchcpu/logs/sysbench-raw-1-2
S
refused "a gzip'ed log that is not gzip" "tbench/logs/tbench-2.log.gz' with gzip: " <<'S'
mv tbench/logs/tbench-2.log tbench/logs/tbench-2.log.gz
S
refused "a host name that is a path" \
	"iter-0/kernel.version: invalid host name '../..'" <<'S'
echo 'Linux ../.. 5.15.0-vanilla #1 SMP x86_64 GNU/Linux' > kernel.version
S
esc=$(printf '\033')
refused "a section name with an escape" \
	"invalid section name 'hackbench-x\\x1b[2J'" <<S
mkdir 'hackbench-x${esc}[2J' && cp -R hackbench-process-pipes/logs 'hackbench-x${esc}[2J/'
S
expect_err "--dry-run refuses the same" 1 "hackbench-4-2:5: expected a time in seconds" \
	kb import --dry-run --mmtests "$tmp/log1"

# A run directory whose name cannot be a run's.
cp -R "$TOP_SRCDIR/tests/data/mmtests/log" "$tmp/named" && chmod -R u+w "$tmp/named" &&
	mv "$tmp/named/5.15.0-vanilla" "$tmp/named/#5"
expect_err "a run named '#5' is refused" 1 "/#5: invalid run name '#5': " \
	kb import --mmtests "$tmp/named"
is "... nothing stored" "$(store_digest "$db")" "$before"
done_testing
