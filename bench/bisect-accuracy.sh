#!/bin/sh
# bisect-accuracy: how often kbench bisect names the commit that planted a
# slowdown, and what a step costs, on this machine. Each trial builds a
# tree of COMMITS commits after a good end whose "kernel" is Debian's
# cloud kernel; one commit, drawn at random, switches it to Debian's
# PREEMPT_RT kernel (the two kernels the VM tests boot, fetched once into
# ~/.cache/kbench/test-kernels by tests/cli/lib-vm.sh). The slowdown it
# plants depends on the row measured:
#   25  a hackbench of threads over pipes with 128 KB messages, where the
#       -rt kernel runs about 25% more instructions than the cloud one
#   10  netperf TCP_RR, about 10% fewer transactions a second
# A trial runs kbench bisect over the tree (ROUNDS rounds a step, looks
# every ROUNDS rounds up to MAX_ROUNDS) and counts it right (the planted
# commit named), wrong (another commit named) or cannot tell (nothing to
# bisect, or only skipped commits left): a bisection that cannot resolve
# a change must say so, never name a wrong commit. Prints a line naming
# the design, then one line per size:
#   SIZE  ROW  measured PCT%  trials N  right R  wrong W  cannot-tell C  s/step S
# where PCT is the change the bisections' step 0 measured between the
# ends (their mean) and S the mean wall time of a step that ran an
# experiment. It exits 1 when kbench fails, or when it cannot read its own
# figures back from the stores; 2 on bad variables.
# Goals (docs/bisect.md): right >= 9 of 10 at 25%; at any size, wrong 0.
#
# Usage: bench/bisect-accuracy.sh [KBENCH]   (default ./kbench)
# Variables: TRIALS (per size, default 1: one bisection each, a few
# minutes; 10 for the goal's figures), COMMITS (after the good end,
# default 4), SIZES (default "25 10"), ROUNDS (default 3), MAX_ROUNDS
# (default 6), CLOCK (icount: the guests' clocks count instructions, the
# default; host: they follow the host's, as without --icount), SEED
# (default 1: the planted commits drawn). Needs QEMU, git and the Debian
# kernels (make check TESTS=tests/cli/t1500-vm-run.sh fetches them).
. "$(dirname "$0")/usage.sh"
set -u
kbench=${1:-${KBENCH:-./kbench}}
TRIALS=${TRIALS:-1}
COMMITS=${COMMITS:-4}
SIZES=${SIZES:-25 10}
ROUNDS=${ROUNDS:-3}
MAX_ROUNDS=${MAX_ROUNDS:-6}
CLOCK=${CLOCK:-icount}
SEED=${SEED:-1}
for v in TRIALS COMMITS ROUNDS MAX_ROUNDS SEED; do
	eval "x=\$$v"
	case $x in
	'' | *[!0-9]* | 0) echo "bisect-accuracy: $v must be a positive integer ('$x')" >&2; exit 2 ;;
	esac
done
[ "$ROUNDS" -ge 3 ] && [ "$MAX_ROUNDS" -ge "$ROUNDS" ] ||
	{ echo "bisect-accuracy: ROUNDS must be 3 or more, MAX_ROUNDS at least ROUNDS" >&2; exit 2; }
for s in $SIZES; do
	case $s in
	25 | 10) ;;
	*) echo "bisect-accuracy: SIZES are 25 and 10 ('$s')" >&2; exit 2 ;;
	esac
