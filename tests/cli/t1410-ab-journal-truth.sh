#!/bin/sh
# t1410-ab-journal-truth: the knob journals a killed kbench leaves are
# restored only while they are true: a knobs.journal of the lock
# directory from another boot (or from before boot ids) is said and
# dropped, never written; a killed experiment's knob is put back, from
# the lock directory's journal or the store's, only while it reads the
# value kbench wrote: one set since (by an admin) is said, naming path,
# expected and found values, and left; a row that cannot be restored (a
# path outside /sys and /proc/sys) is said and dropped, and blocks no
# later experiment nor leaves a holder file.
# Covers: experiment/knob.c machine/hostlock.c db/experiment.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-ab.sh"
ab_need_knobs
ab_save
L=/run/lock/kbench
mp=/sys/kernel/slab/kmalloc-64/min_partial
mpc=$(readlink -f $mp)
orig=$(knob_value $mp)
boot=$(cat /proc/sys/kernel/random/boot_id)
conf() {	# conf FILE ROUNDS
	cat >"$1" <<EOF2
[experiment]
rounds = $2

[arm:base]

[arm:large]
sysfs.$mp = 32

[slow]
workload = external
command = sh -c 'sleep 0.2; echo 1'
metric.x = (?<value>[0-9]+)
better.x = higher
iterations = 1
warmup = 0
EOF2
}
conf "$tmp/short.conf" 1
conf "$tmp/long.conf" 40
s1=$tmp/s1.db
s2=$tmp/s2.db
is32() { [ "$(knob_value $mp)" = 32 ]; }
# killed STORE NAME: an experiment of STORE killed -9 with the knob at 32;
# its pid into $one.
killed() {
	"$KBENCH" --db "$1" ab -c "$tmp/long.conf" -n "$2" --no-report >"$tmp/one.out" 2>&1 &
	one=$!
	wait_until 30 is32 || diag "the knob never read 32"
	kill -9 "$one"
	wait "$one" 2>/dev/null
}
original_of() {	# original_of STORE RUN: the original the run journalled
	"$KB_SQL" "$1" "SELECT value FROM run_meta m JOIN runs r ON r.id = m.run_id WHERE r.name = '$2' AND m.key = 'knob $mpc'"
}
holders() { ls "$L" | grep '^holder\.' ; }
mkdir -p "$L"

# (a) The lock directory's journal of another boot: dropped, never
# written; so is one from before boot ids.
echo 9 > $mp	# what this boot's admin set
printf '# kbench knobs journal\n# boot 00000000-0000-4000-8000-000000000000\n# pid 1 (kbench ab, experiment old)\n%s\t%s\t32\n' "$mpc" "$orig" >"$L/knobs.journal"
"$KBENCH" --db "$s2" ab -c "$tmp/short.conf" -n a1 --no-report >"$tmp/out" 2>"$tmp/err"
st=$?
is "a journal of another boot: the experiment runs" "$st" 0
[ $st -eq 0 ] || sed 's/^/#   /' "$tmp/err"
check "... saying the row is of another boot and dropped" \
	grep -q "^kbench: warning: not restoring $mpc to '$orig' (left by pid 1 (kbench ab, experiment old)): journalled in another boot (or with no boot id), whose settings this boot reset; its journal row is dropped\$" "$tmp/err"
is "... the knob keeps what this boot set" "$(knob_value $mp)" 9
is "... which the experiment took as the original" "$(original_of "$s2" a1/base)" 9
printf '# pid 1 (kbench ab, experiment older)\n%s\t%s\n' "$mpc" "$orig" >"$L/knobs.journal"
"$KBENCH" --db "$s2" ab -c "$tmp/short.conf" -n a2 --no-report >"$tmp/out" 2>"$tmp/err"
check "a journal with no boot id is said and dropped" \
	grep -q "^kbench: warning: not restoring $mpc to '$orig' (left by pid 1 (kbench ab, experiment older)): journalled in another boot" "$tmp/err"
is "... the knob keeps what this boot set" "$(knob_value $mp)" 9
echo "$orig" > $mp

# (b) A knob set since the kill is left as it was set, from either
# journal. The store's, after the lock directory's was restored:
killed "$s1" b1
"$KBENCH" --db "$s2" ab -c "$tmp/short.conf" -n b2 --no-report >"$tmp/out" 2>"$tmp/err"
check "killed with the knob at 32: the next experiment restores it" \
	grep -q "^kbench: warning: restored 1 knob file left changed by pid $one (kbench ab, experiment 'b1', store $s1), which is gone\$" "$tmp/err"
