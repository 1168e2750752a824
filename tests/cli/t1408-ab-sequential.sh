#!/bin/sh
# t1408-ab-sequential: kbench ab --rounds auto (a group-sequential design)
# on an external workload whose values come from known sequences, one
# sample an arm a round: a clear change stops at the first look, two arms
# alike stop there as "no change", a change the rounds cannot resolve
# ends at the most rounds with "cannot tell" and the rounds it would
# need, and watch narrows the rows that decide. Every look is stored; the
# report reads the paired t against the look's bound, not Student's; the
# design goes with the arms' runs, so a resume and a compare read it
# again; bad designs are refused with what was expected.
# Covers: experiment/ab_looks.c compare/sequential.c experiment/experiment.c experiment/experiment_dry_run.c experiment/experiment_design.c compare/verdict.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# The workload: arm A, row R prints the next value of $tmp/values.A.R
# (100 once the file runs out).
cat >"$tmp/wl.sh" <<'EOF'
#!/bin/sh
d=$(dirname "$0")
n=$(cat "$d/count.$1.$2" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" >"$d/count.$1.$2"
v=$(sed -n "${n}p" "$d/values.$1.$2" 2>/dev/null)
echo "v=${v:-100}"
EOF
# conf NAME ROWS [EXPERIMENT-KEY...]: $tmp/NAME.conf, arms a and b.
conf() {
	f=$tmp/$1.conf rows=$2
	shift 2
	{
		printf '[experiment]\n'
		printf '%s\n' "$@"
		printf '\n[arm:a]\noption.command = sh %s/wl.sh a {row}\n' "$tmp"
		printf '\n[arm:b]\noption.command = sh %s/wl.sh b {row}\n' "$tmp"
		printf '\n[ext]\nworkload = external\nmonitors = none\nparam.row = %s\n' "$rows"
		printf 'command = sh %s/wl.sh x {row}\n' "$tmp"
		printf 'metric.v = v=(?<value>[0-9.]+)\nbetter.v = lower\n'
		printf 'iterations = 1\nwarmup = 0\n'
	} >"$f"
}
# values ARM ROW V...: the values arm ARM prints for row ROW, in order.
values() {
	f=$tmp/values.$1.$2
	shift 2
	printf '%s\n' "$@" >"$f"
}
fresh() { rm -f "$tmp"/count.* "$tmp"/values.*; }
looks() { grep -o 'look [0-9]*/[0-9]* after .*' "$tmp/out"; }

# ---- a clear change stops at the first look ----
fresh
conf change 1 'rounds = auto' 'max-rounds = 12'
values a 1 100 101 99 100 102 98 100 100 100 100 100 100
values b 1 150 149 151 150 152 148 150 150 150 150 150 150
kb ab -c "$tmp/change.conf" -n change >"$tmp/out" 2>&1
ok $? "kbench ab --rounds auto (rounds = auto in the config) ends with status 0"
is "the first look decides the change and stops it" "$(looks)" \
"look 1/5 after 4 rounds: every watched row decided (1 changed, 0 no change larger than 5%): the experiment stops"
is "... after 4 rounds of each arm" \
	"$(sql "SELECT rounds || ' ' || status || ' ' || design FROM experiments WHERE name = 'change'")" \
	"4 complete sequential min-rounds=4 max-rounds=12 look-every=2 alpha=0.05 equivalence=5%"
is "... its look is stored with its interval and bound" \
	"$(sql "SELECT look, rounds, arm, section, row, stat, round(pct, 2), round(lo_pct, 2) < round(pct, 2), round(hi_pct, 2) > round(pct, 2), round(bound, 2), decision, watched FROM experiment_looks")" \
	"1|4|b|ext|row-1|Amean|-50.0|1|1|14.67|change|1"
is "the arms' runs are complete, and hold the design" \
	"$(sql "SELECT r.status || ' ' || m.value FROM runs r JOIN run_meta m ON m.run_id = r.id AND m.key = 'experiment-design' ORDER BY r.id")" \
	"complete sequential min-rounds=4 max-rounds=12 look-every=2 alpha=0.05 equivalence=5%
complete sequential min-rounds=4 max-rounds=12 look-every=2 alpha=0.05 equivalence=5%"
kb compare change/a change/b >"$tmp/cmp" 2>&1
ok $? "kbench compare of the arms"
check "... stars the change" grep -Eq '^Amean +row-1 .*[*] *-50\.00%[*]' "$tmp/cmp"
check "... and says the bound it read the t against" grep -q \
	"sequential: |t| >= 14.67 at look 1 of 5, O'Brien-Fleming" "$tmp/cmp"
kb compare --paired nested change/a change/b >"$tmp/cmp" 2>&1
ok $? "kbench compare --paired nested of a sequential experiment's arms"
tr '\n' ' ' <"$tmp/cmp" | tr -s ' ' >"$tmp/cmp1"
check "... says the nested model is not applied, its bounds being the paired t's" grep -qF \
	"O'Brien-Fleming alpha spending (--paired nested is not applied with a sequential design: its bounds are for the paired t)" \
	"$tmp/cmp1"
check "... and reads the same bound" grep -q "|t| >= 14.67 at look 1 of 5" "$tmp/cmp1"
kb compare --paired nested --format json change/a change/b >"$tmp/json" 2>&1
check "... its json basis stays paired-rounds" grep -q '"basis": *"paired-rounds"' "$tmp/json"

# ---- two arms alike stop as no change ----
fresh
conf same 1 'rounds = auto' 'max-rounds = 12'
values a 1 100 100 100 100
values b 1 100.2 99.8 100.1 99.9
kb ab -c "$tmp/same.conf" -n same --no-report >"$tmp/out" 2>&1
ok $? "two arms alike"
is "... stop at the first look: no change larger than 5%" "$(looks)" \
"look 1/5 after 4 rounds: every watched row decided (0 changed, 1 no change larger than 5%): the experiment stops"

# ---- a change the rounds cannot resolve ----
fresh
conf open 1
values b 1 130 75 125 70 128 74 126 72
kb ab -c "$tmp/open.conf" -n open --rounds auto --max-rounds 8 --equivalence 2% \
	--no-report >"$tmp/out" 2>&1
ok $? "an unresolved change ends with status 0"
is "... each look says what it waits on, the last cannot tell and the rounds it needs" \
	"$(looks)" \
"look 1/3 after 4 rounds: 0 of 1 watched rows decided (0 changed, 0 no change); waiting on b ext Amean row-1 +0.00% [-114.41%, +114.41%] to exclude 0 or fit within +/-2%
look 2/3 after 6 rounds: 0 of 1 watched rows decided (0 changed, 0 no change); waiting on b ext Amean row-1 -0.33% [-41.93%, +41.26%] to exclude 0 or fit within +/-2%
look 3/3 after 8 rounds: 0 of 1 watched rows decided (0 changed, 0 no change); cannot tell for 1: b ext Amean row-1 +0.00% [-26.75%, +26.75%] would need about 1432 rounds"
is "... all 8 rounds ran, and every look is stored" \
	"$(sql "SELECT e.rounds, (SELECT group_concat(decision, ',') FROM experiment_looks l WHERE l.experiment_id = e.id) FROM experiments e WHERE name = 'open'")" \
	"8|go on,go on,cannot tell"

kb experiments open >"$tmp/x" 2>&1
ok $? "kbench experiments shows the experiment"
is "... with its design and its looks" "$(grep -E '^  (design|looks|  ) ' "$tmp/x" | sed -n 1,4p)" \
"  design      arms a b; 8 rounds, order abba; sequential min-rounds=4 max-rounds=8 look-every=2 alpha=0.05 equivalence=2%
  looks       1 after 4 rounds: 0 of 1 watched rows decided (0 changed, 0 no change); go on: b ext Amean row-1 +0.00% [-114.41%, +114.41%]
              2 after 6 rounds: 0 of 1 watched rows decided (0 changed, 0 no change); go on: b ext Amean row-1 -0.33% [-41.93%, +41.26%]
              3 after 8 rounds: 0 of 1 watched rows decided (0 changed, 0 no change); cannot tell: b ext Amean row-1 +0.00% [-26.75%, +26.75%]"
kb experiments --format json open >"$tmp/x.json" 2>&1
is "... and in JSON, every row of every look" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["design"]); print(" ".join("%d:%s:%s" % (l["look"], l["row"], l["decision"]) for l in d["looks"]))' "$tmp/x.json")" \
"sequential min-rounds=4 max-rounds=8 look-every=2 alpha=0.05 equivalence=2%
1:row-1:go on 2:row-1:go on 3:row-1:cannot tell"

