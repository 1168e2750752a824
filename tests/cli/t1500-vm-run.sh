#!/bin/sh
# t1500-vm-run: kbench vm boots Debian's cloud kernel under QEMU (KVM when
# it boots the guest, else TCG) and runs hackbench, pft and TCP_RR inside
# it: every sample is stored, the run's kernel facts are the guest's, the
# vm.* and guest.* facts say how it ran, and no QEMU is left. Errors come
# before anything boots: no QEMU, no kernel, a pin policy the guest cannot
# honour, the external workload; --dry-run shows QEMU's command line.
# Covers: cli/cmd_vm.c kernel/vm.c kernel/vm_run.c kernel/vm_image.c sampler/guest.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-vm.sh"

if ! vm_kernels; then
	skip "$vm_why"
	done_testing
	exit
fi
vm_tiny_conf "$tmp/tiny.conf"
# A hung guest must fail the test, not hang it.
kbt() { timeout 300 "$KBENCH" --db "$db" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
show() { sed 's/^/#   /' "$tmp/out" "$tmp/err"; }

kbt vm -k "$vm_cloud" -c "$tmp/tiny.conf" --vcpus 2 --memory 384 --no-report
ok $rc "a tiny config runs in the cloud kernel's guest"
[ $rc -eq 0 ] || show
grep -q "booted .*-cloud-amd64 under \(KVM\|TCG\) (2 vCPUs, 384 MiB) in [0-9.]* s" "$tmp/err"
ok $? "the boot says which accelerator ran and how long it took"
ver=$(basename "$vm_cloud" | sed 's/^vmlinuz-//')
is "the run's kernel is the guest's" "$(sql "SELECT name, kernel_release FROM runs")" \
	"$ver|$ver"
sql "SELECT kernel_version FROM runs" | grep -q "Debian"
ok $? "the guest's uname -v is stored"
is "samples of all three sections are stored" \
	"$(sql "SELECT section, count(DISTINCT iteration) FROM samples GROUP BY section ORDER BY section")" \
	"hackbench|2
pft|2
tcp-rr|2"
is "no sample failed" "$(sql "SELECT count(*) FROM failures")" "0"
is "the VM's facts are stored" \
	"$(sql "SELECT key FROM run_meta WHERE section = '' AND key LIKE 'vm.%' ORDER BY key" | tr '\n' ' ')" \
	"vm.accel vm.append vm.boot_retries vm.boot_s vm.initrd vm.kernel_image vm.memory_mib vm.modules vm.qemu vm.vcpu_pin vm.vcpus "
is "the guest's own facts are stored" \
	"$(sql "SELECT key || '=' || value FROM run_meta WHERE key IN ('guest.cpus', 'guest.numa_nodes') ORDER BY key" | tr '\n' ' ')" \
	"guest.cpus=2 guest.numa_nodes=1 "
sql "SELECT value FROM run_meta WHERE key = 'vm.qemu'" | grep -q "^QEMU emulator version"
ok $? "QEMU's version is stored"
sql "SELECT value FROM run_meta WHERE key = 'vm.accel'" | grep -qx "kvm\|tcg"
ok $? "the accelerator is stored"
is "the pin plan is the guest's" \
	"$(sql "SELECT value FROM run_meta WHERE section = 'tcp-rr' AND key = 'pin_cpus'")" \
	"cross-core: server P#0 (L#0), client P#1 (L#1)"
no_qemu
ok $? "no QEMU is left"
is "the guest's scratch files are gone" "$(ls "$tmp" | grep -c kbench-vm)" "0"

# Refused before anything boots.
kbt vm -k "$vm_cloud" -c "$tmp/tiny.conf" --vcpus 1
ok $((rc != 2)) "a pin policy one vCPU cannot honour is refused"
grep -q "\[tcp-rr\] pin policy 'cross-core' needs" "$tmp/err"
ok $? "... naming the section and the policy"
printf "[ext]\nworkload = external\ncommand = echo 1\nmetric.x = (?<value>[0-9]+)\nbetter.x = higher\n" >"$tmp/ext.conf"
kbt vm -k "$vm_cloud" -c "$tmp/ext.conf"
grep -q "workload 'external' cannot run in the guest" "$tmp/err"
ok $? "the external workload is refused: its program is not in the guest"
KBENCH_QEMU=$tmp/no-such-qemu kbt vm -k "$vm_cloud" -c "$tmp/tiny.conf"
grep -q "install QEMU (Debian: apt-get install qemu-system-x86)" "$tmp/err"
ok $((rc != 1 || $?)) "a missing QEMU is a clear error"
kbt vm -k "$tmp/no-such-bzImage" -c "$tmp/tiny.conf"
grep -q "cannot use the kernel image '$tmp/no-such-bzImage'" "$tmp/err"
ok $((rc != 2 || $?)) "a missing kernel image is a usage error"
kbt vm -c "$tmp/tiny.conf"
grep -q "no kernel given" "$tmp/err"
ok $((rc != 2 || $?)) "no -k is a usage error"
kbt vm -k "$vm_cloud" -c "$tmp/tiny.conf" --accel xen
grep -q "accel must be auto, kvm or tcg" "$tmp/err"
ok $((rc != 2 || $?)) "an unknown accelerator is a usage error"

kbt vm -k "$vm_cloud" -c "$tmp/tiny.conf" --accel tcg --append "mitigations=off" --dry-run
ok $rc "--dry-run runs nothing"
grep -q "^    -append 'console=ttyS0 panic=-1 no_timer_check mitigations=off'$" "$tmp/out" &&
	grep -q "^    -nic none \\\\$" "$tmp/out" && grep -q "^    -accel tcg,thread=multi" "$tmp/out"
ok $? "--dry-run shows QEMU's command line: no NIC, the command line, TCG"
[ $? -eq 0 ] || show
is "--dry-run stores nothing" "$(sql "SELECT count(*) FROM runs")" "1"
no_qemu
ok $? "no QEMU is left after the errors"

done_testing
