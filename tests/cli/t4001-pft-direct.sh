#!/bin/sh
# t4001-pft-direct: `kbench pft` runs one sample and prints it in the
# reference pft's columns; -t/-n pick the model and the count, counts
# above the CPUs are capped with a notice, bad sizes are rejected.
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
# The reference's line: GiB, workers, cache lines, user s, system s,
# elapsed s, faults/cpu-s, faults/s.
line='^ *[0-9]+ +WORKERS +1 +[0-9]+\.[0-9][0-9]s +[0-9]+\.[0-9][0-9]s +[0-9]+\.[0-9][0-9]s +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3}$'

run pft -m 64M
checkx "one thread by default: exits 0" '[ $rc -eq 0 ]'
checkx "prints one line in the reference's columns" \
	'[ $(wc -l <"$tmp/out") -eq 1 ] && grep -Eq "$(echo "$line" | sed s/WORKERS/1/)" "$tmp/out"'

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
	ok 0 "# SKIP one CPU: no second worker to kill"
	ok 0 "# SKIP one CPU: no second worker to kill"
fi

run pft -m 64M -t $((cpus + 5))
checkx "more threads than CPUs: capped at $cpus" \
	'[ $rc -eq 0 ] && grep -Eq "$(echo "$line" | sed s/WORKERS/$cpus/)" "$tmp/out"'
checkx "... with a notice" \
	'grep -qx "# flagged: ran $cpus workers, not $((cpus + 5)): capped at the CPUs this process may use" "$tmp/out"'

run pft -m 64M -t 2 --pin compact
checkx "--pin compact: workers run on their slots, no flag" \
	'[ $rc -eq 0 ] && grep -Eq "$(echo "$line" | sed s/WORKERS/$want/)" "$tmp/out" && [ $(wc -l <"$tmp/out") -eq 1 ]'
run pft -m 64M -n 2 --pin cross-core
checkx "a two-party pin policy rejected" \
	'[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "kbench: invalid value '"'"'cross-core'"'"' for '"'"'pin'"'"': expected one of unbound|spread|compact" ]'

run pft -m 0
checkx "size 0 rejected" \
	'[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "kbench: '"'"'mapping_size'"'"' is 0 bytes: the mapping must hold at least one page" ] && [ ! -s "$tmp/out" ]'

run pft -m lots
checkx "a size that is not a number rejected" \
	'[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "kbench: invalid value '"'"'lots'"'"' for '"'"'mapping_size'"'"': expected a size in bytes (e.g. 4096, 64k, 64M, 2G, or 20% of MemTotal)" ]'

mem_mib=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
run pft -m $((mem_mib * 2))M
checkx "a size above MemTotal rejected" \
	'[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "kbench: '"'"'mapping_size'"'"' of $((mem_mib * 2)) MiB is larger than this machine'"'"'s memory ($mem_mib MiB)" ]'

run pft -m 64M -t 0
checkx "zero workers rejected" \
	'[ $rc -eq 2 ] && grep -q "invalid value 0 in '"'"'0'"'"' for '"'"'workers'"'"'" "$tmp/err"'

run pft --help
checkx "--help lists the flags and the options" \
	'[ $rc -eq 0 ] && grep -q -- "-t, --threads N" "$tmp/out" && grep -q -- "-n, --processes N" "$tmp/out" &&
	 grep -q -- "-m, --mapping-size N" "$tmp/out" && grep -q "^  mapping_size " "$tmp/out" &&
	 grep -q "^  model " "$tmp/out" && grep -q "^  faults/sec " "$tmp/out"'

done_testing
