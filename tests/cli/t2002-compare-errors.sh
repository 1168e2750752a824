#!/bin/sh
# t2002: kbench compare's bad-input cases, each with its exact message and
# exit status (2: bad arguments, 1: nothing to compare).

. "$TOP_SRCDIR/tests/cli/lib.sh"
printf '[hackbench-process-pipes]\niterations = 1\nloops = 5\ngroups = 1\n' > "$tmp/one.conf"
kb() { "$KBENCH" --db "$db" --quiet "$@"; }
kb run -c "$tmp/one.conf" -n a-1 >/dev/null 2>&1 && kb run -c "$tmp/one.conf" -n b-1 >/dev/null 2>&1
ok $? "two one-sample runs stored"

# expect STATUS MESSAGE ARGS...: stderr's first line and the exit status.
expect() {
	want_rc=$1 want=$2
	shift 2
	kb compare "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	got=$(head -1 "$tmp/err")
	if [ "$rc" = "$want_rc" ] && [ "$got" = "$want" ] && [ ! -s "$tmp/out" ]; then
		ok 0 "compare $*: $want"
	else
		ok 1 "compare $*: want rc $want_rc '$want', got rc $rc '$got'"
	fi
}

expect 2 "kbench: unknown format 'html' (expected text, markdown, csv or json)" --format html a-1 b-1
expect 2 "kbench: unknown test 'ks' (expected welch, mwu, ci or ttest)" --test ks a-1 b-1
expect 2 "kbench: invalid --alpha '1.5': expected a number between 0 and 1" --alpha 1.5 a-1 b-1
expect 2 "kbench: invalid --alpha 'x': expected a number between 0 and 1" --alpha x a-1 b-1
expect 2 "kbench: compare needs a baseline and at least one run to compare with it" a-1
expect 1 "kbench: no run named 'nosuch' in $db (see kbench runs)" a-1 nosuch
expect 1 "kbench: no run #99 in $db" a-1 '#99'
expect 1 "kbench: no section or row matches --only 'netperf'" --only netperf a-1 b-1
kb compare --only '(' a-1 b-1 > /dev/null 2> "$tmp/err"
rc=$?
grep -q "^kbench: invalid regular expression '(' for --only at offset 1" "$tmp/err"
ok $(( $? + rc - 2 )) "a bad --only pattern is an error (exit 2)"

# One sample a side: the table still prints, no star, and the footer says why.
kb compare a-1 b-1 > "$tmp/out"
ok $? "runs with one sample compare"
grep -q "^No star, fewer than 3 samples on a side: hackbench-process-pipes 1\.$" "$tmp/out"
ok $? "footnote: no star with fewer than 3 samples"
grep -q '^Amean     1 .*(   0.00%) .*( *-\{0,1\}[0-9.]*%)$' "$tmp/out"
ok $? "no star on the mean row"

done_testing
