#!/bin/sh
# t2702: compare --per-host --format html, the page of a fleet's results:
# runs base and new on hosts alpha and beta (the second with a note
# holding markup). One page: the summary per section first, the hosts
# linked to their parts, each part as compare --format html shows a
# comparison (its note, its table and charts, ids of its own); formats
# other than text, brief and html are still refused.
# Covers: compare/perhost.c compare/render_html.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/html-lib.sh"

printf '[hackbench-process-pipes]\niterations = 3\nloops = 10\ngroups = 1\n' > "$tmp/hb.conf"
for host in alpha beta; do
	check "runs base and new on $host" sh -c '
		KBENCH_HOSTNAME=$1 "$2" --quiet --db "$3" run -c "$4" -n base --no-report &&
		KBENCH_HOSTNAME=$1 "$2" --quiet --db "$3" run -c "$4" -n new --no-report' \
		sh "$host" "$KBENCH" "$db" "$tmp/hb.conf"
done
check "a note on new@beta" kb note new@beta 'tried <b>THP</b> off'

expect_err "csv is refused" 2 "--per-host prints text, brief or html, not csv" \
	kb compare --per-host --format csv base new
mkdir "$tmp/nobin"
PATH=$tmp/nobin kb compare --per-host --format html base new > "$tmp/p.html" 2>"$tmp/err"
ok $? "compare --per-host --format html (no gnuplot)"
is "the page's outline" "$(grep -o '^<h[12]>[^<]*</h[12]>\|^<p>Summary[^<]*</p>\|^<p>Hosts:.*</p>\|<section id="[^"]*">' "$tmp/p.html")" \
'<h1>kbench compare --per-host: base vs new</h1>
<p>Summary of 2 hosts, the mean rows of each section:</p>
<p>Hosts: <a href="#host0">alpha</a>, <a href="#host1">beta</a></p>
<section id="host0">
<h2>alpha: base vs new</h2>
<section id="host0-section1">
<section id="host1">
<h2>beta: base vs new</h2>
<section id="host1-section1">'
check "the summary counts the hosts" grep -q \
	'^<li>hackbench-process-pipes: better on [0-2], worse on [0-2], within noise on [0-2]' "$tmp/p.html"
check "each host's table" test "$(grep -c '<table class="cmp">' "$tmp/p.html")" = 2
check "the note shows, escaped, on beta's part" grep -q \
	'^Note: *new *tried &lt;b&gt;THP&lt;/b&gt; off$' "$tmp/p.html"
is "once" "$(grep -c 'tried &lt;b&gt;THP' "$tmp/p.html")" 1
is "no gnuplot: said once" "$(grep -c '<p class="noplot">' "$tmp/p.html") $(cat "$tmp/err")" \
	"1 kbench: notice: no gnuplot on PATH: the report has its tables but no plots"

if need_browser; then
	kb compare --per-host --format html -o "$tmp/c.html" base new
	ok $? "with gnuplot"
	render "$tmp/c.html"
	ok $? "Chromium loads the page"
	if [ -s "$tmp/console" ]; then
		ok 1 "no console message"
		comment "$tmp/console"
	else
		ok 0 "no console message"
	fi
	expect_transcript "a chart per host" check_html charts "$tmp/dom.html" <<'T'
$ check_html charts TMP/dom.html
chart1 3,3,1,1 hackbench-process-pipes: Amean (s), lower is better
chart2 3,3,1,1 hackbench-process-pipes: Amean (s), lower is better
[exit 0]
T
	is "ids are the page's own" "$(grep -o ' id="[^"]*"' "$tmp/c.html" | sort | uniq -d)" ""
	is "the x axis is labelled with the row option" \
		"$(check_html xlabel "$tmp/dom.html" chart1)" "groups"
fi
done_testing
