#!/bin/sh
# t1316-everyday-pin-notice: a pin preference list whose first policies
# this machine cannot honour says, before anything runs, which policy it
# uses and why it passed over the others (the unit test t0400 checks the
# words on synthetic topologies); a list whose first policy is possible
# says nothing.
# Covers: machine/pin.c runner/plan.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# The policies of the list this machine cannot honour, in order, each
# with what it needs (from kbench topology's refusal), then the first it
# can.
list=cross-socket,cross-node,cross-ht,cross-core,cross-llc,same-pu
used= needs=
for policy in $(echo $list | tr , ' '); do
	if "$KBENCH" topology --cpus "$policy" >/dev/null 2>"$tmp/why"; then
		used=$policy
		break
	fi
	why=$(sed -n "s/^kbench: pin policy \\('$policy' needs [^;]*\\);.*/\\1/p" "$tmp/why")
	needs="$needs${needs:+, }$why"
	has=$(sed -n 's/^kbench: pin policy [^;]*; \(this machine has [^;]*\);.*/\1/p' "$tmp/why")
done
if [ -z "$needs" ]; then
	skip "this machine honours $used, the first policy of the list"
	done_testing
	exit
fi
check "this machine honours a policy of the list ($used)" test -n "$used"

printf '[netperf-a]\ntest = TCP_RR\nduration = 0.2\niterations = 1\npin = %s\n' "$list" \
	>"$tmp/list.conf"
kb run -c "$tmp/list.conf" --dry-run >"$tmp/out" 2>"$tmp/err"
ok $? "a dry run of a config with the list"
is "it names the policy used and why the first ones were passed over" "$(cat "$tmp/err")" \
	"kbench: notice: [netperf-a] pin: using $used, the first possible of '$list': $needs; $has"
kb --quiet run -c "$tmp/list.conf" --dry-run >"$tmp/out" 2>"$tmp/err"
is "--quiet silences it" "$(cat "$tmp/err")" ""

printf '[netperf-a]\ntest = TCP_RR\nduration = 0.2\niterations = 1\npin = %s,%s\n' \
	"$used" "$list" >"$tmp/first.conf"
kb run -c "$tmp/first.conf" --dry-run >"$tmp/out" 2>"$tmp/err"
is "a list whose first policy is possible says nothing" "$(cat "$tmp/err")" ""

kb netperf -t TCP_RR -l 0.2 --pin "$list" >"$tmp/out" 2>"$tmp/err"
ok $? "kbench netperf with the list runs"
is "... and says the same" "$(grep 'pin:' "$tmp/err")" \
	"kbench: notice: pin: using $used, the first possible of '$list': $needs; $has"

done_testing
