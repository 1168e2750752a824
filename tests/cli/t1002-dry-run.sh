#!/bin/sh
# t1002-dry-run: kbench run --dry-run prints the plan of the shipped
# configs (sections, workloads, iterations, warm-up, rows, the number of
# samples), each section's effective keys and the estimated duration (here
# from the plan only: the store is empty; every round counted), and runs
# and stores nothing.
# Covers: runner/dryrun.c runner/effective.c runner/plan.c cli/cmd_run.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

c=$TOP_SRCDIR/configs
expect_transcript "quick.conf" kb run -c "$c/quick.conf" --dry-run <<'T'
$ kb run -c SRCDIR/configs/quick.conf --dry-run
section                      workload   iters warmup  rows
hackbench-process-sockets    hackbench      8      1  groups 1 2 4
hackbench-process-pipes      hackbench      8      1  groups 1 2 4
hackbench-thread-sockets     hackbench      8      1  groups 1 2 4
hackbench-thread-pipes       hackbench      8      1  groups 1 2 4
108 samples in all (warm-up included)

Effective options:
  [hackbench-process-sockets] pin=unbound iterations=8 warmup=1 timeout=60
    loops=100 groups=1 2 4 mode=process transport=sockets
  [hackbench-process-pipes] pin=unbound iterations=8 warmup=1 timeout=60
    loops=100 groups=1 2 4 mode=process transport=pipes
  [hackbench-thread-sockets] pin=unbound iterations=8 warmup=1 timeout=60
    loops=100 groups=1 2 4 mode=thread transport=sockets
  [hackbench-thread-pipes] pin=unbound iterations=8 warmup=1 timeout=60
    loops=100 groups=1 2 4 mode=thread transport=pipes

estimate                     plan       last run of the same options here
hackbench-process-sockets    unknown    none
hackbench-process-pipes      unknown    none
hackbench-thread-sockets     unknown    none
hackbench-thread-pipes       unknown    none
estimated duration: unknown (no a-priori figure, no earlier run here)
[exit 0]
T
expect_transcript "netperf-rr.conf" kb run -c "$c/netperf-rr.conf" --dry-run <<'T'
$ kb run -c SRCDIR/configs/netperf-rr.conf --dry-run
section                      workload   iters warmup  rows
netperf-udp-rr               netperf       10      0  sizes 1
netperf-tcp-rr               netperf       10      0  sizes 1
20 samples in all (warm-up included)

Effective options:
  [netperf-udp-rr] pin=unbound duration=10 iterations=10 warmup=0 timeout=60
    size=1 family=inet test=UDP_RR
  [netperf-tcp-rr] pin=unbound duration=10 iterations=10 warmup=0 timeout=60
    size=1 family=inet test=TCP_RR

estimate                     plan       last run of the same options here
netperf-udp-rr               1:40       none
netperf-tcp-rr               1:40       none
estimated duration: 3:20
[exit 0]
T
kb run -c "$c/netperf-rr.conf" -o rounds=3 --dry-run > "$tmp/rounds" 2>&1
is "rounds = 3 runs every sample, and the estimate, three times" \
	"$(grep -E '^(netperf-udp-rr +[0-9]|[0-9]+ samples|estimated)' "$tmp/rounds")" \
	"60 samples in all (warm-up included)
netperf-udp-rr               5:00       none
estimated duration: 10:00"
expect_transcript "netperf-stream.conf: netperf's nine sizes" kb run -c "$c/netperf-stream.conf" --dry-run <<'T'
$ kb run -c SRCDIR/configs/netperf-stream.conf --dry-run
section                      workload   iters warmup  rows
netperf-udp-stream           netperf        5      0  sizes 64 128 256 1024 2048 3312 4096 8192 16384
netperf-tcp-stream           netperf        5      0  sizes 64 128 256 1024 2048 3312 4096 8192 16384
90 samples in all (warm-up included)

Effective options:
  [netperf-udp-stream] pin=unbound duration=10 iterations=5 warmup=0 timeout=60
    sizes=64 128 256 1024 2048 3312 4096 8192 16384 family=inet test=UDP_STREAM
  [netperf-tcp-stream] pin=unbound duration=10 iterations=5 warmup=0 timeout=60
    sizes=64 128 256 1024 2048 3312 4096 8192 16384 family=inet test=TCP_STREAM

estimate                     plan       last run of the same options here
netperf-udp-stream           7:30       none
netperf-tcp-stream           7:30       none
estimated duration: 15:00
[exit 0]
T
# Several configs are merged, their [global] sections too: the last one
# given wins (netperf-rr's iterations, quick's warm-up).
expect_transcript "several configs make one plan, --only picks from it" \
	kb run -c "$c/quick.conf" -c "$c/netperf-rr.conf" --only 'pipes|udp' --dry-run <<'T'
