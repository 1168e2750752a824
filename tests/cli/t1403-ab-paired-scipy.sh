#!/bin/sh
# kbench compare of an experiment's arms decides the mean row by a paired
# t-test on the rounds: its p-value and decision equal scipy's ttest_rel
# on the per-round arm means computed from the stored samples
# (tests/ab_ref.py), for a lower- and a higher-is-better row. The arms
# differ by a workload option only, so no knob (and no root) is needed.
# Needs python3-scipy.
# Covers: compare/paired.c compare/decide.c compare/model.c
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

/usr/bin/python3 "$TOP_SRCDIR/tests/ab_ref.py" "$KBENCH" "$db" p/base p/more nested > "$tmp/ref" 2>&1
ok $? "--paired nested: the nested model's verdict equals scipy's (lower is better)"
comment "$tmp/ref"

# The same samples read as a higher-is-better metric: tested on 1/x.
sql_write "UPDATE samples SET better = 'higher'"
/usr/bin/python3 "$TOP_SRCDIR/tests/ab_ref.py" "$KBENCH" "$db" p/base p/more > "$tmp/ref" 2>&1
ok $? "the paired verdict equals scipy's (higher is better, on 1/x)"
comment "$tmp/ref"
/usr/bin/python3 "$TOP_SRCDIR/tests/ab_ref.py" "$KBENCH" "$db" p/base p/more nested > "$tmp/ref" 2>&1
ok $? "--paired nested: the nested model's verdict equals scipy's (higher is better)"
comment "$tmp/ref"

# Samples set by hand, lower is better: in round k each arm's three are
# its mean -1, +0 and +1, the base's mean 10 + k and the changed arm's
# one more. The differences are all 1 (variance 0), so the nested
# model's F test finds no round-by-arm noise (F 0, p 1) and pools: the
# samples' variance 1 on 24 df (12 cells of 3), a difference's share
# 2/3 of it, so the variance of a difference is (5 x 0 + 24 x 2/3) / 29
# = 16/29 on 29 df, and t = 1 / sqrt(16/29 / 6) = 3.2977. The paired
# t of the means alone is infinite (no spread).
sql_write "UPDATE samples SET better = 'lower', value = 10 + round
	+ (SELECT count(*) FROM samples o WHERE o.run_id = samples.run_id
	   AND o.round = samples.round AND o.warmup = 0 AND o.iteration < samples.iteration) - 1
	+ (run_id = (SELECT id FROM runs WHERE name = 'p/more'))
	WHERE warmup = 0"
kb compare --format json --paired nested p/base p/more > "$tmp/nested.json" 2>&1
ok $? "compare --paired nested of samples set by hand"
check "... pooled: df 29, t 3.2977, F test p 1" /usr/bin/python3 -c '
import json, math, sys
t = json.load(open(sys.argv[1]))["sections"][0]["rows"][0]["runs"][1]["test"]
want = math.sqrt(29 * 6 / 16)
assert t["basis"] == "paired-nested" and t["pooled"] is True, t
assert t["df"] == 29 and abs(t["statistic"] - want) < 1e-9 and t["interaction_p"] == 1, t
assert t["significant"] is True and 0.002 < t["p"] < 0.003, t' "$tmp/nested.json"
[ "$tap_failed" -eq 0 ] || comment "$tmp/nested.json"
kb compare --format json p/base p/more > "$tmp/means.json" 2>&1
check "... and the paired t of the means alone is infinite" /usr/bin/python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["sections"][0]["rows"][0]["runs"][1]["test"]
assert t["basis"] == "paired-rounds" and t["df"] == 5 and t["p"] == 0, t
assert "pooled" not in t, t' "$tmp/means.json"
kb compare --paired sometimes p/base p/more > "$tmp/out" 2>&1
is "a bad --paired is refused: exit 2" "$?" 2
check "... saying what it takes" grep -qxF \
	"kbench: invalid --paired 'sometimes': expected means or nested" "$tmp/out"

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
/usr/bin/python3 "$TOP_SRCDIR/tests/ab_ref.py" "$KBENCH" "$db" p/base p/more nested > "$tmp/ref" 2>&1
ok $? "--paired nested of arms that disagree by round equals scipy's"
comment "$tmp/ref"
check "... which finds round-by-arm noise and does not pool" grep -q "pooled False, the model says False" "$tmp/ref"

# A run that is no arm of the experiment is compared as before.
kb -q run -c "$tmp/x.conf" --only hackbench -n plain -o rounds=3 --no-report >/dev/null 2>&1
kb compare --format json p/base plain > "$tmp/json" 2>&1
check "a run outside the experiment is not tested paired" \
	sh -c "! grep -q paired-rounds '$tmp/json'"

done_testing
