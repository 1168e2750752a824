#!/bin/sh
# t1406-ab-resume-complete-arm: an experiment killed after one arm ran its
# last round (so its run is complete) resumes: the complete arm is left
# as it is, the other runs the rounds it lacks, and the experiment ends
# complete. Before, every resume failed with "run #N is complete or gone"
# and marked the experiment failed. Rounds go ABBA, so arm b's run
# completes in round 2 before arm a's round 2 begins: kill -9 then.
# Covers: experiment/experiment_resume.c experiment/experiment.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

cat >"$tmp/x.conf" <<'EOF2'
[experiment]
rounds = 2

[arm:a]
option.command = sh -c 'sleep 0.5; echo 1'

[arm:b]
option.command = sh -c 'sleep 0.5; echo 2'

[slow]
workload = external
command = sh -c 'sleep 0.5; echo 0'
metric.x = (?<value>[0-9]+)
better.x = higher
iterations = 2
warmup = 0
EOF2
b_done() { [ "$(sql "SELECT status FROM runs WHERE name = 'x/b'")" = complete ]; }

"$KBENCH" --db "$db" ab -c "$tmp/x.conf" -n x --no-report >"$tmp/out" 2>&1 &
pid=$!
wait_until 60 b_done || diag "arm b's run never completed"
kill -9 "$pid"
wait "$pid" 2>/dev/null
is "killed with b complete and a part way" \
	"$(sql "SELECT name || ' ' || status FROM runs ORDER BY id" | tr '\n' ' ')" \
	"x/a running x/b complete "
kb ab --resume x --no-report >"$tmp/out" 2>"$tmp/err"
st=$?
is "the resume finishes the experiment" "$st" 0
[ "$st" -eq 0 ] || sed 's/^/#   /' "$tmp/err"
grep -q "^kbench: notice: arm b: run @[0-9]* is complete; only the other arms run\$" "$tmp/err"
ok $? "... saying the complete arm is left as it is"
is "both runs complete, two rounds of two samples each" \
	"$(sql "SELECT r.name, r.status, s.round, count(*) FROM samples s JOIN runs r ON r.id = s.run_id GROUP BY r.id, s.round ORDER BY r.id, s.round")" \
	"x/a|complete|1|2
x/a|complete|2|2
x/b|complete|1|2
x/b|complete|2|2"
is "the experiment is complete" "$(sql "SELECT status FROM experiments")" complete

# An experiment marked failed by the old refusal resumes as well.
sql_write "UPDATE experiments SET status = 'failed'; UPDATE runs SET status = 'failed' WHERE name = 'x/a'"
sql_write "DELETE FROM samples WHERE run_id = (SELECT id FROM runs WHERE name = 'x/a') AND round = 2"
kb ab --resume x --no-report >"$tmp/out" 2>"$tmp/err"
is "a failed experiment with a complete arm resumes too" "$?" 0
is "... and ends complete" "$(sql "SELECT status FROM experiments")" complete

done_testing
