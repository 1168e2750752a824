#!/bin/sh
# Bad arguments, configs and databases get a clear error naming what is
# wrong and a non-zero exit; nothing already stored is touched. Every
# refusal is checked as a whole transcript: stdout, stderr, exit status.
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 1\n' > "$tmp/good.conf"
check "a good run is stored first" kb --quiet run -c "$tmp/good.conf" -n keep
sum_before=$(sql 'SELECT count(*), sum(value) FROM samples')

expect_transcript "a missing config is named" kb run -c "$tmp/nope.conf" <<'T'
$ kb run -c TMP/nope.conf
2> kbench: cannot read config 'TMP/nope.conf': No such file or directory
[exit 2]
T
expect_transcript -f t1010-run-no-config.txt "run without -c says how, and its usage" kb run
printf '[hackbench-a]\nloops = 10\nsizez = 3\n' > "$tmp/k.conf"
expect_transcript "an unknown key names file, line, section" kb run -c "$tmp/k.conf" <<'T'
$ kb run -c TMP/k.conf
2> kbench: TMP/k.conf:3: unknown key 'sizez' in [hackbench-a] (workload 'hackbench' takes: see 'kbench hackbench --help')
[exit 2]
T
printf '[hackbench-a]\nloopz = 10\n' > "$tmp/k2.conf"
expect_transcript "an unknown key suggests the nearest" kb run -c "$tmp/k2.conf" <<'T'
$ kb run -c TMP/k2.conf
2> kbench: TMP/k2.conf:2: unknown key 'loopz' in [hackbench-a] (did you mean 'loops'?)
[exit 2]
T
printf '[hackbench-a]\ngroups = 1 two\n' > "$tmp/v.conf"
expect_transcript "a bad list value says what was expected" kb run -c "$tmp/v.conf" <<'T'
$ kb run -c TMP/v.conf
2> kbench: TMP/v.conf:2: invalid value '1 two' for 'groups': expected a list of integers from 1 to 100000 ("1 2 4" or stride:MIN..MAX[,max=CAP]) (in [hackbench-a])
[exit 2]
T
printf '[hackbench-a]\ngroups = 0\n' > "$tmp/z.conf"
expect_transcript "a group count of 0 is rejected" kb run -c "$tmp/z.conf" <<'T'
$ kb run -c TMP/z.conf
2> kbench: TMP/z.conf:2: invalid value 0 in '0' for 'groups': expected a list of integers from 1 to 100000 ("1 2 4" or stride:MIN..MAX[,max=CAP]) (in [hackbench-a])
[exit 2]
T
printf '[hackbench-a]\n loops = 3\n[oops\n' > "$tmp/s.conf"
expect_transcript "a syntax error names its line" kb run -c "$tmp/s.conf" <<'T'
$ kb run -c TMP/s.conf
2> kbench: TMP/s.conf:3: cannot parse this line: expected [section], key = value, or a comment starting with # or ;
[exit 2]
T
expect_transcript "an invalid --only regex is explained" kb run -c "$tmp/good.conf" --only '(' <<'T'
$ kb run -c TMP/good.conf --only '('
2> kbench: invalid regular expression '(' for --only at offset 1: missing closing parenthesis
[exit 2]
T
expect_transcript "an unknown command is named" kb frobnicate <<'T'
$ kb frobnicate
2> kbench: 'frobnicate' is not a kbench command; see 'kbench --help'
[exit 2]
T
expect_transcript -f t1010-unknown-option.txt "an unknown global option is named, with the usage" \
	"$KBENCH" --frob runs
expect_transcript "show of an unknown run says so" kb show nope <<'T'
$ kb show nope
2> kbench: no run named 'nope' in TMP/k.db (see kbench runs)
[exit 1]
T
expect_transcript "a bad direct-mode value is explained" "$KBENCH" hackbench -g 0 <<'T'
$ kbench hackbench -g 0
2> kbench: invalid value 0 in '0' for 'groups': expected a list of integers from 1 to 100000 ("1 2 4" or stride:MIN..MAX[,max=CAP])
[exit 2]
T
expect_transcript "a bad --timeout is explained" "$KBENCH" hackbench --timeout x <<'T'
$ kbench hackbench --timeout x
2> kbench: invalid value 'x' for --timeout: expected seconds, a number from 0.001 to 1e+07
[exit 2]
T

echo "just some text, not a database, long enough to be read as one ........" > "$tmp/text.db"
cp "$tmp/text.db" "$tmp/text.orig"
expect_transcript "a file that is not a database is refused" "$KBENCH" --db "$tmp/text.db" runs <<'T'
$ kbench --db TMP/text.db runs
2> kbench: TMP/text.db: not a kbench database (not an SQLite file)
[exit 1]
T
check "and left as it was" cmp "$tmp/text.db" "$tmp/text.orig"
"$KB_SQL" --write "$tmp/other.db" 'CREATE TABLE t(x); INSERT INTO t VALUES (1);'
expect_transcript "an SQLite file of another program is refused" "$KBENCH" --db "$tmp/other.db" runs <<'T'
$ kbench --db TMP/other.db runs
2> kbench: TMP/other.db: not a kbench database (it has tables but no kbench schema version)
[exit 1]
T
is "and its table is untouched" "$("$KB_SQL" "$tmp/other.db" 'SELECT name FROM sqlite_master; SELECT * FROM t')" "t
1"
"$KB_SQL" --write "$tmp/future.db" 'PRAGMA user_version = 42;'
expect_transcript "a newer schema is refused" "$KBENCH" --db "$tmp/future.db" runs <<'T'
$ kbench --db TMP/future.db runs
2> kbench: TMP/future.db: schema version 42 is newer than this kbench understands (12); upgrade kbench
[exit 1]
T
is "and its version is left as it was" "$("$KB_SQL" "$tmp/future.db" 'PRAGMA user_version')" 42
expect_transcript "a database that does not exist is named, not created" "$KBENCH" --db /proc/kbench-cannot/k.db runs <<'T'
$ kbench --db /proc/kbench-cannot/k.db runs
2> kbench: cannot open database '/proc/kbench-cannot/k.db': no such file (only 'kbench run' creates one)
[exit 1]
T

expect_err "a global option without its value is named" 2 "option '--db' needs a value" "$KBENCH" --db
expect_err "an empty --db is refused, not a temporary database" 2 \
	"option '--db' needs a file name, not an empty string" "$KBENCH" --db '' runs
expect_err "kbench without a command prints the usage" 2 "usage: kbench [--db FILE]" "$KBENCH" -q
expect_err "an unknown run option is named" 2 "kbench: unknown option '--frob'" kb run --frob
expect_err "a run option without its value is named" 2 "option '--name' needs a value" \
	kb run -c "$tmp/good.conf" --name
expect_err "a run argument that is not an option is refused" 2 \
	"unexpected argument 'extra' (configs are given with -c)" kb run -c "$tmp/good.conf" extra

is "the stored run is intact after all of that" "$(sql 'SELECT count(*), sum(value) FROM samples')" "$sum_before"
is "integrity_check is ok" "$(sql 'PRAGMA integrity_check')" ok
done_testing
