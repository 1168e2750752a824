#!/bin/sh
# t1531-bisect-args: kbench bisect refuses what it cannot bisect before
# building or booting anything, each time saying why, and stores no
# bisection. A usage error, exit status 2: a missing tree, end or config,
# a bad --row,
# --threshold, --rounds, --max-rounds or --accel, a config with arms of its
# own, an -o of a key no section takes, an --only no section matches, and
# the options of a stored bisection mixed with a new one's (-o and --only
# among them); -o and --only that fit are taken. A
# failure, exit status 1, as for kbench build: a tree that is not there or
# not a git tree, a ref git does not know, ends that are the same commit
# or not in order. With
# no bisection stored, --list, --log, --report and --resume say so. Costs
# a second: no guest is booted.
# Covers: cli/cmd_bisect.c bisect/bisect_run.c db/bisect.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

git init -q "$tmp/tree" &&
	git -C "$tmp/tree" -c user.name=T -c user.email=t@example.org commit -q --allow-empty \
		-m one &&
	git -C "$tmp/tree" -c user.name=T -c user.email=t@example.org commit -q --allow-empty \
		-m two &&
	git -C "$tmp/tree" tag one HEAD~1
ok $? "a tree of two commits"
printf '[hb]\nworkload = hackbench\ngroups = 1\nloops = 10\niterations = 2\n' > "$tmp/hb.conf"
printf '[arm:a]\n\n[hb]\nworkload = hackbench\n' > "$tmp/arms.conf"
T="--tree $tmp/tree"

refused() {	# refused DESC TEXT ARGS...
	desc=$1 text=$2
	shift 2
	expect_err "$desc" 2 "$text" kb bisect "$@"
}
failed() {	# failed DESC TEXT ARGS...: what git says of the tree, exit 1
	desc=$1 text=$2
	shift 2
	expect_err "$desc" 1 "$text" kb bisect "$@"
}

refused "a tree is needed" "a bisection needs --tree DIR, --good REF and --bad REF" \
	--good one --bad HEAD -c "$tmp/hb.conf"
refused "... and the ends" "a bisection needs --tree DIR, --good REF and --bad REF" \
	$T --good one -c "$tmp/hb.conf"
refused "a config is needed" "no config given: use -c FILE" $T --good one --bad HEAD
failed "a tree that is not there" "--tree '$tmp/none': No such file or directory" \
	--tree "$tmp/none" --good one --bad HEAD -c "$tmp/hb.conf"
# (git looks no further up than $tmp for a repository: the build tree
# may be in one)
mkdir "$tmp/plain"
GIT_CEILING_DIRECTORIES=$tmp expect_err "a directory that is not a git tree" 1 \
	"--tree '$tmp/plain' is not a git tree (git rev-parse failed: fatal: not a git repository" \
	kb bisect --tree "$tmp/plain" --good one --bad HEAD -c "$tmp/hb.conf"
failed "a ref git does not know" "'nope' is not a commit of the tree $tmp/tree" \
	$T --good nope --bad HEAD -c "$tmp/hb.conf"
failed "the same commit twice" "--good and --bad are the same commit" \
	$T --good HEAD --bad "$(git -C "$tmp/tree" rev-parse HEAD)" -c "$tmp/hb.conf"
failed "ends in the wrong order" "is not an ancestor of the bad one" \
	$T --good HEAD --bad one -c "$tmp/hb.conf"
refused "--row without a row" "--row 'hb': expected SECTION/ROW" \
	$T --good one --bad HEAD -c "$tmp/hb.conf" --row hb
refused "--row of a section the config lacks" "--row 'hackbench/1': the config has no section 'hackbench'" \
	$T --good one --bad HEAD -c "$tmp/hb.conf" --row hackbench/1
# Before, a row the plan lacks was taken, --dry-run too.
refused "--row of a row the plan lacks, with --dry-run" \
	"--row 'hb/99': the plan has no such row; its rows are 'hb/1'" \
	$T --good one --bad HEAD -c "$tmp/hb.conf" --row hb/99 --dry-run
check "--row of a row it has is taken" \
	kb bisect $T --good one --bad HEAD -c "$tmp/hb.conf" --row hb/1 --dry-run
refused "--threshold out of range" "--threshold must be a percentage from 0 to 100, not 150" \
	$T --good one --bad HEAD -c "$tmp/hb.conf" --threshold 150
