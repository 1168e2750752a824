#!/bin/sh
# t1540-build-cache: kbench build on a small git tree with the kernel's
# build interface (lib-kbuild.sh): a commit built into the cache and
# found there the second time, a neighbouring commit built in the same
# object directory, the user's work tree and index untouched, --dry-run,
# a failed build (its error, the log's tail, nothing cached), an option a
# fragment sets that olddefconfig drops, a build killed (kill -9,
# SIGTERM, --timeout) leaving no entry, and bad trees and refs.
# Covers: cli/cmd_build.c kernel/kbuild.c kernel/kbuild_resolve.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-kbuild.sh"
# git looks no further up than the scratch directory (itself inside
# kbench's tree).
GIT_CEILING_DIRECTORIES=$tmp
export GIT_CEILING_DIRECTORIES

printf 'fake kernel A\n' >"$tmp/image-a"
printf 'fake kernel B\n' >"$tmp/image-b"
tree=$tmp/linux
kbuild_fake_tree "$tree" 3 3 "$tmp/image-a" "$tmp/image-b"
ok $? "a tree of three commits, the third switching kernels"
set -- $kbuild_commits
c1=$1 c2=$2 c3=$3
cache=$tmp/kcache
export KBENCH_KERNEL_CACHE="$cache"

# The user's work: a change staged, one not, an untracked file.
echo "staged" >>"$tree/kernels.mk"
git -C "$tree" add kernels.mk
echo "not staged" >>"$tree/image"
echo "mine" >"$tree/untracked.c"
git -C "$tree" status --porcelain=v1 --untracked-files=all >"$tmp/status.before"
git -C "$tree" diff --cached >"$tmp/cached.before"
git -C "$tree" diff >"$tmp/diff.before"
head_before=$(git -C "$tree" rev-parse HEAD)

check "kbench build builds the first commit" kb build --tree "$tree" --ref v1.0
cp "$tmp/check.out" "$tmp/build1.out"
cp "$tmp/check.err" "$tmp/build1.err"
image=$(sed -n 's/^image  *//p' "$tmp/build1.out")
is "the image is in the commit's entry" "$image" \
	"$(ls -d "$cache"/entries/"$c1"-*)/bzImage"
cmp -s "$image" "$tmp/image-a"
ok $? "the image is what the commit's build made"
is "the facts of the commit" \
	"$(sed -n 's/^\(commit\|describe\|subject\|author\|tree\|modules\) *//p' "$tmp/build1.out")" \
	"$c1
v1.0
fake: commit 1
Kbench Test <test@kbench.invalid>
$(cd "$tree" && pwd -P)
-"
grep -q "^config      [0-9a-f]\{16\} (tinyconfig + kbench-guest.config)\$" "$tmp/build1.out"
ok $? "the config: its hash, tinyconfig and the guest fragment"
grep -q "^compiler    $(gcc --version | head -1)\$" "$tmp/build1.out"
ok $? "the compiler: gcc's first line"
grep -q "^cache       built in [0-9]*m[0-9][0-9]s\$" "$tmp/build1.out"
ok $? "it says it built"
log=$(sed -n 's/^log  *//p' "$tmp/build1.out")
grep -q "^  LD      arch/x86/boot/bzImage" "$log" && grep -q "^### make bzImage" "$log"
ok $? "make's output is in the entry's build.log"
grep -q "CONFIG_SERIAL_8250_CONSOLE=y" "$(dirname "$image")/config"
ok $? "the entry's config has the guest fragment merged"
grep -q "^kbench: notice: v1.0: make bzImage\$" "$tmp/build1.err"
ok $? "off a terminal, one progress line a step"

git -C "$tree" status --porcelain=v1 --untracked-files=all >"$tmp/status.after"
git -C "$tree" diff --cached >"$tmp/cached.after"
git -C "$tree" diff >"$tmp/diff.after"
cmp -s "$tmp/status.before" "$tmp/status.after" &&
	cmp -s "$tmp/cached.before" "$tmp/cached.after" &&
	cmp -s "$tmp/diff.before" "$tmp/diff.after" &&
	[ "$(git -C "$tree" rev-parse HEAD)" = "$head_before" ]
