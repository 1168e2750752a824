#!/bin/sh
# t8507: a watch's records in bundles, without Slurm: fleet upload of a
# node's store (an A/B experiment of two arms and a watch's four cycles,
# tests/data/watch-cycles.sql) sends a bundle of the watch's records
# beside the runs' bundles, and collect brings every value of them into
# another store (watches, cycles, verdicts, mails, the experiment and
# the bisection, its commits and steps, mapped to the ids the store
# gives); an upload with nothing changed sends nothing; a mail sent since
# brings its cycle up to date, a bundle imported again changes nothing;
# a bundle whose watch records are unsound is refused, each with its
# message, exit 1 and the store unchanged.
# Covers: db/watch_bundle.c db/bundle_io.c db/bundle_rules.c db/bundle.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

node=$tmp/node.db
cat >"$tmp/x.conf" <<'CONF'
[experiment]
rounds = 2

[arm:old]

[arm:new]
option.loops = 12

[global]
iterations = 2
loops = 10
groups = 1
timeout = 60

[hackbench-process-pipes]
mode = process
transport = pipes
CONF
check "an experiment of two arms on host alpha" \
	env KBENCH_HOSTNAME=alpha "$KBENCH" --db "$node" --quiet ab -c "$tmp/x.conf" -n tips --no-report
check "a watch's four cycles, the second naming it" \
	"$KB_SQL" --write "$node" "$(cat "$TOP_SRCDIR/tests/data/watch-cycles.sql")"
mkdir "$tmp/results"
check "fleet upload" "$KBENCH" --db "$node" fleet upload "$tmp/results"
is "... sends the two runs and one bundle of the watch's records" \
	"$(sed -E 's/[0-9a-f-]{36}/UUID/' "$tmp/check.out")" \
	"uploaded alpha/UUID.kbench to $tmp/results
uploaded alpha/UUID.kbench to $tmp/results
uploaded alpha/UUID.kbench to $tmp/results"
check "fleet upload again, nothing changed" "$KBENCH" --db "$node" fleet upload "$tmp/results"
is "... sends nothing" "$(cat "$tmp/check.out")" ""

check "collect" kb fleet collect "$tmp/results"
is "... the runs and the four cycles" "$(tail -1 "$tmp/check.out")" \
	"$tmp/results: 3 new bundles, 2 runs added (8 samples), 4 watch cycles"

# Every value of the watch's records, the ids as each store's joins give them.
records() {	# records DB: the watch's records, with what they name
	"$KB_SQL" "$1" "SELECT w.hostname, w.tree, w.remote, w.branch, w.config_name, w.config_text, w.created_at FROM watches w;
	SELECT c.old_tip, c.new_tip, c.step, c.state, c.result, c.error, e.uuid, b.uuid, c.hostname, c.pid, c.boot_id, c.start_ticks, c.started_at, c.finished_at FROM watch_cycles c LEFT JOIN experiments e ON e.id = c.experiment_id LEFT JOIN bisects b ON b.id = c.bisect_id ORDER BY c.started_at;
	SELECT c.started_at, v.section, v.row, v.verdict, v.change_pct, v.p, v.gating, v.regression, b.uuid, v.culprit FROM watch_verdicts v JOIN watch_cycles c ON c.id = v.cycle_id LEFT JOIN bisects b ON b.id = v.bisect_id;
	SELECT c.started_at, m.kind, m.section, m.row, m.culprit, m.subject, m.message_id, m.message, m.state, m.attempts, m.last_error, m.queued_at, m.sent_at FROM watch_mails m JOIN watch_cycles c ON c.id = m.cycle_id ORDER BY m.queued_at;
	SELECT uuid, name, config_name, arms, rounds, arm_order, seed, started_at, finished_at, status, design FROM experiments;
	SELECT uuid, tree, good, bad, good_ref, bad_ref, config_name, config_text, settings, command, section, row, regression_pct, status, result, first_bad, hostname, pid, started_at, finished_at FROM bisects;
	SELECT b.uuid, c.idx, c.commit_id, c.subject, c.author, c.parents FROM bisect_commits c JOIN bisects b ON b.id = c.bisect_id ORDER BY c.idx;
	SELECT b.uuid, s.step, s.commit_id, s.good_commit, s.bad_commit, e.uuid, s.rounds, s.verdict, s.reason, s.started_at, s.finished_at FROM bisect_steps s JOIN bisects b ON b.id = s.bisect_id LEFT JOIN experiments e ON e.id = s.experiment_id ORDER BY s.step"
}
records "$node" >"$tmp/node.rec"
records "$db" >"$tmp/head.rec"
check "the collecting store holds every value of them" cmp "$tmp/node.rec" "$tmp/head.rec"
is "... the experiment's arms are its runs there too" \
	"$(sql "SELECT count(*) FROM run_meta WHERE key = 'experiment.uuid' AND value = (SELECT uuid FROM experiments)") $(sql "SELECT group_concat(name, ' ') FROM (SELECT name FROM runs ORDER BY name)")" \
	"$("$KB_SQL" "$node" "SELECT count(*) FROM run_meta WHERE key = 'experiment.uuid'") tips/new tips/old"

