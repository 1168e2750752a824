#!/bin/sh
# bisect-accuracy: how often kbench bisect names the commit that planted a
# slowdown, and what a step and a bisection cost, on this machine. Each
# trial makes a tree of COMMITS commits after a good end, one of them,
# drawn at random, planting the slowdown, runs kbench bisect over it and
# counts it right (the planted commit named), wrong (another commit
# named) or cannot tell (nothing to bisect, or only skipped commits
# left): a bisection that cannot resolve a change must say so, never
# name a wrong commit. Two kinds of tree (TREE):
#
#   linux     (the default) a real kernel: Debian's linux-source-6.1 as
#             the build tests make it (tests/cli/lib-kbuild.sh), built
#             with tinyconfig and the guest fragment. The planted commit
#             adds a busy wait of pipe.plant_ns ns to every pipe_write()
#             (bench/lib-plant.sh), a cost set on the kernel's command line;
#             the others each add a comment to a file of their own, so
#             every commit compiles and links. The row is a hackbench of
#             threads over pipes; a size is a slowdown in percent, any
#             from 1 to 100: a calibration first boots the good end and
#             the planted kernel at 1000 ns, and each size gets the cost
#             that makes it by that line (the bisections' step 0 then
#             measures what it made). Kernels are built in the object
#             directory and cache of the build tests: a commit near one
#             built before takes about a minute, one built before none.
#   stand-in  lib-kbuild.sh's stand-in for the kernel's build interface:
#             its "kernel" is Debian's cloud kernel until the planted
#             commit switches it to the PREEMPT_RT one (the two kernels
#             the VM tests boot). Sizes 25 (a hackbench of threads over
#             pipes with 128 KB messages, where the -rt kernel runs about
#             25% more instructions) and 10 (netperf TCP_RR, about 10%
#             fewer transactions a second).
#
# Prints a line naming the design, one line per trial, then one line per
# size:
#   SIZE  ROW  measured PCT%  trials N  right R (LO-HI%)  wrong W
#     cannot-tell C  steps S  s/step T  s/bisection B
# where PCT is the change the bisections' step 0 measured between the
# ends (their mean), LO-HI the 95% Wilson interval of the share right,
# S the mean number of steps that ran an experiment a bisection (step 0
# included), T their mean wall time and B the mean wall time of a whole
# bisection (builds included). It exits 1 when kbench fails, or when it
# cannot read its own figures back from the stores; 2 on bad variables.
# Goals (docs/bisect.md): right >= 9 of 10 at 10% and 25%; at any size,
# wrong 0.
#
# Usage: bench/bisect-accuracy.sh [KBENCH]   (default ./kbench)
# Variables: TREE (linux or stand-in, default linux), TRIALS (per size,
# default 1; 10 for the goal's figures), COMMITS (after the good end,
# default 4), SIZES (default "5 10 25" for linux, "25 10" for the
# stand-in), ROUNDS (default 3), MAX_ROUNDS (default 6), CLOCK (icount:
# the guests' clocks count instructions, the default; host: they follow
# the host's, as without --icount), SEED (default 1: the planted commits
# drawn), LOOPS (linux: the hackbench's loops, default 50). Needs QEMU,
# git, the Debian kernels (make check TESTS=tests/cli/t1500-vm-run.sh
# fetches them) and, for linux, linux-source-6.1 and a kernel's build
# tools (.ci/install-deps --test; the first build of the tree takes
# about 11 minutes on two CPUs, make check TESTS=tests/cli/t1542-build-real-kernel.sh
# makes it).
. "$(dirname "$0")/usage.sh"
set -u
kbench=${1:-${KBENCH:-./kbench}}
TREE=${TREE:-linux}
TRIALS=${TRIALS:-1}
COMMITS=${COMMITS:-4}
ROUNDS=${ROUNDS:-3}
MAX_ROUNDS=${MAX_ROUNDS:-6}
CLOCK=${CLOCK:-icount}
SEED=${SEED:-1}
LOOPS=${LOOPS:-50}
case $TREE in
linux) SIZES=${SIZES:-5 10 25} ;;
stand-in) SIZES=${SIZES:-25 10} ;;
*) echo "bisect-accuracy: TREE is linux or stand-in ('$TREE')" >&2; exit 2 ;;
esac
for v in TRIALS COMMITS ROUNDS MAX_ROUNDS SEED LOOPS; do
	eval "x=\$$v"
	case $x in
	'' | *[!0-9]* | 0) echo "bisect-accuracy: $v must be a positive integer ('$x')" >&2; exit 2 ;;
	esac
done
[ "$ROUNDS" -ge 3 ] && [ "$MAX_ROUNDS" -ge "$ROUNDS" ] ||
	{ echo "bisect-accuracy: ROUNDS must be 3 or more, MAX_ROUNDS at least ROUNDS" >&2; exit 2; }