ok $? "the user's work tree, index and HEAD are as they were"
git -C "$tree" reset -q --hard && rm "$tree/untracked.c"

check "a second build is a cache hit" kb build --tree "$tree" --ref "$c1"
grep -q "^kbench: notice: cache hit: v1.0 is built already, nothing to build\$" "$tmp/check.err" &&
	grep -q "^cache       hit" "$tmp/check.out"
ok $? "it says so"
is "nothing was made" "$(cat "$cache"/work/*/obj/builds)" 1

check "--dry-run of a commit not built" kb build --tree "$tree" --ref "$c3" --dry-run
grep -q "^cache       miss: would be built\$" "$tmp/check.out" &&
	! ls -d "$cache"/entries/"$c3"-* >/dev/null 2>&1
ok $? "it would build, and built nothing"

check "the third commit builds" kb build --tree "$tree" --ref master
image3=$(sed -n 's/^image  *//p' "$tmp/check.out")
cmp -s "$image3" "$tmp/image-b"
ok $? "its image is the second kernel"
is "in the object directory of the first (one build more)" \
	"$(ls "$cache/work" | wc -l) $(cat "$cache"/work/*/obj/builds)" "1 2"
check "--dry-run of a built commit" kb build --tree "$tree" --ref HEAD --dry-run
grep -q "^cache       hit: built already, nothing to build\$" "$tmp/check.out"
ok $? "it is a hit"

# Another config is another slot and another entry.
printf 'CONFIG_FAKE_EXTRA=y\n' >"$tmp/extra.config"
check "a fragment more is another config" \
	kb build --tree "$tree" --ref "$c1" --fragment "$tmp/extra.config"
grep -q "^config      [0-9a-f]\{16\} (tinyconfig + kbench-guest.config + extra.config)\$" \
	"$tmp/check.out" &&
	[ "$(ls -d "$cache"/entries/"$c1"-* | wc -l)" -eq 2 ] &&
	grep -q "^CONFIG_FAKE_EXTRA=y" "$(sed -n 's/^image  *//p' "$tmp/check.out" | xargs dirname)/config"
ok $? "built apart, its option in its config"

