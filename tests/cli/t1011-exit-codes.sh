#!/bin/sh
# t1011-exit-codes: the exit status rule of kbench(1) EXIT STATUS, over
# every command of kbench's command table. Covers, for each command: (a)
# an unknown option is a usage error, 2; (b) a bad value of an option or
# argument that takes one is a usage error, 2; (c) a name or file that
# is not there (a stored run, experiment, host; a bundle, recovery file,
# kernel tree, results directory) is a failure, 1, except where the rule
# says otherwise: a config that cannot be read is a usage error (2), and
# regressions' errors exit 128. A command of the table without a row here
# fails the test, so that a new command is held to the rule too.
# Covers: cli/main.c cli/setup.c lib/parse-options.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-process-pipes]\niterations = 2\nloops = 5\ngroups = 1\n' > "$tmp/hb.conf"
check "a store with one run" kb --quiet run -c "$tmp/hb.conf" -n base --no-report
git init -q "$tmp/tree" &&
	git -C "$tmp/tree" -c user.name=T -c user.email=t@example.org commit -q --allow-empty -m one
ok $? "a git tree of one commit"

# The rows: COMMAND <tab> (b) ARGS <tab> (c) STATUS ARGS; '-': the command
# takes no value to get wrong, or names nothing that could be missing.
# Words are split by the shell (no blanks inside an argument; no globbing).
hb=$tmp/hb.conf no=$tmp/nosuch
T="--tree $tmp/tree --good HEAD --bad HEAD -c $hb"
rows=$(cat <<EOT
run	-c $hb --only (	1 --resume nosuch
run	-c $hb --pin bogus	2 -c $no.conf
vm	-c $hb --vcpus 0	1 --tree $no --ref HEAD -c $hb --dry-run
vm	-c $hb --accel xen	1 --tree $no --ref HEAD --ref HEAD -c $hb --dry-run
build	-j 0	1 --tree $no --dry-run
runs	--last 0	1 --host nosuch
show	--format bogus @1	1 nosuch
compare	--format bogus @1 @1	1 nosuch @1
topology	--cpus bogus	1 --xml $no.xml
note	-	1 nosuch text
query	--format bogus SELECT(1)	1 SELECT*FROM"nosuch"
history	--format bogus @1	1 nosuch
regressions	--format bogus	128 --host nosuch
export	--since someday -o $tmp/x.db @1	1 nosuch -o $tmp/x.db
import	-	1 $no.db
rm	-	1 nosuch
rename	@1 bad@name	1 nosuch other
mail	--to not-an-address --from a@example.org --dry-run @1 @1	1 --to a@example.org --from b@example.org --dry-run nosuch @1
fleet	collect --tries 0 $tmp	1 collect $no
recover	-	1 $no.recovery
ab	-c $hb --rounds 0 --dry-run	1 --resume nosuch
experiments	--format bogus	1 nosuch
bisect	$T --accel xen	1 --tree $no --good HEAD --bad HEAD -c $hb
calibrate	-c $hb --runs 1	2 -c $no.conf
configs	-	-
watch	--status --format bogus	2 $no.conf
EOT
)

# Every command of the table has a row.
"$KBENCH" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' > "$tmp/commands"
missing=$(while read -r c; do
	printf '%s\n' "$rows" | cut -f1 | grep -qx "$c" || echo "$c"
done < "$tmp/commands")
is "every command of kbench --help has a row" "$missing" ""
is "... and the command table is read" "$(grep -c . "$tmp/commands")" \
	"$(printf '%s\n' "$rows" | cut -f1 | sort -u | grep -c .)"

# status WANT DESC ARGS...: kbench ARGS exits WANT, saying why on stderr.
status() {
	want=$1 desc=$2
	shift 2
	KBENCH_QEMU=$tmp/no-qemu kb "$@" > /dev/null 2> "$tmp/err" < /dev/null
	got=$?
	if [ "$got" -eq 0 ] || [ -s "$tmp/err" ]; then said=yes; else said=no; fi
	is "$desc: exit $want" "$got.$said" "$want.yes"
}

printf '%s\n' "$rows" > "$tmp/rows"
set -f
while IFS='	' read -r cmd bad missing; do
	status 2 "$cmd --no-such-option" $cmd --no-such-option
	[ "$bad" = - ] || status 2 "$cmd $bad" $cmd $bad
	[ "$missing" = - ] || status "${missing%% *}" "$cmd ${missing#* }" $cmd ${missing#* }
done < "$tmp/rows"
set +f

# A ref of several arms is said as one ref's is, not as a line of the
# arms' config text ("--ref:2: [arm:v6.18]: ...").
for refs in "--ref v6.18" "--ref v6.18 --ref v6.19"; do
	expect_err "vm $refs, a tree that is not there" 1 \
		"kbench: cannot use the kernel tree '$no': No such file or directory" \
		kb vm --tree "$no" $refs -c "$hb" --dry-run
	is "... said once, as the tree's" "$(grep -c -- '--ref:' "$tmp/err")" 0
done
expect_err "vm, two refs, one the tree lacks" 1 "kbench: no commit 'v6.18' in the tree" \
	kb vm --tree "$tmp/tree" --ref HEAD --ref v6.18 -c "$hb" --dry-run
done_testing
