#!/bin/sh
# t2701: kbench history --format html, as headless Chromium renders it, on
# the 30 synthetic nightly runs of t2300 (row 1 steps 10% worse at night
# 20, row 2 stays flat; the last run renamed with markup in its name): the
# overview of small multiples (drawn without gnuplot), each linked to its
# series, the change point marked on it and linked to what it compared; a
# chart per series with a point per run on a dated time axis (tics none
# alike, in order, labelled), the change point marked between the last
# run before it and the first after with its change, each point naming
# its run and kernel on hover, the table with the change; --since, the
# page without gnuplot, and -o errors.
# Covers: compare/render_history.c lib/html.c lib/plot.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/html-lib.sh"

printf '[hackbench-process-pipes]\niterations = 1\nloops = 10\ngroups = 1\n' > "$tmp/hb.conf"
check "a real run to clone" kb --quiet run -c "$tmp/hb.conf" -n seed --no-report
host=$(sql "SELECT hostname FROM machines")
last='nightly-30<img src=x>'
runs=$(awk -v first=1 -v last=30 -v step_at=20 -v base=0.5 -v step_to=0.55 -v config=hb -v tag=0 \
	-f "$TOP_SRCDIR/tests/data/nightly-runs.awk") &&
	sql_write "$runs UPDATE runs SET config_name = 'seed' WHERE id = 1;
		UPDATE runs SET name = '$last' WHERE name = 'nightly-30'"
ok $? "30 nightly runs of config hb"

expect_err "-o to a directory that does not exist" 2 \
	"kbench: cannot write '$tmp/nodir/h.html': No such file or directory" \
	kb history --config hb --format html -o "$tmp/nodir/h.html"
mkdir "$tmp/nobin"
PATH=$tmp/nobin kb history --config hb --format html -o "$tmp/plain.html" 2>"$tmp/err"
ok $? "without gnuplot on PATH the page is still made"
is "with a line saying so, both tables and no chart" \
	"$(grep -c '^<p class="noplot">No plots' "$tmp/plain.html") $(grep -c '<table class="history">' \
	"$tmp/plain.html") $(grep -c '<svg class="plot"' "$tmp/plain.html")" "1 2 0"
# The overview is drawn without gnuplot: a small multiple a series.
is "an overview: a small multiple a series, linked to it" \
	"$(grep -o '<figure><a href="#series[0-9]*">[^<]*</a><br><svg class="spark"' "$tmp/plain.html" |
	sed "s/ on $host, / on HOST, /")" \
	'<figure><a href="#series1">hackbench-process-pipes 1 on HOST, config hb</a><br><svg class="spark"
<figure><a href="#series2">hackbench-process-pipes 2 on HOST, config hb</a><br><svg class="spark"'
is "the change point marked on series 1's, linked to it" \
	"$(grep -o '<a href="#series[0-9]*-cp[0-9]*"><line class="mark"[^>]*><title>[^<]*</title>' \
	"$tmp/plain.html" | sed 's/ x1="[^"]*" x2="[^"]*"//')" \
	'<a href="#series1-cp1"><line class="mark" y1="0" y2="48" stroke="#c62828" stroke-width="3"><title>-9.90% worse from nightly-20</title>'
a=$(sql "SELECT id FROM runs WHERE name = 'nightly-19'") b=$(sql "SELECT id FROM runs WHERE name = 'nightly-20'")
check "which says what changed and how to compare the runs around it" grep -qx \
	"<p class=\"change\" id=\"series1-cp1\">Change point 1: Min 0.4992 over 19 runs, then 0.5486 over 11 runs from nightly-20 on (-9.90% worse, p 5e-28). The runs around it compare with: kbench compare @$a @$b</p>" \
	"$tmp/plain.html"


if need_browser; then
	kb history --config hb --format html -o "$tmp/h.html"
	ok $? "history --format html -o FILE"
	render "$tmp/h.html"
	ok $? "Chromium loads the page"
	if [ -s "$tmp/console" ]; then
		ok 1 "no console message (script errors, blocked fetches)"
		comment "$tmp/console"
	else
		ok 0 "no console message (script errors, blocked fetches)"
	fi
	expect_transcript -e "s/ on $host, / on HOST, /" "a chart per series, a point per run" \
		check_html charts "$tmp/dom.html" <<'T'
