#!/bin/sh
# t7300: kbench export and import between two hosts: runs made on host1
# and host2 (two stores whose machine is renamed, as if made elsewhere),
# exported, imported into a third store and compared there; import is
# idempotent by uuid, merges machines by fingerprint, migrates an older
# bundle in a copy (the file given is never written) and refuses a newer
# one or a machine whose fingerprint names another.
# Covers: cli/cmd_export.c cli/cmd_import.c db/bundle.c lib/uuid.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-process-pipes]\niterations = 3\nloops = 10\ngroups = 1\n' > "$tmp/hb.conf"
db1=$tmp/host1.db db2=$tmp/host2.db db3=$tmp/central.db
kbd() { d=$1; shift; "$KBENCH" --db "$d" --quiet "$@"; }
check "runs a-1, a-2 on host1 and b-1 on host2" \
	kbd "$db1" run -c "$tmp/hb.conf" -n a-1 --no-report '&&' \
	kbd "$db1" run -c "$tmp/hb.conf" -n a-2 --no-report '&&' \
	"$KB_SQL" --write "$db1" "UPDATE machines SET hostname = 'host1', fingerprint = 'f1f1f1f1f1f1f1f1'" '&&' \
	kbd "$db2" run -c "$tmp/hb.conf" -n b-1 --no-report '&&' \
	"$KB_SQL" --write "$db2" "UPDATE machines SET hostname = 'host2', fingerprint = 'f2f2f2f2f2f2f2f2'"

# A run's content, by uuid, the same wherever it is stored.
content() {	# content DB UUID
	"$KB_SQL" "$1" "SELECT r.uuid, r.name, r.kernel_release, r.config_name, r.config_text,
		r.started_at, r.finished_at, r.status, m.hostname, m.cpu_model, m.cpus,
		m.mem_bytes, m.topology_xml, m.fingerprint FROM runs r JOIN machines m
		ON m.id = r.machine_id WHERE r.uuid = '$2';
		SELECT section, workload, row, iteration, value, unit, better, started_at,
		duration_ns, user_ns, sys_ns, flag FROM samples WHERE run_id =
		(SELECT id FROM runs WHERE uuid = '$2') ORDER BY rowid;
		SELECT section, row, iteration, source, key, kind, value FROM monitor_values
		WHERE run_id = (SELECT id FROM runs WHERE uuid = '$2') ORDER BY rowid;
		SELECT section, row, iteration, reason, at FROM failures WHERE run_id =
		(SELECT id FROM runs WHERE uuid = '$2') ORDER BY rowid;
		SELECT section, key, value FROM run_meta WHERE run_id =
		(SELECT id FROM runs WHERE uuid = '$2') ORDER BY rowid;"
}
# A failure and a monitor value travel too.
"$KB_SQL" --write "$db1" "INSERT INTO failures(run_id, section, row, iteration, reason, at)
	VALUES (1, 'hackbench-process-pipes', '1', 4, 'timeout', '2026-11-01T00:00:00Z');
	INSERT INTO monitor_values(run_id, section, row, iteration, source, key, kind, value)
	VALUES (1, 'hackbench-process-pipes', '1', 1, 'vmstat', 'pgfault', 'delta', 12)"

# Their machines are other hosts than this one now: a run is NAME@HOST.
kbd "$db1" export a-1@host1 a-2@host1 -o "$tmp/host1.kbb" > "$tmp/out" 2> "$tmp/err"
ok $? "export two runs of host1"
check "export says what it wrote" test "$(cat "$tmp/out")" = "exported 2 runs to $tmp/host1.kbb"
kbd "$db2" export b-1@host2 '#1' -o "$tmp/host2.kbb" > "$tmp/out"
check "a run named twice is exported once" test "$(cat "$tmp/out")" = \
	"exported 1 run to $tmp/host2.kbb"
