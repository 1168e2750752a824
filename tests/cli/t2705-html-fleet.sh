#!/bin/sh
# t2705: fleet collect --report-html FILE: two hosts upload runs base and
# new (base dated earlier: the report compares the newest name with the
# one before it) into a results directory; the collecting store's report is also one
# HTML page: the regressions per host, then the comparison of new with
# base on each host as compare --per-host --format html shows it (its
# summary, the hosts linked to their parts). The text report still goes
# to stdout; a FILE that cannot be written fails the command.
# Covers: fleet/collect.c compare/render_html.c cli/cmd_fleet.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-process-pipes]\niterations = 3\nloops = 10\ngroups = 1\n' > "$tmp/hb.conf"
mkdir "$tmp/results"
for host in alpha beta; do
	check "runs base and new on $host, uploaded" sh -c '
		export KBENCH_HOSTNAME=$1
		"$2" --quiet --db "$3/$1.db" run -c "$4" -n base --no-report &&
		"$2" --quiet --db "$3/$1.db" run -c "$4" -n new --no-report &&
		"$5" --write "$3/$1.db" "UPDATE runs SET started_at = '\''2026-01-01T00:00:00Z'\''
			WHERE name = '\''base'\''" &&
		"$2" --db "$3/$1.db" fleet upload "$3/results" > /dev/null' \
		sh "$host" "$KBENCH" "$tmp" "$tmp/hb.conf" "$KB_SQL"
done
PATH=$tmp/nobin kb fleet collect --report-html "$tmp/r.html" "$tmp/results" > "$tmp/out" 2> "$tmp/err"
ok $? "collect --report-html (no gnuplot: no plots, said)"
check "the text report on stdout" grep -qx 'new against base on each host:' "$tmp/out"
is "the page's outline" "$(grep -o '^<h[123]>[^<]*</h[123]>\|^<p>Hosts:.*</p>\|<section id="[^"]*">\|^<pre>' "$tmp/r.html")" \
"<h1>kbench fleet report: $tmp/results</h1>
<h2>Regressions per host</h2>
<h3>alpha</h3>
<pre>
<h3>beta</h3>
<pre>
<h2>new against base on each host</h2>
<p>Hosts: <a href=\"#host0\">alpha</a>, <a href=\"#host1\">beta</a></p>
<section id=\"host0\">
<h2>alpha: base vs new</h2>
<section id=\"host0-section1\">
<h3>hackbench-process-pipes</h3>
<section id=\"host1\">
<h2>beta: base vs new</h2>
<section id=\"host1-section1\">
<h3>hackbench-process-pipes</h3>"
check "the regressions as the text says them" grep -qx '<pre>0 regressions in 1 series' "$tmp/r.html"
is "a table per host, the page whole" "$(grep -c '<table class="cmp">' "$tmp/r.html") $(tail -1 "$tmp/r.html")" \
	"2 </html>"
expect_err "a FILE that cannot be written" 2 "cannot write '$tmp/nodir/r.html'" \
	kb fleet collect --report-html "$tmp/nodir/r.html" "$tmp/results"
done_testing
