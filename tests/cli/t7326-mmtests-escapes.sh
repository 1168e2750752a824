#!/bin/sh
# t7326: text that came from elsewhere reaches the terminal with its
# control characters escaped: a fact of an imported run (mmtests'
# version) in show, a file name of a results directory in an error
# message. Nothing is lost: the fact is stored as it was.
# Covers: mmtests/mmtests.c lib/name.c cli/cmd_show.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

esc=$(printf '\033')
# A version fact with a terminal escape is stored as it is, and shown
# escaped.
sysstate=$tmp/esc/iter-0/tests-sysstate
cp -R "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-patched" "$tmp/esc" && chmod -R u+w "$tmp/esc" &&
	{ printf 'version :: v1\033]0;owned\033\\\033[2J\n' && grep -v '^version ::' "$sysstate"; } \
	> "$tmp/sysstate" && mv "$tmp/sysstate" "$sysstate"
ok $? "a run whose mmtests version holds terminal escapes"
check "it imports" kb import --mmtests "$tmp/esc"
is "... stored as it was" \
	"$(sql "SELECT value FROM run_meta WHERE key = 'mmtests-version'" | od -An -c | tr -s ' ')" \
	"$(printf 'v1\033]0;owned\033\\\033[2J\n' | od -An -c | tr -s ' ')"
kb show esc@testhost > "$tmp/show.out"
is "show prints the fact escaped" "$(grep mmtests-version "$tmp/show.out")" \
	'  mmtests-version  v1\x1b]0;owned\x1b\\x1b[2J'
check "... and no escape byte at all" test "$(tr -cd '\033' < "$tmp/show.out" | wc -c)" -eq 0

# A file name with a terminal escape in an error message.
cp -R "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-patched" "$tmp/name" && chmod -R u+w "$tmp/name" &&
	mkdir -p "$tmp/name/iter-0/hackbench-x${esc}[2J/logs" &&
	printf '     Total time: 0.1x [sec]\n' > "$tmp/name/iter-0/hackbench-x${esc}[2J/logs/hackbench-4"
ok $? "a malformed log in a directory whose name holds an escape"
expect_err "its error names it escaped" 1 \
	'hackbench-x\x1b[2J/logs/hackbench-4:1: expected a time in seconds' \
	kb import --mmtests "$tmp/name"
check "... with no escape byte on stderr" test "$(tr -cd '\033' < "$tmp/err" | wc -c)" -eq 0
done_testing
