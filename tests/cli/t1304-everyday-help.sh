#!/bin/sh
# Help texts fit in 80 columns and describe each option once; the usage
# says where the manual is; an unknown pin policy lists each one once.
# Covers: lib/parse-options.c lib/docs.c cli/main.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

for cmd in "" hackbench netperf pft external; do
	# The source tree's path (in the uninstalled man -l hint) is as
	# long as the checkout's: count it as SRCDIR.
	"$KBENCH" $cmd --help 2>&1 | normalise >"$tmp/help"
	is "kbench $cmd --help: no line past 80 columns" \
		"$(awk 'length > 80 { print length ": " $0 }' "$tmp/help")" ""
done
"$KBENCH" hackbench --help >"$tmp/help" 2>&1
is "hackbench --help: the flag's description is not repeated for its option" \
	"$(grep -c 'messages each sender sends\|loops per sender' "$tmp/help")" 1
expect_transcript -e '2,/^Global options:/d' \
	"uninstalled, --help points at the source tree's man page" "$KBENCH" --help <<'T'
$ kbench --help
  --db FILE   results database (default: $KBENCH_DB, else
              $XDG_DATA_HOME/kbench/kbench.db)
  --quiet     no progress or notices
  --version   print the version

'kbench help COMMAND' describes a command; this kbench is not
installed: 'man -l SRCDIR/docs/kbench.1' has it all.
[exit 0]
T
expect_transcript "an unknown pin policy lists each policy once" \
	"$KBENCH" topology --cpus bogus <<'T'
$ kbench topology --cpus bogus
2> kbench: unknown pin policy 'bogus': expected one of unbound|same-pu|cross-ht|cross-core|cross-llc|cross-node|cross-socket|spread|compact
[exit 2]
T

done_testing
