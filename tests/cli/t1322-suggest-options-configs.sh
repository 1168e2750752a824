#!/bin/sh
# t1322: "did you mean" for a mistyped option (of a command, of a
# workload, a global one) and config name (-c, history --config); a config
# with several errors reports each with its file and line, up to 20.
# Covers: lib/parse-options.c lib/suggest.c cli/setup.c runner/conf.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 1\n' > "$tmp/good.conf"
# Only the first lines: the usage follows.
kb run -c "$tmp/good.conf" --dryrun 2> "$tmp/err"
is "a command's option" "$(head -1 "$tmp/err")" \
	"kbench: unknown option '--dryrun' (did you mean '--dry-run'?)"
kb hackbench --pipes 2> "$tmp/err"
is "a workload's flag" "$(head -1 "$tmp/err")" \
	"kbench: unknown option '--pipes' (did you mean '--pipe'?)"
kb runs --quite 2> "$tmp/err"
is "a global option after the command" "$(head -1 "$tmp/err")" \
	"kbench: unknown option '--quite' (did you mean '--quiet'?)"
kb runs --frobnicate 2> "$tmp/err"
is "a far-off option gets no guess" "$(head -1 "$tmp/err")" \
	"kbench: unknown option '--frobnicate'"

expect_transcript "a shipped config's name" kb run -c quik --dry-run <<'T'
$ kb run -c quik --dry-run
2> kbench: cannot read config 'quik': No such file or directory (did you mean 'quick'?)
[exit 2]
T
expect_transcript "a path gets no guess" kb run -c ./quik --dry-run <<'T'
$ kb run -c ./quik --dry-run
2> kbench: cannot read config './quik': No such file or directory
[exit 2]
T
check "a run of config good is stored" kb --quiet run -c "$tmp/good.conf" -n base
expect_transcript "history --config: the closest config stored" \
	kb history --config goood <<'T'
$ kb history --config goood
2> kbench: no complete run matches config 'goood' in TMP/k.db (did you mean 'good'?)
[exit 1]
T

cat > "$tmp/bad.conf" <<'EOF2'
[global]
loopz = 3
[hackbench-a]
groups = many
this line is not a key
[hackbench-b]
mode = proces
grups = 2
[hackbench-b]
[netperf-c]
sizes = 1 2
sizes = 3
EOF2
expect_transcript "every syntax error of a config, each with its line" \
	kb run -c "$tmp/bad.conf" --dry-run <<'T'
$ kb run -c TMP/bad.conf --dry-run
2> kbench: TMP/bad.conf:5: cannot parse this line: expected [section], key = value, or a comment starting with # or ;
2> kbench: TMP/bad.conf:9: duplicate section [hackbench-b] (first at line 6)
2> kbench: TMP/bad.conf:12: duplicate key 'sizes' in [netperf-c] (first at line 11)
[exit 2]
T
cat > "$tmp/keys.conf" <<'EOF2'
[hackbench-a]
groups = many
[hackbench-b]
mode = proces
grups = 2
EOF2
expect_transcript "then every key's error, in every section" \
	kb run -c "$tmp/keys.conf" --dry-run <<'T'
$ kb run -c TMP/keys.conf --dry-run
2> kbench: TMP/keys.conf:2: invalid value 'many' for 'groups': expected a list of integers from 1 to 100000 ("1 2 4" or stride:MIN..MAX[,max=CAP]) (in [hackbench-a])
2> kbench: TMP/keys.conf:4: invalid value 'proces' for 'mode': expected one of process|thread (did you mean 'process'?) (in [hackbench-b])
2> kbench: TMP/keys.conf:5: unknown key 'grups' in [hackbench-b] (did you mean 'groups'?)
[exit 2]
T
{
	echo '[hackbench-a]'
	i=0
	while [ $i -lt 25 ]; do
		echo "key$i = 1"
		i=$((i + 1))
	done
} > "$tmp/many.conf"
kb run -c "$tmp/many.conf" --dry-run 2> "$tmp/err"
is "at most 20 errors, then a line that says so" \
	"$(grep -c "^kbench: $tmp/many.conf:[0-9]*: unknown key" "$tmp/err"):$(tail -1 "$tmp/err")" \
	"20:kbench: stopped after 20 errors"

done_testing
