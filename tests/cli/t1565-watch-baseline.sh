#!/bin/sh
# t1565-watch-baseline: a watch with a fixed baseline (a tag of the first
# tip, as the last release would be), real guests under QEMU and a real
# SMTP server (aiosmtpd). Cycle 1 finds nothing to test (the tip is the
# baseline); three commits are pushed, the second the planted slowdown:
# cycle 2 tests the new tip against the baseline, bisects and mails one
# report naming the planted commit; an innocent commit pushed next is
# still worse than the baseline, and cycle 3 says the culprit is the one
# already named, in the new tip: no second bisection, no second mail.
# Covers: watch/watch.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-vm.sh"
. "$TOP_SRCDIR/tests/cli/lib-kbuild.sh"
. "$TOP_SRCDIR/tests/cli/lib-watch.sh"
mkdir -p "$tmp/mail"
"$PY" "$tmp/smtpd.py" "$tmp/mail" "$tmp/port" >"$tmp/smtpd.log" 2>&1 &
servers=$!
wait_until 20 test -s "$tmp/port"
port=$(cat "$tmp/port")
ok $? "an SMTP server listens on port $port"
mails() { ls "$tmp/mail" | grep -c '^msg'; }

# The upstream tree, its bare remote, and the clone the watch follows.
{
	kbuild_fake_tree "$tmp/up" 1 0 &&
	kbuild_git -C "$tmp/up" commit -q --amend -m "c0: the first tip" &&
	kbuild_git -C "$tmp/up" tag rel-1 &&
	kbuild_git clone -q --bare "$tmp/up" "$tmp/remote.git" &&
	kbuild_git -C "$tmp/up" remote add origin "$tmp/remote.git" &&
	kbuild_git clone -q "$tmp/remote.git" "$tmp/tree" &&
	kbuild_git -C "$tmp/tree" fetch -q --tags origin
} >"$tmp/fixture.log" 2>&1
okf $? "a tree with a bare repository as its remote, and a clone of it" "$tmp/fixture.log"
sha() { git -C "$tmp/up" rev-parse "$1"; }
c0=$(sha HEAD)

cat >"$tmp/nightly.conf" <<EOF
[watch]
tree = tree
branch = master
baseline = rel-1
rounds = 3
max-rounds = 6
threshold = 10
vcpus = 1
icount = yes
append = quiet
boot-timeout = 300
from = kbench <bot@example.org>
to = dev@example.org
smtp = smtp://127.0.0.1:$port

[hackbench-thread-pipes]
workload = hackbench
mode = thread
transport = pipes
groups = 1
loops = 50
iterations = 3
EOF

# cycle N: kbench watch, its output in $tmp/cycleN.{out,err}.
cycle() {
	kb watch "$tmp/nightly.conf" >"$tmp/cycle$1.out" 2>"$tmp/cycle$1.err"
}

cycle 1
okf $? "cycle 1: exit 0" "$tmp/cycle1.err"
is "... the tip is the baseline: nothing is built or run" "$(sed -n 3p "$tmp/cycle1.out")" \
	"tip $(echo "$c0" | cut -c1-12) is the baseline: nothing to test against it"
is "... no experiment" "$(sql "SELECT count(*) FROM experiments")" 0
is "... no mail" "$(mails)" 0

{
	kbuild_commit "$tmp/up" "c1: a file" f 1 &&
	echo second >"$tmp/up/image" &&
	kbuild_git -C "$tmp/up" -c user.name="Pat Planter" -c user.email=pat@example.org \
		commit -q -a -m "c2: sched: plant a slowdown" &&
	kbuild_commit "$tmp/up" "c3: another file" g 3 &&
	kbuild_git -C "$tmp/up" push -q origin master
} >>"$tmp/fixture.log" 2>&1
okf $? "three commits pushed, the second the planted slowdown" "$tmp/fixture.log"
c2=$(sha HEAD~1) c3=$(sha HEAD)

cycle 2
okf $? "cycle 2: exit 0" "$tmp/cycle2.err"
is "... tests the new tip against the baseline, bisects and names the planted commit" \
	"$(sql "SELECT status || ' ' || result || ' ' || first_bad || ' ' || good || ' ' || bad
	FROM bisects")" "complete found $c2 $c0 $c3"
is "... mails one report" "$(mails)" 1

{
	kbuild_commit "$tmp/up" "c4: an innocent change" h 4 &&
	kbuild_git -C "$tmp/up" push -q origin master
} >>"$tmp/fixture.log" 2>&1
c4=$(sha HEAD)
cycle 3
okf $? "cycle 3: exit 0" "$tmp/cycle3.err"
is "... the new tip against the baseline" "$(sql "SELECT old_tip || ' ' || new_tip
	FROM watch_cycles WHERE id = 3")" "$c0 $c4"
grep -q "^kbench: notice: watch: hackbench-thread-pipes/1 regressed against the baseline as bisection @1 found, its culprit in the new tip: not bisected again\$" "$tmp/cycle3.err" "$tmp/cycle3.out"
okf $? "... the culprit already named is in the new tip, as it says" "$tmp/cycle3.err"
is "... no second bisection" "$(sql "SELECT count(*) FROM bisects")" 1
is "... its verdict names that culprit" "$(sql "SELECT bisect_id || ' ' || culprit
	FROM watch_verdicts WHERE cycle_id = 3 AND regression")" "1 $c2"
is "... no second mail" "$(mails)" 1
no_qemu
ok $? "no QEMU is left"

done_testing
