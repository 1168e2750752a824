#!/bin/sh
# t8003-external-wait: how the external workload's sample process waits
# for its command: asleep on the output pipe and the command's exit, so
# that it does not wake inside the command's measured time, and done when
# the command exits even if something it started still holds the pipe.
# Covers: workloads/external.c runner/sample_run.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# The command's parent is the sample's process: its voluntary context
# switches over a 2 s command, read by the command itself at the end.
# Polling every 100 ms would make about 20 of them; the pipe, the
# command's start and its exit make a few.
n=$(kb external --shell -c 'sleep 2; grep voluntary_ctxt_switches /proc/$PPID/status' \
	-o 'metric.v=^voluntary_ctxt_switches:\s+(?<value>\d+)' -o better.v=lower \
	--format simple 2>&1)
check "the sample's process sleeps while the command runs (it woke $n times)" \
	test "$n" -le 6

# A background sleep keeps the output pipe open for 40 s after the
# command exits; the sample ends with the command, not with the pipe, and
# the sleep dies with the sample's process group.
expect_transcript "a process left holding the output does not hold up the sample" \
	kb external --shell --timeout 20 -c 'sleep 40.75 & echo v=1' \
	-o 'metric.v=v=(?<value>\d+)' -o better.v=higher <<'EOF2'
$ kb external --shell --timeout 20 -c 'sleep 40.75 & echo v=1' -o 'metric.v=v=(?<value>\d+)' -o better.v=higher
v: 1
[exit 0]
EOF2
check "what the command left behind is killed with the sample" no_process 'sleep 40[.]75'

# The command ends while more output than one read takes is still in
# the pipe (perl widens it to 1 MiB and fills 200 kB), and something it
# left holds the pipe: the sample's process is stopped meanwhile, so it
# first looks once the command has ended and been reaped, and must go on
# reading to the end of what is there, not wait for the holder.
expect_transcript "output still in the pipe after the command was reaped is read, then the sample ends" \
	kb external --shell --timeout 20 -c 'kill -STOP $PPID; perl -e "fcntl(STDOUT, 1031, 1 << 20); print q(x) x 200000, chr(10), q(v=2), chr(10)"; (sleep 0.3; kill -CONT $PPID) & sleep 41.75 &' \
	-o 'metric.v=v=(?<value>\d+)' -o better.v=higher <<'EOF2'
$ kb external --shell --timeout 20 -c 'kill -STOP $PPID; perl -e "fcntl(STDOUT, 1031, 1 << 20); print q(x) x 200000, chr(10), q(v=2), chr(10)"; (sleep 0.3; kill -CONT $PPID) & sleep 41.75 &' -o 'metric.v=v=(?<value>\d+)' -o better.v=higher
v: 2
[exit 0]
EOF2
check "... and what the command left behind is killed with it" no_process 'sleep 41[.]75'
done_testing
