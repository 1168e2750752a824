#!/bin/sh
# t2700: kbench compare --format html, as headless Chromium renders it: two
# real hackbench runs (the second named with a <script> in it) and, added
# to both, a section whose rows span a factor of 4096 (a log x axis) and
# one whose rows have no number (one x position each, labels with markup);
# the baseline has a note.
# The page loads without a console message, every section has its charts
# with a series per run for the samples and one for the means, and as many
# points as samples and rows, x axes labelled; the note shows; markup
# from the store shows as text; the
# screenshot is not blank. Then the page without gnuplot, -o errors, and
# that no file is left behind.
# Covers: compare/render_html.c lib/html.c lib/plot.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/html-lib.sh"

new='new<script>alert(1)</script>'
printf '[global]\niterations = 3\nloops = 10\ngroups = 1 2\n[hackbench-process-pipes]\n[hackbench-thread-pipes]\nmode = thread\n' \
	>"$tmp/h.conf"
check "two small runs, the second named $new" \
	kb --quiet run -c "$tmp/h.conf" -n base --no-report '&&' \
	kb --quiet run -c "$tmp/h.conf" -n "$new" --no-report

# Three samples a row and run: throughput rows send-N and recv-N, N 1 to
# 4096, and latency rows without a number.
fixture="BEGIN;"
for run in 1 2; do
	for dir in send recv; do
		for size in 1 64 4096; do
			for it in 1 2 3; do
				fixture="$fixture INSERT INTO samples(run_id, section, workload, row, iteration,
					value, unit, better) VALUES ($run, 'stream', 'external',
					'$dir-$size', $it, $((size + 100 * run + it)), 'Mbit/s', 'higher');"
			done
		done
	done
	for row in alpha 'beta<img src=x>'; do
		for it in 1 2 3; do
			fixture="$fixture INSERT INTO samples(run_id, section, workload, row, iteration,
				value, unit, better) VALUES ($run, 'latency', 'external', '$row', $it,
				$((10 * run + it)), 'ms', 'lower');"
		done
	done
done
sql_write "$fixture COMMIT;"
ok $? "a stream and a latency section in both runs"

check "a note on the baseline, with markup" kb note base 'x < y & <i>z</i>'
expect_err "-o to a directory that does not exist" 2 \
	"kbench: cannot write '$tmp/nodir/r.html': No such file or directory" \
	kb compare --format html -o "$tmp/nodir/r.html" base "$new"

mkdir "$tmp/nobin" "$tmp/cwd"
PATH=$tmp/nobin kb compare --format html base "$new" >"$tmp/plain.html" 2>"$tmp/err"
ok $? "without gnuplot on PATH the report is still made"
is "and says so on stderr" "$(cat "$tmp/err")" \
	"kbench: notice: no gnuplot on PATH: the report has its tables but no plots"
check "and plainly on the page" grep -q \
	'^<p class="noplot">No plots: they are drawn by gnuplot, which is not installed here' \
	"$tmp/plain.html"
is "with the tables of every section and no plot" \
	"$(grep -c '<table class="cmp">' "$tmp/plain.html") $(grep -c '<svg' "$tmp/plain.html")" "4 0"
PATH=$tmp/nobin kb compare --format html --within-run base "$new" >"$tmp/within.html" 2>/dev/null
check "--within-run: a significant worse mean is marked and coloured" grep -q \
	'<td class="num worse" title="worse, p [0-9.e-]*">\*-83.33%\*</td>' "$tmp/within.html"
check "and a better one" grep -q \
	'<td class="num better" title="better, p [0-9.e-]*">\*[0-9.]*%\*</td>' "$tmp/within.html"
check "the page colours the classes" grep -q \
	'td.better{[^}]*}td.worse{[^}]*}td.noise{[^}]*}td.cannot{background' "$tmp/within.html"
is "the page starts as HTML on stdout" "$(head -1 "$tmp/plain.html")" "<!DOCTYPE html>"
check "the run's note is in the header block, escaped" grep -qx \
	'Note: *base *x &lt; y &amp; &lt;i&gt;z&lt;/i&gt;' "$tmp/plain.html"
is "... once" "$(grep -c 'x &lt; y' "$tmp/plain.html")" 1

