# lib-ab.sh: what the A/B experiment tests (t14xx) share, sourced after
# lib.sh. They change real knobs of this machine: every knob they may
# touch is saved first and written back when the test ends, whatever way
# it ends, so that a failing test leaves the machine as it found it.
#
#   ab_knobs                 the knob files the tests touch, one a line
#   ab_need_knobs            skip the whole test unless root may write them
#   ab_save                  take the knob tests' lock (they change the same
#                            files: one at a time, even under make -j),
#                            use the machine's kbench lock directory,
#                            save the values (and restore them on EXIT)
#   ab_values                their values now, "path=value" a line
#   ab_conf FILE ARM-KEYS... a small two-arm config: arm base changes
#                            nothing, arm test sets ARM-KEYS (lines)
#   journal_rows             rows left in the store's knob journal

thp=/sys/kernel/mm/transparent_hugepage/enabled
pcp=/proc/sys/vm/percpu_pagelist_high_fraction
slab_glob='/sys/kernel/slab/kmalloc-[0-9]*/cpu_partial'

ab_knobs() {
	printf '%s\n' "$thp" "$pcp"
	# shellcheck disable=SC2086 # the glob is meant
	for f in $slab_glob /sys/kernel/slab/kmalloc-[0-9]*/min_partial; do
		[ -e "$f" ] && readlink -f "$f"
	done | sort -u
}

ab_need_knobs() {
	for f in $(ab_knobs); do
		if [ ! -w "$f" ] || [ "$(id -u)" != 0 ]; then
			echo "1..0 # SKIP needs root and a writable $f"
			exit 0
		fi
	done
}

# The setting of a knob file as kbench reads it: the bracketed choice.
knob_value() {
	v=$(cat "$1")
	case $v in
	*\[*\]*) v=${v#*[}; v=${v%%]*} ;;
	esac
	printf '%s' "$v"
}

ab_values() {
	for f in $(ab_knobs); do
		printf '%s=%s\n' "$f" "$(knob_value "$f")"
	done
}

ab_restore() {
	[ -s "$tmp/knobs.saved" ] || return 0
	while IFS='=' read -r f v; do
		[ "$(knob_value "$f")" = "$v" ] || printf '%s' "$v" > "$f" 2>/dev/null
	done < "$tmp/knobs.saved"
}

ab_save() {
	# Bounded: a test holding it runs for well under a minute.
	exec 9>"${TMPDIR:-/tmp}/kbench-knob-tests.lock"
	if command -v flock >/dev/null && ! flock -w 300 9; then
		echo "Bail out! another knob test held the lock for 300 s"
		exit 1
	fi
	# The machine's lock directory, as a user's kbench uses: a knob test
	# beside a user's experiment is refused, not interleaved.
	unset KBENCH_LOCK_DIR
	ab_values > "$tmp/knobs.saved"
	trap 'ab_restore; rm -rf "$tmp"' EXIT
	trap 'ab_restore; rm -rf "$tmp"; exit 130' INT TERM
}

ab_conf() {
	ac_file=$1
	shift
	{
		printf '[experiment]\nrounds = 3\n\n[arm:base]\n\n[arm:test]\n'
		printf '%s\n' "$@"
		printf '\n[global]\niterations = 2\nwarmup = 1\nloops = 10\ngroups = 1\n'
		printf 'timeout = 60\n\n[hackbench-process-pipes]\nmode = process\n'
		printf 'transport = pipes\n'
	} > "$ac_file"
}

journal_rows() {
	sql "SELECT count(*) FROM knob_journal"
}
