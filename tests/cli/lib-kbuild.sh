# lib-kbuild.sh: a small git tree with the kernel's build interface, for
# the tests of kbench build and of what builds kernels from git refs.
# Source it after lib.sh.
#
#   kbuild_fake_tree DIR N K [IMAGE_A IMAGE_B]
#       makes DIR a git repository of N commits (tag v1.0 on the first;
#       subjects "fake: commit I"). Each commit's "build" copies IMAGE_A
#       (default $vm_cloud, from lib-vm.sh's vm_kernels) to
#       O/arch/x86/boot/bzImage; from the commit at index K (2 to N; 0:
#       none) on, it copies IMAGE_B (default $vm_rt): that commit's
#       subject is "fake: switch to the second kernel". Commit IDs in
#       order, oldest first, are in $kbuild_commits.
#   kbuild_commit DIR SUBJECT [FILE CONTENT]...
#       one more commit on DIR's HEAD writing each FILE (CONTENT "-":
#       removing it), its ID in $kbuild_commit_id. The tree reads these
#       files of a commit:
#         broken            bzImage fails: "init/main.c:1:1: error: TEXT"
#         slow              bzImage sleeps this many seconds first
#         dropped-options   lines "CONFIG_X=" olddefconfig drops (as the
#                           real one drops an option whose dependency is
#                           off)
#
# The tree implements what kbench build runs: make -C TREE O=DIR ARCH=...
# tinyconfig | defconfig (a .config of two lines), olddefconfig, bzImage
# (counting its builds in O/builds, so that a test sees the object
# directory kept from one commit to the next, and printing "  CC" lines
# as kbuild does), and scripts/kconfig/merge_config.sh -m -O DIR BASE
# FRAGMENT... (a later value wins).

kbuild_git() {
	git -c user.name="Kbench Test" -c user.email=test@kbench.invalid \
	    -c init.defaultBranch=master -c advice.detachedHead=false "$@"
}