# ---- peeking is paid for: a t past Student's bound does not stop a look ----
fresh
conf peek 1 'rounds = auto' 'max-rounds = 12'
values b 1 110 104 112 103 110 104 112 103 110 104 112 103
kb ab -c "$tmp/peek.conf" -n peek --no-report >"$tmp/out" 2>&1
t=$(sql "SELECT round(t, 1) FROM experiment_looks l JOIN experiments e ON e.id = l.experiment_id WHERE e.name = 'peek' AND look = 1")
check "the first look's |t| ($t) is past Student's 3.18 for 3 degrees of freedom" \
	awk -v t="$t" 'BEGIN { exit !(t < -3.18 || t > 3.18) }'
is "... yet below the look's bound: the experiment goes on" \
	"$(sql "SELECT decision FROM experiment_looks l JOIN experiments e ON e.id = l.experiment_id WHERE e.name = 'peek' AND look = 1")" \
	"go on"

# ---- watch: only the rows it matches decide ----
fresh
conf watch '1 2' 'rounds = auto' 'max-rounds = 8' 'watch = ^ext/row-1$'
values a 1 100 100 100 100
values b 1 150 151 149 150
values b 2 130 75 125 70 128 74 126 72
kb ab -c "$tmp/watch.conf" -n watch --no-report >"$tmp/out" 2>&1
ok $? "watch = ^ext/row-1\$"
is "... stops at the first look although row 2 is open" "$(looks)" \
"look 1/3 after 4 rounds: every watched row decided (1 changed, 0 no change larger than 5%): the experiment stops"
is "... and stores both rows, row 2 unwatched" \
	"$(sql "SELECT row, decision, watched FROM experiment_looks l JOIN experiments e ON e.id = l.experiment_id WHERE e.name = 'watch' ORDER BY row")" \
	"row-1|change|1
