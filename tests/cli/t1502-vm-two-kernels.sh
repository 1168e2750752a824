#!/bin/sh
# t1502-vm-two-kernels: Debian's PREEMPT_RT kernel and its cloud sibling
# as two kernel arms of kbench vm, booted in turn for two rounds of a
# tiny hackbench (ABBA): the arms are an experiment, as kbench ab's are,
# each arm one run (CONFIG/ARM) holding both rounds and the experiment's
# facts; the runs carry each guest's kernel (PREEMPT_RT in one uname -v),
# and the report after the run is their paired comparison.
# Covers: cli/cmd_vm.c kernel/vm.c experiment/experiment.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-vm.sh"

if ! vm_kernels; then
	skip "$vm_why"
	done_testing
	exit
fi
kbt() { timeout 300 "$KBENCH" --db "$db" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
show() { sed 's/^/#   /' "$tmp/out" "$tmp/err"; }
printf '[hackbench]\nworkload = hackbench\ngroups = 1\nloops = 10\niterations = 3\n' \
	>"$tmp/hb.conf"

kbt vm -k "$vm_rt" -k "$vm_cloud" -n rt -n cloud --rounds 2 -c "$tmp/hb.conf" \
	--vcpus 2 --memory 384
ok $rc "the -rt and cloud kernels alternate for two rounds"
[ $rc -eq 0 ] || show
is "the boots go ABBA" "$(sed -n 's/^kbench: notice: round \([12]\)\/2 \([a-z]*\): booting .*vmlinuz-[0-9.-]*-\([a-z]*\)-amd64$/\1 \2 \3/p' "$tmp/err" | tr '\n' ' ')" \
	"1 rt rt 1 cloud cloud 2 cloud cloud 2 rt rt "
grep -q "^kbench: round 1/2 rt (boot [0-9.]* s) \[hackbench\]" "$tmp/err"
ok $? "the progress line shows the boot time"
is "each arm is one complete run holding both rounds" \
	"$(sql "SELECT r.name, r.status, s.round, count(*) FROM samples s JOIN runs r ON r.id = s.run_id GROUP BY r.id, s.round ORDER BY r.id, s.round")" \
	"hb/rt|complete|1|3
hb/rt|complete|2|3
hb/cloud|complete|1|3
hb/cloud|complete|2|3"
is "the arms are an experiment of two rounds" \
	"$(sql "SELECT status || ' ' || arm_order || ' ' || rounds || ' ' || arms FROM experiments")" \
	"complete abba 2 rt cloud"
is "each run names the experiment and its arm" \
	"$(sql "SELECT r.name || ' ' || e.value || ' ' || a.value FROM runs r
		JOIN run_meta e ON e.run_id = r.id AND e.key = 'experiment'
		JOIN run_meta a ON a.run_id = r.id AND a.key = 'arm' ORDER BY r.id")" \
	"hb/rt 1 rt
hb/cloud 1 cloud"
is "each run names its arm's kernel" \
	"$(sql "SELECT value FROM run_meta m JOIN runs r ON r.id = m.run_id
		WHERE r.name = 'hb/rt' AND m.key = 'arm kernel'")" "$vm_rt"
sql "SELECT kernel_version FROM runs WHERE name = 'hb/rt'" | grep -q PREEMPT_RT
ok $? "the -rt run's kernel says PREEMPT_RT"
sql "SELECT kernel_version FROM runs WHERE name = 'hb/cloud'" | grep -q PREEMPT_RT
ok $((! $?)) "the cloud run's does not"
grep -q "^Significance: a paired t-test on 2 rounds'" "$tmp/out"
ok $? "the report after the run is the arms' paired comparison"
kbt compare hb/cloud hb/rt
ok $rc "the two kernels compare"
rt=$(basename "$vm_rt" | sed 's/^vmlinuz-//')
cloud=$(basename "$vm_cloud" | sed 's/^vmlinuz-//')
grep -q "^Kernel: *hb/cloud *$cloud$" "$tmp/out" && grep -q "^ *hb/rt *$rt$" "$tmp/out"
ok $? "the header names both kernels"
grep -q "^VM: *\(KVM\|TCG\), 2 vCPUs, 384 MiB$" "$tmp/out"
ok $? "the header says how the guests ran"
grep -q "^Amean *1 " "$tmp/out"
ok $? "the table has hackbench's row"
grep -q "paired t-test" "$tmp/out"
ok $? "compare of the arms uses the paired test"
[ $? -eq 0 ] || show
no_qemu
ok $? "no QEMU is left"

done_testing
