#!/bin/sh
# t3002-netperf-run: the shipped netperf configs run end to end through the
# runner (with short samples), store the pin plan with the run, default
# the rows by test, and refuse bad configs before anything runs.
# Covers: workloads/netperf.c runner/plan.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# short CONF: the shipped config with 0.2 s samples, 2 of them
short() {
	sed -e 's/^duration = .*/duration = 0.2/' -e 's/^iterations = .*/iterations = 2/' \
		"$TOP_SRCDIR/configs/$1" >"$tmp/$1"
}

run() {
	"$KBENCH" --db "$tmp/k.db" --quiet run "$@" >"$tmp/out" 2>"$tmp/err"
}
# rows: the latest run's samples, as "section row unit count" lines
rows() {
	"$KB_SQL" "$tmp/k.db" "SELECT section || ' ' || row || ' ' || unit || ' ' || count(*) FROM samples WHERE run_id = (SELECT max(id) FROM runs) GROUP BY section, row ORDER BY section, row"
}

short netperf-rr.conf
run -c "$tmp/netperf-rr.conf"
ok $? "netperf-rr.conf runs: $(cat "$tmp/err")"
is "4 samples stored: two per section, 1-byte rows" "$(rows)" \
"netperf-tcp-rr 1 trans/s 2
netperf-udp-rr 1 trans/s 2"
"$KBENCH" --db "$tmp/k.db" show '#1' >"$tmp/show" 2>&1
grep -Eq '^netperf-udp-rr +2 +0$' "$tmp/show" && grep -Eq '^netperf-tcp-rr +2 +0$' "$tmp/show" &&
	[ "$(grep -Ec '^  pin_cpus +unbound$' "$tmp/show")" -eq 2 ] &&
	[ "$(grep -Ec '^  sizes +1$' "$tmp/show")" -eq 2 ]
ok $? "two sections of two samples, 1-byte rows, unbound"

short netperf-rr-pinned.conf
# The config's preference list: the first policy this machine allows.
used=
for policy in cross-core cross-llc cross-ht; do
	if cpus=$("$KBENCH" topology --cpus $policy 2>/dev/null); then
		used=$policy
		break
	fi
done
if [ -n "$used" ]; then
	set -- $cpus
	run -c "$tmp/netperf-rr-pinned.conf"
	ok $? "netperf-rr-pinned.conf runs: $(cat "$tmp/err")"
	"$KBENCH" --db "$tmp/k.db" show '#2' >"$tmp/show" 2>&1
	[ "$(grep -Ec "^  pin_cpus +$used: server P#$1 \\(L#[0-9]+\\), client P#$2 \\(L#[0-9]+\\)\$" "$tmp/show")" -eq 2 ] &&
	[ "$(grep -Ec "^  pin +$used\$" "$tmp/show")" -eq 2 ]
	ok $? "the policy used ($used) and its CPUs ($1, $2) are stored with the run" ||
		sed 's/^/# /' "$tmp/show"
else
	skip "netperf-rr-pinned.conf: this machine has fewer than two PUs"
	skip "pinned CPUs stored"
fi

short netperf-stream.conf
sed -i 's/^sizes = .*/sizes = 64 1024/' "$tmp/netperf-stream.conf"
sed -i 's/^iterations = .*/iterations = 1/' "$tmp/netperf-stream.conf"
run -c "$tmp/netperf-stream.conf"
ok $? "netperf-stream.conf runs: $(cat "$tmp/err")"
is "TCP: one row per size, UDP: send and recv rows per size (6 samples)" "$(rows)" \
"netperf-tcp-stream 1024 Mbit/s 1
netperf-tcp-stream 64 Mbit/s 1
netperf-udp-stream recv-1024 Mbit/s 1
netperf-udp-stream recv-64 Mbit/s 1
netperf-udp-stream send-1024 Mbit/s 1
netperf-udp-stream send-64 Mbit/s 1"

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
	is "STREAM defaults to netperf's nine sizes, RR to 1 byte (10 samples)" \
		"$(rows | tr '\n' ' ')" \
		"netperf-tcp-stream 1024 Mbit/s 1 netperf-tcp-stream 128 Mbit/s 1 netperf-tcp-stream 16384 Mbit/s 1 netperf-tcp-stream 2048 Mbit/s 1 netperf-tcp-stream 256 Mbit/s 1 netperf-tcp-stream 3312 Mbit/s 1 netperf-tcp-stream 4096 Mbit/s 1 netperf-tcp-stream 64 Mbit/s 1 netperf-tcp-stream 8192 Mbit/s 1 netperf-udp-rr 1 trans/s 1 "
else
	skip "no IPv6 loopback here"
	skip "row defaults"
fi

# bad CONF-TEXT WANT: the config is refused with exactly WANT (exit 2),
# nothing printed on stdout, nothing stored
bad() {
	printf '%s\n' "$1" >"$tmp/bad.conf"
	before=$("$KB_SQL" "$tmp/k.db" 'SELECT count(*) FROM runs')
	run -c "$tmp/bad.conf"
	rc=$?
	is "refused: $(sed -n "1s|$tmp/||p" "$tmp/err")" \
		"exit $rc, stored $("$KB_SQL" "$tmp/k.db" 'SELECT count(*) FROM runs'), $(cat "$tmp/out" "$tmp/err")" \
		"exit 2, stored $before, $2"
}

bad "[netperf-tcp-rr]
sizes = 1 -5" "kbench: $tmp/bad.conf:2: invalid value -5 in '1 -5' for 'sizes': expected a list of integers from 1 to 67108864 (\"1 2 4\" or stride:MIN..MAX[,max=CAP]) (in [netperf-tcp-rr])"
bad "[netperf-tcp-rr]
test = TCP_CRR" "kbench: $tmp/bad.conf:2: invalid value 'TCP_CRR' for 'test': expected one of TCP_RR|UDP_RR|TCP_STREAM|UDP_STREAM (did you mean 'TCP_RR'?) (in [netperf-tcp-rr])"
bad "[netperf-tcp-rr]
pin = spread" "kbench: $tmp/bad.conf:2: invalid value 'spread' for 'pin': expected one of unbound|same-pu|cross-ht|cross-core|cross-llc|cross-node|cross-socket (in [netperf-tcp-rr])"
if msg=$("$KBENCH" topology --cpus cross-socket 2>&1 >/dev/null); then
	skip "this machine has two packages"
else
	bad "[netperf-tcp-rr]
pin = cross-socket" "kbench: $tmp/bad.conf:1: [netperf-tcp-rr] ${msg#kbench: }"
fi

done_testing
