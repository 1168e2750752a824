#!/bin/sh
# t7321: kbench export --mmtests writes runs in mmtests' layout, the logs
# as mmtests' extraction reads them, and import --mmtests reads them back
# to the same samples: runs imported from an mmtests directory, and a run
# kbench measured itself. Existing run directories are never written.
# Covers: mmtests/mmtests_export.c cli/export_mmtests.c mmtests/mmtests.c mmtests/mmtests_write.c mmtests/mmtests_benches.c mmtests/bench_hackbench.c mmtests/bench_netperf.c mmtests/bench_pft.c mmtests/bench_external.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# The samples of a store, as (run, section, row, iteration, value, unit,
# direction), in one order.
samples() {	# samples DB
	"$KB_SQL" "$1" "SELECT r.name, s.section, s.row, s.iteration, s.value, s.unit, s.better
		FROM samples s JOIN runs r ON r.id = s.run_id
		ORDER BY r.name, s.section, s.row, s.iteration"
}

check "the fixture imported" kb import --mmtests "$TOP_SRCDIR/tests/data/mmtests/log"
expect_transcript "export --mmtests writes both runs" \
	kb export --mmtests "$tmp/mm" 5.15.0-vanilla@testhost 5.15.0-patched@testhost <<'T'
$ kb export --mmtests TMP/mm 5.15.0-vanilla@testhost 5.15.0-patched@testhost
exported 2 runs to TMP/mm in mmtests' layout
[exit 0]
T
expect_transcript "the layout compare-kernels.sh reads" \
	sh -c 'cd "$1" && find . | LC_ALL=C sort' sh "$tmp/mm/5.15.0-vanilla" <<'T'
$ sh -c 'cd "$1" && find . | LC_ALL=C sort' sh TMP/mm/5.15.0-vanilla
.
./config
./iter-0
./iter-0/hackbench-process-pipes
./iter-0/hackbench-process-pipes/logs
./iter-0/hackbench-process-pipes/logs/hackbench-1
./iter-0/hackbench-process-pipes/logs/hackbench-4
./iter-0/hackbench-thread-sockets
./iter-0/hackbench-thread-sockets/logs
./iter-0/hackbench-thread-sockets/logs/hackbench-2
./iter-0/kernel.version
./iter-0/lscpu.txt
./iter-0/netperf-tcp
./iter-0/netperf-tcp-rr
./iter-0/netperf-tcp-rr/logs
./iter-0/netperf-tcp-rr/logs/TCP_RR-1.1
./iter-0/netperf-tcp-rr/logs/TCP_RR-1.2
./iter-0/netperf-tcp-rr/logs/TCP_RR-1.3
./iter-0/netperf-tcp-rr/logs/protocols
./iter-0/netperf-tcp/logs
./iter-0/netperf-tcp/logs/TCP_STREAM-64.1
./iter-0/netperf-tcp/logs/TCP_STREAM-64.2
./iter-0/netperf-tcp/logs/protocols
./iter-0/netperf-udp
./iter-0/netperf-udp/logs
./iter-0/netperf-udp/logs/UDP_STREAM-64.1
./iter-0/netperf-udp/logs/UDP_STREAM-64.2
./iter-0/netperf-udp/logs/protocols
./iter-0/pft
./iter-0/pft/logs
./iter-0/pft/logs/pft-1.log
./iter-0/pft/logs/pft-2.log
./iter-0/sysbenchcpu
./iter-0/sysbenchcpu/logs
./iter-0/sysbenchcpu/logs/benchlog-1-_-1
./iter-0/sysbenchcpu/logs/benchlog-1-_-2
./iter-0/tbench
./iter-0/tbench/logs
./iter-0/tbench/logs/tbench-1.log
./iter-0/tbench/logs/tbench-2.log
./iter-0/tests-activity
./iter-0/tests-sysstate
./iter-0/tests-timestamp
./mmtests-activity
[exit 0]
T
expect_transcript "iter-0 names the benchmarks as run-mmtests does" \
	cat "$tmp/mm/5.15.0-vanilla/iter-0/tests-activity" <<'T'
$ cat TMP/mm/5.15.0-vanilla/iter-0/tests-activity
1635724800 run-mmtests: Start
1635724800 run-mmtests: Iteration 1 start
1635724800 run-mmtests: test start :: hackbench-process-pipes 1635724800
1635724800 run-mmtests: test end :: hackbench-process-pipes 1635724800 0
1635724800 run-mmtests: test start :: hackbench-thread-sockets 1635724800
1635724800 run-mmtests: test end :: hackbench-thread-sockets 1635724800 0
1635724800 run-mmtests: test start :: netperf-tcp 1635724800
1635724800 run-mmtests: test end :: netperf-tcp 1635724800 0
1635724800 run-mmtests: test start :: netperf-tcp-rr 1635724800
1635724800 run-mmtests: test end :: netperf-tcp-rr 1635724800 0
1635724800 run-mmtests: test start :: netperf-udp 1635724800
1635724800 run-mmtests: test end :: netperf-udp 1635724800 0
1635724800 run-mmtests: test start :: pft 1635724800
1635724800 run-mmtests: test end :: pft 1635724800 0
1635724800 run-mmtests: test start :: sysbenchcpu 1635724800
1635724800 run-mmtests: test end :: sysbenchcpu 1635724800 0
1635724800 run-mmtests: test start :: tbench 1635724800
1635724800 run-mmtests: test end :: tbench 1635724800 0
1635726700 run-mmtests: Iteration 1 end
1635726700 run-mmtests: End
[exit 0]
T
expect_transcript "... and tests-timestamp their times (none: samples imported from mmtests have none)" \
	cat "$tmp/mm/5.15.0-patched/iter-0/tests-timestamp" <<'T'
