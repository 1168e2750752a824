#!/bin/sh
# t8504: fleet upload and collect against a server that accepts and never
# answers give up within their time limits (--stall-timeout a try,
# --timeout in all) and say why; the bundle waits in the outbox. libcurl
# measures speed over its last few seconds, so a try ends some 5 s after
# the stall limit when the request itself sent bytes: the bounds below
# allow that, and are far below the 300 s a try could take before.
. "$TOP_SRCDIR/tests/cli/lib.sh"

command -v python3 >/dev/null 2>&1 || { skip "python3 is needed"; done_testing; exit; }
cd "$tmp" || exit 1
trap '[ -s "$tmp/silent.pid" ] && kill "$(cat "$tmp/silent.pid")" 2>/dev/null; rm -rf "$tmp"' EXIT
python3 "$TOP_SRCDIR/tests/cli/silent-listener.py" silent "$tmp/port" 100 &
echo $! >"$tmp/silent.pid"
wait_until 10 test -s "$tmp/port"
ok $? "a listener that never answers"
url=http://127.0.0.1:$(cat "$tmp/port")/dav
printf '[hackbench-process-pipes]\niterations = 2\nloops = 10\ngroups = 1\n' >hb.conf
KBENCH_HOSTNAME=h1 "$KBENCH" --db node/kbench.db --quiet run -c hb.conf -n slow --no-report
ok $? "a run to upload"

# elapsed CMD...: run it, out and err kept, its seconds in $took.
elapsed() {
	el_t0=$(date +%s)
	"$@" >out 2>err
	el_st=$?
	took=$(( $(date +%s) - el_t0 ))
	return $el_st
}

elapsed "$KBENCH" --db node/kbench.db fleet upload --tries 1 --stall-timeout 2 "$url"
is "upload fails" "$?" 1
check "... within the stall limit of its two requests (MKCOL, PUT)" test "$took" -le 20
check "... saying the server sent nothing" grep -q "Operation too slow" err
check "... the bundle waits in the outbox" test -n "$(ls node/outbox/h1)"

elapsed "$KBENCH" --db node/kbench.db fleet upload --tries 100 --stall-timeout 2 --timeout 5 "$url"
is "upload with many tries fails too" "$?" 1
check "... within --timeout" test "$took" -le 9
check "... and says the time ran out" grep -q "gave up: the 5 s allowed have run out\|no time left of the 5 s allowed" err

elapsed "$KBENCH" --db collector.db fleet collect --tries 1 --stall-timeout 2 "$url"
is "collect fails" "$?" 1
check "... within the stall limit" test "$took" -le 10
check "... naming what it could not list" grep -q "cannot list 'http://127.0.0.1:[0-9]*/dav/'" err

elapsed "$KBENCH" --db collector.db fleet collect --tries 100 --stall-timeout 60 --timeout 3 "$url"
is "collect under --timeout fails" "$?" 1
check "... within it" test "$took" -le 6

elapsed "$KBENCH" --db node/kbench.db fleet upload --tries 1 --connect-timeout 1 \
	--stall-timeout 2 --timeout 20 http://192.0.2.1:9/dav
is "an unreachable server fails" "$?" 1
check "... within the connect timeout of its tries" test "$took" -le 6

"$KBENCH" fleet upload --help >out 2>&1
check "upload --help names the limits" grep -q -- "--stall-timeout S" out

done_testing
