#!/bin/sh
# t1405-ab-hostlock: a machine's knobs have one owner at a time, whatever
# store each kbench writes to. A second experiment on the knobs refuses,
# naming the holder (pid, experiment, store), or waits with --wait-knobs
# and then reads the knobs' originals afresh; one killed with its knobs
# changed has them restored by the next experiment of any store; a knob
# that something else changes during a round is said and stored with the
# round; a measuring kbench says and stores that another is measuring
# on the machine; and compare names a run still measuring.
# Covers: machine/hostlock.c experiment/knob.c experiment/experiment.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-ab.sh"
ab_need_knobs
ab_save

mp=/sys/kernel/slab/kmalloc-64/min_partial
mpc=$(readlink -f $mp)
orig=$(knob_value $mp)
# Each sample a 0.3 s external command: long enough to be caught part
# way, short in all.
conf() {	# conf FILE ROUNDS
	cat >"$1" <<EOF2
[experiment]
rounds = $2

[arm:base]

[arm:large]
sysfs.$mp = 32

[slow]
workload = external
command = sh -c 'sleep 0.3; echo 1'
metric.x = (?<value>[0-9]+)
better.x = higher
iterations = 2
warmup = 0
EOF2
}
conf "$tmp/mp.conf" 4
conf "$tmp/long.conf" 40
s1=$tmp/s1.db
s2=$tmp/s2.db
is32() { [ "$(knob_value $mp)" = 32 ]; }
gone() { ! kill -0 "$1" 2>/dev/null; }

# 1. A second writer refuses, naming the first.
"$KBENCH" --db "$s1" ab -c "$tmp/mp.conf" -n one --no-report >"$tmp/one.out" 2>&1 &
one=$!
wait_until 30 is32 || diag "the knob never read 32"
"$KBENCH" --db "$s2" ab -c "$tmp/mp.conf" -n two --no-report >"$tmp/out" 2>"$tmp/err"
st=$?
is "a second experiment on the knobs refuses" "$st" 1
grep -q "^kbench: another kbench is changing this machine's knobs (pid $one: kbench ab, experiment 'one', store $s1, since [-0-9T:]*Z, changing knobs); --wait-knobs SECONDS waits for it\$" "$tmp/err"
st=$?
ok $st "... naming the holder's pid, experiment and store"
[ $st -eq 0 ] || sed 's/^/#   /' "$tmp/err"
is "... and storing nothing" "$("$KB_SQL" "$s2" 'SELECT count(*) FROM experiments' 2>/dev/null || echo 0)" 0
wait "$one"
is "the first one completes" "$?" 0
is "the knob reads its original value after both" "$(knob_value $mp)" "$orig"

# 2. --wait-knobs waits for the holder, then takes the knob's original
# as it reads then (the first's 32 is not journalled as original).
"$KBENCH" --db "$s1" ab -c "$tmp/mp.conf" -n three --no-report >"$tmp/one.out" 2>&1 &
one=$!
wait_until 30 is32 || diag "the knob never read 32"
"$KBENCH" --db "$s2" ab -c "$tmp/mp.conf" -n four --no-report --wait-knobs 120 \
	>"$tmp/out" 2>"$tmp/err"
st=$?
wait "$one"
is "with --wait-knobs the second runs once the first is done" "$st" 0
[ $st -eq 0 ] || sed 's/^/#   /' "$tmp/err"
grep -q "^kbench: notice: waiting up to 120 s for the knobs, held by pid $one: " "$tmp/err"
ok $? "... saying whom it waits for"
grep -q "^kbench: notice: $mpc reads '$orig' now, '32' when the config was read: '$orig' is its original value\$" "$tmp/err"
st=$?
ok $st "... and reading the knob's original afresh"
[ $st -eq 0 ] || sed 's/^/#   /' "$tmp/err"
is "the knob reads its original value after both" "$(knob_value $mp)" "$orig"

