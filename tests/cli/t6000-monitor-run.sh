#!/bin/sh
# Monitors in a real run: the defaults record rusage, perf and vmstat per
# counted sample; 'monitors = none' records nothing; a hardware event on a
# machine without a PMU gives one notice and a stored reason, not a
# failure; slab caches go into 'kbench show --slab'; bad keys are errors.
. "$TOP_SRCDIR/tests/cli/lib.sh"

cat > "$tmp/base.conf" <<'CONF'
[global]
iterations = 2
warmup = 1
loops = 10
groups = 1 2

[hackbench-process-pipes]
transport = pipes

[hackbench-thread-sockets]
mode = thread
CONF

run_id() { sql "SELECT id FROM runs WHERE name = '$1'"; }

kb --quiet run -c "$tmp/base.conf" -n dflt >/dev/null 2>&1
ok $? "a run with the default monitors exits 0"
r=$(run_id dflt)
check "the default sources are rusage, perf and vmstat" \
	test "$(sql "SELECT group_concat(source) FROM (SELECT DISTINCT source FROM monitor_values WHERE run_id = $r ORDER BY source)")" = "perf,rusage,vmstat"
check "the monitors in effect are stored per section" \
	test "$(sql "SELECT count(*) FROM run_meta WHERE run_id = $r AND key = 'monitors' AND value = 'rusage,perf,vmstat'")" = 2
check "every counted sample has perf page-faults, and only those (warm-up has none)" \
	test "$(sql "SELECT count(*) || ',' || min(iteration) || ',' || max(iteration) || ',' || min(value > 0) FROM monitor_values WHERE run_id = $r AND source = 'perf' AND key = 'page-faults'")" = "8,1,2,1"
check "monitor rows match sample rows" \
	test "$(sql "SELECT count(*) FROM monitor_values m WHERE run_id = $r AND NOT EXISTS (SELECT 1 FROM samples s WHERE s.run_id = m.run_id AND s.section = m.section AND s.row = m.row AND s.iteration = m.iteration)")" = 0
check "context switches, task-clock and cpu-migrations are counted too" \
	test "$(sql "SELECT count(DISTINCT key) FROM monitor_values WHERE run_id = $r AND source = 'perf' AND key IN ('context-switches', 'task-clock', 'cpu-migrations')")" = 3
check "the vmstat pgfault delta covers the sample's own faults" \
	test "$(sql "SELECT count(*) FROM monitor_values v JOIN monitor_values p USING (run_id, section, row, iteration) WHERE v.run_id = $r AND v.source = 'vmstat' AND v.key = 'pgfault' AND p.source = 'perf' AND p.key = 'page-faults' AND v.value >= 0.99 * p.value")" = 8
check "rusage minor faults agree with perf page-faults (within 10% + 64)" \
	test "$(sql "SELECT count(*) FROM monitor_values u JOIN monitor_values p USING (run_id, section, row, iteration) WHERE u.run_id = $r AND u.source = 'rusage' AND u.key = 'minor-faults' AND p.source = 'perf' AND p.key = 'page-faults' AND abs(u.value - p.value) <= 0.1 * p.value + 64")" = 8
kb show --monitors dflt >"$tmp/mon" 2>&1
check "show --monitors prints perf page-faults per row" \
	grep -Eq '^  1 +perf/page-faults +[0-9.]+ +[0-9.]+ +[0-9.]+ +2$' "$tmp/mon"

printf '[global]\nmonitors = none\n' > "$tmp/none.conf"
cat "$tmp/base.conf" >> "$tmp/none.conf"
kb --quiet run -c "$tmp/none.conf" -n off >/dev/null 2>&1
ok $? "a run with monitors = none exits 0"
r=$(run_id off)
check "monitors = none stores samples and no monitor rows" \
	test "$(sql "SELECT (SELECT count(*) FROM samples WHERE run_id = $r) || ',' || (SELECT count(*) FROM monitor_values WHERE run_id = $r)")" = "8,0"
check "user and system time stay in the samples" \
	test "$(sql "SELECT count(*) FROM samples WHERE run_id = $r AND user_ns + sys_ns > 0")" = 8

printf '[global]\nperf_events = cycles,instructions,page-faults\n' > "$tmp/hw.conf"
cat "$tmp/base.conf" >> "$tmp/hw.conf"
kb run -c "$tmp/hw.conf" -n hw >"$tmp/out" 2>"$tmp/err"
ok $? "a run asking for hardware events exits 0 whatever the PMU"
r=$(run_id hw)
check "the run is complete" test "$(sql "SELECT status FROM runs WHERE id = $r")" = complete
if [ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ]; then
	diag "this machine has a CPU PMU: checking the counts instead of the notice"
	check "cycles are counted" \
		test "$(sql "SELECT count(*) FROM monitor_values WHERE run_id = $r AND key = 'cycles' AND value > 0")" = 8
	check "no notice" sh -c "! grep -q 'not counted' '$tmp/err'"
	check "no reason stored" test "$(sql "SELECT count(*) FROM run_meta WHERE run_id = $r AND key LIKE 'perf.%'")" = 0
