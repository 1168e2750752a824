#!/bin/sh
# t1012-options-early: an option's value is checked when it is parsed,
# before the command does anything. Each command is given each bad value
# of its options whose check used to come late (after an experiment ran,
# a kernel was built, a guest booted or a comparison was made); each row
# must exit 2 (1 for a file that is not there) with its message alone on
# stderr, print nothing on stdout, create no store and write no file. The configs, the git tree and the
# ab config given are good: only the value named is wrong.
# Covers: cli/cmd_ab.c cli/cmd_history.c cli/cmd_regressions.c cli/cmd_vm.c cli/cmd_mail.c cli/cmd_topology.c cli/cmd_import.c cli/cmd_fleet.c views/output.c machine/pin.c lib/parse-options.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-process-pipes]\niterations = 2\nloops = 5\ngroups = 1\n' > "$tmp/hb.conf"
cat > "$tmp/ab.conf" <<'CONF'
[experiment]
rounds = 2

[arm:base]

[arm:more]
option.loops = 6

[global]
iterations = 1
loops = 5
groups = 1

[hackbench-process-pipes]
mode = process
transport = pipes
CONF
git init -q "$tmp/tree" &&
	git -C "$tmp/tree" -c user.name=T -c user.email=t@example.org commit -q --allow-empty -m one
ok $? "a git tree of one commit"
mkdir "$tmp/work"

