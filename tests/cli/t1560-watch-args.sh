#!/bin/sh
# t1560-watch-args: kbench watch refuses what it cannot watch before it
# fetches, builds or boots anything, saying why with FILE:LINE and the
# key, exit status 2: no config, two configs, a file without [watch], a
# [watch] without a tree or branch, an unknown key, values out of range,
# icount with two vCPUs, rounds above max-rounds, no benchmark section,
# --format without --status or with another format; --help's text;
# --dry-run says what the next cycle would do and stores nothing;
# --status of a store without a watch says so, as text and as JSON; a
# fetch that fails is recorded, its mail queued once; a second cycle of
# a tree and branch while one holds its lock is refused.
# Costs a second: nothing is built or booted.
# Covers: watch/watch_conf.c cli/cmd_watch.c watch/watch_status.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

HOME=$tmp/home XDG_CONFIG_HOME=$tmp/config
export HOME XDG_CONFIG_HOME
mkdir -p "$HOME"

refused() {	# refused DESC TEXT ARGS...
	desc=$1 text=$2
	shift 2
	expect_err "$desc" 2 "$text" kb watch "$@"
}
conf() {	# conf NAME: stdin as $tmp/NAME.conf
	cat > "$tmp/$1.conf"
}
bench='[hackbench-thread-pipes]
workload = hackbench
groups = 1'

refused "a config is needed" "no config given: kbench watch CONFIG" 
refused "one at a time" "unexpected argument 'b': one config at a time" a b
refused "a config that is not there" "cannot read config '$tmp/none.conf'" "$tmp/none.conf"
printf '%s\n' "$bench" | conf nowatch
refused "a file without [watch]" "$tmp/nowatch.conf: no [watch] section" "$tmp/nowatch.conf"
printf '[watch]\nbranch = master\n\n%s\n' "$bench" | conf notree
refused "[watch] without a tree" "$tmp/notree.conf:1: [watch] needs tree = DIR" \
	"$tmp/notree.conf"
printf '[watch]\ntree = t\n\n%s\n' "$bench" | conf nobranch
refused "... or a branch" "$tmp/nobranch.conf:1: [watch] needs branch = NAME" \
	"$tmp/nobranch.conf"
printf '[watch]\ntree = t\nbranch = master\nbrnach = x\n\n%s\n' "$bench" | conf unknown
refused "an unknown key, with its line" "$tmp/unknown.conf:4: unknown key 'brnach' in [watch]" \
	"$tmp/unknown.conf"
printf '[watch]\ntree = t\nbranch = master\nrounds = 2\n\n%s\n' "$bench" | conf rounds
refused "rounds below 3" "$tmp/rounds.conf:4: [watch] rounds: expected a whole number from 3 to 1000, not '2'" \
	"$tmp/rounds.conf"
printf '[watch]\ntree = t\nbranch = master\nthreshold = lots\n\n%s\n' "$bench" | conf thr
refused "a threshold that is not a percentage" "$tmp/thr.conf:4: [watch] threshold: expected a percentage from 0 to 100, not 'lots'" \
	"$tmp/thr.conf"
printf '[watch]\ntree = t\nbranch = master\naccel = xen\n\n%s\n' "$bench" | conf accel
refused "an accelerator QEMU is not" "$tmp/accel.conf:4: [watch] accel: expected auto, kvm or tcg, not 'xen'" \
	"$tmp/accel.conf"
printf '[watch]\ntree = t\nbranch = master\nicount = yes\n\n%s\n' "$bench" | conf icount
refused "icount with 2 vCPUs" "$tmp/icount.conf:1: [watch] icount = yes needs vcpus = 1" \
	"$tmp/icount.conf"
printf '[watch]\ntree = t\nbranch = master\nrounds = 9\nmax-rounds = 6\n\n%s\n' "$bench" | conf rm
refused "rounds above max-rounds" "$tmp/rm.conf:1: [watch] rounds (9) is more than max-rounds (6)" \
	"$tmp/rm.conf"
printf '[watch]\ntree = t\nbranch = master\n' | conf nobench
refused "nothing to measure" "$tmp/nobench.conf:1: [watch] names no config and the file has no benchmark section" \
	"$tmp/nobench.conf"
printf '[watch]\ntree = t\nbranch = master\nconfig = none.conf\n' | conf noconf
refused "a benchmark config that is not there" "$tmp/noconf.conf:1: [watch] config: cannot read '$tmp/none.conf'" \
	"$tmp/noconf.conf"
printf '[watch]\ntree = t\nbranch = master\n\n[mail]\nsmpt = x\n\n%s\n' "$bench" | conf mail
refused "an unknown key of [mail]" "$tmp/mail.conf:6: unknown key 'smpt' in [mail]" \
	"$tmp/mail.conf"
refused "--format goes with --status" "--format goes with --status" --format json x.conf
refused "--format text, json or html" "--format takes text, json or html, not 'csv'" --status --format csv
refused "--status and --dry-run" "--status and --dry-run go one at a time" --status --dry-run

