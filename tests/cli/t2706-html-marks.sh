#!/bin/sh
# t2706-html-marks: the HTML pages mark what the text does: a noisy mean
# (fewer than 3 samples, or CoeffVar above 5%) reads ~ before it in
# compare's table, as the footer explains, and not in one run's report;
# history's table writes a confidence interval with a plus-minus sign.
# Covers: compare/render_html.c compare/render_common.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 2\n' >"$tmp/hb.conf"
check "two runs of two samples a row" \
	kb --quiet run -c "$tmp/hb.conf" -n base --no-report '&&' \
	kb --quiet run -c "$tmp/hb.conf" -n new --no-report

check "compare as text" kb compare base new
is "the text marks both means ~ (2 samples each)" \
	"$(grep -c '^Amean  *1  *~[0-9.]* (   0.00%)  *~[0-9.]* ' "$tmp/check.out")" 1
is "... and its footer says why" "$(grep -c '^~ before a mean' "$tmp/check.out")" 1

check "compare as HTML" kb compare --format html -o "$tmp/c.html" base new
is "the HTML table marks both means ~" \
	"$(grep -o '<td class="num[^"]*">~[0-9.]*</td>' "$tmp/c.html" | wc -l)" 2
is "... and its footer says why" "$(grep -c '~ before a mean' "$tmp/c.html")" 1

check "one run's report as HTML" kb compare --format html -o "$tmp/one.html" base
is "... marks nothing: it has no footer" "$(grep -c '>~[0-9]' "$tmp/one.html")" 0

check "history as HTML" kb history --config hb --format html -o "$tmp/h.html"
is "the history table writes the interval with a plus-minus sign" \
	"$(grep -c '<td class="num">±[0-9.]*</td>' "$tmp/h.html") $(grep -c '>+-[0-9]' "$tmp/h.html")" \
	"2 0"

done_testing
