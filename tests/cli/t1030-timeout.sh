#!/bin/sh
# A sample that outlives its timeout is killed with its whole process
# group and recorded as a failure; the run goes on.
# Covers: runner/sample_run.c lib/child.c runner/runner.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

cat > "$tmp/t.conf" <<'CONF'
[hackbench-slow]
loops = 100000000
groups = 1
iterations = 2
timeout = 0.4

[hackbench-fast]
loops = 10
groups = 1
iterations = 2
CONF
expect_transcript -m -e "$header_sed" "the run completes although one section times out, and says so" \
	kb --quiet run -c "$tmp/t.conf" -n to <<'T'
$ kb --quiet run -c TMP/t.conf -n to
run @1 'to': 2 samples (2 failed) in TMP/k.db

Kernel:   KERNEL
Host:     HOST
CPU:      CPU
Machine:  MACHINE
Config:   t, cksum 4084022956
Samples:  2

hackbench-fast
                     to
Min       1      9.9999
Amean     1      9.9999
Stddev    1      9.9999
CoeffVar  1      9.9999
Max       1      9.9999
BAmean-95 1      9.9999

                          to
Duration User           9.99
Duration System         9.99
Duration Elapsed        9.99

Ops (mean per sample)             to
Ops Minor Faults                9.99
Ops Major Faults                9.99
Ops Voluntary Switches          9.99
Ops Involuntary Switches        9.99
Ops Task Clock (s)              9.99
Ops Page Faults                 9.99
Ops Context Switches            9.99
Ops CPU Migrations              9.99
Ops vmstat pgfault              9.99
Ops vmstat pgmajfault           9.99

Nothing to compare with yet: this is the first complete run of config 't' here.
Run it again (on the kernel to compare with, say) and the report ends with the
comparison of the two; 'kbench compare BASE NEW' compares any two runs.
2> kbench: warning: [hackbench-slow] groups 1 sample 1: timed out after 0.4 s (timeout = 0.4); its process group was killed
2> kbench: warning: [hackbench-slow] groups 1 sample 2: timed out after 0.4 s (timeout = 0.4); its process group was killed
2> kbench: warning: 2 samples failed; they are recorded (see 'kbench show @1')
[exit 0]
T
is "each timed-out sample is a failure row" \
	"$(sql "SELECT section, row, iteration, reason FROM failures ORDER BY iteration")" \
	"hackbench-slow|1|1|timed out after 0.4 s (timeout = 0.4); its process group was killed
hackbench-slow|1|2|timed out after 0.4 s (timeout = 0.4); its process group was killed"
is "only the other section's samples are stored" \
	"$(sql "SELECT section, row, iteration FROM samples ORDER BY iteration")" \
	"hackbench-fast|1|1
hackbench-fast|1|2"
check "no worker of the killed samples is left" no_workers
kb show to >"$tmp/show"
is "show lists the failures after the section counts" \
	"$(sed -n '/^section /,/^Options in effect:/p' "$tmp/show")" \
	"section                           samples  flagged
hackbench-fast                          2        0

Failures:
  [hackbench-slow] row 1 sample 1: timed out after 0.4 s (timeout = 0.4); its process group was killed
  [hackbench-slow] row 1 sample 2: timed out after 0.4 s (timeout = 0.4); its process group was killed

Options in effect:"

printf '[hackbench-slow]\nloops = 100000000\ngroups = 1\niterations = 1\ntimeout = 0.3\n' > "$tmp/f.conf"
expect_transcript "a run whose samples all fail exits 1" kb --quiet run -c "$tmp/f.conf" -n allfail <<'T'
$ kb --quiet run -c TMP/f.conf -n allfail
2> kbench: warning: [hackbench-slow] groups 1 sample 1: timed out after 0.3 s (timeout = 0.3); its process group was killed
2> kbench: run @2 failed: every sample failed (see 'kbench show @2')
[exit 1]
T
is "and is stored as failed" "$(sql "SELECT status FROM runs WHERE name = 'allfail'")" failed
done_testing
