#!/bin/sh
# t7310: kbench import refuses a file that is not a sound kbench bundle,
# each with its exact message, exit status 1 and the store unchanged: not
# SQLite, empty, missing, a directory, foreign, newer, corrupt, truncated,
# an index that disagrees with its table,
# with a trigger, view, virtual or extra table, a dropped index, a changed
# table (ALTER or an edited sqlite_master), two objects on one page, values
# of the wrong type or size (text for a number, a blob, infinities, a huge
# text, a status the CHECK forbids) and dangling references.
# Covers: db/bundle.c cli/cmd_import.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-process-pipes]\niterations = 3\nloops = 10\ngroups = 1\n' > "$tmp/hb.conf"
check "a run and a good bundle of it" \
	kb --quiet run -c "$tmp/hb.conf" -n a --no-report '&&' kb export a -o "$tmp/good.kbb"
store=$tmp/store.db
check "a store to import into" "$KBENCH" --db "$store" --quiet run -c "$tmp/hb.conf" -n mine --no-report
before=$(store_digest "$store")
version=$(sql 'PRAGMA user_version')

# refused FILE MESSAGE: import FILE fails with MESSAGE (after "kbench: FILE: ")
# and exit 1, and the store is as it was.
refused() {
	f=$1 want="kbench: $1: $2"
	"$KBENCH" --db "$store" import "$f" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	got=$(cat "$tmp/err")
	now=$(store_digest "$store")
	if [ "$rc" = 1 ] && [ "$got" = "$want" ] && [ ! -s "$tmp/out" ] &&
		[ "$now" = "$before" ]; then
		ok 0 "refused: $2"
	else
		ok 1 "refused: $2"
		diag "exit $rc (want 1); want: $want"
		diag "got: $got"
		[ -s "$tmp/out" ] && diag "stdout: $(cat "$tmp/out")"
		[ "$now" = "$before" ] || diag "the store changed (digest $before, now $now)"
	fi
}
# bad NAME SQL...: a copy of the good bundle changed by the SQL.
bad() {
	f=$tmp/$1
	shift
	cp "$tmp/good.kbb" "$f" && "$KB_SQL" --write "$f" "$@"
}

echo "not a database" > "$tmp/text.kbb"
refused "$tmp/text.kbb" "not a kbench bundle (not an SQLite file)"
: > "$tmp/empty.kbb"
refused "$tmp/empty.kbb" "not a kbench bundle (no kbench schema version)"
"$KBENCH" --db "$store" import "$tmp/missing.kbb" 2> "$tmp/err"
check "a missing file" test "$(cat "$tmp/err")" = \
	"kbench: cannot open bundle '$tmp/missing.kbb': No such file or directory"
mkdir "$tmp/dir.kbb"
refused "$tmp/dir.kbb" "not a kbench bundle (not a regular file)"
"$KB_SQL" --write "$tmp/foreign.kbb" "CREATE TABLE t(x); INSERT INTO t VALUES (1)"
refused "$tmp/foreign.kbb" "not a kbench bundle (no kbench schema version)"
"$KB_SQL" --write "$tmp/foreign2.kbb" "CREATE TABLE runs(x); PRAGMA user_version = $version"
refused "$tmp/foreign2.kbb" "not a kbench bundle: table 'runs' is not kbench's"
bad newer.kbb "PRAGMA user_version = 99"
refused "$tmp/newer.kbb" \
	"schema version 99 is newer than this kbench understands ($version); upgrade kbench"
cp "$tmp/good.kbb" "$tmp/truncated.kbb" && truncate -s 50000 "$tmp/truncated.kbb"
refused "$tmp/truncated.kbb" "corrupt (database disk image is malformed)"
cp "$tmp/good.kbb" "$tmp/garbled.kbb" &&
	dd if=/dev/zero of="$tmp/garbled.kbb" bs=1024 seek=4 count=4 conv=notrunc 2>/dev/null
refused "$tmp/garbled.kbb" "corrupt (Page 2: btreeInitPage() returns error code 11)"
# A run's uuid edited in its row but not in the uuid index: pages sound,
# tables and index disagree. Import once counted the run as new by the row
# and matched it by the index, reporting a run added that was not.
uuid=$("$KB_SQL" "$tmp/good.kbb" "SELECT uuid FROM runs")
off=$(grep -obUa -- "$uuid" "$tmp/good.kbb" | head -1 | cut -d: -f1)
cp "$tmp/good.kbb" "$tmp/stale-index.kbb" && printf 'ffff' |
	dd of="$tmp/stale-index.kbb" bs=1 seek=$((off + 32)) conv=notrunc 2>/dev/null
is "the stale index copy differs from its index in one run's uuid" \
	"$("$KB_SQL" "$tmp/stale-index.kbb" "SELECT count(*) FROM runs NOT INDEXED WHERE uuid = '$uuid'")" 0
refused "$tmp/stale-index.kbb" "corrupt (row 1 missing from index sqlite_autoindex_runs_1)"

