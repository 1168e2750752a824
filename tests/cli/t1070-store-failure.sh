#!/bin/sh
# When the store fails mid-run (another process holds its write lock
# longer than the busy timeout), the run stops, keeps every sample it
# stored, says so, and writes the sample in hand to a recovery file whose
# path it prints; `kbench recover` brings it back (once), and --resume
# runs the rest. A store failing right after the run row is written
# leaves the run marked failed, not running. A store truncated or made
# immutable under a run is noticed at the next commit: the run says so,
# naming the file, exits 1, and the samples it measured are in a
# recovery file (it keeps a copy of them) that `kbench recover` loads
# into a new store.
# Covers: db/recover.c cli/cmd_recover.c runner/record.c db/store.c db/store_watch.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# One value of a query on the store, through kb-sql.
val() { "$KB_SQL" "$db" "$1"; }

printf '[hackbench-a]\ngroups = 1\nloops = 100\niterations = 12\n' > "$tmp/r.conf"

# The lock is taken once 3 samples are stored and held until kbench has
# ended; kbench waits 300 ms for it, then its store has failed.
: > "$db"; kb runs >/dev/null 2>&1	# an empty file becomes the store for the lock holder
"$KB_SQL" --lock "$db" 120 3 >"$tmp/lock.out" 2>&1 </dev/null &
lock=$!
KBENCH_BUSY_TIMEOUT_MS=300 timeout 120 "$KBENCH" --db "$db" run -c "$tmp/r.conf" -n lk \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
kill "$lock" 2>/dev/null
wait "$lock"
ok $(( rc == 1 ? 0 : 1 )) "a run whose store fails stops and exits 1 (exit $rc)"
if grep -qx locked "$tmp/lock.out"; then ok 0 "the lock was held by another process"
else ok 1 "the lock was held by another process"; sed 's/^/#   /' "$tmp/lock.out"; fi
kept=$(sed -n 's/.*stopped because its store failed; the \([0-9]*\) samples stored before are kept$/\1/p' "$tmp/err")
n=$(val "SELECT count(*) FROM samples")
if [ -n "$kept" ] && [ "$kept" = "$n" ] && [ "$n" -ge 3 ]; then
	ok 0 "it says how many samples it kept, and the store holds them ($n)"
else
	ok 1 "it says how many samples it kept ($kept), and the store holds them ($n)"
	sed 's/^/#   /' "$tmp/err"
fi
file=$(sed -n "s/.*what it could not store is saved in \(.*\): load it with 'kbench recover .*'$/\1/p" "$tmp/err")
check "the recovery file is named and lies beside the store ($file)" \
	test -f "$file" -a "$(dirname "$file")" = "$tmp"
# Marking it failed needs the lock too: it reads as interrupted unless
# the lock went first.
st=$(run_status lk)
check "the run is not left running ($st)" test "$st" = interrupted -o "$st" = failed
check "the recovery file holds the sample in hand" \
	test "$("$KB_SQL" "$file" "SELECT count(*) FROM samples WHERE iteration = $((n + 1))")" = 1
check "and is a store of its own, marked failed" \
	test "$("$KB_SQL" "$file" "SELECT status FROM runs")" = failed
check "the store is intact" "$KB_SQL" --integrity "$db"

# A dry run says what the load would add and leaves the store as it was.
before=$(val "SELECT count(*) || ' ' || (SELECT status FROM runs) FROM samples")
sum=$(cksum <"$db")
kb recover --dry-run "$file" >"$tmp/out" 2>"$tmp/err"
ok $? "kbench recover --dry-run reads the file"
check "it says what the load would add" \
	grep -q ": run @1 (.*): 1 sample values, .* monitor values, 0 failures would be added$" "$tmp/out"
check "and adds nothing ($before)" \
	test "$(val "SELECT count(*) || ' ' || (SELECT status FROM runs) FROM samples")" = "$before"
check "the store's file is unchanged" test "$(cksum <"$db")" = "$sum"
expect_err "a dry run creates no store" 1 "no such file (a dry run creates none)" \
	"$KBENCH" --db "$tmp/none.db" recover --dry-run "$file"
