#!/bin/sh
# t1320: kbench rm: what goes with a run (samples, monitor values,
# failures, facts, note, its machine when no run is left on it), --dry-run
# and --export, all or nothing; refused while a run is running and for
# one arm of an A/B experiment alone.
# Covers: cli/cmd_rm.c db/manage.c db/bundle.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 2\nmonitors = none\n' \
	> "$tmp/hb.conf"
kb() { "$KBENCH" --db "$db" --quiet "$@"; }
check "runs base, new, other and a-1, a-2 are stored" \
	kb run -c "$tmp/hb.conf" -n base --no-report --note 'first try' '&&' \
	kb run -c "$tmp/hb.conf" -n new --no-report '&&' \
	kb run -c "$tmp/hb.conf" -n other --no-report '&&' \
	kb run -c "$tmp/hb.conf" -n a-1 --no-report '&&' \
	kb run -c "$tmp/hb.conf" -n a-2 --no-report
# The same host name everywhere; a monitor value and a failure for #1;
# #4 and #5 are the arms of an experiment; #3 is on a second machine.
sql_write "UPDATE machines SET hostname = 'host1';
	INSERT INTO machines(hostname, fingerprint) VALUES ('host2', 'f2f2f2f2f2f2f2f2');
	UPDATE runs SET machine_id = 2 WHERE id = 3;
	INSERT INTO monitor_values(run_id, section, row, iteration, source, key, kind, value)
	VALUES (1, 'hackbench-a', '1', 1, 'vmstat', 'pgfault', 'delta', 12);
	INSERT INTO failures(run_id, section, row, iteration, reason, at)
	VALUES (1, 'hackbench-a', '1', 3, 'timeout', '2026-11-01T00:00:00Z');
	INSERT INTO experiments(uuid, name, arms, rounds, arm_order, started_at, status)
	VALUES ('e0e0e0e0-0000-4000-8000-000000000000', 'thp', 'a b', 1, 'abba',
		'2026-11-01T00:00:00Z', 'complete');
	INSERT INTO run_meta(run_id, section, key, value) VALUES
	(4, '', 'experiment-uuid', 'e0e0e0e0-0000-4000-8000-000000000000'),
	(5, '', 'experiment-uuid', 'e0e0e0e0-0000-4000-8000-000000000000')"
facts=$(sql "SELECT count(*) FROM run_meta WHERE run_id = 1")
# Every row of run $1 in the tables that hold a run's rows.
rows_of() {
	sql "SELECT (SELECT count(*) FROM runs WHERE id = $1) + (SELECT count(*) FROM samples
		WHERE run_id = $1) + (SELECT count(*) FROM monitor_values WHERE run_id = $1) +
		(SELECT count(*) FROM failures WHERE run_id = $1) + (SELECT count(*) FROM run_meta
		WHERE run_id = $1) + (SELECT count(*) FROM row_results WHERE run_id = $1)"
}
before=$(store_digest "$db")

expect_transcript -e "s/ $facts facts/ N facts/" "--dry-run says what would go" \
	kb rm --dry-run '#1' base@host1 <<'T'
$ kb rm --dry-run '#1' base@host1
would remove run @1 'base' (host1, YYYY-MM-DDThh:mm:ssZ, complete): 2 samples, 1 monitor value, 1 failure, N facts, 1 note
[exit 0]
T
is "... and changes nothing" "$(store_digest "$db")" "$before"

expect_transcript -e "s/ $facts facts/ N facts/" "rm --export writes the bundle, then removes" \
	kb rm --export "$tmp/base.kbb" '#1' <<'T'
$ kb rm --export TMP/base.kbb '#1'
exported 1 run to TMP/base.kbb
removed run @1 'base' (host1, YYYY-MM-DDThh:mm:ssZ, complete): 2 samples, 1 monitor value, 1 failure, N facts, 1 note
[exit 0]
T
is "nothing of run @1 is left" "$(rows_of 1)" 0
is "the bundle holds it whole" "$("$KB_SQL" "$tmp/base.kbb" "SELECT name || ' ' || notes ||
	' ' || (SELECT count(*) FROM samples) || ' ' || (SELECT count(*) FROM monitor_values) ||
	' ' || (SELECT count(*) FROM failures) FROM runs")" "base first try 2 1 1"
check "import brings it back" kb import "$tmp/base.kbb"
is "... as it was" "$(sql "SELECT name, notes FROM runs WHERE uuid =
	(SELECT uuid FROM runs ORDER BY id DESC LIMIT 1)")" "base|first try"

expect_transcript "an existing --export file is refused before anything goes" \
	kb rm --export "$tmp/base.kbb" new@host1 <<'T'
$ kb rm --export TMP/base.kbb new@host1
2> kbench: 'TMP/base.kbb' already exists: --export writes a new file
[exit 1]
T

# A run whose writer is at work: on another host, kbench cannot tell it
# is not, so it is running.
sql_write "UPDATE runs SET status = 'running', pid = 1 WHERE id = 3"
before=$(store_digest "$db")
expect_transcript "a running run is refused, and nothing named with it goes" \
	kb rm new@host1 '#3' <<'T'
$ kb rm new@host1 '#3'
2> kbench: run @3 'other' is still running; remove it when it has finished
[exit 1]
T
is "... the store is as it was" "$(store_digest "$db")" "$before"
sql_write "UPDATE runs SET status = 'complete' WHERE id = 3"
check "once finished it goes" kb rm '#3'
is "... with its machine, on which no run is left" \
	"$(sql "SELECT group_concat(hostname) FROM machines")" "host1"

expect_transcript "an experiment's arm does not go alone" kb rm a-1@host1 <<'T'
$ kb rm a-1@host1
2> kbench: run @4 'a-1' is an arm of experiment 'thp': its other runs (@5) must go with it (kbench rm @4 @5)
[exit 1]
T
expect_transcript -e "s/ [0-9]+ facts/ N facts/" "with every arm, the experiment goes too" \
	kb rm a-1@host1 a-2@host1 <<'T'
$ kb rm a-1@host1 a-2@host1
removed run @4 'a-1' (host1, YYYY-MM-DDThh:mm:ssZ, complete): 2 samples, N facts, arm of experiment 'thp'
removed run @5 'a-2' (host1, YYYY-MM-DDThh:mm:ssZ, complete): 2 samples, N facts, arm of experiment 'thp'
[exit 0]
T
is "no experiment is left" "$(sql "SELECT count(*) FROM experiments")" 0

expect_transcript "rm needs runs" kb rm <<'T'
$ kb rm
2> kbench: rm needs the runs to remove
2> usage: kbench rm [--dry-run] [--export FILE] RUN...
2>
2> Remove runs from the store (a name: the latest complete run of it on this
2> host; @ID, a uuid prefix, NAME@HOST), with their samples, monitor values,
2> failures, facts and note, in one transaction: all of them go, or none.
2> A run still running is refused. A run of an A/B experiment's arm goes only
2> with every other run of that experiment, and the experiment with them.
2>
2>   -n, --dry-run     say what would be removed, remove nothing
2>       --export FILE write the runs into the bundle FILE first
2>                     (must not exist)
2>   -h, --help        this text
2>
2> With --export the runs are first written into FILE, a bundle that
2> 'kbench import' adds back.
[exit 2]
T
expect_transcript "an unknown run" kb rm nosuch <<'T'
$ kb rm nosuch
2> kbench: no run named 'nosuch' in TMP/k.db (see kbench runs)
[exit 1]
T
check "the store is sound" "$KB_SQL" --integrity "$db"

done_testing
