#!/bin/sh
# t1502-vm-two-kernels: Debian's PREEMPT_RT kernel and its cloud sibling,
# each booted under QEMU for a tiny hackbench run: the runs carry each
# guest's kernel (PREEMPT_RT in one uname -v), and comparing them gives a
# table whose header names both kernels.
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

kbt vm -k "$vm_rt" -c "$tmp/hb.conf" -n rt --vcpus 2 --memory 384 --no-report
ok $rc "the -rt kernel's guest runs hackbench"
[ $rc -eq 0 ] || show
kbt vm -k "$vm_cloud" -c "$tmp/hb.conf" -n cloud --vcpus 2 --memory 384 --no-report
ok $rc "the cloud kernel's guest runs hackbench"
[ $rc -eq 0 ] || show
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
