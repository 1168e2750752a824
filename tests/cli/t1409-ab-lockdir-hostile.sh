#!/bin/sh
# t1409-ab-lockdir-hostile: nothing another user plants in the lock
# directory steers root's kbench: an old directory writable by
# all (1777, as kbench made it before) is made 0755 and what user nobody
# planted there (a background record naming a root process group and a
# root-only file, a knobs.journal naming a knob, a knobs lock file held
# by nobody, a holder file) is said, ignored and removed: nothing killed,
# written or waited for; a lock directory of another user or a symbolic
# link is refused, naming it and what is wrong; a record of root's
# writable by others is ignored; a root record restores nothing but a
# memory block's state, and kills no group whose leader started at
# another time or in another boot; a kbench of user nobody registers
# nothing in root's directory, and refuses root's directory writable by
# all.
# Covers: machine/hostlock.c machine/leftover.c experiment/background.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-ab.sh"

if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null ||
	! setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
	echo "1..0 # SKIP needs root and setpriv to act as user nobody"
	exit 0
fi
ab_need_knobs
ab_save
# A directory nobody may reach (the test's own is under the build
# tree), made for the test and removed with it.
base=$(mktemp -d /tmp/kbench-t1409.XXXXXX) || exit 1
chmod 755 "$base"
victims=
trap 'for v in $victims; do kill "$v" 2>/dev/null; done; ab_restore; rm -rf "$tmp" "$base"' EXIT
trap 'exit 130' INT TERM
L=$base/lock
export KBENCH_LOCK_DIR="$L"
nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
boot=$(cat /proc/sys/kernel/random/boot_id)
mp=/sys/kernel/slab/kmalloc-64/min_partial
mpc=$(readlink -f $mp)
orig=$(knob_value $mp)

# A store to open, made before anything is planted.
printf '[w]\nworkload = external\ncommand = echo 1\nmetric.x = (?<value>[0-9]+)\nbetter.x = higher\niterations = 1\nwarmup = 0\n' >"$tmp/w.conf"
KBENCH_LOCK_DIR=$tmp/lock kb --quiet run -c "$tmp/w.conf" -n w --no-report
cat >"$tmp/ab.conf" <<EOF2
[experiment]
rounds = 1

[arm:base]

[arm:large]
sysfs.$mp = 32

[w]
workload = external
command = echo 1
metric.x = (?<value>[0-9]+)
better.x = higher
iterations = 1
warmup = 0
EOF2

# victim: a root process in a process group of its own, its pid (= pgid).
victim() {
	setsid sleep 300 &
	v=$!
	victims="$victims $v"
}
alive() { kill -0 "$1" 2>/dev/null; }

# 1. The old directory: root's, 1777. Nobody plants a record of each kind.
mkdir "$L" && chmod 1777 "$L"
victim
v1=$v
printf 'safe\n' >"$base/victim" && chmod 600 "$base/victim"
nobody sh -c "printf 'pgid $v1\nstart 0\nboot $boot\nwhat innocent\nrestore $base/victim PWNED\n' >$L/background.$v1" &&
nobody sh -c "printf '# pid 1 (x)\n$mpc\t77\n' >$L/knobs.journal" &&
nobody sh -c "printf 'pid 1\nwhat evil\nstore /x\nsince now\nknobs yes\n' >$L/holder.1"
ok $? "user nobody plants a background record, a knobs journal and a holder file"
esc=$(printf '\033')
nobody touch "$L/background.1${esc}x"
# nobody holds the knobs lock file and a holder file's lock for 60 s.
nobody sh -c "exec 8>>$L/knobs 9<$L/holder.1; flock 8; flock -s 9; sleep 60" &
holdpid=$!
victims="$victims $holdpid"
wait_until 10 test -f "$L/knobs"
sleep 0.5

kb runs >"$tmp/out" 2>"$tmp/err"
ok $? "root's next kbench runs"
check "... it makes the directory kbench's own, saying so" \
	grep -q "^kbench: notice: the lock directory $L was writable by other users (mode 1777, as older kbench made it): it is now 0755, and the files other users left there are ignored\$" "$tmp/err"