else
	check "one notice names both hardware events, for both sections and all samples" \
		test "$(grep -c "notice: perf events 'cycles', 'instructions' not counted: " "$tmp/err")" = 1
	check "no other monitor complaint" \
		test "$(grep -c 'perf' "$tmp/err")" = 1
	check "the reason is stored with the run, per event and section" \
		test "$(sql "SELECT count(*) FROM run_meta WHERE run_id = $r AND key IN ('perf.cycles', 'perf.instructions') AND value LIKE 'not counted: %'")" = 4
	check "no values for the hardware events" \
		test "$(sql "SELECT count(*) FROM monitor_values WHERE run_id = $r AND key IN ('cycles', 'instructions')")" = 0
fi
check "the software event is still counted in every sample" \
	test "$(sql "SELECT count(*) FROM monitor_values WHERE run_id = $r AND key = 'page-faults' AND value > 0")" = 8
kb show hw >"$tmp/show" 2>&1
check "show lists the perf events in effect" grep -q 'perf_events *cycles,instructions,page-faults' "$tmp/show"

printf '[global]\nmonitors = slab\niterations = 1\nloops = 10\ngroups = 1\n[hackbench-process-pipes]\n' > "$tmp/slab.conf"
kb --quiet run -c "$tmp/slab.conf" -n slab >/dev/null 2>&1
ok $? "a run with the slab monitor exits 0"
r=$(run_id slab)
check "slab totals are stored per sample, before and after" \
	test "$(sql "SELECT count(*) FROM monitor_values WHERE run_id = $r AND source = 'slab' AND key IN ('Slab:before', 'Slab:after') AND value > 0")" = 2
check "only the slab monitor ran" \
	test "$(sql "SELECT group_concat(source) FROM (SELECT DISTINCT source FROM monitor_values WHERE run_id = $r ORDER BY source)")" = "slab,slabcache"
if [ -r /sys/kernel/slab ]; then
	check "per-cache partial counts bracket the section (row before/after, iteration 0)" \
		test "$(sql "SELECT count(DISTINCT row) || ',' || max(iteration) FROM monitor_values WHERE run_id = $r AND source = 'slabcache' AND key LIKE '%/partial'")" = "2,0"
	kb show --slab slab >"$tmp/slab" 2>&1
	check "show --slab prints the partial table" \
		sh -c "grep -q '^\[hackbench-process-pipes\] slab caches' '$tmp/slab' && grep -Eq '^  cache +partial' '$tmp/slab'"
	name=$(sql "SELECT substr(key, 1, length(key) - 8) FROM monitor_values WHERE run_id = $r AND source = 'slabcache' AND row = 'after' AND key LIKE '%/partial' AND value > 0 ORDER BY key LIMIT 1")
	before=$(sql "SELECT CAST(value AS INTEGER) FROM monitor_values WHERE run_id = $r AND row = 'before' AND key = '$name/partial'")
	after=$(sql "SELECT CAST(value AS INTEGER) FROM monitor_values WHERE run_id = $r AND row = 'after' AND key = '$name/partial'")
	check "show --slab prints a cache's stored partial counts ($name: $before -> $after)" \
		grep -Eq "^  $name +$before +$after " "$tmp/slab"
else
	skip_n=3
	while [ $skip_n -gt 0 ]; do tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP no /sys/kernel/slab"; skip_n=$((skip_n - 1)); done
fi
kb show --slab dflt >"$tmp/noslab" 2>&1
check "show --slab of a run without it says so" grep -q "no slab caches recorded" "$tmp/noslab"

printf '[hackbench-a]\ngroups = 1\nmonitors = perf,vmstats\n' > "$tmp/m.conf"
expect_err "an unknown monitor names file, line, section and the choices" 2 \
	"$tmp/m.conf:3: unknown monitor 'vmstats' in 'monitors' (expected a list of rusage, perf, vmstat, slab, all or none) (in [hackbench-a])" \
	kb run -c "$tmp/m.conf"
printf '[global]\nperf_events = page-faults cyclez\n[hackbench-a]\ngroups = 1\n' > "$tmp/e.conf"
expect_err "an unknown perf event names file and line" 2 \
	"$tmp/e.conf:2: unknown perf event 'cyclez' in 'perf_events'" kb run -c "$tmp/e.conf"

done_testing