$ check_html charts TMP/dom.html
chart1 30,30 hackbench-process-pipes 1 on HOST, config hb: Amean over time (line, 95% CI) and each run's Min (circles, the values change points are found on), lower is better
chart2 30,30 hackbench-process-pipes 2 on HOST, config hb: Amean over time (line, 95% CI) and each run's Min (circles, the values change points are found on), lower is better
[exit 0]
T
	check_html titles "$tmp/dom.html" chart1 >"$tmp/titles"
	is "a point names its run and kernel on hover" "$(sed -n 20p "$tmp/titles")" \
		"nightly-20, kernel 6.1.20, 2026-10-20 02:00: Amean 0.5460 +- 0.0025 s, Min 0.5450 s, 3 samples"
	is "markup in a run name is text there too" "$(sed -n 30p "$tmp/titles" | cut -d, -f1)" \
		"$last"
	check_html texts "$tmp/dom.html" chart1 >"$tmp/texts"
	is "the change point is marked with its change" \
		"$(grep -c '% \(worse\|better\)$' "$tmp/texts") $(grep -c ' -9.90% worse$' "$tmp/texts")" \
		"1 1"
	# Its label sits just right of the dashed line, halfway between the
	# points of nights 19 and 20.
	x=$(grep ' -9.90% worse$' "$tmp/texts" | cut -d' ' -f1)
	got=$(check_html points "$tmp/dom.html" chart1 | awk -v label="$x" '
		NR == 19 { a = $2 } NR == 20 { b = $2 }
		END {
			at = label > (a + b) / 2 && label < b ? "between" : "not between"
			printf "%s %.1f < %.1f < %.1f", at, a, label, b
		}')
	case $got in
	between*) ok 0 "between the last run before it and the first after ($got)" ;;
	*) ok 1 "between the last run before it and the first after ($got)" ;;
	esac
	is "the flat series has none" \
		"$(check_html texts "$tmp/dom.html" chart2 | grep -c '% \(worse\|better\)$')" 0
	check "and the table says it on its run" grep -q \
		'<td>nightly-20</td>.*<td class="worse">-9.90% worse, p 5e-28</td></tr>$' "$tmp/dom.html"
	is "markup from the store makes no element" \
		"$(check_html tags "$tmp/dom.html" | grep -c '^\(script\|img\) ')" 0
	check "and shows as text" sh -c "python3 '$TOP_SRCDIR/tests/tools/html-check.py' text \
		'$tmp/dom.html' | grep -qxF '$last'"

	check_html xtics "$tmp/dom.html" chart1 > "$tmp/xtics"
	n=$(wc -l < "$tmp/xtics")
	is "dated tics, none alike, left to right" \
		"$(cut -d' ' -f1 "$tmp/xtics" | sort -u | wc -l) $(cut -d' ' -f2 "$tmp/xtics" |
		sort -n -c && echo ordered) $(grep -c '^2026-1[01]-[0-3][0-9] ' "$tmp/xtics")" \
		"$n ordered $n"
	if [ "$n" -ge 3 ] && [ "$n" -le 8 ]; then
		ok 0 "a readable count of tics ($n)"
	else
		ok 1 "a readable count of tics ($n; want 3 to 8)"
		comment "$tmp/xtics"
	fi
	is "the x axis is labelled" "$(check_html xlabel "$tmp/dom.html" chart1)" \
		"run started (UTC)"
	if check_html ytics "$tmp/dom.html" chart1 | grep -q '^-'; then
		ok 1 "the y axis does not reach below zero"
	else
		ok 0 "the y axis does not reach below zero"
	fi

	# The page as written (not rendered) is enough to count its points.
	kb history --config hb --row 1 --since 2026-10-25 --format html -o "$tmp/since.html"
	is "--since: the runs from that date, the change before it not marked" \
		"$(check_html charts "$tmp/since.html" | cut -d' ' -f1,2) $(check_html texts \
		"$tmp/since.html" chart1 | grep -c '% \(worse\|better\)$')" "chart1 6,6 0"
	kb history --config hb --row 1 --statistic mean --format html -o "$tmp/mean.html"
	is "--statistic mean: the means alone, no circles" \
		"$(check_html charts "$tmp/mean.html" | cut -d' ' -f1,2)" "chart1 30"
fi

done_testing
