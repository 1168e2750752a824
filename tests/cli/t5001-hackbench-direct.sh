#!/bin/sh
# kbench hackbench runs one sample directly in all four variants and
# prints it as rt-tests hackbench does; open-file limits are checked
# before anything starts.
. "$TOP_SRCDIR/tests/cli/lib.sh"

for mode in "" --thread; do
	for tr in "" --pipe; do
		"$KBENCH" hackbench -g 1 -l 10 $mode $tr >"$tmp/out" 2>&1
		check "hackbench ${mode:-process} ${tr:-sockets} prints Time:" \
			grep -Eq '^Time: [0-9]+\.[0-9]{3}$' "$tmp/out"
	done
done
check "the header names the tasks like rt-tests" \
	grep -q 'with 1 groups using 40 file descriptors each (== 40 tasks)' "$tmp/out"
v=$("$KBENCH" hackbench -g 2 -l 10 --format simple)
check "--format simple prints one positive number ($v)" \
	awk -v v="$v" 'BEGIN { exit !(v + 0 > 0 && v ~ /^[0-9.]+$/) }'
"$KBENCH" hackbench --help >"$tmp/help"
check "--help lists the flags and options" \
	sh -c "grep -q -- '--pipe' '$tmp/help' && grep -q 'transport' '$tmp/help'"

for pin in spread compact; do
	"$KBENCH" hackbench -g 1 -l 10 --thread --pin $pin >"$tmp/out" 2>&1
	check "hackbench workers pinned $pin run" grep -q '^Time:' "$tmp/out"
done
expect_err "a two-party policy is not a worker placement" 2 "one of unbound|spread|compact" \
	"$KBENCH" hackbench --pin cross-core
printf '[hackbench-p]\ngroups = 1\nloops = 10\niterations = 1\npin = spread\n' > "$tmp/pin.conf"
kb --quiet run -c "$tmp/pin.conf" --no-report >/dev/null 2>&1
check "the chosen PUs are stored with the run" \
	test "$(sql "SELECT count(*) FROM run_meta WHERE key = 'pin_cpus' AND value LIKE 'spread: P#%'")" = 1

# 30 groups of threads need ~1200 descriptors: with a hard limit of 256 the
# error comes before the sample starts.
expect_err "a hard open-file limit too low is a clear error" 2 "hard limit (ulimit -Hn) is 256" \
	sh -c "ulimit -Sn 256 && ulimit -Hn 256 && exec \"\$0\" hackbench -g 30 --thread" "$KBENCH"
# In process mode the same groups fit: the parent holds few descriptors.
sh -c "ulimit -Sn 256 && ulimit -Hn 256 && exec \"\$0\" hackbench -g 30 -l 2" "$KBENCH" >"$tmp/out" 2>&1
check "process mode with many groups needs few descriptors" grep -q '^Time:' "$tmp/out"
# A soft limit below the need is raised up to the hard limit.
sh -c "ulimit -Sn 64 && ulimit -Hn 4096 && exec \"\$0\" hackbench -g 4 --thread -l 2" "$KBENCH" >"$tmp/out" 2>&1
check "a low soft limit is raised as needed" grep -q '^Time:' "$tmp/out"
done_testing