for s in $SIZES; do
	case $TREE:$s in
	stand-in:25 | stand-in:10) ;;
	stand-in:*) echo "bisect-accuracy: the stand-in's SIZES are 25 and 10 ('$s')" >&2; exit 2 ;;
	*:*[!0-9]* | *:0) echo "bisect-accuracy: SIZES are percents from 1 to 100 ('$s')" >&2; exit 2 ;;
	*) [ "$s" -le 100 ] ||
		{ echo "bisect-accuracy: SIZES are percents from 1 to 100 ('$s')" >&2; exit 2; } ;;
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
# lib-vm.sh finds QEMU and the kernels (its vm_kernels).
tmp=$work KBENCH=$kbench
. "$(dirname "$0")/../tests/cli/lib-vm.sh"
. "$(dirname "$0")/../tests/cli/lib-kbuild.sh"
. "$(dirname "$0")/lib-plant.sh"
if ! vm_kernels; then
	echo "bisect-accuracy: $vm_why" >&2
	exit 1
fi
wilson=$(cat "$(dirname "$0")/wilson.awk") || exit 1
sql() { "$kbench" --db "$1" query --format csv "$2" | sed '1,2d'; }
# mean: the mean of the numbers on standard input, or nan.
mean() {
	awk '{ for (i = 1; i <= NF; i++) { s += $i; n++ } }
		END { if (n) printf "%.0f", s / n; else printf "nan" }'
}

# The configs of the sizes (conf_of), the row each measures (row_of)
# and the kernel's command line (append_of; linux: the planted cost,
# set by calibrate).
if [ "$TREE" = linux ]; then
	if ! kbuild_linux_tree; then
		echo "bisect-accuracy: $kbuild_why" >&2
		exit 1
	fi
	# The kernels go to the build tests' cache, where the tree's
	# object directory is.
	export KBENCH_KERNEL_CACHE="$kbuild_kernels"
	printf '[tp]\nworkload = hackbench\nmode = thread\ntransport = pipes\ngroups = 1\nloops = %d\niterations = 3\n' \
		"$LOOPS" > "$work/tp.conf"
	conf_of() { echo "$work/tp.conf"; }
	row_of() { echo tp/1; }
else
	# The kernels the trials build go to a cache of their own.
	export KBENCH_KERNEL_CACHE="$work/builds"
	printf '[tp128k]\nworkload = hackbench\nmode = thread\ntransport = pipes\ngroups = 1\nloops = 4\ndatasize = 128000\niterations = 2\n' \
		> "$work/25.conf"
	printf '[tcp-rr]\nworkload = netperf\ntest = TCP_RR\nduration = 0.5\niterations = 2\n' \
		> "$work/10.conf"
	conf_of() { echo "$work/$1.conf"; }
	row_of() { case $1 in 25) echo tp128k/1 ;; 10) echo tcp-rr/1 ;; esac; }
	append_of() { echo quiet; }
fi

# tree K: the tree of a trial whose K-th commit (from 1) plants the
# slowdown: its path in $dir, its ends in $good and $bad, the planted
# commit in $planted.
tree() {
	if [ "$TREE" = linux ]; then
		plant_tree "$COMMITS" "$1" || return 1
		dir=$kbuild_linux good=v6.1-debian bad=$plant_tip planted=$plant_commit
	else
		dir=$work/tree-$size-$t
		kbuild_fake_tree "$dir" $((COMMITS + 1)) $(($1 + 1)) || return 1
		good=HEAD~$COMMITS bad=HEAD
		planted=$(git -C "$dir" rev-parse "HEAD~$((COMMITS - $1))")
	fi
}