# The rows: STATUS <tab> ARGS <tab> the message after "kbench: ". Words
# are split by the shell (no blanks inside an argument; no globbing); ctl
# is a note or subject with a control character in it. A bad value is a
# usage error (2); a file named that is not there a failure (1), said
# before the kernel of a --ref is built all the same.
ctl=$(printf 'a\001b')
hb=$tmp/hb.conf ab=$tmp/ab.conf
T="--tree $tmp/tree --good HEAD --bad HEAD -c $hb"
V="--tree $tmp/tree --ref HEAD -c $hb"
M="--to a@example.org --from b@example.org --dry-run"
fmts="text, markdown, csv, json, brief or html"
date_is="expected YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS], Nh, Nd, Nw, today or yesterday"
note_is="invalid note: it must not contain control characters other than newline and tab (byte 0x01 at offset 1)"
name_is="invalid run name '@x': it must not contain '@' (NAME@HOST selects a run by host)"
rows=$(cat <<EOT
2	ab -c $ab --format nosuch	unknown format 'nosuch' (expected $fmts)
2	ab --resume nosuch --format nosuch	unknown format 'nosuch' (expected $fmts)
2	ab -c $ab --rounds sometimes	--rounds takes auto or an integer from 1 to 1000, not 'sometimes'
2	ab -c $ab --rounds 0	--rounds takes auto or an integer from 1 to 1000, not '0'
2	ab -c $ab --equivalence 120	--equivalence takes a percentage from 0 to 100, not '120'
2	ab -c $ab --wait-knobs -1	--wait-knobs takes seconds from 0 to 86400, not '-1'
2	ab -c $ab --order shuffle --seed -3	--seed: seed = '-3': expected an integer from 0 to 18446744073709551615
2	ab -c $ab -n @x	$name_is
2	run -c $hb -n @x	$name_is
2	run -c $hb --note $ctl	$note_is
2	run --resume nosuch --note $ctl	$note_is
2	calibrate -c $hb -n @x	$name_is
2	vm $V --accel xen	--accel must be auto, kvm or tcg, not 'xen'
2	vm $V --vcpu-pin cross-core	--vcpu-pin: 'cross-core' is a policy for two parties; use spread, compact or unbound
2	vm $V --vcpu-pin nosuch	--vcpu-pin: unknown pin policy 'nosuch'; use spread, compact or unbound
2	vm $V --note $ctl	$note_is
2	vm $V --boot-timeout 0	--boot-timeout must be more than 0 seconds
2	vm $V --modprobe x	--modprobe needs --modules DIR, the tree to load them from
2	vm --tree $tmp/tree --ref HEAD	no config given: use -c FILE (e.g. configs/quick.conf)
2	bisect $T --row nope	--row 'nope': expected SECTION/ROW, as kbench compare names them (hackbench/4)
2	bisect $T --row /4	--row '/4': expected SECTION/ROW, as kbench compare names them (hackbench/4)
2	bisect $T --accel xen	--accel must be auto, kvm or tcg, not 'xen'
2	history --config hb --format xml	unknown format 'xml' (expected text, csv, json or html)
2	history --config hb --since someday	invalid date 'someday' for --since: $date_is
2	history --config hb -o nosuch/h.txt	cannot write 'nosuch/h.txt': No such file or directory
2	history --config hb --p-value 2	invalid --p-value '2': expected a number between 0 and 1
2	history --config hb --window 1	invalid --window '1': expected a whole number of runs, at least 2
2	history --config hb --min-change -1	invalid --min-change '-1': expected a percentage, 0 or more (e.g. 5)
2	history --config hb --statistic median	invalid --statistic 'median': expected best (each run's best sample) or mean
2	regressions --format csv	unknown format 'csv' (expected text or json)
2	regressions --since someday	invalid date 'someday' for --since: $date_is
2	regressions --window 1	invalid --window '1': expected a whole number of runs, at least 2
2	regressions --statistic median	invalid --statistic 'median': expected best (each run's best sample) or mean
2	topology --cpus spread,bogus	unknown pin policy 'bogus': expected one of unbound|same-pu|cross-ht|cross-core|cross-llc|cross-node|cross-socket|spread|compact
2	compare -o nosuch/c.txt a b	cannot write 'nosuch/c.txt': No such file or directory
2	fleet collect --report-html nosuch/r.html $tmp/results	cannot write 'nosuch/r.html': No such file or directory
2	fleet collect --since someday $tmp/results	invalid value 'someday' for '--since': expected YYYY-MM-DD[THH:MM[:SS]]
2	fleet submit -c $hb -n #x	invalid run name '#x': it must not start with '#' (#ID and @ID select a run by id)
2	fleet schedule -c $hb --daily 24:00	invalid value '24:00' for '--daily': expected HH:MM, 00:00 to 23:59
2	mail --subject $ctl $M -- a b	--subject: the subject holds a line break or a control character
2	mail --in-reply-to not-an-id $M -- a b	--in-reply-to: 'not-an-id' is not a Message-ID (expected <LEFT@RIGHT>)
2	mail --in-reply-to p@example.org --references x $M -- a b	--references: 'x' is not a Message-ID (expected <LEFT@RIGHT>)
2	mail --references x@example.org $M -- a b	--references without --in-reply-to: give the Message-ID of the mail answered too
1	import --mmtests nosuch	'nosuch' is not a directory: --mmtests reads a results directory (work/log)
1	vm $V --initrd nosuch.img	cannot read the initrd 'nosuch.img': No such file or directory
1	vm $V --modules $tmp/work --modprobe dummy	--modules: '$tmp/work' holds no kernel modules: expected a release directory (with kernel/ or modules.order in it), or a directory holding lib/modules/RELEASE as make modules_install writes under INSTALL_MOD_PATH
EOT
)

# In an empty directory, with no QEMU to boot and the kernel cache in
# that directory: what a row leaves behind (a store, a file, a kernel
# build begun, a line on stdout) says that it ran.
printf '%s\n' "$rows" > "$tmp/rows"
set -f
while IFS='	' read -r status args want; do
	# shellcheck disable=SC2086 # the words are meant to be split
	(cd "$tmp/work" && KBENCH_QEMU=$tmp/no-qemu KBENCH_KERNEL_CACHE=$tmp/work/cache \
		kb $args > "$tmp/out" 2> "$tmp/err" < /dev/null)
	got=$?
	left=$(cd "$tmp/work" && ls -A; [ -e "$db" ] && echo "the store")
	is "$args: exit $status, the message, nothing done" \
		"$got|$(cat "$tmp/err")|$(cat "$tmp/out")|$left" "$status|kbench: $want||"
	# A row that did run leaves nothing for the next to be blamed for.
	rm -rf "$tmp/work" "$db" "$db-wal" "$db-shm" "$db-journal"
	mkdir "$tmp/work"
done < "$tmp/rows"
set +f

done_testing
