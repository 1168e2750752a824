# lib-watch.sh: what the tests of kbench watch share: they skip without
# aiosmtpd or lib-vm.sh's kernels; okf; a home of their own; and
# $tmp/smtpd.py, an SMTP server that writes each message it accepts to
# OUTDIR/msgN:
#
#   "$PY" "$tmp/smtpd.py" OUTDIR PORTFILE [PORT]
#       listens on 127.0.0.1:PORT (default: a free port) and writes the
#       port to PORTFILE once it listens. Its pid is for the test to add
#       to $servers, which stop_servers stops (and the EXIT trap).
#
# Source it after lib.sh, lib-vm.sh and lib-kbuild.sh.

PY=/usr/bin/python3
if ! "$PY" -c 'import aiosmtpd' 2>/dev/null; then
	skip "no SMTP server to test against: apt-get install python3-aiosmtpd"
	done_testing
	exit
fi
if ! vm_kernels; then
	skip "$vm_why"
	done_testing
	exit
fi

# okf STATUS DESCRIPTION FILE: ok, showing FILE when it failed.
okf() {
	ok "$1" "$2"
	[ "$1" -eq 0 ] || comment "$3"
}

servers=
stop_servers() {
	for pid in $servers; do
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	servers=
}
trap 'stop_servers; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
HOME=$tmp/home XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data
export HOME XDG_CONFIG_HOME XDG_DATA_HOME
mkdir -p "$HOME" "$XDG_CONFIG_HOME"
unset KBENCH_SMTP_USER KBENCH_SMTP_PASSWORD
export KBENCH_KERNEL_CACHE="$tmp/builds"

# The SMTP server: each message it accepts goes to $tmp/mail/msgN.
cat >"$tmp/smtpd.py" <<'PY'
import asyncio, os, sys
from aiosmtpd.smtp import SMTP

outdir, portfile = sys.argv[1:3]
port = int(sys.argv[3]) if len(sys.argv) > 3 else 0


class Handler:
    async def handle_DATA(self, server, session, envelope):
        n = len([f for f in os.listdir(outdir) if f.startswith('msg')])
        with open(os.path.join(outdir, 'msg%d' % n), 'wb') as f:
            f.write(envelope.original_content)
        return '250 2.0.0 Ok: queued'


async def main():
    server = await asyncio.get_running_loop().create_server(
        lambda: SMTP(Handler(), hostname='localhost'), '127.0.0.1', port)
    with open(portfile + '.tmp', 'w') as f:
        f.write('%d\n' % server.sockets[0].getsockname()[1])
    os.rename(portfile + '.tmp', portfile)
    await server.serve_forever()

asyncio.run(main())
PY
