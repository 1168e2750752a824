#!/bin/sh
# kbench ab's background loads (background = COMMAND in an arm): the load
# runs only while its arm's samples run, is stopped on every way out
# (the end, a failure, SIGINT; after kill -9 the next command kills what
# is left and says so), a load that ends by itself fails the round with
# an error naming the arm, the command and its exit status, and how it
# ran is stored with the arm's run. Then the built-in trigger
# (background-trigger = pcp-drain RATE/s): its facts, the kernel's count
# when the kernel has a kprobe PMU.
# Covers: experiment/background.c machine/cgroup.c machine/leftover.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# conf FILE ROUNDS BACKGROUND: arm quiet and arm load (with BACKGROUND);
# each sample appends "ARM START END" (ns) to samples.log.
conf() {
	cat > "$1" <<EOF2
[experiment]
rounds = $2

[arm:quiet]
env.KB_ARM = quiet

[arm:load]
env.KB_ARM = load
background = $3

[w]
workload = external
command = sh -c 's=\$(date +%s%N); sleep 0.1; echo "\$KB_ARM \$s \$(date +%s%N)" >> $tmp/samples.log; echo 1'
metric.x = (?<value>[0-9]+)
better.x = higher
iterations = 2
warmup = 1
EOF2
}

# The load's markers: "start NS" when it starts, "stop NS" when SIGTERM
# reaches it.
cat > "$tmp/marker.sh" <<EOF2
echo start \$(date +%s%N) >> $tmp/bg.log
trap 'echo stop \$(date +%s%N) >> $tmp/bg.log; exit 0' TERM
while :; do sleep 0.02; done
EOF2
conf "$tmp/m.conf" 3 "sh $tmp/marker.sh"
check "an experiment with a background load completes" kb ab -c "$tmp/m.conf" -n m --no-report
is "it started and stopped once a round" \
	"$(grep -c '^start' "$tmp/bg.log") $(grep -c '^stop' "$tmp/bg.log")" "3 3"
# Each round of arm load runs a warm-up, which ends before its load
# starts, and two samples, which overlap a start..stop interval and end
# before its stop (the load's shell writes its start marker a moment
# after kbench started it); no sample of arm quiet overlaps one.
check "arm load's samples ran with the load, its warm-ups and arm quiet's without it" awk '
	FNR == NR { if ($1 == "start") s[++n] = $2; else e[++m] = $2; next }
	{
		inside = 0; overlap = 0
		for (i = 1; i <= n; i++) {
			if ($2 < e[i] && $3 > s[i]) {
				overlap = 1
				if ($3 <= e[i]) inside = 1
			}
		}
		if ($1 == "load" && inside) in_load++
		if ($1 == "load" && overlap && !inside) { print "load sample past a stop: " $0; bad = 1 }
		if ($1 == "quiet" && overlap) { print "quiet sample overlaps: " $0; bad = 1 }
		k[$1]++
	}
	END { if (k["load"] != 9 || k["quiet"] != 9 || in_load != 6) {
		print "samples (load, quiet, load inside):", k["load"], k["quiet"], in_load; bad = 1 }
	      exit bad }' "$tmp/bg.log" "$tmp/samples.log"
fact() {	# fact RUN KEY
	sql "SELECT m.value FROM run_meta m JOIN runs r ON r.id = m.run_id
	     WHERE r.name = '$1' AND m.key = '$2'"
}
is "its exit is stored with the arm's run, each round" \
	"$(fact m/load background-exit.round-1)|$(fact m/load background-exit.round-3)" \
	"killed by signal 15 (Terminated) (stopped by kbench)|killed by signal 15 (Terminated) (stopped by kbench)"
check "its run time and CPU time are stored" \
	sh -c "[ -n \"\$1\" ] && [ -n \"\$2\" ]" - "$(fact m/load background-run-s.round-2)" \
	"$(fact m/load background-cpu-s.round-2)"
is "an unbound workload: stored that the load could not be kept apart" \
	"$(fact m/load background-cpus.round-1)" \
	"every CPU: the workload is unbound (pin = unbound), so the load cannot be kept apart from it"
is "arm quiet has no background facts" \
	"$(sql "SELECT count(*) FROM run_meta m JOIN runs r ON r.id = m.run_id
		WHERE r.name = 'm/quiet' AND m.key LIKE 'background%'")" 0
is "nothing is left recorded" "$(ls "$KBENCH_LOCK_DIR" | grep -c '^background\.')" 0

# A load that ends by itself during the arm's samples fails the round.
conf "$tmp/d.conf" 2 "sleep 0.15; exit 3"
kb ab -c "$tmp/d.conf" -n d --no-report > "$tmp/out" 2>&1
st=$?
is "a load that exits fails the experiment" "$st" 1
check "... with an error naming the arm, the command and its exit status" \
	grep -q "arm load: its background 'sleep 0.15; exit 3' exited with status 3 while the arm's samples ran" "$tmp/out"
is "... the arm's run is failed, and the experiment" \
	"$(sql "SELECT status FROM runs WHERE name = 'd/load'") $(sql "SELECT status FROM experiments WHERE name = 'd'")" \
	"failed failed"
is "... its exit is stored" "$(fact d/load background-exit.round-1)" "exited with status 3"

