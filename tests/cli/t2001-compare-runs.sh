#!/bin/sh
# t2001: kbench compare on real tiny hackbench runs: mmtests' layout within
# 80 columns, the footer, every selector, --pool, --only, --test, --alpha,
# the formats, and the facts that differ between runs.

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
kb run -c "$tmp/small.conf" -n base-x >/dev/null 2>&1 &&
kb run -c "$tmp/small.conf" -n new-x >/dev/null 2>&1 &&
kb run -c "$tmp/small.conf" -n base-x >/dev/null 2>&1 &&
kb run -c "$tmp/other.conf" -n other-y >/dev/null 2>&1
ok $? "four tiny hackbench runs stored"

kb compare base-x new-x > "$tmp/out" 2> "$tmp/err"
ok $? "compare of two runs exits 0"
check "nothing on stderr" test ! -s "$tmp/err"
check "first line is the first section" sh -c "head -1 '$tmp/out' | grep -qx 'hackbench-process-pipes'"
check "header lines: run names split at the first '-'" \
	sh -c "sed -n 2p '$tmp/out' | grep -Eq '^ {12,} +base +new$' && sed -n 3p '$tmp/out' | grep -Eq '^ +x +x$'"
check "blocks in mmtests' order" sh -c "awk 'NR>3 && NR<=15 {print \$1}' '$tmp/out' | uniq | tr '\n' ' ' | grep -qx 'Min Amean Stddev CoeffVar Max BAmean-95 '"
check "mean rows: %12.4f ( %7.2f%%) cells, stars or parentheses" \
	sh -c "grep '^Amean' '$tmp/out' | grep -Evq '^Amean     [12] +[0-9]+\.[0-9]{4} \(   0\.00%\) +[0-9]+\.[0-9]{4} [(*] *-?[0-9]+\.[0-9]{2}%[)*]\$' && exit 1 || exit 0"
check "every line within 80 columns" sh -c "awk 'length > 80 {exit 1}' '$tmp/out'"
check "no trailing blanks" sh -c "! grep -q ' \$' '$tmp/out'"
check "Duration block after each section" sh -c "test \$(grep -c '^Duration Elapsed' '$tmp/out') = 2"
check "footer names the test and alpha" grep -q "Welch's t-test on the mean row only, alpha 0.05" "$tmp/out"
check "footer: positive % = better" grep -q "Positive % = better" "$tmp/out"
check "footer: samples per side" grep -q "Samples per side: base-x 3, new-x 3\." "$tmp/out"
check "runs with the same config: no facts differ" sh -c "! grep -q differs: '$tmp/out'"

# Selectors: #id, uuid prefix, NAME@HOST select the same runs as names.
host=$(kb runs | awk 'NR==2 {print $4}')
uuid=$(kb compare --format json base-x new-x | sed -n 's/.*"uuids":\["\([0-9a-f-]*\)"\].*"uuids".*/\1/p' | cut -c1-8)
kb compare '#3' '#2' > "$tmp/ids"
check "#id selects a run" cmp -s "$tmp/out" "$tmp/ids"
kb compare "$uuid" new-x > "$tmp/uuid"
check "a uuid prefix selects a run" cmp -s "$tmp/out" "$tmp/uuid"
kb compare "base-x@$host" "new-x@$host" > "$tmp/host"
check "NAME@HOST selects a run" cmp -s "$tmp/out" "$tmp/host"
kb compare '#1' '#3' > "$tmp/same"
check "two runs of one name are told apart by id" sh -c "sed -n 3p '$tmp/same' | grep -q 'x#1 .*x#3'"

kb compare --pool base-x new-x > "$tmp/pool"
check "--pool pools every complete run of the name" \
	grep -q "Samples per side: base-x 6 (2 runs pooled), new-x 3\." "$tmp/pool"

kb compare --only pipes base-x new-x > "$tmp/only"
check "--only REGEX keeps matching sections" sh -c "grep -q '^hackbench-process-pipes' '$tmp/only' && ! grep -q '^hackbench-thread' '$tmp/only'"
kb compare --only '^2$' base-x new-x > "$tmp/only2"
check "--only REGEX keeps matching rows" sh -c "test \$(grep -c '^Amean     2 ' '$tmp/only2') = 2 && ! grep -q '^Amean     1 ' '$tmp/only2'"

for test in mwu ci ttest; do
	kb compare --test $test base-x new-x > "$tmp/$test"
	ok $? "--test $test runs"
done
check "--test mwu is named" grep -q "Mann-Whitney U test on the mean row only, alpha 0.05" "$tmp/mwu"
check "--test ci is named" grep -q "mmtests' CI-overlap rule" "$tmp/ci"
check "--test ttest defaults to alpha 0.1" sh -c "tr '\\n' ' ' < '$tmp/ttest' | sed 's/  */ /g' | grep -q '2018-2024 t-test (df n1+n2-2) on the mean row only, alpha 0.1;'"
kb compare --alpha 0.2 base-x new-x > "$tmp/alpha"
check "--alpha is used and stated" grep -q "alpha 0.2;" "$tmp/alpha"

kb compare base-x new-x other-y > "$tmp/three"
check "three runs side by side" sh -c "grep '^Amean     1 ' '$tmp/three' | grep -Eq '\(   0\.00%\).*[(*].*[)*].*[(*].*[)*]'"
check "differing config text is named above the tables" \
	sh -c "head -1 '$tmp/three' | grep -qx 'config text differs:' && grep -q 'other, line .*: loops = 12' '$tmp/three'"

kb compare --format json base-x new-x > "$tmp/json"
if [ -x /usr/bin/python3 ]; then
	/usr/bin/python3 - "$tmp/json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format_version"] == 1 and d["test"]["name"] == "welch"
row = d["sections"][0]["rows"][0]
assert len(row["runs"][0]["samples"]) == 3 and "p" in row["runs"][1]["test"]
assert d["sections"][0]["blocks"][0]["name"] == "Duration"
PY
	ok $? "json: format version, samples, p-values, Duration"
else
	echo "ok $((n = n + 1)) # SKIP no python3 to parse json"
fi
kb compare --format csv base-x new-x > "$tmp/csv"
check "csv: version line and header" sh -c "sed -n 1p '$tmp/csv' | grep -q '^# kbench compare csv 1' && sed -n 2p '$tmp/csv' | grep -qx 'section,row,stat,unit,better,run,n,value,pct,significant,p'"
kb compare --format markdown base-x new-x > "$tmp/md"
check "markdown: a table per section" sh -c "test \$(grep -c '^| Stat | Row | base-x | new-x |' '$tmp/md') = 2"
kb compare --help > "$tmp/help"
check "--help lists every option" sh -c "for o in --format --test --alpha --pool --only --help; do grep -q -- \"\$o\" '$tmp/help' || exit 1; done"

done_testing
