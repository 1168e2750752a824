#!/bin/sh
# compare-scale: how long kbench compare takes on a large store. Builds a
# database of 1,000,000 samples (100 runs x 10,000: 4 sections x 25 rows x
# 100 samples, through SQL in one transaction; no benchmark is run), then
# times compare of two runs and of ten runs in every format (text, brief,
# markdown, csv, json, html), best of three, and measures the size of the
# html of ten runs. Goals: under 1 s each; the html page under 3 MB.
# Exits 1 when a goal is missed or a figure could not be measured (a
# compare that fails, a time or size that is not a number), 2 when it
# cannot run (no sqlite3, no gnuplot: html without its charts would time
# nothing worth timing).
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
command -v gnuplot >/dev/null || { echo "compare-scale: needs gnuplot to time html with its charts (apt-get install gnuplot-nox)" >&2; exit 2; }
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

# best ARGS...: "WALL CPU" of the best wall time of three of kbench compare
# ARGS, in seconds (CPU: user + system, its children's too, from
# /usr/bin/time; "-" without it: on a loaded machine wall time waits for
# CPUs, CPU time says what the command costs); nothing (and the error on
# stderr) when a compare fails.
best() {
	b= bc_=-
	for i in 1 2 3; do
		s=$(date +%s.%N)
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f '%U %S' -o "$tmp/time" "$kbench" --db "$db" compare "$@" \
				> /dev/null || return 1
			read -r u sy < "$tmp/time"
			c=$(printf '%.2f' "$(echo "$u + $sy" | bc)")
		else
			"$kbench" --db "$db" compare "$@" > /dev/null || return 1
			c=-
		fi
		e=$(date +%s.%N)
		t=$(echo "$e - $s" | bc)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t bc_=$c; fi
	done
	echo "$b $bc_"
}

status=0
number() { case $1 in '' | *[!0-9.]* | *.*.*) return 1 ;; esac; }
# judge WHAT VALUE GOAL UNIT [NOTE]: print the figure against its goal; a
# figure that is not a number fails the script as a missed goal does.
judge() {
	if ! number "$2"; then
		printf '%s: could not be measured (got "%s")\n' "$1" "$2"
		status=1
		return
	fi
	verdict=ok
	[ "$(echo "$2 < $3" | bc)" = 1 ] || { verdict="OVER the $3 $4 goal"; status=1; }
	printf '%s: %.3f %s%s  %s\n' "$1" "$2" "$4" "${5:+ ($5)}" "$verdict"
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
ten="scale-1 scale-2 scale-3 scale-4 scale-5 scale-6 scale-7 scale-8 scale-9 scale-10"
for fmt in text brief markdown csv json html; do
	for runs in "scale-1 scale-2" "$ten"; do
		n=$(echo $runs | wc -w)
		t=$(best --format $fmt $runs) || t=
		judge "$(printf 'compare %2d runs (%s, %d samples)' "$n" "$fmt" $((n * 10000)))" \
			"${t% *}" 1 s "cpu ${t#* } s"
	done
done
# shellcheck disable=SC2086 # one argument a run
size=
"$kbench" --db "$db" compare --format html $ten > "$tmp/ten.html" &&
	size=$(echo "scale=3; $(stat -c %s "$tmp/ten.html") / 1048576" | bc)
judge "compare 10 runs (html), the page's size" "$size" 3 MiB
t=$(best --pool scale-1 scale-2) || t=
if number "${t% *}"; then
	printf 'compare --pool (text): %.3f s (cpu %s s)\n' "${t% *}" "${t#* }"
else
	echo "compare --pool (text): could not be measured"
	status=1
fi
exit $status
