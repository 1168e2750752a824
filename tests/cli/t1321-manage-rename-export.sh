#!/bin/sh
# t1321: kbench rename (the name checked as run -n checks it, refused
# while the run is running) and kbench export --all, --since, --host with
# the runs named or without them.
# Covers: cli/cmd_rename.c cli/cmd_export.c db/manage.c db/bundle.c lib/name.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 1\nmonitors = none\n' \
	> "$tmp/hb.conf"
kb() { "$KBENCH" --db "$db" --quiet "$@"; }
check "runs mistake, b and c are stored" \
	kb run -c "$tmp/hb.conf" -n mistake --no-report '&&' \
	kb run -c "$tmp/hb.conf" -n b --no-report '&&' \
	kb run -c "$tmp/hb.conf" -n c --no-report

expect_transcript "rename gives a run another name" kb rename mistake 6.18-thp <<'T'
$ kb rename mistake 6.18-thp
renamed run @1 'mistake' to '6.18-thp'
[exit 0]
T
is "... in the store" "$(sql "SELECT name FROM runs WHERE id = 1")" "6.18-thp"
expect_transcript "a name that reads as a selector is refused" kb rename 6.18-thp 'x@y' <<'T'
$ kb rename 6.18-thp x@y
2> kbench: invalid run name 'x@y': it must not contain '@' (NAME@HOST selects a run by host)
[exit 2]
T
expect_transcript "so is an empty one" kb rename 6.18-thp '' <<'T'
$ kb rename 6.18-thp ''
2> kbench: the run name must not be empty
[exit 2]
T
expect_transcript "rename takes a run and a name" kb rename b <<'T'
$ kb rename b
2> kbench: rename takes a run and its new name
2> usage: kbench rename [--dry-run] RUN NEWNAME
2>
2> Give a run another name: RUN is a name (the latest complete run of it on
2> this host), @ID, a uuid prefix or NAME@HOST; NEWNAME follows the rules of
2> 'kbench run -n'. Runs may share a name. A run still running is refused.
2>
2>   -n, --dry-run  say what would be renamed, rename nothing
2>   -h, --help     this text
[exit 2]
T
# On another host a run marked running may be at work: it is running.
sql_write "INSERT INTO machines(hostname, fingerprint) VALUES ('host2', 'f2f2f2f2f2f2f2f2');
	UPDATE runs SET machine_id = 2, status = 'running', pid = 1,
	started_at = '2026-01-02T03:04:05Z' WHERE id = 3"
expect_transcript "a running run is not renamed" kb rename '#3' d <<'T'
$ kb rename '#3' d
2> kbench: run @3 'c' is still running; rename it when it has finished
[exit 1]
T
expect_transcript "... nor with --dry-run" kb rename --dry-run '#3' d <<'T'
$ kb rename --dry-run '#3' d
2> kbench: run @3 'c' is still running; rename it when it has finished
[exit 1]
T
is "... its name is kept" "$(sql "SELECT name FROM runs WHERE id = 3")" "c"

# export: the runs named, and those --all, --since, --host select.
names() { "$KB_SQL" "$1" "SELECT group_concat(name, ' ') FROM (SELECT name FROM runs ORDER BY id)"; }
expect_transcript "--all leaves a running run out, with a notice" \
	"$KBENCH" --db "$db" export --all -o "$tmp/all.kbb" <<'T'
$ kbench --db TMP/k.db export --all -o TMP/all.kbb
exported 2 runs to TMP/all.kbb
2> kbench: notice: leaving out run @3 'c': it is still running
[exit 0]
T
is "... the bundle holds the others" "$(names "$tmp/all.kbb")" "6.18-thp b"
sql_write "UPDATE runs SET status = 'complete' WHERE id = 3;
	UPDATE runs SET started_at = '2026-01-01T00:00:00Z' WHERE id = 1"
check "--since DATE: the runs started from that day on" \
	kb export --since 2026-01-02 -o "$tmp/since.kbb"
is "... b (today) and c (2026-01-02)" "$(names "$tmp/since.kbb")" "b c"
check "--host HOST: the runs of that host" kb export --host host2 -o "$tmp/host.kbb"
is "... c" "$(names "$tmp/host.kbb")" "c"
check "--since and --host together: the runs that pass both" \
	kb export --since 2026-01-03 --host host2 6.18-thp -o "$tmp/both.kbb"
is "... none, but the run named" "$(names "$tmp/both.kbb")" "6.18-thp"
expect_transcript "nothing selected" kb export --host nosuch -o "$tmp/none.kbb" <<'T'
$ kb export --host nosuch -o TMP/none.kbb
2> kbench: no runs to export: none in TMP/k.db is selected
[exit 1]
T
check "... and no file" test ! -e "$tmp/none.kbb"
expect_transcript "a bad date" kb export --since soon -o "$tmp/none.kbb" <<'T'
$ kb export --since soon -o TMP/none.kbb
2> kbench: invalid date 'soon' for --since: expected YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS], Nh, Nd, Nw, today or yesterday
[exit 2]
T

done_testing