# SIGINT: the load is stopped with kbench, what it started too.
conf "$tmp/l.conf" 40 "sleep 300 & echo \$! > $tmp/child.pid; while :; do sleep 0.02; done"
child_runs() { [ -s "$tmp/child.pid" ] && kill -0 "$(cat "$tmp/child.pid")"; }
rm -f "$tmp/child.pid"
"$KBENCH" --db "$db" ab -c "$tmp/l.conf" -n int --no-report > "$tmp/out" 2>&1 &
pid=$!
wait_until 30 child_runs || diag "the load never started"
kill -INT "$pid"
wait "$pid"
is "SIGINT: exit status 130" "$?" 130
child=$(cat "$tmp/child.pid")
wait_until 10 sh -c "! kill -0 $child" 
ok $? "SIGINT: what the load started is gone"
is "SIGINT: nothing is left recorded" "$(ls "$KBENCH_LOCK_DIR" | grep -c '^background\.')" 0

# kill -9: the shell dies with kbench, the sleep it started stays in the
# group until the next command kills it and says so.
rm -f "$tmp/child.pid"
"$KBENCH" --db "$db" ab -c "$tmp/l.conf" -n nine --no-report > "$tmp/out" 2>&1 &
pid=$!
wait_until 30 child_runs || diag "the load never started"
kill -9 "$pid"
wait "$pid" 2>/dev/null
child=$(cat "$tmp/child.pid")
check "kill -9: the load's child outlives kbench at first" kill -0 "$child"
kb recover > "$tmp/rec" 2>&1
diag "kbench recover: $(cat "$tmp/rec")"
check "kill -9: the next command says it killed the load's group" \
	grep -q "killed [0-9]* process[es]* of background process group [0-9]* (background '.*' of arm load) left by a kbench that is gone" "$tmp/rec"
wait_until 10 sh -c "! kill -0 $child"
ok $? "kill -9: ... and it is gone"
is "kill -9: nothing is left recorded" "$(ls "$KBENCH_LOCK_DIR" | grep -c '^background\.')" 0
kb recover > "$tmp/rec2" 2>&1
check "a second command finds nothing to kill" sh -c "! grep -q 'background process group' $tmp/rec2"

# Bad input: named by file and line, nothing stored.
n0=$(sql "SELECT count(*) FROM experiments")
printf '[experiment]\nrounds = 2\n[arm:a]\n[arm:b]\nbackground-trigger = pcp-drain fast\n[w]\nworkload = external\ncommand = echo 1\nmetric.x = (?<value>[0-9]+)\nbetter.x = higher\n' > "$tmp/bad.conf"
expect_err "a trigger's bad rate is named with its line" 2 \
	"bad.conf:5: background-trigger in [arm:b]: 'fast' is not a rate (expected RATE/s, RATE a whole number from 1 to 100000)" \
	kb ab -c "$tmp/bad.conf" --no-report
printf '[experiment]\nrounds = 2\n[arm:a]\n[arm:b]\nbackground-trigger = drain-it\n[w]\nworkload = external\ncommand = echo 1\nmetric.x = (?<value>[0-9]+)\nbetter.x = higher\n' > "$tmp/bad2.conf"
expect_err "an unknown trigger is named" 2 \
	"bad2.conf:5: background-trigger in [arm:b]: unknown trigger 'drain-it' (expected 'pcp-drain RATE/s')" \
	kb ab -c "$tmp/bad2.conf" --no-report
is "nothing was stored" "$(sql "SELECT count(*) FROM experiments")" "$n0"

# The built-in trigger: root and a removable memory block needed.
block=
for f in /sys/devices/system/memory/memory*/removable; do
	[ "$(cat "$f" 2>/dev/null)" = 1 ] && block=yes
done
if [ "$(id -u)" != 0 ] || [ -z "$block" ]; then
	skip "the trigger needs root and a removable memory block"
else
	conf "$tmp/t.conf" 1 "x"
	sed -i 's/^background = x$/background-trigger = pcp-drain 50\/s/' "$tmp/t.conf"
	states=$(cat /sys/devices/system/memory/memory*/state | sort | uniq -c)
	kb ab -c "$tmp/t.conf" -n trig --no-report > "$tmp/out" 2>&1
	ok $? "an experiment with the trigger completes"
	is "the trigger ends on SIGTERM" "$(fact trig/load background-exit.round-1)" \
		"killed by signal 15 (Terminated) (stopped by kbench)"
	is "the requested rate is stored" "$(fact trig/load background-requested-rate.round-1)" 50
	check "its achieved rate is stored" sh -c "echo '$(fact trig/load background-rate.round-1)' | grep -Eq '^[0-9]+\.[0-9]\$'"
	kc=$(fact trig/load background-kernel-count.round-1)
	if [ -e /sys/bus/event_source/devices/kprobe/type ]; then
		check "the kernel's count is found (kprobe PMU)" sh -c "echo '$kc' | grep -Eq '^[0-9]+\$'"
	else
		is "no kprobe PMU: the kernel's count says why" "$kc" \
			"unavailable: this kernel has no kprobe PMU (/sys/bus/event_source/devices/kprobe/type is missing; CONFIG_KPROBES is not set)"
	fi
	is "every memory block is as it was" \
		"$(cat /sys/devices/system/memory/memory*/state | sort | uniq -c)" "$states"
fi
done_testing
