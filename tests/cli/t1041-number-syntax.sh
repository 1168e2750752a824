#!/bin/sh
# Numbers are decimal: a timeout or a size written in hex ("0x10"), as
# "infinity" or "nan(...)", is refused by the one parser that configs and
# direct mode's --timeout share, naming the key and what it expects;
# blanks around a number are allowed, as for integers.
# Covers: workloads/params.c runner/conf.c cli/cmd_direct.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

for v in 0x10 0X10 0x1p3 infinity INF 'nan(1)' 1e 1.5e+ '+' .; do
	printf '[hackbench-t]\ngroups = 1\nloops = 1\ntimeout = %s\n' "$v" > "$tmp/t.conf"
	expect_err "config timeout '$v' is refused" 2 \
		"t.conf:4: invalid value '$v' for 'timeout': expected a number from 0.001 to 1e+07 (in [hackbench-t])" \
		kb run -c "$tmp/t.conf" --dry-run
	expect_err "--timeout '$v' is refused" 2 \
		"invalid value '$v' for --timeout: expected seconds, a number from 0.001 to 1e+07" \
		"$KBENCH" hackbench -g 1 -l 1 --timeout "$v"
done
check "nothing is stored for them" test ! -e "$db"

for v in 2.5 10 1e1 .5 5. +3 ' 5' '5 '; do
	printf '[hackbench-t]\ngroups = 1\nloops = 1\ntimeout = %s\n' "$v" > "$tmp/t.conf"
	kb run -c "$tmp/t.conf" --dry-run >"$tmp/out" 2>"$tmp/err"
	ok $? "config timeout '$v' is taken"
	[ -s "$tmp/err" ] && comment "$tmp/err"
done
for v in 1e1 ' 5'; do
	"$KBENCH" hackbench -g 1 -l 1 --timeout "$v" >"$tmp/out" 2>"$tmp/err"
	ok $? "--timeout '$v' is taken"
	[ -s "$tmp/err" ] && comment "$tmp/err"
done

# Sizes take the same number before their unit.
for v in 0x10k 0x10 infk nan; do
	printf '[pft-t]\nmapping_size = %s\n' "$v" > "$tmp/s.conf"
	expect_err "size '$v' is refused" 2 \
		"s.conf:2: invalid value '$v' for 'mapping_size': expected a size in bytes" \
		kb run -c "$tmp/s.conf" --dry-run
done
printf '[pft-t]\nmapping_size = 1.5M\n' > "$tmp/s.conf"
kb run -c "$tmp/s.conf" --dry-run >"$tmp/out" 2>"$tmp/err"
ok $? "a decimal size with a unit is taken"
done_testing
