#!/bin/sh
# kill -9 of kbench run in the middle keeps every finished sample, the
# database stays consistent and the run reads as interrupted; SIGINT
# marks it interrupted itself and exits 128+2.
# Covers: runner/runner.c runner/stop.c runner/record.c db/liveness.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-a]\nloops = 200\ngroups = 1\niterations = 1000\n' > "$tmp/long.conf"

wait_samples() {	# wait until at least $1 samples are committed (max ~30 s)
	i=0
	while [ "$i" -lt 300 ]; do
		n=$(sql 'SELECT count(*) FROM samples' 2>/dev/null || echo 0)
		[ "${n:-0}" -ge "$1" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "only ${n:-0} samples after 30 s"
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
is "integrity_check is ok after kill -9" "$(sql 'PRAGMA integrity_check')" ok
expect_transcript -e "$runs_sed" "runs shows the killed run as interrupted, with its samples" kb runs <<T
\$ kb runs
   id name               config      host       started          status      samples kernel
    1 crash              long        HOST YYYY-MM-DD hh:mm interrupted $(printf '%7d' "$n") KERNEL
[exit 0]
T
check "no worker of the killed run is left" no_workers

"$KBENCH" --db "$db" --quiet run -c "$tmp/long.conf" -n sigint >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_samples $((n + 3))
kill -INT "$pid"
wait "$pid"
st=$?
is "SIGINT makes kbench run exit 130" "$st" 130
is "the run is stored as interrupted" \
	"$(sql "SELECT status FROM runs WHERE name = 'sigint'")" interrupted
m=$(sql "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.name = 'sigint'")
check "its samples are kept ($m)" test "$m" -ge 3
is "it says so on stderr, and nothing else" "$(cat "$tmp/err" "$tmp/out")" \
	"kbench: interrupted by signal 2: run @2 kept $m samples and is marked interrupted; 'kbench run --resume @2' runs the rest"
sleep 0.3
check "no worker is left after SIGINT" no_workers
is "integrity_check is still ok" "$(sql 'PRAGMA integrity_check')" ok
done_testing