refused "--rounds below the paired test's 3" "--rounds" \
	$T --good one --bad HEAD -c "$tmp/hb.conf" --rounds 2
refused "--max-rounds below --rounds" "--max-rounds 4 is fewer than --rounds 6" \
	$T --good one --bad HEAD -c "$tmp/hb.conf" --max-rounds 4
refused "more looks than the sequential design takes" "--rounds 3 and --max-rounds 300: 3 to 300 rounds, a look every 3: more than 64 looks" \
	$T --good one --bad HEAD -c "$tmp/hb.conf" --rounds 3 --max-rounds 300
refused "a bad --accel" "--accel must be auto, kvm or tcg, not 'xen'" \
	$T --good one --bad HEAD -c "$tmp/hb.conf" --accel xen
refused "a config with arms of its own" "[arm:a]: kbench bisect makes the arms of its experiments" \
	$T --good one --bad HEAD -c "$tmp/arms.conf"
printf '[hb2]\nworkload = hackbench\ngrups = 1\n' > "$tmp/typo.conf"
refused "a config's own errors" "unknown key 'grups' in [hb2]" \
	$T --good one --bad HEAD -c "$tmp/hb.conf" -c "$tmp/typo.conf"
refused "-o of a key no section takes" "-o 'grups=1': unknown key 'grups' in [global] (did you mean 'groups'?)" \
	$T --good one --bad HEAD -c "$tmp/hb.conf" -o grups=1 --dry-run
refused "--only that no section matches" "no section matches --only" \
	$T --good one --bad HEAD -c "$tmp/hb.conf" --only nomatch --dry-run
check "-o and --only that fit are taken" \
	kb bisect $T --good one --bad HEAD -c "$tmp/hb.conf" -o hb.loops=5 --only hb --dry-run
refused "--resume with the options of a new one" "--resume, --log, --report and --list take a stored bisection" \
	--resume $T
refused "... -o among them" "--resume, --log, --report and --list take a stored bisection: --tree, --good, --bad, -c, -o, --only, --row" \
	--resume -o loops=5
refused "... and --only" "--resume, --log, --report and --list take a stored bisection" \
	--report --only hb
refused "two of --resume, --log, --report, --list" "--resume, --log, --report and --list go one at a time" \
	--log --report
refused "--mail without --report" "--mail goes with --report" --log --mail a@example.org
refused "an argument too many" "unexpected argument 'x'" --log 1 x
expect_err "mail --bisect with comparison arguments" 2 \
	"--bisect mails a bisection's report: no comparison arguments ('a')" \
	kb mail --to x@example.org --from y@example.org --dry-run --bisect 1 -- a b

# --dry-run lists the commits on the bad end's first-parent line: a
# merged branch is its merge.
(
	cd "$tmp/tree" &&
	c() { git -c user.name=T -c user.email=t@example.org commit -q --allow-empty -m "$1"; } &&
	git checkout -q -b topic one && c t1 && c t2 && git checkout -q - &&
	git -c user.name=T -c user.email=t@example.org merge -q --no-ff -m "merge topic" topic &&
	c three
)
ok $? "a merge of a branch of two commits, and a commit after it"
expect_transcript -e 's/[0-9a-f]{12}/COMMIT/g' "--dry-run: the commits, a merge marked" \
	kb bisect $T --good one --bad HEAD -c "$tmp/hb.conf" --rounds 3 --dry-run <<'EOF'
$ kb bisect --tree TMP/tree --good one --bad HEAD -c TMP/hb.conf --rounds 3 --dry-run
3 commits after COMMIT (good) up to COMMIT (bad), on its first-parent line:
  COMMIT two
  COMMIT merge topic (a merge)
  COMMIT three (the bad end)
Step 0 runs the good end against the bad end, 3 to 12 rounds; step 1 tests COMMIT beside them; roughly 2 steps after step 0.
[exit 0]
EOF
is "nothing stored" "$(sql 'SELECT count(*) FROM bisects')" 0
check "--list of none" kb bisect --list
is "... says so" "$(cat "$tmp/check.out")" "No bisection in the store."
expect_err "--log of none" 1 "no bisection in the store (kbench bisect --tree DIR" kb bisect --log
expect_err "--report of an unknown one" 1 "no bisection '7' in the store (kbench bisect --list lists them)" \
	kb bisect --report 7
expect_err "--resume of none" 1 "no bisection in the store" kb bisect --resume

done_testing
