#!/bin/sh
# kill -9 of kbench run in the middle keeps every finished sample, the
# database stays consistent and the run reads as interrupted; SIGINT
# marks it interrupted itself and exits 128+2.
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-a]\nloops = 200\ngroups = 1\niterations = 1000\n' > "$tmp/long.conf"

wait_samples() {	# wait until at least $1 samples are committed (max ~30 s)
	i=0
	while [ "$i" -lt 300 ]; do
		n=$(sqlite3 "$db" 'SELECT count(*) FROM samples' 2>/dev/null || echo 0)
		[ "${n:-0}" -ge "$1" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

"$KBENCH" --db "$db" --quiet run -c "$tmp/long.conf" -n crash >/dev/null 2>&1 &
pid=$!
check "samples are committed while the run goes on" wait_samples 3
kill -9 "$pid"
wait "$pid" 2>/dev/null
sleep 0.5
n=$(sql 'SELECT count(*) FROM samples')
check "every committed sample survives kill -9 ($n)" test "$n" -ge 3
check "integrity_check is ok after kill -9" test "$(sql 'PRAGMA integrity_check')" = ok
kb runs >"$tmp/runs" 2>&1
check "runs shows the killed run as interrupted" grep -Eq ' crash .* interrupted ' "$tmp/runs"
check "no worker of the killed run is left" no_workers

"$KBENCH" --db "$db" --quiet run -c "$tmp/long.conf" -n sigint >/dev/null 2>"$tmp/err" &
pid=$!
wait_samples $((n + 3))
kill -INT "$pid"
wait "$pid"
st=$?
check "SIGINT makes kbench run exit 130 ($st)" test "$st" -eq 130
check "the run is stored as interrupted" \
	test "$(sql "SELECT status FROM runs WHERE name = 'sigint'")" = interrupted
check "its samples are kept" \
	test "$(sql "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.name = 'sigint'")" -ge 3
check "it says so on stderr" grep -q 'marked interrupted' "$tmp/err"
sleep 0.3
check "no worker is left after SIGINT" no_workers
check "integrity_check is still ok" test "$(sql 'PRAGMA integrity_check')" = ok
done_testing
