#!/bin/sh
# t0401-pin-topology: kbench topology shows the machine and the PUs
# each pin policy picks, here and on synthetic and XML topologies.
. "$TOP_SRCDIR/tests/cli/lib.sh"

big="pack:2 numa:2 l3:2 core:8 pu:2"

"$KBENCH" topology >"$tmp/out" 2>"$tmp/err"
ok $? "kbench topology runs: $(cat "$tmp/err")"
grep -Eq '^Machine: [0-9]+ packages?, [0-9]+ NUMA nodes?, .*[0-9]+ cores?, [0-9]+ PUs?$' "$tmp/out" &&
	[ "$(grep -Ec '^  (unbound|same-pu|cross-ht|cross-core|cross-llc|cross-node|cross-socket|spread|compact) ' "$tmp/out")" -eq 10 ]
ok $? "it describes this machine and all nine policies"

"$KBENCH" topology --synthetic "$big" >"$tmp/out" 2>"$tmp/err"
ok $? "a synthetic topology: $(cat "$tmp/err")"
grep -qx 'Machine: 2 packages, 4 NUMA nodes, 8 LLCs (L3), 64 cores, 128 PUs' "$tmp/out" &&
	grep -qx '  cross-core    server P#0, client P#2' "$tmp/out" &&
	grep -qx '  cross-llc     server P#0, client P#16' "$tmp/out" &&
	grep -qx '  cross-node    server P#0, client P#32' "$tmp/out" &&
	grep -qx '  cross-socket  server P#0, client P#64' "$tmp/out" &&
	grep -q '^  spread        P#0 P#64 P#32 P#96 P#16 P#80 P#48 P#112 P#2 ' "$tmp/out" &&
	grep -qx '    Core L#63 P#63: PU L#126 P#126, PU L#127 P#127' "$tmp/out"
ok $? "the policies' PUs on $big"

out=$("$KBENCH" topology --synthetic "$big" --workers 3 --cpus spread 2>&1)
[ "$out" = "0 64 32" ]
ok $? "--cpus spread with 3 workers: $out"

xml="$TOP_SRCDIR/tests/data/topo-1pack-4llc-32pu.xml"
out=$("$KBENCH" topology --xml "$xml" --cpus cross-llc 2>&1)
[ "$out" = "0 8" ]
ok $? "--cpus cross-llc on a chiplet XML topology: $out"

out=$("$KBENCH" topology --xml "$xml" --cpus cross-node 2>&1)
rc=$?
[ $rc -ne 0 ] && [ "$out" = "kbench: pin policy 'cross-node' needs two NUMA nodes; this topology has 1 package, 1 NUMA node, 4 LLCs (L3), 16 cores, 32 PUs" ]
ok $? "a policy the topology cannot honour: $out"

out=$("$KBENCH" topology --xml "$xml" 2>&1)
echo "$out" | grep -qx '  cross-node    not possible: needs two NUMA nodes'
ok $? "the listing says which policies are not possible"

out=$("$KBENCH" topology --xml "$tmp/missing.xml" 2>&1)
rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "^kbench: cannot read topology XML '$tmp/missing.xml'"
ok $? "a missing XML file: $out"

"$KBENCH" topology --bogus >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 129 ] && [ "$(head -n 1 "$tmp/err")" = "kbench: unknown option '--bogus'" ]
ok $? "an unknown option: $(head -n 1 "$tmp/err")"

"$KBENCH" topology --help >"$tmp/out" 2>&1
grep -q '^usage: kbench topology' "$tmp/out" && grep -q -- '--cpus POLICY' "$tmp/out"
ok $? "--help"

done_testing
