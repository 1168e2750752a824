#!/bin/sh
# t8504: fleet upload and collect against a server that accepts and never
# answers give up within their time limits (--stall-timeout a try,
# --timeout in all) and say why; the bundle waits in the outbox. libcurl
# measures speed over its last few seconds, so a try ends some 5 s after
# the stall limit when the request itself sent bytes. The bounds below
# allow that and a loaded machine (sanitizers, a parallel suite): each
# is far below what the command would take without the limit it checks
# (60 s of stall, 30 s to connect, the 20 s --timeout of the unreachable
# server's case, tries x stall in all), so only a limit not applied can
# fail them.
# Covers: fleet/http.c fleet/outbox.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

command -v python3 >/dev/null 2>&1 || { skip "python3 is needed"; done_testing; exit; }
cd "$tmp" || exit 1
trap '[ -s "$tmp/silent.pid" ] && kill "$(cat "$tmp/silent.pid")" 2>/dev/null; rm -rf "$tmp"' EXIT
python3 "$TOP_SRCDIR/tests/cli/silent-listener.py" silent "$tmp/port" 100 &
echo $! >"$tmp/silent.pid"
wait_until 10 test -s "$tmp/port"
ok $? "a listener that never answers"
port=$(cat "$tmp/port")
url=http://127.0.0.1:$port/dav
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
check "... within the stall limit of its two requests (MKCOL, PUT)" test "$took" -le 40
check "... saying the server sent nothing" grep -q "Operation too slow" err
check "... the bundle waits in the outbox" test -n "$(ls node/outbox/h1)"

elapsed "$KBENCH" --db node/kbench.db fleet upload --tries 100 --stall-timeout 2 --timeout 5 "$url"
is "upload with many tries fails too" "$?" 1
check "... within --timeout" test "$took" -le 40
check "... and says the time ran out" grep -q "gave up: the 5 s allowed have run out\|no time left of the 5 s allowed" err

elapsed "$KBENCH" --db collector.db fleet collect --tries 1 --stall-timeout 2 "$url"
is "collect fails" "$?" 1
check "... within the stall limit" test "$took" -le 40
check "... naming what it could not list" grep -q "cannot list 'http://127.0.0.1:[0-9]*/dav/'" err

elapsed "$KBENCH" --db collector.db fleet collect --tries 100 --stall-timeout 60 --timeout 3 "$url"
is "collect under --timeout fails" "$?" 1
check "... within it" test "$took" -le 30

elapsed "$KBENCH" --db node/kbench.db fleet upload --tries 1 --connect-timeout 1 \
	--stall-timeout 2 --timeout 20 http://192.0.2.1:9/dav
is "an unreachable server fails" "$?" 1
check "... within the connect timeout of its tries" test "$took" -le 15

"$KBENCH" fleet upload --help >out 2>&1
check "upload --help names the limits" grep -q -- "--stall-timeout S" out

# The same limits from [fleet] of the user's kbench.conf; the command
# line wins over it.
XDG_CONFIG_HOME=$tmp/cfg
export XDG_CONFIG_HOME
mkdir -p cfg/kbench
printf '[fleet]\ntries = 1\nstall-timeout = 2\n' >cfg/kbench/kbench.conf
elapsed "$KBENCH" --db node/kbench.db fleet upload "$url"
is "upload with tries and stall-timeout from [fleet] fails" "$?" 1
check "... within the stall limit of its two requests" test "$took" -le 40
check "... the server sent nothing" grep -q "Operation too slow" err
printf '[fleet]\ntries = 100\nstall-timeout = 60\ncollect-timeout = 3\nupload-timeout = 7\n' \
	>cfg/kbench/kbench.conf
elapsed "$KBENCH" --db collector.db fleet collect "$url"
is "collect under collect-timeout of [fleet] fails" "$?" 1
check "... within it, saying so" grep -q "the 3 s allowed\|of the 3 s allowed" err
elapsed "$KBENCH" --db collector.db fleet collect --timeout 2 "$url"
is "collect --timeout 2 wins over [fleet]" "$?" 1
check "... saying so" grep -q "the 2 s allowed\|of the 2 s allowed" err

# submit puts upload-timeout into the job's upload and its time limit.
printf '[fleet]\nupload-timeout = 900\n' >cfg/kbench/kbench.conf
"$KBENCH" fleet submit --dry-run --nodes n1 -c hb.conf --time-limit 10 \
	--results "$url" --kbench /usr/bin/kbench >out 2>err
st=$?
ok $st "submit --dry-run with upload-timeout in [fleet]"
[ "$st" -eq 0 ] || comment err
check "... the job's time limit covers the run and 15 minutes of upload" \
	grep -qx "#SBATCH --time=26" out
check "... its upload gives up after 900 s" \
	grep -q "fleet upload --timeout 900 " out

printf '[fleet]\ntries = 2\nstall = 5\n' >cfg/kbench/kbench.conf
expect_transcript -e "s/:$port/:PORT/" "an unknown key in [fleet]: file, line and the keys there are" \
	"$KBENCH" --db node/kbench.db fleet upload "$url" <<'OUT'
$ kbench --db node/kbench.db fleet upload http://127.0.0.1:PORT/dav
2> kbench: TMP/cfg/kbench/kbench.conf:3: unknown key 'stall' in [fleet] (expected tries, connect-timeout, stall-timeout, request-timeout, upload-timeout, collect-timeout or cafile)
[exit 1]
OUT
printf '[fleet]\nstall-timeout = 0\n' >cfg/kbench/kbench.conf
expect_transcript -e "s/:$port/:PORT/" "a value out of range in [fleet]" \
	"$KBENCH" --db collector.db fleet collect "$url" <<'OUT'
$ kbench --db collector.db fleet collect http://127.0.0.1:PORT/dav
2> kbench: TMP/cfg/kbench/kbench.conf:2: invalid stall-timeout '0' in [fleet] (expected seconds, 1 to 86400)
[exit 1]
OUT
printf '[fleet]\nupload-timeout = soon\n' >cfg/kbench/kbench.conf
expect_transcript -e "s/:$port/:PORT/" "submit refuses a bad [fleet] before anything is submitted" \
	"$KBENCH" fleet submit --dry-run --nodes n1 -c hb.conf --results "$url" <<'OUT'
$ kbench fleet submit --dry-run --nodes n1 -c hb.conf --results http://127.0.0.1:PORT/dav
2> kbench: TMP/cfg/kbench/kbench.conf:2: invalid upload-timeout 'soon' in [fleet] (expected seconds, 1 to 604800)
[exit 2]
OUT

done_testing
