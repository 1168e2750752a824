#!/bin/sh
# t1323: the bash completion in an interactive bash on a pseudo-terminal,
# as a user meets it: readline's insert-completions (M-*) puts every
# candidate on the command line, which is then echoed. compare --format
# offers formats, history --config config names, fleet its commands, -o
# the keys of the workloads of the configs given, and of the workload run
# directly.
# Covers: cli/complete.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

if ! command -v bash >/dev/null || ! command -v python3 >/dev/null; then
	skip "no bash or python3"
	done_testing
	exit 0
fi
bc=/usr/share/bash-completion/bash_completion
if [ ! -r "$bc" ]; then
	# Without bash-completion, the few helpers the script uses, reduced.
	bc=$tmp/bash_completion
	cat >"$bc" <<'EOF2'
_init_completion() {
	COMPREPLY=() words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
	cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
}
_filedir() { :; }
EOF2
	diag "bash-completion is not installed: its helpers are stubbed"
fi
mkdir "$tmp/bin" "$tmp/empty"
ln -s "$KBENCH" "$tmp/bin/kbench"
printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 1\nmonitors = none\n' \
	> "$tmp/alpha.conf"
cp "$tmp/alpha.conf" "$tmp/beta.conf"
check "runs r1 (config alpha) and r2 (config beta)" \
	kb --quiet run -c "$tmp/alpha.conf" -n r1 --no-report '&&' \
	kb --quiet run -c "$tmp/beta.conf" -n r2 --no-report

# The driver: bash -i on a pty; for each line, type it, M-* (insert the
# completions), then go to the line's start and make it an echo.
cat > "$tmp/drive.py" <<'EOF2'
import os, pty, re, select, sys

def read_until(fd, pattern, limit=30.0):
    buf = b""
    while not re.search(pattern, buf):
        r, _, _ = select.select([fd], [], [], limit)
        if not r:
            sys.exit("no %r in %r" % (pattern, buf))
        try:
            data = os.read(fd, 4096)
        except OSError:
            data = b""
        if not data:
            sys.exit("bash went away: %r" % buf)
        buf += data
    return buf

rc = sys.argv[1]
pid, fd = pty.fork()
if pid == 0:
    os.execvp("bash", ["bash", "--noprofile", "--rcfile", rc, "-i"])
read_until(fd, rb"READY> ")
for n, line in enumerate(sys.stdin.read().splitlines()):
    os.write(fd, line.encode() + b"\x1b*\x01echo COMPLETED%d: \r" % n)
    out = read_until(fd, rb"\nCOMPLETED%d: [^\r\n]*\r?\n" % n)
    got = re.search(rb"\nCOMPLETED%d: ([^\r\n]*)" % n, out).group(1).decode()
    print(got.rstrip())
os.write(fd, b"exit\r")
os.waitpid(pid, 0)
EOF2
cat > "$tmp/rc" <<EOF2
PS1='READY> '
PATH="$tmp/bin:\$PATH"
export KBENCH_DB="$db"
bind 'set bell-style none' 2>/dev/null
bind 'set enable-bracketed-paste off' 2>/dev/null
. "$bc"
. "$TOP_SRCDIR/completion/kbench.bash"
cd "$tmp/empty"
EOF2
# complete_all FILE: each line of FILE typed, then its completions.
complete_all() {
	TERM=dumb python3 "$tmp/drive.py" "$tmp/rc" < "$1" 2>&1
}
cat > "$tmp/lines" <<EOF2
kbench compare --format 
kbench history --config 
kbench fleet 
kbench compare 
kbench runs --format 
kbench run -o s
kbench run -c $tmp/alpha.conf -o s
kbench run -c $tmp/alpha.conf -o hackbench-a.lo
kbench hackbench -o t
kbench netperf -o t
kbench run -c qui
EOF2
expect_transcript "each case, in an interactive bash" complete_all "$tmp/lines" <<'T'
$ complete_all TMP/lines
kbench compare --format brief csv html json markdown text
kbench history --config alpha beta
kbench fleet collect schedule status submit unschedule upload
kbench compare r1 r2
kbench runs --format csv json text
kbench run -o sample_order= seed= server= server_port= server_ready= server_timeout= shell= size= sizes=
kbench run -c TMP/alpha.conf -o sample_order= seed=
kbench run -c TMP/alpha.conf -o hackbench-a.loops=
kbench hackbench -o transport=
kbench netperf -o test=
kbench run -c quick
[exit 0]
T

done_testing
