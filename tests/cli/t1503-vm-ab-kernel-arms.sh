#!/bin/sh
# t1503-vm-ab-kernel-arms: kernels as the arms of kbench ab. An [arm:NAME]
# with kernel = IMAGE boots that kernel for each of its rounds; the -rt
# and cloud kernels of lib-vm.sh as the arms of a config run two rounds
# of a tiny hackbench, one run per arm tied to the experiment, and the
# report after it is the paired comparison. A kernel arm refuses this
# machine's knobs, environment and command prefix, which its guest does
# not see, and a guest's key without a kernel.
# Covers: cli/cmd_ab.c experiment/experiment_design.c kernel/vm.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-vm.sh"

hb='[hackbench]
workload = hackbench
groups = 1
loops = 10
iterations = 2'

printf '[arm:a]\n\n[arm:b]\nkernel = /nonexistent/vmlinuz\nsysctl.vm.swappiness = 10\n\n%s\n' \
	"$hb" >"$tmp/knob.conf"
expect_err "a kernel arm refuses a host knob" 2 \
	"sysctl.vm.swappiness in [arm:b]: a kernel arm runs in a guest booted for each round" \
	kb ab -c "$tmp/knob.conf" --dry-run
printf '[arm:a]\n\n[arm:b]\nenv.X = 1\nkernel = /nonexistent/vmlinuz\n\n%s\n' \
	"$hb" >"$tmp/env.conf"
expect_err "a kernel arm refuses an environment variable" 2 \
	"which this machine's environment does not reach" kb ab -c "$tmp/env.conf" --dry-run
printf '[arm:a]\nappend = quiet\n\n[arm:b]\n\n%s\n' "$hb" >"$tmp/append.conf"
expect_err "a guest's key needs a kernel" 2 \
	"append in [arm:a] sets the guest of a kernel arm, which needs kernel = IMAGE" \
	kb ab -c "$tmp/append.conf" --dry-run
printf '[arm:a]\nkernel = /k\nmemory = 12\n\n[arm:b]\n\n%s\n' "$hb" >"$tmp/mem.conf"
expect_err "memory is checked" 2 "memory = '12' in [arm:a]: expected MiB" \
	kb ab -c "$tmp/mem.conf" --dry-run

if ! vm_kernels; then
	skip "$vm_why"
	done_testing
	exit
fi
cat >"$tmp/kernels.conf" <<EOF
[experiment]
rounds = 2

[arm:rt]
kernel = $vm_rt

[arm:cloud]
kernel = $vm_cloud
append = mitigations=off
memory = 384

$hb
EOF

kb ab -c "$tmp/kernels.conf" --dry-run >"$tmp/dry" 2>&1 &&
	grep -q "^    kernel = $vm_rt\$" "$tmp/dry"
ok $? "--dry-run names each arm's kernel"
timeout 300 "$KBENCH" --db "$db" ab -c "$tmp/kernels.conf" -n k >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "the two kernels run as arms for two rounds"
[ $rc -eq 0 ] || sed 's/^/#   /' "$tmp/out" "$tmp/err"
is "the boots go ABBA, the cloud arm with its command line" \
	"$(sed -n 's/^kbench: notice: round \([12]\)\/2 \([a-z]*\): booting .*-amd64\( mitigations=off\)\{0,1\}$/\1\2\3/p' "$tmp/err" | tr '\n' ' ')" \
	"1rt 1cloud mitigations=off 2cloud mitigations=off 2rt "
grep -q "^kbench: round 2/2 cloud (boot [0-9.]* s) \[hackbench\]" "$tmp/err"
ok $? "the progress line shows the boot time"
is "one complete run per arm, two samples in each round" \
	"$(sql "SELECT r.name, r.status, s.round, count(*) FROM samples s JOIN runs r ON r.id = s.run_id GROUP BY r.id, s.round ORDER BY r.id, s.round")" \
	"k/rt|complete|1|2
k/rt|complete|2|2
k/cloud|complete|1|2
k/cloud|complete|2|2"
is "the experiment is stored complete" \
	"$(sql "SELECT name || ' ' || status || ' ' || rounds || ' ' || arms FROM experiments")" \
	"k complete 2 rt cloud"
is "the runs carry the experiment's facts" \
	"$(sql "SELECT r.name, group_concat(m.key || '=' || m.value, ' ') FROM runs r
		JOIN run_meta m ON m.run_id = r.id WHERE m.key IN ('experiment', 'arm',
		'arm append', 'arm memory') GROUP BY r.id ORDER BY r.id")" \
	"k/rt|experiment=1 arm=rt
k/cloud|experiment=1 arm=cloud arm append=mitigations=off arm memory=384"
sql "SELECT kernel_cmdline FROM runs WHERE name = 'k/cloud'" | grep -q 'mitigations=off'
ok $? "the cloud guest booted with its command line"
grep -q "^Significance: a paired t-test on 2 rounds' mean differences" "$tmp/out"
ok $? "the report after the experiment is the paired comparison"
kb compare k/rt k/cloud >"$tmp/cmp" 2>&1 && grep -q "paired t-test" "$tmp/cmp"
ok $? "compare of the arms names the paired test"
no_qemu
ok $? "no QEMU is left"

done_testing
