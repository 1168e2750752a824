#!/bin/sh
# t1504-vm-modules: kbench vm --modules DIR --modprobe NAMES packs the
# modules named, and what they depend on (from each module's .modinfo:
# Debian's package has no modules.dep), into the guest's initramfs; the
# guest loads them in that order before its first sample and the run's
# vm.modules fact lists them. Modules of another release are refused by
# the guest's kernel, and the boot fails saying so. Names not in the tree,
# built-in modules and half-given options are handled before any boot.
# Covers: kernel/kmod.c kernel/vm_image.c lib/cpio.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-vm.sh"

if ! vm_kernels; then
	skip "$vm_why"
	done_testing
	exit
fi
mods=$vm_cloud_modules
tree=$(dirname "$(dirname "$(dirname "$mods")")")	# what INSTALL_MOD_PATH names
ver=$(basename "$mods")
cat >"$tmp/one.conf" <<'CONF'
[hackbench]
workload = hackbench
groups = 1
loops = 10
iterations = 1
CONF
kbt() { timeout 300 "$KBENCH" --db "$db" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
show() { sed 's/^/#   /' "$tmp/out" "$tmp/err"; }

kbt vm -k "$vm_cloud" -c "$tmp/one.conf" --modules "$tree" --modprobe vxlan,dummy --dry-run
ok $rc "--dry-run with modules runs nothing"
is "--dry-run lists the modules in load order, dependencies first" \
	"$(grep '^MODULES:' "$tmp/out")" \
	"MODULES: from $mods, loaded in this order: udp_tunnel ip6_udp_tunnel vxlan dummy"

kbt vm -k "$vm_cloud" -c "$tmp/one.conf" --modules "$mods" --modprobe vxlan,dummy --no-report
ok $rc "the guest boots with the modules (the release directory given)"
[ $rc -eq 0 ] || show
is "the run's vm.modules fact lists what the guest loaded, in order" \
	"$(sql "SELECT value FROM run_meta WHERE key = 'vm.modules'")" \
	"udp_tunnel ip6_udp_tunnel vxlan dummy"
is "its sample is stored" "$(sql "SELECT count(*) FROM samples")" "1"
no_qemu
ok $? "no QEMU is left"

kbt vm -k "$vm_rt" -c "$tmp/one.conf" --modules "$mods" --modprobe dummy --no-report
ok $((rc != 1)) "modules of another release fail the boot"
grep -q "^kbench: the guest could not load its modules: dummy: " "$tmp/err" &&
	grep -q "^kbench: the modules are for $ver and the guest runs .*-rt-amd64$" "$tmp/err"
r=$?
ok $r "... saying which module and that the releases differ"
[ $r -eq 0 ] || show
is "nothing more is stored" "$(sql "SELECT count(*) FROM samples")" "1"
no_qemu
ok $? "no QEMU is left after the refused boot"

kbt vm -k "$vm_cloud" -c "$tmp/one.conf" --modules "$tree" --modprobe no_such_mod --dry-run
ok $((rc == 0)) "a module the tree lacks is refused"
grep -q "^kbench: --modules: no module 'no_such_mod' in '$mods' (4 modules there)$" \
	"$tmp/err"
ok $? "... naming it and the tree"
kbt vm -k "$vm_cloud" -c "$tmp/one.conf" --modules "$tree" --modprobe ipv6,dummy --dry-run
ok $rc "a built-in module is no error"
is "... and is listed as built in" "$(grep '^MODULES:' "$tmp/out")" \
	"MODULES: from $mods, loaded in this order: dummy; built in: ipv6"
kbt vm -k "$vm_cloud" -c "$tmp/one.conf" --modprobe dummy --dry-run
ok $((rc != 2)) "--modprobe without --modules is a usage error"
grep -q "^kbench: --modprobe needs --modules DIR" "$tmp/err"
ok $? "... saying what is missing"
kbt vm -k "$vm_cloud" -c "$tmp/one.conf" --modules "$tree" --dry-run
ok $((rc != 2)) "--modules without --modprobe is a usage error"
kbt vm -k "$vm_cloud" -c "$tmp/one.conf" --modules "$tmp" --modprobe dummy --dry-run
grep -q "^kbench: --modules: '$tmp' holds no kernel modules" "$tmp/err"
ok $? "a directory without modules is refused, saying what was expected"


# A tree with modules.dep (as depmod writes it on install): the order
# comes from it, and compressed modules are fine.
m=$tmp/inst/lib/modules/9.9.9-test
mkdir -p "$m/kernel/a" "$m/kernel/b"
for f in kernel/a/top.ko.xz kernel/b/mid-dle.ko.zst kernel/a/base.ko; do : >"$m/$f"; done
cat >"$m/modules.dep" <<'DEP'
kernel/a/top.ko.xz: kernel/b/mid-dle.ko.zst kernel/a/base.ko
kernel/b/mid-dle.ko.zst: kernel/a/base.ko
kernel/a/base.ko:
DEP
kbt vm -k "$vm_cloud" -c "$tmp/one.conf" --modules "$tmp/inst" --modprobe top --dry-run
is "modules.dep gives the order; '-' and '_' name the same module" \
	"$(grep '^MODULES:' "$tmp/out")" \
	"MODULES: from $m, loaded in this order: base mid_dle top"
printf 'kernel/a/base.ko: kernel/a/top.ko.xz\n' >>"$m/modules.dep"
sed -i '/^kernel\/a\/base.ko:$/d' "$m/modules.dep"
kbt vm -k "$vm_cloud" -c "$tmp/one.conf" --modules "$m" --modprobe top --dry-run
grep -q "^kbench: --modules: the modules depend on each other in a loop: top -> mid_dle -> base -> top$" "$tmp/err"
ok $? "a dependency loop is refused, showing it"
rm "$m/modules.dep"
kbt vm -k "$vm_cloud" -c "$tmp/one.conf" --modules "$m" --modprobe top --dry-run
grep -q "^kbench: --modules: module top is compressed (kernel/a/top.ko.xz) and '$m' has no modules.dep" "$tmp/err"
ok $? "a compressed module without modules.dep is refused, saying what to do"

done_testing
