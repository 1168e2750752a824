#!/bin/sh
# t7320: kbench import --mmtests reads an mmtests results directory
# (tests/data/mmtests/log, written by hand from mmtests' documented
# layout): every benchmark kbench has becomes samples of the section and
# rows kbench's own drivers store, with the facts the directory records;
# unknown benchmarks are listed and skipped; importing twice adds nothing;
# the runs compare like native ones.
# Covers: mmtests/mmtests.c mmtests/mmtests_log.c cli/cmd_import.c db/machine.c mmtests/mmtests_benches.c mmtests/mmtests_run.c mmtests/mmtests_files.c mmtests/bench_hackbench.c mmtests/bench_netperf.c mmtests/bench_pft.c mmtests/bench_external.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# A copy, with tbench's second log gzip'ed as mmtests leaves it.
cp -R "$TOP_SRCDIR/tests/data/mmtests/log" "$tmp/log" && chmod -R u+w "$tmp/log" &&
	gzip -n "$tmp/log/5.15.0-vanilla/iter-0/tbench/logs/tbench-2.log"
ok $? "a copy of the fixture"

expect_transcript "--dry-run lists the runs and what is skipped, stores nothing" \
	kb import --dry-run --mmtests "$tmp/log" <<'T'
$ kb import --dry-run --mmtests TMP/log
  skip  5.15.0-vanilla/dbench4: dbench's figures are per-second rates and per-client loadfile times, not one per invocation; kbench has no dbench workload
  skip  5.15.0-vanilla/stream: not a workload kbench has
  add   00b00864  5.15.0-patched           testhost         YYYY-MM-DDThh:mm:ssZ  4 samples
  add   76045a92  5.15.0-vanilla           testhost         YYYY-MM-DDThh:mm:ssZ  34 samples
TMP/log: would import 2 runs (38 samples), 1 new machine; 0 already present
[exit 0]
T
check "... and the store holds no run" test "$(sql 'SELECT count(*) FROM runs')" = 0

expect_transcript "import adds both runs" kb import --mmtests "$tmp/log" <<'T'
$ kb import --mmtests TMP/log
  skip  5.15.0-vanilla/dbench4: dbench's figures are per-second rates and per-client loadfile times, not one per invocation; kbench has no dbench workload
  skip  5.15.0-vanilla/stream: not a workload kbench has
TMP/log: imported 2 runs (38 samples), 1 new machine; 0 already present
[exit 0]
T

expect_transcript "every sample, as mmtests' extraction reads it" \
	sql "SELECT r.name, s.section, s.workload, s.row, s.iteration, s.value, s.unit, s.better
	FROM samples s JOIN runs r ON r.id = s.run_id ORDER BY r.name, s.section, s.row, s.iteration" <<'T'
$ sql 'SELECT r.name, s.section, s.workload, s.row, s.iteration, s.value, s.unit, s.better
	FROM samples s JOIN runs r ON r.id = s.run_id ORDER BY r.name, s.section, s.row, s.iteration'