check "... none is made" test ! -e "$tmp/none.db"
kb recover "$file" >"$tmp/out" 2>"$tmp/err"
ok $? "kbench recover loads the file"
check "it says what it added" grep -q ": run @1 (.*): 1 sample values, .* monitor values, 0 failures added$" "$tmp/out"
check "the sample is back in the run" test "$(val "SELECT count(*) FROM samples")" = $((n + 1))
check "the run takes the file's status" test "$(val "SELECT status FROM runs")" = failed
kb recover "$file" >"$tmp/out" 2>"$tmp/err"
check "loading it again adds nothing" grep -q ": 0 sample values, 0 monitor values, 0 failures added$" "$tmp/out"
expect_err "a file that is not a recovery file is refused" 1 "not a kbench recovery file" \
	kb recover "$db"
expect_err "a missing file is named" 1 "cannot open recovery file '$tmp/nope.db'" \
	kb recover "$tmp/nope.db"

timeout 120 "$KBENCH" --db "$db" run --resume lk --no-report >"$tmp/out" 2>"$tmp/err"
ok $? "--resume runs the rest"
check "the run holds its 12 samples, each once" \
	test "$(val "SELECT count(DISTINCT iteration) || '/' || count(*) FROM samples")" = 12/12
check "and is complete" test "$(val "SELECT status FROM runs")" = complete

# No room beside the store (its directory is gone): $TMPDIR takes the file.
mkdir "$tmp/gone" "$tmp/spare"
gdb="$tmp/gone/k.db"
mkdir -p "$tmp/gone" && : > "$gdb" && "$KBENCH" --db "$gdb" runs >/dev/null 2>&1
# A file of its own: the background shell truncates its output only once
# it runs, and the first holder's "locked" read before that removed the
# directory before this holder had opened the store.
: >"$tmp/lock2.out"
"$KB_SQL" --lock "$gdb" 120 2 >"$tmp/lock2.out" 2>&1 </dev/null &
lock=$!
KBENCH_BUSY_TIMEOUT_MS=2000 TMPDIR="$tmp/spare" timeout 120 "$KBENCH" --db "$gdb" run \
	-c "$tmp/r.conf" -n gone >/dev/null 2>"$tmp/err" &
run=$!
i=0
while ! grep -q locked "$tmp/lock2.out" && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
rm -rf "$tmp/gone"
wait "$run"
rc=$?
kill "$lock" 2>/dev/null
wait "$lock"
# The store's directory gone, the store is gone too: the run says so, and
# the file holds all it measured.
file=$(sed -n "s/.* saved in \(.*\): load \(it\|them\) with .*/\1/p" "$tmp/err")
if [ "$rc" -eq 1 ] && [ "$(dirname "$file")" = "$tmp/spare" ] && [ -f "$file" ]; then
	ok 0 "with no room beside the store, the recovery file goes to \$TMPDIR"
else
	ok 1 "with no room beside the store, the recovery file goes to \$TMPDIR (exit $rc)"
	sed 's/^/#   /' "$tmp/err"
	diag "the lock holder said:"
	sed 's/^/#   /' "$tmp/lock2.out"
fi
"$KBENCH" --db "$tmp/new.db" recover "$file" >"$tmp/out" 2>"$tmp/err"
check "recover creates a run the store lacks" grep -q ": run @1 (.*), created: [1-9][0-9]* sample values" "$tmp/out"
check "with its options" test "$("$KB_SQL" "$tmp/new.db" \
	"SELECT value FROM run_meta WHERE section = 'hackbench-a' AND key = 'loops'")" = 100

# The store fails right after the run row (a full disk, simulated by a
# trigger): the run row and its facts are stored together or not at all,
# so nothing of the run is left, running or half-described.
"$KB_SQL" --write "$db" "CREATE TRIGGER full BEFORE INSERT ON run_meta BEGIN
	SELECT RAISE(FAIL, 'database or disk is full (simulated)'); END"
expect_err "a store failing at start-up is reported" 1 \
	"the run could not be started; nothing of it was stored" kb run -c "$tmp/r.conf" -n early
is "the run is not stored" "$(val "SELECT count(*) FROM runs WHERE name = 'early'")" 0
"$KB_SQL" --write "$db" "DROP TRIGGER full"
# Failing on the facts of its second section (a kill there is the same):
# before, the run stayed with the first section's facts only, and a
# resume ran that section alone and called the run complete.
printf '[hackbench-a]\ngroups = 1\nloops = 10\niterations = 1\n\n[hackbench-b]\ngroups = 1\nloops = 10\niterations = 1\n' \
	>"$tmp/two.conf"
"$KB_SQL" --write "$db" "CREATE TRIGGER half BEFORE INSERT ON run_meta
	WHEN NEW.section = 'hackbench-b' BEGIN
	SELECT RAISE(FAIL, 'database or disk is full (simulated)'); END"