bad trigger.kbb "CREATE TRIGGER evil AFTER INSERT ON samples BEGIN DELETE FROM runs; END"
refused "$tmp/trigger.kbb" "not a kbench bundle: unexpected trigger 'evil'"
bad view.kbb "CREATE VIEW v AS SELECT * FROM runs"
refused "$tmp/view.kbb" "not a kbench bundle: unexpected view 'v'"
bad extra.kbb "CREATE TABLE extra(x)"
refused "$tmp/extra.kbb" "not a kbench bundle: unexpected table 'extra'"
bad virtual.kbb "CREATE VIRTUAL TABLE fts USING fts5(x)"
refused "$tmp/virtual.kbb" "not a kbench bundle: unexpected table 'fts'"
bad noindex.kbb "DROP INDEX samples_run"
refused "$tmp/noindex.kbb" "not a kbench bundle: no index 'samples_run'"
bad altered.kbb "ALTER TABLE runs ADD COLUMN evil TEXT"
refused "$tmp/altered.kbb" "not a kbench bundle: table 'runs' is not kbench's"
bad edited.kbb "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql =
	replace(sql, 'flag        TEXT', 'flag        BLOB') WHERE name = 'samples'"
refused "$tmp/edited.kbb" "not a kbench bundle: table 'samples' is not kbench's"
bad shared.kbb "PRAGMA writable_schema = ON; UPDATE sqlite_master SET rootpage =
	(SELECT rootpage FROM sqlite_master WHERE name = 'samples') WHERE name = 'failures'"
refused "$tmp/shared.kbb" "corrupt (2nd reference to page 7)"

bad text.kbb "UPDATE samples SET value = 'fast' WHERE rowid = 2"
refused "$tmp/text.kbb" "not a kbench bundle: samples.value of row 2 is not a value kbench writes"
bad blob.kbb "UPDATE runs SET name = x'00ff'"
refused "$tmp/blob.kbb" "not a kbench bundle: runs.name of row 1 is not a value kbench writes"
bad inf.kbb "UPDATE samples SET value = 9e999 WHERE rowid = 3"
refused "$tmp/inf.kbb" "not a kbench bundle: samples.value of row 3 is not a value kbench writes"
bad ninf.kbb "UPDATE samples SET value = -9e999 WHERE rowid = 1"
refused "$tmp/ninf.kbb" "not a kbench bundle: samples.value of row 1 is not a value kbench writes"
bad big.kbb "UPDATE runs SET notes = CAST(zeroblob(200000) AS TEXT)"
refused "$tmp/big.kbb" "not a kbench bundle: runs.notes of row 1 is not a value kbench writes"
bad huge.kbb "UPDATE runs SET config_text = CAST(zeroblob(20000000) AS TEXT)"
refused "$tmp/huge.kbb" "not a kbench bundle: a value is larger than 16777216 bytes"
bad started.kbb "UPDATE runs SET started_at = 123.5"
refused "$tmp/started.kbb" "not a kbench bundle: runs.started_at of row 1 is not a value kbench writes"
bad finished.kbb "UPDATE runs SET finished_at = 'yesterday'"
refused "$tmp/finished.kbb" "not a kbench bundle: runs.finished_at of row 1 is not a value kbench writes"
bad uuid.kbb "UPDATE runs SET uuid = '../../etc/passwd'"
refused "$tmp/uuid.kbb" "not a kbench bundle: runs.uuid of row 1 is not a value kbench writes"
bad nan.kbb "INSERT INTO monitor_values(rowid, run_id, section, row, iteration, source, key,
	kind, value) VALUES (100000, 1, 's', 'r', 1, 'x', 'k', 'delta', 'NaN')"
refused "$tmp/nan.kbb" "not a kbench bundle: monitor_values.value of row 100000 is not a value kbench writes"
bad status.kbb "PRAGMA ignore_check_constraints = ON; UPDATE runs SET status = 'bogus'"
refused "$tmp/status.kbb" "corrupt (CHECK constraint failed in runs)"
bad dangling.kbb "UPDATE samples SET run_id = 999 WHERE rowid = 3"
refused "$tmp/dangling.kbb" "not a kbench bundle: samples row 3 names run #999, which it lacks"
bad nomachine.kbb "UPDATE runs SET machine_id = 7"
refused "$tmp/nomachine.kbb" "not a kbench bundle: run #1 names machine #7, which it lacks"

# With a good file: nothing is imported when one file is refused.
"$KBENCH" --db "$store" import "$tmp/good.kbb" "$tmp/trigger.kbb" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "a good file given with a bad one: exit 1 ($rc)" test "$rc" = 1
check "... and the store unchanged" test "$(store_digest "$store")" = "$before"
mkdir "$tmp/scratch"
TMPDIR=$tmp/scratch "$KBENCH" --db "$store" import "$tmp/good.kbb" "$tmp/view.kbb" 2>/dev/null
TMPDIR=$tmp/scratch "$KBENCH" --db "$store" import "$tmp/good.kbb" > "$tmp/out" 2> "$tmp/err"
ok $? "the good file alone imports"
check "no private copy is left behind in \$TMPDIR" test -z "$(ls -A "$tmp/scratch")"

done_testing
