#!/bin/sh
# nightly-accuracy: how often the nightly loop (kbench watch) mails the
# right culprit, and how long a push takes to become a mail, on this
# machine. Each trial makes a tree (tests/cli/lib-kbuild.sh's stand-in for
# a kernel tree, whose "kernel" is Debian's cloud kernel) with a bare
# repository as its remote and a clone the watch follows, runs a first
# cycle (the baseline), pushes COMMITS commits of which one, drawn at
# random, switches the kernel to Debian's PREEMPT_RT one (the planted
# slowdown: about three times slower on a hackbench of threads over pipes
# under TCG), and runs the next cycle against a real SMTP server
# (python3-aiosmtpd on loopback). The trial is right when exactly one
# report is mailed and it names the planted commit, wrong when a report
# names another, and "no report" when none is mailed. Prints a line
# naming the design, a line per trial, then
#   trials N  right R  wrong W  no-report X  push-to-mail S s  cycle S s
# where push-to-mail is the mean time from the push to the report's
# arrival at the SMTP server (trials with a report) and cycle the mean
# wall time of the cycle after the push. It exits 1 when kbench fails or
# when it cannot read its own figures back from the stores and the SMTP
# server; 2 on bad variables.
# Goal (docs/nightly.md): right in every trial, wrong never.
#
# Usage: bench/nightly-accuracy.sh [KBENCH]   (default ./kbench)
# Variables: TRIALS (default 1: one trial, some 10 minutes on a 2-CPU
# machine under TCG), COMMITS (pushed between the two cycles, default 3),
# ROUNDS (default 3), MAX_ROUNDS (default 6), SEED (default 1: the
# planted commits drawn). Needs QEMU, git, python3-aiosmtpd and the
# Debian kernels (make check TESTS=tests/cli/t1500-vm-run.sh fetches them).
. "$(dirname "$0")/usage.sh"
set -u
kbench=${1:-${KBENCH:-./kbench}}
TRIALS=${TRIALS:-1}
COMMITS=${COMMITS:-3}
ROUNDS=${ROUNDS:-3}
MAX_ROUNDS=${MAX_ROUNDS:-6}
SEED=${SEED:-1}
for v in TRIALS COMMITS ROUNDS MAX_ROUNDS SEED; do
	eval "x=\$$v"
	case $x in
	'' | *[!0-9]* | 0) echo "nightly-accuracy: $v must be a positive integer ('$x')" >&2; exit 2 ;;
	esac
done
[ "$ROUNDS" -ge 3 ] && [ "$MAX_ROUNDS" -ge "$ROUNDS" ] ||
	{ echo "nightly-accuracy: ROUNDS must be 3 or more, MAX_ROUNDS at least ROUNDS" >&2; exit 2; }