# calibrate: the linux tree's cost for each size, by the line through
# the good end's mean and the planted kernel's at 1000 ns a write (a run
# of 6 samples each, with the trials' clocks); defines append_of.
calibrate() {
	plant_tree "$COMMITS" 1 || return 1
	sed 's/^iterations = 3$/iterations = 6/' "$work/tp.conf" > "$work/cal.conf"
	for c in a-good:v6.1-debian:0 b-planted:$plant_tip:1000; do
		name=${c%%:*} ns=${c##*:} ref=${c#*:}
		ref=${ref%:*}
		# shellcheck disable=SC2086
		"$kbench" --db "$work/cal.db" vm --tree "$kbuild_linux" --ref "$ref" \
			-c "$work/cal.conf" --append "quiet pipe.plant_ns=$ns" $clock_opts \
			--boot-timeout 600 -n "$name" > "$work/out" 2> "$work/err" || {
			sed 's/^/  /' "$work/err" >&2
			echo "bisect-accuracy: the calibration's kbench vm ($name) failed" >&2
			return 1
		}
	done
	means=$(sql "$work/cal.db" "SELECT group_concat(m, ' ') FROM (SELECT avg(s.value) AS m
		FROM runs r JOIN samples s ON s.run_id = r.id GROUP BY r.id ORDER BY r.name)")
	# shellcheck disable=SC2086
	set -- $means
	[ $# -eq 2 ] || { echo "bisect-accuracy: no calibration figures ('$means')" >&2; return 1; }
	slope=$(echo "$1 $2" | awk '{ if ($2 > $1) printf "%.6f", ($2 - $1) / $1 * 100 / 1000; else print "none" }')
	[ "$slope" != none ] || {
		echo "bisect-accuracy: the planted cost did not slow the kernel (good $1 s, planted $2 s)" >&2
		return 1
	}
	echo "# calibration: good end $(printf %.4f "$1") s, planted at 1000 ns a write" \
		"$(printf %.4f "$2") s: $(printf %.4f "$slope")% a ns"
	: > "$work/ns"
	for s in $SIZES; do
		ns=$(echo "$s $slope" | awk '{ printf "%d", $1 / $2 + 0.5 }')
		echo "$s $ns" >> "$work/ns"
		echo "#   $s%: pipe.plant_ns=$ns"
	done
	append_of() { echo "quiet pipe.plant_ns=$(awk -v s="$1" '$1 == s { print $2 }' "$work/ns")"; }
}

# A deterministic draw of the planted commit, 1..COMMITS, into $k (in
# this shell: the state goes on from one draw to the next).
state=$SEED
draw() {
	state=$(( (state * 1103515245 + 12345) % 2147483648 ))
	k=$(( state / 65536 % COMMITS + 1 ))
}

echo "# bisect-accuracy: the $TREE tree, $COMMITS commits after its good end," \
	"$ROUNDS to $MAX_ROUNDS rounds a step, guests' clocks: $CLOCK," \
	"$TRIALS trial(s) a size, seed $SEED"
if [ "$TREE" = linux ]; then
	calibrate || exit 1
fi
status=0
for size in $SIZES; do
	right=0 wrong=0 cannot=0 pcts= step_s= steps=0 whole_s=
	t=0
	while [ "$t" -lt "$TRIALS" ]; do
		t=$((t + 1))
		draw
		db=$work/$size-$t.db
		tree "$k" || { echo "bisect-accuracy: cannot make the tree" >&2; exit 1; }
		# shellcheck disable=SC2086
		"$kbench" --db "$db" bisect --tree "$dir" --good "$good" --bad "$bad" \
			-c "$(conf_of "$size")" --row "$(row_of "$size")" --rounds "$ROUNDS" \
			--max-rounds "$MAX_ROUNDS" --append "$(append_of "$size")" \
			--boot-timeout 600 $clock_opts --no-report \
			> "$work/out" 2> "$work/err"
		rc=$?
		if [ "$rc" -gt 1 ]; then
			sed 's/^/  /' "$work/err" >&2
			echo "bisect-accuracy: kbench bisect exited $rc" >&2
			exit 1
		fi
		result=$(sql "$db" "SELECT result || ' ' || coalesce(first_bad, '-') || ' ' ||
			coalesce(regression_pct, 'nan') || ' ' ||
			round((julianday(finished_at) - julianday(started_at)) * 86400) AS r
			FROM bisects WHERE status = 'complete'")
		# shellcheck disable=SC2086
		set -- $result
		if [ $# -ne 4 ]; then
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
		whole_s="$whole_s $4"
		times=$(sql "$db" "SELECT round((julianday(finished_at) - julianday(started_at)) * 86400)
			AS s FROM bisect_steps WHERE experiment_id IS NOT NULL AND finished_at IS NOT NULL")
		for s in $times; do
			step_s="$step_s $s"
			steps=$((steps + 1))
		done
		echo "#   $size% trial $t: planted commit $k, result $1 $(echo "$2" | cut -c1-12)" \
			"($verdict), step 0 measured $(printf %.1f "$3")%," \
			"$(echo "$times" | wc -w) steps with an experiment, $(printf %.0f "$4") s"
	done
	measured=$(echo "$pcts" | awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i;
		if (NF) printf "%+.1f", s / NF; else printf "nan" }')
	per_step=$(echo "$step_s" | mean)
	per_bisection=$(echo "$whole_s" | mean)
	case $measured$per_step in
	*nan*) [ "$cannot" -eq "$TRIALS" ] || {
		echo "bisect-accuracy: no figure for size $size (measured '$measured', s/step '$per_step')" >&2
		status=1
	} ;;
	esac
	# The share right, with its 95% Wilson score interval.
	interval=$(echo "$right $TRIALS" | awk "$wilson"'
		{ printf "%.0f-%.0f%%", 100 * wilson_lo($1, $2), 100 * wilson_hi($1, $2) }')
	printf '%-4s %-10s measured %7s%%  trials %d  right %d (%s)  wrong %d  cannot-tell %d  steps %s  s/step %s  s/bisection %s\n' \
		"$size" "$(row_of "$size")" "$measured" "$TRIALS" "$right" "$interval" "$wrong" \
		"$cannot" "$(echo "$steps $TRIALS" | awk '{ printf "%.1f", $1 / $2 }')" \
		"$per_step" "$per_bisection"
done
exit $status
