#!/bin/sh
# t7100-store-liveness: a run stores its writer's boot id and process start
# time beside its pid, and a run still marked running reads as running
# only while that very process lives: a pid now alive in another boot, or
# alive but started at another time (a reused pid, pid 1 of a namespace),
# reads as interrupted. Runs stored without them keep the pid rule.
# Covers: db/liveness.c machine/sysinfo.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

if [ ! -r /proc/sys/kernel/random/boot_id ] || [ ! -r /proc/$$/stat ]; then
	skip "no /proc boot id or process start times here"
	done_testing
	exit
fi

printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 1\n' > "$tmp/tiny.conf"
check "a run is stored" kb --quiet run -c "$tmp/tiny.conf" -n live --no-report

boot=$(cat /proc/sys/kernel/random/boot_id)
got=$(sql "SELECT boot_id FROM runs WHERE name = 'live'")
check "the run's boot id is this boot's ($got)" test "$got" = "$boot"
got=$(sql "SELECT pid_start_ticks > 0 FROM runs WHERE name = 'live'")
check "and its process start time is stored" test "$got" = 1

# Field 22 of /proc/PID/stat, the start time, is the 20th after the
# command name's closing parenthesis. This shell stands in for a writer
# that is still running.
me=$$
start=$(sed 's/.*) //' /proc/$me/stat | cut -d' ' -f20)

status_of() {	# status_of PID BOOT START: the status runs shows for it
	sql_write "UPDATE runs SET status = 'running', finished_at = NULL, pid = $1,
		boot_id = $2, pid_start_ticks = $3 WHERE name = 'live'"
	run_status live
}

expect_status() {	# expect_status DESCRIPTION WANT PID BOOT START
	got=$(status_of "$3" "$4" "$5")
	if [ "$got" = "$2" ]; then
		ok 0 "$1: $2"
	else
		ok 1 "$1: $2"
		diag "runs says '$got' for pid $3, boot $4, start $5"
	fi
}

expect_status "its writer alive, this boot, the same start" running "$me" "'$boot'" "$start"
expect_status "the pid alive but in another boot" interrupted "$me" \
	"'00000000-0000-0000-0000-000000000000'" "$start"
expect_status "the pid alive but started at another time (reused)" interrupted "$me" \
	"'$boot'" "$((start + 1))"
expect_status "pid 1 of a pid namespace, alive on the host" interrupted 1 "'$boot'" "$start"
# A run stored before boot ids: alive only while a kbench process has
# its pid (a copy of sleep named kbench stands in for one).
cp "$(command -v sleep)" "$tmp/kbench"
"$tmp/kbench" 60 &
kbpid=$!
expect_status "a run stored before boot ids, a kbench process has its pid" running "$kbpid" NULL NULL
kill "$kbpid"
wait "$kbpid" 2>/dev/null
expect_status "a run stored before boot ids, pid 1 (not kbench)" interrupted 1 NULL NULL
expect_status "a run stored before boot ids, its pid alive but not kbench" interrupted "$me" NULL NULL
expect_status "a run stored before boot ids, its pid gone" interrupted 2147483646 NULL NULL
kb show '#1' >"$tmp/out" 2>&1
check "show agrees" grep -q '^  status      interrupted$' "$tmp/out"
done_testing
