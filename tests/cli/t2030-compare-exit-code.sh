#!/bin/sh
# t2030: kbench compare --exit-code for git bisect run: 1 when a mean row
# is significantly worse than the baseline, marked *, 0 when no row is
# (better, not significant, or cannot tell: ? with the between-run noise
# unknown, as for one run of each kernel), 128 when the comparison cannot
# be made, 2 on bad arguments. --exit-code=any also exits 1 for a worse ?
# whose within-run test is significant.
# Runs: synthetic nightly runs (10 samples apart by 10% on row 1), each of
# its own kernel.
# Covers: compare/compare.c compare/decide.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-process-pipes]\niterations = 1\nloops = 10\ngroups = 1\n' > "$tmp/hb.conf"
runs=$(awk -v first=1 -v last=4 -v step_at=3 -v base=0.5 -v step_to=0.55 -v config=hb \
	-v tag=0 -f "$TOP_SRCDIR/tests/data/nightly-runs.awk")
check "runs nightly-01..04, row 1 10% slower from nightly-03" \
	test "$?" -eq 0 '&&' \
	kb --quiet run -c "$tmp/hb.conf" -n seed --no-report '&&' \
	sql_write "$runs"

status() {	# status WANT ARGS...
	want=$1
	shift
	kb compare "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" = "$want" ]; then
		ok 0 "compare $*: exit $want"
	else
		ok 1 "compare $*: exit $want"
		diag "got $rc; stderr:"
		sed 's/^/#   /' "$tmp/err"
	fi
}

status 0 --exit-code nightly-01 nightly-03
check "the worse row is marked ? (a run of each kernel: noise unknown): no guess" \
	grep -q '^Amean     1 .* ?  -9\.[0-9]*%?$' "$tmp/out"
status 1 --exit-code=any nightly-01 nightly-03
check "--exit-code=any counts a worse ? significant within the runs" \
	grep -q '^Amean     1 .* ?  -9\.[0-9]*%?$' "$tmp/out"
status 0 --exit-code=any nightly-03 nightly-01
check "a better ? row is no regression" grep -q '^Amean     1 .* ?   8\.76%?$' "$tmp/out"
status 0 --exit-code=any nightly-01 '#2'
check "the same run twice: no star" test "$(grep -c '%[*+]$' "$tmp/out")" = 0
status 1 --exit-code=any nightly-01 nightly-02 nightly-04
status 0 --exit-code nightly-01 nightly-02 nightly-04
status 2 --exit-code=some nightly-01 nightly-03
status 0 nightly-01 nightly-03
status 128 --exit-code nightly-01 nosuch
check "... and says why" test "$(cat "$tmp/err")" = "kbench: no run named 'nosuch' in $db (see kbench runs)"
# One run alone prints its statistics: nothing in it is worse than itself.
status 0 --exit-code nightly-01
status 1 nightly-01 nosuch

# Two more runs of nightly-01's kernel: its between-run noise is known, and
# the test on run means stars the worse row *.
runs=$(for tag in 1 2; do
	awk -v first=1 -v last=1 -v step_at=3 -v base=0.5 -v step_to=0.55 -v config=hb \
		-v tag=$tag -f "$TOP_SRCDIR/tests/data/nightly-runs.awk"
done)
sql_write "$runs"
ok $? "two more runs of nightly-01, kernel 6.1.1"
status 1 --exit-code nightly-01 nightly-03
check "with the noise known the worse row is starred *" \
	grep -q '^Amean     1 .* \*  -9\.[0-9]*%\*$' "$tmp/out"
check "... by the test of run means" grep -q '^Between-run noise: from 3 stored runs' "$tmp/out"

done_testing