check "the bundle has the store's schema version" \
	test "$("$KB_SQL" "$tmp/host1.kbb" 'PRAGMA user_version')" = "$("$KB_SQL" "$db1" 'PRAGMA user_version')"
check "... no WAL: one self-contained file" \
	test "$("$KB_SQL" "$tmp/host1.kbb" 'PRAGMA journal_mode')" = delete
check "... and nothing beside it" test "$(ls "$tmp" | grep -c 'host1.kbb')" = 1
check "it holds the two runs, their samples and one machine" test \
	"$("$KB_SQL" "$tmp/host1.kbb" 'SELECT (SELECT count(*) FROM runs) || (SELECT count(*) FROM samples) || (SELECT count(*) FROM machines)')" = 261

expect() {	# expect STATUS MESSAGE COMMAND...: stderr's first line and the status
	want_rc=$1 want=$2
	shift 2
	"$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	got=$(head -1 "$tmp/err")
	if [ "$rc" = "$want_rc" ] && [ "$got" = "$want" ]; then
		ok 0 "$want"
	else
		ok 1 "want rc $want_rc '$want', got rc $rc '$got'"
	fi
}
expect 1 "kbench: '$tmp/host1.kbb' already exists: export writes a new file" \
	kbd "$db1" export a-1@host1 -o "$tmp/host1.kbb"
expect 2 "kbench: export needs the runs to write" kbd "$db1" export -o "$tmp/x.kbb"
expect 2 "kbench: export needs -o FILE" kbd "$db1" export a-1
expect 1 "kbench: no run named 'nosuch' in $db1 (see kbench runs)" \
	kbd "$db1" export nosuch -o "$tmp/x.kbb"
check "a failed export leaves no file" test ! -e "$tmp/x.kbb"
expect 2 "kbench: import needs bundle files" kbd "$db3" import

kbd "$db3" import --dry-run "$tmp/host1.kbb" "$tmp/host2.kbb" > "$tmp/out"
ok $? "import --dry-run"
check "--dry-run lists each run to add" test "$(grep -c '^  add ' "$tmp/out")" = 3
check "... and sums up each file" grep -q \
	"^$tmp/host1.kbb: would import 2 runs (6 samples), 1 new machine; 0 already present$" "$tmp/out"
check "... and adds nothing" test "$("$KB_SQL" "$db3" 'SELECT count(*) FROM runs')" = 0

kbd "$db3" import "$tmp/host1.kbb" "$tmp/host2.kbb" > "$tmp/out"
ok $? "import both bundles"
cat > "$tmp/want" <<WANT
$tmp/host1.kbb: imported 2 runs (6 samples), 1 new machine; 0 already present
$tmp/host2.kbb: imported 1 run (3 samples), 1 new machine; 0 already present
WANT
check "import says what it added" cmp -s "$tmp/want" "$tmp/out"
same=0
for db in "$db1" "$db2"; do
	for uuid in $("$KB_SQL" "$db" "SELECT uuid FROM runs"); do
		[ "$(content "$db" "$uuid")" = "$(content "$db3" "$uuid")" ] || same=1
	done
done
ok $same "every run arrives whole: run, machine, samples, monitor values, failures, facts"
kbd "$db3" import "$tmp/host2.kbb" "$tmp/host1.kbb" > "$tmp/out"
check "importing again adds nothing" test "$(tail -1 "$tmp/out")" = \
	"$tmp/host1.kbb: imported 0 runs (0 samples), 0 new machines; 2 already present"
check "... the store holds each run once" test "$("$KB_SQL" "$db3" 'SELECT count(*) FROM runs')" = 3

kbd "$db3" compare a-1@host1 b-1@host2 > "$tmp/out"
ok $? "compare a run of host1 with a run of host2"
# The header block names a fact once when the runs share it, else once a
# run, after the run's name.
is "... and the header says the machines differ: a Host line per run" \
	"$(grep -A 1 '^Host:' "$tmp/out")" \
	"Host:     a-1  host1
          b-1  host2"