5.15.0-patched|hackbench-process-pipes|hackbench|1|1|0.047|s|lower
5.15.0-patched|hackbench-process-pipes|hackbench|1|2|0.046|s|lower
5.15.0-patched|hackbench-process-pipes|hackbench|4|1|0.15|s|lower
5.15.0-patched|hackbench-process-pipes|hackbench|4|2|0.149|s|lower
5.15.0-vanilla|hackbench-process-pipes|hackbench|1|1|0.052|s|lower
5.15.0-vanilla|hackbench-process-pipes|hackbench|1|2|0.049|s|lower
5.15.0-vanilla|hackbench-process-pipes|hackbench|1|3|0.05|s|lower
5.15.0-vanilla|hackbench-process-pipes|hackbench|4|1|0.161|s|lower
5.15.0-vanilla|hackbench-process-pipes|hackbench|4|2|0.158|s|lower
5.15.0-vanilla|hackbench-process-pipes|hackbench|4|3|0.163|s|lower
5.15.0-vanilla|hackbench-thread-sockets|hackbench|2|1|0.071|s|lower
5.15.0-vanilla|hackbench-thread-sockets|hackbench|2|2|0.069|s|lower
5.15.0-vanilla|hackbench-thread-sockets|hackbench|2|3|0.074|s|lower
5.15.0-vanilla|netperf-tcp-rr|netperf|1|1|51000.12|trans/s|higher
5.15.0-vanilla|netperf-tcp-rr|netperf|1|2|50321.9|trans/s|higher
5.15.0-vanilla|netperf-tcp-rr|netperf|1|3|50875.33|trans/s|higher
5.15.0-vanilla|netperf-tcp-stream|netperf|64|1|3021.55|Mbit/s|higher
5.15.0-vanilla|netperf-tcp-stream|netperf|64|2|2987.1|Mbit/s|higher
5.15.0-vanilla|netperf-udp-stream|netperf|recv-64|1|631.9|Mbit/s|higher
5.15.0-vanilla|netperf-udp-stream|netperf|recv-64|2|602.1|Mbit/s|higher
5.15.0-vanilla|netperf-udp-stream|netperf|send-64|1|632.1|Mbit/s|higher
5.15.0-vanilla|netperf-udp-stream|netperf|send-64|2|640.55|Mbit/s|higher
5.15.0-vanilla|pft-processes|pft|elapsed-1|1|1.31|s|lower
5.15.0-vanilla|pft-processes|pft|elapsed-1|2|1.3|s|lower
5.15.0-vanilla|pft-processes|pft|elapsed-2|1|0.79|s|lower
5.15.0-vanilla|pft-processes|pft|faults/cpu-1|1|604892.123|faults/cpu-s|higher
5.15.0-vanilla|pft-processes|pft|faults/cpu-1|2|609550.25|faults/cpu-s|higher
5.15.0-vanilla|pft-processes|pft|faults/cpu-2|1|517102.6|faults/cpu-s|higher
5.15.0-vanilla|pft-processes|pft|faults/sec-1|1|600123.456|faults/s|higher
5.15.0-vanilla|pft-processes|pft|faults/sec-1|2|604211.01|faults/s|higher
5.15.0-vanilla|pft-processes|pft|faults/sec-2|1|995310.125|faults/s|higher
5.15.0-vanilla|pft-processes|pft|system-1|1|1.2|s|lower
5.15.0-vanilla|pft-processes|pft|system-1|2|1.18|s|lower
5.15.0-vanilla|pft-processes|pft|system-2|1|1.4|s|lower
5.15.0-vanilla|sysbench-cpu|external|threads-1|1|1234.56|events/s|higher
5.15.0-vanilla|sysbench-cpu|external|threads-1|2|1240.02|events/s|higher
5.15.0-vanilla|tbench|external|clients-1|1|241.456|MB/sec|higher
5.15.0-vanilla|tbench|external|clients-2|1|242.456|MB/sec|higher
[exit 0]
T

expect_transcript "the facts the directory records" \
	sql "SELECT r.name, r.kernel_release, r.kernel_version, r.config_name, r.started_at,
	r.finished_at, r.status, r.kbench_version IS NOT NULL, m.hostname, m.cpu_model, m.cpus,
	m.cores, m.packages, m.numa_nodes, m.mem_bytes FROM runs r JOIN machines m
	ON m.id = r.machine_id ORDER BY r.name;
	SELECT r.name, x.section, x.key, x.value FROM run_meta x JOIN runs r ON r.id = x.run_id
	ORDER BY r.name, x.rowid" <<'T'
$ sql 'SELECT r.name, r.kernel_release, r.kernel_version, r.config_name, r.started_at,
	r.finished_at, r.status, r.kbench_version IS NOT NULL, m.hostname, m.cpu_model, m.cpus,
	m.cores, m.packages, m.numa_nodes, m.mem_bytes FROM runs r JOIN machines m
	ON m.id = r.machine_id ORDER BY r.name;
	SELECT r.name, x.section, x.key, x.value FROM run_meta x JOIN runs r ON r.id = x.run_id
	ORDER BY r.name, x.rowid'
