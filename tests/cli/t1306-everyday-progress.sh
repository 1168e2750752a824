#!/bin/sh
# t1306-everyday-progress: on a terminal (a pseudo-terminal here, through
# python3's pty module) the progress line is redrawn in place, cut to the
# terminal's width and cut again after SIGWINCH; it shows the last value
# with its unit and the ETA. Elsewhere one line per sample, and a failed
# sample is reported once.
# Covers: runner/progress.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

cat > "$tmp/p.conf" <<'CONF'
[hackbench-a-section-with-a-long-name]
loops = 10
groups = 1
iterations = 4
CONF
cat > "$tmp/to.conf" <<'CONF'
[hackbench-slow]
loops = 100000000
groups = 1
iterations = 1
timeout = 0.3

[hackbench-fast]
loops = 10
groups = 1
iterations = 1
CONF

# Not a terminal: one line per sample; the timed-out sample is the
# warning's alone.
expect_transcript -e 's/: [0-9.e+-]+ s \(/: T s (/' "elsewhere each failure is reported once" \
	kb run -c "$tmp/to.conf" -n to --no-report <<'T'
$ kb run -c TMP/to.conf -n to --no-report
2> kbench: notice: run @1 'to' (UUID) into TMP/k.db
2> kbench: warning: [hackbench-slow] groups 1 sample 1: timed out after 0.3 s (timeout = 0.3); its process group was killed
2> kbench: [hackbench-fast] groups 1: sample 1/1: T s (2/2)
2> kbench: warning: 1 samples failed; they are recorded (see 'kbench show @1')
[exit 0]
T

if ! command -v python3 >/dev/null; then
	skip "no python3 for a pseudo-terminal"
	done_testing
	exit 0
fi
# ptyrun.py COLS RESIZE CMD...: run CMD with stderr on a pseudo-terminal
# of COLS columns (its stdout to the file $OUT), resized to RESIZE columns
# (0: never) once the first progress line is drawn; print what the
# terminal received, as Python's repr, then each line drawn (after
# "\r\033[K") as "WIDTH|TEXT", then "---"; exit with CMD's status.
cat > "$tmp/ptyrun.py" <<'PY'
import fcntl, os, pty, re, struct, sys, termios
cols, resize = int(sys.argv[1]), int(sys.argv[2])
argv = sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack('HHHH', 24, cols, 0, 0))
    os.dup2(os.open(os.environ['OUT'], os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 1)
    os.execvp(argv[0], argv)
out, resized = b'', False
while True:
    try:
        d = os.read(fd, 4096)
    except OSError:
        break
    if not d:
        break
    out += d
    if resize and not resized and b'\x1b[K[' in out:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 24, resize, 0, 0))
        resized = True
st = os.waitpid(pid, 0)[1]
text = out.decode()
print(repr(text))
for seg in re.split(r'[\r\n]', text):
    if seg.startswith('\x1b[K') and len(seg) > 3:
        print('%d|%s' % (len(seg) - 3, seg[3:]))
print('---')
sys.exit(os.waitstatus_to_exitcode(st))
PY
# last_drawn FILE: the text of the last line drawn; widest FILE: the
# widest line drawn.
last_drawn() { sed -n '2,/^---$/p' "$1" | sed '$d' | tail -n 1 | cut -d'|' -f2-; }
widest() { sed -n '2,/^---$/p' "$1" | sed '$d' | awk -F'|' '$1 > w { w = $1 } END { print w + 0 }'; }
# fits FILE COLS DESC: no line drawn reaches COLS columns.
fits() {
	w=$(widest "$1")
	if [ "$w" -gt 0 ] && [ "$w" -lt "$2" ]; then
		ok 0 "$3 (widest: $w)"
	else
		ok 1 "$3 (widest: $w)"
		sed 's/^/#   /' "$1"
	fi
}
# drawn FILE ERE DESC: the last line drawn matches ERE.
drawn() {
	if last_drawn "$1" | grep -Eq "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		echo "#   last line drawn: '$(last_drawn "$1")', expected /$2/"
		sed 's/^/#   /' "$1"
	fi
}

for cols in 40 120; do
	OUT=$tmp/stdout.$cols python3 "$tmp/ptyrun.py" $cols 0 "$KBENCH" --db "$db" run \
		-c "$tmp/p.conf" -n "w$cols" >"$tmp/tty.$cols" 2>&1
	ok $? "a run on a terminal of $cols columns"
	fits "$tmp/tty.$cols" $cols "... no progress line reaches $cols columns"
	check "... its report went to stdout" grep -q "^run @[0-9]* 'w$cols': 4 samples" \
		"$tmp/stdout.$cols"
done
drawn "$tmp/tty.120" '^\[hackbench-a-section-with-a-long-name\] groups 1: sample 4/4, last [0-9.e+-]+ s  \(4/4, ETA 0:00\)$' \
	"at 120 columns: section, row, sample i/n, the last value with its unit, the counts, ETA"
drawn "$tmp/tty.40" '^\[hackbench[^ ]*\.\.\. 4/4 [0-9.e+-]+ s ETA 0:00$' \
	"at 40 columns the section gives way to the sample, the last value and its unit, the ETA"

cat > "$tmp/r.conf" <<'CONF'
[hackbench-resized]
loops = 2000
groups = 1
iterations = 8
CONF
OUT=$tmp/stdout.r python3 "$tmp/ptyrun.py" 120 30 "$KBENCH" --db "$db" run -c "$tmp/r.conf" \
	-n resized --no-report >"$tmp/tty.r" 2>&1
ok $? "a run on a terminal narrowed from 120 to 30 columns as it runs"
w=$(widest "$tmp/tty.r")
check "... drew wider lines first (widest: $w)" test "$w" -ge 30
drawn "$tmp/tty.r" '^.{1,29}$' "... and its last line within 30 columns, after SIGWINCH"

done_testing
