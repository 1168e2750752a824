#!/bin/sh
# t7328: import --mmtests stores netperf's figures in the unit netperf
# printed them in: what a units-PROTO file says (mmtests since 2024), else
# what each log's header says. mmtests before 2024 passed -f m to every
# test, and wrote no units file: its RR logs hold 10^6 bit/s, as their
# header says, not transactions. A log that names no unit, or whose header
# and units file disagree, is refused at its line.
# Covers: mmtests/mmtests_log.c mmtests/mmtests.c mmtests/bench_netperf.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# mkrun NAME [BENCH PROTO]: an mmtests run of netperf-tcp-rr (or BENCH
# running PROTO), its logs to be added.
mkrun() {
	d=$tmp/log/$1/iter-0
	mkdir -p "$d/${2:-netperf-tcp-rr}/logs" &&
		echo "Linux testhost $1 #1 SMP Mon May 6 00:00:00 UTC 2024 x86_64 GNU/Linux" \
			>"$d/kernel.version" &&
		printf 'version :: 638401e0\narch :: x86_64\n' >"$d/tests-sysstate" &&
		printf 'start :: 1700000000\nfinish :: 1700001000\n' >"$d/tests-timestamp" &&
		echo "${3:-TCP_RR}" >"$d/${2:-netperf-tcp-rr}/logs/protocols"
}
# rr UNIT FIGURE: netperf -t TCP_RR -f UNIT's output, as mmtests keeps it
# (-D 1: one interim result; 'x' prints transactions per second)
rr() {
	if [ "$1" = x ]; then
		u=Trans title='Trans.' col=Rate unit='per sec'
	else
		u=$(case $1 in k) echo 10^3bits ;; m) echo 10^6bits ;; esac)
		title='' col='Throughput ' unit="$u/sec   "
	fi
	printf 'MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 () port 0 AF_INET : +/-2.500%% @ 95%% conf.  : demo : first burst 0\n'
	printf 'Interim result: %7.2f %s/s over 1.000 seconds ending at 1700000001.431\n' "$2" "$u"
	printf 'Local /Remote\nSocket Size   Request  Resp.   Elapsed  %s\n' "$title"
	printf 'Send   Recv   Size     Size    Time     %s\n' "$col"
	printf 'bytes  Bytes  bytes    bytes   secs.    %s\n\n' "$unit"
	printf '%-6d %-6d %-6d   %-6d  %-6.2f   %7.2f   \n%-6d %-6d\n' 16384 131072 1 1 10.00 "$2" \
		16384 131072
}
logs() {
	echo "$tmp/log/$1/iter-0/${2:-netperf-tcp-rr}/logs"
}
values() {
	sql "SELECT group_concat(s.value || ' ' || s.unit, ', ') FROM samples s
		JOIN runs r ON r.id = s.run_id WHERE r.name = '$1'"
}

# mmtests before 2024: -f m, no units file.
mkrun 6.1.0-2023 && l=$(logs 6.1.0-2023) &&
	rr m 1.13 >"$l/TCP_RR-1.1" && rr m 1.12 >"$l/TCP_RR-1.2" && rr m 1.14 >"$l/TCP_RR-1.3"
ok $? "an RR run of mmtests before 2024 (-f m, no units file)"
check "... imports" kb import --mmtests "$tmp/log/6.1.0-2023"
is "... in transactions per second, 16 bits each, from the header's 10^6 bit/s" \
	"$(values 6.1.0-2023)" "70625.0 trans/s, 70000.0 trans/s, 71250.0 trans/s"

# mmtests since 2024: -f k, units-TCP_RR says so.
mkrun 6.1.0-2024 && l=$(logs 6.1.0-2024) && echo k >"$l/units-TCP_RR" &&
	rr k 1082.05 >"$l/TCP_RR-1.1" && rr k 1090.00 >"$l/TCP_RR-1.2" &&
	rr k 1075.50 >"$l/TCP_RR-1.3"
ok $? "an RR run of mmtests since 2024 (-f k, units-TCP_RR)"
check "... imports" kb import --mmtests "$tmp/log/6.1.0-2024"
is "... in transactions per second" "$(values 6.1.0-2024)" \
	"67628.125 trans/s, 68125.0 trans/s, 67218.75 trans/s"
check "the two compare" kb compare --test ci --only netperf-tcp-rr 6.1.0-2023@testhost \
	6.1.0-2024@testhost
is "... transactions with transactions" "$(grep '^Hmean' "$tmp/check.out")" \
	"Hmean     1    70621.31 (   0.00%)    67655.26 *  -4.20%*"

# netperf's own default (-f x, no units file): transactions, as printed.
mkrun 6.1.0-x && rr x 51000.12 >"$(logs 6.1.0-x)/TCP_RR-1.1"
ok $? "an RR log in transactions (no -f), no units file"
check "... imports" kb import --mmtests "$tmp/log/6.1.0-x"
is "... as printed" "$(values 6.1.0-x)" "51000.12 trans/s"

before=$(store_digest "$db")
mkrun 6.1.0-bare && printf '16384  131072 1        1       10.00    1.13\n' \
	>"$(logs 6.1.0-bare)/TCP_RR-1.1"
ok $? "an RR log without netperf's header, no units file"
expect_err "... is refused: its figure could be transactions or bits" 1 \
	"6.1.0-bare/iter-0/netperf-tcp-rr/logs/TCP_RR-1.1:1: expected netperf's header naming the result's unit ('per sec', '10^6bits/sec' and the like) before it, found none (and no units-TCP_RR says it)" \
	kb import --mmtests "$tmp/log/6.1.0-bare"
is "... nothing stored" "$(store_digest "$db")" "$before"

mkrun 6.1.0-both && l=$(logs 6.1.0-both) && echo k >"$l/units-TCP_RR" &&
	rr m 1.13 >"$l/TCP_RR-1.1"
ok $? "an RR log whose header says 10^6 bit/s beside a units file that says k"
expect_err "... is refused at the header's line" 1 \
	"6.1.0-both/iter-0/netperf-tcp-rr/logs/TCP_RR-1.1:6: netperf's header gives the result in 10^6bits/sec, but $tmp/log/6.1.0-both/iter-0/netperf-tcp-rr/logs/units-TCP_RR says 'k'" \
	kb import --mmtests "$tmp/log/6.1.0-both"
is "... nothing stored" "$(store_digest "$db")" "$before"

# A STREAM log in KBytes/sec (-f K): Mbit/s, 8192 bits a KByte.
mkrun 6.1.0-stream netperf-tcp TCP_STREAM && l=$(logs 6.1.0-stream netperf-tcp) &&
	printf '%s\n' 'MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 () port 0 AF_INET : demo' \
		'Recv   Send    Send                          ' \
		'Socket Socket  Message  Elapsed              ' \
		'Size   Size    Size     Time     Throughput  ' \
		'bytes  bytes   bytes    secs.    KBytes/sec  ' '' \
		'131072  16384     64    10.00     368750.00   ' >"$l/TCP_STREAM-64.1"
ok $? "a TCP_STREAM log in KBytes/sec, no units file"
check "... imports" kb import --mmtests "$tmp/log/6.1.0-stream"
is "... in 10^6 bit/s" "$(values 6.1.0-stream)" "3020.8 Mbit/s"
done_testing
