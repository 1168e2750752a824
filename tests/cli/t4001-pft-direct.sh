#!/bin/sh
# t4001-pft-direct: `kbench pft` runs one sample and prints it in the
# reference pft's columns; -t/-n pick the model and the count, counts
# above the CPUs are capped with a notice, bad sizes are rejected.
# Covers: workloads/pft.c cli/cmd_direct.c machine/procinfo.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# check, with the command as one string, and its output shown on failure.
checkx() {
	if eval "$2"; then
		ok 0 "$1"
	else
		ok 1 "$1"
		sed 's/^/#   /' "$tmp/out" "$tmp/err"
	fi
}
run() { "$KBENCH" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }

cpus=$(nproc)
# The reference's line: size (64M here), workers, cache lines, user s,
# system s, elapsed s, faults/cpu-s, faults/s; under the title -T prints.
title='  Size  Thr CLine      User    System      Wall   flt/cpu/s fault/wsec'
line='^ +64M +WORKERS +1 +[0-9]+\.[0-9][0-9]s +[0-9]+\.[0-9][0-9]s +[0-9]+\.[0-9][0-9]s +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3}$'

run pft -m 64M
checkx "one thread by default: exits 0" '[ $rc -eq 0 ]'
checkx "prints a title and one line in the reference's columns, the size in MiB" \
	'[ $(wc -l <"$tmp/out") -eq 2 ] && [ "$(head -n 1 "$tmp/out")" = "$title" ] &&
	 tail -n 1 "$tmp/out" | grep -Eq "$(echo "$line" | sed s/WORKERS/1/)"'

run pft -m 64M -t 2
want=2; [ "$cpus" -lt 2 ] && want=$cpus
checkx "-t 2 runs $want threads" \
	'[ $rc -eq 0 ] && grep -Eq "$(echo "$line" | sed s/WORKERS/$want/)" "$tmp/out"'

run pft -m 64M --processes 2
checkx "--processes 2 runs $want processes" \
	'[ $rc -eq 0 ] && grep -Eq "$(echo "$line" | sed s/WORKERS/$want/)" "$tmp/out"'

# The model shows in how a killed worker ends: a worker process is
# reaped and named; a worker thread takes the sample's process with it.
if [ "$cpus" -ge 2 ]; then
	run pft -m 64M -n 2 -o kill_worker=1
	checkx "-n: a killed worker process becomes an error naming it" \
		'[ $rc -eq 1 ] && grep -Eq "^kbench: pft: worker 1 \(pid [0-9]+\) was killed by signal 9 \(Killed\)$" "$tmp/err"'
	run pft -m 64M -t 2 -o kill_worker=1
	checkx "-t: a killed worker thread ends the sample's process, reported" \
		'[ $rc -eq 1 ] && grep -q "killed by signal 9" "$tmp/err" && ! grep -q "worker 1 (pid" "$tmp/err"'
else
	skip "one CPU: no second worker to kill"
	skip "one CPU: no second worker to kill"
fi

run pft -m 64M -t $((cpus + 5))
checkx "more threads than CPUs: capped at $cpus" \
	'[ $rc -eq 0 ] && grep -Eq "$(echo "$line" | sed s/WORKERS/$cpus/)" "$tmp/out"'
checkx "... with a notice" \
	'grep -qx "# flagged: ran $cpus workers, not $((cpus + 5)): capped at the CPUs this process may use" "$tmp/out"'

run pft -m 64M -t 2 --pin compact
checkx "--pin compact: workers run on their slots, no flag" \
	'[ $rc -eq 0 ] && grep -Eq "$(echo "$line" | sed s/WORKERS/$want/)" "$tmp/out" && [ $(wc -l <"$tmp/out") -eq 2 ]'
expect_transcript "a two-party pin policy rejected" "$KBENCH" pft -m 64M -n 2 --pin cross-core <<'T'
$ kbench pft -m 64M -n 2 --pin cross-core
2> kbench: invalid value 'cross-core' for 'pin': expected one of unbound|spread|compact
[exit 2]
T
expect_transcript "size 0 rejected" "$KBENCH" pft -m 0 <<'T'
$ kbench pft -m 0
2> kbench: 'mapping_size' is 0 bytes: the mapping must hold at least one page
[exit 2]
T
expect_transcript "a size that is not a number rejected" "$KBENCH" pft -m lots <<'T'
$ kbench pft -m lots
2> kbench: invalid value 'lots' for 'mapping_size': expected a size in bytes (e.g. 4096, 64k, 64M, 2G, or 20% of MemTotal)
[exit 2]
T
mem_mib=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
expect_transcript "a size above MemTotal rejected" "$KBENCH" pft -m $((mem_mib * 2))M <<T
\$ kbench pft -m $((mem_mib * 2))M
2> kbench: 'mapping_size' of $((mem_mib * 2)) MiB is larger than this machine's memory ($mem_mib MiB)
[exit 2]
T
expect_transcript "zero workers rejected" "$KBENCH" pft -m 64M -t 0 <<'T'
$ kbench pft -m 64M -t 0
2> kbench: invalid value 0 in '0' for 'workers': expected a list of integers from 1 to 4096 ("1 2 4" or stride:MIN..MAX[,max=CAP])
[exit 2]
T
expect_transcript -f t4001-pft-help.txt "--help lists the flags, the options and the metrics" \
	"$KBENCH" pft --help

done_testing
