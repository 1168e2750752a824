#!/bin/sh
# t7106-store-readonly-writers: a command that writes the store, on a
# read-only mount, says that the store (or its directory, for a store
# still to be made) is on a read-only file system, instead of an error of
# SQLite's about the write-ahead log; readers still read it (t7104). The
# mount is a read-only bind mount in a private mount namespace, gone
# with the command that made it.
# Covers: db/store.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

ro=$tmp/ro
mkdir "$ro" && "$KBENCH" --db "$ro/k.db" import --mmtests \
	"$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-patched" >/dev/null
ok $? "a store holding one imported run"
# on_ro CMD...: CMD, with $ro mounted read-only for it alone.
on_ro() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift &&
		exec "$@"' sh "$ro" "$@"
}
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null 2>&1 ||
	! on_ro test ! -w "$ro" 2>/dev/null
then
	skip "cannot mount read-only here (needs root and mount namespaces)"
	done_testing
	exit 0
fi
before=$(store_digest "$ro/k.db")
files=$(ls "$ro")
expect_err "import says the store is on a read-only file system" 1 \
	"cannot write database '$ro/k.db': it is on a read-only file system" \
	on_ro "$KBENCH" --db "$ro/k.db" import --mmtests \
	"$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-vanilla"
check "... with no word of the write-ahead log" test ! -s "$tmp/err" -o \
	"$(grep -c 'write-ahead' "$tmp/err")" = 0
expect_err "note says the same" 1 \
	"cannot write database '$ro/k.db': it is on a read-only file system" \
	on_ro "$KBENCH" --db "$ro/k.db" note '#1' text
expect_err "a store to be made there: its directory is named" 1 \
	"cannot write database '$ro/new.db': its directory '$ro' is on a read-only file system" \
	on_ro "$KBENCH" --db "$ro/new.db" import --mmtests \
	"$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-vanilla"
check "runs still reads it there" on_ro "$KBENCH" --db "$ro/k.db" runs
is "the store is as it was" "$(store_digest "$ro/k.db")" "$before"
is "... and nothing was made beside it" "$(ls "$ro")" "$files"
done_testing
