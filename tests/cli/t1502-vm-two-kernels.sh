#!/bin/sh
# t1502-vm-two-kernels: Debian's PREEMPT_RT kernel and its cloud sibling
# as two arms of kbench vm, booted in turn for two rounds of a tiny
# hackbench (ABBA): each arm is one run holding both rounds, the runs
# carry each guest's kernel (PREEMPT_RT in one uname -v), and comparing
# them gives a table whose header names both kernels and the VM.
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
is "the boots go ABBA" "$(sed -n 's/^kbench: notice: round \([12]\)\/2: .*vmlinuz-[0-9.-]*-\([a-z]*\)-amd64$/\1 \2/p' "$tmp/err" | tr '\n' ' ')" \
	"1 rt 1 cloud 2 cloud 2 rt "
is "each arm is one complete run holding both rounds" \
	"$(sql "SELECT r.name, r.status, s.round, count(*) FROM samples s JOIN runs r ON r.id = s.run_id GROUP BY r.id, s.round ORDER BY r.id, s.round")" \
	"rt|complete|1|3
rt|complete|2|3
cloud|complete|1|3
cloud|complete|2|3"
grep -q "2 arms, 2 rounds: kbench compare '#1' '#2'" "$tmp/err"
ok $? "the end says how to compare the arms"
sql "SELECT kernel_version FROM runs WHERE name = 'rt'" | grep -q PREEMPT_RT
ok $? "the -rt run's kernel says PREEMPT_RT"
sql "SELECT kernel_version FROM runs WHERE name = 'cloud'" | grep -q PREEMPT_RT
ok $((! $?)) "the cloud run's does not"
kbt compare cloud rt
ok $rc "the two kernels compare"
rt=$(basename "$vm_rt" | sed 's/^vmlinuz-//')
cloud=$(basename "$vm_cloud" | sed 's/^vmlinuz-//')
grep -q "^Kernel: *cloud *$cloud$" "$tmp/out" && grep -q "^ *rt *$rt$" "$tmp/out"
ok $? "the header names both kernels"
grep -q "^VM: *\(KVM\|TCG\), 2 vCPUs, 384 MiB$" "$tmp/out"
ok $? "the header says how the guests ran"
grep -q "^Amean *1 " "$tmp/out"
ok $? "the table has hackbench's row"
[ $? -eq 0 ] || show
no_qemu
ok $? "no QEMU is left"

done_testing
