#!/bin/sh
# t1545-build-edges: kbench build's edges (kernel/kbuild.c,
# cli/cmd_build.c): two builds of one commit from two clones into one
# cache at once (the one that loses the race to store it takes the
# other's entry: a cache hit, no failed/ log); --timeout and bisect's
# --build-timeout bounded (at most 7 days, else a usage error); a dirty
# tree's uncommitted changes said not to be built; --tree DIR/.git
# refused naming the work tree; --ref '' a usage error. On
# lib-kbuild.sh's small tree.
# Covers: kernel/kbuild.c kernel/kbuild_resolve.c cli/cmd_build.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-kbuild.sh"
GIT_CEILING_DIRECTORIES=$tmp
export GIT_CEILING_DIRECTORIES
cache=$tmp/kcache
export KBENCH_KERNEL_CACHE="$cache"

printf 'fake kernel A\n' >"$tmp/image-a"
printf 'fake kernel B\n' >"$tmp/image-b"
tree=$tmp/linux
kbuild_fake_tree "$tree" 1 0 "$tmp/image-a" "$tmp/image-b"
ok $? "a tree of one commit"
kbuild_commit "$tree" "fake: a slow build" slow 2 >/dev/null
slow=$kbuild_commit_id

# Two clones of the tree: two slots of the cache, one entry.
git clone -q "$tree" "$tmp/clone1" && git clone -q "$tree" "$tmp/clone2"
ok $? "two clones"
"$KBENCH" build --tree "$tmp/clone1" --ref "$slow" >"$tmp/r1.out" 2>"$tmp/r1.err" &
p1=$!
"$KBENCH" build --tree "$tmp/clone2" --ref "$slow" >"$tmp/r2.out" 2>"$tmp/r2.err" &
p2=$!
wait $p1
rc1=$?
wait $p2
rc2=$?
diag "first: $(cat "$tmp/r1.err" | tr '\n' '|')"
diag "second: $(cat "$tmp/r2.err" | tr '\n' '|')"
is "two builds of one commit at once both succeed" "$rc1 $rc2" "0 0"
is "both built (two slots)" "$(cat "$cache"/work/*/obj/builds | tr '\n' ' ')" "1 1 "
cat "$tmp/r1.err" "$tmp/r2.err" | grep -c "^kbench: notice: v1.0-1-g[0-9a-f]* was stored meanwhile by another build of it: using that one\$" >"$tmp/n"
is "the one that lost the race says it takes the other's entry" "$(cat "$tmp/n")" 1
is "both name the one entry's image" \
	"$(sed -n 's/^image  *//p' "$tmp/r1.out")" "$(sed -n 's/^image  *//p' "$tmp/r2.out")"
! ls "$cache/failed" >/dev/null 2>&1 && [ -z "$(ls "$cache/tmp")" ]
ok $? "no failed log, nothing left in tmp/"

# The bound on a build.
expect_err "--timeout 1e11 is refused" 2 \
	"--timeout takes seconds from 0 (the default, 7200 s) to 604800 (7 days), not 1e+11" \
	kb build --tree "$tree" --timeout 1e11
expect_err "--timeout 99999999999999999999 is refused" 2 \
	"--timeout takes seconds from 0 (the default, 7200 s) to 604800 (7 days), not 1e+20" \
	kb build --tree "$tree" --timeout 99999999999999999999
check "--timeout 604800 is taken" kb build --tree "$tree" --timeout 604800 --dry-run
printf '[hb]\nworkload = hackbench\ngroups = 1\nloops = 10\niterations = 2\n' >"$tmp/hb.conf"
expect_err "bisect's --build-timeout 1e11 is refused" 2 \
	"--build-timeout takes seconds from 0 (the default, 7200 s) to 604800 (7 days), not 1e+11" \
	kb bisect --tree "$tree" --good v1.0 --bad HEAD -c "$tmp/hb.conf" \
	--build-timeout 1e11 --dry-run

# A dirty tree: what is not committed is not built, and said.
check "a clean tree: nothing said" kb build --tree "$tree" --dry-run
! grep -q "uncommitted" "$tmp/check.err"
ok $? "no warning"
echo "not committed" >>"$tree/image"
check "a dirty tree builds its HEAD" kb build --tree "$tree" --dry-run
grep -q "^kbench: warning: the tree '$tree' has uncommitted changes (1 file): they are not built; v1.0-1-g[0-9a-f]* ([0-9a-f]\{12\}) is built as committed\$" "$tmp/check.err"
ok $? "saying its uncommitted changes are not built"
check "another commit of a dirty tree" kb build --tree "$tree" --ref v1.0 --dry-run
! grep -q "uncommitted" "$tmp/check.err"
ok $? "is not its work tree: nothing said"
git -C "$tree" checkout -q -- image

# Bad trees and refs.
expect_err "--tree DIR/.git is refused, naming the tree" 1 \
	"'$tree/.git' is the git directory of a work tree, not a tree: give the work tree (--tree $(cd "$tree" && pwd -P))" \
	kb build --tree "$tree/.git" --dry-run
expect_err "--ref '' is a usage error" 2 \
	"--ref is empty: give the commit to build (an id, tag, branch...)" \
	kb build --tree "$tree" --ref ''

done_testing