case $kbench in
/*) ;;
*) kbench=$PWD/$kbench ;;
esac
[ -x "$kbench" ] || { echo "nightly-accuracy: no kbench at $kbench" >&2; exit 2; }
PY=/usr/bin/python3
"$PY" -c 'import aiosmtpd' 2>/dev/null ||
	{ echo "nightly-accuracy: no SMTP server: apt-get install python3-aiosmtpd" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/nightly-accuracy.XXXXXX") || exit 1
smtpd=
trap '[ -n "$smtpd" ] && kill "$smtpd" 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
export KBENCH_KERNEL_CACHE="$work/builds"
tmp=$work KBENCH=$kbench
. "$(dirname "$0")/../tests/cli/lib-vm.sh"
. "$(dirname "$0")/../tests/cli/lib-kbuild.sh"
if ! vm_kernels; then
	echo "nightly-accuracy: $vm_why" >&2
	exit 1
fi
sql() { "$kbench" --db "$1" query --format csv "$2" | sed '1,2d'; }
now() { date +%s.%N; }

# The SMTP server: message N of the trial goes to $work/mail/T/msgN, and
# the time it arrived to msgN.at.
cat >"$work/smtpd.py" <<'PY'
import asyncio, os, sys, time
from aiosmtpd.smtp import SMTP

outdir, portfile = sys.argv[1:3]


class Handler:
    async def handle_DATA(self, server, session, envelope):
        trial = open(os.path.join(outdir, 'trial')).read().strip()
        d = os.path.join(outdir, trial)
        os.makedirs(d, exist_ok=True)
        n = len([f for f in os.listdir(d) if f.startswith('msg') and '.' not in f])
        with open(os.path.join(d, 'msg%d' % n), 'wb') as f:
            f.write(envelope.original_content)
        with open(os.path.join(d, 'msg%d.at' % n), 'w') as f:
            f.write('%.3f\n' % time.time())
        return '250 2.0.0 Ok: queued'


async def main():
    server = await asyncio.get_running_loop().create_server(
        lambda: SMTP(Handler(), hostname='localhost'), '127.0.0.1', 0)
    with open(portfile + '.tmp', 'w') as f:
        f.write('%d\n' % server.sockets[0].getsockname()[1])
    os.rename(portfile + '.tmp', portfile)
    await server.serve_forever()

asyncio.run(main())
PY
mkdir -p "$work/mail"
echo 0 >"$work/mail/trial"
"$PY" "$work/smtpd.py" "$work/mail" "$work/port" >"$work/smtpd.log" 2>&1 &
smtpd=$!
i=0
while [ ! -s "$work/port" ] && [ "$i" -lt 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -s "$work/port" ] || { echo "nightly-accuracy: the SMTP server did not start" >&2; exit 1; }
port=$(cat "$work/port")

# A deterministic draw of the planted commit, 1..COMMITS, into $k.
state=$SEED
draw() {
	state=$(( (state * 1103515245 + 12345) % 2147483648 ))
	k=$(( state / 65536 % COMMITS + 1 ))
}

echo "# nightly-accuracy: $COMMITS commits pushed between two cycles, $ROUNDS to" \
	"$MAX_ROUNDS rounds an experiment, guests' clocks count instructions," \
	"$TRIALS trial(s), seed $SEED"
right=0 wrong=0 none=0 lat= cyc=
t=0
while [ "$t" -lt "$TRIALS" ]; do
	t=$((t + 1))
	draw
	d=$work/t$t
	db=$d/kbench.db
	mkdir -p "$d"
	echo "$t" >"$work/mail/trial"
	{
		kbuild_fake_tree "$d/up" 1 0 &&
		kbuild_git -C "$d/up" commit -q --amend -m "c0: the first tip" &&
		kbuild_git clone -q --bare "$d/up" "$d/remote.git" &&
		kbuild_git -C "$d/up" remote add origin "$d/remote.git" &&
		kbuild_git clone -q "$d/remote.git" "$d/tree"
	} >"$d/fixture.log" 2>&1 || { cat "$d/fixture.log" >&2; exit 1; }
	cat >"$d/nightly.conf" <<EOF
[watch]
tree = tree
branch = master
rounds = $ROUNDS
max-rounds = $MAX_ROUNDS
threshold = 10
vcpus = 1
icount = yes
append = quiet
boot-timeout = 600
from = kbench <bot@example.org>
to = dev@example.org
smtp = smtp://127.0.0.1:$port

[hackbench-thread-pipes]
workload = hackbench
mode = thread
transport = pipes
groups = 1
loops = 50
iterations = 3
EOF
	"$kbench" --db "$db" watch "$d/nightly.conf" >"$d/cycle1.out" 2>"$d/cycle1.err" || {
		sed 's/^/  /' "$d/cycle1.err" >&2
		echo "nightly-accuracy: the first cycle failed" >&2
		exit 1
	}
	c=1
	while [ "$c" -le "$COMMITS" ]; do
		if [ "$c" -eq "$k" ]; then
			echo second >"$d/up/image" &&
			kbuild_git -C "$d/up" commit -q -a -m "c$c: plant a slowdown"
		else
			kbuild_commit "$d/up" "c$c: an innocent change" "f$c" "$c"
		fi >>"$d/fixture.log" 2>&1 || { cat "$d/fixture.log" >&2; exit 1; }
		c=$((c + 1))
	done
	planted=$(git -C "$d/up" rev-parse "HEAD~$((COMMITS - k))")
	kbuild_git -C "$d/up" push -q origin master >>"$d/fixture.log" 2>&1 ||
		{ cat "$d/fixture.log" >&2; exit 1; }
	pushed=$(now)
	"$kbench" --db "$db" watch "$d/nightly.conf" >"$d/cycle2.out" 2>"$d/cycle2.err"
	rc=$?
	ended=$(now)
	if [ "$rc" -ne 0 ]; then
		sed 's/^/  /' "$d/cycle2.err" >&2
		echo "nightly-accuracy: the second cycle exited $rc" >&2
		exit 1
	fi
	result=$(sql "$db" "SELECT result FROM watch_cycles WHERE id = 2")
	case $result in
	regression | no-regression | cannot-tell) ;;
	*) echo "nightly-accuracy: no finished second cycle in $db ('$result')" >&2; exit 1 ;;
	esac
	n=$(ls "$work/mail/$t" 2>/dev/null | grep -c '^msg[0-9]*$')
	named=$(sql "$db" "SELECT group_concat(culprit, ' ') FROM watch_mails
		WHERE kind = 'report' AND state = 'sent'")
	if [ "$n" -eq 0 ]; then
		none=$((none + 1)) verdict="no report"
	elif [ "$n" -eq 1 ] && [ "$named" = "$planted" ] &&
	     tr -d '\r' <"$work/mail/$t/msg0" | grep -q "^commit $planted\$"; then
		right=$((right + 1)) verdict=right
		lat="$lat $(awk -v a="$pushed" '{ printf "%.0f", $1 - a }' "$work/mail/$t/msg0.at")"
	else
		wrong=$((wrong + 1)) verdict="wrong ($n mail(s), culprit(s) '$named')"
	fi
	cyc="$cyc $(echo "$pushed $ended" | awk '{ printf "%.0f", $2 - $1 }')"
	echo "#   trial $t: planted commit $k of $COMMITS, cycle 2 $result, $verdict"
done
mean() { echo "$1" | awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i;
	if (NF) printf "%.0f", s / NF; else printf "-" }'; }
printf 'trials %d  right %d  wrong %d  no-report %d  push-to-mail %s s  cycle %s s\n' \
	"$TRIALS" "$right" "$wrong" "$none" "$(mean "$lat")" "$(mean "$cyc")"
