#!/bin/sh
# t7107-store-one-file: a store is one file at rest: once kbench exits,
# after a writer (run, note) or a reader (runs, show, compare, history,
# experiments, query), no -wal or -shm is left beside it; a reader that
# finds them left (by an older kbench) tidies them away.
# Covers: db/store.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# beside: the files next to the store, other than itself.
beside() { (cd "$tmp" && ls -d k.db-* 2>/dev/null); }

printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 2\n' >"$tmp/a.conf"
check "two runs" kb --quiet run -c "$tmp/a.conf" -n base --no-report '&&' \
	kb --quiet run -c "$tmp/a.conf" -n new --no-report
is "... the store is one file" "$(beside)" ""
for cmd in "runs" "show base" "compare base new" "history base" "experiments" \
	"query SELECT count(*) FROM runs" "note base tidy"; do
	# shellcheck disable=SC2086
	kb $cmd >/dev/null 2>&1
	is "after kbench $cmd, the store is one file" "$(beside)" ""
done

# An older kbench's reader left them: a WAL store read through SQLite
# read-only, as it read.
if command -v python3 >/dev/null; then
	python3 - "$db" <<'PY'
import sqlite3, sys
c = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
c.execute("SELECT count(*) FROM runs").fetchall()
c.close()
PY
	is "a read-only reader leaves -shm and -wal" "$(beside | tr '\n' ' ')" "k.db-shm k.db-wal "
	kb runs >/dev/null
	is "... which the next kbench reader tidies away" "$(beside)" ""
else
	skip "python3 is not installed"
fi

done_testing
