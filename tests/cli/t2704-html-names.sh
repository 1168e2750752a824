#!/bin/sh
# t2704: names from a store or a bundle in every renderer of compare and
# history. Names import accepts but that mean something to a format
# (markup, quotes, commas, pipes) come in through a bundle: html escapes
# them (no element made), markdown escapes them, CSV quotes them and
# JSON escapes them, each reading back as the name. Names with control
# characters (an escape sequence that clears the screen, a title, BEL, a
# C1 CSI, CR LF), which import refuses but an older store may hold, never
# reach the output raw in any format: they show as \xNN.
# Covers: lib/html.c compare/render_html.c compare/render_history.c compare/render_markdown.c compare/render_csv.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-process-pipes]\niterations = 3\nloops = 10\ngroups = 1 2\n' > "$tmp/hb.conf"
check "two small runs, a and b, in one bundle" \
	kb --quiet run -c "$tmp/hb.conf" -n a --no-report '&&' \
	kb --quiet run -c "$tmp/hb.conf" -n b --no-report '&&' \
	kb export a b -o "$tmp/runs.kbb"

run_b='b<i>x</i>&amp;"q'"'"'|*,[l](u)'
section='s<b>x</b>,"q"|*_'
config='c<script>alert(1)</script>'
q() { printf '%s' "$1" | sed "s/'/''/g"; }	# as an SQL string's text
check "the bundle given hostile names" "$KB_SQL" --write "$tmp/runs.kbb" "
	UPDATE runs SET name = '$(q "$run_b")' WHERE name = 'b';
	UPDATE runs SET config_name = '$(q "$config")';
	UPDATE samples SET section = '$(q "$section")';
	UPDATE monitor_values SET section = '$(q "$section")';
	UPDATE run_meta SET section = '$(q "$section")' WHERE section != ''"
s=$tmp/s.db
ks() { "$KBENCH" --db "$s" "$@"; }
check "imports into a new store" sh -c 'printf "[s]\nworkload = hackbench\niterations = 1\nloops = 1\ngroups = 1\n" > "$1/one.conf" &&
	"$2" --quiet --db "$3" run -c "$1/one.conf" -n own --no-report &&
	"$2" --db "$3" import "$1/runs.kbb"' sh "$tmp" "$KBENCH" "$s"

for f in text brief markdown csv json html; do
	ks compare --format $f a "$run_b" > "$tmp/c.$f" 2> "$tmp/c.$f.err"
	ok $? "compare --format $f"
done
for f in text csv json html; do
	ks history --config "$config" --format $f > "$tmp/h.$f" 2> "$tmp/h.$f.err"
	ok $? "history --format $f"
done

py() { python3 -c "$@"; }
if command -v python3 > /dev/null 2>&1; then
	is "json: the names read back" "$(py 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["runs"][1]["label"]); print(d["runs"][1]["config_name"])
print(d["sections"][0]["name"])' "$tmp/c.json")" "$run_b
$config
$section"
	is "csv: the names read back, quoted" "$(grep -v '^#' "$tmp/c.csv" | py 'import csv, sys
rows = list(csv.DictReader(sys.stdin))
print(sorted({r["section"] for r in rows})); print(sorted({r["run"] for r in rows}))')" \
		"$(py 'import sys; print(sorted({sys.argv[1]})); print(sorted({"a", sys.argv[2]}))' \
		"$section" "$run_b")"
	is "history json: the config reads back" \
		"$(py 'import json, sys; print(json.load(open(sys.argv[1]))["series"][0]["config"])' \
		"$tmp/h.json")" "$config"
	is "history csv: the section reads back" "$(grep -v '^#' "$tmp/h.csv" | py 'import csv, sys
print(sorted({r["section"] for r in csv.DictReader(sys.stdin)}))')" \
		"$(py 'import sys; print([sys.argv[1]])' "$section")"
	for p in c.html h.html; do
		is "$p: markup from the store makes no element" \
			"$(python3 "$TOP_SRCDIR/tests/tools/html-check.py" tags "$tmp/$p" |
			grep -c '^\(script\|i\|b\) ')" 0
	done
	check "html: the run name shows as text" sh -c 'python3 "$1" text "$2" | grep -qxF "$3"' \
		sh "$TOP_SRCDIR/tests/tools/html-check.py" "$tmp/c.html" "kbench compare: a, $run_b"
else
	skip "python3 reads the json, csv and html back"
fi
check "markdown: the section escaped" grep -qxF '### s\<b>x\</b>,"q"\|\*\_' "$tmp/c.markdown"
check "markdown: the run name escaped in the header" grep -qF \
	'| b\<i>x\</i>&amp;"q'"'"'\|\*,\[l](u) |' "$tmp/c.markdown"
check "text: the section as it is" grep -qxF "$section" "$tmp/c.text"

# Control characters, in a store written by hand: in the run, host,
# section and config names.
esc=$(printf '\033')
check "names with control characters, written by hand" "$KB_SQL" --write "$s" "
	UPDATE runs SET name = 'x' || char(27) || '[2J' || char(7) || char(155) || 'y'
		WHERE name = 'a';
	UPDATE runs SET config_name = 'c' || char(27) || '[31m' WHERE config_name != 'one';
	UPDATE machines SET hostname = 'h' || char(13) || char(10) || 'Bcc: v';
	UPDATE samples SET section = 's' || char(27) || ']0;t' || char(7) WHERE run_id != 1"
bad_c="c${esc}[31m"
id_a=$("$KB_SQL" "$s" "SELECT id FROM runs WHERE name LIKE 'x%'")
id_b=$("$KB_SQL" "$s" "SELECT id FROM runs WHERE name LIKE 'b%'")
n=0
for f in text brief markdown csv json html; do
	n=$((n + 1))
	ks compare --format $f "#$id_a" "#$id_b" > "$tmp/x$n" 2>&1
	ok $? "compare --format $f of the run named with ESC, BEL and CSI"
done
for f in text csv json html; do
	n=$((n + 1))
	ks history --config "$bad_c" --format $f > "$tmp/x$n" 2>&1
	ok $? "history --format $f of the config named with ESC"
done
n=$((n + 1))
ks regressions > "$tmp/x$n" 2>&1
n=$((n + 1))
ks runs > "$tmp/x$n" 2>&1
raw=
i=0
while [ $i -lt $n ]; do
	i=$((i + 1))
	LC_ALL=C tr -d '\001-\010\013-\037\177' < "$tmp/x$i" | cmp -s - "$tmp/x$i" &&
		! LC_ALL=C grep -q "$(printf '\302')[$(printf '\200')-$(printf '\237')]" "$tmp/x$i" ||
		raw="$raw x$i"
done
is "no output holds a raw control character" "$raw" ""
check "text shows the run name escaped" grep -qF 'x\x1b[2J\x07\xc2\x9by' "$tmp/x1"
check "and the section" grep -qF 's\x1b]0;t\x07' "$tmp/x1"
check "html too" grep -qF 'x\x1b[2J\x07\xc2\x9by' "$tmp/x6"
check "history text shows the config and host escaped" \
	grep -qF 'on h\x0d\x0aBcc: v, config c\x1b[31m' "$tmp/x7"
check "history json too" grep -qF '"config":"c\\x1b[31m"' "$tmp/x9"
done_testing