if need_browser; then
	mkdir "$tmp/tmpdir"
	(cd "$tmp/cwd" && TMPDIR=$tmp/tmpdir "$KBENCH" --db "$db" compare --format html \
		-o "$tmp/r.html" base "$new")
	ok $? "compare --format html -o FILE"
	is "gnuplot ran through pipes: no file left behind" \
		"$(find "$tmp/cwd" "$tmp/tmpdir" -mindepth 1)" ""
	render "$tmp/r.html" "$tmp/r.png"
	ok $? "Chromium loads the page"
	if [ -s "$tmp/console" ]; then
		ok 1 "no console message (script errors, blocked fetches)"
		comment "$tmp/console"
	else
		ok 0 "no console message (script errors, blocked fetches)"
	fi
	expect_transcript "a chart per section and row family: samples and means of each run" \
		check_html charts "$tmp/dom.html" <<'T'
$ check_html charts TMP/dom.html
chart1 6,6,2,2 hackbench-process-pipes: Amean (s), lower is better
chart2 6,6,2,2 hackbench-thread-pipes: Amean (s), lower is better
chart3 9,9,3,3 stream: send-N, Hmean (Mbit/s), higher is better, x on a log scale
chart4 9,9,3,3 stream: recv-N, Hmean (Mbit/s), higher is better, x on a log scale
chart5 6,6,2,2 latency: Amean (ms), lower is better
[exit 0]
T
	# Rows 1, 64 and 4096 are equally far apart on a log axis; 1 and 2 on
	# a linear one sit where gnuplot's range puts them.
	got=$(check_html xtics "$tmp/dom.html" chart3 | awk '
		{ x[$1] = $2 } END { d1 = x[64] - x[1]; d2 = x[4096] - x[64]
		printf "%s %.0f %.0f", (d1 > 100 && (d1 - d2) ^ 2 < 1) ? "log" : "not log", d1, d2 }')
	case $got in
	log*) ok 0 "rows spanning 4096 on a log x axis (tics $got px apart)" ;;
	*) ok 1 "rows spanning 4096 on a log x axis (tics $got px apart)"
	   check_html xtics "$tmp/dom.html" chart3 | comment ;;
	esac
	is "rows without a number at their own x, labelled" \
		"$(check_html xtics "$tmp/dom.html" chart5 | cut -d' ' -f1 | tr '\n' ' ')" \
		"alpha beta<img "
	is "x axes labelled: the workload's row option, or the rows' shape" \
		"$(for c in chart1 chart3 chart5; do check_html xlabel "$tmp/dom.html" $c; done)" \
		"groups
N (send-N)
row"
	check_html titles "$tmp/dom.html" chart2 >"$tmp/titles"
	v=$(sql "SELECT printf('%.4f', value) FROM samples WHERE run_id = 1 AND
		section = 'hackbench-thread-pipes' AND row = '1' AND iteration = 1")
	is "each sample says what it is on hover" "$(sed -n 1p "$tmp/titles")" \
		"base, row 1: sample 1, $v s"
	v=$(sql "SELECT printf('%.4f', avg(value)) FROM samples WHERE run_id = 1 AND
		section = 'hackbench-thread-pipes' AND row = '1'")
	check "and each mean, with its CI ($(sed -n 13p "$tmp/titles"))" grep -qx \
		"base, row 1: Amean $v +- [0-9.]* s (95% CI), 3 samples" "$tmp/titles"
	tags=$(check_html tags "$tmp/dom.html")
	is "markup from the store makes no element" \
		"$(printf '%s\n' "$tags" | grep -c '^\(script\|img\|i\|b\) ')" 0
	check_html text "$tmp/dom.html" >"$tmp/text"
	check "the run name shows as text" grep -qxF "kbench compare: base, $new" "$tmp/text"
	check "and so does a row label" grep -qxF "beta<img src=x>" "$tmp/text"
	got=$(check_html png "$tmp/r.png")
	var=${got##* }
	if [ "${got%% *}" = 1000 ] && awk -v v="$var" 'BEGIN { exit !(v > 300) }'; then
		ok 0 "the screenshot is not blank (grey-level variance $var)"
	else
		ok 1 "the screenshot is not blank (width, height, variance: $got; want > 300)"
	fi
	check "without between-run noise a mean cannot tell: marked ? and coloured" grep -q \
		'<td class="num cannot" title="cannot tell, p [0-9.e-]*">?-83.33%?</td>' "$tmp/dom.html"
	check "and so is a better one" grep -q \
		'<td class="num cannot" title="cannot tell, p [0-9.e-]*">?[0-9.]*%?</td>' "$tmp/dom.html"
fi

done_testing