done
case $CLOCK in
icount) clock_opts="--icount --vcpus 1" ;;
host) clock_opts="--vcpus 1" ;;
*) echo "bisect-accuracy: CLOCK is icount or host ('$CLOCK')" >&2; exit 2 ;;
esac
case $kbench in
/*) ;;
*) kbench=$PWD/$kbench ;;
esac
[ -x "$kbench" ] || { echo "bisect-accuracy: no kbench at $kbench" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bisect-accuracy.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
# The kernels the trials build go to a cache of their own.
export KBENCH_KERNEL_CACHE="$work/builds"
# lib-vm.sh finds QEMU and the kernels (its vm_kernels).
tmp=$work KBENCH=$kbench
. "$(dirname "$0")/../tests/cli/lib-vm.sh"
. "$(dirname "$0")/../tests/cli/lib-kbuild.sh"
if ! vm_kernels; then
	echo "bisect-accuracy: $vm_why" >&2
	exit 1
fi
sql() { "$kbench" --db "$1" query --format csv "$2" | sed '1,2d'; }

# The configs of the sizes.
cat > "$work/25.conf" <<'EOF'
[tp128k]
workload = hackbench
mode = thread
transport = pipes
groups = 1
loops = 4
datasize = 128000
iterations = 2
EOF
cat > "$work/10.conf" <<'EOF'
[tcp-rr]
workload = netperf
test = TCP_RR
duration = 0.5
iterations = 2
EOF
row_of() { case $1 in 25) echo tp128k/1 ;; 10) echo tcp-rr/1 ;; esac; }

# tree DIR K: COMMITS commits after the good end, the K-th (from 1)
# switching the kernel to the -rt one (lib-kbuild.sh's stand-in for the
# kernel's build interface, built as kbench build builds a tree).
tree() {
	kbuild_fake_tree "$1" $((COMMITS + 1)) $(($2 + 1))
}

# A deterministic draw of the planted commit, 1..COMMITS, into $k (in
# this shell: the state goes on from one draw to the next).
state=$SEED
draw() {
	state=$(( (state * 1103515245 + 12345) % 2147483648 ))
	k=$(( state / 65536 % COMMITS + 1 ))
}

echo "# bisect-accuracy: $COMMITS commits a tree, $ROUNDS to $MAX_ROUNDS rounds a step," \
	"guests' clocks: $CLOCK, $TRIALS trial(s) a size, seed $SEED"
status=0
for size in $SIZES; do
	right=0 wrong=0 cannot=0 pcts= step_s= steps=0
	t=0
	while [ "$t" -lt "$TRIALS" ]; do
		t=$((t + 1))
		draw
		dir=$work/tree-$size-$t
		db=$work/$size-$t.db
		tree "$dir" "$k" || { echo "bisect-accuracy: cannot make the tree" >&2; exit 1; }
		planted=$(git -C "$dir" rev-parse "HEAD~$((COMMITS - k))")
		# shellcheck disable=SC2086
		"$kbench" --db "$db" bisect --tree "$dir" --good HEAD~"$COMMITS" --bad HEAD \
			-c "$work/$size.conf" --row "$(row_of "$size")" --rounds "$ROUNDS" \
			--max-rounds "$MAX_ROUNDS" --append quiet --boot-timeout 600 $clock_opts \
			--no-report \
			> "$work/out" 2> "$work/err"
		rc=$?
		if [ "$rc" -gt 1 ]; then
			sed 's/^/  /' "$work/err" >&2
			echo "bisect-accuracy: kbench bisect exited $rc" >&2
			exit 1
		fi
		result=$(sql "$db" "SELECT result || ' ' || coalesce(first_bad, '-') || ' ' ||
			coalesce(regression_pct, 'nan') AS r FROM bisects WHERE status = 'complete'")
		set -- $result
		if [ $# -ne 3 ]; then
			echo "bisect-accuracy: no finished bisection in $db ('$result')" >&2
			exit 1
		fi
		case $1 in
		found)
			if [ "$2" = "$planted" ]; then
				right=$((right + 1)) verdict=right
			else
				wrong=$((wrong + 1)) verdict=wrong
			fi ;;
		skipped | no-regression) cannot=$((cannot + 1)) verdict="cannot tell" ;;
		*) echo "bisect-accuracy: unknown result '$1'" >&2; exit 1 ;;
		esac
		[ "$3" != nan ] && pcts="$pcts $3"
		times=$(sql "$db" "SELECT round((julianday(finished_at) - julianday(started_at)) * 86400)
			AS s FROM bisect_steps WHERE experiment_id IS NOT NULL AND finished_at IS NOT NULL")
		for s in $times; do
			step_s="$step_s $s"
			steps=$((steps + 1))
		done
		echo "#   $size% trial $t: planted commit $k, result $1 $(echo "$2" | cut -c1-12)" \
			"($verdict), $(echo "$times" | wc -w) steps with an experiment"
	done
	measured=$(echo "$pcts" | awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i;
		if (NF) printf "%+.1f", s / NF; else printf "nan" }')
	per_step=$(echo "$step_s" | awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i;
		if (NF) printf "%.0f", s / NF; else printf "nan" }')
	case $measured$per_step in
	*nan*) [ "$cannot" -eq "$TRIALS" ] || {
		echo "bisect-accuracy: no figure for size $size (measured '$measured', s/step '$per_step')" >&2
		status=1
	} ;;
	esac
	printf '%-4s %-10s measured %7s%%  trials %d  right %d  wrong %d  cannot-tell %d  s/step %s\n' \
		"$size" "$(row_of "$size")" "$measured" "$TRIALS" "$right" "$wrong" "$cannot" "$per_step"
done
exit $status
