#!/bin/sh
# Monitors in a real run: the defaults record rusage, perf and vmstat per
# counted sample; 'monitors = none' records nothing; a hardware event on a
# machine without a PMU gives one notice and a stored reason, not a
# failure; slab caches go into 'kbench show --slab'; bad keys are errors.
# Covers: monitors/monitor.c monitors/monitor_perf.c monitors/monitor_vmstat.c monitors/monitor_slab.c monitors/values.c cli/cmd_show.c
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

check "a run with the default monitors exits 0" kb --quiet run -c "$tmp/base.conf" -n dflt
r=$(run_id dflt)
is "the default sources are rusage, perf and vmstat" \
	"$(sql "SELECT group_concat(source) FROM (SELECT DISTINCT source FROM monitor_values WHERE run_id = $r ORDER BY source)")" "perf,rusage,vmstat"
is "the monitors in effect are stored per section" \
	"$(sql "SELECT count(*) FROM run_meta WHERE run_id = $r AND key = 'monitors' AND value = 'rusage,perf,vmstat'")" 2
is "every counted sample has perf page-faults, and only those (warm-up has none)" \
	"$(sql "SELECT count(*) || ',' || min(iteration) || ',' || max(iteration) || ',' || min(value > 0) FROM monitor_values WHERE run_id = $r AND source = 'perf' AND key = 'page-faults'")" "8,1,2,1"
is "monitor rows match sample rows" \
	"$(sql "SELECT count(*) FROM monitor_values m WHERE run_id = $r AND NOT EXISTS (SELECT 1 FROM samples s WHERE s.run_id = m.run_id AND s.section = m.section AND s.row = m.row AND s.iteration = m.iteration)")" 0
is "context switches, task-clock and cpu-migrations are counted too" \
	"$(sql "SELECT count(DISTINCT key) FROM monitor_values WHERE run_id = $r AND source = 'perf' AND key IN ('context-switches', 'task-clock', 'cpu-migrations')")" 3
is "the vmstat pgfault delta covers the sample's own faults" \
	"$(sql "SELECT count(*) FROM monitor_values v JOIN monitor_values p USING (run_id, section, row, iteration) WHERE v.run_id = $r AND v.source = 'vmstat' AND v.key = 'pgfault' AND p.source = 'perf' AND p.key = 'page-faults' AND v.value >= 0.99 * p.value")" 8
is "rusage minor faults agree with perf page-faults (within 10% + 64)" \
	"$(sql "SELECT count(*) FROM monitor_values u JOIN monitor_values p USING (run_id, section, row, iteration) WHERE u.run_id = $r AND u.source = 'rusage' AND u.key = 'minor-faults' AND p.source = 'perf' AND p.key = 'page-faults' AND abs(u.value - p.value) <= 0.1 * p.value + 64")" 8
kb show --monitors dflt >"$tmp/mon" 2>&1
is "show --monitors prints perf page-faults per row: mean, min, max and count of the stored values" \
	"$(sed -n '/^\[hackbench-process-pipes\]$/,/^$/p' "$tmp/mon" | grep ' perf/page-faults ')" \
	"$(sql "SELECT printf('  %-8s %-40s %16.2f %16.2f %16.2f %4d', row, source || '/' || key, avg(value), min(value), max(value), count(*)) FROM monitor_values WHERE run_id = $r AND section = 'hackbench-process-pipes' AND source = 'perf' AND key = 'page-faults' GROUP BY row ORDER BY row")"

printf '[global]\nmonitors = none\n' > "$tmp/none.conf"
cat "$tmp/base.conf" >> "$tmp/none.conf"
check "a run with monitors = none exits 0" kb --quiet run -c "$tmp/none.conf" -n off
r=$(run_id off)
is "monitors = none stores samples and no monitor rows" \
	"$(sql "SELECT (SELECT count(*) FROM samples WHERE run_id = $r AND warmup = 0) || ',' || (SELECT count(*) FROM monitor_values WHERE run_id = $r)")" "8,0"
is "user and system time stay in the samples" \
	"$(sql "SELECT count(*) FROM samples WHERE run_id = $r AND user_ns + sys_ns > 0 AND warmup = 0")" 8

printf '[global]\nperf_events = cycles,instructions,page-faults\n' > "$tmp/hw.conf"
cat "$tmp/base.conf" >> "$tmp/hw.conf"
kb run -c "$tmp/hw.conf" -n hw >"$tmp/out" 2>"$tmp/err"
ok $? "a run asking for hardware events exits 0 whatever the PMU"
r=$(run_id hw)
is "the run is complete" "$(sql "SELECT status FROM runs WHERE id = $r")" complete
if [ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ]; then
	diag "this machine has a CPU PMU: checking the counts instead of the notice"
	is "cycles are counted" \
		"$(sql "SELECT count(*) FROM monitor_values WHERE run_id = $r AND key = 'cycles' AND value > 0")" 8
	check "no notice" sh -c "! grep -q 'not counted' '$tmp/err'"
	is "no reason stored" "$(sql "SELECT count(*) FROM run_meta WHERE run_id = $r AND key LIKE 'perf.%'")" 0
