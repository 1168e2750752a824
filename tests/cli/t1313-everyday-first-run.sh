#!/bin/sh
# t1313-everyday-first-run: the report of the first run of a config says
# there is nothing to compare with yet, and how to get a comparison; a
# run stopped by SIGINT names the command that runs the rest of it.
# Covers: views/report.c runner/runner.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 2\n' >"$tmp/first.conf"
check "a first run of config 'first'" kb --quiet run -c "$tmp/first.conf" -n one
is "its report ends saying there is nothing to compare with yet" \
	"$(sed -n '/^Nothing to compare/,$p' "$tmp/check.out")" \
	"Nothing to compare with yet: this is the first complete run of config 'first'
here. Run it again (on the kernel to compare with, say) and the report ends with
the comparison of the two; 'kbench compare BASE NEW' compares any two runs."
check "the second run" kb --quiet run -c "$tmp/first.conf" -n two
cp "$tmp/check.out" "$tmp/second"
is "... says nothing of the kind" "$(grep -c '^Nothing to compare' "$tmp/second")" 0
check "... but is compared with the first" grep -q '^Compared with one (id 1, ' "$tmp/second"

printf '[hackbench-a]\nloops = 200\ngroups = 1\niterations = 1000\n' >"$tmp/long.conf"
"$KBENCH" --db "$db" --quiet run -c "$tmp/long.conf" -n stopped >"$tmp/out" 2>"$tmp/err" &
pid=$!
check "a long run stores samples" wait_until 30 sh -c \
	"[ \"\$('$KB_SQL' '$db' \"SELECT count(*) FROM samples WHERE run_id = 3\")\" -ge 2 ]"
kill -INT "$pid"
wait "$pid"
st=$?
is "SIGINT stops it: exit 130" "$st" 130
expect_transcript -e 's/ kept [0-9]+ samples / kept N samples /' \
	"... and says which command runs the rest of it" cat "$tmp/err" <<'T'
$ cat TMP/err
kbench: interrupted by signal 2: run @3 kept N samples and is marked interrupted; 'kbench run --resume @3' runs the rest
[exit 0]
T
check "no worker is left" no_workers
check "the command it names resumes the run" kb --quiet run --resume '#3' --no-report \
	-o iterations=3 --force
is "... which completes" "$(sql 'SELECT status FROM runs WHERE id = 3')" complete

done_testing
