#!/bin/sh
# t1200: kbench runs: every filter (name pattern, host, config, kernel glob,
# status as shown, --since/--until in each accepted form, --last among the
# matches), the text table within 100 columns with long values cut, json
# and csv, "no runs match" apart from an empty store, and each bad value
# with its message. The store is built directly, with start times around
# now, so that relative dates have something to select.
# Covers: cli/cmd_runs.c cli/date.c views/output.c db/query.c lib/clock.c

. "$TOP_SRCDIR/tests/cli/lib.sh"

# Runs 5 and 6 are still marked running on this host: whether their
# writer lives decides what they show.
KBENCH_HOSTNAME=alpha
export KBENCH_HOSTNAME

: > "$db"	# an empty file: the first reader makes it a store
kb runs > "$tmp/out" 2> "$tmp/err"
st=$?
check "an empty store lists nothing and exits 0 ($st)" test "$st" = 0 -a ! -s "$tmp/out"
check "... and says the store is empty" grep -qxF "kbench: no runs in $db" "$tmp/err"

now=$(date -u +%s)
iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ; }
h3=$((now - 3 * 3600))
m1=$((now - 60))
sql_write "INSERT INTO machines(id, hostname, fingerprint) VALUES (1, 'alpha', 'fa'), (2, 'beta', 'fb');
INSERT INTO runs(id, uuid, name, machine_id, kernel_release, config_name, started_at,
		 finished_at, status, pid) VALUES
 (1, 'u1', 'base', 1, '6.17.0', 'quick', '2026-10-15T08:00:00Z', '2026-10-15T08:05:00Z', 'complete', 1),
 (2, 'u2', 'nightly-1', 1, '6.18.0-rc1', 'nightly', '2026-11-01T00:00:00Z', '2026-11-01T01:00:00Z', 'complete', 1),
 (3, 'u3', 'nightly-2', 2, '6.18.0-rc2', 'nightly', '2026-11-01T12:00:30Z', '2026-11-01T13:00:00Z', 'failed', 1),
 (4, 'u4', 'nightly-3', 1, '6.18.0', 'nightly', '$(iso $((now - 3 * 86400)))', NULL, 'complete', 1),
 (5, 'u5', 'dead', 1, '6.18.0', 'quick', '$(iso $h3)', NULL, 'running', 2147483646),
 (6, 'u6', 'live', 1, '6.18.0', 'quick', '$(iso $m1)', NULL, 'running', $$),
 (7, 'u7', 'a-very-long-run-name-for-the-column', 2, '6.18.0-rc3-00123-gabcdef0123',
  'a-long-config-name', '$(iso $m1)', NULL, 'complete', 1),
 (8, 'u8', 'été-été-été-été-été-été', 1, '6.18.0', 'quick', '$(iso $m1)', NULL, 'complete', 1)"
ok $? "a store of eight runs on two hosts is built"
# The live run's writer is this shell, known by its boot and start time.
sql_write "UPDATE runs SET boot_id = '$(cat /proc/sys/kernel/random/boot_id)',
	pid_start_ticks = $(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20) WHERE id = 6"

# expect_ids DESCRIPTION "IDS" ARGS...: kbench runs ARGS lists these ids
expect_ids() {
	desc=$1 want=$2
	shift 2
	kb runs "$@" > "$tmp/out" 2> "$tmp/err"
	st=$?
	got=$(awk 'NR > 1 { print $1 }' "$tmp/out" | tr '\n' ' ' | sed 's/ $//')
	if [ "$st" -eq 0 ] && [ "$got" = "$want" ]; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		diag "runs $*: exit $st, ids '$got', want '$want'"
		sed 's/^/#   /' "$tmp/out" "$tmp/err"
	fi
}

expect_ids "no filter lists every run, oldest first" "1 2 3 4 5 6 7 8"
expect_ids "--name is a pattern matched anywhere" "2 3 4" --name 'ght'
expect_ids "--name anchored" "1" --name '^base$'
expect_ids "--host" "3 7" --host beta
expect_ids "--config" "2 3 4" --config nightly
expect_ids "--kernel takes a glob" "2 3 7" --kernel '6.18.0-rc*'
expect_ids "--kernel without wildcards is exact" "4 5 6 8" --kernel 6.18.0
expect_ids "--status complete" "1 2 4 7 8" --status complete
expect_ids "--status failed" "3" --status failed
expect_ids "--status interrupted: a running run whose writer is dead" "5" --status interrupted
expect_ids "--status running: only those whose writer lives" "6" --status running
expect_ids "filters combine" "2 4" --config nightly --status complete --host alpha
expect_ids "--last N is the newest N runs that match" "3 4" --name nightly --last 2
expect_ids "--last alone" "7 8" --last 2

expect_ids "--since DATE: from the start of that day" "2 3 4 5 6 7 8" --since 2026-11-01
expect_ids "--until DATE: to the end of that day" "1 2 3" --until 2026-11-01
expect_ids "--since/--until DATE: one day" "2 3" --since 2026-11-01 --until 2026-11-01
expect_ids "--until YYYY-MM-DDTHH:MM:SS takes that second" "1 2" --until 2026-11-01T00:00:00
expect_ids "--since/--until YYYY-MM-DDTHH:MM: one minute" "3" \
	--since 2026-11-01T12:00 --until 2026-11-01T12:00
expect_ids "a blank may stand for the T, and a trailing Z is taken" "3" \
	--since '2026-11-01 12:00' --until 2026-11-01T12:00:30Z
