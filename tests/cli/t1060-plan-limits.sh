#!/bin/sh
# A plan is checked whole before anything runs: more samples than a run
# may hold is refused, naming the section that takes it over, and the
# count printed by --dry-run is exact however large.
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
done_testing
