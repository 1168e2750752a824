#!/bin/sh
# A tiny hackbench run goes into a fresh database: every sample stored,
# runs and show describe it, --dry-run and --only plan without running.
# Covers: cli/cmd_run.c runner/runner.c runner/record.c db/store.c db/store_write.c cli/cmd_runs.c cli/cmd_show.c db/query.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

cat > "$tmp/tiny.conf" <<'CONF'
[global]
iterations = 3
warmup = 1
loops = 10
groups = 1 2

[hackbench-process-pipes]
transport = pipes

[hackbench-thread-sockets]
mode = thread
CONF

expect_transcript -m -e "$header_sed" -f t1000-run-base.txt \
	"a run prints its report: the header block, each section's statistics" \
	kb --quiet run -c "$tmp/tiny.conf" -n v618-base
check "the database was created" test -s "$db"
is "2 sections x 2 rows x 3 samples are stored, numbered from 1 (the warm-up marked apart)" \
	"$(sql 'SELECT section, row, count(*), min(iteration), max(iteration) FROM samples WHERE warmup = 0 GROUP BY section, row ORDER BY section, row')" \
	"hackbench-process-pipes|1|3|1|3
hackbench-process-pipes|2|3|1|3
hackbench-thread-sockets|1|3|1|3
hackbench-thread-sockets|2|3|1|3"
is "samples are positive times in seconds, lower is better, unflagged" \
	"$(sql "SELECT count(*) FROM samples WHERE unit = 's' AND better = 'lower' AND value > 0 AND value < 60 AND flag IS NULL AND warmup = 0")" 12
is "rusage and duration are stored per sample" \
	"$(sql 'SELECT count(*) FROM samples WHERE duration_ns > 0 AND user_ns + sys_ns > 0 AND warmup = 0')" 12
is "... and the warm-up, one a row, with its times and no monitor values" \
	"$(sql 'SELECT count(*) FROM samples WHERE warmup = 1 AND iteration = -1 AND duration_ns > 0')
$(sql 'SELECT count(*) FROM monitor_values WHERE iteration < 0')" "4
0"
is "the run is complete" "$(sql 'SELECT status FROM runs')" complete
is "the config text is stored with the run" "$(sql 'SELECT config_text FROM runs')" "$(cat "$tmp/tiny.conf")"
"$KBENCH" topology >"$tmp/topo"
is "the machine is recorded as hwloc and /proc/meminfo describe it" \
	"$(sql 'SELECT hostname, cpu_model, packages, cores, cpus, mem_bytes, length(topology_xml) > 100 FROM machines')" \
	"$(uname -n)|$(sed -n 's/^CPU model: //p' "$tmp/topo")|$(sed -En '1s/^Machine: ([0-9]+) packages?, .* ([0-9]+) cores?, ([0-9]+) PUs?$/\1|\2|\3/p' "$tmp/topo")|$(awk '/^MemTotal:/ { printf "%.0f", $2 * 1024 }' /proc/meminfo)|1"
is "kernel facts are recorded" "$(sql 'SELECT kernel_release, kernel_version FROM runs')" "$(uname -r)|$(uname -v)"
is "the schema version is set" "$(sql 'PRAGMA user_version')" 12
is "the store says it is kbench's" "$(sql 'PRAGMA application_id')" 1801610606
is "the database is in WAL mode" "$(sql 'PRAGMA journal_mode')" wal

expect_transcript -m -e "$header_sed" -f t1000-run-next.txt \
	"a second run of the config is compared with the previous one" \
	kb --quiet run -c "$tmp/tiny.conf" -n v618-next
expect_transcript "--no-report prints nothing" \
	kb --quiet run -c "$tmp/tiny.conf" -n quiet-run --no-report <<'T'
$ kb --quiet run -c TMP/tiny.conf -n quiet-run --no-report
[exit 0]
T

expect_transcript -e "$runs_sed" "runs lists the runs with their sample counts" kb runs <<'T'
$ kb runs
   id name               config      host       started          status      samples kernel
    1 v618-base          tiny        HOST YYYY-MM-DD hh:mm complete         12 KERNEL
    2 v618-next          tiny        HOST YYYY-MM-DD hh:mm complete         12 KERNEL
    3 quiet-run          tiny        HOST YYYY-MM-DD hh:mm complete         12 KERNEL
[exit 0]
T
expect_transcript -e "$runs_sed" "runs --name keeps the runs of that name" kb runs --name v618-next <<'T'
$ kb runs --name v618-next
   id name               config      host       started          status      samples kernel
    2 v618-next          tiny        HOST YYYY-MM-DD hh:mm complete         12 KERNEL
[exit 0]
T
expect_transcript -e "$runs_sed" "runs --last keeps the most recent" kb runs --last 2 <<'T'
$ kb runs --last 2
   id name               config      host       started          status      samples kernel
    2 v618-next          tiny        HOST YYYY-MM-DD hh:mm complete         12 KERNEL
    3 quiet-run          tiny        HOST YYYY-MM-DD hh:mm complete         12 KERNEL
[exit 0]
T
expect_transcript -e "$runs_sed" -e "s/ --host $(uname -n) / --host HOST /" \
	"runs --host, --config and --since filter together" \
	kb runs --host "$(uname -n)" --config tiny --since 2000-01-01 <<'T'