expect_ids "--since Nd" "4 5 6 7 8" --since 7d
expect_ids "--since Nh" "5 6 7 8" --since 4h
# Run 2 has a fixed date: the weeks that reach back to it, and not to run
# 1 (16 days before it), are counted from now.
weeks=$(( (now - $(date -u -d 2026-11-01T00:00:00Z +%s)) / 604800 + 1 ))
expect_ids "--since Nw" "2 3 4 5 6 7 8" --since ${weeks}w
expect_ids "--until Nh: started before N hours ago" "1 2 3 4 5" --until 1h

# today and yesterday are UTC days: which runs they hold depends on the
# time of day, so the expected ids are worked out the same way.
midnight=$((now - now % 86400))
since_ids() {	# the ids of runs 4..8 started at or after $1
	out=""
	for pair in "4:$((now - 3 * 86400))" "5:$h3" "6:$m1" "7:$m1" "8:$m1"; do
		[ "${pair#*:}" -ge "$1" ] && out="$out ${pair%%:*}"
	done
	echo "${out# }"
}
expect_ids "--since today" "$(since_ids $midnight)" --since today
expect_ids "--since yesterday" "$(since_ids $((midnight - 86400)))" --since yesterday

kb runs --name zzz > "$tmp/out" 2> "$tmp/err"
st=$?
check "a filter matching nothing lists nothing and exits 0 ($st)" test "$st" = 0 -a ! -s "$tmp/out"
check "... and says no runs match, not that the store is empty" \
	grep -qxF "kbench: no runs match ($db holds 8 runs)" "$tmp/err"

# The text table: 100 columns at most but for the kernel release, whole
# at the end of the line; other long values cut with '~'.
kb runs > "$tmp/out"
# (é is two bytes and one column)
check "every line within 100 columns, the kernel release left out" \
	sh -c "sed -e 's/é/e/g' -e 's/ [^ ]*\$//' '$tmp/out' | awk 'length > 100 { exit 1 }'"
check "the header names the columns" grep -Eq \
	'^ +id name +config +host +started +status +samples kernel$' "$tmp/out"
line7=$(grep '^    7 ' "$tmp/out")
want7="    7 a-very-long-run-n~ a-long-con~ beta       $(date -u -d "@$m1" '+%Y-%m-%d %H:%M') complete          0 6.18.0-rc3-00123-gabcdef0123"
if [ "$line7" = "$want7" ]; then
	ok 0 "long name and config are cut to their column, ending in '~'; the kernel is whole"
else
	ok 1 "long name and config are cut to their column, ending in '~'; the kernel is whole"
	diag "got  '$line7'"
	diag "want '$want7'"
fi
check "a UTF-8 name is cut between characters" grep -qF ' été-été-été-été-é~ quick ' "$tmp/out"

# json and csv: every value whole.
kb runs --format json > "$tmp/json"
check "json: format and version" grep -q '^{"format":"kbench-runs","format_version":1,"runs":\[$' "$tmp/json"
check "json: one run a line" test "$(grep -c '^{"id":' "$tmp/json")" = 8
check "json: the long name whole" grep -qF '"name":"a-very-long-run-name-for-the-column"' "$tmp/json"
check "json: status as shown" grep -qF '"id":5,"uuid":"u5","name":"dead","hostname":"alpha"' "$tmp/json"
check "json: interrupted for the dead writer" sh -c "grep '\"id\":5,' '$tmp/json' | grep -qF '\"status\":\"interrupted\"'"
check "json: no notes is null" sh -c "grep '\"id\":1,' '$tmp/json' | grep -qF '\"notes\":null}'"
if command -v python3 >/dev/null 2>&1; then
	check "json: parses" python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['runs']) == 8" "$tmp/json"
else
	skip "no python3 to parse the json"
fi
kb runs --format json --name zzz > "$tmp/json" 2>/dev/null
check "json: no match is an empty list" grep -qx '{"format":"kbench-runs","format_version":1,"runs":\[\]}' "$tmp/json"
kb runs --format csv --host beta > "$tmp/csv"
check "csv: version line, header and a record per run" test "$(cat "$tmp/csv")" = "# kbench runs csv 1
id,uuid,name,hostname,config_name,kernel_release,started_at,finished_at,status,samples,failures,notes
3,u3,nightly-2,beta,nightly,6.18.0-rc2,2026-11-01T12:00:30Z,2026-11-01T13:00:00Z,failed,0,0,
7,u7,a-very-long-run-name-for-the-column,beta,a-long-config-name,6.18.0-rc3-00123-gabcdef0123,$(iso $m1),,complete,0,0,"

# Bad values, each with its message and exit status 2.
forms="expected YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS], Nh, Nd, Nw, today or yesterday"
expect_err "a date in another layout is refused" 2 \
	"kbench: invalid date '12/01/2026' for --since: $forms" kb runs --since 12/01/2026
expect_err "a date that does not exist is refused" 2 \
	"kbench: invalid date '2026-02-30' for --until: $forms" kb runs --until 2026-02-30
expect_err "a word other than today or yesterday is refused" 2 \
	"kbench: invalid date 'tomorrow' for --since: $forms" kb runs --since tomorrow
expect_err "a relative date without a unit is refused" 2 \
	"kbench: invalid date '7' for --since: $forms" kb runs --since 7
expect_err "an unknown status is refused" 2 \
	"kbench: invalid value 'done' for --status: expected complete, running, interrupted or failed" \
	kb runs --status done
expect_err "an unknown format is refused" 2 \
	"kbench: unknown format 'xml' (expected text, json or csv)" kb runs --format xml
expect_err "a bad pattern is refused" 2 \
	"kbench: invalid regular expression '(' for --name at offset 1: missing closing parenthesis" \
	kb runs --name '('
expect_err "--last takes a positive integer" 2 \
	"kbench: invalid value '0' for --last: expected a positive integer" kb runs --last 0

done_testing
