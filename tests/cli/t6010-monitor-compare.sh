#!/bin/sh
# kbench compare follows each section with the monitors' totals (the Ops
# block), chosen by --monitors none|summary|all.
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[global]\niterations = 2\nloops = 10\ngroups = 1\n[hackbench-process-pipes]\ntransport = pipes\n' > "$tmp/c.conf"
kb --quiet run -c "$tmp/c.conf" -n 6.18-base >/dev/null 2>&1 &&
kb --quiet run -c "$tmp/c.conf" -n 6.18-new >/dev/null 2>&1
ok $? "two tiny runs are stored"

kb compare 6.18-base 6.18-new >"$tmp/cmp" 2>&1
ok $? "compare exits 0"
check "the Ops block follows the Duration block" \
	sh -c "grep -n '^Duration User' '$tmp/cmp' | cut -d: -f1 > '$tmp/d' && grep -n '^Ops Minor Faults' '$tmp/cmp' | cut -d: -f1 > '$tmp/o' && [ \$(cat '$tmp/d') -lt \$(cat '$tmp/o') ]"
want=$(sql "SELECT printf('%.2f', sum(value)) FROM monitor_values WHERE run_id = 1 AND source = 'perf' AND key = 'page-faults'")
check "Ops Page Faults is the baseline's total over its samples ($want)" \
	grep -Eq "^Ops Page Faults +$want +[0-9.]+$" "$tmp/cmp"
check "context switches are shown" grep -q '^Ops Context Switches ' "$tmp/cmp"
check "the summary leaves most vmstat counters out" sh -c "! grep -q '^Ops vmstat nr_free_pages' '$tmp/cmp'"
check "the table stays within 80 columns" sh -c "! awk 'length > 80' '$tmp/cmp' | grep -q ."

kb compare --monitors all 6.18-base 6.18-new >"$tmp/all" 2>&1
check "--monitors all adds every vmstat counter" grep -q '^Ops vmstat nr_free_pages ' "$tmp/all"
kb compare --monitors none 6.18-base 6.18-new >"$tmp/none" 2>&1
check "--monitors none leaves the Ops block out" sh -c "! grep -q '^Ops ' '$tmp/none' && grep -q '^Duration User' '$tmp/none'"
expect_err "a bad --monitors value is named" 2 "invalid --monitors 'some': expected none, summary or all" \
	kb compare --monitors some 6.18-base 6.18-new

done_testing
