#!/bin/sh
# t1330-dry-run-needs: a dry run needs nothing it will not use: mail
# --dry-run without a sender writes a placeholder From and says so;
# calibrate --dry-run prints the plan of one run and the estimate of all,
# and runs and stores nothing; fleet submit --dry-run of every node (or a
# partition's) prints the sbatch line for NODE and calls no Slurm command;
# rename and note --dry-run say what they would change, on a store they
# may not write; fleet unschedule --dry-run lists the jobs it would
# cancel and calls no scancel.
# Covers: cli/cmd_mail.c cli/cmd_calibrate.c cli/cmd_fleet.c fleet/slurm.c cli/cmd_rename.c cli/cmd_note.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# Nothing of the user's: their config, data directory.
HOME=$tmp/home XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data
export HOME XDG_CONFIG_HOME XDG_DATA_HOME
mkdir -p "$HOME"

printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 2\n' >"$tmp/a.conf"
check "two runs to mail" \
	kb --quiet run -c "$tmp/a.conf" -n base --no-report '&&' \
	kb --quiet run -c "$tmp/a.conf" -n new --no-report

kb mail --to b@example.org --dry-run -- base new >"$tmp/mbox" 2>"$tmp/err"
ok $? "mail --dry-run without --from writes the mail"
is "... From the placeholder" "$(grep '^From: ' "$tmp/mbox")" \
	"From: kbench-dry-run@sender.invalid"
is "... and says so" "$(cat "$tmp/err")" \
	"kbench: notice: no sender: the dry run writes 'From: kbench-dry-run@sender.invalid'; give --from ADDR (or set 'from' in [mail]) to send"
expect_transcript "mail without --dry-run still needs a sender" \
	kb mail --to b@example.org --smtp smtp://127.0.0.1:9 -- base new <<'T'
$ kb mail --to b@example.org --smtp smtp://127.0.0.1:9 -- base new
2> kbench: no sender: give --from ADDR (or set 'from' in [mail] of TMP/config/kbench/kbench.conf)
[exit 2]
T

# rename and note: --dry-run says what, changes nothing, and needs no
# write access to the store.
before=$(store_digest "$db")
chmod a-w "$db"
expect_transcript "rename --dry-run says what it would rename" kb rename --dry-run new newer <<'T'
$ kb rename --dry-run new newer
would rename run @2 'new' to 'newer'
[exit 0]
T
expect_transcript "note --dry-run says whose note would change" \
	kb note --dry-run --append new 'SLUB off' <<'T'
$ kb note --dry-run --append new 'SLUB off'
would append to the note of run @2 'new'
[exit 0]
T
chmod u+w "$db"
is "... and nothing changed" "$(store_digest "$db")" "$before"

# calibrate --dry-run: no store is made, nothing runs.
printf '[netperf-a]\ntest = TCP_RR\nduration = 2\niterations = 3\n' >"$tmp/n.conf"
expect_transcript "calibrate --dry-run prints the plan and the estimate of all the runs" \
	"$KBENCH" --db "$tmp/none.db" calibrate -c "$tmp/n.conf" --runs 4 --dry-run <<'T'
$ kbench --db TMP/none.db calibrate -c TMP/n.conf --runs 4 --dry-run
calibrate would make 4 runs of this plan, tagged calibration 1/4 to 4/4:

section                      workload   iters warmup  rows
netperf-a                    netperf        3      0  sizes 1
3 samples in all (warm-up included)

Effective options:
  [netperf-a] pin=unbound duration=2 iterations=3 warmup=0 timeout=600
    test=TCP_RR

estimate                     plan       last run of the same options here
netperf-a                    6.0 s      none
estimated duration: 6.0 s
estimated duration of the 4 runs: 24.0 s
[exit 0]
T
ok "$(test ! -e "$tmp/none.db"; echo $?)" "... and makes no store"
no_workers

# fleet: Slurm's commands that fail loudly if called at all.
mkdir -p "$tmp/bin"
for p in sinfo scontrol sbatch squeue; do
	printf '#!/bin/sh\necho "%s called" >>"%s/called"\nexit 1\n' "$p" "$tmp" >"$tmp/bin/$p"
	chmod +x "$tmp/bin/$p"
done
PATH=$tmp/bin:$PATH "$KBENCH" fleet submit -c "$tmp/a.conf" --all --dry-run >"$tmp/all" 2>&1
ok $? "fleet submit --all --dry-run succeeds without Slurm"
is "... prints the sbatch line for NODE and says why" "$(tail -n 2 "$tmp/all")" \
	"# for each node Slurm knows (a dry run asks Slurm nothing: --nodes n1,n2 names them)
# sbatch --parsable --nodelist=NODE SCRIPT"
PATH=$tmp/bin:$PATH "$KBENCH" fleet schedule --daily 02:00 -c "$tmp/a.conf" \
	--partition bench --dry-run >"$tmp/part" 2>&1
ok $? "fleet schedule --partition --dry-run succeeds without Slurm"
is "... one line for the partition's nodes" "$(tail -n 2 "$tmp/part")" \
	"# for each node of partition bench (a dry run asks Slurm nothing: --nodes n1,n2 names them)
# sbatch --parsable --nodelist=NODE --begin=02:00 SCRIPT"
PATH=$tmp/bin:$PATH "$KBENCH" fleet submit -c "$tmp/a.conf" --nodes 'n[1-2]' --dry-run >"$tmp/br" 2>&1
ok $? "fleet submit --nodes n[1-2] --dry-run succeeds without Slurm"
is "... one line for the list's nodes" "$(tail -n 1 "$tmp/br")" \
	"# sbatch --parsable --nodelist=NODE SCRIPT"
is "no Slurm command was called" "$(cat "$tmp/called" 2>/dev/null)" ""

# fleet unschedule --dry-run reads squeue, as it would, and cancels
# nothing: scancel must not be called.
cat >"$tmp/bin/squeue" <<'S'
#!/bin/sh
case "$*" in
*PENDING*) printf '41|kbench-daily-it|n1|\n42|kbench-daily-it|n2|\n43|other|n1|\n' ;;
esac
S
printf '#!/bin/sh\necho "scancel called" >>"%s/called"\nexit 1\n' "$tmp" >"$tmp/bin/scancel"
chmod +x "$tmp/bin/squeue" "$tmp/bin/scancel"
unschedule() { PATH="$tmp/bin:$PATH" "$KBENCH" fleet unschedule "$@"; }
expect_transcript "fleet unschedule --dry-run lists what it would cancel" \
	unschedule --dry-run it <<'T'
$ unschedule --dry-run it
would cancel job 41 (kbench-daily-it on n1)
would cancel job 42 (kbench-daily-it on n2)
[exit 0]
T
is "... and cancelled nothing" "$(cat "$tmp/called" 2>/dev/null)" ""

done_testing
