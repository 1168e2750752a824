#!/bin/sh
# t1421-ab-sequential-resume: kill -9 of a kbench ab --rounds auto
# experiment after its first look, then --resume: the look stored before
# the kill stands (its figure and interval as they were, not taken again
# over the later rounds' samples the runs hold), and the experiment goes
# on to its next looks (experiment/ab_looks.c).
. "$TOP_SRCDIR/tests/cli/lib.sh"

# The workload: arm A prints the next value of $tmp/values.A (100 once
# the file runs out); from its fifth sample on it takes a while, so that
# kbench is killed in the rounds after the first look.
cat >"$tmp/wl.sh" <<'EOF2'
#!/bin/sh
d=$(dirname "$0")
n=$(cat "$d/count.$1" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" >"$d/count.$1"
[ "$n" -ge 5 ] && [ ! -f "$d/fast" ] && sleep 0.5
v=$(sed -n "${n}p" "$d/values.$1" 2>/dev/null)
echo "v=${v:-100}"
EOF2
cat >"$tmp/s.conf" <<EOF2
[experiment]
rounds = auto
max-rounds = 12

[arm:a]
option.command = sh $tmp/wl.sh a

[arm:b]
option.command = sh $tmp/wl.sh b

[ext]
workload = external
monitors = none
command = sh $tmp/wl.sh x
metric.v = v=(?<value>[0-9.]+)
better.v = lower
iterations = 1
warmup = 0
EOF2
# Noisy arms that four rounds cannot tell apart.
printf '%s\n' 100 140 70 120 90 130 80 110 100 120 90 100 >"$tmp/values.a"
printf '%s\n' 120 80 130 90 110 100 140 70 100 90 120 100 >"$tmp/values.b"

look1() {
	sql "SELECT look || '|' || rounds || '|' || pct || '|' || lo_pct || '|' || hi_pct || '|' || decision
	     FROM experiment_looks WHERE look = 1 ORDER BY arm, section, row, stat"
}
"$KBENCH" --db "$db" ab -c "$tmp/s.conf" -n seq --no-report >"$tmp/out" 2>&1 &
pid=$!
wait_until 60 sh -c "[ \"\$(cat '$tmp/count.b' 2>/dev/null || echo 0)\" -ge 6 ]" ||
	diag "the rounds after the first look never ran"
kill -9 "$pid"
wait "$pid" 2>/dev/null
diag "before the kill: $(tr '\n' '|' <"$tmp/out")"
before=$(look1)
check "the first look was stored, with its interval, before the kill" \
	sh -c "[ -n '$before' ] && ! echo '$before' | grep -q '||'"
diag "look 1: $before"

touch "$tmp/fast"
kb ab --resume seq --no-report >"$tmp/out" 2>&1
ok $? "--resume of the killed experiment ends with status 0"
diag "resumed: $(tr '\n' '|' <"$tmp/out")"
is "the first look is as it was stored before the kill" "$(look1)" "$before"
check "it says the stored look stands" \
	grep -q "^kbench: notice: look 1/5 after 4 rounds: stored before the experiment was stopped, it stands (0 of 1 watched rows decided)\$" "$tmp/out"
is "no look row has an interval lost where its look read one" \
	"$(sql "SELECT count(*) FROM experiment_looks WHERE lo_pct IS NULL AND decision IN ('change', 'no change')")" 0
check "no look says nan" sh -c "! grep -qi nan '$tmp/out'"
is "later looks were taken after the resume" \
	"$(sql "SELECT count(DISTINCT look) > 1 FROM experiment_looks")" 1

done_testing
