#!/bin/sh
# t8500: kbench fleet on a real Slurm (munged, slurmctld, slurmd -N n1 and
# -N n2 on one host) and a real nginx WebDAV server, both started here:
# a tiny config submitted to both nodes, their bundles uploaded, collected
# into the central store with every sample; an upload that fails (nginx
# stopped) leaves the bundle on its node, and the next job sends it; a
# daily chain started a few seconds ahead queues its successor and
# unschedule cancels it; submission failures name sbatch and its output.
# Covers: cli/cmd_fleet.c fleet/slurm.c fleet/schedule.c fleet/http.c fleet/outbox.c fleet/results.c fleet/collect.c fleet/fleet.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-fleet.sh"

fleet_need slurm nginx
cd "$tmp" || exit 1
printf '[hackbench-process-pipes]\niterations = 2\nloops = 10\ngroups = 1\n' >hb.conf
nodes=$tmp/nodes
# What every submission shares: the node's store under nodes/NODE, runs
# under the node's name (both nodes are this machine).
submit() {	# submit NAME NODES [ARGS...]
	sb_name=$1 sb_nodes=$2
	shift 2
	"$KBENCH" fleet submit -c hb.conf -n "$sb_name" --nodes "$sb_nodes" \
		--results "$results" --db-dir "$nodes/%n" --node-names "$@"
}
node_sql() {	# node_sql NODE SQL
	"$KB_SQL" "$nodes/$1/kbench.db" "$2"
}

start_nginx
ok $? "nginx serves WebDAV on port $http_port"
start_slurm
st=$?
ok $st "munged, slurmctld and slurmd -N n1, -N n2 are up, both nodes idle"
if [ "$st" -ne 0 ]; then
	sinfo 2>&1 | comment
	dump_logs
	done_testing
	exit
fi

# Both nodes, one job each.
submit fleet-1 n1,n2 >out 2>err
ok $? "submit to n1 and n2"
check "... one job a node, named after the run" \
	grep -Eq '^submitted job [0-9]+ \(kbench-fleet-1\) to n1$' out
check "... and n2" grep -Eq '^submitted job [0-9]+ \(kbench-fleet-1\) to n2$' out
check "both jobs ran to their end within 90 s" \
	wait_until 90 sh -c '! squeue -h -o %j | grep -q "^kbench-"'
kb fleet status >status 2>&1
check "status lists both as completed, on their nodes" \
	test "$(awk '$2 == "fleet-1" && $3 == "COMPLETED" { print $4 }' status | sort | tr '\n' ' ')" = "n1 n2 "
check "... not collected yet" test "$(grep -c 'not collected$' status)" = 2
for n in n1 n2; do
	check "$n's job ran kbench run into its own store, under its node name" \
		test "$(node_sql $n "SELECT m.hostname || ' ' || r.name || ' ' || r.status FROM runs r JOIN machines m ON m.id = r.machine_id")" = "$n fleet-1 complete"
	uuid=$(node_sql $n "SELECT uuid FROM runs")
	check "... and uploaded its bundle to results/$n/" test -s "$www/results/$n/$uuid.kbench"
	check "... nothing left in its outbox" test -z "$(ls "$nodes/$n/outbox/$n")"
done
check "no temporary upload is left on the server" \
	test -z "$(find "$www" -name '.*' -type f)"

# Collect into the central store.
kb fleet collect "$results" >out 2>err
ok $? "collect"
check "... a line per host: 1 bundle, 1 new, 1 run added" \
	test "$(awk '$1 ~ /^n[12]$/ { print $1, $2, $3, $4 }' out | tr '\n' ' ')" = "n1 1 1 1 n2 1 1 1 "