kbuild_commit() {
	_dir=$1 _subject=$2
	shift 2
	while [ $# -ge 2 ]; do
		if [ "$2" = - ]; then
			rm -f "$_dir/$1"
		else
			printf '%s\n' "$2" >"$_dir/$1"
		fi
		shift 2
	done
	kbuild_git -C "$_dir" add -A &&
	kbuild_git -C "$_dir" commit -q -m "$_subject" &&
	kbuild_commit_id=$(git -C "$_dir" rev-parse HEAD)
}

kbuild_fake_tree() {
	_dir=$1 _n=$2 _k=$3 _a=${4:-$vm_cloud} _b=${5:-$vm_rt}
	mkdir -p "$_dir/scripts/kconfig" || return 1
	kbuild_git init -q "$_dir" || return 1
	printf 'first := %s\nsecond := %s\n' "$_a" "$_b" >"$_dir/kernels.mk"
	echo first >"$_dir/image"
	cat >"$_dir/Makefile" <<'MAKEFILE'
# A stand-in for the kernel's build interface (tests/cli/lib-kbuild.sh).
O ?= .
include kernels.mk
IMAGE := $($(shell cat image))

tinyconfig defconfig:
	@mkdir -p $(O)
	@printf 'CONFIG_64BIT=y\nCONFIG_FAKE_BASE_%s=y\n' $@ >$(O)/.config

olddefconfig:
	@test -f $(O)/.config || { echo "no .config in $(O)" >&2; exit 2; }
	@if [ -s dropped-options ]; then \
		grep -v -F -f dropped-options $(O)/.config >$(O)/.config.new; \
		mv $(O)/.config.new $(O)/.config; \
	fi
	@echo "# configuration written to .config"

bzImage:
	@test -f $(O)/.config || { echo "no .config in $(O)" >&2; exit 2; }
	@echo "  CC      init/main.o"
	@if [ -f slow ]; then sleep $$(cat slow); fi
	@if [ -f broken ]; then echo "init/main.c:1:1: error: $$(cat broken)" >&2; exit 2; fi
	@mkdir -p $(O)/arch/x86/boot
	@echo $$(( $$(cat $(O)/builds 2>/dev/null || echo 0) + 1 )) >$(O)/builds
	@cp $(IMAGE) $(O)/arch/x86/boot/bzImage
	@echo "  LD      arch/x86/boot/bzImage"
	@echo "Kernel: arch/x86/boot/bzImage is ready"
MAKEFILE
	cat >"$_dir/scripts/kconfig/merge_config.sh" <<'MERGE'
#!/bin/sh
# A stand-in for the kernel's merge_config.sh: -m -O DIR BASE FRAGMENT...
[ "$1" = -m ] && [ "$2" = -O ] || { echo "usage: $0 -m -O DIR BASE FRAGMENT..." >&2; exit 1; }
out=$3 base=$4
shift 4
cp "$base" "$out/.config.merge" || exit 1
for f in "$@"; do
	[ -r "$f" ] || { echo "The merge file '$f' does not exist.  Exit." >&2; exit 1; }
	sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p; s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p' "$f" |
	while read -r sym; do
		grep -v -e "^$sym=" -e "^# $sym is not set\$" "$out/.config.merge" >"$out/.config.tmp"
		mv "$out/.config.tmp" "$out/.config.merge"
	done
	grep -e '^CONFIG_' -e '^# CONFIG_.* is not set$' "$f" >>"$out/.config.merge"
done
mv "$out/.config.merge" "$out/.config"
echo "#"
echo "# merged configuration written to $out/.config (needs make)"
MERGE
	chmod +x "$_dir/scripts/kconfig/merge_config.sh"
	kbuild_git -C "$_dir" add -A &&
	kbuild_git -C "$_dir" commit -q -m "fake: commit 1" &&
	kbuild_git -C "$_dir" tag v1.0 || return 1
	kbuild_commits=$(git -C "$_dir" rev-parse HEAD)
	_i=2
	while [ "$_i" -le "$_n" ]; do
		if [ "$_i" -eq "$_k" ]; then
			kbuild_commit "$_dir" "fake: switch to the second kernel" image second ||
				return 1
		else
			kbuild_commit "$_dir" "fake: commit $_i" history "commit $_i" || return 1
		fi
		kbuild_commits="$kbuild_commits $kbuild_commit_id"
		_i=$((_i + 1))
	done
	return 0
}

# A real kernel tree: Debian's linux-source-6.1, unpacked once into a
# directory that outlives build trees, as the test kernels are:
#
#   $KBENCH_TEST_LINUX, else $XDG_CACHE_HOME/kbench/test-linux
#   (~/.cache/kbench/test-linux): linux/ the tree, kernels/ the kernel
#   cache its tests build into (so that a kernel is built once, not at
#   every run of the suite)
#
#   kbuild_linux_tree    makes linux/ a git repository of two commits
#                        with fixed authors and dates (so that their IDs,
#                        and the cache's entries, are the same at every
#                        run): "linux-source-6.1 as Debian ships it",
#                        tagged v6.1-debian, and "fork: a comment"
#                        (kernel/fork.c, one line more; every file of the
#                        package is tracked: its .gitignore ignores the
#                        top level, Debian's tree not being the
#                        kernel's); sets
#                        $kbuild_linux (the tree) and $kbuild_kernels
#                        (the kernel cache); false, with the reason in
#                        $kbuild_why, when the source or a build tool is
#                        missing. The tree is made again when the
#                        package's tarball changes.
kbuild_linux_dir=${KBENCH_TEST_LINUX:-${XDG_CACHE_HOME:-$HOME/.cache}/kbench/test-linux}
kbuild_linux_tarball=/usr/src/linux-source-6.1.tar.xz

kbuild_linux_git() {
	GIT_AUTHOR_DATE="2024-01-01T00:00:00Z" GIT_COMMITTER_DATE="2024-01-01T00:00:00Z" \
		kbuild_git -c gc.auto=0 "$@"
}

kbuild_linux_tree() {
	kbuild_why=
	kbuild_linux=$kbuild_linux_dir/linux
	kbuild_kernels=$kbuild_linux_dir/kernels
	if [ ! -f "$kbuild_linux_tarball" ]; then
		kbuild_why="no $kbuild_linux_tarball (linux-source-6.1: .ci/install-deps --test)"
		return 1
	fi
	for _p in make gcc flex bison bc git xz; do
		if ! command -v "$_p" >/dev/null; then
			kbuild_why="$_p is not installed (.ci/install-deps --test)"
			return 1
		fi
	done
	if [ ! -f /usr/include/gelf.h ]; then
		kbuild_why="libelf-dev is not installed (.ci/install-deps --test)"
		return 1
	fi
	mkdir -p "$kbuild_linux_dir" || return 1
	_stamp=$(ls -l --time-style=+%s "$kbuild_linux_tarball" | awk '{ print $5, $6 }')
	exec 8>"$kbuild_linux_dir/.lock"
	flock 8
	if [ "$(cat "$kbuild_linux_dir/linux.stamp" 2>/dev/null)" != "$_stamp" ] ||
	   [ ! -d "$kbuild_linux/.git" ]; then
		rm -rf "$kbuild_linux" "$kbuild_linux_dir"/x.*
		_x=$(mktemp -d "$kbuild_linux_dir/x.XXXXXX")
		if ! tar -xJf "$kbuild_linux_tarball" -C "$_x" 2>"$_x/log" ||
		   ! mv "$_x/linux-source-6.1" "$_x/linux"; then
			kbuild_why="cannot unpack $kbuild_linux_tarball: $(tail -1 "$_x/log")"
			rm -rf "$_x"
			exec 8>&-
			return 1
		fi
		if ! { kbuild_linux_git init -q "$_x/linux" &&
		       kbuild_linux_git -C "$_x/linux" config gc.auto 0 &&
		       kbuild_linux_git -C "$_x/linux" add -f -A &&
		       kbuild_linux_git -C "$_x/linux" commit -q \
			-m "linux-source-6.1 as Debian ships it" &&
		       kbuild_linux_git -C "$_x/linux" tag v6.1-debian &&
		       echo "/* kbench's test commit: one line more in one file */" \
			>>"$_x/linux/kernel/fork.c" &&
		       kbuild_linux_git -C "$_x/linux" commit -q -a -m "fork: a comment"; } \
		     >"$_x/log" 2>&1; then
			kbuild_why="cannot make a git tree of it: $(tail -1 "$_x/log")"
			rm -rf "$_x"
			exec 8>&-
			return 1
		fi
		mv "$_x/linux" "$kbuild_linux" && rm -rf "$_x" &&
			echo "$_stamp" >"$kbuild_linux_dir/linux.stamp"
	fi
	exec 8>&-
	[ -d "$kbuild_linux/.git" ]
}
