#!/bin/sh
# Repeat rounds, the order of samples within a round (rows, rounds, a
# seeded shuffle that the seed reproduces) and iterations = auto, on an
# external workload whose values come from known sequences: the round of
# each sample stored, the order the command was run in, the exact sample
# count at which a row meets its CI target, resume, bundles, and compare's
# footer.
# Covers: runner/plan.c runner/runner.c workloads/external.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# The workload: row R prints the next value of $tmp/values.R (100 once
# the file runs out) and logs R in $tmp/log.
cat >"$tmp/wl.sh" <<'EOF'
#!/bin/sh
d=$(dirname "$0")
n=$(cat "$d/count.$1" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" >"$d/count.$1"
echo "$1" >>"$d/log"
v=$(sed -n "${n}p" "$d/values.$1" 2>/dev/null)
echo "v=${v:-100}"
EOF
# conf NAME KEY=VALUE...: $tmp/NAME.conf, one section of rows 1 2 3 with
# the keys given
conf() {
	f=$tmp/$1.conf
	shift
	{
		printf '[global]\nworkload = external\nmonitors = none\n'
		printf '%s\n' "$@"
		printf '\n[ext]\nparam.row = 1 2 3\ncommand = sh %s/wl.sh {row}\n' "$tmp"
		printf 'metric.v = v=(?<value>[0-9.]+)\nbetter.v = higher\n'
	} >"$f"
}
fresh() { rm -f "$tmp"/count.* "$tmp/log" "$tmp"/values.*; }
log() { tr '\n' ' ' <"$tmp/log" | sed 's/ $//'; }
run() { kb run -q --no-report "$@"; }

# ---- rounds and the order within a round ----
fresh
conf rows 'rounds = 2' 'iterations = 2' 'warmup = 1'
run -c "$tmp/rows.conf" -n rows
ok $? "a run of 2 rounds completes"
is "rounds: every row's samples (warm-up first) in round 1, then again in round 2" \
	"$(log)" "1 1 1 2 2 2 3 3 3 1 1 1 2 2 2 3 3 3"
is "each sample stores its round; iterations number on across rounds, a round's warm-up is -1" \
	"$(sql "SELECT group_concat(row || ':' || round || '.' || iteration, ' ') FROM
		(SELECT * FROM samples WHERE run_id = 1 ORDER BY rowid)")" \
	"row-1:1.-1 row-1:1.1 row-1:1.2 row-2:1.-1 row-2:1.1 row-2:1.2 row-3:1.-1 row-3:1.1 row-3:1.2 row-1:2.-1 row-1:2.3 row-1:2.4 row-2:2.-1 row-2:2.3 row-2:2.4 row-3:2.-1 row-3:2.3 row-3:2.4"
is "the rounds are stored with the section's options" \
	"$(sql "SELECT group_concat(key || '=' || value, ' ') FROM run_meta WHERE run_id = 1
		AND key IN ('rounds', 'sample_order', 'seed', 'order-seed')")" "rounds=2"

fresh
conf interleaved 'rounds = 2' 'iterations = 2' 'sample_order = rounds'
run -c "$tmp/interleaved.conf" -n interleaved
is "sample_order = rounds: one sample of each row in turn" \
	"$(log)" "1 2 3 1 2 3 1 2 3 1 2 3"

fresh
conf shuffle 'rounds = 2' 'iterations = 2' 'sample_order = shuffle' 'seed = 7'
run -c "$tmp/shuffle.conf" -n shuffle
first=$(log)
fresh
run -c "$tmp/shuffle.conf" -n shuffle
is "a shuffle with seed 7 runs in the same order again" "$(log)" "$first"
is "... the documented order of seed 7 (splitmix64, Fisher-Yates)" "$first" \
	"2 3 1 3 2 1 2 3 1 1 3 2"
is "the seed is stored for the run and for the section" \
	"$(sql "SELECT group_concat(section || ':' || key || '=' || value, ' ') FROM
		run_meta WHERE run_id = 3 AND key IN ('seed', 'order-seed')")" "ext:seed=7 :order-seed=7"

fresh
conf drawn 'iterations = 3' 'sample_order = shuffle'
run -c "$tmp/drawn.conf" -n drawn
drawn=$(log)
seed=$(sql "SELECT value FROM run_meta WHERE key = 'order-seed' AND run_id =
	(SELECT max(id) FROM runs)")
check "without a seed one is drawn and stored ($seed)" test -n "$seed"
kb show drawn | grep -q "^  order-seed  *$seed\$"
ok $? "show prints the seed"
fresh
conf again 'iterations = 3' 'sample_order = shuffle' "seed = $seed"
run -c "$tmp/again.conf" -n again
is "seed = the stored seed reproduces the drawn order" "$(log)" "$drawn"

# ---- iterations = auto ----
# Row 1 meets 2% at its 4th sample (3 samples: 2.46%, 4: 1.29%); row 2
# never does and stops at max_iterations; row 3 (constant) at
# min_iterations.
fresh
printf '100\n102\n101\n101\n101\n101\n' >"$tmp/values.1"
printf '50\n150\n50\n150\n50\n150\n50\n150\n' >"$tmp/values.2"
conf auto 'iterations = auto' 'ci_target = 2%' 'max_iterations = 6'
run -c "$tmp/auto.conf" -n auto
ok $? "a run with iterations = auto completes"
is "each row stops when its target is met, or at max_iterations" \
	"$(sql "SELECT group_concat(row || '=' || n, ' ') FROM (SELECT row, count(*) AS n
		FROM samples WHERE run_id = (SELECT max(id) FROM runs) GROUP BY row ORDER BY row)")" \
	"row-1=4 row-2=6 row-3=3"
kb show auto | sed -n '/^Adaptive/,/^$/p' >"$tmp/show.out"
is "show lists how each row ended" "$(cat "$tmp/show.out")" \
"Adaptive iterations: 2 of 3 rows met their ci_target
  section                  row          round samples        ci   target  met
  ext                      row-1            1       4     1.29%       2%  yes
  ext                      row-2            1       6    57.48%       2%  no
  ext                      row-3            1       3     0.00%       2%  yes"
auto1=$(sql "SELECT max(id) FROM runs")
fresh
printf '100\n102\n101\n101\n101\n101\n' >"$tmp/values.1"
printf '50\n150\n50\n150\n50\n150\n50\n150\n' >"$tmp/values.2"
run -c "$tmp/auto.conf" -n auto2
is "compare's footer says how many rows met the target" \
	"$(kb compare auto auto2 | grep -A1 '^Adaptive')" \
"Adaptive iterations: auto 2 of 3 rows met ci_target 2% (n 3-6), auto2 2 of 3
  rows met ci_target 2% (n 3-6)."
kb compare --format json auto auto2 >"$tmp/auto.json"
grep -q '"adaptive":{"reached":4,"met":true}' "$tmp/auto.json" &&
	grep -q '"adaptive":{"reached":6,"met":false}' "$tmp/auto.json"
ok $? "compare's JSON gives each row's samples reached and whether it met the target"

# ---- resume ----
fresh
conf res 'rounds = 3' 'iterations = 2'
run -c "$tmp/res.conf" -n res
res=$(sql "SELECT max(id) FROM runs")
# Round 3 of row 2 and the second sample of round 2 of row 1 went missing
# when the run was killed.
sql_write "DELETE FROM samples WHERE run_id = $res AND ((row = 'row-2' AND round = 3) OR
	(row = 'row-1' AND iteration = 4)); UPDATE runs SET status = 'interrupted' WHERE id = $res"
: >"$tmp/log"
check "a run of 3 rounds resumes" kb run -q --resume res
is "only the missing samples run, round by round" "$(log)" "1 2 2"
is "the run holds each (row, round, iteration) once, as a clean run does" \
	"$(sql "SELECT count(*) || ' ' || count(DISTINCT row || round || '.' || iteration) || ' ' ||
		group_concat(DISTINCT round) FROM samples WHERE run_id = $res")" "18 18 1,2,3"

fresh
printf '100\n102\n101\n101\n101\n101\n' >"$tmp/values.1"
conf ares 'iterations = auto' 'rounds = 2' 'max_iterations = 5'
run -c "$tmp/ares.conf" -n ares
ares=$(sql "SELECT max(id) FROM runs")
before=$(sql "SELECT count(*) FROM samples WHERE run_id = $ares")
# Round 2 was cut short: its row results and row 3's last sample are lost.
sql_write "DELETE FROM row_results WHERE run_id = $ares AND round = 2;
	DELETE FROM samples WHERE run_id = $ares AND round = 2 AND row = 'row-3' AND
	iteration = (SELECT max(iteration) FROM samples WHERE run_id = $ares AND row = 'row-3');
	UPDATE runs SET status = 'interrupted' WHERE id = $ares"
: >"$tmp/log"
check "a run with iterations = auto resumes" kb run -q --resume ares
is "the stop rule reads the stored samples: only row 3 takes one more" "$(log)" "3"
is "... and every round of every row says how it ended" \
	"$(sql "SELECT count(*) || ' ' || (SELECT count(*) FROM samples WHERE run_id = $ares)
		FROM row_results WHERE run_id = $ares")" "6 $before"
# Killed after its last sample, before saying how round 2 ended.
sql_write "DELETE FROM row_results WHERE run_id = $ares AND round = 2;
	UPDATE runs SET status = 'interrupted' WHERE id = $ares"
: >"$tmp/log"
check "a run whose samples are all there resumes" kb run -q --resume ares
is "... runs nothing and records how its rows ended, with their stored counts" \
	"$(log)|$(sql "SELECT count(*) FROM row_results r WHERE run_id = $ares AND
		iterations = (SELECT count(*) FROM samples s WHERE s.run_id = r.run_id AND
		s.round = r.round AND s.row = r.row)")" "|6"

# ---- bundles ----
check "runs with rounds and row results export" kb export -o "$tmp/r.kbb" res auto
db2=$tmp/other.db
check "... and import" "$KBENCH" --db "$db2" import "$tmp/r.kbb"
is "the rounds and row results travel with them" \
	"$("$KB_SQL" "$db2" "SELECT group_concat(DISTINCT round) || ' ' ||
		(SELECT count(*) FROM row_results) FROM samples")" "1,2,3 3"

# ---- compare: rounds as replicates ----
fresh
conf rep 'rounds = 3' 'iterations = 3'
run -c "$tmp/rep.conf" -n rep1 && run -c "$tmp/rep.conf" -n rep2
is "with 3 rounds or more, the footer says rounds are nested in their run" \
	"$(kb compare rep1 rep2 | grep -A2 '^Replicates')" \
"Replicates: rep1 3 rounds, rep2 3 rounds per side; rounds are nested in their
  run: a run of 3 rounds or more narrows the round-to-round part of the noise,
  the run-to-run part still counts once per run."
# Rounds are not runs: two runs of 3 rounds leave the drift between runs
# unknown, a third run gives it.
kb compare rep1 rep2 | grep -q "^Between-run noise unknown (fewer than 3 stored runs"
ok $? "... and two runs of 3 rounds do not make a between-run noise"
run -c "$tmp/rep.conf" -n rep1 &&
	kb compare rep1 rep2 | grep -q "^Between-run noise: from 3 stored runs (9 rounds)"
ok $? "... a third run does, and the footer counts runs and rounds apart"
kb compare rows interleaved | grep -q "^Replicates: rows 2 rounds, interleaved 2 rounds per side; fewer than 3"
ok $? "with fewer than 3 rounds, each run is one replicate"

# ---- bad input ----
bad() {	# bad DESCRIPTION MESSAGE KEY=VALUE...
	b_desc=$1 b_msg=$2
	shift 2
	conf bad "$@"
	expect_transcript "$b_desc" kb run -c "$tmp/bad.conf" <<EOF
\$ kb run -c TMP/bad.conf
2> kbench: $b_msg
[exit 2]
EOF
}
bad "ci_target must be a percentage above 0" \
	"TMP/bad.conf:5: ci_target = '0%' in [global]: expected a percentage above 0 and below 100, such as 2% or 2" \
	'iterations = auto' 'ci_target = 0%'
bad "ci_target must be below 100" \
	"TMP/bad.conf:5: ci_target = '100' in [global]: expected a percentage above 0 and below 100, such as 2% or 2" \
	'iterations = auto' 'ci_target = 100'
bad "ci_target must be a number" \
	"TMP/bad.conf:4: ci_target = '2 %' in [global]: expected a percentage above 0 and below 100, such as 2% or 2" \
	'ci_target = 2 %' 'iterations = auto'
bad "ci_target is decimal, not hex" \
	"TMP/bad.conf:5: ci_target = '0x1%' in [global]: expected a percentage above 0 and below 100, such as 2% or 2" \
	'iterations = auto' 'ci_target = 0x1%'
bad "ci_target is a number, not nan" \
	"TMP/bad.conf:5: ci_target = 'nan' in [global]: expected a percentage above 0 and below 100, such as 2% or 2" \
	'iterations = auto' 'ci_target = nan'
bad "max_iterations below min_iterations is refused at its line" \
	"TMP/bad.conf:6: max_iterations = 4 in [ext] is below min_iterations = 5" \
	'iterations = auto' 'min_iterations = 5' 'max_iterations = 4'
bad "min_iterations is at least 2" \
	"TMP/bad.conf:4: invalid value '1' for 'min_iterations': expected an integer from 2 to 1000000 (in [global])" 'min_iterations = 1'
bad "a seed is a whole number" \
	"TMP/bad.conf:4: seed = '-1' in [global]: expected an integer from 0 to 18446744073709551615" \
	'seed = -1'
bad "an unknown sample order lists the choices" \
	"TMP/bad.conf:4: invalid value 'shufle' for 'sample_order': expected one of rows|rounds|shuffle (did you mean 'shuffle'?) (in [global])" \
	'sample_order = shufle'
bad "a misspelt key suggests rounds" \
	"TMP/bad.conf:4: unknown key 'round' in [global] (did you mean 'rounds'?)" 'round = 3'
bad "rounds has a maximum" \
	"TMP/bad.conf:4: invalid value '1001' for 'rounds': expected an integer from 1 to 1000 (in [global])" 'rounds = 1001'
bad "iterations takes a count or auto" \
	"TMP/bad.conf:4: invalid value 'aut' for 'iterations': expected an integer from 1 to 1000000, or auto (in [global])" \
	'iterations = aut'

# ---- --dry-run shows rounds, the order and auto's bounds ----
conf dry 'rounds = 3' 'sample_order = shuffle' 'seed = 42' 'iterations = auto' 'ci_target = 3%'
# The options are wrapped at 80 columns: a command naming the temporary
# directory would wrap where that path's length puts it. A dry run runs
# nothing, so the command is a fixed text.
sed -i "s|sh $tmp/wl.sh|sh /opt/wl.sh|" "$tmp/dry.conf"
expect_transcript "--dry-run shows rounds, sample_order, seed and auto's bounds" \
	kb run -c "$tmp/dry.conf" --dry-run <<'EOF'
$ kb run -c TMP/dry.conf --dry-run
section                      workload   iters warmup  rows
ext                          external    <=30      0  rows row-1 row-2 row-3
270 samples in all (warm-up included)

Effective options:
  [ext] iterations=auto min_iterations=3 max_iterations=30 ci_target=3%
    warmup=0 timeout=600 rounds=3 sample_order=shuffle seed=42
    workload=external monitors=none param.row=1 2 3 command=sh /opt/wl.sh {row}
    metric.v=v=(?<value>[0-9.]+) better.v=higher

estimate                     plan       last run of the same options here
ext                          unknown    none
estimated duration: unknown (no a-priori figure, no earlier run here)
[exit 0]
EOF

done_testing
