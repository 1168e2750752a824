#!/bin/sh
# t1525-vm-kind: a run in a real guest and native runs of the same config
# in one store are never taken for one another. kbench vm runs a tiny
# config in the cloud kernel of lib-vm.sh (one boot, under KVM when it
# boots the guest, else TCG), then kbench run runs it natively twice: the
# first native report does not compare with the guest run (it says why),
# the second compares with the first; history keeps two series, labelled
# native and by the guest; compare of the native and the guest run warns
# naming both kinds; the guest run's header names the guest's CPU, CPUs
# and memory, and the host under Host:.
# Covers: kernel/vm.c compare/work.c machine/pin_task.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-vm.sh"

if ! vm_kernels; then
	skip "$vm_why"
	done_testing
	exit
fi
printf '[hb]\nworkload = hackbench\ngroups = 1\nloops = 10\niterations = 2\n' > "$tmp/hb.conf"
# A hung guest must fail the test, not hang it.
kbt() { timeout 300 "$KBENCH" --db "$db" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
show() { sed 's/^/#   /' "$tmp/out" "$tmp/err"; }

kbt vm -k "$vm_cloud" -c "$tmp/hb.conf" --vcpus 1 --memory 256 -n guest
ok $rc "the config runs in a guest of 1 vCPU and 256 MiB" || show
cp "$tmp/out" "$tmp/guest.out"
accel=$(sql "SELECT upper(value) FROM run_meta WHERE key = 'vm.accel'")
kind="guest ($accel, 1 vCPU, 256 MiB)"
host=$(sql "SELECT hostname FROM machines")
cpu=$(kb show --format json guest | python3 -c '
import json, sys
print(" ".join(json.load(sys.stdin)["host"]["cpu_model"].split()))')
gcpu=$(sql "SELECT value FROM run_meta WHERE key = 'guest.cpu_model'")
gmib=$(sql "SELECT CAST(round(value / 1048576.0) AS INTEGER) FROM run_meta WHERE key = 'guest.mem_bytes'")

is "the guest run's header: the guest's CPU, CPUs and memory, then the VM" \
	"$(sed -n '/^CPU:/,/^VM:/p' "$tmp/guest.out")" \
"CPU:      $gcpu
Machine:  1 CPU, 1 node, $gmib MiB
VM:       $accel, 1 vCPUs, 256 MiB"
sed -n '/^Host:/,/^CPU:/p' "$tmp/guest.out" | sed '$d' | tr -s ' \n' ' ' > "$tmp/host"
grep -qF "Host: $host: $cpu, " "$tmp/host"
ok $? "... and the host's name, CPU and machine under Host:" || sed 's/^/#   /' "$tmp/host"

kbt run -c "$tmp/hb.conf" -n native1
ok $rc "a native run of the same config" || show
grep -q "^Compared with" "$tmp/out"
ok $((!$?)) "... is not compared with the guest run"
tr '\n' ' ' <"$tmp/out" | tr -s ' ' |
	grep -qF "Not compared with guest (id 1, "
ok $? "... and says it passed it over" || show
tr '\n' ' ' <"$tmp/out" | tr -s ' ' |
	grep -qF "it measured on another kind, $kind, and this one native"
ok $? "... naming both kinds" || show
kbt run -c "$tmp/hb.conf" -n native2
tr '\n' ' ' <"$tmp/out" | grep -q "Compared with native1 (id 2, [^)]*), the previous complete run here"
ok $? "a second native run is compared with the first" || show

kbt history --config hb
ok $rc "history --config hb"
is "... two series: native, and the guest's" "$(grep "^hb 1 on" "$tmp/out")" \
"hb 1 on $host, config hb, $kind: Amean (s), lower is better
hb 1 on $host, config hb, native: Amean (s), lower is better"

kbt compare native1 guest
ok $rc "compare native1 guest"
is "... warns naming both kinds" \
	"$(sed -n '/^Warning:/,/^$/p' "$tmp/out" | sed '$d' | tr -s ' \n' ' ' | sed 's/ $//')" \
	"Warning: the runs measured on different kinds, native vs $kind: a change includes what the kind changed, and the noise of one is not the other's."
kbt compare --format json native1 guest
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["different_kinds"] and [r["kind"] for r in d["runs"]] == ["native", "guest"]
	 and d["runs"][1]["guest"]["vcpus"] == 1 else 1)' "$tmp/out"
ok $? "... JSON: different_kinds, and each run's kind"
no_qemu
ok $? "no QEMU is left"

done_testing
