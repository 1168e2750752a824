#!/bin/sh
# t2010: an --only pattern that runs PCRE2 into its match limit on a long
# name is an error naming pattern, name and reason, not a silent "no
# match" that drops the section from the comparison (or from the run).
# Covers: lib/regex.c compare/compare.c runner/plan.c

. "$TOP_SRCDIR/tests/cli/lib.sh"
pattern='(a+)+$|!'
# Matched at once: ends in a run of 'a's.
short=hackbench-short-a
# A long run of 'a's that does not end the name: exponential backtracking
# (within inih's 49 characters of a section name).
long=hackbench-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-b
want="kbench: cannot match regular expression '$pattern' for --only against '$long': match limit exceeded"
for s in $short $long; do
	printf '[%s]\niterations = 1\nloops = 5\ngroups = 1\n' "$s"
done > "$tmp/two.conf"
stored=0
for run in a-1 b-1; do
	"$KBENCH" --db "$db" --quiet run -c "$tmp/two.conf" -n $run >/dev/null 2>&1 ||
		stored=1
done
ok $stored "two runs of two sections stored"

# expect WHAT STATUS COMMAND...: the exit status, stderr's only line is
# $want and nothing is printed on stdout.
expect() {
	what=$1 want_rc=$2
	shift 2
	"$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" = "$want_rc" ] && [ "$(cat "$tmp/err")" = "$want" ] && [ ! -s "$tmp/out" ]; then
		ok 0 "$what"
	else
		ok 1 "$what"
		diag "exit $rc (want $want_rc); stdout:"
		sed 's/^/#   /' "$tmp/out"
		diag "stderr:"
		sed 's/^/#   /' "$tmp/err"
		diag "wanted on stderr: $want"
	fi
}

expect "compare --only: the match limit is an error (exit 1)" 1 \
	kb --quiet compare --only "$pattern" a-1 b-1
expect "run --only: the match limit is an error before anything runs (exit 2)" 2 \
	kb --quiet run -c "$tmp/two.conf" --only "$pattern" --dry-run

# The same pattern on names it can decide still selects as before.
kb --quiet compare --only 'short-a$' a-1 b-1 > "$tmp/out" 2> "$tmp/err"
ok $? "a pattern PCRE2 can decide still compares"
grep -q -- "$short" "$tmp/out" && ! grep -q -- "$long" "$tmp/out"
ok $? "and keeps just the section it matches"

done_testing
