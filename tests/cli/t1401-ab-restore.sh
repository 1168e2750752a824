#!/bin/sh
# kbench ab restores every knob it changed on SIGINT and SIGTERM, and
# after kill -9 at random points the next command (kbench recover, or any
# command opening the store) restores them from the journal and says so:
# each knob file reads its original value and the journal is empty.
# Covers: experiment/knob.c experiment/experiment.c cli/cmd_recover.c db/experiment.c runner/stop.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-ab.sh"
ab_need_knobs
ab_save

ab_conf "$tmp/x.conf" "sysctl.vm.percpu_pagelist_high_fraction = 8" \
	"sysfs.$slab_glob = 0" "sysfs.$thp = never"
# Long enough to be stopped part way: 40 rounds of small samples.
before=$(ab_values)

# A knob of the test arm is set: the experiment is under way.
changed() {
	[ "$(knob_value $pcp)" = 8 ] || [ "$(knob_value $thp)" = never ]
}

# More samples stored than n0: the experiment is measuring.
more_samples() {
	[ "$(sql 'SELECT count(*) FROM samples')" -gt "$n0" ]
}

for sig in INT TERM; do
	n0=$(sql 'SELECT count(*) FROM samples' 2>/dev/null || echo 0)
	"$KBENCH" --db "$db" ab -c "$tmp/x.conf" --rounds 40 --no-report >"$tmp/out" 2>&1 &
	pid=$!
	wait_until 20 more_samples || diag "no sample within 20 s"
	sleep 0.3
	kill -"$sig" "$pid"
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	wait "$pid"
	st=$?
	case $sig in INT) want=130 ;; TERM) want=143 ;; esac
	is "SIG$sig: exit status 128+signal" "$st" "$want"
	is "SIG$sig: every knob reads its original value" "$(ab_values)" "$before"
	is "SIG$sig: the journal is empty" "$(journal_rows)" 0
	check "SIG$sig: it says the knobs are restored" grep -q 'every knob is restored' "$tmp/out"
done
is "the stopped experiments are marked interrupted" \
	"$(sql "SELECT group_concat(status, ' ') FROM experiments")" "interrupted interrupted"

# kill -9 at random points: from just after the start (journal written,
# maybe no knob yet) to well into the rounds.
for k in 1 2 3 4; do
	delay=$(awk -v s="$$$k" 'BEGIN { srand(s); printf "%.2f", 0.05 + rand() * 1.2 }')
	"$KBENCH" --db "$db" ab -c "$tmp/x.conf" --rounds 40 --no-report >"$tmp/out9" 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	no_workers
	was=$(journal_rows)
	kb recover > "$tmp/rec" 2>&1
	ok $? "kill -9 after $delay s ($was journal rows): kbench recover succeeds"
	is "kill -9 after $delay s: every knob reads its original value" "$(ab_values)" "$before"
	is "kill -9 after $delay s: the journal is empty" "$(journal_rows)" 0
	if [ "$was" -gt 0 ]; then
		check "kill -9 after $delay s: recover says what it restored" \
			grep -q 'restored [0-9]* knobs\{0,1\} left changed by experiment @[0-9]* (pid [0-9]*, gone)' "$tmp/rec"
	fi
done

# Any command opening the store restores what a killed experiment left.
"$KBENCH" --db "$db" ab -c "$tmp/x.conf" --rounds 40 --no-report >/dev/null 2>&1 &
pid=$!
wait_until 20 changed
kill -9 "$pid"
wait "$pid" 2>/dev/null
no_workers
check "kill -9 with the test arm's knobs set leaves them changed" changed
kb runs > "$tmp/runs" 2>&1
ok $? "kbench runs after it"
check "kbench runs says it restored the knobs" grep -q 'restored .* left changed by experiment' "$tmp/runs"
is "and every knob reads its original value" "$(ab_values)" "$before"
is "and the journal is empty" "$(journal_rows)" 0

done_testing
