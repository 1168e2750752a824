#!/bin/sh
# t3002-netperf-run: the shipped netperf configs run end to end through the
# runner (with short samples), store the pin plan with the run, default
# the rows by test, and refuse bad configs before anything runs.
. "$TOP_SRCDIR/tests/cli/lib.sh"

# short CONF: the shipped config with 0.2 s samples, 2 of them
short() {
	sed -e 's/^duration = .*/duration = 0.2/' -e 's/^iterations = .*/iterations = 2/' \
		"$TOP_SRCDIR/configs/$1" >"$tmp/$1"
}

run() {
	"$KBENCH" --db "$tmp/k.db" --quiet run "$@" >"$tmp/out" 2>"$tmp/err"
}

short netperf-rr.conf
run -c "$tmp/netperf-rr.conf"
ok $? "netperf-rr.conf runs: $(cat "$tmp/err")"
grep -q '4 samples (0 failed)' "$tmp/out" "$tmp/err"
ok $? "4 samples stored"
"$KBENCH" --db "$tmp/k.db" show '#1' >"$tmp/show" 2>&1
grep -Eq '^netperf-udp-rr +2 +0$' "$tmp/show" && grep -Eq '^netperf-tcp-rr +2 +0$' "$tmp/show" &&
	[ "$(grep -Ec '^  pin_cpus +unbound$' "$tmp/show")" -eq 2 ] &&
	[ "$(grep -Ec '^  sizes +1$' "$tmp/show")" -eq 2 ]
ok $? "two sections of two samples, 1-byte rows, unbound"

short netperf-rr-pinned.conf
if cpus=$("$KBENCH" topology --cpus cross-core 2>/dev/null); then
	set -- $cpus
	run -c "$tmp/netperf-rr-pinned.conf"
	ok $? "netperf-rr-pinned.conf runs: $(cat "$tmp/err")"
	"$KBENCH" --db "$tmp/k.db" show '#2' >"$tmp/show" 2>&1
	[ "$(grep -Ec "^  pin_cpus +cross-core: server P#$1 \\(L#[0-9]+\\), client P#$2 \\(L#[0-9]+\\)\$" "$tmp/show")" -eq 2 ]
	ok $? "the chosen CPUs ($1, $2) are stored with the run"
else
	skip "netperf-rr-pinned.conf: this machine has no two cores sharing an LLC"
	skip "pinned CPUs stored"
fi

short netperf-stream.conf
sed -i 's/^sizes = .*/sizes = 64 1024/' "$tmp/netperf-stream.conf"
sed -i 's/^iterations = .*/iterations = 1/' "$tmp/netperf-stream.conf"
run -c "$tmp/netperf-stream.conf"
ok $? "netperf-stream.conf runs: $(cat "$tmp/err")"
grep -q '4 samples (0 failed)' "$tmp/out" "$tmp/err" &&
	test "$(sqlite3 "$tmp/k.db" 'SELECT count(*) FROM samples
		WHERE run_id = (SELECT max(id) FROM runs)')" = 6
ok $? "TCP: one row per size, UDP: send and recv rows per size (4 samples, 6 rows)"

cat >"$tmp/default.conf" <<'CONF'
[global]
duration = 0.05
iterations = 1

[netperf-tcp-stream]
test = TCP_STREAM

[netperf-udp-rr]
test = UDP_RR
family = inet6
CONF
if "$KBENCH" netperf -6 -t UDP_RR -l 0.05 >/dev/null 2>&1; then
	run -c "$tmp/default.conf"
	ok $? "a config without sizes runs: $(cat "$tmp/err")"
	grep -q '10 samples (0 failed)' "$tmp/out" "$tmp/err"
	ok $? "STREAM defaults to netperf's nine sizes, RR to 1 byte (10 samples)"
else
	skip "no IPv6 loopback here"
	skip "row defaults"
fi

# bad CONF-TEXT WANT: the config is refused with exactly WANT, nothing stored
bad() {
	printf '%s\n' "$1" >"$tmp/bad.conf"
	before=$("$KBENCH" --db "$tmp/k.db" runs 2>/dev/null | wc -l)
	run -c "$tmp/bad.conf"
	rc=$?
	after=$("$KBENCH" --db "$tmp/k.db" runs 2>/dev/null | wc -l)
	[ $rc -ne 0 ] && [ "$(cat "$tmp/err")" = "$2" ] && [ "$before" -eq "$after" ]
	ok $? "refused: $(cat "$tmp/err")"
}

bad "[netperf-tcp-rr]
sizes = 1 -5" "kbench: $tmp/bad.conf:2: invalid value -5 in '1 -5' for 'sizes': expected a list of integers from 1 to 67108864 (\"1 2 4\" or stride:MIN..MAX[,max=CAP]) (in [netperf-tcp-rr])"
bad "[netperf-tcp-rr]
test = TCP_CRR" "kbench: $tmp/bad.conf:2: invalid value 'TCP_CRR' for 'test': expected one of TCP_RR|UDP_RR|TCP_STREAM|UDP_STREAM (in [netperf-tcp-rr])"
bad "[netperf-tcp-rr]
pin = spread" "kbench: $tmp/bad.conf:2: invalid value 'spread' for 'pin': expected one of unbound|same-pu|cross-ht|cross-core|cross-llc|cross-node|cross-socket (in [netperf-tcp-rr])"
if msg=$("$KBENCH" topology --cpus cross-socket 2>&1 >/dev/null); then
	skip "this machine has two packages"
else
	bad "[netperf-tcp-rr]
pin = cross-socket" "kbench: $tmp/bad.conf:1: [netperf-tcp-rr] ${msg#kbench: }"
fi

done_testing