is "... which is now 0755, root's" "$(stat -c '%a %U' "$L")" "755 root"
check "... the background record is said, ignored and removed" \
	grep -q "^kbench: warning: ignored and removed $L/background.$v1: owned by user nobody (65534), not by root\$" "$tmp/err"
check "... so is one whose name holds an escape, which is not printed raw" \
	grep -q "^kbench: warning: ignored and removed $L/background.1?x: a name kbench never gives a file\$" "$tmp/err"
check "... the process group it names lives" alive "$v1"
is "... the root-only file it names is untouched" "$(cat "$base/victim")" safe
check "... nothing was killed or written" sh -c "! grep -q 'killed\|set back\|PWNED' '$tmp/err'"
[ -e "$L/background.$v1" ]
ok $((!$?)) "... and the record is gone"

"$KBENCH" --db "$db" ab -c "$tmp/ab.conf" -n one --no-report >"$tmp/out" 2>"$tmp/err"
st=$?
is "root's ab runs, not stopped by nobody's knobs lock" "$st" 0
[ $st -eq 0 ] || sed 's/^/#   /' "$tmp/err"
check "... the planted knobs lock file is said and removed" \
	grep -q "^kbench: warning: ignored and removed $L/knobs: owned by user nobody (65534), not by root\$" "$tmp/err"
check "... so is the planted journal" \
	grep -q "^kbench: warning: ignored and removed $L/knobs.journal: owned by user nobody (65534), not by root\$" "$tmp/err"
check "... and the planted holder file" \
	grep -q "^kbench: warning: ignored and removed $L/holder.1: owned by user nobody (65534), not by root\$" "$tmp/err"
check "... whose text is never shown" sh -c "! grep -q evil '$tmp/err'"
is "... the planted value never reaches the knob: it reads its original" \
	"$(knob_value $mp)" "$orig"
is "... which the experiment journalled as the original" \
	"$("$KB_SQL" "$db" "SELECT value FROM run_meta m JOIN runs r ON r.id = m.run_id WHERE r.name = 'one/base' AND m.key = 'knob $mpc'")" "$orig"
kill "$holdpid" 2>/dev/null
kb runs >"$tmp/out" 2>"$tmp/err"
is "the next command says nothing more" "$(cat "$tmp/err")" ""
is "nobody's files are gone, root's are left" "$(find "$L" ! -user root | wc -l)" 0

# 2. A lock directory of another user is refused, its files unread.
rm -rf "$L"
mkdir "$L" && chown nobody:nogroup "$L"
nobody sh -c "printf 'pgid $v1\nstart 0\nboot $boot\nwhat innocent\nrestore $base/victim PWNED\n' >$L/background.$v1"
kb runs >"$tmp/out" 2>"$tmp/err"
check "a directory of user nobody: runs warns, naming it and what is wrong" \
	grep -q "^kbench: warning: cannot look for background loads left running: the lock directory $L is owned by user nobody (65534), not by root: kbench trusts no file in it; remove it (kbench makes it again)\$" "$tmp/err"
check "... nothing killed" alive "$v1"
is "... nothing written" "$(cat "$base/victim")" safe
"$KBENCH" --db "$db" ab -c "$tmp/ab.conf" -n two --no-report >"$tmp/out" 2>"$tmp/err"
is "... ab refuses" "$?" 2
check "... saying why" grep -q "^kbench: the lock directory $L is owned by user nobody (65534), not by root: kbench trusts no file in it; remove it (kbench makes it again)\$" "$tmp/err"
is "... the knob untouched" "$(knob_value $mp)" "$orig"
is "... the directory as it was" "$(stat -c '%U' "$L"; ls "$L")" "nobody
background.$v1"

# 3. A symbolic link is refused, wherever it leads.
rm -rf "$L"
mkdir "$base/real"
ln -s "$base/real" "$L"
kb runs >"$tmp/out" 2>"$tmp/err"
check "a symbolic link: runs warns, naming it" \
	grep -q "^kbench: warning: cannot look for background loads left running: the lock directory $L is a symbolic link: kbench trusts no file in it; remove it (kbench makes it again)\$" "$tmp/err"