check "... and the total" grep -qx "$results: 2 new bundles, 2 runs added (4 samples)" out
for n in n1 n2; do
	uuid=$(node_sql $n "SELECT uuid FROM runs")
	is "$n's run is in the central store with all its samples" \
		"$(sql "SELECT m.hostname, r.name, (SELECT count(*) FROM samples s WHERE s.run_id = r.id) FROM runs r JOIN machines m ON m.id = r.machine_id WHERE r.uuid = '$uuid'")" \
		"$n|fleet-1|$(node_sql $n 'SELECT count(*) FROM samples')"
	is "... the same values" \
		"$(sql "SELECT group_concat(value, ' ') FROM samples WHERE run_id = (SELECT id FROM runs WHERE uuid = '$uuid')")" \
		"$(node_sql $n "SELECT group_concat(value, ' ') FROM samples")"
done
is "the collected bundles are recorded" "$(sql "SELECT path, runs_added FROM fleet_collected ORDER BY path" | sed -E 's,/[0-9a-f-]{36}\.kbench,/UUID,')" \
	"n1/UUID|1
n2/UUID|1"
kb fleet status >status 2>&1
check "status names each job's collected run" \
	test "$(grep -Ec ' fleet-1 +COMPLETED .* run @[0-9]+$' status)" = 2
kb fleet collect "$results" >out 2>err
ok $? "collect again"
check "... finds nothing new" grep -qx "$results: 0 new bundles, 0 runs added (0 samples)" out
is "... and the store has each run once" "$(sql 'SELECT count(*) FROM runs')" 2

# nginx down: the upload fails after its retries, the bundle stays.
stop_nginx
submit fleet-2 n1 >out 2>err
ok $? "with nginx stopped, a job submitted to n1"
check "... ran to its end" wait_until 90 sh -c '! squeue -h -o %j | grep -q "^kbench-"'
kept=$(ls "$nodes/n1/outbox/n1")
check "... its bundle stays in n1's outbox" test "$(echo "$kept" | wc -w)" = 1
job=$(sed -n 's/^submitted job \([0-9]*\) .*/\1/p' out)
check "... the job's log says why and what it kept" \
	grep -q "kept '$nodes/n1/outbox/n1/$kept' for the next upload" "slurm-$job.out"
check "... after 4 tries" grep -q "Couldn't connect to server (4 tries)" "slurm-$job.out"
kb fleet status >status 2>&1
check "... and status shows it failed, exit 1" \
	grep -Eq "^$job +fleet-2 +FAILED +n1 .* exit 1:0$" status

# The next job on n1 sends what the last one could not.
start_nginx
submit fleet-3 n1 >out 2>err
ok $? "nginx back, the next job submitted to n1"
check "... ran to its end" wait_until 90 sh -c '! squeue -h -o %j | grep -q "^kbench-"'
job=$(sed -n 's/^submitted job \([0-9]*\) .*/\1/p' out)
check "... and uploaded both bundles" test "$(grep -c '^uploaded n1/' "slurm-$job.out")" = 2
check "... n1's outbox is empty" test -z "$(ls "$nodes/n1/outbox/n1")"
kb fleet collect "$results" >out 2>err
ok $? "collect picks them up"
check "... two new bundles of n1" \
	test "$(awk '$1 == "n1" { print $2, $3, $4, $5 }' out)" = "3 2 2 fleet-3"
is "... every run of n1 is in the central store" \
	"$(sql "SELECT r.name FROM runs r JOIN machines m ON m.id = r.machine_id WHERE m.hostname = 'n1' ORDER BY r.name" | tr '\n' ' ')" \
	"fleet-1 fleet-2 fleet-3 "

# --report: regressions of each host, then the newest run name against
# the one before it on each host that has both.
kb fleet collect --report "$results" >out 2>err
st=$?
ok $st "collect --report ($st)"
check "... regressions of each host" \
	test "$(grep -c '^Regressions on n[12]:$' out)" = 2
check "... n1's fleet-3 compared with fleet-2" \
	grep -qx 'n1-Samples:  fleet-2 2, fleet-3 2' out
check "... n2, without fleet-3, is not compared" \
	test "$(grep -c '^n[12]-Samples:' out)" = 1