expect_err "a store failing half-way through the run's facts is reported" 1 \
	"the run could not be started; nothing of it was stored" kb run -c "$tmp/two.conf" -n half
is "... and no part of the run is stored" \
	"$(val "SELECT count(*) FROM runs WHERE name = 'half'") $(val "SELECT count(*) FROM run_meta
		WHERE run_id NOT IN (SELECT id FROM runs)")" "0 0"
"$KB_SQL" --write "$db" "DROP TRIGGER half"

# The store truncated under a run (its log, then the file): before, the
# run went on and exited 0, and every sample was gone.
tdb="$tmp/trunc.db"
has_samples() { [ "$("$KB_SQL" "$1" "SELECT coalesce(max(nsamples), 0) >= 2 FROM runs")" = 1 ]; }
timeout 120 "$KBENCH" --db "$tdb" run -c "$tmp/r.conf" -n tr >/dev/null 2>"$tmp/err" &
run=$!
wait_until 60 has_samples "$tdb" || diag "the run stored no 2 samples in time"
truncate -s 0 "$tdb-wal"
truncate -s 0 "$tdb"
wait "$run"
rc=$?
ok $(( rc == 1 ? 0 : 1 )) "a run whose store was truncated stops and exits 1 (exit $rc)"
check "it names the store and says what became of it" \
	grep -q "database '$tdb' .* while it was open for writing: what was stored in it may be lost$" "$tmp/err"
check "and that it stopped" grep -q "run @1 stopped because its store '$tdb' is damaged" "$tmp/err"
file=$(sed -n "s/.*this process measured are saved in \(.*\): load them with 'kbench recover .*/\1/p" "$tmp/err")
kept=$(sed -n "s/.*: the \([0-9]*\) samples this process measured are saved in .*/\1/p" "$tmp/err")
check "the recovery file lies beside the store ($file)" test -f "$file" -a "$(dirname "$file")" = "$tmp"
"$KBENCH" --db "$tmp/fresh.db" recover "$file" >"$tmp/out" 2>"$tmp/err2"
ok $? "kbench recover loads it into a new store"
n=$("$KB_SQL" "$tmp/fresh.db" "SELECT count(*) FROM samples WHERE warmup = 0")
if [ -n "$kept" ] && [ "$n" = "$kept" ] && [ "$n" -ge 3 ]; then
	ok 0 "every sample the run measured is back ($n)"
else
	ok 1 "every sample the run measured is back ($n of $kept)"
	sed 's/^/#   /' "$tmp/err" "$tmp/out" "$tmp/err2"
fi
check "with the run's name" test "$("$KB_SQL" "$tmp/fresh.db" "SELECT name FROM runs")" = tr
rm -f "$file"

# The store, its log and its index made immutable under a run: before,
# the next write of the mapped index killed it with SIGBUS (exit 135).
idb="$tmp/imm.db"
: >"$tmp/probe"
if ! chattr +i "$tmp/probe" 2>/dev/null; then
	skip "chattr +i does not work here (needs CAP_LINUX_IMMUTABLE and ext4 or the like)"
	skip "chattr +i does not work here"
	skip "chattr +i does not work here"
else
	chattr -i "$tmp/probe"
	timeout 120 "$KBENCH" --db "$idb" run -c "$tmp/r.conf" -n im >/dev/null 2>"$tmp/err" &
	run=$!
	wait_until 60 has_samples "$idb" || diag "the run stored no 2 samples in time"
	chattr +i "$idb" "$idb-wal" "$idb-shm"
	wait "$run"
	rc=$?
	chattr -i "$idb" "$idb-wal" "$idb-shm"
	ok $(( rc == 1 ? 0 : 1 )) "a run whose store was made immutable exits 1, no SIGBUS (exit $rc)"
	check "it says so, naming the file" \
		grep -q "database '$idb' .*made immutable or append-only while it was open for writing: nothing more can be written to it$" "$tmp/err"
	file=$(sed -n "s/.*this process measured are saved in \(.*\): load them with .*/\1/p" "$tmp/err")
	"$KBENCH" --db "$idb" recover "$file" >"$tmp/out" 2>"$tmp/err2"
	check "kbench recover adds what the store lacks" \
		test "$("$KB_SQL" "$idb" "SELECT count(*) FROM samples WHERE warmup = 0")" = \
		"$("$KB_SQL" "$file" "SELECT count(*) FROM samples WHERE warmup = 0")"
fi
check "no worker is left" no_workers
done_testing