$ cat TMP/mm/5.15.0-patched/iter-0/tests-timestamp
start :: 1635811200
test begin :: hackbench-process-pipes 1635811200
test end :: hackbench-process-pipes 1635811200 0
time :: hackbench-process-pipes 0.00 user 0.00 system 0.00 elapsed
finish :: 1635812100
[exit 0]
T
expect_transcript "hackbench as perf bench prints it, every invocation appended" \
	cat "$tmp/mm/5.15.0-vanilla/iter-0/hackbench-process-pipes/logs/hackbench-1" <<'T'
$ cat TMP/mm/5.15.0-vanilla/iter-0/hackbench-process-pipes/logs/hackbench-1
# Running 'sched/messaging' benchmark:
# 1 groups == 40 processes run

     Total time: 0.052 [sec]
# Running 'sched/messaging' benchmark:
# 1 groups == 40 processes run

     Total time: 0.049 [sec]
# Running 'sched/messaging' benchmark:
# 1 groups == 40 processes run

     Total time: 0.05 [sec]
[exit 0]
T
expect_transcript "UDP_STREAM: the send line of six fields, the receive line of four" \
	cat "$tmp/mm/5.15.0-vanilla/iter-0/netperf-udp/logs/UDP_STREAM-64.2" <<'T'
$ cat TMP/mm/5.15.0-vanilla/iter-0/netperf-udp/logs/UDP_STREAM-64.2
MIGRATED UDP STREAM TEST to 127.0.0.1 () port 0 AF_INET
Socket  Message  Elapsed      Messages
Size    Size     Time         Okay Errors   Throughput
bytes   bytes    secs            #      #   10^6bits/sec

0       64       0.00         0      0      640.55
0                0.00         0             602.1
[exit 0]
T
expect_transcript "pft in its columns, one line a sample" \
	cat "$tmp/mm/5.15.0-vanilla/iter-0/pft/logs/pft-1.log" <<'T'
$ cat TMP/mm/5.15.0-vanilla/iter-0/pft/logs/pft-1.log
MappingSize  Threads CacheLine   UserTime  SysTime WallTime flt/cpu/s fault/wsec
  0    1   0 0s 1.2s 1.31s  604892.123 600123.456
  0    1   0 0s 1.18s 1.3s  609550.25 604211.01
[exit 0]
T
expect_transcript "the config says processes" cat "$tmp/mm/5.15.0-vanilla/config" <<'T'
$ cat TMP/mm/5.15.0-vanilla/config
### kbench run UUID of config mmtests, exported
export MMTESTS="hackbench-process-pipes hackbench-thread-sockets netperf-tcp netperf-tcp-rr netperf-udp pft sysbenchcpu tbench"
export PFT_USE_PROCESSES=yes
[exit 0]
T

db2=$tmp/back.db
check "the export imports into another store" \
	"$KBENCH" --db "$db2" import --mmtests "$tmp/mm"
samples "$db" > "$tmp/a"
samples "$db2" > "$tmp/b"
check "... with the same samples" cmp "$tmp/a" "$tmp/b"
check "... all of them" test "$(wc -l < "$tmp/a")" = 38

# A run kbench measured: figures of full precision survive the trip.
printf '[hackbench-process-pipes]\niterations = 3\nloops = 10\ngroups = 1 2\n' > "$tmp/hb.conf"
db3=$tmp/native.db db4=$tmp/native-back.db
check "a native run" "$KBENCH" --db "$db3" --quiet run -c "$tmp/hb.conf" -n 6.1-native --no-report
check "exported" "$KBENCH" --db "$db3" export --mmtests "$tmp/mm2" 6.1-native
check "imported back" "$KBENCH" --db "$db4" import --mmtests "$tmp/mm2"
samples "$db3" > "$tmp/a"
samples "$db4" > "$tmp/b"
check "... with the same samples, to the last bit" cmp "$tmp/a" "$tmp/b"
check "... six of them" test "$(wc -l < "$tmp/a")" = 6

before=$(find "$tmp/mm" | LC_ALL=C sort | cksum)
expect_transcript "a run directory that exists is refused" \
	kb export --mmtests "$tmp/mm" 5.15.0-patched@testhost <<'T'
$ kb export --mmtests TMP/mm 5.15.0-patched@testhost
2> kbench: 'TMP/mm/5.15.0-patched' already exists: export writes new run directories
[exit 1]
T
is "... and nothing is written" "$(find "$tmp/mm" | LC_ALL=C sort | cksum)" "$before"
expect_err "export needs runs" 2 "kbench: export needs the runs to write" \
	kb export --mmtests "$tmp/mm3"
expect_err "-o and --mmtests do not go together" 2 \
	"kbench: export takes -o FILE or --mmtests DIR, not both" \
	kb export --mmtests "$tmp/mm3" -o "$tmp/x.kbb" 5.15.0-patched@testhost
check "... and write nothing" test ! -e "$tmp/mm3" -a ! -e "$tmp/x.kbb"
check "--host selects the runs to write as for a bundle" \
	kb export --mmtests "$tmp/mm4" --host testhost
is "... both runs of the host" "$(ls "$tmp/mm4" | tr '\n' ' ')" "5.15.0-patched 5.15.0-vanilla "
done_testing
