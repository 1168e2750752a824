#!/bin/sh
# t1315-everyday-csv-note: compare's CSV writes each number in the
# shortest form that reads back as the same double; a run's note (run
# --note, kbench note, several lines with --append) is in compare's text,
# markdown and JSON.
# Covers: lib/csv.c compare/render_csv.c cli/cmd_note.c compare/render_text.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 3\n' >"$tmp/a.conf"
check "two runs, the first with a note" \
	kb --quiet run -c "$tmp/a.conf" -n base --no-report --note 'the distribution kernel' '&&' \
	kb --quiet run -c "$tmp/a.conf" -n new --no-report
# Samples whose statistics are short decimals, and one that is not.
sql_write "UPDATE samples SET value = 0.07190081 WHERE run_id = 1;
	UPDATE samples SET value = (0.1 + 0.2) WHERE run_id = 2"
check "compare --format csv" kb compare --format csv base new
grep ',Amean,\|,Min,' "$tmp/check.out" | cut -d, -f6,8 >"$tmp/csv"
is "CSV numbers in their shortest round-trip form" "$(cat "$tmp/csv")" \
"base,0.07190081
new,0.30000000000000004
base,0.07190081
new,0.30000000000000004"
check "a note of two lines for the new run" kb note new 'SLUB cpu_partial 0' '&&' \
	kb note --append new 'second try, after a reboot'
# notes: the header lines of compare base new from the first Note line
# to the Samples line.
notes() { kb compare base new | sed -n '/^Note:/,/^Samples:/p'; }
expect_transcript "compare's text header gives each run's note" notes <<'T'
$ notes
Note:     base  the distribution kernel
          new   SLUB cpu_partial 0
                second try, after a reboot
Samples:  base 3, new 3
[exit 0]
T
check "compare --format markdown" kb compare --format markdown base new
is "... lists the notes first" "$(head -n 5 "$tmp/check.out")" \
"**Notes:**

- base: the distribution kernel
- new: SLUB cpu\\_partial 0  
  second try, after a reboot"
check "compare --format json" kb compare --format json base new
is "... has each run's note (none: no key)" "$(grep -o '"note":"[^"]*"' "$tmp/check.out")" \
'"note":"the distribution kernel"
"note":"SLUB cpu_partial 0\nsecond try, after a reboot"'
check "the same note for both runs" kb note base 'one note' '&&' kb note new 'one note'
expect_transcript "... is given once" notes <<'T'
$ notes
Note:     one note
Samples:  base 3, new 3
[exit 0]
T

done_testing
