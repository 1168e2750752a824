# html-lib.sh: what the HTML report tests (t27xx) share, sourced after
# lib.sh: a headless Chromium renders a page, and tests/tools/html-check.py
# reads what it rendered.
#
#   need_browser             chromium, gnuplot and python3 are there:
#                            returns 0; else fails the test (CI=true) or
#                            skips it, saying what is missing, and
#                            returns 1 (the test then stops)
#   render PAGE [PNG]        load PAGE in headless Chromium; the DOM it
#                            built is in $tmp/dom.html, its console
#                            messages (errors, blocked loads, scripts the
#                            page's policy refused) in $tmp/console, and
#                            with PNG a 1000x1200 screenshot in PNG
#   check_html ARGS...       html-check.py ARGS... (see that file)

need_browser() {
	nb_missing=
	chromium=
	for nb_b in chromium chromium-browser; do
		command -v "$nb_b" >/dev/null 2>&1 && { chromium=$nb_b; break; }
	done
	[ -n "$chromium" ] || nb_missing="$nb_missing chromium"
	command -v gnuplot >/dev/null 2>&1 || nb_missing="$nb_missing gnuplot (gnuplot-nox)"
	command -v python3 >/dev/null 2>&1 || nb_missing="$nb_missing python3"
	[ -z "$nb_missing" ] && return 0
	if [ "${CI:-}" = true ]; then
		ok 1 "the HTML tests need:$nb_missing"
	else
		skip "the HTML tests need:$nb_missing"
	fi
	return 1
}

render() {	# render PAGE [PNG]
	: >"$tmp/console"
	# --no-sandbox: the suite may run as root, where the sandbox refuses
	# to start; the page is our own and runs no script.
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$tmp/chromium" --enable-logging=stderr --v=0 \
		--window-size=1000,1200 ${2:+--screenshot="$2"} --dump-dom \
		"file://$1" >"$tmp/dom.html" 2>"$tmp/chromium.err"
	rd_st=$?
	grep ':CONSOLE' "$tmp/chromium.err" >"$tmp/console"
	if [ "$rd_st" -ne 0 ] || [ ! -s "$tmp/dom.html" ]; then
		diag "chromium exited $rd_st; its last messages:"
		tail -5 "$tmp/chromium.err" | comment
		return 1
	fi
}

check_html() { python3 "$TOP_SRCDIR/tests/tools/html-check.py" "$@"; }
