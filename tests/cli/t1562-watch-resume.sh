#!/bin/sh
# t1562-watch-resume: kbench watch never loses a report and never sends
# one twice, with real guests under QEMU (--icount) and a real SMTP server
# (aiosmtpd) that is down when the report is made. The tree is
# lib-kbuild.sh's stand-in, its remote a bare repository. Cycle 1 builds
# the first tip; an innocent commit pushed is tested by cycle 2 and mails
# nothing; then the planted slowdown is pushed, and cycle 3 is killed with
# SIGKILL in the middle of its bisection; cycle 4 resumes it (the cycle and
# its bisection), names the planted commit and queues its report, which
# cannot be sent (the server is down): it stays pending, with its error;
# with the server up, cycle 5 sends it, once; cycle 6 sends nothing more.
# Costs some 20 guest boots.
# Covers: watch/watch.c watch/watch_mail.c db/watch.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-vm.sh"
. "$TOP_SRCDIR/tests/cli/lib-kbuild.sh"
. "$TOP_SRCDIR/tests/cli/lib-watch.sh"
# A free port for the server, which is down for now.
port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$tmp/mail"
mails() { ls "$tmp/mail" | grep -c '^msg'; }
start_server() {
	rm -f "$tmp/port"
	"$PY" "$tmp/smtpd.py" "$tmp/mail" "$tmp/port" "$port" >>"$tmp/smtpd.log" 2>&1 &
	servers="$servers $!"
	wait_until 20 test -s "$tmp/port"
}

{
	kbuild_fake_tree "$tmp/up" 1 0 &&
	kbuild_git -C "$tmp/up" commit -q --amend -m "c0: the first tip" &&
	kbuild_git clone -q --bare "$tmp/up" "$tmp/remote.git" &&
	kbuild_git -C "$tmp/up" remote add origin "$tmp/remote.git" &&
	kbuild_git clone -q "$tmp/remote.git" "$tmp/tree"
} >"$tmp/fixture.log" 2>&1
okf $? "a tree with a bare repository as its remote, and a clone of it" "$tmp/fixture.log"
sha() { git -C "$tmp/up" rev-parse "$1"; }

cat >"$tmp/nightly.conf" <<CONF
[watch]
tree = tree
branch = master
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
CONF
cycle() {
	kb watch "$tmp/nightly.conf" >"$tmp/cycle$1.out" 2>"$tmp/cycle$1.err"
}

cycle 1
okf $? "cycle 1: the baseline" "$tmp/cycle1.err"

{
	kbuild_commit "$tmp/up" "c1: an innocent change" f 1 &&
	kbuild_git -C "$tmp/up" push -q origin master
} >>"$tmp/fixture.log" 2>&1
cycle 2
okf $? "cycle 2: an innocent commit, exit 0" "$tmp/cycle2.err"
is "... no regression" "$(sql "SELECT result FROM watch_cycles WHERE id = 2")" no-regression
is "... nothing to mail (the server being down does not matter)" \
	"$(sql "SELECT count(*) FROM watch_mails")" 0

{
	echo second >"$tmp/up/image" &&
	kbuild_git -C "$tmp/up" -c user.name="Pat Planter" -c user.email=pat@example.org \
		commit -q -a -m "c2: sched: plant a slowdown" &&
	kbuild_git -C "$tmp/up" push -q origin master
} >>"$tmp/fixture.log" 2>&1
c2=$(sha HEAD)

# Cycle 3, killed with SIGKILL once its bisection has a run of its own.
# (kbench itself, not a shell function around it: the kill is for it)
"$KBENCH" --db "$db" watch "$tmp/nightly.conf" >"$tmp/cycle3.out" 2>"$tmp/cycle3.err" &
pid=$!
began() {
	! kill -0 "$pid" 2>/dev/null ||
		[ "$(sql "SELECT count(*) FROM runs WHERE name LIKE 'bisect-1.0/%'" 2>/dev/null)" -ge 1 ]
}
wait_until 1800 began
kill -0 "$pid" 2>/dev/null
okf $? "cycle 3 reaches its bisection" "$tmp/cycle3.err"
kill -9 "$pid"
wait "$pid" 2>/dev/null
is "... and is killed there" "$(sql "SELECT step || ' ' || state FROM watch_cycles WHERE id = 3")" \
	"bisect running"
no_qemu
ok $? "... its guest gone with it"
kb watch --status "$tmp/nightly.conf" >"$tmp/status3" 2>&1
grep -q "^cycle #3  [0-9TZ:-]*  interrupted  at bisect  " "$tmp/status3"
okf $? "--status: the cycle interrupted at its bisection" "$tmp/status3"

# Cycle 4: resumes cycle 3; the server is still down.
cycle 4
rc=$?
is "cycle 4: exit 1, a mail left pending" "$rc" 1
grep -q "^resuming cycle #3, stopped at its bisect step\$" "$tmp/cycle4.out"
okf $? "... it resumes cycle 3 first" "$tmp/cycle4.out"
is "... whose bisection goes on and names the planted commit" \
	"$(sql "SELECT count(*) || ' ' || status || ' ' || result || ' ' || first_bad FROM bisects")" \
	"1 complete found $c2"
is "... cycle 3 complete" "$(sql "SELECT state || ' ' || result FROM watch_cycles WHERE id = 3")" \
	"complete regression"
is "... its report queued, pending" "$(sql "SELECT kind || ' ' || culprit || ' ' || state || ' ' ||
	(attempts >= 1) || ' ' || (last_error IS NOT NULL) FROM watch_mails")" "report $c2 pending 1 1"
grep -q "cannot send <[^>]*>: .*; it stays pending, for the next cycle" "$tmp/cycle4.err"
okf $? "... saying why it could not be sent" "$tmp/cycle4.err"
is "... nothing received" "$(mails)" 0
is "... then its own cycle: nothing new" "$(sql "SELECT result FROM watch_cycles WHERE id = 4")" \
	nothing-new

start_server
ok $? "the SMTP server is up on port $port"
cycle 5
okf $? "cycle 5: exit 0" "$tmp/cycle5.err"
is "... the pending report is sent" "$(mails)" 1
is "... recorded sent" "$(sql "SELECT state FROM watch_mails")" sent
tr -d '\r' <"$tmp/mail/msg0" >"$tmp/report"
grep -q "^Message-ID: $(sql "SELECT message_id FROM watch_mails")\$" "$tmp/report" &&
	grep -q "^commit $c2\$" "$tmp/report"
okf $? "... the report as queued, naming the planted commit" "$tmp/report"
cycle 6
okf $? "cycle 6: exit 0" "$tmp/cycle6.err"
is "... nothing sent again" "$(mails)" 1
is "one bisection, one mail in all" "$(sql "SELECT (SELECT count(*) FROM bisects) || ' ' ||
	(SELECT count(*) FROM watch_mails)")" "1 1"
no_qemu
ok $? "no QEMU is left"

done_testing
