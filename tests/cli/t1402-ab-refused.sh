#!/bin/sh
# A knob the kernel refuses, or one that is not there, stops kbench ab
# before any sample: no knob is left changed, the journal is empty, and
# the message names the knob. A config without two arms is an error, and
# so is a knob whose glob leads out of /sys.
# Covers: experiment/knob.c experiment/experiment_design.c cli/cmd_ab.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-ab.sh"
ab_need_knobs
ab_save
before=$(ab_values)

# percpu_pagelist_high_fraction takes 0 or 8 and more: 3 is refused,
# after the slab glob of the same arm has been written.
ab_conf "$tmp/x.conf" "sysfs.$slab_glob = 0" "sysctl.vm.percpu_pagelist_high_fraction = 3"
expect_err "a refused value stops the experiment" 2 \
	"refused '3'" kb ab -c "$tmp/x.conf" --no-report
check "it says no sample was taken" grep -q 'stopped before any sample' "$tmp/err"
is "no sample was taken" "$(sql 'SELECT count(*) FROM samples')" 0
is "no run was made" "$(sql 'SELECT count(*) FROM runs')" 0
is "every knob reads its original value" "$(ab_values)" "$before"
is "the journal is empty" "$(journal_rows)" 0
is "the experiment is marked failed" "$(sql 'SELECT status FROM experiments')" failed

# THP's enabled takes always, madvise, never only.
ab_conf "$tmp/y.conf" "sysfs.$thp = sometimes"
expect_err "a value THP does not offer stops it too" 2 "$thp" kb ab -c "$tmp/y.conf" --no-report
is "every knob reads its original value" "$(ab_values)" "$before"

ab_conf "$tmp/z.conf" "sysfs./sys/kernel/slab/no-such-cache/cpu_partial = 0"
expect_err "a knob that is not there is a config error" 2 \
	"no file matches /sys/kernel/slab/no-such-cache/cpu_partial" kb ab -c "$tmp/z.conf"
ab_conf "$tmp/w.conf" "sysctl.vm.../x = 1"
expect_err "a sysctl name may not climb out of /proc/sys" 2 "names no sysctl" \
	kb ab -c "$tmp/w.conf"
# A glob may climb out of /sys where the key's text does not: .? and .*
# and .[.] match "..". Where a path leads is checked, and nothing there
# is read as a knob or written.
printf '5\n' > "$tmp/victim"
for g in '.?' '.*' '.[.]'; do
	ab_conf "$tmp/u.conf" "sysfs./sys/$g$tmp/victim = 32"
	expect_err "sysfs./sys/$g/... leading out of /sys is refused" 2 \
		"leads to $tmp/victim, outside /sys and /proc/sys: not a knob" kb ab -c "$tmp/u.conf"
done
is "the file outside /sys is unchanged" "$(cat "$tmp/victim")" 5
ab_conf "$tmp/v.conf" "cpu_partial = 0"
expect_err "an unknown arm key is named with its line" 2 \
	"unknown key 'cpu_partial' in [arm:test]" kb ab -c "$tmp/v.conf"
printf '[arm:only]\n[hackbench-process-pipes]\nloops = 10\n' > "$tmp/one.conf"
expect_err "one arm is not an experiment" 2 "two arms or more" kb ab -c "$tmp/one.conf"
is "nothing was run by the config errors" "$(sql 'SELECT count(*) FROM runs')" 0

done_testing