"$KBENCH" --db "$db" ab -c "$tmp/ab.conf" -n three --no-report >"$tmp/out" 2>"$tmp/err"
is "... ab refuses" "$?" 2
is "... and nothing is made there" "$(ls "$base/real")" ""
rm -f "$L"

# 4. Root's directory, 0755, made by kbench: a root record made writable
# by others is refused, whatever it holds.
kb --quiet run -c "$tmp/w.conf" -n made --no-report
is "kbench makes the lock directory root's, 0755" "$(stat -c '%a %U' "$L")" "755 root"
: >"$L/background.$v1"
chmod 666 "$L/background.$v1"
nobody sh -c "printf 'pgid $v1\nstart 0\nboot $boot\nwhat innocent\n' >$L/background.$v1"
ok $? "nobody writes into a root record writable by all"
kb runs >"$tmp/out" 2>"$tmp/err"
check "... which is said, ignored and removed" \
	grep -q "^kbench: warning: ignored and removed $L/background.$v1: writable by other users (mode 0666)\$" "$tmp/err"
check "... nothing killed" alive "$v1"

# 5. Root's own records restore nothing but a memory block's state, and
# kill no group that is not the one recorded.
start=$(awk '{ sub(/.*\) /, ""); split($0, f, " "); print f[20] }' "/proc/$v1/stat")
printf 'pgid %s\nstart %s\nboot %s\nwhat w\nrestore %s PWNED\n' "$v1" "$((start + 1))" "$boot" "$base/victim" >"$L/background.$v1"
victim
v2=$v
printf 'pgid %s\nstart 1\nboot 00000000-0000-4000-8000-000000000000\nwhat w\n' "$v2" >"$L/background.$v2"
kb runs >"$tmp/out" 2>"$tmp/err"
check "a group whose leader started at another time: nothing killed, said" \
	grep -q "^kbench: notice: process group $v1 is not the background load recorded (w): its leader started at another time; nothing killed\$" "$tmp/err"
check "... it lives" alive "$v1"
check "a group recorded in another boot: nothing killed, said" \
	grep -q "^kbench: notice: background process group $v2 (w) was recorded in another boot (or with no boot id): nothing killed\$" "$tmp/err"
check "... it lives" alive "$v2"
printf 'pgid %s\nstart %s\nboot %s\nwhat w\nrestore %s PWNED\n' "$v1" "$start" "$boot" "$base/victim" >"$L/background.$v1"
kb runs >"$tmp/out" 2>"$tmp/err"
check "a root record restoring a file that is no memory block's state: killed, not written" \
	grep -q "^kbench: notice: killed 1 process of background process group $v1 (w) left by a kbench that is gone; not setting $base/victim to 'PWNED': a background load's record sets only a memory block's state back to online\$" "$tmp/err"
is "... the file is untouched" "$(cat "$base/victim")" safe

# 6. Another user's kbench reads root's directory and registers nothing
# there; root's directory writable by all it refuses, saying so.
mkdir "$base/nob" && chown nobody:nogroup "$base/nob" && cp "$tmp/w.conf" "$base/w.conf"
nobody_run() {	# nobody_run NAME: a run of user nobody's, its stderr in err
	env HOME="$base/nob" setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$KBENCH" --db "$base/nob/n.db" --quiet run -c "$base/w.conf" -n "$1" --no-report \
		>"$tmp/out" 2>"$tmp/err"
}
nobody_run n1
ok $? "a run of user nobody beside root's lock directory"
is "... says nothing of it" "$(cat "$tmp/err")" ""
is "... and leaves nothing there" "$(find "$L" -user nobody | wc -l)" 0
chmod 1777 "$L"
nobody_run n2
ok $? "a run of user nobody beside root's directory writable by all"
check "... warns that it trusts nothing there" \
	grep -q "^kbench: warning: cannot tell whether another kbench measures on this machine: the lock directory $L is writable by other users (mode 1777): kbench trusts no file in it; make it 0755, or remove it (kbench makes it again)\$" "$tmp/err"
is "... and leaves nothing there" "$(find "$L" -user nobody | wc -l)" 0

done_testing
