#!/bin/sh
# t7003-store-bad-version: a store whose schema version is negative (no
# kbench writes one; a damaged file, or another program's) is refused by
# readers and writers alike, saying so, and left as it is: no migration
# is looked up below the first.
# Covers: db/store.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

check "a store holding one imported run" \
	kb import --mmtests "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-patched"
for v in -1 -2147483648; do
	"$KB_SQL" --write "$db" "PRAGMA user_version = $v"
	is "its schema version set to $v" "$("$KB_SQL" "$db" 'PRAGMA user_version')" "$v"
	before=$(store_digest "$db")
	why="$db: schema version $v is not one kbench writes (they count up from 1): the file is damaged, or not a kbench database"
	expect_err "runs refuses it" 1 "$why" kb runs
	expect_err "show refuses it" 1 "$why" kb show 5.15.0-patched@testhost
	expect_err "import, a writer, refuses it" 1 "$why" \
		kb import --mmtests "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-vanilla"
	is "... and the store is as it was" "$(store_digest "$db")" "$before"
done
done_testing
