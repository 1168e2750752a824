#!/bin/sh
# The bash completion: commands and workloads, options, config keys after
# -o, shipped configs after -c, sections after --only, run names.
# Covers: cli/complete.c cli/main.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

if ! command -v bash >/dev/null; then
	skip "no bash"
	done_testing
	exit 0
fi
bc=/usr/share/bash-completion/bash_completion
if [ ! -r "$bc" ]; then
	# Without bash-completion, the few helpers the script uses, reduced.
	bc=$tmp/bash_completion
	cat >"$bc" <<'EOF2'
_init_completion() {
	COMPREPLY=() words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
	cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
}
_filedir() { :; }
compopt() { :; }
EOF2
	diag "bash-completion is not installed: its helpers are stubbed"
fi
mkdir "$tmp/bin"
ln -s "$KBENCH" "$tmp/bin/kbench"
printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 1\n' > "$tmp/good.conf"
printf '[global]\nloops = 3\n[hackbench-one]\n[hackbench-two]\n' > "$tmp/two.conf"
check "a run named baseline is stored" kb --quiet run -c "$tmp/good.conf" -n baseline

# complete WORD...: what the completion offers for the last word, sorted.
complete_line() {
	PATH="$tmp/bin:$PATH" bash -c '
		. "$1"; . "$2"; shift 2
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
		_kbench kbench "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort' \
		sh "$bc" "$TOP_SRCDIR/completion/kbench.bash" "$@"
}

is "commands and workloads" "$(complete_line kbench c)" "calibrate
compare
configs"
is "a prefix of a workload" "$(complete_line kbench ne)" "netperf"
is "global options" "$(complete_line kbench --)" "--db
--help
--quiet
--version"
is "a command's options" "$(complete_line kbench runs --for)" "--format"
is "config keys after -o for a workload" "$(complete_line kbench hackbench -o gr)" "groups="
is "runner keys after run -o" "$(complete_line kbench run -o iter)" "iterations="
is "section names after run -o, to name a key of one" \
	"$(complete_line kbench run -c "$tmp/two.conf" -o hackbench-o)" "hackbench-one."
is "then that section's keys" \
	"$(complete_line kbench run -c "$tmp/two.conf" -o hackbench-one.loo)" "hackbench-one.loops="
is "shipped configs after -c" "$(cd "$tmp" && complete_line kbench run -c qui)" "quick"
is "section names after --only" \
	"$(complete_line kbench run -c "$tmp/two.conf" --only hack)" "hackbench-one
hackbench-two"
is "run names for compare" "$(complete_line kbench --db "$db" compare bas)" "baseline"
is "run names for show, --db after the command" \
	"$(complete_line kbench show --db "$db" b)" "baseline"
is "the formats query takes" "$(complete_line kbench query --format '')" "csv
json
text"
is "config names from the store for history --config" \
	"$(complete_line kbench --db "$db" history --config g)" "good"

# Experiment names: ab --resume and kbench experiments offer them.
printf '[experiment]\nrounds = 1\n[arm:a]\noption.loops = 2\n[arm:b]\noption.loops = 3\n' \
	>"$tmp/ab.conf"
cat "$tmp/good.conf" >>"$tmp/ab.conf"
check "an experiment named slub-trial is stored" \
	kb --quiet ab -c "$tmp/ab.conf" -n slub-trial --no-report
is "experiment names for ab --resume" \
	"$(complete_line kbench --db "$db" ab --resume '')" "slub-trial"
is "... and for ab --resume=PREFIX" \
	"$(complete_line kbench --db "$db" ab --resume=sl)" "--resume=slub-trial"
is "experiment names for kbench experiments, its one argument" \
	"$(complete_line kbench --db "$db" experiments s) /$(complete_line kbench --db "$db" \
	experiments slub-trial '')/" "slub-trial //"

done_testing