check "the build failure's mail is sent on the node" "$KB_SQL" --write "$node" \
	"UPDATE watch_mails SET state = 'sent', attempts = 3, last_error = NULL, sent_at = '2026-12-05T02:00:01Z' WHERE kind = 'failure'"
check "fleet upload" "$KBENCH" --db "$node" fleet upload "$tmp/results"
is "... sends one bundle of the watch's records" "$(grep -c '^uploaded alpha/' "$tmp/check.out")" 1
check "collect" kb fleet collect "$tmp/results"
is "... brings the cycle up to date" "$(tail -1 "$tmp/check.out")" \
	"$tmp/results: 1 new bundle, 0 runs added (0 samples), 1 watch cycle"
is "... its mail sent there too, the cycle's id kept" \
	"$(sql "SELECT c.id, m.state, m.attempts FROM watch_mails m JOIN watch_cycles c ON c.id = m.cycle_id WHERE m.kind = 'failure'")" "4|sent|3"
records "$node" >"$tmp/node.rec"
records "$db" >"$tmp/head.rec"
check "... every value as the node's" cmp "$tmp/node.rec" "$tmp/head.rec"
digest=$(store_digest "$db")
for f in "$tmp"/results/alpha/*.kbench; do
	kb import "$f" >>"$tmp/reimport" 2>&1 || echo "failed: $f" >>"$tmp/reimport"
done
check "every bundle imported again adds no cycle" sh -c '! grep -q "watch cycle\|failed:" "$1"' \
	sh "$tmp/reimport"
is "... and changes nothing" "$(store_digest "$db")" "$digest"

# The newest watch bundle, and copies of it made unsound.
good=$(ls -t "$tmp"/results/alpha/*.kbench | while read -r f; do
	[ "$("$KB_SQL" "$f" "SELECT count(*) FROM watches")" = 1 ] && { echo "$f"; break; }; done)
store=$tmp/store.db
check "a store to import into" "$KBENCH" --db "$store" import "$good"
before=$(store_digest "$store")
refused() {	# refused FILE MESSAGE: import fails so, exit 1, the store unchanged
	"$KBENCH" --db "$store" import "$1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = 1 ] && [ "$(cat "$tmp/err")" = "kbench: $1: $2" ] &&
		[ "$(store_digest "$store")" = "$before" ]; then
		ok 0 "refused: $2"
	else
		ok 1 "refused: $2"
		diag "exit $rc; got: $(cat "$tmp/err")"
	fi
}
bad() {	# bad NAME SQL: a copy of the good watch bundle changed by SQL
	cp "$good" "$tmp/$1" && "$KB_SQL" --write "$tmp/$1" "$2"
}
bad state.kbb "PRAGMA ignore_check_constraints = ON; UPDATE watch_cycles SET state = 'bogus' WHERE id = 2"
refused "$tmp/state.kbb" "corrupt (CHECK constraint failed in watch_cycles)"
bad verdict-word.kbb "UPDATE watch_verdicts SET verdict = 'splendid'"
refused "$tmp/verdict-word.kbb" \
	"not a kbench bundle: watch_verdicts.verdict of row 1 is not a value kbench writes"
bad tip.kbb "UPDATE watch_cycles SET new_tip = zeroblob(10) WHERE id = 1"
refused "$tmp/tip.kbb" "not a kbench bundle: watch_cycles.new_tip of row 1 is not a value kbench writes"
bad host.kbb "UPDATE watch_cycles SET hostname = 'beta' WHERE id = 3"
refused "$tmp/host.kbb" "not a kbench bundle: watch cycle #3 ran on 'beta', not its watch's host"
bad verdict.kbb "UPDATE watch_verdicts SET cycle_id = 99"
refused "$tmp/verdict.kbb" \
	"not a kbench bundle: a verdict names watch cycle #99 (row 1), which it lacks"
bad experiment.kbb "DELETE FROM experiments"
refused "$tmp/experiment.kbb" \
	"not a kbench bundle: watch cycle #2 names experiment #1, which it lacks"
bad mail.kbb "UPDATE watch_mails SET message_id = '' WHERE id = 1"
refused "$tmp/mail.kbb" "not a kbench bundle: watch_mails.message_id of row 1 is not a value kbench writes"
bad bisect.kbb "DELETE FROM bisects"
refused "$tmp/bisect.kbb" \
	"not a kbench bundle: watch cycle #2 names bisection #1, which it lacks"

done_testing
