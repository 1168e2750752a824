#!/bin/sh
# kbench compare of an experiment's arms decides the mean row by a paired
# t-test on the rounds: its p-value and decision equal scipy's ttest_rel
# on the per-round arm means computed from the stored samples
# (tests/ab_ref.py), for a lower- and a higher-is-better row. The arms
# differ by a workload option only, so no knob (and no root) is needed.
# Needs python3-scipy.
if ! /usr/bin/python3 -c 'import scipy' 2>/dev/null; then
	echo "1..0 # SKIP python3-scipy is not installed (apt-get install python3-scipy)"
	exit 0
fi
. "$TOP_SRCDIR/tests/cli/lib.sh"

cat > "$tmp/x.conf" <<'CONF'
[experiment]
rounds = 6

[arm:base]

[arm:more]
option.loops = 14

[global]
iterations = 3
warmup = 1
loops = 10
groups = 1
timeout = 60

[hackbench-process-pipes]
mode = process
transport = pipes
CONF

kb -q ab -c "$tmp/x.conf" -n p > "$tmp/out" 2>&1
ok $? "the experiment runs"
check "the footer names the paired test" \
	grep -q 'a paired t-test on 6 rounds' "$tmp/out"
kb compare --format brief p/base p/more > "$tmp/brief" 2>&1
ok $? "compare --format brief of the arms"
check "brief says before/after with the verdict" \
	grep -Eq '^amean +before [0-9.]+ after [0-9.]+ \(-?[0-9.]+%, (better|worse|within noise|cannot tell)\)$' \
	"$tmp/brief"

/usr/bin/python3 "$TOP_SRCDIR/tests/ab_ref.py" "$KBENCH" "$db" p/base p/more > "$tmp/ref" 2>&1
ok $? "the paired verdict equals scipy's (lower is better)"
comment "$tmp/ref"

# The same samples read as a higher-is-better metric: tested on 1/x.
sql_write "UPDATE samples SET better = 'higher'"
/usr/bin/python3 "$TOP_SRCDIR/tests/ab_ref.py" "$KBENCH" "$db" p/base p/more > "$tmp/ref" 2>&1
ok $? "the paired verdict equals scipy's (higher is better, on 1/x)"
comment "$tmp/ref"

# Arms whose rounds disagree (the changed arm 20% above the base's round
# mean in odd rounds, 20% below in even ones): the paired test cannot tell, and the
# footer says how many rounds would detect 10%, and to run them.
# The changed arm's samples are set from the base's round means, so that
# the rounds disagree whatever the machine measured (a loaded machine
# can make the arms differ by more than 20% on its own).
sql_write "UPDATE samples SET value = (SELECT avg(b.value) FROM samples b
		WHERE b.run_id = (SELECT id FROM runs WHERE name = 'p/base')
		AND b.round = samples.round AND b.warmup = 0)
	* CASE WHEN round % 2 THEN 1.2 ELSE 0.8 END
	WHERE run_id = (SELECT id FROM runs WHERE name = 'p/more')"
kb compare p/base p/more > "$tmp/ct" 2>&1
ok $? "compare of arms that disagree by round"
tr '\n' ' ' < "$tmp/ct" | tr -s ' ' > "$tmp/ct1"
check "the footer's way to a verdict is more rounds" \
	grep -q 'For a verdict: run the experiment with more rounds (kbench ab --rounds N)\.' \
	"$tmp/ct1"
check "... not more runs a side, nor another experiment" \
	sh -c "! grep -Eq 'compare --pool|run an interleaved' '$tmp/ct1'"
check "the footer gives the rounds that would detect 10%" \
	grep -Eq '^Rounds to detect 10%: ([0-9]+(-[0-9]+)?|more than 200)\.$' "$tmp/ct"
[ "$tap_failed" -eq 0 ] || comment "$tmp/ct"

# A run that is no arm of the experiment is compared as before.
kb -q run -c "$tmp/x.conf" --only hackbench -n plain -o rounds=3 --no-report >/dev/null 2>&1
kb compare --format json p/base plain > "$tmp/json" 2>&1
check "a run outside the experiment is not tested paired" \
	sh -c "! grep -q paired-rounds '$tmp/json'"

done_testing
