#!/bin/sh
# t1001-help: kbench's usage, --version and the --help of the commands
# that drive runs (run, runs, show), as whole transcripts: help goes to
# stdout and exits 0; a usage error goes to stderr with the usage.
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
done_testing
