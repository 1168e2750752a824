#!/bin/sh
# t0401-pin-topology: kbench topology shows the machine and the PUs each
# pin policy picks: on synthetic and XML topologies as whole transcripts,
# here checked against its own --cpus answers and its tree.
# Covers: cli/cmd_topology.c machine/pin.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

big="pack:2 numa:2 l3:2 core:8 pu:2"
xml="$TOP_SRCDIR/tests/data/topo-1pack-4llc-32pu.xml"
xml2="$TOP_SRCDIR/tests/data/topo-2pack-4node-8llc-128pu.xml"

# This machine: whatever it is, the listing must agree with itself.
"$KBENCH" topology >"$tmp/out" 2>"$tmp/err"
ok $? "kbench topology runs"
is "... and says nothing on stderr" "$(cat "$tmp/err")" ""
check "the first line counts packages, NUMA nodes, caches, cores and PUs" \
	grep -Eq '^Machine: [0-9]+ packages?, [0-9]+ NUMA nodes?, .+, [0-9]+ cores?, [0-9]+ PUs?$' "$tmp/out"
is "... as many cores and PUs as the tree below lists" \
	"$(sed -En '1s/.* ([0-9]+) cores?, ([0-9]+) PUs?$/\1 \2/p' "$tmp/out")" \
	"$(grep -c '^ *Core L#' "$tmp/out") $(grep -o 'PU L#' "$tmp/out" | wc -l | tr -d ' ')"
is "every policy is listed once, in the table's order" \
	"$(sed -En 's/^  (unbound|same-pu|cross-ht|cross-core|cross-llc|cross-node|cross-socket|spread|compact) .*/\1/p' "$tmp/out" | tr '\n' ' ')" \
	"unbound same-pu cross-ht cross-core cross-llc cross-node cross-socket unbound spread compact "
for p in same-pu cross-ht cross-core cross-llc cross-node cross-socket spread compact; do
	line=$(grep -m 1 "^  $p " "$tmp/out" | sed -E "s/^  $p +//")
	if cpus=$("$KBENCH" topology --cpus $p 2>"$tmp/cpus-err"); then
		case $p in
		spread | compact) want=$(echo "$cpus" | sed -E 's/([0-9]+)/P#\1/g') ;;
		*) set -- $cpus; want="server P#$1, client P#$2" ;;
		esac
		is "$p: the listing names the PUs --cpus picks ($cpus)" "$line" "$want"
	else
		is "$p: the listing says it is not possible, and why, as --cpus does" "$line" \
			"not possible: $(sed -n "s/^kbench: pin policy '$p' \([^;]*\); this machine has .*/\1/p" "$tmp/cpus-err")"
	fi
done

expect_transcript -f t0401-synthetic.txt "the policies' PUs on $big" \
	"$KBENCH" topology --synthetic "$big"
expect_transcript "--cpus spread with 3 workers" \
	"$KBENCH" topology --synthetic "$big" --workers 3 --cpus spread <<'T'
$ kbench topology --synthetic 'pack:2 numa:2 l3:2 core:8 pu:2' --workers 3 --cpus spread
0 64 32
[exit 0]
T
expect_transcript -f t0401-xml-1pack.txt "a chiplet XML topology: policies it cannot honour say so" \
	"$KBENCH" topology --xml "$xml"
expect_transcript -f t0401-xml-2pack.txt "a two-package XML topology" \
	"$KBENCH" topology --xml "$xml2"
expect_transcript "--cpus cross-llc on a chiplet XML topology" \
	"$KBENCH" topology --xml "$xml" --cpus cross-llc <<'T'
$ kbench topology --xml SRCDIR/tests/data/topo-1pack-4llc-32pu.xml --cpus cross-llc
0 8
[exit 0]
T
expect_transcript "a policy the topology cannot honour is an error naming what it has" \
	"$KBENCH" topology --xml "$xml" --cpus cross-node <<'T'
$ kbench topology --xml SRCDIR/tests/data/topo-1pack-4llc-32pu.xml --cpus cross-node
2> kbench: pin policy 'cross-node' needs two NUMA nodes; this topology has 1 package, 1 NUMA node, 4 LLCs (L3), 16 cores, 32 PUs; possible here: unbound, same-pu, cross-ht, cross-core, cross-llc
[exit 1]
T
expect_transcript "a missing XML file" "$KBENCH" topology --xml "$tmp/missing.xml" <<'T'
$ kbench topology --xml TMP/missing.xml
2> kbench: cannot read topology XML 'TMP/missing.xml': No such file or directory
[exit 1]
T
expect_transcript -f t0401-bogus.txt "an unknown option, then the usage" "$KBENCH" topology --bogus
expect_transcript -f t0401-help.txt "--help" "$KBENCH" topology --help

"$KBENCH" topology --workers 0 >"$tmp/out" 2>"$tmp/err"
rc=$?
is "a worker count out of range (exit $rc)" "$rc $(cat "$tmp/err")" \
	"2 kbench: invalid value '0' for '--workers': expected a number from 1 to 1000000"
is "--workers=N sizes a many-worker plan" \
	"$("$KBENCH" topology --synthetic 'pack:1 core:4 pu:1' --workers=2 --cpus compact 2>&1)" "0 1"
"$KBENCH" topology --synthetic 'pack:100 core:100 pu:10' >"$tmp/out" 2>"$tmp/err"
rc=$?
is "a synthetic topology past 65536 PUs is refused before hwloc builds it (exit $rc)" \
	"$rc $(cat "$tmp/err")" \
	"1 kbench: synthetic topology 'pack:100 core:100 pu:10' has more than 65536 PUs"
done_testing
