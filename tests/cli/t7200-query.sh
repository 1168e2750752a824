#!/bin/sh
# t7200: kbench query runs read-only SQL: results as a table, csv and json;
# every kind of write is refused with its message before anything runs,
# and the store file is left byte for byte as it was; a missing file is not
# created, another file is refused; the examples of docs/schema.md run.

. "$TOP_SRCDIR/tests/cli/lib.sh"
cat > "$tmp/tiny.conf" <<'CONF'
[global]
iterations = 3
loops = 10
groups = 1

[hackbench-process-pipes]
mode = process
transport = pipes
CONF
kb() { "$KBENCH" --db "$db" --quiet "$@"; }

check "a tiny run to query" kb run -c "$tmp/tiny.conf" -n base --no-report

# expect_out DESCRIPTION WANT ARGS...: kbench query ARGS prints WANT, exit 0
expect_out() {
	desc=$1 want=$2
	shift 2
	kb query "$@" > "$tmp/out" 2> "$tmp/err"
	st=$?
	if [ "$st" -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && [ ! -s "$tmp/err" ]; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		diag "exit $st; want:"
		printf '%s\n' "$want" | sed 's/^/#   /'
		diag "got:"
		sed 's/^/#   /' "$tmp/out" "$tmp/err"
	fi
}

expect_out "text: a table, numbers to the right" "id  name  status    samples
--  ----  --------  -------
 1  base  complete        3" \
	"SELECT r.id, r.name, r.status, count(*) AS samples FROM runs r JOIN samples s ON s.run_id = r.id GROUP BY r.id"
expect_out "text: a table per statement, a blank line between" "a
-
1

b
-
x" "SELECT 1 AS a; SELECT 'x' AS b"
expect_out "text: line breaks and tabs in a value are escaped" "v
-------
a\\nb\\tc" "SELECT 'a' || char(10) || 'b' || char(9) || 'c' AS v"
expect_out "csv: version line, header, records" "# kbench query csv 1
id,name
1,base" --format csv "SELECT id, name FROM runs"
expect_out "csv: quoting, NULL empty, reals whole, a blank line between statements" "# kbench query csv 1
t,n,r
\"a,\"\"b\"\"\",,0.10000000000000001

x
2" --format csv "SELECT 'a,\"b\"' AS t, NULL AS n, 0.1 AS r; SELECT 2 AS x"
expect_out "json: format version, columns, typed rows" '{"format":"kbench-query","format_version":1,"results":[
{"statement":1,"columns":["i","r","n","t","b"],"rows":[
[7,1.5,null,"a\"b","x'"'"'00ff'"'"'"]]},
{"statement":2,"columns":["name"],"rows":[
["base"]]}]}' --format json "SELECT 7 AS i, 1.5 AS r, NULL AS n, 'a\"b' AS t, x'00ff' AS b; SELECT name FROM runs"
expect_out "json: a statement without rows has an empty list" '{"format":"kbench-query","format_version":1,"results":[
{"statement":1,"columns":["id"],"rows":[]}]}' --format json "SELECT id FROM runs WHERE 0"
echo "SELECT count(*) AS n FROM samples;" > "$tmp/q.sql"
kb query - < "$tmp/q.sql" > "$tmp/out"
check "'-' reads the SQL from stdin" test "$(tail -1 "$tmp/out")" = "3"
expect_out "pragmas that read are allowed" "user_version
------------
          12" "PRAGMA user_version"
expect_out "... and table-valued ones" "name
----
id" "SELECT name FROM pragma_table_info('runs') LIMIT 1"

# Writes: refused before anything runs; the file is untouched.
sum_before=$(cksum < "$db")
runs_before=$(sql 'SELECT count(*) || count(notes) FROM runs')
refuse() {	# refuse DESCRIPTION MESSAGE SQL
	expect_err "$1" 1 "kbench: query is read-only: $2" kb query "$3"
	check "... and prints nothing" test ! -s "$tmp/out"
}
refuse "INSERT is refused" "statement 1 would insert into table 'runs'" \
	"INSERT INTO runs(uuid, name, started_at, status) VALUES ('u', 'x', 'now', 'complete')"
refuse "UPDATE is refused" "statement 1 would update table 'runs'" "UPDATE runs SET notes = 'x'"
refuse "DELETE is refused" "statement 1 would delete from table 'samples'" "DELETE FROM samples"
refuse "DROP is refused" "statement 1 would drop table 'runs'" "DROP TABLE runs"
refuse "CREATE is refused" "statement 1 would create table 't'" "CREATE TABLE t(a)"
refuse "CREATE TEMP is refused" "statement 1 would create table 't'" "CREATE TEMP TABLE t(a)"
refuse "CREATE INDEX is refused" "statement 1 would create index 'i'" "CREATE INDEX i ON runs(notes)"
refuse "ALTER is refused" "statement 1 would alter table 'runs'" "ALTER TABLE runs ADD COLUMN x"
refuse "ATTACH is refused" "statement 1 would attach database '$tmp/other.db'" \
	"ATTACH '$tmp/other.db' AS o"
check "... and creates no file" test ! -e "$tmp/other.db"
refuse "a PRAGMA that sets is refused" "statement 1 would set pragma 'user_version'" \
	"PRAGMA user_version = 9"
refuse "a PRAGMA that changes the journal is refused" "statement 1 would set pragma 'journal_mode'" \
	"PRAGMA journal_mode = DELETE"
refuse "a PRAGMA that writes without a value is refused" "statement 1 would run pragma 'wal_checkpoint'" \
	"PRAGMA wal_checkpoint"
refuse "turning query_only off is refused" "statement 1 would set pragma 'query_only'" \
	"PRAGMA query_only = 0"
