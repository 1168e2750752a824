# lib-vm.sh: what the VM tests share. Source it after lib.sh. It finds
# QEMU and the two Debian kernels the tests boot (the cloud flavour and
# its PREEMPT_RT sibling, the versions the archive's metapackages name),
# downloading each package once with apt-get download and keeping only
# its /boot (vmlinuz and config) and a few of its modules (vxlan and what
# it depends on, dummy; with modules.builtin and modules.order, not
# modules.dep, which depmod writes on install) in a cache directory that
# outlives build trees:
#
#   $KBENCH_TEST_KERNELS, else $XDG_CACHE_HOME/kbench/test-kernels
#   (~/.cache/kbench/test-kernels)
#
#   vm_kernels           sets $vm_cloud and $vm_rt (vmlinuz paths) and
#                        $vm_cloud_modules (the cloud kernel's
#                        lib/modules/RELEASE, those few modules); false,
#                        with the reason in $vm_why, when they cannot be had
#   vm_tiny_conf FILE    writes a tiny config: hackbench, pft and TCP_RR
#   no_qemu              no QEMU of this test is left (waits up to 10 s)
#
# Each test keeps the guests' scratch files under its own $tmp (TMPDIR),
# so that no_qemu sees its own QEMU only.

vm_cache=${KBENCH_TEST_KERNELS:-${XDG_CACHE_HOME:-$HOME/.cache}/kbench/test-kernels}
export TMPDIR="$tmp"

# vm_fetch FLAVOUR: the vmlinuz path of linux-image-FLAVOUR-amd64's
# current version, fetched into the cache once.
vm_fetch() {
	pkg=$(apt-cache depends "linux-image-$1-amd64" 2>/dev/null |
	      sed -n "s/^ *Depends: \(linux-image-[0-9].*-$1-amd64\)\$/\1/p" | head -1)
	if [ -z "$pkg" ]; then
		vm_why="apt-cache names no linux-image-$1-amd64 package"
		return 1
	fi
	ver=${pkg#linux-image-}
	dir=$vm_cache/$pkg
	if [ ! -f "$dir/boot/vmlinuz-$ver" ] || [ ! -f "$dir/lib/modules/$ver/modules.order" ]; then
		mkdir -p "$vm_cache"
		dl=$(mktemp -d "$vm_cache/dl.XXXXXX")
		chmod 755 "$dl"	# apt's sandbox user writes there
		if ! (cd "$dl" && apt-get download -q "$pkg" >"$dl/log" 2>&1); then
			vm_why="apt-get download $pkg failed: $(tail -1 "$dl/log")"
			rm -rf "$dl"
			return 1
		fi
		mkdir -p "$dl/x"
		m=./lib/modules/$ver
		dpkg-deb --fsys-tarfile "$dl"/*.deb | tar -x -C "$dl/x" ./boot \
			"$m/modules.builtin" "$m/modules.order" "$m/kernel/drivers/net/dummy.ko" \
			"$m/kernel/drivers/net/vxlan/vxlan.ko" "$m/kernel/net/ipv4/udp_tunnel.ko" \
			"$m/kernel/net/ipv6/ip6_udp_tunnel.ko" 2>"$dl/log"
		if [ ! -f "$dl/x/boot/vmlinuz-$ver" ]; then
			vm_why="cannot extract $pkg: $(tail -1 "$dl/log")"
			rm -rf "$dl"
			return 1
		fi
		rm -rf "$dir"
		mv "$dl/x" "$dir"
		rm -rf "$dl"
	fi
	echo "$dir/boot/vmlinuz-$ver"
}

vm_kernels() {
	vm_why=
	if ! command -v qemu-system-x86_64 >/dev/null; then
		vm_why="qemu-system-x86_64 is not installed (.ci/install-deps --test)"
		return 1
	fi
	# The guest has no libraries: a sanitizer build's sample program,
	# linked dynamically, cannot be its init (kbench vm refuses it).
	if readelf -l "$(dirname "$KBENCH")/kbench-sample" 2>/dev/null |
	   grep -q "program interpreter"; then
		vm_why="kbench-sample is linked dynamically in this build"
		return 1
	fi
	# One test at a time fills the cache.
	mkdir -p "$vm_cache"
	exec 9>"$vm_cache/.lock"
	flock 9
	vm_cloud=$(vm_fetch cloud) && vm_rt=$(vm_fetch rt)
	rc=$?
	ver=$(basename "$vm_cloud" | sed 's/^vmlinuz-//')
	vm_cloud_modules=$(dirname "$(dirname "$vm_cloud")")/lib/modules/$ver
	exec 9>&-
	return $rc
}

vm_tiny_conf() {
	cat >"$1" <<'CONF'
[hackbench]
workload = hackbench
groups = 1
loops = 10
iterations = 2

[pft]
workload = pft
mapping_size = 8M
workers = 1
iterations = 2

[tcp-rr]
workload = netperf
test = TCP_RR
duration = 0.2
iterations = 2
pin = cross-core
CONF
}

no_qemu() {
	i=0
	while pgrep -f -- "$tmp/kbench-vm" >/dev/null; do
		[ "$i" -ge 100 ] && { pgrep -af -- "$tmp/kbench-vm"; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
}