check "... nothing printed on stderr" test ! -s err

# A daily chain whose first job waits (begin in 10 minutes) until the
# checks on it pending are done: with a begin a few seconds ahead, a
# loaded machine let it run and queue its successor before them.
daily=$(date -d '-1 hour' +%H:%M)
kb fleet schedule --daily "$daily" --begin now+600 -c hb.conf -n nightly --nodes n1 \
	--results "$results" --db-dir "$nodes/%n" --node-names >out 2>err
ok $? "schedule a daily chain on n1, first in 10 minutes"
first=$(sed -n 's/^submitted job \([0-9]*\) (kbench-daily-nightly) to n1$/\1/p' out)
check "... its first job" test -n "$first"
check "... and how to end it" grep -q "'kbench fleet unschedule nightly' ends it" out
kb fleet status >status 2>&1
check "status shows the first job waiting for its begin time" \
	grep -Eq "^$first +daily-nightly +PENDING +n1 " status
expect_err "the same chain is not scheduled twice on a node" 1 \
	"warning: chain 'kbench-daily-nightly' is scheduled on n1 already (job $first is pending): left as it is" \
	"$KBENCH" fleet schedule --daily "$daily" -c hb.conf -n nightly --nodes n1
check "... an error when no node is left" \
	grep -q "chain 'kbench-daily-nightly' is scheduled on every node given already" "$tmp/err"
check "... its begin time is brought forward" scontrol update JobId="$first" StartTime=now
check "the first job ran" \
	wait_until 90 sh -c "[ -f slurm-$first.out ] && ! squeue -h -j $first -o %i 2>/dev/null | grep -q ."
next=$(squeue -h -n kbench-daily-nightly -t PENDING -o %i)
check "... and queued its successor first" \
	grep -qx "kbench fleet: queued job $next for the next $daily on n1" "slurm-$first.out"
is "... which is pending" "$(squeue -h -j "$next" -o '%j %T' 2>/dev/null)" \
	"kbench-daily-nightly PENDING"
check "... until the next $daily" test "$(squeue -h -j "$next" -o %S | cut -c12-16)" = "$daily"
kb fleet schedule --daily "$daily" -c hb.conf -n nightly --nodes n1,n2 \
	--results "$results" --db-dir "$nodes/%n" --node-names >out 2>err
ok $? "schedule again on n1 and n2"
check "... n1's chain is left as it is" \
	grep -q "chain 'kbench-daily-nightly' is scheduled on n1 already (job $next is pending)" err
n2job=$(sed -n 's/^submitted job \([0-9]*\) (kbench-daily-nightly) to n2$/\1/p' out)
check "... n2's starts" test -n "$n2job"
kb fleet unschedule nightly >out 2>err
ok $? "unschedule"
check "... cancels n1's next job" grep -qx "cancelled job $next (kbench-daily-nightly on n1)" out
check "... and n2's" grep -qx "cancelled job $n2job (kbench-daily-nightly on n2)" out
check "... and nothing else" test "$(wc -l <out)" = 2
is "... no job of the chain is left" "$(squeue -h -n kbench-daily-nightly -o %i)" ""
expect_err "unschedule again: nothing pending" 1 \
	"chain 'kbench-daily-nightly' has no pending job" "$KBENCH" fleet unschedule nightly

# Submission failures name the command and what it printed.
expect_err "no such node" 1 "Invalid node name specified" submit x n9
check "... naming the command" grep -q "'sbatch --parsable --nodelist=n9 " "$tmp/err"
stop_slurmctld
expect_err "the controller down" 1 "Unable to contact slurm controller" submit x n1
check "... naming the command" grep -q "'sbatch --parsable --nodelist=n1 " "$tmp/err"
expect_err "status with the controller down" 1 "'squeue -h -o" "$KBENCH" fleet status

[ "$tap_failed" -ne 0 ] && dump_logs
stop_daemons
check "every daemon is stopped" test -z "$(ls "$fleet_pids")"
done_testing