5.15.0-patched|5.15.0-patched|#2 SMP Tue Nov 2 00:00:00 UTC 2021|mmtests|YYYY-MM-DDThh:mm:ssZ|YYYY-MM-DDThh:mm:ssZ|complete|1|testhost|Intel(R) Xeon(R) CPU E3-1240 v5 @ 3.50GHz|8|4|1|1|16710053888
5.15.0-vanilla|5.15.0-vanilla|#1 SMP Mon Nov 1 00:00:00 UTC 2021|mmtests|YYYY-MM-DDThh:mm:ssZ|YYYY-MM-DDThh:mm:ssZ|complete|1|testhost|Intel(R) Xeon(R) CPU E3-1240 v5 @ 3.50GHz|8|4|1|1|16710053888
5.15.0-patched||imported|mmtests
5.15.0-patched||mmtests-run|5.15.0-patched
5.15.0-patched||mmtests-version|v0.25-12-g1a2b3c4
5.15.0-patched|hackbench-process-pipes|mmtests-benchmark|hackbench-process-pipes
5.15.0-vanilla||imported|mmtests
5.15.0-vanilla||mmtests-run|5.15.0-vanilla
5.15.0-vanilla||mmtests-version|v0.25-12-g1a2b3c4
5.15.0-vanilla|hackbench-process-pipes|mmtests-benchmark|hackbench-process-pipes
5.15.0-vanilla|hackbench-thread-sockets|mmtests-benchmark|hackbench-thread-sockets
5.15.0-vanilla|netperf-tcp-stream|mmtests-benchmark|netperf-tcp
5.15.0-vanilla|netperf-tcp-rr|mmtests-benchmark|netperf-tcp-rr
5.15.0-vanilla|netperf-udp-stream|mmtests-benchmark|netperf-udp
5.15.0-vanilla|pft-processes|mmtests-benchmark|pft
5.15.0-vanilla|sysbench-cpu|mmtests-benchmark|sysbenchcpu
5.15.0-vanilla|tbench|mmtests-benchmark|tbench
[exit 0]
T
is "the start (of iter-0) and the end (of iter-1), in UTC" \
	"$(sql "SELECT started_at || ' ' || finished_at FROM runs WHERE name = '5.15.0-vanilla'")" \
	"2021-11-01T00:00:00Z 2021-11-01T00:31:40Z"
check "the config text is mmtests' config file" \
	test "$(sql "SELECT config_text FROM runs WHERE name = '5.15.0-vanilla'")" = \
	"$(cat "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-vanilla/config")"

before=$(store_digest "$db")
expect_transcript "importing again adds nothing" kb import --mmtests "$tmp/log" <<'T'
$ kb import --mmtests TMP/log
  skip  5.15.0-vanilla/dbench4: dbench's figures are per-second rates and per-client loadfile times, not one per invocation; kbench has no dbench workload
  skip  5.15.0-vanilla/stream: not a workload kbench has
TMP/log: imported 0 runs (0 samples), 0 new machines; 2 already present
[exit 0]
T
is "... and changes nothing" "$(store_digest "$db")" "$before"

check "one run's directory imports by itself (present already)" \
	kb import --mmtests "$tmp/log/5.15.0-patched/"
is "... found as present" "$(tail -1 "$tmp/check.out")" \
	"$tmp/log/5.15.0-patched/: imported 0 runs (0 samples), 0 new machines; 1 already present"

expect_transcript "the imported runs compare as native ones" \
	kb compare --only hackbench-process-pipes 5.15.0-vanilla@testhost 5.15.0-patched@testhost <<'T'
$ kb compare --only hackbench-process-pipes 5.15.0-vanilla@testhost 5.15.0-patched@testhost
Kernel:   5.15.0-vanilla  5.15.0-vanilla
          5.15.0-patched  5.15.0-patched
Host:     testhost
CPU:      Intel(R) Xeon(R) CPU E3-1240 v5 @ 3.50GHz
Machine:  8 CPUs, 4 cores, 1 node, 15.6 GiB
Config:   5.15.0-vanilla  mmtests, cksum 3588642053
          5.15.0-patched  mmtests, cksum 4294967295
            -export MMTESTS="hackbench-process-pipes hackbench-thread-sockets
              netperf-tcp-rr netperf-udp netperf-tcp pft tbench sysbenchcpu
              dbench4 stream"
            -export HACKBENCH_ITERATIONS=2
            -export NETPERF_BUFFER_SIZES=1
            -export PFT_USE_PROCESSES=yes
Samples:  5.15.0-vanilla 3, 5.15.0-patched 2

hackbench-process-pipes
                            5.15.0                 5.15.0
                           vanilla                patched
Min       1      0.0490 (   0.00%)      0.0460 (   6.12%)
Min       4      0.1580 (   0.00%)      0.1490 (   5.70%)
Amean     1      0.0503 (   0.00%)     ~0.0465 (   7.62%)
Amean     4      0.1607 (   0.00%)     ~0.1495 (   6.95%)
Stddev    1      0.0015 (   0.00%)      0.0007 (  53.71%)
Stddev    4      0.0025 (   0.00%)      0.0007 (  71.90%)
CoeffVar  1      3.0348 (   0.00%)      1.5207 (  49.89%)
CoeffVar  4      1.5664 (   0.00%)      0.4730 (  69.80%)
Max       1      0.0520 (   0.00%)      0.0470 (   9.62%)
Max       4      0.1630 (   0.00%)      0.1500 (   7.98%)
BAmean-95 1      0.0495 (   0.00%)      0.0460 (   7.07%)
BAmean-95 4      0.1595 (   0.00%)      0.1490 (   6.58%)

