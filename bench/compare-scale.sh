#!/bin/sh
# compare-scale: how long kbench compare takes on a large store. Builds a
# database of 1,000,000 samples (100 runs x 10,000: 4 sections x 25 rows x
# 100 samples, through SQL in one transaction; no benchmark is run), then
# times compare of two runs and of ten runs, each in every format, best of
# three. Goal: under 1 s each.
# Variables: RUNS (default 100, at least 10: the store's size, 10,000
# samples a run).
# Usage: bench/compare-scale.sh [KBENCH]   (default ./kbench; needs sqlite3)
. "$(dirname "$0")/usage.sh"
. "$(dirname "$0")/empty-store.sh"
set -e
kbench=${1:-${KBENCH:-./kbench}}
RUNS=${RUNS:-100}
[ "$RUNS" -ge 10 ] 2>/dev/null ||
	{ echo "compare-scale: RUNS must be 10 or more (it compares ten runs)" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "compare-scale: needs the sqlite3 CLI (apt-get install sqlite3)" >&2; exit 2; }
tmp=$(mktemp -d ./compare-scale.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/scale.db
# The runs are made on host 'scale' below: a bare name means this host.
KBENCH_HOSTNAME=scale
export KBENCH_HOSTNAME

empty_store "$kbench" "$db"
start=$(date +%s.%N)
sqlite3 "$db" <<SQL
PRAGMA synchronous = OFF;
BEGIN;
INSERT INTO machines (hostname, cpu_model, cpus, fingerprint)
	VALUES ('scale', 'synthetic', 2, 'compare-scale');
WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < $RUNS)
INSERT INTO runs (uuid, name, machine_id, config_name, config_text, started_at,
		  finished_at, status)
SELECT printf('%08x-0000-4000-8000-%012x', i, i), 'scale-' || i,
       (SELECT id FROM machines WHERE fingerprint = 'compare-scale'), 'scale',
       '[hackbench-process-pipes]', '2026-01-01T00:00:00Z', '2026-01-01T01:00:00Z', 'complete'
FROM r;
WITH RECURSIVE k(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM k WHERE j < 9999)
INSERT INTO samples (run_id, section, workload, row, iteration, value, unit, better,
		     started_at, duration_ns, user_ns, sys_ns)
SELECT runs.id, 'hackbench-' || (j / 2500), 'hackbench', CAST((j / 100) % 25 + 1 AS TEXT),
       j % 100, 0.5 + (abs(random()) % 100000) / 100000.0, 's', 'lower',
       0, 500000000, 100000000, 300000000
FROM runs, k ORDER BY runs.id, k.j;
COMMIT;
SQL
end=$(date +%s.%N)
samples=$(sqlite3 "$db" 'SELECT count(*) FROM samples')
printf 'database: %s samples in %d runs, built in %.1f s (%s MiB)\n' "$samples" \
	"$(sqlite3 "$db" 'SELECT count(*) FROM runs')" "$(echo "$end - $start" | bc)" \
	"$(( $(stat -c %s "$db") / 1048576 ))"

best() {	# best wall time of three, in seconds
	b=
	for i in 1 2 3; do
		s=$(date +%s.%N)
		"$kbench" --db "$db" compare "$@" > /dev/null
		e=$(date +%s.%N)
		t=$(echo "$e - $s" | bc)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
	done
	echo "$b"
}

status=0
ten="scale-1 scale-2 scale-3 scale-4 scale-5 scale-6 scale-7 scale-8 scale-9 scale-10"
for fmt in text json; do
	for runs in "scale-1 scale-2" "$ten"; do
		n=$(echo $runs | wc -w)
		t=$(best --format $fmt $runs)
		verdict=ok
		[ "$(echo "$t < 1" | bc)" = 1 ] || { verdict="OVER the 1 s goal"; status=1; }
		printf 'compare %2d runs (%s, %d samples): %.3f s  %s\n' "$n" "$fmt" \
			$((n * 10000)) "$t" "$verdict"
	done
done
t=$(best --pool scale-1 scale-2)
printf 'compare --pool (text): %.3f s\n' "$t"
exit $status
