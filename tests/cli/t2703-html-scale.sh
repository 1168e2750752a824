#!/bin/sh
# t2703: compare --format html when samples are many, and its axes: two
# runs of 600 samples a row (2,400 in the chart, past the 2,000 drawn as
# dots) are drawn as a box a run and row, not a node a sample, and the
# page stays small; samples down to zero keep the y axis at zero or above;
# the x axis is labelled. Then history's time axis for runs minutes apart:
# tics dated to the minute, none labelled alike, in order.
# Covers: compare/render_html.c lib/plot.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/html-lib.sh"

printf '[hackbench-process-pipes]\niterations = 1\nloops = 10\ngroups = 1\n' > "$tmp/hb.conf"
check "a real run to clone" kb --quiet run -c "$tmp/hb.conf" -n seed --no-report
# Runs 2 and 3, rows lat-1 and lat-2, 600 samples each: 0, 0.001, ...
# (run 3 a little slower); times, lower is better.
check "two runs of 1,200 samples" sql_write "
	INSERT INTO runs (id, uuid, name, machine_id, kernel_release, config_name, config_text,
		started_at, finished_at, status)
	SELECT k.n, printf('%08d-0000-4000-8000-000000000000', k.n), 'many' || (k.n - 1),
		machine_id, kernel_release, 'many', config_text, started_at, finished_at,
		'complete' FROM runs, (SELECT 2 AS n UNION SELECT 3) k WHERE runs.id = 1;
	WITH RECURSIVE k(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM k WHERE j < 1199)
	INSERT INTO samples (run_id, section, workload, row, iteration, value, unit, better)
	SELECT r, 'lat', 'external', 'lat-' || (j % 2 + 1), j / 2 + 1,
		(j / 2) * 0.001 * (r - 1), 's', 'lower' FROM k, (SELECT 2 AS r UNION SELECT 3)"
is "the fixture" "$(sql "SELECT run_id, count(*), min(value) FROM samples WHERE section = 'lat'
	GROUP BY run_id")" "2|1200|0.0
3|1200|0.0"

PATH=$tmp/nobin kb compare --format html many1 many2 > "$tmp/plain.html" 2>/dev/null
ok $? "the page without gnuplot"
if need_browser; then
	kb compare --format html -o "$tmp/c.html" many1 many2
	ok $? "compare --format html of 2,400 samples"
	expect_transcript "boxes, not a dot a sample: no point symbol in the sample series" \
		check_html charts "$tmp/c.html" <<'T'
$ check_html charts TMP/c.html
chart1 0,0,2,2 lat: lat-N, Amean (s), lower is better
[exit 0]
T
	size=$(wc -c < "$tmp/c.html")
	if [ "$size" -lt 60000 ]; then
		ok 0 "the page is small ($size bytes)"
	else
		ok 1 "the page is small ($size bytes; want < 60000)"
	fi
	is "a box per run and row: 2 of 4 series draw no point symbol" \
		"$(grep -o '<g id="chart1-series-[0-9]" class="series">' "$tmp/c.html" | wc -l)" 4
	check_html ytics "$tmp/c.html" chart1 > "$tmp/ytics"
	if [ -s "$tmp/ytics" ] && ! grep -q '^-' "$tmp/ytics"; then
		ok 0 "the y axis does not reach below zero ($(head -1 "$tmp/ytics" | cut -d' ' -f1) at the bottom)"
	else
		ok 1 "the y axis does not reach below zero"
		comment "$tmp/ytics"
	fi
	is "the x axis is labelled" "$(check_html xlabel "$tmp/c.html" chart1)" "N (lat-N)"

	# history: the clone's runs a few minutes apart, one config.
	check "30 runs, 7 minutes apart" sql_write "
		WITH RECURSIVE k(j) AS (SELECT 4 UNION ALL SELECT j + 1 FROM k WHERE j < 33)
		INSERT INTO runs (id, uuid, name, machine_id, kernel_release, config_name,
			config_text, started_at, finished_at, status)
		SELECT j, printf('%08d-0000-4000-8000-000000000000', j), 'm' || j, machine_id,
			kernel_release, 'minutes', config_text,
			strftime('%Y-%m-%dT%H:%M:%SZ', '2026-10-01T10:00:00', '+' || (7 * j) || ' minutes'),
			strftime('%Y-%m-%dT%H:%M:%SZ', '2026-10-01T10:00:00', '+' || (7 * j + 1) || ' minutes'),
			'complete' FROM k, runs WHERE runs.id = 1;
		INSERT INTO samples (run_id, section, workload, row, iteration, value, unit, better)
		SELECT runs.id, 'hb', 'hackbench', '1', it.i, 0.5 + runs.id * 0.001, 's', 'lower'
		FROM runs, (SELECT 1 AS i UNION SELECT 2 UNION SELECT 3) it
		WHERE runs.config_name = 'minutes'"
	kb history --config minutes --format html -o "$tmp/h.html"
	ok $? "history --format html of runs minutes apart"
	check_html xtics "$tmp/h.html" chart1 > "$tmp/xtics"
	n=$(wc -l < "$tmp/xtics")
	is "tics dated to the minute, none alike, left to right" \
		"$(cut -d' ' -f1-2 "$tmp/xtics" | sort -u | wc -l) $(cut -d' ' -f3 "$tmp/xtics" |
		sort -n -c && echo ordered) $(grep -c '^10-01 [0-9][0-9]:[0-9][0-9] ' "$tmp/xtics")" \
		"$n ordered $n"
	if [ "$n" -ge 3 ] && [ "$n" -le 8 ]; then
		ok 0 "a readable count of tics ($n)"
	else
		ok 1 "a readable count of tics ($n; want 3 to 8)"
		comment "$tmp/xtics"
	fi
	is "the time axis is labelled" "$(check_html xlabel "$tmp/h.html" chart1)" "run started (UTC)"
fi
done_testing
