#!/bin/sh
# t3000-netperf-direct: kbench netperf in direct mode: every test over
# both families counts positive figures, the placements this machine
# honours bind where kbench topology says, and bad options are refused
# with their exact errors.
# Covers: workloads/netperf.c cli/cmd_direct.c machine/bind.c lib/io.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# positive FILE: every number in FILE is a positive figure
positive() {
	awk '{ for (i = 1; i <= NF; i++) if ($i + 0 <= 0) bad = 1; n += NF }
	     END { exit (bad || !n) }' "$1"
}

for t in TCP_RR UDP_RR; do
	"$KBENCH" netperf -t $t -l 0.2 --format simple >"$tmp/out" 2>"$tmp/err"
	ok $? "$t runs"
	positive "$tmp/out"
	ok $? "$t counts transactions: $(cat "$tmp/out") trans/s"
done

for t in TCP_RR UDP_RR; do
	if "$KBENCH" netperf -t $t -6 -l 0.2 --format simple >"$tmp/out" 2>"$tmp/err"; then
		positive "$tmp/out"
		ok $? "$t over ::1 counts transactions: $(cat "$tmp/out") trans/s"
	elif grep -q "cannot listen on ::1" "$tmp/err"; then
		skip "$t over ::1: no IPv6 loopback here"
	else
		ok 1 "$t over ::1: $(cat "$tmp/err")"
	fi
done

"$KBENCH" netperf -t TCP_STREAM -l 0.2 -r 1024 --format simple >"$tmp/out" 2>"$tmp/err"
ok $? "TCP_STREAM runs"
positive "$tmp/out"
ok $? "TCP_STREAM measures throughput: $(cat "$tmp/out") Mbit/s"

"$KBENCH" netperf -t UDP_STREAM -l 0.2 -r 1024 --format simple >"$tmp/out" 2>"$tmp/err"
ok $? "UDP_STREAM runs"
[ "$(wc -w <"$tmp/out")" -eq 2 ] && positive "$tmp/out"
ok $? "UDP_STREAM reports send and receive throughput: $(cat "$tmp/out")"

# rate_ok: the last transcript's line ends with a positive rate.
rate_ok() {
	sed -n 's/.*: \([0-9.]*\) trans\/s$/\1/p' "$tmp/tr.out" |
		awk '{ r = $1 } END { exit !(NR == 1 && r > 0) }'
}
rate_sed='s/: [0-9]+\.[0-9]{2} trans\/s$/: N trans\/s/'
expect_transcript -e "$rate_sed" "TCP_RR with TCP_NODELAY prints one result line" \
	"$KBENCH" netperf -t TCP_RR -l 0.2 -D <<'T'
$ kbench netperf -t TCP_RR -l 0.2 -D
TCP_RR 127.0.0.1, 1-byte request/response, 0.20 s, unbound: N trans/s
[exit 0]
T
check "... with a positive rate: $(cat "$tmp/tr.out")" rate_ok
expect_transcript -e "$rate_sed" "-r sets the request and response size" \
	"$KBENCH" netperf -t UDP_RR -l 0.2 -r 64 <<'T'
$ kbench netperf -t UDP_RR -l 0.2 -r 64
UDP_RR 127.0.0.1, 64-byte request/response, 0.20 s, unbound: N trans/s
[exit 0]
T
check "... with a positive rate: $(cat "$tmp/tr.out")" rate_ok

# Every two-party policy: bound where topology says, or refused the same way.
for p in same-pu cross-ht cross-core cross-llc cross-node cross-socket; do
	if cpus=$("$KBENCH" topology --cpus $p 2>"$tmp/topo-err"); then
		set -- $cpus
		"$KBENCH" netperf -t TCP_RR -l 0.2 --pin $p >"$tmp/out" 2>"$tmp/err"
		grep -Eq "^TCP_RR .*, $p: server P#$1 \\(L#[0-9]+\\), client P#$2 \\(L#[0-9]+\\): [0-9.]+ trans/s\$" "$tmp/out" &&
			! grep -q ' 0\.00 trans/s' "$tmp/out"
		ok $? "pin $p runs on CPUs $1 and $2: $(cat "$tmp/out") $(cat "$tmp/err")"
	else
		"$KBENCH" netperf -t TCP_RR -l 0.2 --pin $p >"$tmp/out" 2>"$tmp/err"
		rc=$?
		[ $rc -ne 0 ] && [ ! -s "$tmp/out" ] && cmp -s "$tmp/err" "$tmp/topo-err"
		ok $? "pin $p refused before running: $(cat "$tmp/err")"
	fi
done

# Bad options: refused before anything runs, with exactly this message.
expect_transcript "a negative size" "$KBENCH" netperf -t TCP_RR -r -1 <<'T'
$ kbench netperf -t TCP_RR -r -1
2> kbench: invalid value -1 in '-1' for 'sizes': expected a list of integers from 1 to 67108864 ("1 2 4" or stride:MIN..MAX[,max=CAP])
[exit 2]
T
expect_transcript "an unknown test" "$KBENCH" netperf -t TCP_CRR <<'T'
$ kbench netperf -t TCP_CRR
2> kbench: invalid value 'TCP_CRR' for 'test': expected one of TCP_RR|UDP_RR|TCP_STREAM|UDP_STREAM (did you mean 'TCP_RR'?)
[exit 2]
T
expect_transcript "a datagram too large for UDP" "$KBENCH" netperf -t UDP_STREAM -r 70000 <<'T'
$ kbench netperf -t UDP_STREAM -r 70000
2> kbench: size 70000 is too large for UDP_STREAM: a UDP datagram holds at most 65507 bytes
[exit 2]
T
expect_transcript "drop_every outside UDP_RR" "$KBENCH" netperf -t TCP_RR -o drop_every=3 <<'T'
$ kbench netperf -t TCP_RR -o drop_every=3
2> kbench: 'drop_every' applies to UDP_RR only, not TCP_RR
[exit 2]
T
expect_transcript "size and sizes together" "$KBENCH" netperf -o size=2 -r 2 <<'T'
$ kbench netperf -o size=2 -r 2
2> kbench: give 'size' or 'sizes', not both
[exit 2]
T
expect_transcript "a zero duration" "$KBENCH" netperf -l 0 <<'T'
$ kbench netperf -l 0
2> kbench: invalid value '0' for 'duration': expected a number from 0.01 to 86400
[exit 2]
T
expect_transcript "a many-worker policy is not a two-party one" "$KBENCH" netperf --pin spread <<'T'
$ kbench netperf --pin spread
2> kbench: invalid value 'spread' for 'pin': expected one of unbound|same-pu|cross-ht|cross-core|cross-llc|cross-node|cross-socket
[exit 2]
T
expect_transcript "an unknown family" "$KBENCH" netperf -o family=inet5 <<'T'
$ kbench netperf -o family=inet5
2> kbench: invalid value 'inet5' for 'family': expected one of inet|inet6 (did you mean 'inet'?)
[exit 2]
T

expect_transcript -f t3000-netperf-help.txt "--help lists the flags, options and metrics" \
	"$KBENCH" netperf --help

done_testing
