# lib-plant.sh: planted kernel trees for bench/bisect-accuracy.sh's
# TREE=linux. Source it after tests/cli/lib-kbuild.sh has run
# kbuild_linux_tree (it writes into $kbuild_linux, the git tree of
# Debian's linux-source-6.1 the build tests use, so that the bench's
# kernels are built in the object directory those tests left: a commit
# near one built before compiles its own changes only).
#
#   plant_tree N K   makes N commits after v6.1-debian, the K-th (from 1)
#                    the planted one, and sets $plant_tip and $plant_commit
#                    (their IDs); K 0 plants nothing. The work tree, index
#                    and HEAD of $kbuild_linux are not touched: the
#                    commits are made from a private index and named by
#                    refs/kbench-plant/N-K only.
#
# The planted commit adds a tunable cost to a hot path of a hackbench of
# threads over pipes: a busy wait of pipe.plant_ns nanoseconds (a
# parameter of the kernel's command line; 0, its default, costs a load
# and a branch) at the start of every pipe_write() in fs/pipe.c. A kernel
# without the commit ignores the parameter (the kernel drops an unknown
# parameter whose name has a dot in it), so every arm of a bisection can
# boot with the same command line, and one tree serves every size. The
# other commits are innocent: each adds a comment to a file of its own
# that the guest's config compiles, so that each is built (compiled and
# linked) as a real commit is, and changes nothing the guest measures.
# Authors and dates are fixed: the commits before the planted one have
# the same IDs in every tree, and a tree made again is the same tree, so
# the kernel cache's entries serve every trial and every run of the
# bench.

plant_files="kernel/exit.c mm/mmap.c fs/open.c kernel/signal.c fs/read_write.c
mm/memory.c kernel/sys.c fs/namei.c lib/string.c kernel/sched/core.c
fs/exec.c mm/filemap.c kernel/time/timer.c fs/dcache.c mm/slub.c"

plant_git() {
	GIT_AUTHOR_DATE="2024-01-02T00:00:00Z" GIT_COMMITTER_DATE="2024-01-02T00:00:00Z" \
	GIT_AUTHOR_NAME="kbench bench" GIT_AUTHOR_EMAIL="bench@kbench.invalid" \
	GIT_COMMITTER_NAME="kbench bench" GIT_COMMITTER_EMAIL="bench@kbench.invalid" \
		git -C "$kbuild_linux" -c gc.auto=0 "$@"
}

# plant_pipe: fs/pipe.c on standard input, the planted one on output.
plant_pipe() {
	awk '
	/^#include <linux\/sysctl.h>$/ {
		print; print "#include <linux/delay.h>"; next
	}
	/^static ssize_t$/ { held = $0; next }
	held != "" && /^pipe_write\(struct kiocb \*iocb, struct iov_iter \*from\)$/ {
		print "/*"
		print " * A cost planted by kbench'"'"'s bench/bisect-accuracy.sh: plant_ns"
		print " * nanoseconds of busy wait at the start of every pipe write."
		print " */"
		print "static unsigned int plant_ns;"
		print "module_param(plant_ns, uint, 0644);"
		print ""
		print held; held = ""; print; in_write = 1; next
	}
	held != "" { print held; held = "" }
	in_write && /^\tbool wake_next_writer = false;$/ {
		print; print ""; print "\tif (READ_ONCE(plant_ns))"
		print "\t\tndelay(READ_ONCE(plant_ns));"; in_write = 0; planted = 1; next
	}
	{ print }
	END { if (!planted) exit 1 }'
}

# plant_file I: the file the I-th innocent commit changes.
plant_file() {
	echo $plant_files | awk -v i="$1" '{ print $(((i - 1) % NF) + 1) }'
}

plant_tree() {
	_n=$1 _k=$2
	_idx=$(mktemp "${TMPDIR:-/tmp}/plant-index.XXXXXX") || return 1
	_parent=$(plant_git rev-parse --verify -q 'v6.1-debian^{commit}') || {
		echo "lib-plant: no v6.1-debian in $kbuild_linux" >&2
		rm -f "$_idx"
		return 1
	}
	GIT_INDEX_FILE=$_idx plant_git read-tree "$_parent" || { rm -f "$_idx"; return 1; }
	plant_commit=
	_i=0
	while [ "$_i" -lt "$_n" ]; do
		_i=$((_i + 1))
		if [ "$_i" -eq "$_k" ]; then
			_f=fs/pipe.c
			_msg="pipe: a busy wait of pipe.plant_ns ns a write (planted)"
			_blob=$(plant_git cat-file blob "$_parent:$_f" | plant_pipe |
				plant_git hash-object -w --stdin) || { rm -f "$_idx"; return 1; }
		else
			_f=$(plant_file "$_i")
			_msg="$(dirname "$_f" | sed 's|.*/||'): a comment ($_i)"
			_blob=$({ plant_git cat-file blob "$_parent:$_f" &&
				echo "/* kbench's planted tree: innocent commit $_i */"; } |
				plant_git hash-object -w --stdin) || { rm -f "$_idx"; return 1; }
		fi
		GIT_INDEX_FILE=$_idx plant_git update-index --cacheinfo "100644,$_blob,$_f" &&
		_tree=$(GIT_INDEX_FILE=$_idx plant_git write-tree) &&
		_parent=$(echo "$_msg" | plant_git commit-tree "$_tree" -p "$_parent") ||
			{ rm -f "$_idx"; return 1; }
		[ "$_i" -eq "$_k" ] && plant_commit=$_parent
	done
	rm -f "$_idx"
	plant_tip=$_parent
	# Two benches making the same tree at once write the same ref: the
	# one that finds it locked is done when the other wrote it.
	plant_git update-ref "refs/kbench-plant/$_n-$_k" "$plant_tip" 2>/dev/null || {
		sleep 1
		[ "$(plant_git rev-parse -q --verify "refs/kbench-plant/$_n-$_k")" = "$plant_tip" ]
	}
}
