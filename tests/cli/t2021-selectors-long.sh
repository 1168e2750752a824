#!/bin/sh
# t2021-selectors-long: a run selector longer than any run name or
# NAME@HOST can be is refused, saying so, before any lookup (a 60000-digit
# hex string made SQLite's LIKE give up, and an empty message followed);
# a hex string longer than a uuid is not looked up as a uuid prefix; a
# whole uuid still selects its run.
# Covers: db/query.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

check "a store holding one imported run" \
	kb import --mmtests "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-patched"
hex=$(head -c 60000 /dev/zero | tr '\0' a)
expect_transcript -e 's/a{1000,}/HEX/' "show refuses a 60000-byte selector" kb show "$hex" <<'T'
$ kb show HEX
2> kbench: run selector of 60000 bytes is too long: a run name has at most 128, NAME@HOST at most 384
[exit 1]
T
expect_err "compare too" 1 "run selector of 60000 bytes is too long" \
	kb compare "$hex" 5.15.0-patched@testhost
check "... with no empty message" test "$(grep -c '^kbench: *$' "$tmp/err")" = 0
hex=$(head -c 300 /dev/zero | tr '\0' a)
expect_err "300 hex digits: no run of that name" 1 "no run named '$hex' in" kb show "$hex"
check "... and no SQLite error" test "$(grep -c 'pattern too complex\|^kbench: *$' "$tmp/err")" = 0
uuid=$(sql "SELECT uuid FROM runs")
check "a whole uuid selects its run" kb show "$uuid"
done_testing