Significance: Welch's t-test on the mean row only, alpha 0.05; a significant
  change prints *  x.xx%* instead of (  x.xx%).
Positive % = better: the sign follows each metric's direction.
No star, fewer than 3 samples on a side: hackbench-process-pipes 1,
  hackbench-process-pipes 4.
~ before a mean: its CoeffVar is above 5% or it has fewer than 3 samples.
[exit 0]
T

# netperf -f k (mmtests since 2024): kbit/s back to transactions per
# second, 16 bits a transaction of 1-byte request and response. netperf's
# header says so too, as it does with -f k.
cp -R "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-patched" "$tmp/kbit" && chmod -R u+w "$tmp/kbit" &&
	cp -R "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-vanilla/iter-0/netperf-tcp-rr" \
		"$tmp/kbit/iter-0/" && echo k > "$tmp/kbit/iter-0/netperf-tcp-rr/logs/units-TCP_RR" &&
	sed -i -e 's|Trans/s over|10^3bits/s over|' -e 's|Elapsed  Trans\.$|Elapsed  |' \
		-e 's|Time     Rate *$|Time     Throughput |' -e 's|secs\.    per sec *$|secs.    10^3bits/sec   |' \
		"$tmp/kbit/iter-0/netperf-tcp-rr/logs/TCP_RR-1."*
check "a run whose netperf printed kbit/s" "$KBENCH" --db "$tmp/kbit.db" import --mmtests "$tmp/kbit"
is "... is stored in transactions per second" \
	"$("$KB_SQL" "$tmp/kbit.db" "SELECT group_concat(value || ' ' || unit, ', ') FROM samples
		WHERE section = 'netperf-tcp-rr'")" \
	"3187507.5 trans/s, 3145118.75 trans/s, 3179708.125 trans/s"

expect_transcript "a directory that is not there" kb import --mmtests "$tmp/nosuch" <<'T'
$ kb import --mmtests TMP/nosuch
2> kbench: 'TMP/nosuch' is not a directory: --mmtests reads a results directory (work/log)
[exit 1]
T
mkdir "$tmp/empty"
expect_transcript "a directory without runs" kb import --mmtests "$tmp/empty" <<'T'
$ kb import --mmtests TMP/empty
2> kbench: TMP/empty: no mmtests runs (RUN/iter-N directories) there
[exit 1]
T
expect_transcript "--mmtests takes no bundle files" kb import --mmtests "$tmp/log" x.kbb <<'T'
$ kb import --mmtests TMP/log x.kbb
2> kbench: import --mmtests takes one directory, not bundle files
2> usage: kbench import [--dry-run] FILE...
2>    or: kbench import [--dry-run] [--unfinished] --mmtests DIR
2>
2> Add the runs of bundles written by 'kbench export' that the store lacks
2> (runs are known by uuid: importing twice adds nothing), with machines
2> merged by fingerprint. Each file is read from a private copy and checked
2> first (schema, types, sizes, references); a file that fails is refused
2> and nothing is imported. A bundle of an older schema is migrated in the
2> copy; a newer one is refused. Each file is added in one transaction.
2>
2> With --mmtests, DIR is an mmtests results directory (work/log: a
2> directory per run, iter-N inside; or one run's directory): the samples
2> of hackbench, netperf, pft, tbench and sysbenchcpu become runs marked
2> imported, with the kernel, date, machine, config and mmtests version the
2> directory records; other benchmarks are listed and skipped. A malformed
2> log refuses the directory, naming the file and line; nothing is stored.
2> Only regular files of up to 64 MiB (also once decompressed) are read. A
2> run mmtests has not finished is listed and skipped: import it once it
2> has, or with --unfinished, as an interrupted run.
2>
2>   --dry-run           list what would be added, change nothing
2>   --mmtests DIR       import mmtests' results directory DIR (docs/mmtests.md)
2>   --unfinished        with --mmtests: import runs mmtests has not finished
2>                       too, as interrupted runs
2>   -h, --help          this text
[exit 2]
T
done_testing
