#!/bin/sh
# t1001-help: kbench's usage, --version and the --help of the commands
# that drive runs (run, runs, show), as whole transcripts: help goes to
# stdout and exits 0; a usage error goes to stderr with the usage.
# Also: 'kbench help COMMAND' is that command's --help (a workload's
# too), 'kbench help' kbench's; an unknown command is a usage error with
# the closest command; 'kbench help <TAB>' completes command names.
# Covers: cli/main.c lib/parse-options.c cli/setup.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$(dirname "$KBENCH")/config.h")
expect_transcript -e "s/^kbench $version\$/kbench VERSION/" "--version prints the package version" \
	"$KBENCH" --version <<'T'
$ kbench --version
kbench VERSION
[exit 0]
T
expect_transcript -f t1001-kbench-help.txt "--help lists the commands and global options" \
	"$KBENCH" --help
expect_transcript -f t1001-kbench.txt "no command: the usage on stderr" "$KBENCH"
for c in run runs show; do
	expect_transcript -f "t1001-$c-help.txt" "kbench $c --help" "$KBENCH" "$c" --help
done
expect_transcript -f t1001-runs-bogus.txt "an unknown option of a command: its usage on stderr" \
	"$KBENCH" runs --bogus
# Every command of the table and every workload.
for c in $("$KBENCH" --help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p'); do
	"$KBENCH" "$c" --help > "$tmp/want" 2>&1
	"$KBENCH" help "$c" > "$tmp/got" 2> "$tmp/err"
	is "kbench help $c is kbench $c --help, exit 0" \
		"$?.$(cat "$tmp/err")$(cmp "$tmp/want" "$tmp/got" && echo same)" "0.same"
done
"$KBENCH" --help > "$tmp/want"
"$KBENCH" help > "$tmp/got"
is "kbench help alone is kbench --help" "$?.$(cmp "$tmp/want" "$tmp/got" && echo same)" "0.same"
expect_transcript "kbench help, an unknown command: a usage error, did you mean" \
	"$KBENCH" help rnu <<'T'
$ kbench help rnu
2> kbench: 'rnu' is not a kbench command (did you mean 'run'?); see 'kbench --help'
[exit 2]
T
expect_transcript "kbench help, nothing like a command" "$KBENCH" help nosuchthing <<'T'
$ kbench help nosuchthing
2> kbench: 'nosuchthing' is not a kbench command; see 'kbench --help'
[exit 2]
T
expect_transcript "kbench help takes one command" "$KBENCH" help run show <<'T'
$ kbench help run show
2> kbench: unexpected argument 'show': 'kbench help' takes one command
[exit 2]
T
"$KBENCH" __complete -- kbench help reg > "$tmp/got"
is "kbench help <TAB> completes command names" "$(sed 1d "$tmp/got")" "regressions"
done_testing
