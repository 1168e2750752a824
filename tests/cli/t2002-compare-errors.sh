#!/bin/sh
# t2002: kbench compare's bad-input cases, each with its exact message and
# exit status (2: bad arguments, 1: nothing to compare), as transcripts.
# Covers: views/compare_cmdline.c compare/compare.c db/query.c

. "$TOP_SRCDIR/tests/cli/lib.sh"
printf '[hackbench-process-pipes]\niterations = 1\nloops = 5\ngroups = 1\n' > "$tmp/one.conf"
kb() { "$KBENCH" --db "$db" --quiet "$@"; }
check "two one-sample runs stored" \
	kb run -c "$tmp/one.conf" -n a-1 '&&' kb run -c "$tmp/one.conf" -n b-1

expect_transcript "an unknown format" kb compare --format xml a-1 b-1 <<'T'
$ kb compare --format xml a-1 b-1
2> kbench: unknown format 'xml' (expected text, markdown, csv, json, brief or html)
[exit 2]
T
expect_transcript "an unknown test" kb compare --test ks a-1 b-1 <<'T'
$ kb compare --test ks a-1 b-1
2> kbench: unknown test 'ks' (expected welch, mwu, ci or ttest)
[exit 2]
T
expect_transcript "--alpha out of range" kb compare --alpha 1.5 a-1 b-1 <<'T'
$ kb compare --alpha 1.5 a-1 b-1
2> kbench: invalid --alpha '1.5': expected a number between 0 and 1
[exit 2]
T
expect_transcript "--alpha not a number" kb compare --alpha x a-1 b-1 <<'T'
$ kb compare --alpha x a-1 b-1
2> kbench: invalid --alpha 'x': expected a number between 0 and 1
[exit 2]
T
expect_transcript -f t2002-no-run.txt "no run to compare: the reason, then the usage" \
	kb compare
expect_transcript "an unknown run name" kb compare a-1 nosuch <<'T'
$ kb compare a-1 nosuch
2> kbench: no run named 'nosuch' in TMP/k.db (see kbench runs)
[exit 1]
T
expect_transcript "an unknown run id" kb compare a-1 '#99' <<'T'
$ kb compare a-1 '#99'
2> kbench: no run #99 in TMP/k.db
[exit 1]
T
expect_transcript "--only matching nothing" kb compare --only netperf a-1 b-1 <<'T'
$ kb compare --only netperf a-1 b-1
2> kbench: no section or row matches --only 'netperf'
[exit 1]
T
expect_transcript "a bad --only pattern" kb compare --only '(' a-1 b-1 <<'T'
$ kb compare --only '(' a-1 b-1
2> kbench: invalid regular expression '(' for --only at offset 1: missing closing parenthesis
[exit 2]
T

# One sample a side: the table still prints, no star, and the footer says why.
expect_transcript -m -e "$header_sed" \
	"runs with one sample compare, with a footnote instead of stars" \
	kb compare a-1 b-1 <<'T'
$ kb compare a-1 b-1
Kernel:   KERNEL
Host:     HOST
CPU:      CPU
Machine:  MACHINE
Config:   one, cksum 443378976
Samples:  a-1 1, b-1 1

hackbench-process-pipes
                                 a                      b
                                 1                      1
Min       1      9.9999 (   9.99%)      9.9999 (   9.99%)
Amean     1      9.9999 (   9.99%)      9.9999 (   9.99%)
Stddev    1      9.9999 (   9.99%)      9.9999 (   9.99%)
CoeffVar  1      9.9999 (   9.99%)      9.9999 (   9.99%)
Max       1      9.9999 (   9.99%)      9.9999 (   9.99%)
BAmean-95 1      9.9999 (   9.99%)      9.9999 (   9.99%)

                           a           b
                           1           1
Duration User           9.99        9.99
Duration System         9.99        9.99
Duration Elapsed        9.99        9.99

Ops (mean per sample)              a           b
                                   1           1
Ops Minor Faults                9.99        9.99
Ops Major Faults                9.99        9.99
Ops Voluntary Switches          9.99        9.99
Ops Involuntary Switches        9.99        9.99
Ops Task Clock (s)              9.99        9.99
Ops Page Faults                 9.99        9.99
Ops Context Switches            9.99        9.99
Ops CPU Migrations              9.99        9.99
Ops vmstat pgfault              9.99        9.99
Ops vmstat pgmajfault           9.99        9.99

Significance: Welch's t-test on the mean row only, alpha 0.05; a significant
  change prints *  x.xx%* instead of (  x.xx%).
Positive % = better: the sign follows each metric's direction.
No star, fewer than 3 samples on a side: hackbench-process-pipes 1.
[exit 0]
T
check "no star on the mean row (the mask above would hide one)" \
	sh -c '! grep -E "^Amean .*[*]" "$1"' sh "$tmp/tr.out"

done_testing