echo 8 > $mp	# the admin's setting
"$KBENCH" --db "$s1" runs >"$tmp/out" 2>"$tmp/err"
check "the killed one's store then leaves the admin's setting, saying so" \
	grep -q "^kbench: warning: not restoring $mpc to '$orig' (left by experiment @1, pid $one): it reads '8', not '32' as kbench set it: left as set since (by an admin, or another tool); its journal row is dropped\$" "$tmp/err"
is "... the knob reads what the admin set" "$(knob_value $mp)" 8
is "... the store's journal is empty" "$("$KB_SQL" "$s1" 'SELECT count(*) FROM knob_journal')" 0
"$KBENCH" --db "$s1" runs >"$tmp/out" 2>"$tmp/err"
is "... and the next command says nothing of it" "$(cat "$tmp/err")" ""
echo "$orig" > $mp

# The lock directory's, before any restore:
killed "$s1" b3
echo 8 > $mp
"$KBENCH" --db "$s2" ab -c "$tmp/short.conf" -n b4 --no-report >"$tmp/out" 2>"$tmp/err"
st=$?
is "killed, then the admin sets the knob: the next experiment runs" "$st" 0
check "... leaving the admin's setting, saying so" \
	grep -q "^kbench: warning: not restoring $mpc to '$orig' (left by pid $one (kbench ab, experiment 'b3', store $s1)): it reads '8', not '32' as kbench set it: left as set since (by an admin, or another tool); its journal row is dropped\$" "$tmp/err"
is "... taking it as the original" "$(original_of "$s2" b4/base)" 8
is "... and putting it back" "$(knob_value $mp)" 8
"$KBENCH" --db "$s1" recover >"$tmp/out" 2>"$tmp/err"
is "the killed one's store leaves it too" "$(knob_value $mp)" 8
echo "$orig" > $mp

# (c) A row that cannot be restored is said and dropped: the lock
# directory's,
printf 'safe\n' >"$tmp/victim"
printf '# kbench knobs journal\n# boot %s\n# pid 1 (x)\n%s\tPWNED\t\n' "$boot" "$tmp/victim" >"$L/knobs.journal"
"$KBENCH" --db "$s2" ab -c "$tmp/short.conf" -n c1 --no-report >"$tmp/out" 2>"$tmp/err"
st=$?
is "a row outside /sys: the experiment runs" "$st" 0
[ $st -eq 0 ] || sed 's/^/#   /' "$tmp/err"
check "... saying the row cannot be restored and is dropped" \
	grep -q "^kbench: cannot restore $tmp/victim to 'PWNED' (left by pid 1 (x)): $tmp/victim leads to $tmp/victim, outside /sys and /proc/sys: not a knob, not written; its journal row is dropped\$" "$tmp/err"
is "... the file is untouched" "$(cat "$tmp/victim")" safe
is "... no holder file is left" "$(holders)" ""
"$KBENCH" --db "$s2" ab -c "$tmp/short.conf" -n c2 --no-report >"$tmp/out" 2>"$tmp/err"
st=$?
is "... the next experiment runs" "$st" 0
check "... saying nothing of it" sh -c "! grep -q victim '$tmp/err'"
# and the store's.
s3=$tmp/s3.db
killed "$s3" c3
rm -f "$L/knobs.journal"
"$KB_SQL" --write "$s3" "UPDATE knob_journal SET path = '$tmp/victim', original = 'PWNED'"
"$KBENCH" --db "$s3" recover >"$tmp/out" 2>"$tmp/err"
is "a store row outside /sys: recover exits 1" "$?" 1
check "... saying the row cannot be restored and is dropped" \
	grep -q "^kbench: cannot restore $tmp/victim to 'PWNED' (left by experiment @1, pid $one): $tmp/victim leads to $tmp/victim, outside /sys and /proc/sys: not a knob, not written; its journal row is dropped\$" "$tmp/err"
is "... the journal is empty" "$("$KB_SQL" "$s3" 'SELECT count(*) FROM knob_journal')" 0
is "... the file is untouched" "$(cat "$tmp/victim")" safe
"$KBENCH" --db "$s3" recover >"$tmp/out" 2>"$tmp/err"
is "... the next recover exits 0" "$?" 0
is "... saying nothing" "$(cat "$tmp/err")" ""
echo "$orig" > $mp
"$KBENCH" --db "$s3" ab -c "$tmp/short.conf" -n c4 --no-report >"$tmp/out" 2>"$tmp/err"
st=$?
is "... and the next experiment of that store runs" "$st" 0
[ $st -eq 0 ] || sed 's/^/#   /' "$tmp/err"
is "the knob reads its original value" "$(knob_value $mp)" "$orig"

done_testing