# 3. Killed with the knob changed: the next experiment, of another
# store, restores it before it reads the originals.
"$KBENCH" --db "$s1" ab -c "$tmp/long.conf" -n five --no-report >"$tmp/one.out" 2>&1 &
one=$!
wait_until 30 is32 || diag "the knob never read 32"
kill -9 "$one"
wait "$one" 2>/dev/null
is "kill -9 leaves the knob changed" "$(knob_value $mp)" 32
"$KBENCH" --db "$s2" ab -c "$tmp/mp.conf" -n six --no-report >"$tmp/out" 2>"$tmp/err"
ok $? "the next experiment of another store runs"
grep -q "^kbench: warning: restored 1 knob file left changed by pid $one (kbench ab, experiment 'five', store $s1), which is gone\$" "$tmp/err"
st=$?
ok $st "... restoring the knob the killed one left, naming it"
[ $st -eq 0 ] || sed 's/^/#   /' "$tmp/err"
is "... journalling the true original" \
	"$("$KB_SQL" "$s2" "SELECT value FROM run_meta m JOIN runs r ON r.id = m.run_id WHERE r.name = 'six/base' AND m.key = 'knob $mpc'" 2>/dev/null)" \
	"$orig"
is "the knob reads its original value" "$(knob_value $mp)" "$orig"
"$KBENCH" --db "$s1" recover >/dev/null 2>&1
is "the killed one's own store restores it again, harmlessly" "$(knob_value $mp)" "$orig"

# 3b. The same in one store: the store's recovery (when the next command
# opens it) and the reading of the originals come before the journal.
"$KBENCH" --db "$s1" ab -c "$tmp/long.conf" -n five2 --no-report >"$tmp/one.out" 2>&1 &
one=$!
wait_until 30 is32 || diag "the knob never read 32"
kill -9 "$one"
wait "$one" 2>/dev/null
"$KBENCH" --db "$s1" ab -c "$tmp/mp.conf" -n six2 --no-report >"$tmp/out" 2>"$tmp/err"
ok $? "the next experiment of the same store runs"
is "... journalling the true original" \
	"$("$KB_SQL" "$s1" "SELECT value FROM run_meta m JOIN runs r ON r.id = m.run_id WHERE r.name = 'six2/base' AND m.key = 'knob $mpc'" 2>/dev/null)" \
	"$orig"
is "the knob reads its original value" "$(knob_value $mp)" "$orig"

# 4. Something else changes the knob during a round of arm large.
"$KBENCH" --db "$s1" ab -c "$tmp/mp.conf" -n seven --no-report >"$tmp/out" 2>"$tmp/err" &
one=$!
wait_until 30 is32 || diag "the knob never read 32"
echo 7 > $mp
wait "$one"
is "an experiment whose knob was changed under it goes on (the next round sets it again)" "$?" 0
grep -q "^kbench: warning: round [0-9] large: $mpc reads '7' after the round, not '32' as the arm set it: something else changed it during the round\$" "$tmp/err"
st=$?
ok $st "... saying which knob, which round and what it read"
[ $st -eq 0 ] || sed 's/^/#   /' "$tmp/err"
is "... storing it with the arm's run" \
	"$("$KB_SQL" "$s1" "SELECT m.value FROM run_meta m JOIN runs r ON r.id = m.run_id WHERE r.name = 'seven/large' AND m.key LIKE 'knob-changed.round-%'")" \
	"$mpc: '7', not '32'"
is "the knob reads its original value" "$(knob_value $mp)" "$orig"

# 5. A plain run while an experiment measures: said and stored.
"$KBENCH" --db "$s1" ab -c "$tmp/long.conf" -n eight --no-report >"$tmp/one.out" 2>&1 &
one=$!
wait_until 30 is32 || diag "the knob never read 32"
printf '[slow]\nworkload = external\ncommand = echo 1\nmetric.x = (?<value>[0-9]+)\nbetter.x = higher\niterations = 1\nwarmup = 0\n' >"$tmp/run.conf"
"$KBENCH" --db "$s2" run -c "$tmp/run.conf" -n beside >"$tmp/out" 2>"$tmp/err"
ok $? "a run beside an experiment runs"
grep -q "^kbench: warning: another kbench is measuring on this machine; the figures of run @[0-9]* may be disturbed:\$" "$tmp/err" &&
	grep -q "^  pid $one: kbench ab, experiment 'eight', store $s1, since .*, changing knobs\$" "$tmp/err"
