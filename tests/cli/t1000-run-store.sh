#!/bin/sh
# A tiny hackbench run goes into a fresh database: every sample stored,
# runs and show describe it, --dry-run and --only plan without running.
. "$TOP_SRCDIR/tests/cli/lib.sh"

cat > "$tmp/tiny.conf" <<'CONF'
[global]
iterations = 3
warmup = 1
loops = 10
groups = 1 2

[hackbench-process-pipes]
transport = pipes

[hackbench-thread-sockets]
mode = thread
CONF

kb --quiet run -c "$tmp/tiny.conf" -n 6.18-base >"$tmp/out" 2>"$tmp/err"
ok $? "kbench run of a tiny config exits 0"
check "the database was created" test -s "$db"
check "2 sections x 2 rows x 3 samples are stored (warm-up discarded)" \
	test "$(sql 'SELECT count(*) FROM samples')" = 12
check "samples are in seconds, lower is better" \
	test "$(sql "SELECT count(*) FROM samples WHERE unit = 's' AND better = 'lower' AND value > 0")" = 12
check "rusage and duration are stored per sample" \
	test "$(sql 'SELECT count(*) FROM samples WHERE duration_ns > 0 AND user_ns + sys_ns > 0')" = 12
check "the run is complete" test "$(sql 'SELECT status FROM runs')" = complete
check "the config text is stored with the run" \
	sh -c "sqlite3 '$db' 'SELECT config_text FROM runs' | grep -q 'mode = thread'"
check "the machine is recorded from hwloc" \
	test "$(sql 'SELECT cpus > 0 AND cores > 0 AND length(topology_xml) > 100 FROM machines')" = 1
check "kernel facts are recorded" \
	test "$(sql 'SELECT kernel_release FROM runs')" = "$(uname -r)"
check "the schema version is set" test "$(sql 'PRAGMA user_version')" = 3
check "the store says it is kbench's" test "$(sql 'PRAGMA application_id')" = 1801610606
check "the database is in WAL mode" test "$(sql 'PRAGMA journal_mode')" = wal

check "the run prints its own table" grep -q '^Amean     1 ' "$tmp/out"
check "a first run has no previous run to compare with" sh -c "! grep -q 'Compared with' '$tmp/out'"
kb --quiet run -c "$tmp/tiny.conf" -n 6.18-next >"$tmp/out2" 2>&1
check "a second run of the config is compared with the previous one" \
	grep -q "^Compared with the previous run of config 'tiny' on this machine: #1 '6.18-base'" "$tmp/out2"
check "with both runs as columns" grep -Eq '^ +6\.18 +6\.18$' "$tmp/out2"
kb --quiet run -c "$tmp/tiny.conf" -n quiet-run --no-report >"$tmp/out3" 2>&1
check "--no-report prints nothing" test ! -s "$tmp/out3"
sql "DELETE FROM samples WHERE run_id IN (SELECT id FROM runs WHERE name IN ('6.18-next', 'quiet-run')); DELETE FROM runs WHERE name IN ('6.18-next', 'quiet-run');"

kb runs >"$tmp/runs" 2>&1
check "runs lists the run with its sample count" \
	grep -Eq '^ +1 +6\.18-base +tiny .* complete +12$' "$tmp/runs"
kb show 6.18-base >"$tmp/show" 2>&1
check "show names the run, its status and sections" \
	sh -c "grep -q 'status      complete' '$tmp/show' && grep -q 'hackbench-thread-sockets' '$tmp/show'"
kb show --config '#1' >"$tmp/cfg" 2>&1
check "show --config prints the stored config" cmp -s "$tmp/cfg" "$tmp/tiny.conf"

kb run -c "$tmp/tiny.conf" --dry-run >"$tmp/plan" 2>&1
check "--dry-run prints the plan" grep -q '^hackbench-process-pipes .* groups 1 2$' "$tmp/plan"
check "--dry-run stores nothing" test "$(sql 'SELECT count(*) FROM runs')" = 1
kb --quiet run -c "$tmp/tiny.conf" --only 'thread' -n only-run >/dev/null 2>&1
check "--only runs the matching sections only" \
	test "$(sql "SELECT count(DISTINCT section) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.name = 'only-run'")" = 1

KBENCH_DB=$tmp/env.db "$KBENCH" --quiet run -c "$tmp/tiny.conf" --only pipes >/dev/null 2>&1
check "KBENCH_DB names the default database" test -s "$tmp/env.db"
env -u KBENCH_DB XDG_DATA_HOME=$tmp/xdg "$KBENCH" --quiet run -c "$tmp/tiny.conf" --only pipes >/dev/null 2>&1
check "without KBENCH_DB the database is created under XDG_DATA_HOME" test -s "$tmp/xdg/kbench/kbench.db"
check "a run without -n is named after the kernel release" \
	test "$(sqlite3 "$tmp/env.db" 'SELECT name FROM runs')" = "$(uname -r)"

done_testing
