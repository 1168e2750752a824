#!/bin/sh
# kbench experiments lists the experiments kbench ab stored and shows one
# with its arms' runs; kbench show of an arm's run shows its experiment;
# kbench ab --resume finishes the rounds of an experiment that was
# killed, into the same runs, with the same options, and refuses what
# would change them. The arms differ by a workload option only: no knob,
# no root.
# Covers: cli/cmd_experiments.c views/experiment_view.c experiment/experiment_resume.c db/experiment.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

cat > "$tmp/x.conf" <<'CONF'
[experiment]
rounds = 4

[arm:base]

[arm:more]
option.loops = 44
description = more loops

[global]
iterations = 2
warmup = 1
loops = 40
groups = 1
timeout = 60

[hackbench-process-pipes]
mode = process
transport = pipes

[hackbench-thread-pipes]
mode = thread
transport = pipes
CONF

# Samples stored by both arms: the experiment is measuring, and the
# second arm's run, made when the arm is first switched in, exists (a
# count of samples alone is reached by the first arm's warm-up and
# samples, and a kill then leaves one run).
measuring() {
	[ "$(sql 'SELECT count(DISTINCT run_id) FROM samples' 2>/dev/null || echo 0)" -ge 2 ]
}

# Killed part way, -o, --iterations and --only given: a resume must ask
# them again.
"$KBENCH" --db "$db" ab -c "$tmp/x.conf" -n ex -o groups=2 --iterations 3 --only process \
	--no-report > "$tmp/out" 2>&1 &
pid=$!
wait_until 30 measuring || diag "no sample within 30 s"
kill -9 "$pid"
wait "$pid" 2>/dev/null
no_workers
n0=$(sql 'SELECT count(*) FROM samples')

kb experiments > "$tmp/list" 2>&1
ok $? "kbench experiments lists them"
check "... the killed one reads interrupted, with its design" \
	grep -Eq '^ +1  ex +interrupted +4  base more +[0-9T:-]+Z +[0-9]+$' "$tmp/list"
kb experiments --format json > "$tmp/list.json" 2>&1
check "... and as json with a format version" \
	grep -q '^{"format":"kbench-experiments","format_version":1,"experiments":\[$' "$tmp/list.json"
kb experiments ex > "$tmp/one" 2>&1
ok $? "kbench experiments NAME shows one"
check "... with its status" grep -q '^  status      interrupted$' "$tmp/one"
check "... and its first arm's run" grep -Eq '^  arms        base: run @1, interrupted, [0-9]+ rounds?, [0-9]+ samples$' "$tmp/one"
expect_err "an unknown experiment is an error" 1 \
	"kbench: no experiment named 'nonesuch' in $db (see kbench experiments)" kb experiments nonesuch
expect_err "... with the closest stored name, as a run's" 1 \
	"kbench: no experiment named 'ez' in $db (see kbench experiments) (did you mean 'ex'?)" \
	kb experiments ez

kb show "#1" > "$tmp/show" 2>&1
ok $? "kbench show of an arm's run"
check "... names its experiment" grep -q '^experiment @1  ex$' "$tmp/show"
check "... and the arm" grep -q '^  this arm    base$' "$tmp/show"
kb show '#2' > "$tmp/show2" 2>&1
check "... the other arm's keys as written" grep -q '^  its keys    option.loops = 44$' "$tmp/show2"
check "... marking the run shown among the arms" grep -q 'more: run @2, .*  (this run)$' "$tmp/show2"
kb show --format json '#2' > "$tmp/json" 2>&1
check "... and in json: an experiment object with the arm" \
	grep -q '"experiment":{"id":1,"uuid":"[0-9a-f-]*","name":"ex","status":"interrupted","rounds":4,"order":"abba","arm":"more"' "$tmp/json"

expect_err "--resume takes nothing from the command line" 2 \
	"cannot be combined with it" kb ab --resume ex -c "$tmp/x.conf"
kb ab --resume ex --no-report > "$tmp/res" 2>&1
ok $? "kbench ab --resume finishes it"
comment "$tmp/res"
check "... saying it is resumed" grep -q "experiment @1 'ex' ([0-9a-f-]*) resumed" "$tmp/res"
is "... into the same two runs" "$(sql 'SELECT count(*) FROM runs')" 2
is "... keeping the samples it had" \
	"$(sql "SELECT count(*) >= $n0 FROM samples")" 1
is "... each arm 3 samples (--iterations) in each of 4 rounds" \
	"$(sql "SELECT group_concat(c, ' ') FROM (SELECT count(*) AS c FROM samples
		WHERE warmup = 0 GROUP BY run_id, round ORDER BY run_id, round)")" "3 3 3 3 3 3 3 3"
is "... of the process section only (--only), at groups 2 (-o)" \
	"$(sql "SELECT group_concat(DISTINCT section || ' ' || row) FROM samples")" \
	"hackbench-process-pipes 2"
is "... the experiment and its runs complete" \
	"$(sql "SELECT group_concat(status, ' ') FROM (SELECT status FROM experiments
		UNION ALL SELECT status FROM runs)")" "complete complete complete"
kb ab --resume '#1' > "$tmp/again" 2>&1
ok $? "resuming a complete experiment succeeds"
check "... and says there is nothing to do" grep -q 'is complete: nothing to resume' "$tmp/again"

# --dry-run estimates every round of every arm, here from the runs made.
kb ab -c "$tmp/x.conf" -n ex -o groups=2 --iterations 3 --only process --dry-run \
	> "$tmp/dry" 2>&1
check "--dry-run totals the experiment from its last runs" \
	grep -Eq '^Estimated duration: [0-9.]+ s for 2 arms x 4 rounds \(each arm.s plan runs once a round\)$' \
	"$tmp/dry"

done_testing
