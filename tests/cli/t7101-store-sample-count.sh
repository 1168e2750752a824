#!/bin/sh
# t7101-store-sample-count: runs, show and the run report count samples,
# not the result rows they store: a pft sample stores four rows (system,
# elapsed, faults/sec, faults/cpu) and a UDP_STREAM sample two (send,
# recv), yet counts once, so a pft run has iterations x worker counts
# samples.
# Covers: db/query.c cli/cmd_runs.c cli/cmd_show.c views/report.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

cat >"$tmp/pft.conf" <<'EOC'
[pft-threads]
iterations = 3
warmup = 0
workers = 1 2
mapping_size = 16M
EOC
kb --quiet run -c "$tmp/pft.conf" -n pft >"$tmp/out" 2>"$tmp/err"
ok $? "a pft run of 3 iterations x 2 worker counts is stored"
rows=$(sql "SELECT count(*) FROM samples")
check "with 4 result rows a sample ($rows)" test "$rows" = 24
check "the report after the run says 6 samples" grep -q "^run @1 'pft': 6 samples (0 failed)" "$tmp/out"
# samples: the 10th column of runs' csv
kb runs --name pft --format csv >"$tmp/out" 2>&1
got=$(awk -F, '$1 ~ /^[0-9]+$/ { print $10 }' "$tmp/out")
check "runs shows 6 samples, iterations x worker counts ($got)" test "$got" = 6
kb show pft >"$tmp/out" 2>&1
check "so does show" grep -q '^  samples     6 (0 failed)$' "$tmp/out"

cat >"$tmp/udp.conf" <<'EOC'
[netperf-udp-stream]
test = UDP_STREAM
iterations = 2
warmup = 0
duration = 0.1
sizes = 64 1024
EOC
if kb --quiet run -c "$tmp/udp.conf" -n udp --no-report >"$tmp/out" 2>"$tmp/err"; then
	kb runs --name udp --format csv >"$tmp/out" 2>&1
	got=$(awk -F, '$1 ~ /^[0-9]+$/ { print $10 }' "$tmp/out")
	check "a UDP_STREAM run of 2 iterations x 2 sizes has 4 samples ($got), 8 rows" \
		test "$got" = 4 -a "$(sql "SELECT count(*) FROM samples s JOIN runs r
			ON r.id = s.run_id WHERE r.name = 'udp'")" = 8
else
	skip "no UDP_STREAM run here: $(tail -n 1 "$tmp/err")"
fi
done_testing
