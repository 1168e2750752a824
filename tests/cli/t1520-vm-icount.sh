#!/bin/sh
# t1520-vm-icount: kbench vm --icount boots a guest under TCG whose clock
# counts the instructions it runs (QEMU's -icount, on the single-threaded
# TCG): the command line says so, the boot says so, the run stores the
# fact vm.icount and compare's VM line names it. It needs one vCPU and
# TCG, and says so otherwise. Costs one boot of the cloud kernel of
# lib-vm.sh under TCG, some 10 s.
# Covers: kernel/vm.c cli/cmd_vm.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-vm.sh"

printf '[hb]\nworkload = hackbench\ngroups = 1\nloops = 10\niterations = 2\n' > "$tmp/hb.conf"
# A made-up bzImage for --dry-run: the boot protocol's "HdrS" at 0x202.
head -c 514 /dev/zero >"$tmp/bzImage" &&
	printf 'HdrS' >>"$tmp/bzImage" && head -c 512 /dev/zero >>"$tmp/bzImage"
expect_err "--icount needs one vCPU" 2 "--icount runs the guest on one vCPU (QEMU's single-threaded TCG): add --vcpus 1" \
	kb vm -k /nonexistent -c "$tmp/hb.conf" --icount --dry-run
expect_err "--icount is TCG's" 2 "--icount counts the instructions of a guest under TCG, and --accel kvm asks for KVM" \
	kb vm -k /nonexistent -c "$tmp/hb.conf" --icount --vcpus 1 --accel kvm --dry-run
check "--dry-run shows the single-threaded TCG counting instructions" \
	kb vm -k "$tmp/bzImage" -c "$tmp/hb.conf" --icount --vcpus 1 --accel tcg --dry-run
grep -q -- "^    -accel tcg,thread=single \\\\$" "$tmp/check.out" &&
	grep -q -- "^    -icount shift=3,sleep=off \\\\$" "$tmp/check.out"
ok $? "... -accel tcg,thread=single -icount shift=3,sleep=off"

if ! vm_kernels; then
	skip "$vm_why"
	done_testing
	exit
fi
kb vm -k "$vm_cloud" -c "$tmp/hb.conf" --icount --vcpus 1 --accel tcg -n ic \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "a guest counting instructions runs the config"
[ $rc -eq 0 ] || sed 's/^/#   /' "$tmp/err"
grep -q "^kbench: notice: booted .* under TCG counting instructions (1 vCPUs, 512 MiB) in" "$tmp/err"
ok $? "the boot says so"
is "the run stores it" "$(sql "SELECT key || '=' || value FROM run_meta WHERE key IN
	('vm.accel', 'vm.icount', 'vm.vcpus', 'vm.vcpu_pin') ORDER BY key")" \
	"vm.accel=tcg
vm.icount=3
vm.vcpu_pin=spread: vCPU0 P#0
vm.vcpus=1"
is "two samples stored" "$(sql "SELECT count(*) FROM samples")" 2
grep -q "^VM:       TCG counting instructions (icount shift 3), 1 vCPUs, 512 MiB\$" "$tmp/out"
ok $? "compare's VM line names it"
no_qemu
ok $? "no QEMU is left"

done_testing
