#!/bin/sh
# Bad arguments, configs and databases get a clear error naming what is
# wrong and a non-zero exit; nothing already stored is touched.
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 1\n' > "$tmp/good.conf"
kb --quiet run -c "$tmp/good.conf" -n keep >/dev/null 2>&1
ok $? "a good run is stored first"
sum_before=$(sql 'SELECT count(*), sum(value) FROM samples')

expect_err "a missing config is named" 2 "cannot read config '$tmp/nope.conf'" \
	kb run -c "$tmp/nope.conf"
expect_err "run without -c says how" 2 "no config given: use -c FILE" kb run
printf '[hackbench-a]\nloops = 10\nsizez = 3\n' > "$tmp/k.conf"
expect_err "an unknown key names file, line, section" 2 \
	"$tmp/k.conf:3: unknown key 'sizez' in [hackbench-a]" kb run -c "$tmp/k.conf"
printf '[hackbench-a]\nloopz = 10\n' > "$tmp/k2.conf"
expect_err "an unknown key suggests the nearest" 2 "(did you mean 'loops'?)" kb run -c "$tmp/k2.conf"
printf '[hackbench-a]\ngroups = 1 two\n' > "$tmp/v.conf"
expect_err "a bad list value says what was expected" 2 \
	"$tmp/v.conf:2: invalid value '1 two' for 'groups': expected a list of integers" kb run -c "$tmp/v.conf"
printf '[hackbench-a]\ngroups = 0\n' > "$tmp/z.conf"
expect_err "a group count of 0 is rejected" 2 "invalid value 0 in '0' for 'groups'" kb run -c "$tmp/z.conf"
printf '[hackbench-a]\n loops = 3\n[oops\n' > "$tmp/s.conf"
expect_err "a syntax error names its line" 2 "$tmp/s.conf:3: cannot parse this line" kb run -c "$tmp/s.conf"
expect_err "an invalid --only regex is explained" 2 "invalid regular expression '(' for --only" \
	kb run -c "$tmp/good.conf" --only '('
expect_err "an unknown command is named" 2 "'frobnicate' is not a kbench command" kb frobnicate
expect_err "an unknown global option is named" 2 "unknown option '--frob'" "$KBENCH" --frob runs
expect_err "a global option without its value is named" 2 "option '--db' needs a value" "$KBENCH" --db
expect_err "kbench without a command prints the usage" 2 "usage: kbench [--db FILE]" "$KBENCH" -q
expect_err "an unknown run option is named" 2 "kbench: unknown option '--frob'" kb run --frob
expect_err "a run option without its value is named" 2 "option '--name' needs a value" \
	kb run -c "$tmp/good.conf" --name
expect_err "a run argument that is not an option is refused" 2 \
	"unexpected argument 'extra' (configs are given with -c)" kb run -c "$tmp/good.conf" extra
expect_err "show of an unknown run says so" 1 "no run named 'nope'" kb show nope
expect_err "a bad direct-mode value is explained" 2 "invalid value 0 in '0' for 'groups'" \
	"$KBENCH" hackbench -g 0
expect_err "a bad --timeout is explained" 2 "invalid value 'x' for --timeout" \
	"$KBENCH" hackbench --timeout x

echo "just some text, not a database, long enough to be read as one ........" > "$tmp/text.db"
cp "$tmp/text.db" "$tmp/text.orig"
expect_err "a file that is not a database is refused" 1 "not a kbench database" \
	"$KBENCH" --db "$tmp/text.db" runs
check "and left as it was" cmp -s "$tmp/text.db" "$tmp/text.orig"
sqlite3 "$tmp/other.db" 'CREATE TABLE t(x); INSERT INTO t VALUES (1);'
expect_err "an SQLite file of another program is refused" 1 "not a kbench database" \
	"$KBENCH" --db "$tmp/other.db" runs
check "and its table is untouched" test "$(sqlite3 "$tmp/other.db" 'SELECT count(*) FROM t')" = 1
sqlite3 "$tmp/future.db" 'PRAGMA user_version = 42;'
expect_err "a newer schema is refused" 1 "schema version 42 is newer" "$KBENCH" --db "$tmp/future.db" runs
expect_err "an unwritable database path is named" 1 "cannot" \
	"$KBENCH" --db /proc/kbench-cannot/k.db runs

check "the stored run is intact after all of that" \
	test "$(sql 'SELECT count(*), sum(value) FROM samples')" = "$sum_before"
check "integrity_check is ok" test "$(sql 'PRAGMA integrity_check')" = ok
done_testing
