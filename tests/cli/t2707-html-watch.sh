#!/bin/sh
# t2707: kbench watch --status --format html, one self-contained page of
# a watch's cycles (tests/data/watch-cycles.sql: a baseline, a regression
# bisected and mailed, nothing new, a build failed with its mail
# pending) over a real A/B experiment of two arms: a table row a cycle
# with its tips, result, each row's verdict and culprit, its mail sent
# (the Message-ID) or pending (tries, the last error); each cycle linked
# to its experiment's comparison (compare's tables and charts) and its
# bisection's report further down; text from the store escaped. Chromium
# loads it without a console message, and every link lands on the page.
# Covers: views/watch_html.c cli/cmd_watch.c lib/html.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/html-lib.sh"

cat >"$tmp/x.conf" <<'CONF'
[experiment]
rounds = 2

[arm:old]

[arm:new]
option.loops = 12

[global]
iterations = 2
loops = 10
groups = 1
timeout = 60

[hackbench-process-pipes]
mode = process
transport = pipes
CONF
check "an experiment of two arms on host alpha" \
	env KBENCH_HOSTNAME=alpha "$KBENCH" --db "$db" --quiet ab -c "$tmp/x.conf" -n tips --no-report
check "a watch's four cycles, the second naming it" sql_write_file "$TOP_SRCDIR/tests/data/watch-cycles.sql"

check "watch --status --format html" sh -c '"$1" --db "$2" watch --status --format html >"$3"' \
	sh "$KBENCH" "$db" "$tmp/w.html"
is "the page's outline: the watch, then each cycle's parts" \
	"$(grep -o '^<h[12][^>]*>.*</h[12]>' "$tmp/w.html")" \
	'<h1>kbench watch: 4 cycles</h1>
<h2 id="watch1">alpha: master of https://git.example.org/linux.git</h2>
<h2 id="cycle2-experiment">Cycle 2: <code>111111111111</code> against <code>333333333333</code></h2>
<h2 id="cycle2-bisect">Cycle 2: bisection</h2>'
is "text from the store is escaped" \
	"$(grep -c 'config /etc/kbench/watch/a&amp;b&lt;c&gt;.conf' "$tmp/w.html") $(grep -c '<c>\|<down>' "$tmp/w.html")" \
	"1 0"
is "a row a cycle: tips, result, verdicts, bisection, mail" \
	"$(grep -o '^<tr id="cycle[0-9]*">.*' "$tmp/w.html" | sed 's/<code>\([0-9]\)[0-9]*<\/code>/\1/g')" \
	'<tr id="cycle1"><td class="num">1</td><td>2026-12-01T02:00:00Z</td><td>alpha</td><td>1</td><td>baseline</td><td></td><td></td><td></td></tr>
<tr id="cycle2"><td class="num">2</td><td>2026-12-02T02:00:00Z</td><td>alpha</td><td>1 &rarr; 3<br><a href="#cycle2-experiment">comparison</a></td><td>regression</td><td><b>hackbench-process-pipes 1: worse -12.50%, first bad 2</b><br>
<tr id="cycle3"><td class="num">3</td><td>2026-12-03T02:00:00Z</td><td>alpha</td><td>3 &rarr; 3</td><td>nothing-new</td><td></td><td></td><td></td></tr>
<tr id="cycle4"><td class="num">4</td><td>2026-12-04T02:00:00Z</td><td>alpha</td><td>3 &rarr; 4</td><td>build-failed<br>make exited 2: see the build log</td><td></td><td></td><td>pending (2 tries): Connection refused<br>'
is "the mail sent names its Message-ID" \
	"$(grep -c '^</td><td><a href="#cycle2-bisect">report</a></td><td>sent 2026-12-02T04:00:31Z<br><code>&lt;kbench-watch-2.1@alpha&gt;</code><br>$' "$tmp/w.html")" 1
is "the experiment's comparison: compare's table of its arms" \
	"$(grep -c '<thead><tr><th>Stat</th><th>Row</th><th colspan="2">tips/old</th><th colspan="2">tips/new</th></tr></thead>' "$tmp/w.html")" 1
is "the bisection's report names the first bad commit" \
	"$(grep -c '^commit 2222222222222222222222222222222222222222$' "$tmp/w.html")" 1
missing=
for a in $(grep -o 'href="#[^"]*"' "$tmp/w.html" | sed 's/href="#\(.*\)"/\1/' | sort -u); do
	grep -q "id=\"$a\"" "$tmp/w.html" || missing="$missing $a"
done
is "every link lands on the page" "$missing" ""
is "the page is whole" "$(tail -1 "$tmp/w.html")" "</html>"

check "--status --format html of a store with no watch" sh -c \
	'"$1" --db "$2" watch --status --format html >"$3"' sh "$KBENCH" "$tmp/empty.db" "$tmp/e.html"
is "... says there is no cycle yet" "$(grep -c '^<p>No cycle yet' "$tmp/e.html")" 1

if need_browser; then
	render "$tmp/w.html" "$tmp/w.png"
	ok $? "Chromium renders the page"
	if [ -s "$tmp/console" ]; then
		ok 1 "no console message (script errors, blocked fetches)"
		comment "$tmp/console"
	else
		ok 0 "no console message (script errors, blocked fetches)"
	fi
	is "as rendered: the parts, and a row a cycle in the first table" \
		"$(check_html tags "$tmp/dom.html" | grep -E '^(h2|pre|figure) ') $(sed -n '/<table class="cycles">/,/<\/table>/p' "$tmp/dom.html" | grep -c '<tr')" \
		"figure 1
h2 3
pre 2 5"
	check "... its text names each result" sh -c \
		'python3 "$1" text "$2" | grep -qx "nothing-new" && python3 "$1" text "$2" | grep -qx "build-failed"' \
		sh "$TOP_SRCDIR/tests/tools/html-check.py" "$tmp/dom.html"
	is "... and the screenshot is not blank" \
		"$(check_html png "$tmp/w.png" | awk '{ print $1, $2, ($3 > 100) }')" "1000 1200 1"
fi

done_testing