expect_transcript "--status without a store" kb watch --status <<'EOF2'
$ kb watch --status
no cycle of kbench watch in the store
[exit 0]
EOF2
expect_transcript "... and as JSON" kb watch --status --format json <<'EOF2'
$ kb watch --status --format json
{"format":"kbench-watch","format_version":1,"watches":[]}
[exit 0]
EOF2

printf '[watch]\ntree = tree\nbranch = main\nrows = hackbench-thread-pipes/1\nto = dev@example.org\n\n%s\n' \
	"$bench" | conf good
expect_transcript -e "s|$tmp|TMP|g" "--dry-run: what the next cycle would do" \
	kb watch --dry-run "$tmp/good.conf" <<'EOF2'
$ kb watch --dry-run TMP/good.conf
watch TMP/tree, branch main of origin, on this host
git fetch origin main (at most 600 s)
a first tip: build it as the baseline
gating rows: hackbench-thread-pipes/1
a row worse by 5% or more, with a verdict: bisect it, mail the culprit to dev@example.org
[exit 0]
EOF2
check "... and stores nothing" test ! -e "$db"

# A fetch that fails: recorded with git's words, and the loop goes on
# (exit 0); nothing is mailed without recipients' addresses... here the
# [watch] names one but no server: the mail stays pending (exit 1).
git init -q "$tmp/tree"
expect_err "a tree without the remote: the fetch fails" 1 "git fetch failed" \
	kb watch "$tmp/good.conf"
is "... recorded as such" "$(sql "SELECT state || ' ' || result || ' ' || step FROM watch_cycles")" \
	"failed fetch-failed fetch"
is "... its mail queued, pending" "$(sql "SELECT kind || ' ' || row || ' ' || state FROM watch_mails")" \
	"failure fetch pending"
grep -q "1 mail pending and no smtp = URL" "$tmp/err"
ok $? "... for want of a server, as it says"
kb watch "$tmp/good.conf" >"$tmp/out" 2>"$tmp/err"
is "a second failed fetch: not mailed again" "$(sql "SELECT count(*) FROM watch_mails")" 1

# One cycle at a time for a tree and branch on a host: the watch's lock
# (watch.HASH in the lock directory, FNV-1a of "TREE\nBRANCH"), held here.
lock=$(python3 -c 'import sys
h = 14695981039346656037
for b in (sys.argv[1] + "\n" + sys.argv[2]).encode():
    h = ((h ^ b) * 1099511628211) % 2**64
print("watch.%016x" % h)' "$tmp/tree" main)
mkdir -p "$KBENCH_LOCK_DIR" && chmod 755 "$KBENCH_LOCK_DIR"
flock -x "$KBENCH_LOCK_DIR/$lock" sleep 60 &
holder=$!
wait_until 10 sh -c "! flock -n -x '$KBENCH_LOCK_DIR/$lock' true"
expect_err "a second cycle of the same tree and branch is refused" 1 \
	"another kbench watch is running a cycle of $tmp/tree (branch main) on this host" \
	kb watch "$tmp/good.conf"
is "... and records nothing" "$(sql "SELECT count(*) FROM watch_cycles")" 2
kill "$holder"
wait "$holder" 2>/dev/null

expect_transcript -e 's/^(usage:.*)$/\1/' "--help" kb watch --help <<'EOF2'
$ kb watch --help
usage: kbench watch [--dry-run] CONFIG
   or: kbench watch --status [--format text|json|html] [CONFIG]

Run one cycle of the watch CONFIG's [watch] section declares: resume the
last cycle if it was stopped, send the mails still pending, git fetch the
branch; if its tip moved, build the new tip, run it against the last tip
tested in one interleaved A/B experiment of kernels under QEMU, and when a
gating row is worse beyond the threshold with a verdict, bisect the commits
between them and mail the report of the first bad commit, once. A cycle
with nothing new says so and does nothing else.

  --status            print each cycle: its tips, verdicts, bisection,
                      culprit and mails
  --format FMT        --status as text (default), json or html (one
                      page, each cycle linked to its comparison and
                      its bisection's report)
  --dry-run           say what the next cycle would do; fetch, build,
                      run and store nothing
  -h, --help          this text

Every cycle, experiment, bisection and mail is stored: a cycle stopped
anywhere is resumed by the next one, a mail that could not be sent is sent
by the next one, and a culprit is never reported twice for a row. One cycle
at a time runs for a tree and branch on a host. The keys of [watch] are in
kbench.conf(5); mail settings missing from it come from its file's [mail]
section, then from [mail] of the user's kbench.conf.
Exit status: 0 the cycle did what it had to (a failed fetch or build is
recorded and mailed), 1 a failure or a mail left pending, 2 bad arguments,
128+N stopped by signal N. See docs/nightly.md.
[exit 0]
EOF2

done_testing
