#!/bin/sh
# Pin preference lists: 'pin = a,b' takes the first policy the machine
# allows and the run stores the one used; a policy that is not possible
# names the ones that are.
# Covers: machine/pin.c runner/plan.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# Two cores in two last-level caches: no cross-core here.
two_llc="pack:1 l3:2 core:1 pu:1"
expect_transcript "a list falls back to the first possible policy" \
	"$KBENCH" topology --synthetic "$two_llc" --cpus cross-core,cross-llc <<'T'
$ kbench topology --synthetic 'pack:1 l3:2 core:1 pu:1' --cpus cross-core,cross-llc
0 1
[exit 0]
T
expect_transcript "an impossible policy names the possible ones" \
	"$KBENCH" topology --synthetic "$two_llc" --cpus cross-core <<'T'
$ kbench topology --synthetic 'pack:1 l3:2 core:1 pu:1' --cpus cross-core
2> kbench: pin policy 'cross-core' needs two cores sharing a last-level cache; this topology has 1 package, 1 NUMA node, 2 LLCs (L3), 2 cores, 2 PUs; possible here: unbound, same-pu, cross-llc
[exit 1]
T
expect_transcript "a list of impossible policies names the possible ones" \
	"$KBENCH" topology --synthetic "$two_llc" --cpus cross-ht,cross-socket <<'T'
$ kbench topology --synthetic 'pack:1 l3:2 core:1 pu:1' --cpus cross-ht,cross-socket
2> kbench: none of the pin policies 'cross-ht,cross-socket' is possible on this topology (1 package, 1 NUMA node, 2 LLCs (L3), 2 cores, 2 PUs); possible here: unbound, same-pu, cross-llc
[exit 1]
T

printf '[netperf-a]\ntest = TCP_RR\npin = cross-core,cross-lcc\n' > "$tmp/bad.conf"
expect_transcript "every item of a list is checked" \
	kb run -c "$tmp/bad.conf" --dry-run <<'T'
$ kb run -c TMP/bad.conf --dry-run
2> kbench: TMP/bad.conf:3: invalid value 'cross-core,cross-lcc' for 'pin': expected one of unbound|same-pu|cross-ht|cross-core|cross-llc|cross-node|cross-socket (in [netperf-a])
[exit 2]
T

# A run stores the policy it used, the first of the list this machine allows.
list=cross-socket,cross-node,cross-core,cross-llc,same-pu
used=
for policy in $(echo $list | tr , ' '); do
	if "$KBENCH" topology --cpus $policy >/dev/null 2>&1; then
		used=$policy
		break
	fi
done
printf '[netperf-a]\ntest = TCP_RR\nduration = 0.2\niterations = 1\npin = %s\n' "$list" \
	> "$tmp/list.conf"
check "a run with a pin list" kb --quiet run -c "$tmp/list.conf"
kb show '#1' >"$tmp/show" 2>&1
is "the run stores the policy used ($used), not the list" \
	"$(awk '$1 == "pin" { print $2 }' "$tmp/show")" "$used"
is "and its CPUs" "$(awk '$1 == "pin_cpus" { print $2 }' "$tmp/show")" "$used:"

done_testing
