#!/bin/sh
# A sample that outlives its timeout is killed with its whole process
# group and recorded as a failure; the run goes on.
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
kb --quiet run -c "$tmp/t.conf" -n to >/dev/null 2>"$tmp/err"
ok $? "the run completes although one section times out"
check "each timed-out sample is a failure row" \
	test "$(sql "SELECT count(*) FROM failures WHERE section = 'hackbench-slow' AND reason LIKE 'timed out after 0.4 s%'")" = 2
check "the other section's samples are stored" \
	test "$(sql "SELECT count(*) FROM samples WHERE section = 'hackbench-fast'")" = 2
check "the failures are reported on stderr" grep -q 'timed out after 0.4 s' "$tmp/err"
check "no worker of the killed samples is left" no_workers
kb show to >"$tmp/show"
check "show lists the failures" grep -q 'hackbench-slow.*timed out' "$tmp/show"

printf '[hackbench-slow]\nloops = 100000000\ngroups = 1\niterations = 1\ntimeout = 0.3\n' > "$tmp/f.conf"
kb --quiet run -c "$tmp/f.conf" -n allfail >/dev/null 2>"$tmp/err"
ok $(( $? == 1 ? 0 : 1 )) "a run whose samples all fail exits 1"
check "and is stored as failed" test "$(sql "SELECT status FROM runs WHERE name = 'allfail'")" = failed
done_testing
