#!/bin/sh
# 'kbench configs' lists the shipped configs; 'run -c NAME' finds one by
# name (with or without .conf) after the current directory.
# Covers: cli/cmd_configs.c cli/setup.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

expect_transcript "configs lists the shipped configs, each with its first sentence" kb configs <<'T'
$ kb configs
ab-pcp-drain         pft threads and processes with the per-cpu page lists
                     quiet, and drained about 100 times a second beside the
                     samples.
ab-pcp-high          the page allocator's per-cpu lists at their default size
                     and cut small, under pft.
ab-slub-cpu-partial  SLUB's per-cpu partial lists on and off, in one sitting.
ab-slub-min-partial  SLUB's per-node partial list floor at its default and
                     raised.
ab-thp               transparent huge pages never and always, under pft.
hackbench            mmtests' config-scheduler-hackbench matrix.
netperf-rr           request/response over loopback as mmtests'
                     config-network-netperf-rr-ipv4-unbound measures it.
netperf-rr-pinned    TCP_RR and UDP_RR as in netperf-rr.conf, with the server
                     and the client pinned.
netperf-stream       mmtests' config-network-netperf-stream-ipv4-unbound.
pft-processes        the page-fault test with forked worker processes, each
                     faulting into its own mm, as mmtests'
                     config-workload-pft-process.
pft-threads          the page-fault test with worker threads sharing one mm, as
                     mmtests' config-workload-pft-threads.
quick                a short hackbench matrix for a first look and for the
                     README's main job; under 2 minutes on 2 CPUs.
sysbench             the threads, mutex, memory and cpu tests of sysbench 1.0,
                     at 1, 2, 4, ... threads up to twice the CPUs (rows
                     threads-N).
tbench               dbench's network half, as mmtests' config-network-tbench
                     runs it and as the SLAB/SLUB thread on linux-mm compared
                     it.
[exit 0]
T
mkdir "$tmp/cwd"
cd "$tmp/cwd" || exit 1
kb run -c quick --dry-run >"$tmp/by-name" 2>&1
ok $? "run -c quick finds the shipped config"
kb run -c "$TOP_SRCDIR/configs/quick.conf" --dry-run >"$tmp/by-path" 2>&1
is "run -c quick plans as the shipped file does" "$(cat "$tmp/by-name")" "$(cat "$tmp/by-path")"
kb run -c quick.conf --dry-run >"$tmp/by-file" 2>&1
is "run -c quick.conf too" "$(cat "$tmp/by-file")" "$(cat "$tmp/by-path")"
printf '[hackbench-local]\nloops = 3\n' > quick
kb run -c quick --dry-run >"$tmp/local" 2>&1
is "a file in the current directory comes first (its section is planned)" \
	"$(awk '/ samples in all / { exit } NR > 1 { print $1 }' "$tmp/local" | grep '^hackbench-')" "hackbench-local"
expect_transcript "an unknown name is still named as given" kb run -c nothing-here --dry-run <<'T'
$ kb run -c nothing-here --dry-run
2> kbench: cannot read config 'nothing-here': No such file or directory
[exit 2]
T

done_testing
