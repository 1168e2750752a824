#!/bin/sh
# A hackbench worker that dies fails its sample at once, named with its
# pid and signal, instead of leaving its peers blocked until the timeout:
# before the barrier, after the wake-up, receiver or sender, direct mode
# or a run. Every command is bounded by `timeout 20` against a sample
# timeout of 30 s, so a hang shows as exit 124, not as a slow pass.
# Covers: workloads/hackbench.c lib/worker.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# 2 groups of 20 receivers (workers 0-19, 40-59) and 20 senders (20-39,
# 60-79); loops enough that no sample ends on its own before the kill.
hb() { timeout 20 "$KBENCH" hackbench -g 2 -l 20000 --timeout 30 "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }

for case in "3 start receiver" "25 start sender" "3 ready receiver" "70 ready sender"; do
	set -- $case
	hb -o kill_worker=$1 -o kill_point=$2
	want="worker $1 \\(pid [0-9]+\\) was killed by signal 9 \(Killed\)"
	[ "$2" = ready ] && want="$want before it was ready"
	if [ "$rc" -eq 1 ] && grep -Eq "^kbench: hackbench: $want\$" "$tmp/err"; then
		ok 0 "a $3 killed at $2 fails the sample at once, named"
	else
		ok 1 "a $3 killed at $2 fails the sample at once, named"
		diag "exit $rc (want 1; 124 is the test's own timeout); stderr:"
		sed 's/^/#   /' "$tmp/err"
	fi
done

hb -T -o kill_worker=3
if [ "$rc" -eq 1 ] && grep -q "the sample's process was killed by signal 9 (Killed)" "$tmp/err"; then
	ok 0 "a killed worker thread takes the sample's process, reported at once"
else
	ok 1 "a killed worker thread takes the sample's process, reported at once"
	diag "exit $rc; stderr:"; sed 's/^/#   /' "$tmp/err"
fi

# In a run: each sample is a failure naming the worker, and the run ends.
cat > "$tmp/die.conf" <<'CONF'
[hackbench-die]
groups = 2
loops = 20000
iterations = 2
timeout = 30
kill_worker = 45
CONF
timeout 20 "$KBENCH" --db "$db" run -c "$tmp/die.conf" -n die >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $(( rc == 1 ? 0 : 1 )) "a run whose samples lose a worker ends, every sample failed (exit $rc)"
n=$(sql "SELECT count(*) FROM failures WHERE reason GLOB 'worker 45 (pid [0-9]*) was killed by signal 9 (Killed)'")
check "each failure names the worker and the signal ($n of 2)" test "$n" = 2
check "no worker of the failed samples is left" no_workers

# Unharmed, the same sample completes.
timeout 20 "$KBENCH" hackbench -g 2 -l 100 --timeout 30 >"$tmp/out" 2>"$tmp/err"
ok $? "without kill_worker the sample completes"
check "and prints its time" grep -q '^Time: ' "$tmp/out"
done_testing