row-2|go on|0"

# ---- the dry run shows the looks and their bounds ----
kb ab -c "$tmp/open.conf" --rounds auto --max-rounds 8 --dry-run >"$tmp/dry" 2>&1
ok $? "the dry run of a sequential design"
is "... shows its looks and their bounds" "$(sed -n 1,4p "$tmp/dry")" \
"Experiment open: 2 arms, 4 to 8 rounds (sequential), order abba
Looks: after rounds 4, 6, 8
|t| that decides a change (O'Brien-Fleming, alpha 0.05 over all looks): 7.18, 3.39, 2.59
Stops when every mean row is decided: a change, or no change larger than 5%"

# ---- bad designs ----
expect_err "--max-rounds without --rounds auto is refused" 2 \
	"min-rounds, max-rounds, look-every, equivalence and watch belong to a sequential design" \
	kb ab -c "$tmp/open.conf" --max-rounds 8 --dry-run
conf bad 1 'rounds = often'
expect_err "rounds = often is refused, with its file and line" 2 \
	"$tmp/bad.conf:2: rounds = 'often' in [experiment]: expected auto (a sequential design) or an integer from 1 to 1000" \
	kb ab -c "$tmp/bad.conf" --dry-run
conf bad 1 'rounds = auto' 'equivalence = lots'
expect_err "equivalence = lots is refused" 2 \
	"$tmp/bad.conf:3: equivalence = 'lots' in [experiment]: expected a percentage from 0 to 100" \
	kb ab -c "$tmp/bad.conf" --dry-run
expect_err "--equivalence 120 is refused" 2 \
	"--equivalence takes a percentage from 0 to 100, not '120'" \
	kb ab -c "$tmp/open.conf" --rounds auto --equivalence 120 --dry-run
expect_err "a first look after more rounds than the most is refused" 2 \
	"the sequential design: the most rounds (5) are fewer than the first look's (6)" \
	kb ab -c "$tmp/open.conf" --rounds auto --min-rounds 6 --max-rounds 5 --dry-run
expect_err "a watch that is not a regular expression is refused" 2 \
	"watch '(': " kb ab -c "$tmp/open.conf" --rounds auto --watch '(' --dry-run
# Before, a watch that matched no row ran every round (24 by default),
# warning at each look; and the store was made before the arguments were
# checked.
expect_err "a watch that matches no row is refused before any round" 2 \
	"watch 'nosuch' matches no row of the experiment: it is matched against SECTION/ROW, its rows are 'ext/row-1'" \
	"$KBENCH" --db "$tmp/none.db" ab -c "$tmp/open.conf" --rounds auto --watch nosuch
check "... and no store is made" test ! -e "$tmp/none.db"
# A knob the user cannot write: refused, and (before, it was made
# first) no store is made. Root writes any knob, so as nobody.
{
	printf '[arm:a]\nsysctl.vm.swappiness = 10\n[arm:b]\nsysctl.vm.swappiness = 20\n'
	printf '[ext]\nworkload = external\nmonitors = none\ncommand = true\n'
	printf 'metric.v = v=(?<value>[0-9.]+)\nbetter.v = lower\n'
} >"$tmp/knob.conf"
chmod 0755 "$tmp"
chmod 0644 "$tmp/knob.conf"
mkdir "$tmp/nb" && chmod 0777 "$tmp/nb"
as_nobody() {
	if [ "$(id -u)" -ne 0 ]; then "$@"
	else setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; fi
}
if ! as_nobody "$KBENCH" --version >/dev/null 2>&1 || ! as_nobody test -r "$tmp/knob.conf"; then
	skip "cannot run kbench as a user who may not write knobs (needs setpriv as root, or a \
non-root user, and a build tree others may read)"
	skip "no user who may not write knobs"
else
	expect_err "a knob the user cannot write is refused" 2 \
		"cannot write /proc/sys/vm/swappiness: Permission denied (changing it needs root); nothing was changed or run" \
		as_nobody "$KBENCH" --db "$tmp/nb/k.db" ab -c "$tmp/knob.conf"
	check "... and no store is made" test ! -e "$tmp/nb/k.db"
fi
conf nowatch 1 'rounds = auto' 'watch = ^ext/row-2$'
expect_err "... as watch = in [experiment]" 2 "watch '^ext/row-2\$' matches no row" \
	kb ab -c "$tmp/nowatch.conf" --dry-run
expect_err "--rounds sometimes is refused" 2 \
	"--rounds takes auto or an integer from 1 to 1000, not 'sometimes'" \
	kb ab -c "$tmp/open.conf" --rounds sometimes --dry-run
expect_err "--resume takes the design from the store" 2 \
	"--resume takes the experiment's configs and design from the store" \
	kb ab --resume open --rounds auto

done_testing
