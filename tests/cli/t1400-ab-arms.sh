#!/bin/sh
# kbench ab: each arm's knobs (a sysctl, a sysfs glob, THP's choice list)
# and options are applied before its samples and read back as facts of
# its run; the arms run in ABBA rounds, each stored as NAME/ARM tied to
# one experiment; every knob reads its original value afterwards and the
# journal is empty. --dry-run shows the knobs and changes nothing.
# kbench show of an arm's run shows the knobs as read back.
# Covers: cli/cmd_ab.c experiment/experiment.c experiment/experiment_dry_run.c experiment/experiment_design.c experiment/knob.c db/experiment.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-ab.sh"
ab_need_knobs
ab_save

ab_conf "$tmp/x.conf" "sysctl.vm.percpu_pagelist_high_fraction = 8" \
	"sysfs.$slab_glob = 0" "sysfs.$thp = never" "option.loops = 12"
before=$(ab_values)

kb ab -c "$tmp/x.conf" --dry-run > "$tmp/dry" 2>&1
ok $? "--dry-run succeeds"
check "--dry-run names the sysctl with its current value" \
	grep -qF "$pcp = $(knob_value $pcp)" "$tmp/dry"
check "--dry-run shows the rounds in ABBA order" \
	grep -qx 'Rounds: base,test test,base base,test' "$tmp/dry"
is "--dry-run changes no knob" "$(ab_values)" "$before"
check "--dry-run creates no store" test ! -e "$db"

kb ab -c "$tmp/x.conf" -n exp --no-report > "$tmp/out" 2>&1
st=$?
ok $st "the experiment completes"
[ $st -eq 0 ] || comment "$tmp/out"
is "every knob reads its original value after it" "$(ab_values)" "$before"
is "the journal is empty" "$(journal_rows)" 0
is "one run per arm, named NAME/ARM, complete" \
	"$(sql "SELECT group_concat(name || ' ' || status, ', ') FROM runs")" \
	"exp/base complete, exp/test complete"
is "both runs point to the experiment" \
	"$(sql "SELECT count(*) FROM run_meta WHERE key = 'experiment' AND value = '1'")" 2
is "the experiment is complete, abba, 3 rounds" \
	"$(sql "SELECT status || ' ' || arm_order || ' ' || rounds || ' ' || arms FROM experiments")" \
	"complete abba 3 base test"
is "the test arm read back the sysctl it set" \
	"$(sql "SELECT m.value FROM run_meta m JOIN runs r ON r.id = m.run_id
		WHERE r.name = 'exp/test' AND m.key = 'knob $pcp'")" 8
is "the test arm read back THP's choice" \
	"$(sql "SELECT m.value FROM run_meta m JOIN runs r ON r.id = m.run_id
		WHERE r.name = 'exp/test' AND m.key = 'knob $thp'")" never
n=$(sql "SELECT count(*) FROM run_meta m JOIN runs r ON r.id = m.run_id
	WHERE r.name = 'exp/test' AND m.key GLOB 'knob /sys/kernel/slab/*/cpu_partial'
	AND m.value <> '0'")
is "every cpu_partial file of the glob read back 0 in the test arm" "$n" 0
is "the base arm read back the original sysctl" \
	"$(sql "SELECT m.value FROM run_meta m JOIN runs r ON r.id = m.run_id
		WHERE r.name = 'exp/base' AND m.key = 'knob $pcp'")" "$(knob_value $pcp)"
is "the option arm's loops is an override of its run" \
	"$(sql "SELECT m.value FROM run_meta m JOIN runs r ON r.id = m.run_id
		WHERE r.name = 'exp/test' AND m.key = 'override' AND m.value GLOB 'loops=*'")" "loops=12"
is "each arm has 2 samples in each of 3 rounds" \
	"$(sql "SELECT group_concat(c, ' ') FROM (SELECT count(*) AS c FROM samples
		WHERE warmup = 0 GROUP BY run_id, round ORDER BY run_id, round)")" "2 2 2 2 2 2"
# ABBA: round 1 base first, round 2 test first, round 3 base first.
order=$(sql "SELECT group_concat(a, '') FROM (SELECT s.round, CASE r.name WHEN 'exp/base'
	THEN 'A' ELSE 'B' END AS a, min(s.started_at) AS t FROM samples s JOIN runs r
	ON r.id = s.run_id GROUP BY s.run_id, s.round ORDER BY t)")
is "the arms ran in ABBA order" "$order" ABBAAB
check "progress names the round and the arm" grep -q 'round 2/3 test \[hackbench' "$tmp/out"
kb show exp/test > "$tmp/show" 2>&1
ok $? "kbench show of the test arm's run"
check "... shows the sysctl as read back" \
	grep -q "^              $pcp = 8$" "$tmp/show"
check "... and the slab glob's files together, all 0" \
	grep -Eq '^              /sys/kernel/slab/\*/cpu_partial = 0 \([0-9]+ files\)$' "$tmp/show"
check "... and not one fact line per knob file" \
	sh -c "! grep -q '^  knob ' '$tmp/show'"

# --order shuffle with a seed: stored with the experiment.
check "--order shuffle --seed runs" \
	kb -q ab -c "$tmp/x.conf" -n shuf --order shuffle --seed 7 --rounds 3 --no-report
is "the shuffle and its seed are stored" \
	"$(sql "SELECT arm_order || ' ' || seed FROM experiments WHERE name = 'shuf'")" "shuffle 7"
is "every knob reads its original value after the shuffle" "$(ab_values)" "$before"

done_testing