$ kb runs --host HOST --config tiny --since 2000-01-01
   id name               config      host       started          status      samples kernel
    1 v618-base          tiny        HOST YYYY-MM-DD hh:mm complete         12 KERNEL
    2 v618-next          tiny        HOST YYYY-MM-DD hh:mm complete         12 KERNEL
    3 quiet-run          tiny        HOST YYYY-MM-DD hh:mm complete         12 KERNEL
[exit 0]
T
expect_transcript "runs --config no run has is an error" kb runs --config nope <<'T'
$ kb runs --config nope
2> kbench: no run has config 'nope' in TMP/k.db
[exit 1]
T
expect_transcript "runs --since after every run lists none" kb runs --since 2999-01-01 <<'T'
$ kb runs --since 2999-01-01
2> kbench: no runs match (TMP/k.db holds 3 runs)
[exit 0]
T
expect_transcript "a bad --last is refused" kb runs --last 0 <<'T'
$ kb runs --last 0
2> kbench: invalid value '0' for --last: expected a positive integer
[exit 2]
T
expect_transcript -e "$show_sed" "show describes the run, its sections and options" kb show v618-base <<'T'
$ kb show v618-base
run @1  v618-base
  uuid        UUID
  status      complete
  started     YYYY-MM-DDThh:mm:ssZ
  finished    YYYY-MM-DDThh:mm:ssZ
  config      tiny
  host        HOST (MACHINE)
  kernel      KERNEL KVERSION
  cmdline     CMDLINE
  kbench      VERSION
  samples     12 (0 failed)

section                           samples  flagged
hackbench-process-pipes                 6        0
hackbench-thread-sockets                6        0
warm-up: 4 results in N.NNN s, stored but in no statistic

Options in effect:
[hackbench-process-pipes]
  workload         hackbench
  groups           1 2
  loops            10
  datasize         100
  fds              20
  mode             process
  transport        pipes
  pin              unbound
  kill_worker      -1
  kill_point       start
  pin_cpus         unbound
  iterations       3
  warmup           1
  timeout          600
  monitors         rusage,perf,vmstat
  perf_events      task-clock,page-faults,context-switches,cpu-migrations

[hackbench-thread-sockets]
  workload         hackbench
  groups           1 2
  loops            10
  datasize         100
  fds              20
  mode             thread
  transport        sockets
  pin              unbound
  kill_worker      -1
  kill_point       start
  pin_cpus         unbound
  iterations       3
  warmup           1
  timeout          600
  monitors         rusage,perf,vmstat
  perf_events      task-clock,page-faults,context-switches,cpu-migrations
[exit 0]
T
{ echo "\$ kb show --config '#1'"; cat "$tmp/tiny.conf"; echo "[exit 0]"; } >"$tmp/cfg.want"
expect_transcript "show --config prints the stored config" kb show --config '#1' <"$tmp/cfg.want"

# The estimates come from run @3's sample durations (measured: masked).
expect_transcript -e 's/ [0-9.]+ s \(run/ D s (run/; s/^(estimated duration:) [0-9.]+ s$/\1 D s/' \
	"--dry-run prints the plan" kb run -c "$tmp/tiny.conf" --dry-run <<'T'
$ kb run -c TMP/tiny.conf --dry-run
section                      workload   iters warmup  rows
hackbench-process-pipes      hackbench      3      1  groups 1 2
hackbench-thread-sockets     hackbench      3      1  groups 1 2
16 samples in all (warm-up included)

Effective options:
  [hackbench-process-pipes] pin=unbound iterations=3 warmup=1 timeout=600
    loops=10 groups=1 2 transport=pipes
  [hackbench-thread-sockets] pin=unbound iterations=3 warmup=1 timeout=600
    loops=10 groups=1 2 mode=thread

estimate                     plan       last run of the same options here
hackbench-process-pipes      unknown    D s (run @3)
hackbench-thread-sockets     unknown    D s (run @3)
estimated duration: D s
[exit 0]
T
is "--dry-run stores nothing" "$(sql 'SELECT count(*) FROM runs')" 3
kb --quiet run -c "$tmp/tiny.conf" --only 'thread' -n only-run >/dev/null 2>&1
is "--only runs the matching sections only" \
	"$(sql "SELECT DISTINCT section FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.name = 'only-run'")" \
	hackbench-thread-sockets

KBENCH_DB=$tmp/env.db "$KBENCH" --quiet run -c "$tmp/tiny.conf" --only pipes >/dev/null 2>&1
check "KBENCH_DB names the default database" test -s "$tmp/env.db"
env -u KBENCH_DB XDG_DATA_HOME=$tmp/xdg "$KBENCH" --quiet run -c "$tmp/tiny.conf" --only pipes >/dev/null 2>&1
check "without KBENCH_DB the database is created under XDG_DATA_HOME" test -s "$tmp/xdg/kbench/kbench.db"
is "a run without -n is named after the kernel release" \
	"$("$KB_SQL" "$tmp/env.db" 'SELECT name FROM runs')" "$(uname -r)"

done_testing
