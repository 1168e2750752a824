#!/bin/sh
# A plan is checked whole before anything runs: more samples than a run
# may hold is refused, naming the section that takes it over, and the
# count printed by --dry-run is exact however large; a timeout no sample
# can fit in is refused; direct mode's --timeout takes what configs take.
# Covers: runner/plan.c runner/dryrun.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# 3001 rows x (1000000 + 1000) samples: more than an int counts.
{
	printf '[hackbench-small]\ngroups = 1\niterations = 3\n\n'
	printf '[hackbench-huge]\ngroups = 1\n'
	seq 2 3001 | paste -d' ' - - - - - - - - - - | sed 's/^/  /'
	printf 'iterations = 1000000\nwarmup = 1000\n'
} > "$tmp/huge.conf"
expect_err "a plan over the maximum is refused, naming its section" 2 \
	"huge.conf:5: [hackbench-huge] brings the plan to 3004001003 samples (3001 rows x (1000000 iterations + 1000 warm-up)); a run holds at most 10000000" \
	kb run -c "$tmp/huge.conf" --dry-run
check "nothing is stored for it" test ! -e "$db"

# Just under the maximum: accepted, and counted exactly.
printf '[hackbench-big]\ngroups = 1 2 3 4 5 6 7 8 9 10\niterations = 999000\nwarmup = 1000\n' \
	> "$tmp/big.conf"
kb run -c "$tmp/big.conf" --dry-run >"$tmp/out" 2>"$tmp/err"
ok $? "a plan of exactly the maximum is accepted"
check "its count is printed whole" grep -qx '10000000 samples in all (warm-up included)' "$tmp/out"
printf '[hackbench-over]\ngroups = 1 2 3 4 5 6 7 8 9 10\niterations = 999001\nwarmup = 1000\n' \
	> "$tmp/over.conf"
expect_err "one sample more is refused" 2 "brings the plan to 10000010 samples" \
	kb run -c "$tmp/over.conf" --dry-run

# netperf's samples last their duration: a shorter timeout cannot work.
printf '[netperf-long]\nduration = 3600\ntimeout = 5\n' > "$tmp/np.conf"
expect_err "a timeout shorter than netperf's duration is refused, with both values" 2 \
	"np.conf:3: timeout = 5 in [netperf-long] cannot fit one sample, which takes at least 3600 s (duration = 3600)" \
	kb run -c "$tmp/np.conf" --dry-run
printf '[global]\ntimeout = 10\n\n[netperf-a]\nduration = 10\n' > "$tmp/np-global.conf"
expect_err "a timeout from [global] is named where it is set" 2 \
	"np-global.conf:2: timeout = 10 in [netperf-a] cannot fit one sample" \
	kb run -c "$tmp/np-global.conf" --dry-run
printf '[netperf-day]\nduration = 3600\n' > "$tmp/np-default.conf"
expect_err "so is the default timeout" 2 \
	"np-default.conf:1: [netperf-day] the default timeout of 600 s cannot fit one sample, which takes at least 3600 s (duration = 3600): set 'timeout'" \
	kb run -c "$tmp/np-default.conf" --dry-run
printf '[netperf-ok]\nduration = 3600\ntimeout = 3700\n\n[hackbench-quick]\ngroups = 1\ntimeout = 0.001\n' \
	> "$tmp/fits.conf"
kb run -c "$tmp/fits.conf" --dry-run >"$tmp/out" 2>"$tmp/err"
ok $? "a timeout longer than the duration passes; hackbench has no minimum"

# Direct mode's --timeout and the config key agree on every value.
for v in nan inf -inf 1e300 0 -1 0.0005 0x10 2.5; do
	printf '[hackbench-t]\ngroups = 1\nloops = 1\ntimeout = %s\n' "$v" > "$tmp/t.conf"
	kb run -c "$tmp/t.conf" --dry-run >/dev/null 2>&1
	conf_rc=$?
	"$KBENCH" hackbench -g 1 -l 1 --timeout "$v" >/dev/null 2>"$tmp/err"
	direct_rc=$?
	if [ "$conf_rc" -eq "$direct_rc" ]; then ok 0 "timeout $v: config and --timeout agree (exit $conf_rc)"
	else ok 1 "timeout $v: config exits $conf_rc, --timeout exits $direct_rc"; sed 's/^/#   /' "$tmp/err"; fi
done
expect_err "a refused --timeout says what is expected" 2 \
	"invalid value 'nan' for --timeout: expected seconds, a number from 0.001 to 1e+07" \
	"$KBENCH" hackbench -g 1 --timeout nan
done_testing
