#!/bin/sh
# t2001: kbench compare on real tiny hackbench runs: mmtests' layout within
# 80 columns, the footer, every selector, --pool, --only, --test, --alpha,
# the formats, the facts that differ between runs, and one run alone.
# Covers: cli/cmd_compare.c views/compare_cmdline.c compare/compare.c compare/model.c compare/render_text.c compare/render_facts.c

. "$TOP_SRCDIR/tests/cli/lib.sh"
cat > "$tmp/small.conf" <<'CONF'
[global]
iterations = 3
loops = 10
groups = 1 2

[hackbench-process-pipes]
mode = process
transport = pipes

[hackbench-thread-sockets]
mode = thread
transport = sockets
CONF
sed 's/loops = 10/loops = 12/' "$tmp/small.conf" > "$tmp/other.conf"
kb() { "$KBENCH" --db "$db" --quiet "$@"; }
check "four tiny hackbench runs stored" \
	kb run -c "$tmp/small.conf" -n base-x '&&' \
	kb run -c "$tmp/small.conf" -n new-x '&&' \
	kb run -c "$tmp/small.conf" -n base-x '&&' \
	kb run -c "$tmp/other.conf" -n other-y

expect_transcript -m -e "$header_sed" -f t2001-compare.txt \
	"compare of two runs: the header block, mmtests' layout, the footer" \
	kb compare base-x new-x
cp "$tmp/tr.out" "$tmp/out"
check "every line within 80 columns" awk 'length > 80 { print; bad = 1 } END { exit bad }' "$tmp/out"
check "no trailing blanks" sh -c '! grep -n " $" "$1"' sh "$tmp/out"

# Selectors: #id, uuid prefix, NAME@HOST select the same runs as names.
host=$(kb runs | awk 'NR==2 {print $4}')
uuid=$(kb compare --format json base-x new-x | sed -n 's/.*"uuids":\["\([0-9a-f-]*\)"\].*"uuids".*/\1/p' | cut -c1-8)
kb compare '#3' '#2' > "$tmp/ids"
check "#id selects a run" diff -u "$tmp/out" "$tmp/ids"
kb compare "$uuid" new-x > "$tmp/uuid"
check "a uuid prefix selects a run ($uuid)" diff -u "$tmp/out" "$tmp/uuid"
kb compare "base-x@$host" "new-x@$host" > "$tmp/host"
check "NAME@HOST selects a run ($host)" diff -u "$tmp/out" "$tmp/host"
kb compare '#1' '#3' > "$tmp/same"
is "two runs of one name are told apart by id" "$(sed -n '/^hackbench/{n;N;p;q}' "$tmp/same")" \
"                              base                   base
                               x#1                    x#3"

# The footer, without the line that explains ~ (it depends on the figures).
footer() { sed -n '/^Significance/,$p' "$1" | sed -E -e '/^~ before a mean: /d' -e "$cannot_tell_sed"; }
kb compare --pool base-x new-x > "$tmp/pool"
is "--pool pools every complete run of the name" "$(grep '^Samples:' "$tmp/pool")" \
"Samples:  base-x 6 (2 runs pooled), new-x 3"
is "--pool: each pooled run is a replicate of the between-run test" "$(footer "$tmp/pool")" \
"Significance: a t-test of run means with between-run noise on the mean row only,
  alpha 0.05; a significant change prints *  x.xx%* instead of (  x.xx%).
Between-run noise: from 3 stored runs of one host, config, options and kernel
  (df 2); the difference of the run means is tested against it plus each side's
  within-run variance.
Noise read from runs @1-@3: --noise-from with them gives the same verdicts
  later.
? after a mean row's %: cannot tell, neither a change nor its absence is shown:
  the smallest change these runs detect at 80% power exceeds both the change
  seen and the margin of 5% (--margin). For a verdict: pool more runs a side
  (kbench compare --pool), or run an interleaved A/B experiment (kbench ab),
  which cancels the drift between runs.
Cannot tell: N rows.
Detectable change: 9.9-9.9% (median 9.9%).
Runs a side to detect 10%: N.
Positive % = better: the sign follows each metric's direction."

kb compare --only pipes base-x new-x > "$tmp/only"
is "--only REGEX keeps matching sections" "$(grep '^hackbench' "$tmp/only")" hackbench-process-pipes
kb compare --only '^2$' base-x new-x > "$tmp/only2"
is "--only REGEX keeps matching rows" \
	"$(awk '/^(Min|Amean|Stddev|CoeffVar|Max|BAmean-95) / { print $1, $2 }' "$tmp/only2" | sort | uniq -c | awk '{ print $1, $2, $3 }' | tr '\n' ' ')" \
	"2 Amean 2 2 BAmean-95 2 2 CoeffVar 2 2 Max 2 2 Min 2 2 Stddev 2 "

for test in mwu ci ttest; do
	kb compare --test $test base-x new-x > "$tmp/$test"
	ok $? "--test $test runs"
done
is "--test mwu is named in the footer, and why it cannot star" "$(footer "$tmp/mwu")" \
"Significance: Mann-Whitney U test on the mean row only, alpha 0.05; a
  significant change prints *  x.xx%* instead of (  x.xx%). Two-sided, exact
  without ties up to 50 samples a side.
Within-run test: it sees the samples within each run only and ignores drift
  between runs, so its stars overstate what two runs show.
Positive % = better: the sign follows each metric's direction.
No star possible, too few samples for the U test to reach alpha:
  hackbench-process-pipes 1, hackbench-process-pipes 2, hackbench-thread-sockets
  1, hackbench-thread-sockets 2."