check "runs lists the hosts" test "$(kbd "$db3" runs --host host2 | grep -c ' b-1 ')" = 1

# Machines merge by fingerprint: a later run of host1 joins its machine.
check "a later run of host1 exported with an old one" \
	kbd "$db1" run -c "$tmp/hb.conf" -n a-3 --no-report '&&' \
	"$KB_SQL" --write "$db1" "UPDATE runs SET machine_id = 1; DELETE FROM machines WHERE id <> 1" '&&' \
	kbd "$db1" export a-3@host1 a-1@host1 -o "$tmp/later.kbb"
kbd "$db3" import "$tmp/later.kbb" > "$tmp/out"
check "it joins host1's machine" test "$(cat "$tmp/out")" = \
	"$tmp/later.kbb: imported 1 run (3 samples), 0 new machines; 1 already present"
check "... one machine per host" test "$("$KB_SQL" "$db3" 'SELECT count(*) FROM machines')" = 2

# An older bundle: a store of schema version 1 is migrated in a copy.
"$KB_SQL" --write "$tmp/v1.kbb" "$(cat "$TOP_SRCDIR/tests/data/store-v1.sql")"
sum=$(cksum < "$tmp/v1.kbb")
kbd "$db3" import "$tmp/v1.kbb" > "$tmp/out"
ok $? "a version-1 bundle imports"
check "... its runs with their monitor kinds" test \
	"$("$KB_SQL" "$db3" "SELECT count(*) FROM monitor_values WHERE kind = 'max'")" -gt 0
check "... the file given is not written" test "$(cksum < "$tmp/v1.kbb")" = "$sum"
check "... still at version 1" test "$("$KB_SQL" "$tmp/v1.kbb" 'PRAGMA user_version')" = 1

# A run left running in a bundle arrives interrupted: nobody writes it here.
kbd "$db2" export b-1@host2 -o "$tmp/running.kbb" >/dev/null &&
	"$KB_SQL" --write "$tmp/running.kbb" "UPDATE runs SET status = 'running', finished_at = NULL,
		uuid = '00000000-0000-4000-8000-000000000001'"
kbd "$db3" import "$tmp/running.kbb" >/dev/null
check "a running run arrives interrupted" test "$("$KB_SQL" "$db3" "SELECT status FROM runs
	WHERE uuid = '00000000-0000-4000-8000-000000000001'")" = interrupted

before=$(store_digest "$db3")
cp "$tmp/host2.kbb" "$tmp/newer.kbb" && "$KB_SQL" --write "$tmp/newer.kbb" "PRAGMA user_version = 99"
expect 1 "kbench: $tmp/newer.kbb: schema version 99 is newer than this kbench understands ($("$KB_SQL" "$db1" 'PRAGMA user_version')); upgrade kbench" \
	kbd "$db3" import "$tmp/newer.kbb"
cp "$tmp/host2.kbb" "$tmp/clash.kbb" && "$KB_SQL" --write "$tmp/clash.kbb" "UPDATE machines SET
	fingerprint = 'f1f1f1f1f1f1f1f1'; UPDATE runs SET uuid = '00000000-0000-4000-8000-000000000002'"
expect 1 "kbench: $tmp/clash.kbb: machine fingerprint 'f1f1f1f1f1f1f1f1' is host 'host2' there but a different machine ('host1') in $db3" \
	kbd "$db3" import "$tmp/clash.kbb"
expect 1 "kbench: $tmp/newer.kbb: schema version 99 is newer than this kbench understands ($("$KB_SQL" "$db1" 'PRAGMA user_version')); upgrade kbench" \
	kbd "$db3" import "$tmp/later.kbb" "$tmp/newer.kbb"
check "a refused file changes nothing, nor do the good files given with it" \
	test "$(store_digest "$db3")" = "$before"

done_testing