else
	is "one notice names both hardware events, for both sections and all samples" \
		"$(grep -c "notice: perf events 'cycles', 'instructions' not counted: " "$tmp/err")" 1
	is "no other monitor complaint" \
		"$(grep -v '^kbench: notice: run @' "$tmp/err" | grep -c 'perf')" 1
	is "the reason is stored with the run, per event and section" \
		"$(sql "SELECT count(*) FROM run_meta WHERE run_id = $r AND key IN ('perf.cycles', 'perf.instructions') AND value LIKE 'not counted: %'")" 4
	is "no values for the hardware events" \
		"$(sql "SELECT count(*) FROM monitor_values WHERE run_id = $r AND key IN ('cycles', 'instructions')")" 0
fi
is "the software event is still counted in every sample" \
	"$(sql "SELECT count(*) FROM monitor_values WHERE run_id = $r AND key = 'page-faults' AND value > 0")" 8
kb show hw >"$tmp/show" 2>&1
is "show lists the perf events in effect, for each section" "$(grep '^  perf_events ' "$tmp/show")" \
	"  perf_events      cycles,instructions,page-faults
  perf_events      cycles,instructions,page-faults"

printf '[global]\nmonitors = slab\niterations = 1\nloops = 10\ngroups = 1\n[hackbench-process-pipes]\n' > "$tmp/slab.conf"
check "a run with the slab monitor exits 0" kb --quiet run -c "$tmp/slab.conf" -n slab
r=$(run_id slab)
is "slab totals are stored per sample, before and after" \
	"$(sql "SELECT count(*) FROM monitor_values WHERE run_id = $r AND source = 'slab' AND key IN ('Slab:before', 'Slab:after') AND value > 0")" 2
is "only the slab monitor ran" \
	"$(sql "SELECT group_concat(source) FROM (SELECT DISTINCT source FROM monitor_values WHERE run_id = $r ORDER BY source)")" "slab,slabcache"
if [ -r /sys/kernel/slab ]; then
	is "per-cache partial counts bracket the section (row before/after, iteration 0)" \
		"$(sql "SELECT count(DISTINCT row) || ',' || max(iteration) FROM monitor_values WHERE run_id = $r AND source = 'slabcache' AND key LIKE '%/partial'")" "2,0"
	kb show --slab slab >"$tmp/slab" 2>&1
	is "show --slab prints the partial table" "$(sed -n '1,3s/ *$//p' "$tmp/slab")" \
"[hackbench-process-pipes] slab caches before the first sample and after the last
  cache                           partial               objects
                                   before      after     before      after"
	name=$(sql "SELECT substr(key, 1, length(key) - 8) FROM monitor_values WHERE run_id = $r AND source = 'slabcache' AND row = 'after' AND key LIKE '%/partial' AND value > 0 ORDER BY key LIMIT 1")
	before=$(sql "SELECT CAST(value AS INTEGER) FROM monitor_values WHERE run_id = $r AND row = 'before' AND key = '$name/partial'")
	after=$(sql "SELECT CAST(value AS INTEGER) FROM monitor_values WHERE run_id = $r AND row = 'after' AND key = '$name/partial'")
	check "show --slab prints a cache's stored partial counts ($name: $before -> $after)" \
		grep -Eq "^  $name +$before +$after " "$tmp/slab"
else
	skip_n=3
	while [ $skip_n -gt 0 ]; do tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP no /sys/kernel/slab"; skip_n=$((skip_n - 1)); done
fi
expect_transcript "show --slab of a run without it says so" kb show --slab dflt <<'T'
$ kb show --slab dflt
no slab caches recorded in this run (set 'monitors = slab' or 'all')
[exit 0]
T

printf '[hackbench-a]\ngroups = 1\nmonitors = perf,vmstats\n' > "$tmp/m.conf"
expect_transcript "an unknown monitor names file, line, section and the choices" \
	kb run -c "$tmp/m.conf" <<'T'
$ kb run -c TMP/m.conf
2> kbench: TMP/m.conf:3: unknown monitor 'vmstats' in 'monitors' (expected a list of rusage, perf, vmstat, slab, all or none) (in [hackbench-a])
[exit 2]
T
printf '[global]\nperf_events = page-faults cyclez\n[hackbench-a]\ngroups = 1\n' > "$tmp/e.conf"
expect_transcript "an unknown perf event names file and line, and what works everywhere" \
	kb run -c "$tmp/e.conf" <<'T'
$ kb run -c TMP/e.conf
2> kbench: TMP/e.conf:2: unknown perf event 'cyclez' in 'perf_events' (libpfm4: event not found); generic events such as task-clock, page-faults, context-switches, cycles or instructions work everywhere (in [hackbench-a])
[exit 2]
T

done_testing
