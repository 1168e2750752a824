#!/bin/sh
# t1564-watch-build-failure: a new tip that cannot be built is recorded in
# its cycle with the build's error and mailed once (real aiosmtpd), and
# the loop goes on: the next cycle, with nothing new, mails nothing and
# keeps the tip tested before as the one to test against. Builds only
# (lib-kbuild.sh's stand-in tree): no guest is booted.
# Covers: watch/watch.c watch/watch_mail.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-vm.sh"
. "$TOP_SRCDIR/tests/cli/lib-kbuild.sh"
. "$TOP_SRCDIR/tests/cli/lib-watch.sh"

"$PY" "$tmp/smtpd.py" "$tmp/mail" "$tmp/port" >"$tmp/smtpd.log" 2>&1 &
servers=$!
wait_until 20 test -s "$tmp/port"
port=$(cat "$tmp/port")
ok $? "an SMTP server listens on port $port"
mails() { ls "$tmp/mail" | grep -c '^msg'; }

mkdir -p "$tmp/mail"
"$PY" "$tmp/smtpd.py" "$tmp/mail" "$tmp/port" >"$tmp/smtpd.log" 2>&1 &
servers=$!
wait_until 20 test -s "$tmp/port"
port=$(cat "$tmp/port")
mails() { ls "$tmp/mail" | grep -c '^msg'; }

{
	kbuild_fake_tree "$tmp/up" 1 0 &&
	kbuild_git clone -q --bare "$tmp/up" "$tmp/remote.git" &&
	kbuild_git -C "$tmp/up" remote add origin "$tmp/remote.git" &&
	kbuild_git clone -q "$tmp/remote.git" "$tmp/tree"
} >"$tmp/fixture.log" 2>&1
okf $? "a tree with a bare repository as its remote, and a clone of it" "$tmp/fixture.log"
c0=$(git -C "$tmp/up" rev-parse HEAD)
cat >"$tmp/nightly.conf" <<CONF
[watch]
tree = tree
branch = master
to = dev@example.org
from = bot@example.org
smtp = smtp://127.0.0.1:$port

[hackbench-thread-pipes]
workload = hackbench
groups = 1
CONF
kb watch "$tmp/nightly.conf" >"$tmp/c1.out" 2>"$tmp/c1.err"
okf $? "cycle 1: the baseline" "$tmp/c1.err"
{
	kbuild_commit "$tmp/up" "c1: break the build" broken "this commit does not build" &&
	kbuild_git -C "$tmp/up" push -q origin master
} >>"$tmp/fixture.log" 2>&1
c1=$(git -C "$tmp/up" rev-parse HEAD)
kb watch "$tmp/nightly.conf" >"$tmp/c2.out" 2>"$tmp/c2.err"
okf $? "cycle 2: the tip cannot be built, exit 0" "$tmp/c2.err"
is "... recorded with the step and its result" "$(sql "SELECT state || ' ' || result || ' ' ||
	step || ' ' || old_tip || ' ' || new_tip FROM watch_cycles WHERE id = 2")" \
	"failed build-failed build $c0 $c1"
sql "SELECT error FROM watch_cycles WHERE id = 2" | grep -q "error: this commit does not build"
ok $? "... with the build's error"
is "... mailed once" "$(mails)" 1
tr -d '\r' <"$tmp/mail/msg0" >"$tmp/mail0"
grep -q "^Subject: kbench watch: the build of master $(echo "$c1" | cut -c1-12) failed on" "$tmp/mail0" &&
	grep -q "could not build the new tip, commit $c1:" "$tmp/mail0"
okf $? "... a mail naming the commit" "$tmp/mail0"
kb watch "$tmp/nightly.conf" >"$tmp/c3.out" 2>"$tmp/c3.err"
okf $? "cycle 3: exit 0" "$tmp/c3.err"
grep -q "^nothing new on origin/master: the tip is still $(echo "$c1" | cut -c1-12)\$" "$tmp/c3.out"
ok $? "... the tip that failed is not built again"
is "... nothing mailed again" "$(mails)" 1
kb watch --dry-run "$tmp/nightly.conf" >"$tmp/dry" 2>&1
grep -q "run it against $(echo "$c0" | cut -c1-12) (the last tip tested" "$tmp/dry"
okf $? "the next tip is tested against the last tip built and tested" "$tmp/dry"

done_testing
