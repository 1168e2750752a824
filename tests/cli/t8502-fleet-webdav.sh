#!/bin/sh
# t8502: bundles over WebDAV to a real nginx that asks for a password:
# refused without credentials or with wrong ones (HTTP 401, no retries),
# sent with KBENCH_UPLOAD_USER/PASSWORD, listed and fetched with netrc or
# a URL that carries them, the password never printed nor recorded; a
# host's collection made with MKCOL where PUT does not make it; stray
# files not listed; servers that cannot list or move, and missing
# collections, named in the errors.
# Covers: fleet/http.c fleet/results.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-fleet.sh"

fleet_need nginx
cd "$tmp" || exit 1
echo 'bench:{PLAIN}s3cret' >htpasswd
nginx_extra="auth_basic kbench; auth_basic_user_file $tmp/htpasswd;"
start_nginx
st=$?
ok $st "nginx serves WebDAV with basic authentication on port $http_port"
if [ "$st" -ne 0 ]; then
	dump_logs
	done_testing
	exit
fi
base=http://127.0.0.1:$http_port
printf '[hackbench-process-pipes]\niterations = 2\nloops = 10\ngroups = 1\n' >hb.conf
node=$tmp/node/kbench.db
KBENCH_HOSTNAME=h1 "$KBENCH" --db "$node" --quiet run -c hb.conf -n web-1 --no-report
ok $? "a run on host h1"
uuid=$("$KB_SQL" "$node" "SELECT uuid FROM runs")
# run CMD...: its output into out and err, and all of it into seen.
run() {
	"$@" >out 2>err
	r_st=$?
	cat out err >>seen
	return $r_st
}
upload() {	# upload URL: the node's upload
	run "$KBENCH" --db "$node" fleet upload "$1"
}
# okerr STATUS DESC: ok, printing err when STATUS is not 0.
okerr() {
	ok "$1" "$2"
	[ "$1" -eq 0 ] || comment err
}

upload "$results"
is "without credentials the upload fails" "$?" 1
check "... HTTP 401, at once (no retry)" \
	grep -qx "kbench: cannot upload '$tmp/node/outbox/h1/$uuid.kbench' to '$results/h1/$uuid.kbench': the server answered HTTP 401" err
check "... the bundle waits in the outbox" test -s "node/outbox/h1/$uuid.kbench"
KBENCH_UPLOAD_USER=bench KBENCH_UPLOAD_PASSWORD=wrong upload "$results"
is "a wrong password fails" "$?" 1
check "... HTTP 401" grep -q "the server answered HTTP 401$" err
KBENCH_UPLOAD_USER=bench KBENCH_UPLOAD_PASSWORD=s3cret upload "$results"
okerr $? "with KBENCH_UPLOAD_USER and KBENCH_UPLOAD_PASSWORD it is sent"
check "... and says so" test "$(cat out)" = "uploaded h1/$uuid.kbench to $results"
check "... the server has it" test -s "$www/results/h1/$uuid.kbench"

echo "machine 127.0.0.1 login bench password s3cret" >netrc
chmod 600 netrc
echo junk >"$www/results/h1/notes.txt"
echo junk >"$www/results/h1/.$uuid.kbench.part-99"
mkdir "$www/results/.trash"
NETRC=$tmp/netrc run kb fleet collect --dry-run "$results"
okerr $? "collect --dry-run with netrc"
check "... lists the bundle, not the stray files" test "$(cat out)" = "would collect h1/$uuid.kbench"
expect_err "without netrc the listing is refused" 1 \
	"cannot list '$results/': the server answered HTTP 401" "$KBENCH" --db "$db" fleet collect "$results"
NETRC=$tmp/netrc run kb fleet collect "$results"
okerr $? "collect with netrc"
check "... one run added" grep -qx "$results: 1 new bundle, 1 run added (2 samples)" out
is "... the run is whole" \
	"$(sql "SELECT r.uuid, m.hostname, count(s.value) FROM runs r JOIN machines m ON m.id = r.machine_id JOIN samples s ON s.run_id = r.id GROUP BY r.id")" \
	"$uuid|h1|2"
cred=http://bench:s3cret@127.0.0.1:$http_port/results/
run kb fleet collect "$cred"
okerr $? "collect with the credentials in the URL"
check "... the same location: nothing new" grep -qx "$results: 0 new bundles, 0 runs added (0 samples)" out
is "... recorded without the credentials" "$(sql 'SELECT DISTINCT source FROM fleet_collected')" "$results"
run kb fleet collect "$base/results/nope/"
is "a missing collection fails" "$?" 1
check "... saying so" grep -qx "kbench: cannot list '$base/results/nope/': the server answered HTTP 401" err

# Where PUT does not make the host's collection, MKCOL does.
rm -rf node/sent
upload "$base/mk"
okerr $? "upload to a server that needs MKCOL"
check "... the bundle is there" test -s "$www/mk/h1/$uuid.kbench"
check "... no temporary file is left" test -z "$(find "$www/mk" -name '.*')"
run kb fleet collect "$base/mk/nope/"
is "collect from a missing collection fails" "$?" 1
check "... HTTP 404" grep -qx "kbench: cannot list '$base/mk/nope/': no such collection (HTTP 404)" err

# A server that takes PUT but neither MOVE nor PROPFIND.
rm -rf node/sent
upload "$base/plain"
is "upload where MOVE is not allowed fails" "$?" 1
check "... naming the answer" grep -q "to '$base/plain/h1/$uuid.kbench': the server answered HTTP 405$" err
check "... nothing is there under the final name" test ! -e "$www/plain/h1/$uuid.kbench"
run kb fleet collect "$base/plain"
is "collect where PROPFIND is not allowed fails" "$?" 1
check "... saying what to look at" grep -q "PROPFIND answered HTTP 405: is WebDAV listing enabled there?" err

check "the password was never printed" sh -c '! grep s3cret seen'
check "nor written into the store" sh -c "! '$KB_SQL' '$db' 'SELECT * FROM fleet_collected' | grep -q s3cret"
stop_daemons
check "nginx is stopped" test -z "$(ls "$fleet_pids")"
done_testing
