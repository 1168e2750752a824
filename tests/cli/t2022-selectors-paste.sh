#!/bin/sh
# t2022: run selectors survive a shell. A run's id is @ID wherever a run is
# taken (show, compare, history, --noise-from's ranges, experiments), and
# kbench prints ids so: a selector or command taken from a message and
# pasted into sh reaches kbench whole, where "#8" was a comment that sh
# dropped. #ID, quoted, is still taken. No message of the sources prints
# an id after a '#' that starts a word.
# Covers: db/query.c cli/cmd_show.c compare/compare.c cli/cmd_experiments.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-process-pipes]\niterations = 3\nloops = 5\ngroups = 1\n' > "$tmp/hb.conf"
check "runs base, new, and new again" \
	kb --quiet run -c "$tmp/hb.conf" -n base --no-report '&&' \
	kb --quiet run -c "$tmp/hb.conf" -n new --no-report '&&' \
	kb --quiet run -c "$tmp/hb.conf" -n new --no-report

# in_sh COMMAND-LINE: the line run by sh as a user's paste would be, with
# kbench on the test's store.
in_sh() {
	sh -c "kbench() { \"\$KBENCH\" --db \"\$db\" \"\$@\"; }; $1" > "$tmp/sh.out" 2> "$tmp/sh.err"
}
export KBENCH db

# out ARGS...: kbench's stdout into $tmp/o, its exit status in $st.
out() {
	kb "$@" > "$tmp/o" 2> "$tmp/e"
	st=$?
}
out show @1
is "show @1 is run 1" "$st.$(head -1 "$tmp/o")" "0.run @1  base"
out show '#1'
is "show '#1', the older form, quoted, too" "$st.$(head -1 "$tmp/o")" "0.run @1  base"
out compare @1 @3
is "compare @1 @3 compares base with new" "$st.$(grep -m1 '^ *base  *new$' "$tmp/o" | tr -s ' ')" \
	"0. base new"
out compare --noise-from @1-@3 base new
is "--noise-from takes the range @1-@3" "$st.$(cat "$tmp/e")" "0."
expect_err "... from low to high" 1 "kbench: invalid --noise-from range '@3-@1'" \
	kb compare --noise-from @3-@1 base new
out history @2
is "history @2" "$st.$(grep -c '^hackbench-process-pipes 1 on ' "$tmp/o")" "0.1"
check "note @2" kb note @2 'the second'
out show @2
is "... the note is run 2's" "$st.$(grep -c 'the second' "$tmp/o")" "0.1"
expect_err "@ and a name is no run id" 1 \
	"kbench: invalid run id '@new': expected @ID, a run's number (NAME@HOST names a host)" \
	kb show @new
expect_err "an id no run has" 1 "kbench: no run @9 in $db" kb show @9
expect_err "an experiment by @ID" 1 \
	"kbench: no experiment @4 in $db (see kbench experiments)" \
	kb experiments @4

# A message's selector, pasted: a name whose only run is unfinished.
check "run 3 renamed newer, marked failed" \
	sql_write "UPDATE runs SET name = 'newer', status = 'failed' WHERE id = 3"
kb compare base newer > /dev/null 2> "$tmp/err"
sel=$(sed -n 's/.*(use \([^ ]*\) to pick it.*/\1/p' "$tmp/err")
is "the error names the unfinished run's selector" "$sel" "@3"
in_sh "kbench compare base $sel"
is "pasted into sh, it compares base with that run" \
	"$?.$(grep -m1 '^ *base  *newer$' "$tmp/sh.out" | tr -s ' ')" "0. base newer"
in_sh "kbench compare base #3"
is "where #3, unquoted, reached kbench as nothing: base alone, no newer" \
	"$?.$(grep -c 'newer' "$tmp/sh.out")" "0.0"

# The commands a run's messages name, pasted as printed.
printf '[hackbench-slow]\nloops = 100000000\ngroups = 1\niterations = 1\ntimeout = 0.3\n' > "$tmp/f.conf"
kb --quiet run -c "$tmp/f.conf" -n allfail > /dev/null 2> "$tmp/err"
cmd=$(sed -n "s/.*(see '\\(kbench show [^']*\\)').*/\\1/p" "$tmp/err")
is "a failed run names the command that shows it" "$cmd" "kbench show @4"
in_sh "$cmd"
is "pasted into sh, it shows that run" "$?.$(head -1 "$tmp/sh.out")" "0.run @4  allfail"

# No message prints an id after a '#' that starts a word ("run #%lld",
# "'#%lld'"): every one prints @ID. hwloc's P#N and L#N, and a label's
# NAME#ID, are in one word with what precedes them.
found=$(cd "$TOP_SRCDIR" && grep -nE '(^|[^A-Za-z0-9_])#%[-0-9.]*(ll|l|z|j|h)?[dui]|#%" PRI' \
	lib/*.c machine/*.c db/*.c workloads/*.c compare/*.c sampler/*.c monitors/*.c \
	runner/*.c fleet/*.c cli/*.c | grep -v 'scanf(')
is "no message prints #ID" "$found" ""

done_testing
