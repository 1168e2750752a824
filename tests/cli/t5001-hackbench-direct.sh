#!/bin/sh
# t5001-hackbench-direct: kbench hackbench runs one sample directly in all
# four variants and prints it as rt-tests hackbench does; open-file limits
# are checked before anything starts; a pinned section stores its plan.
# (Where pinned workers actually run is checked by t5000-hackbench.)
# Covers: workloads/hackbench.c cli/cmd_direct.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

time_sed='s/^Time: [0-9]+\.[0-9]{3}$/Time: N.NNN/'
# time_ok: the last transcript's Time is a positive figure below 10 s.
time_ok() {
	awk '/^Time: / { t = $2 } END { exit !(t > 0 && t < 10) }' "$tmp/tr.out"
}

for mode in process thread; do
	for tr in sockets pipes; do
		flags=
		[ $mode = thread ] && flags=--thread
		[ $tr = pipes ] && flags="${flags:+$flags }--pipe"
		# shellcheck disable=SC2086
		expect_transcript -e "$time_sed" "hackbench $mode $tr prints rt-tests' lines" \
			"$KBENCH" hackbench -g 1 -l 10 $flags <<T
\$ kbench hackbench -g 1 -l 10 $flags
Running in $(echo $mode | sed 's/thread/threaded/') mode with 1 groups using 40 file descriptors each (== 40 tasks)
Each sender will pass 10 messages of 100 bytes
Time: N.NNN
[exit 0]
T
		check "... and a time between 0 and 10 s: $(sed -n 's/^Time: //p' "$tmp/tr.out")" time_ok
	done
done
expect_transcript -e 's/^[0-9]+(\.[0-9]+)?(e-[0-9]+)?$/N/' "--format simple prints one number" \
	"$KBENCH" hackbench -g 2 -l 10 --format simple <<'T'
$ kbench hackbench -g 2 -l 10 --format simple
N
[exit 0]
T
check "... a positive number of seconds: $(cat "$tmp/tr.out")" \
	awk '{ t = $1 } END { exit !(NR == 1 && t > 0 && t < 10) }' "$tmp/tr.out"
expect_transcript -f t5001-hackbench-help.txt "--help lists the flags, options and metrics" \
	"$KBENCH" hackbench --help

for pin in spread compact; do
	expect_transcript -e "$time_sed" "hackbench workers pinned $pin run" \
		"$KBENCH" hackbench -g 1 -l 10 --thread --pin $pin <<T
\$ kbench hackbench -g 1 -l 10 --thread --pin $pin
Running in threaded mode with 1 groups using 40 file descriptors each (== 40 tasks)
Each sender will pass 10 messages of 100 bytes
Time: N.NNN
[exit 0]
T
done
expect_transcript "a two-party policy is not a worker placement" "$KBENCH" hackbench --pin cross-core <<'T'
$ kbench hackbench --pin cross-core
2> kbench: invalid value 'cross-core' for 'pin': expected one of unbound|spread|compact
[exit 2]
T
printf '[hackbench-p]\ngroups = 1\nloops = 10\niterations = 1\npin = spread\n' > "$tmp/pin.conf"
kb --quiet run -c "$tmp/pin.conf" --no-report >/dev/null 2>&1
is "the plan is stored with the run: the PUs kbench topology picks" \
	"$(sql "SELECT value FROM run_meta WHERE key = 'pin_cpus'")" \
	"spread: $("$KBENCH" topology --cpus spread | sed 's/[0-9][0-9]*/P#&/g')"

# 30 groups of threads need ~1200 descriptors: with a hard limit of 256 the
# error comes before the sample starts.
expect_transcript "a hard open-file limit too low is a clear error" \
	sh -c 'ulimit -Sn 256 && ulimit -Hn 256 && exec "$0" hackbench -g 30 --thread' "$KBENCH" <<'T'
$ sh -c 'ulimit -Sn 256 && ulimit -Hn 256 && exec "$0" hackbench -g 30 --thread' kbench
2> kbench: 30 groups in thread mode need 1216 open files but the hard limit (ulimit -Hn) is 256; raise it or use fewer groups
[exit 2]
T
# In process mode the same groups fit: the parent holds few descriptors.
expect_transcript -e "$time_sed" "process mode with many groups needs few descriptors" \
	sh -c 'ulimit -Sn 256 && ulimit -Hn 256 && exec "$0" hackbench -g 30 -l 2' "$KBENCH" <<'T'
$ sh -c 'ulimit -Sn 256 && ulimit -Hn 256 && exec "$0" hackbench -g 30 -l 2' kbench
Running in process mode with 30 groups using 40 file descriptors each (== 1200 tasks)
Each sender will pass 2 messages of 100 bytes
Time: N.NNN
[exit 0]
T
# A soft limit below the need is raised up to the hard limit.
expect_transcript -e "$time_sed" "a low soft limit is raised as needed" \
	sh -c 'ulimit -Sn 64 && ulimit -Hn 4096 && exec "$0" hackbench -g 4 --thread -l 2' "$KBENCH" <<'T'
$ sh -c 'ulimit -Sn 64 && ulimit -Hn 4096 && exec "$0" hackbench -g 4 --thread -l 2' kbench
Running in threaded mode with 4 groups using 40 file descriptors each (== 160 tasks)
Each sender will pass 2 messages of 100 bytes
Time: N.NNN
[exit 0]
T
done_testing