$ kb run -c SRCDIR/configs/quick.conf -c SRCDIR/configs/netperf-rr.conf --only 'pipes|udp' --dry-run
section                      workload   iters warmup  rows
hackbench-process-pipes      hackbench     10      1  groups 1 2 4
hackbench-thread-pipes       hackbench     10      1  groups 1 2 4
netperf-udp-rr               netperf       10      1  sizes 1
77 samples in all (warm-up included)

Effective options:
  [hackbench-process-pipes] pin=unbound iterations=10 warmup=1 timeout=60
    loops=100 groups=1 2 4 mode=process transport=pipes
  [hackbench-thread-pipes] pin=unbound iterations=10 warmup=1 timeout=60
    loops=100 groups=1 2 4 mode=thread transport=pipes
  [netperf-udp-rr] pin=unbound duration=10 iterations=10 warmup=1 timeout=60
    size=1 family=inet test=UDP_RR

estimate                     plan       last run of the same options here
hackbench-process-pipes      unknown    none
hackbench-thread-pipes       unknown    none
netperf-udp-rr               1:50       none
estimated duration: at least 1:50 (2 of 3 sections unknown)
[exit 0]
T

# The row lists of these follow this machine's CPUs: the plan's shape is
# compared, then the rows (1 first, rising) and the sample count
# (sections x rows x (iterations + warm-up)) are checked.
rows_sed='s/  (groups|workers)( [0-9]+)+$/  \1 N.../
s/^[0-9]+ samples in all/N samples in all/'
# plan_ok: the last transcript's rows rise from 1 and its total adds up.
plan_ok() {
	awk 'NR == 1 { next }
	     / samples in all / { total = $1; exit }
	     { n = 0; prev = 0
	       for (i = 6; i <= NF; i++) { if ($i <= prev) exit 1; prev = $i; n++ }
	       if ($6 != 1) exit 1
	       sum += n * ($3 + $4) }
	     END { exit !(sum > 0 && sum == total) }' "$tmp/tr.out" ||
		{ cat "$tmp/tr.out"; return 1; }
}
expect_transcript -e "$rows_sed" "hackbench.conf: mmtests' hackbench matrix" \
	kb run -c "$c/hackbench.conf" --dry-run <<'T'
$ kb run -c SRCDIR/configs/hackbench.conf --dry-run
section                      workload   iters warmup  rows
hackbench-process-pipes      hackbench     30      1  groups N...
hackbench-process-sockets    hackbench     30      1  groups N...
hackbench-thread-pipes       hackbench     30      1  groups N...
hackbench-thread-sockets     hackbench     30      1  groups N...
N samples in all (warm-up included)

Effective options:
  [hackbench-process-pipes] pin=unbound iterations=30 warmup=1 timeout=900
    loops=100 groups=stride:1..4*cpus,max=296 mode=process transport=pipes
  [hackbench-process-sockets] pin=unbound iterations=30 warmup=1 timeout=900
    loops=100 groups=stride:1..4*cpus,max=296 mode=process transport=sockets
  [hackbench-thread-pipes] pin=unbound iterations=30 warmup=1 timeout=900
    loops=100 groups=stride:1..4*cpus,max=296 mode=thread transport=pipes
  [hackbench-thread-sockets] pin=unbound iterations=30 warmup=1 timeout=900
    loops=100 groups=stride:1..4*cpus,max=296 mode=thread transport=sockets

estimate                     plan       last run of the same options here
hackbench-process-pipes      unknown    none
hackbench-process-sockets    unknown    none
hackbench-thread-pipes       unknown    none
hackbench-thread-sockets     unknown    none
estimated duration: unknown (no a-priori figure, no earlier run here)
[exit 0]
T
check "... its groups rise from 1 and its samples add up: $(sed -n '2s/.*groups //p' "$tmp/tr.out")" plan_ok
for m in threads processes; do
	# The keys wrap at 80 columns, where model=processes does not fit.
	case $m in
	threads) eff="  [pft-threads] pin=unbound iterations=30 warmup=1 timeout=600 model=threads
    workers=stride:1..cpus mapping_size=20% thp=off" ;;
	*) eff="  [pft-processes] pin=unbound iterations=30 warmup=1 timeout=600
    model=processes workers=stride:1..cpus mapping_size=20% thp=off" ;;
	esac
	expect_transcript -e "$rows_sed" "pft-$m.conf: one row per worker count" \
		kb run -c "$c/pft-$m.conf" --dry-run <<T
\$ kb run -c SRCDIR/configs/pft-$m.conf --dry-run
section                      workload   iters warmup  rows
pft-$m $(printf '%*s' $((24 - ${#m})) '')pft           30      1  workers N...
N samples in all (warm-up included)

Effective options:
$eff

estimate                     plan       last run of the same options here
pft-$m $(printf '%*s' $((24 - ${#m})) '')unknown    none
estimated duration: unknown (no a-priori figure, no earlier run here)
[exit 0]
T
	check "... its worker counts rise from 1 and its samples add up: $(sed -n '2s/.*workers //p' "$tmp/tr.out")" plan_ok
done
check "--dry-run creates no database" test ! -e "$db"

done_testing