st=$?
ok $st "... warning that another kbench measures, naming it"
[ $st -eq 0 ] || sed 's/^/#   /' "$tmp/err"
"$KB_SQL" "$s2" "SELECT value FROM run_meta m JOIN runs r ON r.id = m.run_id WHERE r.name = 'beside' AND key = 'concurrent-kbench'" | grep -q "^pid $one: kbench ab, experiment 'eight'"
ok $? "... and storing it as a fact of the run"
# compare of a run still measuring says so: by name, it is not the
# latest complete run; by id it is compared as far as it has gone.
"$KBENCH" --db "$s1" compare eight/base eight/large >"$tmp/out" 2>"$tmp/err"
grep -q "^kbench: run 'eight/base' has no complete run: @[0-9]* is running (use @[0-9]* to pick it, as far as it has gone)\$" "$tmp/err"
ok $? "compare by name says the run is running"
ids=$("$KB_SQL" "$s1" "SELECT '@' || id FROM runs WHERE name LIKE 'eight/%' ORDER BY id")
# shellcheck disable=SC2086 # two ids
"$KBENCH" --db "$s1" compare $ids >"$tmp/out" 2>"$tmp/err"
grep -q "^kbench: notice: run @[0-9]* 'eight/base' is still running (started [-0-9T:]*Z): it is compared on the [0-9]* samples stored so far, and a row it has not reached reads as missing\$" "$tmp/err"
st=$?
ok $st "compare names a run still running"
[ $st -eq 0 ] || sed 's/^/#   /' "$tmp/out" "$tmp/err"
kill -INT "$one"
wait_until 60 gone "$one"
wait "$one"
is "the experiment stopped by SIGINT" "$?" 130
is "the knob reads its original value" "$(knob_value $mp)" "$orig"

# 6. Journal rows of an earlier boot are dropped, never written: the boot
# reset the knob (and emptied /run, the lock directory with it). A row
# whose file is gone is dropped too, once.
s3=$tmp/s3.db
"$KBENCH" --db "$s3" ab -c "$tmp/long.conf" -n nine --no-report >"$tmp/one.out" 2>&1 &
one=$!
wait_until 30 is32 || diag "the knob never read 32"
kill -9 "$one"
wait "$one" 2>/dev/null
rm -f /run/lock/kbench/knobs.journal	# as a reboot empties /run
"$KB_SQL" --write "$s3" "UPDATE knob_journal SET boot_id = '00000000-0000-4000-8000-000000000000'"
echo 9 > $mp	# what the new boot set
"$KBENCH" --db "$s3" recover >"$tmp/out" 2>"$tmp/err"
grep -q "^kbench: warning: not restoring $mpc to '$orig' (left by experiment @1, pid $one): the machine booted since, which reset it; its journal row is dropped\$" "$tmp/err"
st=$?
ok $st "a row of an earlier boot is reported and dropped"
[ $st -eq 0 ] || sed 's/^/#   /' "$tmp/err"
is "... the knob keeps what this boot set" "$(knob_value $mp)" 9
is "... the journal is empty" "$("$KB_SQL" "$s3" 'SELECT count(*) FROM knob_journal')" 0
"$KBENCH" --db "$s3" recover >"$tmp/out" 2>"$tmp/err"
is "... and the next command says nothing of it" "$(cat "$tmp/err")" ""
echo "$orig" > $mp

"$KBENCH" --db "$s3" ab -c "$tmp/long.conf" -n ten --no-report >"$tmp/one.out" 2>&1 &
one=$!
wait_until 30 is32 || diag "the knob never read 32"
kill -9 "$one"
wait "$one" 2>/dev/null
rm -f /run/lock/kbench/knobs.journal
"$KB_SQL" --write "$s3" "UPDATE knob_journal SET path = '/sys/kernel/slab/no-such-cache/min_partial'"
"$KBENCH" --db "$s3" recover >"$tmp/out" 2>"$tmp/err"
grep -q "^kbench: warning: not restoring /sys/kernel/slab/no-such-cache/min_partial to '$orig' (left by experiment @2, pid $one): the file is gone; its journal row is dropped\$" "$tmp/err"
st=$?
ok $st "a row whose file is gone is reported and dropped"
[ $st -eq 0 ] || sed 's/^/#   /' "$tmp/err"
is "... the journal is empty" "$("$KB_SQL" "$s3" 'SELECT count(*) FROM knob_journal')" 0
echo "$orig" > $mp

done_testing
