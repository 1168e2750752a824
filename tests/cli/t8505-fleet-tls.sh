#!/bin/sh
# t8505: fleet upload and collect over HTTPS to a real nginx whose
# certificate a lab CA signed, that CA made here by openssl: refused
# without the CA (the message says how to trust it) and with another CA;
# sent with --cafile, collected with cafile in [fleet] of the user's
# kbench.conf; --cafile wins over [fleet]; a cafile that cannot be read
# is named, with the config line it came from, before any request.
# Covers: fleet/http.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-fleet.sh"

fleet_need nginx
command -v openssl >/dev/null 2>&1 || { skip "openssl is needed"; done_testing; exit; }
cd "$tmp" || exit 1

# A lab CA, a certificate for 127.0.0.1 it signs, and another CA.
mkdir tls
newkey="-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
# shellcheck disable=SC2086
openssl req -x509 $newkey -days 2 -subj "/CN=kbench test lab CA" \
	-keyout tls/ca.key -out tls/ca.pem >tls/log 2>&1 &&
	openssl req $newkey -subj "/CN=127.0.0.1" -keyout tls/server.key \
		-out tls/server.csr >>tls/log 2>&1 &&
	printf 'subjectAltName = IP:127.0.0.1\n' >tls/ext &&
	openssl x509 -req -in tls/server.csr -CA tls/ca.pem -CAkey tls/ca.key \
		-CAcreateserial -days 2 -extfile tls/ext -out tls/server.pem >>tls/log 2>&1 &&
	openssl req -x509 $newkey -days 2 -subj "/CN=another CA" \
		-keyout tls/other.key -out tls/other.pem >>tls/log 2>&1
st=$?
ok $st "openssl made a lab CA and a server certificate it signs"
[ "$st" -eq 0 ] || comment tls/log
nginx_tls=$tmp/tls
start_nginx
st=$?
ok $st "nginx serves WebDAV over HTTPS on port $https_port"
if [ "$st" -ne 0 ]; then
	dump_logs
	done_testing
	exit
fi
printf '[hackbench-process-pipes]\niterations = 2\nloops = 10\ngroups = 1\n' >hb.conf
node=$tmp/node/kbench.db
KBENCH_HOSTNAME=h1 "$KBENCH" --db "$node" --quiet run -c hb.conf -n tls-1 --no-report
ok $? "a run on host h1"
uuid=$("$KB_SQL" "$node" "SELECT uuid FROM runs")
bundle=$tmp/node/outbox/h1/$uuid.kbench
# No user config but the test's own.
XDG_CONFIG_HOME=$tmp/cfg
export XDG_CONFIG_HOME
mkdir -p cfg/kbench

"$KBENCH" --db "$node" fleet upload "$results_tls" >out 2>err
is "without the lab CA the upload fails" "$?" 1
check "... the certificate is not trusted, and the message says how to trust it" \
	grep -q "^kbench: cannot upload '$bundle' to '$results_tls/h1/$uuid.kbench': SSL certificate problem: .* (a server with a certificate of a private CA needs that CA's certificate: --cafile, or cafile in \[fleet\])$" err
check "... at once: no retry" sh -c "! grep -q tries err"
check "... the bundle waits in the outbox" test -s "$bundle"

"$KBENCH" --db "$node" fleet upload --cafile tls/other.pem "$results_tls" >out 2>err
is "with another CA it fails" "$?" 1
check "... saying that CA does not vouch for the server" \
	grep -q "SSL certificate problem: .* (no CA of 'tls/other.pem' vouches for it)$" err

expect_transcript -e "s/:$https_port/:PORT/" "upload --cafile ca.pem sends it" \
	"$KBENCH" --db "$node" fleet upload --cafile tls/ca.pem "$results_tls" <<'OUT'
$ kbench --db TMP/node/kbench.db fleet upload --cafile tls/ca.pem https://127.0.0.1:PORT/results
uploaded h1/UUID.kbench to https://127.0.0.1:PORT/results
[exit 0]
OUT
check "... the server has it" test -s "$www/results/h1/$uuid.kbench"

printf '[fleet]\ncafile = %s\n' "$tmp/tls/ca.pem" >cfg/kbench/kbench.conf
kb fleet collect "$results_tls" >out 2>err
st=$?
ok $st "collect with cafile in [fleet] of kbench.conf"
[ "$st" -eq 0 ] || comment err
check "... one run added" grep -qx "$results_tls: 1 new bundle, 1 run added (2 samples)" out
is "... the run is whole" "$(sql "SELECT r.uuid, count(s.value) FROM runs r
	JOIN samples s ON s.run_id = r.id GROUP BY r.id")" "$uuid|2"

printf '[fleet]\ncafile = %s\n' "$tmp/tls/other.pem" >cfg/kbench/kbench.conf
kb fleet collect "$results_tls" >out 2>err
is "a cafile of [fleet] whose CA does not vouch for the server fails" "$?" 1
check "... naming it" grep -q "no CA of '$tmp/tls/other.pem' vouches for it" err
kb fleet collect --cafile tls/ca.pem "$results_tls" >out 2>err
st=$?
ok $st "--cafile wins over [fleet]"
[ "$st" -eq 0 ] || comment err
check "... nothing new" grep -qx "$results_tls: 0 new bundles, 0 runs added (0 samples)" out

printf '[fleet]\ntries = 2\ncafile = %s\n' "$tmp/tls/nope.pem" >cfg/kbench/kbench.conf
expect_transcript -e "s/:$https_port/:PORT/" "a cafile of [fleet] that cannot be read: file, line and why" \
	"$KBENCH" --db "$db" fleet collect "$results_tls" <<'OUT'
$ kbench --db TMP/k.db fleet collect https://127.0.0.1:PORT/results
2> kbench: TMP/cfg/kbench/kbench.conf:3: cannot read cafile 'TMP/tls/nope.pem' in [fleet]: No such file or directory
[exit 1]
OUT
rm cfg/kbench/kbench.conf
expect_transcript -e "s/:$https_port/:PORT/" "a --cafile that is not a file" \
	"$KBENCH" --db "$node" fleet upload --cafile tls "$results_tls" <<'OUT'
$ kbench --db TMP/node/kbench.db fleet upload --cafile tls https://127.0.0.1:PORT/results
2> kbench: cannot read '--cafile' file 'tls': not a regular file
[exit 1]
OUT
"$KBENCH" fleet upload --help >out 2>&1
check "upload --help names --cafile" grep -q -- "--cafile FILE" out
check "... and [fleet]" grep -q "the \[fleet\] section of" out

done_testing
