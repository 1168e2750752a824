#!/bin/sh
# t1220: a run's note: written by run --note, replaced, appended to and
# cleared by kbench note, shown by show and by runs --format json|csv;
# bad notes and unknown runs refused with their messages.
# Covers: cli/cmd_note.c db/manage.c cli/cmd_show.c

. "$TOP_SRCDIR/tests/cli/lib.sh"
cat > "$tmp/tiny.conf" <<'CONF'
[global]
iterations = 3
loops = 10
groups = 1

[hackbench-process-pipes]
mode = process
transport = pipes
CONF
kb() { "$KBENCH" --db "$db" --quiet "$@"; }
notes() { sql "SELECT coalesce(notes, '(null)') FROM runs WHERE id = $1"; }

check "a run with --note" kb run -c "$tmp/tiny.conf" -n base --no-report --note 'THP off, governor performance'
check "run --note stores the note" test "$(notes 1)" = "THP off, governor performance"
check "a run without" kb run -c "$tmp/tiny.conf" -n new --no-report
check "no --note, no note" test "$(notes 2)" = "(null)"

kb show base > "$tmp/out"
check "show prints the note after the sample count" \
	sh -c "grep -A1 '^  samples ' '$tmp/out' | tail -1 | grep -qx '  notes       THP off, governor performance'"
kb show new > "$tmp/out"
check "show prints no notes line for a run without" sh -c "! grep -q '^  notes' '$tmp/out'"

kb note base 'replaced'
ok $? "note RUN TEXT exits 0"
check "note RUN TEXT replaces the note" test "$(notes 1)" = "replaced"
kb note --append base 'second line'
check "note --append adds a line" test "$(notes 1)" = "replaced
second line"
kb note --append new 'first'
check "note --append on a run without a note starts it" test "$(notes 2)" = "first"
kb note --append new ''
check "note --append with no text leaves the note" test "$(notes 2)" = "first"

kb show base > "$tmp/out"
check "show lines a note's lines up" sh -c "grep -A2 '^  samples ' '$tmp/out' | tail -2 | tr '\n' '|' | grep -qx '  notes       replaced|              second line|'"
kb runs --format json > "$tmp/json"
check "runs --format json has the note" grep -qF '"notes":"replaced\nsecond line"}' "$tmp/json"
kb runs --format csv > "$tmp/csv"
check "runs --format csv quotes the note" sh -c "tail -3 '$tmp/csv' | head -2 | tr '\n' '|' | grep -q ',\"replaced|second line\"|'"

kb note '#1' ''
check "an empty text clears the note" test "$(notes 1)" = "(null)"
kb note "$(sql 'SELECT substr(uuid, 1, 8) FROM runs WHERE id = 2')" 'by uuid'
check "a uuid prefix selects the run" test "$(notes 2)" = "by uuid"
kb note "new@$(sql 'SELECT hostname FROM machines')" 'by host'
check "NAME@HOST selects the run" test "$(notes 2)" = "by host"
tab=$(printf 'a\tb')
kb note new "$tab"
check "a tab is kept" test "$(notes 2)" = "$tab"

expect_err "an unknown run is an error" 1 \
	"kbench: no run named 'nosuch' in $db (see kbench runs)" kb note nosuch text
expect_err "a control character is refused" 2 \
	"kbench: invalid note: it must not contain control characters other than newline and tab (byte 0x1b at offset 1)" \
	kb note new "$(printf 'a\033b')"
big=$(head -c 65537 /dev/zero | tr '\0' x)
expect_err "a note over 64 KiB is refused" 2 \
	"kbench: invalid note: it is 65537 bytes long, the limit is 65536" kb note new "$big"
expect_err "a note needs its text" 2 "kbench: note takes a run and a text" kb note new
check "a refused note changes nothing" test "$(notes 2)" = "$tab"
expect_err "run --note refuses a bad note before running" 2 \
	"kbench: invalid note: it must not contain control characters other than newline and tab (byte 0x07 at offset 0)" \
	kb run -c "$tmp/tiny.conf" -n third --note "$(printf '\a')"
check "... and stores no run" test "$(sql 'SELECT count(*) FROM runs')" = 2

done_testing
