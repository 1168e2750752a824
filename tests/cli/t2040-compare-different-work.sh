#!/bin/sh
# t2040: compare says when runs measured different work. An -o override
# that changes a section's effective value puts an Options: line and a
# Warning: line (its key printed) in the header of text, brief and
# markdown, and "different_work": true in json; an override equal to the
# config's value is listed under Options: but changes nothing, so there
# is no warning. Runner-only keys (iterations) are no change of work. A
# config edited to another value warns naming Config, a comment added
# does not. A key that one run did not store does not count; a run with
# no section values stored leaves the decision to the options.
# Covers: compare/work.c compare/render_facts.c runner/effective.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[global]\nwarmup = 0\n\n[hackbench-process-pipes]\niterations = 2\nloops = 10\ngroups = 1\n' \
	> "$tmp/hb.conf"
check "runs a (as configured), same (-o loops=10, the config's value), more (-o loops=12), iters (-o iterations=3)" \
	kb --quiet run -c "$tmp/hb.conf" -n a --no-report '&&' \
	kb --quiet run -c "$tmp/hb.conf" -n same -o loops=10 --no-report '&&' \
	kb --quiet run -c "$tmp/hb.conf" -n more -o loops=12 --no-report '&&' \
	kb --quiet run -c "$tmp/hb.conf" -n iters -o iterations=3 --no-report

# header FILE: the header's lines from Options: to the blank line after it.
header() { sed -n '/^Options:/,/^$/p' "$1" | sed '$d'; }

kb compare a more > "$tmp/more.txt" 2> "$tmp/err"
is "compare a more exits 0, quiet" "$?.$(cat "$tmp/err")" "0."
is "a changed loops: Options and a keyed Warning line" "$(header "$tmp/more.txt")" \
"Options:  a     -
          more  loops=12
Samples:  a 2, more 2
Warning:  the runs measured different work (Options): a change includes what the
          options changed, and the noise of one is not the other's."
kb compare --format json a more > "$tmp/more.json" 2> "$tmp/err"
is "compare --format json a more exits 0, quiet" "$?.$(cat "$tmp/err")" "0."
check "... json: different_work true" python3 -c '
import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))["different_work"] is True else 1)' "$tmp/more.json"
kb compare --format brief a more > "$tmp/more.brief" 2> "$tmp/err"
is "compare --format brief a more exits 0, quiet" "$?.$(cat "$tmp/err")" "0."
check "... brief: the Warning line" grep -q '^Warning:  the runs measured different work' "$tmp/more.brief"
kb compare --format markdown a more > "$tmp/more.md" 2> "$tmp/err"
is "compare --format markdown a more exits 0, quiet" "$?.$(cat "$tmp/err")" "0."
check "... markdown: the warning" grep -q '^\*\*Warning:\*\* the runs measured different work' "$tmp/more.md"

kb compare a same > "$tmp/same.txt" 2> "$tmp/err"
is "compare a same exits 0, quiet" "$?.$(cat "$tmp/err")" "0."
is "an override equal to the config's value: listed, no warning" "$(header "$tmp/same.txt")" \
"Options:  a     -
          same  loops=10
Samples:  a 2, same 2"
kb compare --format json a same > "$tmp/same.json" 2> "$tmp/err"
is "compare --format json a same exits 0, quiet" "$?.$(cat "$tmp/err")" "0."
check "... json: different_work false" python3 -c '
import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))["different_work"] is False else 1)' "$tmp/same.json"

kb compare a iters > "$tmp/iters.txt" 2> "$tmp/err"
is "compare a iters exits 0, quiet" "$?.$(cat "$tmp/err")" "0."
is "a runner-only override (iterations): no Options line, no warning" \
	"$(header "$tmp/iters.txt")" ""

# A config edited to another value measured different work too, named
# Config; an edit that changes no value (a comment) did not.
mkdir "$tmp/edited"
sed 's/^loops = 10$/loops = 14/' "$tmp/hb.conf" > "$tmp/edited/hb.conf"
check "run edited: config hb with loops = 14, no -o" \
	kb --quiet run -c "$tmp/edited/hb.conf" -n edited --no-report
kb compare a edited > "$tmp/edited.txt" 2> "$tmp/err"
is "compare a edited exits 0, quiet" "$?.$(cat "$tmp/err")" "0."
is "a config edited to another value: a Warning line naming Config" \
	"$(sed -n '/^Warning:/,/^$/p' "$tmp/edited.txt" | sed '$d')" \
"Warning:  the runs measured different work (Config): a change includes what the
          config changed, and the noise of one is not the other's."
kb compare --format markdown a edited > "$tmp/edited.md"
check "... markdown too" grep -q \
	'^\*\*Warning:\*\* the runs measured different work (Config): a change includes what the config changed\.$' \
	"$tmp/edited.md"
{ echo '# a comment'; cat "$tmp/hb.conf"; } > "$tmp/edited/hb.conf"
check "run comment: config hb with a comment added" \
	kb --quiet run -c "$tmp/edited/hb.conf" -n comment --no-report
kb compare --format json a comment > "$tmp/comment.json" 2> "$tmp/err"
is "compare --format json a comment exits 0, quiet" "$?.$(cat "$tmp/err")" "0."
check "... a comment changes no work: different_work false" python3 -c '
import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))["different_work"] is False else 1)' "$tmp/comment.json"

# Stores of older versions: a key one run lacks does not count (a key
# added to kbench since), and a run with no section values stored at all
# leaves the decision to the options.
check "run more2 (-o loops=12), then forget its stored loops and pin_cpus values" \
	kb --quiet run -c "$tmp/hb.conf" -n more2 -o loops=12 --no-report '&&' \
	sql_write "DELETE FROM run_meta WHERE run_id = (SELECT id FROM runs WHERE name = 'more2')
		AND section <> '' AND key IN ('loops', 'pin_cpus')"
kb compare --format json a more2 > "$tmp/more2.json" 2> "$tmp/err"
is "compare --format json a more2 exits 0, quiet" "$?.$(cat "$tmp/err")" "0."
check "... a key one run lacks does not count: different_work false" python3 -c '
import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))["different_work"] is False else 1)' "$tmp/more2.json"
check "forget every section value of more2" \
	sql_write "DELETE FROM run_meta WHERE run_id = (SELECT id FROM runs WHERE name = 'more2')
		AND section <> ''"
kb compare --format json a more2 > "$tmp/more2.json" 2> "$tmp/err"
is "compare --format json a more2 exits 0, quiet" "$?.$(cat "$tmp/err")" "0."
check "... none stored: the options decide, different_work true" python3 -c '
import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))["different_work"] is True else 1)' "$tmp/more2.json"

done_testing