is "--test ci is named in the footer" "$(footer "$tmp/ci")" \
"Significance: mmtests' CI-overlap rule (mean +- z*sd) on the mean row only,
  alpha 0.05; a significant change prints *  x.xx%* instead of (  x.xx%).
  Starred when the intervals mean +- z(alpha/2)*sd do not overlap (harmonic sd
  for Hmean).
Within-run test: it sees the samples within each run only and ignores drift
  between runs, so its stars overstate what two runs show.
Positive % = better: the sign follows each metric's direction."
is "--test ttest is named and defaults to alpha 0.1" "$(footer "$tmp/ttest")" \
"Significance: mmtests' 2018-2024 t-test (df n1+n2-2) on the mean row only, alpha
  0.1; a significant change prints *  x.xx%* instead of (  x.xx%). SE from both
  sample sds, two-sided.
Within-run test: it sees the samples within each run only and ignores drift
  between runs, so its stars overstate what two runs show.
Positive % = better: the sign follows each metric's direction."
kb compare --alpha 0.2 base-x new-x > "$tmp/alpha"
is "--alpha is used and stated" "$(footer "$tmp/alpha")" \
"Significance: a t-test of run means with between-run noise on the mean row only,
  alpha 0.2; a significant change prints *  x.xx%* instead of (  x.xx%).
Between-run noise: from 3 stored runs of one host, config, options and kernel
  (df 2); the difference of the run means is tested against it plus each side's
  within-run variance.
Noise read from runs @1-@3: --noise-from with them gives the same verdicts
  later.
? after a mean row's %: cannot tell, neither a change nor its absence is shown:
  the smallest change these runs detect at 80% power exceeds both the change
  seen and the margin of 5% (--margin). For a verdict: pool more runs a side
  (kbench compare --pool), or run an interleaved A/B experiment (kbench ab),
  which cancels the drift between runs.
Cannot tell: N rows.
Detectable change: 9.9-9.9% (median 9.9%).
Runs a side to detect 10%: N.
Positive % = better: the sign follows each metric's direction."

expect_transcript -m -e "$header_sed" -f t2001-compare-three.txt \
	"three runs side by side, the config lines that differ in the header" \
	kb compare base-x new-x other-y

kb compare --format json base-x new-x > "$tmp/json"
if [ -x /usr/bin/python3 ]; then
	/usr/bin/python3 - "$tmp/json" >"$tmp/py.out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format_version"] == 1 and d["test"]["name"] == "welch", (d["format_version"], d["test"])
row = d["sections"][0]["rows"][0]
assert len(row["runs"][0]["samples"]) == 3 and "p" in row["runs"][1]["test"], row
assert d["sections"][0]["blocks"][0]["name"] == "Duration", d["sections"][0]["blocks"][0]
PY
	st=$?
	ok $st "json: format version, samples, p-values, Duration"
	[ $st -eq 0 ] || comment "$tmp/py.out"
else
	skip "no python3 to parse json"
fi
# csv: the figures (value, pct, significant, p) masked to N, empty ones kept.
expect_transcript -f t2001-compare.csv \
	-e '/^(#|section,)/!s/^(([^,]*,){7})([^,]*),([^,]*),([^,]*),([^,]*)$/\1<\3>,<\4>,<\5>,<\6>/' \
	-e 's/<-?[0-9][0-9.]*(e[-+]?[0-9]+)?>/N/g' -e 's/<>//g' \
	"csv: version line, header, a line per statistic and run" kb compare --format csv base-x new-x
# markdown: the figures in table lines masked to N, significance marks to (N%),
# the noise marks (\~ before a mean, its footnote) dropped, and the footer's
# cannot-tell figures masked.
expect_transcript -f t2001-compare.md \
	-e '/^\|/s/(\\\*|\(|\+|\?)-?[0-9]+\.[0-9]+%(\\\*|\)|\+|\?)/(N%)/g' \
	-e '/^\|/s/ (\\~)?-?[0-9]+\.[0-9]+ / N /g' -e '/^- \\~ before a mean: /d' \
	-e "$cannot_tell_sed" \
	"markdown: a table per section and block, the footer as a list" \
	kb compare --format markdown base-x new-x
# One run alone: its statistics, the tables its report after kbench run
# printed (no percentages, no footer), in every format; --exit-code
# finds nothing worse in it.
"$KBENCH" --db "$db" run -c "$tmp/small.conf" -n solo >"$tmp/solo.report" 2>"$tmp/solo.err"
ok $? "a run of its own"
check "compare RUN prints its statistics" kb compare solo
sed -n '3,/^Compared with /p' "$tmp/solo.report" | sed '$d' >"$tmp/solo.tables"
is "... the tables of its report" "$(cat "$tmp/check.out")" "$(cat "$tmp/solo.tables")"
is "... with no percentage" "$(grep -c '%' "$tmp/check.out")" 0
for f in brief markdown csv json html; do
	check "compare --format $f RUN" kb compare --format "$f" -o "$tmp/solo.$f" solo
done
grep -q '"runs":\[{"label":"solo",' "$tmp/solo.json" && ! grep -q '"runs":\[{[^]]*},{"label"' "$tmp/solo.json"
ok $? "... json: one run"
check "compare --exit-code RUN: nothing worse, exit 0" kb compare --exit-code solo
expect_transcript -f t2001-compare-help.txt "--help lists every option" kb compare --help

done_testing
