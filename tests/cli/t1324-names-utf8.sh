#!/bin/sh
# t1324: a name that is not valid UTF-8 is refused on every way in (run
# -n, rename, a config's section names; bundles in t7311), and a store that holds
# one already (written before this check) is still read as valid UTF-8:
# the JSON of runs and compare writes each stray byte as U+FFFD, and
# error messages and tables write it as \xNN.
# The code: lib/name.c name_invalid, name_escape; lib/json.c add_escaped;
# runner/conf.c section_line.
# Covers: lib/name.c lib/json.c runner/conf.c cli/cmd_rename.c cli/setup.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 2\nmonitors = none\n' \
	> "$tmp/hb.conf"
kb() { "$KBENCH" --db "$db" --quiet "$@"; }
check "two runs" kb run -c "$tmp/hb.conf" -n a --no-report '&&' \
	kb run -c "$tmp/hb.conf" -n b --no-report

bad=$(printf 'x\377\376y')
utf8() { iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1; }
expect_err "rename to a name that is not UTF-8 is refused" 2 \
	"invalid run name: it must be valid UTF-8 (byte 0xff at offset 1)" kb rename @1 "$bad"
is "the run keeps its name" "$(sql "SELECT name FROM runs WHERE id = 1")" a
expect_err "run -n with a truncated UTF-8 character is refused" 2 \
	"invalid run name: it must be valid UTF-8 (byte 0xc3 at offset 1)" \
	kb run -c "$tmp/hb.conf" -n "$(printf 'a\303')"
expect_err "an overlong form is refused" 2 "it must be valid UTF-8" \
	kb run -c "$tmp/hb.conf" -n "$(printf 'a\300\257')"
printf '[hackbench-a\377]\nworkload = hackbench\niterations = 1\n' >"$tmp/bad.conf"
expect_err "a config section name that is not UTF-8 is refused, with file and line" 2 \
	"bad.conf:1: section name is not valid UTF-8 (byte 0xff at offset 11)" \
	kb run -c "$tmp/bad.conf"
check "a name in UTF-8 is taken" kb rename @2 "$(printf 'b\303\251\342\202\254')"

# A store written before the check holds one.
sql_write "UPDATE runs SET name = CAST(x'78fffe79' AS TEXT) WHERE id = 1"
kb runs --format json >"$tmp/runs.json" 2>"$tmp/err"
ok $? "runs --format json reads it"
check "and writes valid UTF-8" utf8 "$tmp/runs.json"
check "the stray bytes are U+FFFD" grep -q '"x\\ufffd\\ufffdy"' "$tmp/runs.json"
kb compare --format json @1 @2 >"$tmp/cmp.json" 2>"$tmp/err"
ok $? "compare --format json reads it"
check "and writes valid UTF-8" utf8 "$tmp/cmp.json"
kb runs >"$tmp/runs.txt" 2>"$tmp/err"
check "the table writes them as \\xNN" grep -q 'x\\xff\\xfey' "$tmp/runs.txt"
check "and is valid UTF-8" utf8 "$tmp/runs.txt"
kb show "$(printf 'nosuch\377')" >/dev/null 2>"$tmp/err"
check "an error naming a stray byte writes it as \\xNN" grep -q 'nosuch\\xff' "$tmp/err"
check "valid UTF-8" utf8 "$tmp/err"
: >"$tmp/$(printf 'empty\377').db"
"$KBENCH" --db "$tmp/$(printf 'empty\377').db" runs >/dev/null 2>"$tmp/err"
check "the path of an empty store too ($(cat "$tmp/err"))" grep -q 'empty\\xff' "$tmp/err"
done_testing
