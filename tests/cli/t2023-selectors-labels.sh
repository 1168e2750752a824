#!/bin/sh
# t2023: a label kbench prints for a run is a selector it takes:
# compare's NAME#ID column labels pasted into show, compare and note (run
# ID, when it is named NAME; a real run of that name wins); the bare ID of
# kbench runs' id column (a run of that name wins); @ID, a uuid,
# NAME@HOST and an ab arm's CONFIG/ARM name; and a name no run has
# answered with the closest stored name by every command that takes a
# run, not by compare alone, and a --host or --config of kbench runs that
# no stored run has likewise (exit 1, as history and regressions).
# Covers: db/query.c compare/model.c cli/cmd_show.c cli/cmd_note.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-process-pipes]\niterations = 3\nloops = 5\ngroups = 1\n' > "$tmp/hb.conf"
check "runs base, base again, and cfg/arm" \
	kb --quiet run -c "$tmp/hb.conf" -n base --no-report '&&' \
	kb --quiet run -c "$tmp/hb.conf" -n base --no-report '&&' \
	kb --quiet run -c "$tmp/hb.conf" -n cfg/arm --no-report

kb compare @1 @2 > "$tmp/o" 2>/dev/null
labels=$(sed -n 's/^Samples: *//p' "$tmp/o")
is "compare labels two runs of one name NAME#ID" "$labels" "base#1 3, base#2 3"
for l in base#1 base#2; do
	kb show "$l" > "$tmp/o" 2> "$tmp/e"
	is "show '$l', a label compare printed, is that run" \
		"$?.$(head -1 "$tmp/o")" "0.run @${l#base#}  base"
done
kb compare 'base#1' 'base#2' > "$tmp/o" 2> /dev/null
is "compare takes its own labels back" \
	"$?.$(sed -n 's/^Samples: *//p' "$tmp/o")" "0.base#1 3, base#2 3"
check "note takes a label" kb note 'base#1' 'first'
kb show @1 > "$tmp/o"
is "... and notes that run" "$(grep -c first "$tmp/o")" 1
expect_err "a label whose id is another name's run" 1 \
	"kbench: no run 'base#3' in $db: NAME#ID is run @ID when it is named NAME (see kbench runs)" \
	kb show 'base#3'
check "a run named like a label" kb --quiet run -c "$tmp/hb.conf" -n 'base#1' --no-report
kb show 'base#1' > "$tmp/o"
is "... is that run, not the label" "$(head -1 "$tmp/o")" "run @4  base#1"

# The other forms kbench prints for a run: the id column of kbench runs.
kb runs > "$tmp/o"
id=$(awk '$2 == "cfg/arm" { print $1 }' "$tmp/o")
is "runs lists cfg/arm's id as a bare number" "$id" 3
kb show "$id" > "$tmp/o" 2> "$tmp/e"
is "show ID, as runs lists it" "$?.$(head -1 "$tmp/o")" "0.run @3  cfg/arm"
expect_err "an id no run has: no run named" 1 "kbench: no run named '99' in $db" kb show 99
check "a failed run named 7" sql_write "UPDATE runs SET name = '7', status = 'failed' WHERE id = 4"
expect_err "... a name comes first: 7 is that run's name, not id 7" 1 \
	"kbench: run '7' has no complete run: @4 is failed" kb show 7
check "... (its name back)" sql_write "UPDATE runs SET name = 'base#1', status = 'complete' WHERE id = 4"
uuid=$(sql "SELECT uuid FROM runs WHERE id = 2")
host=$(sql "SELECT m.hostname FROM runs r JOIN machines m ON m.id = r.machine_id WHERE r.id = 2")
for sel in @2 "$uuid" "base@$host" "base@*"; do
	kb show "$sel" > "$tmp/o" 2> "$tmp/e"
	is "show $sel" "$?.$(head -1 "$tmp/o")" "0.run @2  base"
done
kb show cfg/arm > "$tmp/o" 2> "$tmp/e"
is "show CONFIG/ARM, an ab arm's run name" "$?.$(head -1 "$tmp/o")" "0.run @3  cfg/arm"

# One "no such name" everywhere: the message, the suggestion, exit 1.
for cmd in show note history rename export rm; do
	case $cmd in
	note) args="bsae text" ;;
	rename) args="bsae other" ;;
	export) args="bsae -o $tmp/x.db" ;;
	*) args=bsae ;;
	esac
	kb $cmd $args > /dev/null 2> "$tmp/e"
	is "$cmd bsae: no run named, did you mean 'base'" "$?.$(cat "$tmp/e")" \
		"1.kbench: no run named 'bsae' in $db (see kbench runs) (did you mean 'base'?)"
done
host=$(sql "SELECT hostname FROM machines LIMIT 1")
typo=$(printf '%s' "$host" | sed 's/.$/#/')
kb runs --host "$typo" > /dev/null 2> "$tmp/e"
is "runs --host, a host no run has: did you mean, exit 1" "$?.$(cat "$tmp/e")" \
	"1.kbench: no run was made on host '$typo' in $db (did you mean '$host'?)"
kb runs --config hd > /dev/null 2> "$tmp/e"
is "runs --config, a config no run has: did you mean, exit 1" "$?.$(cat "$tmp/e")" \
	"1.kbench: no run has config 'hd' in $db (did you mean 'hb'?)"
kb runs --host "$host" --status failed > /dev/null 2> "$tmp/e"
is "a stored host whose runs the filters leave out: no runs match, exit 0" \
	"$?.$(cat "$tmp/e")" "0.kbench: no runs match ($db holds 4 runs)"

done_testing
