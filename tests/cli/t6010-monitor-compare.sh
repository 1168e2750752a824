#!/bin/sh
# kbench compare follows each section with the monitors' values, each a
# mean per sample (the Ops block), chosen by --monitors none|summary|all.
# Covers: compare/model.c compare/render_text.c monitors/values.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[global]\niterations = 2\nloops = 10\ngroups = 1\n[hackbench-process-pipes]\ntransport = pipes\n' > "$tmp/c.conf"
check "two tiny runs are stored" \
	kb --quiet run -c "$tmp/c.conf" -n v618-base '&&' \
	kb --quiet run -c "$tmp/c.conf" -n v618-new

expect_transcript -m -e "$header_sed" "the summary Ops block follows the Duration block" \
	kb compare v618-base v618-new <<'T'
$ kb compare v618-base v618-new
Kernel:   KERNEL
Host:     HOST
CPU:      CPU
Machine:  MACHINE
Config:   c, cksum 2885713132
Samples:  v618-base 2, v618-new 2

hackbench-process-pipes
                              v618                   v618
                              base                    new
Min       1      9.9999 (   9.99%)      9.9999 (   9.99%)
Amean     1      9.9999 (   9.99%)      9.9999 (   9.99%)
Stddev    1      9.9999 (   9.99%)      9.9999 (   9.99%)
CoeffVar  1      9.9999 (   9.99%)      9.9999 (   9.99%)
Max       1      9.9999 (   9.99%)      9.9999 (   9.99%)
BAmean-95 1      9.9999 (   9.99%)      9.9999 (   9.99%)

                        v618        v618
                        base         new
Duration User           9.99        9.99
Duration System         9.99        9.99
Duration Elapsed        9.99        9.99

Ops (mean per sample)           v618        v618
                                base         new
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
cp "$tmp/tr.out" "$tmp/cmp"
total() {	# total RUN-NAME SOURCE KEY: the stored values' mean, as printed
	sql "SELECT printf('%.2f', sum(value) / count(*)) FROM monitor_values m JOIN runs r ON r.id = m.run_id WHERE r.name = '$1' AND source = '$2' AND key = '$3'"
}
is "Ops Page Faults are each run's mean per sample" \
	"$(sed -En 's/^Ops Page Faults +([0-9.]+) +([0-9.]+)$/\1 \2/p' "$tmp/cmp")" \
	"$(total v618-base perf page-faults) $(total v618-new perf page-faults)"
is "Ops Context Switches likewise" \
	"$(sed -En 's/^Ops Context Switches +([0-9.]+) +([0-9.]+)$/\1 \2/p' "$tmp/cmp")" \
	"$(total v618-base perf context-switches) $(total v618-new perf context-switches)"
check "the table stays within 80 columns" awk 'length > 80 { print; bad = 1 } END { exit bad }' "$tmp/cmp"

kb compare --monitors all v618-base v618-new >"$tmp/all" 2>&1
is "--monitors all adds a row for every vmstat counter stored" \
	"$(grep -c '^Ops vmstat ' "$tmp/all")" "$(sql "SELECT count(DISTINCT key) FROM monitor_values WHERE source = 'vmstat'")"
check "... nr_free_pages among them" grep '^Ops vmstat nr_free_pages ' "$tmp/all"
expect_transcript -m -e "$header_sed" "--monitors none leaves the Ops block out" \
	kb compare --monitors none v618-base v618-new <<'T'
$ kb compare --monitors none v618-base v618-new
Kernel:   KERNEL
Host:     HOST
CPU:      CPU
Machine:  MACHINE
Config:   c, cksum 2885713132
Samples:  v618-base 2, v618-new 2

hackbench-process-pipes
                              v618                   v618
                              base                    new
Min       1      9.9999 (   9.99%)      9.9999 (   9.99%)
Amean     1      9.9999 (   9.99%)      9.9999 (   9.99%)
Stddev    1      9.9999 (   9.99%)      9.9999 (   9.99%)
CoeffVar  1      9.9999 (   9.99%)      9.9999 (   9.99%)
Max       1      9.9999 (   9.99%)      9.9999 (   9.99%)
BAmean-95 1      9.9999 (   9.99%)      9.9999 (   9.99%)

                        v618        v618
                        base         new
Duration User           9.99        9.99
Duration System         9.99        9.99
Duration Elapsed        9.99        9.99

Significance: Welch's t-test on the mean row only, alpha 0.05; a significant
  change prints *  x.xx%* instead of (  x.xx%).
Positive % = better: the sign follows each metric's direction.
No star, fewer than 3 samples on a side: hackbench-process-pipes 1.
[exit 0]
T
expect_transcript "a bad --monitors value is named" kb compare --monitors some v618-base v618-new <<'T'
$ kb compare --monitors some v618-base v618-new
2> kbench: invalid --monitors 'some': expected none, summary or all
[exit 2]
T

done_testing