# A failed build stores nothing.
kbuild_commit "$tree" "fake: break the build" broken "planted" >/dev/null
bad=$kbuild_commit_id
expect_err "a failed build is an error" 1 \
	"the build of v1.0-3-g${bad%"${bad#???????}"} (${bad%"${bad#????????????}"}) failed: make bzImage exited with status 2" \
	kb build --tree "$tree" --ref "$bad"
grep -q "^    init/main.c:1:1: error: planted\$" "$tmp/err"
ok $? "with the last lines of the log"
failed_log=$(sed -n 's/^the last lines of its log (all of it in \(.*\)):$/\1/p' "$tmp/err")
[ -f "$failed_log" ] && grep -q "error: planted" "$failed_log"
ok $? "the whole log is kept apart: $failed_log"
! ls -d "$cache"/entries/"$bad"-* >/dev/null 2>&1 && [ -z "$(ls "$cache/tmp")" ]
ok $? "nothing is stored for it"
check "its --dry-run still says it would build" kb build --tree "$tree" --ref "$bad" --dry-run
grep -q "^cache       miss" "$tmp/check.out"
ok $? "a miss"

# An option of a fragment that olddefconfig drops.
kbuild_commit "$tree" "fake: drop an option" broken - dropped-options "CONFIG_FAKE_GONE=" \
	>/dev/null
printf '# a fragment\nCONFIG_FAKE_KEPT=y\nCONFIG_FAKE_GONE=y\n' >"$tmp/gone.config"
expect_err "an option olddefconfig drops is an error" 1 \
	"$tmp/gone.config:3: CONFIG_FAKE_GONE=y, but the .config has it not set" \
	kb build --tree "$tree" --ref HEAD --fragment "$tmp/gone.config"
! grep -q "CONFIG_FAKE_KEPT" "$tmp/err"
ok $? "only the missing option is named"

# kill -9 part way: no entry, and the next build cleans up after it.
kbuild_commit "$tree" "fake: a slow build" dropped-options - slow 3 >/dev/null
slow=$kbuild_commit_id
"$KBENCH" build --tree "$tree" --ref "$slow" >"$tmp/k.out" 2>"$tmp/k.err" &
pid=$!
i=0
until grep -qs "^  CC" "$cache"/tmp/*/build.log || [ $i -ge 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -9 $pid
wait $pid
is "a build killed (kill -9) in make bzImage" "$?" 137
ls -d "$cache"/entries/"$slow"-* >/dev/null 2>&1
ok $((!$?)) "leaves no entry"
check "the next build of it completes" kb build --tree "$tree" --ref "$slow"
grep -q "^kbench: notice: the last build in .* was interrupted: removing what it wrote" \
	"$tmp/check.err" && [ -z "$(ls "$cache/tmp")" ]
ok $? "removing what the killed one wrote"
ls -d "$cache"/entries/"$slow"-* >/dev/null 2>&1
ok $? "its entry is there"

kbuild_commit "$tree" "fake: slow again" slow 4.3 >/dev/null
slow2=$kbuild_commit_id
"$KBENCH" build --tree "$tree" --ref "$slow2" >"$tmp/t.out" 2>"$tmp/t.err" &
pid=$!
i=0
until grep -qs "^  CC" "$cache"/tmp/*/build.log || [ $i -ge 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -TERM $pid
wait $pid
is "SIGTERM ends the build with 128+15" "$?" 143
grep -q "the build of v1.0-[0-9]*-g[0-9a-f]* was interrupted: nothing was stored" "$tmp/t.err"
ok $? "saying nothing was stored"
! ls -d "$cache"/entries/"$slow2"-* >/dev/null 2>&1 && [ -z "$(ls "$cache/tmp")" ]
ok $? "and storing nothing"
no_process "sleep 4.3"
ok $? "make and what it started are gone"

kbuild_commit "$tree" "fake: slower" slow 20.3 >/dev/null
expect_err "--timeout kills a build" 1 "killed after the build's 5 s (--timeout)" \
	kb build --tree "$tree" --ref "$kbuild_commit_id" --timeout 5
! ls -d "$cache"/entries/"$kbuild_commit_id"-* >/dev/null 2>&1 && no_process "sleep 20.3"
ok $? "and stores nothing, leaving nothing running"

# The default cache.
unset KBENCH_KERNEL_CACHE
XDG_CACHE_HOME=$tmp/xdg kb build --tree "$tree" --ref "$c1" >"$tmp/out" 2>&1
ok $? "without --cache nor KBENCH_KERNEL_CACHE"
ls -d "$tmp"/xdg/kbench/kernels/entries/"$c1"-* >/dev/null 2>&1
ok $? "the cache is \$XDG_CACHE_HOME/kbench/kernels"
export KBENCH_KERNEL_CACHE="$cache"
check "--cache" kb build --tree "$tree" --ref "$c1" --cache "$tmp/other" --dry-run
grep -q "^image       $tmp/other/entries/$c1-" "$tmp/check.out"
ok $? "--cache names the cache"

# Bad input.
mkdir "$tmp/plain"
expect_err "a directory that is no git tree" 1 "'$tmp/plain' is not a git tree" \
	kb build --tree "$tmp/plain" --ref HEAD
expect_err "a directory inside a tree" 1 \
	"'$tree/scripts' is not the top of a git tree (it is a directory inside one)" \
	kb build --tree "$tree/scripts" --ref HEAD
expect_err "a tree that is not there" 1 "cannot use the kernel tree '$tmp/nope'" \
	kb build --tree "$tmp/nope"
expect_err "a ref that is not there" 1 "no commit 'v9.9' in the tree '$tree'" \
	kb build --tree "$tree" --ref v9.9
expect_err "a ref that reads as an option" 1 "no commit '--all' in the tree" \
	kb build --tree "$tree" --ref=--all
expect_err "a fragment that is not there" 2 \
	"no config fragment 'nope.config': not a file, nor a shipped fragment (kbench-guest)" \
	kb build --tree "$tree" --fragment nope.config
expect_err "a config that is neither file nor target" 1 \
	"the config 'no such' is neither a file nor a make target" \
	kb build --tree "$tree" --kconfig "no such"
expect_err "an argument" 2 "unexpected argument 'v1.0' (the commit is given with --ref)" \
	kb build --tree "$tree" v1.0

done_testing
