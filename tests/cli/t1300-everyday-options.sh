#!/bin/sh
# Global options (--db, --quiet, -q) come before or after the command
# name, and a mistyped command or workload name gets the closest one.
# Covers: cli/main.c cli/setup.c lib/suggest.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 1\n' > "$tmp/good.conf"
check "run takes --db and -q after the command name" \
	"$KBENCH" run -c "$tmp/good.conf" -n first --db "$db" -q
is "run -q after the command prints no progress or notices" "$(cat "$tmp/check.err")" ""
check "run takes --quiet and --db=FILE after the command name" \
	"$KBENCH" run --quiet -c "$tmp/good.conf" -n second --db="$db"
is "run --quiet after the command prints no progress or notices" "$(cat "$tmp/check.err")" ""
expect_transcript -e 's/^([^,]*),[^,]*,([^,]*),.*/\1,\2/' "runs takes --db after the command" \
	"$KBENCH" runs --format csv --db "$db" <<'T'
$ kbench runs --format csv --db TMP/k.db
# kbench runs csv 1
id,name
1,first
2,second
[exit 0]
T
expect_transcript "an empty --db after the command is refused" "$KBENCH" runs --db '' <<'T'
$ kbench runs --db ''
2> kbench: option '--db' needs a file name, not an empty string
[exit 2]
T
expect_transcript "a mistyped command gets the closest" kb comapre <<'T'
$ kb comapre
2> kbench: 'comapre' is not a kbench command (did you mean 'compare'?); see 'kbench --help'
[exit 2]
T
expect_transcript "a mistyped workload gets the closest" kb hackbnech <<'T'
$ kb hackbnech
2> kbench: 'hackbnech' is not a kbench command (did you mean 'hackbench'?); see 'kbench --help'
[exit 2]
T
expect_transcript "netperff gets netperf" kb netperff <<'T'
$ kb netperff
2> kbench: 'netperff' is not a kbench command (did you mean 'netperf'?); see 'kbench --help'
[exit 2]
T

done_testing