refuse "VACUUM is refused" "statement 1 would write to the store" "VACUUM"
refuse "VACUUM INTO is refused" "statement 1 would write to the store" "VACUUM INTO '$tmp/copy.db'"
refuse "a transaction is refused" "statement 1 would begin or end a transaction" "BEGIN"
refuse "a write after a read is refused before the read runs" \
	"statement 2 would delete from table 'runs'" "SELECT * FROM runs; DELETE FROM runs"
check "the store file is byte for byte as it was" test "$(cksum < "$db")" = "$sum_before"
check "... and its runs as they were" test "$(sql 'SELECT count(*) || count(notes) FROM runs')" = "$runs_before"

# Errors.
expect_err "an SQL error names the statement" 1 \
	"kbench: $db: statement 2: near \"SELEC\": syntax error" kb query "SELECT 1; SELEC 2"
expect_err "blanks and comments are no statement" 1 "kbench: no SQL statement to run" \
	kb query " -- nothing"
expect_err "query takes one SQL text" 2 \
	"kbench: query takes one SQL text (quote it, or give '-' to read it from stdin)" \
	kb query "SELECT 1" "SELECT 2"
expect_err "an unknown format is refused" 2 \
	"kbench: unknown format 'xml' (expected text, csv or json)" kb query --format xml "SELECT 1"
expect_err "a missing store is an error" 1 "kbench: cannot open database '$tmp/none.db'" \
	"$KBENCH" --db "$tmp/none.db" query "SELECT 1"
check "... and is not created" test ! -e "$tmp/none.db"
echo "just text, not a database at all, long enough for a header......." > "$tmp/text.db"
expect_err "a file that is not SQLite is refused" 1 \
	"kbench: $tmp/text.db: not a kbench database (not an SQLite file)" \
	"$KBENCH" --db "$tmp/text.db" query "SELECT 1"
"$KB_SQL" --write "$tmp/other.db" "CREATE TABLE x(a)"
expect_err "an SQLite file that is not a kbench store is refused" 1 \
	"kbench: $tmp/other.db: not a kbench database (it has tables but no kbench schema version)" \
	"$KBENCH" --db "$tmp/other.db" query "SELECT * FROM x"
# Another program's file with a schema version is refused as every other
# command refuses it, not read.
"$KB_SQL" --write "$tmp/v1.db" "CREATE TABLE t(a); PRAGMA user_version = 1"
expect_err "a foreign file with user_version 1 is refused" 1 \
	"kbench: $tmp/v1.db: not a kbench database (schema version 1, but not kbench's tables)" \
	"$KBENCH" --db "$tmp/v1.db" query "SELECT 1"
expect_err "... as runs refuses it" 1 \
	"kbench: $tmp/v1.db: not a kbench database (schema version 1, but not kbench's tables)" \
	"$KBENCH" --db "$tmp/v1.db" runs

# A query is bounded: time, memory, rows; and no function that reveals
# addresses. Each stops with a message naming the limit, promptly.
forever="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
t0=$(date +%s)
expect_err "an endless recursive query stops at --timeout" 1 \
	"kbench: query stopped: statement 1 ran past the time limit of 500 ms (--timeout)" \
	kb query --timeout 0.5 "$forever"
t1=$(date +%s)
check "... within seconds ($((t1 - t0)) s)" test $((t1 - t0)) -le 10
expect_err "--timeout takes seconds" 2 "kbench: invalid --timeout -1" kb query --timeout -1 "SELECT 1"
expect_err "zeroblob(1e9) is refused at once, not allocated" 1 \
	"kbench: query stopped: statement 1 makes a value larger than 134217728 bytes (a quarter of --max-memory)" \
	kb query "SELECT length(zeroblob(1e9))"
expect_err "a query past --max-memory stops" 1 "(--max-memory)" \
	kb query --max-memory 4 "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c
		LIMIT 400000) SELECT count(DISTINCT x || 'some padding to take memory') FROM c"
expect_err "rows past --max-rows stop the query" 1 "kbench: query stopped: more than 5 rows (--max-rows)" \
	kb query --max-rows 5 "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c
		LIMIT 10) SELECT x FROM c"
check "... and as many are fine" kb query --max-rows 10 "WITH RECURSIVE c(x) AS (SELECT 1
	UNION ALL SELECT x + 1 FROM c LIMIT 10) SELECT x FROM c"
expect_err "fts3_tokenizer (an address) is refused" 1 \
	"kbench: query does not allow function 'fts3_tokenizer' (statement 1)" \
	kb query "SELECT hex(fts3_tokenizer('simple'))"
expect_err "load_extension is refused" 1 \
	"kbench: query does not allow function 'load_extension' (statement 1)" \
	kb query "SELECT load_extension('/nonexistent')"

# Every example of docs/schema.md runs and returns rows.
awk -v dir="$tmp" '/^```sql$/ { n++; f = dir "/example" n ".sql"; next }
	/^```$/ { f = ""; next } f { print > f }' "$TOP_SRCDIR/docs/schema.md"
n=0
for f in "$tmp"/example*.sql; do
	n=$((n + 1))
	kb query - < "$f" > "$tmp/out" 2> "$tmp/err"
	st=$?
	if [ "$st" -eq 0 ] && [ "$(wc -l < "$tmp/out")" -ge 3 ]; then
		ok 0 "docs/schema.md example $n runs and returns rows"
	else
		ok 1 "docs/schema.md example $n runs and returns rows"
		sed 's/^/#   /' "$f" "$tmp/out" "$tmp/err"
	fi
done
check "docs/schema.md has its five examples" test "$n" = 5

done_testing
