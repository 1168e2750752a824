# empty-store.sh: sourced by the bench/ scripts that build a store through
# SQL. empty_store KBENCH DB makes DB a kbench store with no rows: only
# 'kbench run' creates a store (the commands that read one refuse a file
# that does not exist), so one tiny hackbench sample is run into DB,
# without monitors, and then every row of every table is deleted. The
# schema stays, at the version this kbench writes. Needs the sqlite3 CLI.
#
# nightly_rows DB RUNS SLOW TAG adds to such a store months of nightly
# runs, in one transaction: RUNS runs (50 a night: 5 hosts, their
# machines' fingerprints TAG-1..TAG-5, x 10 configs), 50 samples each (10
# rows x 5), config cfg-3 5% slower from night SLOW on.
empty_store() {
	es_conf=$(mktemp "${TMPDIR:-/tmp}/empty-store.XXXXXX") || return 1
	printf '[s]\nworkload = hackbench\niterations = 1\nwarmup = 0\nloops = 1\ngroups = 1\nmonitors = none\n' \
		> "$es_conf"
	# (a list, so that a caller's set -e lets the message through)
	es_out=$("$1" --quiet --db "$2" run -c "$es_conf" 2>&1) && es_rc=0 || es_rc=$?
	rm -f "$es_conf"
	if [ "$es_rc" -ne 0 ]; then
		printf '%s\n' "$es_out" >&2
		echo "bench: cannot create the store $2 with '$1 run' (its output above)" >&2
		return 1
	fi
	sqlite3 "$2" "SELECT 'DELETE FROM \"' || name || '\";' FROM sqlite_master WHERE type = 'table'" |
		sqlite3 "$2"
}

nightly_rows() {
	sqlite3 "$1" <<SQL
PRAGMA synchronous = OFF;
BEGIN;
WITH RECURSIVE h(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM h WHERE i < 5)
INSERT INTO machines (hostname, cpu_model, cpus, fingerprint)
SELECT 'host-' || i, 'synthetic', 2, '$4-' || i FROM h;
WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < $2 - 1)
INSERT INTO runs (id, uuid, name, machine_id, kernel_release, config_name, config_text,
		  started_at, finished_at, status)
SELECT i + 1, printf('%08x-0000-4000-8000-%012x', i + 1, i + 1),
       printf('nightly-%03d', i / 50),
       (SELECT id FROM machines WHERE fingerprint = '$4-' || (i % 5 + 1)),
       printf('6.%d.0', i / 50), 'cfg-' || ((i / 5) % 10 + 1), '[hackbench-process-pipes]',
       strftime('%Y-%m-%dT02:00:00Z', '2025-01-01', '+' || (i / 50) || ' days'),
       strftime('%Y-%m-%dT03:00:00Z', '2025-01-01', '+' || (i / 50) || ' days'), 'complete'
FROM r;
WITH RECURSIVE k(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM k WHERE j < 49)
INSERT INTO samples (run_id, section, workload, row, iteration, value, unit, better)
SELECT r.id, 'hackbench-process-pipes', 'hackbench', CAST(j / 5 + 1 AS TEXT), j % 5 + 1,
       (j / 5 + 1) * 0.1 *
       (CASE WHEN r.config_name = 'cfg-3' AND (r.id - 1) / 50 >= $3 THEN 1.05 ELSE 1 END) *
       (1 + (((r.id * 7919 + j * 104729) % 10007) / 10007.0 - 0.5) * 0.04),
       's', 'lower'
FROM runs r, k;
UPDATE runs SET nsamples = 50;
COMMIT;
SQL
}
