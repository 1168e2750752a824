#!/bin/sh
# Covers: kbench ab's background loads whose processes leave the load's
# process group (setsid): killed when the load is stopped, said in the
# load's stored exit, and after kill -9 of kbench killed by the next
# command, which says so (experiment/background.c, machine/cgroup.c,
# machine/leftover.c).
. "$TOP_SRCDIR/tests/cli/lib.sh"

# conf FILE ROUNDS [DIR]: arm quiet, and arm load whose background starts
# a sleep in a session of its own, its pid appended to DIR/esc.pid (DIR:
# $tmp).
conf() {
	cat > "$1" <<EOF2
[experiment]
rounds = $2

[arm:quiet]
env.KB_ARM = quiet

[arm:load]
env.KB_ARM = load
background = setsid sh -c 'echo \$\$ >> ${3:-$tmp}/esc.pid; exec sleep 300' & while :; do sleep 0.02; done

[w]
workload = external
command = sh -c 'sleep 0.1; echo 1'
metric.x = (?<value>[0-9]+)
better.x = higher
iterations = 2
warmup = 0
EOF2
}
alive() {	# alive [DIR]: the pids of DIR/esc.pid still running
	for p in $(cat "${1:-$tmp}/esc.pid" 2>/dev/null); do
		kill -0 "$p" 2>/dev/null && echo "$p"
	done
}
recorded() {	# recorded LOCKDIR: until the load's record is whole (its
	# last line the marker), polled finely: a slow kbench (a sanitizer
	# build) writes it after the load's shell has run, and the load runs
	# only while its arm does, a few tenths of a second
	i=0
	while [ $i -lt 250 ] && ! grep -qs '^marker ' "$1"/background.*; do
		sleep 0.02
		i=$((i + 1))
	done
}
cleanup_escaped() {
	for p in $(alive "$@"); do kill -9 "$p"; done
}

conf "$tmp/e.conf" 2
check "an experiment whose load leaves its group completes" \
	kb ab -c "$tmp/e.conf" -n esc --no-report
is "the load started twice, each time leaving its group" "$(wc -l < "$tmp/esc.pid")" 2
is "nothing it started outlives kbench" "$(alive)" ""
is "the load's stored exit says what was killed" \
	"$(sql "SELECT m.value FROM run_meta m JOIN runs r ON r.id = m.run_id
		WHERE r.name = 'esc/load' AND m.key = 'background-exit.round-1'")" \
	"killed by signal 15 (Terminated) (stopped by kbench); 1 process that left its process group killed"
cleanup_escaped

# kill -9 of kbench: the escaped process runs on until the next command,
# which kills it and says so.
rm -f "$tmp/esc.pid"
conf "$tmp/k.conf" 40
"$KBENCH" --db "$db" ab -c "$tmp/k.conf" -n nine --no-report > "$tmp/out" 2>&1 &
pid=$!
wait_until 30 sh -c "[ -s '$tmp/esc.pid' ]" || diag "the load never started"
recorded "$KBENCH_LOCK_DIR"
kill -9 "$pid"
wait "$pid" 2>/dev/null
check "kill -9: the escaped process outlives kbench at first" sh -c "[ -n \"$(alive)\" ]"
if [ -w "$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)" ]; then
	check "kill -9: its record names its cgroup" \
		grep -q "^cgroup .*/kbench/load\.[0-9]*\.[0-9]*\$" "$KBENCH_LOCK_DIR"/background.*
else
	skip "no cgroup2 this user may write: the marker only"
fi
kb recover > "$tmp/rec" 2>&1
diag "kbench recover: $(cat "$tmp/rec")"
check "kill -9: the next command says it killed the load and what left its group" \
	grep -q "killed [0-9]* process[es]* of background process group [0-9]* (background '.*' of arm load) left by a kbench that is gone" "$tmp/rec"
wait_until 10 sh -c "[ -z \"\$(for p in \$(cat '$tmp/esc.pid'); do kill -0 \$p 2>/dev/null && echo \$p; done)\" ]"
ok $? "kill -9: ... and nothing of it is left"
is "kill -9: nothing is left recorded" "$(ls "$KBENCH_LOCK_DIR" | grep -c '^background\.')" 0
cleanup_escaped

# A user who may not make a cgroup: the load's processes are found by the
# marker in their environment.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	nb=$tmp/nb
	chmod 755 "$tmp"
	mkdir "$nb" && chmod 1777 "$nb"
	conf "$nb/e.conf" 2 "$nb"
fi
# Nobody must reach the build tree (not under a directory of mode 0700).
if [ -n "${nb:-}" ] && ! setpriv --reuid=nobody --regid=nogroup --clear-groups \
	test -r "$nb/e.conf" -a -x "$KBENCH" 2>/dev/null; then
	skip "user nobody cannot reach the build tree (a parent directory of mode 0700)"
elif [ -n "${nb:-}" ]; then
	as_nobody() {
		env HOME="$nb" KBENCH_LOCK_DIR="$nb/lock" \
			setpriv --reuid=nobody --regid=nogroup --clear-groups "$KBENCH" \
			--db "$nb/n.db" "$@"
	}
	check "as nobody: an experiment whose load leaves its group completes" \
		as_nobody ab -c "$nb/e.conf" -n esc --no-report
	is "as nobody: the load started twice" "$(wc -l < "$nb/esc.pid")" 2
	is "as nobody: nothing it started outlives kbench" "$(alive "$nb")" ""
	cleanup_escaped "$nb"
	rm -f "$nb/esc.pid"
	conf "$nb/k.conf" 40 "$nb"
	# Not through the function: $! is kbench itself (env and setpriv exec).
	env HOME="$nb" KBENCH_LOCK_DIR="$nb/lock" \
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$KBENCH" \
		--db "$nb/n.db" ab -c "$nb/k.conf" -n nine --no-report >"$tmp/out" 2>&1 &
	pid=$!
	wait_until 30 sh -c "[ -s '$nb/esc.pid' ]" || diag "the load never started"
	recorded "$nb/lock"
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	check "as nobody, kill -9: the escaped process outlives kbench at first" \
		sh -c "[ -n \"$(alive "$nb")\" ]"
	! grep -q "^cgroup " "$nb"/lock/background.*
	ok $? "as nobody, kill -9: its record names no cgroup, only its marker"
	as_nobody recover >"$tmp/rec" 2>&1
	diag "kbench recover: $(cat "$tmp/rec")"
	check "as nobody, kill -9: the next command says it killed the load" \
		grep -q "killed [0-9]* process[es]* of background process group" "$tmp/rec"
	wait_until 10 sh -c "[ -z \"\$(for p in \$(cat '$nb/esc.pid'); do kill -0 \$p 2>/dev/null && echo \$p; done)\" ]"
	ok $? "as nobody, kill -9: ... and nothing of it is left"
	cleanup_escaped "$nb"
else
	skip "not root, or no setpriv: the marker is not tried as another user"
fi

done_testing
