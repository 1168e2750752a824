#!/bin/sh
# t3001-netperf-udp-loss: a lost UDP_RR datagram never hangs a sample: the
# server drops every Nth request (drop_every, for tests), the client gives
# up on the response after loss_timeout, counts the loss and carries on;
# the sample is flagged and the losses are stored with it.
# Covers: workloads/netperf.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

now() {
	date +%s.%N
}
# "On time" below is under 15 s: a lost datagram that hung the sample
# would run to --timeout 20 (and fail it), while a loaded machine
# (sanitizers, a parallel suite) stretches the 0.3 s of work by seconds.

t0=$(now)
"$KBENCH" netperf -t UDP_RR -l 0.3 -o drop_every=100 -o loss_timeout=0.01 \
	--timeout 20 >"$tmp/out" 2>"$tmp/err"
rc=$?
t1=$(now)
ok $rc "UDP_RR with every 100th request dropped completes: $(cat "$tmp/err")"
lost=$(sed -n 's/.*, \([0-9]*\) datagrams\{0,1\} lost$/\1/p' "$tmp/out")
trans=$(sed -n 's/.*: \([0-9.]*\) trans\/s.*/\1/p' "$tmp/out")
[ -n "$lost" ] && [ "$lost" -gt 0 ] && awk -v t="$trans" 'BEGIN { exit !(t > 0) }'
ok $? "losses counted ($lost) and transactions carried on ($trans trans/s)"
grep -Eq "^# flagged: UDP_RR lost $lost of [0-9]+ datagrams\$" "$tmp/out"
ok $? "the sample is flagged: $(tail -n 1 "$tmp/out")"
awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a < 15) }'
ok $? "it took about its duration, not the timeout"

# Every request lost, default loss timeout: still ends on time.
t0=$(now)
"$KBENCH" netperf -t UDP_RR -l 0.3 -o drop_every=1 --timeout 20 >"$tmp/out" 2>"$tmp/err"
rc=$?
t1=$(now)
ok $rc "UDP_RR with every request dropped completes: $(cat "$tmp/err")"
grep -Eq ': 0\.00 trans/s, [1-9][0-9]* datagrams? lost$' "$tmp/out" &&
	awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a < 15) }'
ok $? "no transaction, the losses counted, on time: $(head -n 1 "$tmp/out")"

"$KBENCH" netperf -t UDP_RR -l 0.2 >"$tmp/out" 2>"$tmp/err"
! grep -q 'lost' "$tmp/out"
ok $? "no loss reported when nothing is dropped: $(cat "$tmp/out")"

# Through the runner: the flag and the loss count are stored.
cat >"$tmp/loss.conf" <<'CONF'
[netperf-udp-rr]
test = UDP_RR
iterations = 2
duration = 0.2
drop_every = 50
loss_timeout = 0.005
timeout = 20
CONF
kb --quiet run -c "$tmp/loss.conf" >"$tmp/out" 2>"$tmp/err"
ok $? "a config run with losses completes: $(cat "$tmp/err")"
kb show '#1' >"$tmp/show" 2>&1
is "kbench show lists both samples as flagged, with their losses" \
	"$(sed -n '/^section /,/^Options in effect:/p' "$tmp/show" |
	   sed -E 's/: [0-9]+(\.[0-9]+)? trans\/s  FLAGGED: UDP_RR lost [1-9][0-9]* of [1-9][0-9]* datagrams$/: N trans\/s  FLAGGED: UDP_RR lost L of N datagrams/')" \
"section                           samples  flagged
netperf-udp-rr                          2        2

Flagged samples (2):
  [netperf-udp-rr] 1 sample 1: N trans/s  FLAGGED: UDP_RR lost L of N datagrams
  [netperf-udp-rr] 1 sample 2: N trans/s  FLAGGED: UDP_RR lost L of N datagrams

Options in effect:"
is "each sample's losses are stored with it, as the flags say" \
	"$(sql "SELECT CAST(value AS INTEGER) FROM monitor_values WHERE source = 'workload' AND key = 'lost' ORDER BY iteration" | tr '\n' ' ')" \
	"$(sed -n 's/.*FLAGGED: UDP_RR lost \([0-9]*\) of .*/\1/p' "$tmp/show" | tr '\n' ' ')"

done_testing
