#!/bin/sh
# t2500: kbench mail against a real SMTP server (aiosmtpd) on a loopback
# port, started here and stopped by its PID when the test ends, pass or
# fail: the message arrives byte for byte; a rejected recipient, a refused
# connection, a server closing mid-DATA, a TLS failure and an auth failure
# each say why and save the mail; STARTTLS with a self-signed certificate
# made here; [mail] defaults; --dry-run's mbox.
# Covers: cli/cmd_mail.c lib/mail.c

. "$TOP_SRCDIR/tests/cli/lib.sh"

# Debian's python3-aiosmtpd is a module of /usr/bin/python3, which another
# python3 on PATH may not see.
PY=/usr/bin/python3
if ! "$PY" -c 'import aiosmtpd' 2>/dev/null; then
	if [ "${CI:-}" = true ]; then
		ok 1 "python3-aiosmtpd is installed (CI=true: .ci/install-deps --test installs it)"
	else
		skip "no SMTP server to test against: apt-get install python3-aiosmtpd"
	fi
	done_testing
	exit
fi

# The servers started, stopped by PID whatever happens.
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

# Nothing of the user's: their config, ~/.netrc, data directory.
HOME=$tmp/home XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data
export HOME XDG_CONFIG_HOME XDG_DATA_HOME
mkdir -p "$HOME" "$XDG_CONFIG_HOME/kbench"
unset KBENCH_SMTP_USER KBENCH_SMTP_PASSWORD

# The server: each message it accepts goes to DIR/msgN (the bytes of its
# DATA) and DIR/envN (sender, recipients, "tls" or "plain"). MODE: plain;
# reject (refuses recipients named nobody@); close (closes the connection
# after the first line of DATA); tls (STARTTLS required, with CERT and
# KEY); auth (AUTH required: user bench, password right).
cat >"$tmp/smtpd.py" <<'PY'
import asyncio, os, ssl, sys
from aiosmtpd.smtp import SMTP, AuthResult

mode, outdir, portfile, cert, key = sys.argv[1:6]


class Handler:
    async def handle_RCPT(self, server, session, envelope, address, options):
        if mode == 'reject' and address.startswith('nobody@'):
            return '550 5.1.1 <%s>: Recipient address rejected: User unknown' % address
        envelope.rcpt_tos.append(address)
        return '250 OK'

    async def handle_DATA(self, server, session, envelope):
        n = len([f for f in os.listdir(outdir) if f.startswith('msg')])
        with open(os.path.join(outdir, 'msg%d' % n), 'wb') as f:
            f.write(envelope.original_content)
        with open(os.path.join(outdir, 'env%d' % n), 'w') as f:
            f.write('%s\n%s\n%s\n' % (envelope.mail_from, ' '.join(envelope.rcpt_tos),
                                      'tls' if session.ssl else 'plain'))
        return '250 2.0.0 Ok: queued'


class ClosingSMTP(SMTP):
    async def smtp_DATA(self, arg):
        await self.push('354 End data with <CR><LF>.<CR><LF>')
        await self._reader.readuntil(b'\r\n')
        self.transport.close()


def check(server, session, envelope, mechanism, data):
    good = data.login == b'bench' and data.password == b'right'
    return AuthResult(success=good, handled=False)


def factory():
    kw = {'hostname': 'localhost'}
    if mode == 'tls':
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(cert, key)
        kw.update(tls_context=ctx, require_starttls=True)
    if mode == 'auth':
        kw.update(authenticator=check, auth_required=True, auth_require_tls=False)
    return (ClosingSMTP if mode == 'close' else SMTP)(Handler(), **kw)


async def main():
    server = await asyncio.get_running_loop().create_server(factory, '127.0.0.1', 0)
    with open(portfile + '.tmp', 'w') as f:
        f.write('%d\n' % server.sockets[0].getsockname()[1])
    os.rename(portfile + '.tmp', portfile)
    await server.serve_forever()

asyncio.run(main())
PY

# start_server NAME MODE: a server writing into $tmp/NAME; sets $port.
start_server() {
	mkdir -p "$tmp/$1"
	"$PY" "$tmp/smtpd.py" "$2" "$tmp/$1" "$tmp/$1.port" "$tmp/cert.pem" "$tmp/key.pem" \
		>"$tmp/$1.log" 2>&1 &
	servers="$servers $!"
	i=0
	while [ ! -s "$tmp/$1.port" ] && [ "$i" -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	port=$(cat "$tmp/$1.port" 2>/dev/null)
	[ -n "$port" ] || { echo "# the $2 server did not start:"; comment "$tmp/$1.log"; }
}

# Two runs of fixed samples to compare.
{
	echo "INSERT INTO machines (id, hostname, cpu_model, cpus, cores, packages, numa_nodes,
		mem_bytes, fingerprint) VALUES (1, 'alpha', 'Test CPU', 8, 4, 1, 1, 17179869184, 'fp');"
	for r in 1 2; do
		name=$(echo "6.1.0-vanilla 6.1.0-patched" | cut -d' ' -f$r)
		echo "INSERT INTO runs (id, uuid, name, machine_id, kernel_release, kernel_cmdline,
			config_name, config_text, started_at, status) VALUES ($r,
			'0000000$r-0000-4000-8000-000000000000', '$name', 1, '6.1.0', 'ro quiet', 'hb',
			'[hackbench-process-sockets]', '2026-11-2${r}T10:00:00Z', 'complete');"
		i=0
		for v in 0.5$r 0.5$((r + 1)) 0.5$((r + 2)); do
			i=$((i + 1))
			echo "INSERT INTO samples (run_id, section, workload, row, iteration, value,
				unit, better, duration_ns, user_ns, sys_ns) VALUES ($r,
				'hackbench-process-sockets', 'hackbench', '4', $i, $v, 's', 'lower',
				500000000, 100000000, 300000000);"
		done
	done
} >"$tmp/fixture.sql"
: >"$db"	# an empty file: the first reader makes it a store
kb runs >/dev/null 2>&1
check "two runs to compare are stored" sql_write_file "$tmp/fixture.sql"
# Run names resolve on this host only: the runs were measured on alpha.
KBENCH_HOSTNAME=alpha
export KBENCH_HOSTNAME

# The intro has a line starting with a dot (SMTP stuffs it) and one with
# "From " (mbox quotes it).
cat >"$tmp/intro" <<'EOF'
Hi Vlastimil,

hackbench on alpha, before and after the patch:
. (this line starts with a dot)
From the second run on, the partial lists were shorter.
EOF

# The message kbench sends for these arguments, as received (CRLF); Date
# and Message-ID read DATE and MSGID.
want_message() {
	{
		printf 'Date: DATE\n'
		printf 'From: kbench bot <bot@example.org>\n'
		printf 'To: Linux MM <linux-mm@kvack.org>\n'
		printf 'Cc: maintainer@example.org\n'
		printf 'Subject: Re: [PATCH] mm, slub: percpu partial lists in pages\n'
		printf 'Message-ID: MSGID\n'
		printf 'In-Reply-To: <20210913.v1@example.org>\n'
		printf 'References: <20210913.v1@example.org>\n'
		printf 'MIME-Version: 1.0\n'
		printf 'Content-Type: text/plain; charset=utf-8\n'
		printf 'Content-Transfer-Encoding: 8bit\n\n'
		cat "$tmp/intro"
		echo
		kb compare 6.1.0-vanilla 6.1.0-patched
	} | sed 's/$/\r/'
}
date_re='^Date: (Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} [-+][0-9]{4}'
id_re='^Message-ID: <[0-9]{14}\.[0-9]+\.[0-9a-f]{8}@example\.org>'
# received FILE: FILE with Date and Message-ID replaced, after checking them.
received() {
	grep -Eq "$date_re" "$1" || echo "# no RFC 5322 Date line in $1"
	grep -Eq "$id_re" "$1" || echo "# no Message-ID of the sender's domain in $1"
	sed -E -e "s/$date_re/Date: DATE/" -e "s/$id_re/Message-ID: MSGID/" "$1"
}
# check_same DESC WANT GOT: byte for byte, else the differences (CR as ^M).
check_same() {
	if cmp -s "$2" "$3"; then
		ok 0 "$1"
	else
		ok 1 "$1"
		diff -u "$2" "$3" | sed 's/\r/^M/' | comment
	fi
}
reply_mail() {	# reply_mail ARGS...: kbench mail of want_message
	kb mail --from 'kbench bot <bot@example.org>' --to 'Linux MM <linux-mm@kvack.org>' \
		--cc maintainer@example.org \
		--subject 'Re: [PATCH] mm, slub: percpu partial lists in pages' \
		--in-reply-to 20210913.v1@example.org --intro "$tmp/intro" "$@"
}
# The saved mail's path: its date and random part masked; and the port.
saved_sed='s#(saved in TMP/data/kbench/unsent/)[0-9]{8}-[0-9]{6}-[A-Za-z0-9]{6}\.mbox#\1YYYYMMDD-hhmmss-XXXXXX.mbox#
s#127\.0\.0\.1:[0-9]+#127.0.0.1:PORT#g'
saved_file() { sed -n 's/.*the mail is saved in \(.*\.mbox\) .*/\1/p' "$tmp/tr.err"; }

# ---- delivered, byte for byte ----
start_server plain plain
want_message >"$tmp/want"
reply_mail --smtp "smtp://127.0.0.1:$port" -- 6.1.0-vanilla 6.1.0-patched >"$tmp/out" 2>"$tmp/err"
st=$?
is "the mail is sent: exit 0, a notice with its Message-ID" \
	"$st $(sed -E 's/<[^>]+>/<MSGID>/' "$tmp/err")" \
	"0 kbench: notice: sent <MSGID> to 2 recipients"
received "$tmp/plain/msg0" >"$tmp/got"
check_same "the server received the message byte for byte (Date and Message-ID by pattern)" \
	"$tmp/want" "$tmp/got"
is "... from the sender's address to every recipient, To and Cc" "$(cat "$tmp/plain/env0")" \
"bot@example.org
linux-mm@kvack.org maintainer@example.org
plain"
is "... and the Message-ID on stderr is the one sent" \
	"$(sed -n 's/.*sent \(<[^>]*>\).*/\1/p' "$tmp/err")" \
	"$(sed -n 's/^Message-ID: \(<[^>]*>\)\r$/\1/p' "$tmp/plain/msg0")"

# ---- --dry-run: mbox on stdout, nothing sent ----
reply_mail --dry-run -- 6.1.0-vanilla 6.1.0-patched >"$tmp/mbox" 2>"$tmp/err"
st=$?
is "--dry-run: exit 0, nothing on stderr" "$st $(cat "$tmp/err")" "0 "
is "... the mbox starts with a From_ line of the sender" \
	"$(head -n 1 "$tmp/mbox" | sed -E 's/ (Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ 1-3][0-9] [0-9:]{8} [0-9]{4}$/ DATE/')" \
	"From bot@example.org DATE"
sed 1d "$tmp/mbox" | sed 's/^>From /From /' | sed '$d' >"$tmp/mbox.msg"
received "$tmp/mbox.msg" >"$tmp/mbox.got"
tr -d '\r' <"$tmp/want" >"$tmp/want.lf"
check_same "... then the same message with LF endings, 'From ' quoted, an empty line" \
	"$tmp/want.lf" "$tmp/mbox.got"
is "... and nothing reached the server" "$(ls "$tmp/plain" | tr '\n' ' ')" "env0 msg0 "
stop_servers

# ---- a rejected recipient ----
start_server reject reject
expect_transcript -e "$saved_sed" \
	"a rejected recipient: the server's reply, libcurl's error, the mail saved" \
	kb mail --from bot@example.org --to linux-mm@kvack.org --to nobody@example.org \
	--subject test --smtp "smtp://127.0.0.1:$port" -- --format brief 6.1.0-vanilla 6.1.0-patched <<'T'
$ kb mail --from bot@example.org --to linux-mm@kvack.org --to nobody@example.org --subject test --smtp smtp://127.0.0.1:PORT -- --format brief 6.1.0-vanilla 6.1.0-patched
2> kbench: cannot send the mail: Failed sending data to the peer (RCPT failed: 550)
2> kbench: the server said: 550 5.1.1 <nobody@example.org>: Recipient address rejected: User unknown
2> kbench: the mail is saved in TMP/data/kbench/unsent/YYYYMMDD-hhmmss-XXXXXX.mbox (git send-email can send it)
[exit 1]
T
f=$(saved_file)
kb mail --from bot@example.org --to linux-mm@kvack.org --to nobody@example.org --subject test \
	--dry-run -- --format brief 6.1.0-vanilla 6.1.0-patched >"$tmp/dry"
is "... the saved file is the mail's mbox (as --dry-run writes it)" \
	"$(received "$f" | sed 1d)" "$(received "$tmp/dry" | sed 1d)"
is "... and nothing was delivered" "$(ls "$tmp/reject")" ""
stop_servers

# ---- a server that closes the connection in the middle of DATA ----
start_server close close
expect_transcript -e "$saved_sed" -e 's/^(2> kbench: cannot send the mail: ).+/\1ERROR/' \
	"a server closing mid-DATA: libcurl's error, the last reply (354), the mail saved" \
	kb mail --from bot@example.org --to linux-mm@kvack.org --subject test \
	--smtp "smtp://127.0.0.1:$port" -- 6.1.0-vanilla 6.1.0-patched <<'T'
$ kb mail --from bot@example.org --to linux-mm@kvack.org --subject test --smtp smtp://127.0.0.1:PORT -- 6.1.0-vanilla 6.1.0-patched
2> kbench: cannot send the mail: ERROR
2> kbench: the server said: 354 End data with <CR><LF>.<CR><LF>
2> kbench: the mail is saved in TMP/data/kbench/unsent/YYYYMMDD-hhmmss-XXXXXX.mbox (git send-email can send it)
[exit 1]
T
check "... libcurl's error is named" grep -Eq 'cannot send the mail: [A-Z].{10,}' "$tmp/tr.err"
check "... the saved mail is whole" grep -q '^Samples:  6.1.0-vanilla 3, 6.1.0-patched 3$' \
	"$(saved_file)"
stop_servers

# ---- nothing listening ----
expect_transcript -e "$saved_sed" -e 's/port [0-9]+ after [0-9]+ ms/port PORT after N ms/' \
	"a refused connection: libcurl's error, no reply, the mail saved" \
	kb mail --from bot@example.org --to linux-mm@kvack.org --subject test \
	--smtp "smtp://127.0.0.1:$port" -- 6.1.0-vanilla 6.1.0-patched <<'T'
$ kb mail --from bot@example.org --to linux-mm@kvack.org --subject test --smtp smtp://127.0.0.1:PORT -- 6.1.0-vanilla 6.1.0-patched
2> kbench: cannot send the mail: Couldn't connect to server (Failed to connect to 127.0.0.1 port PORT after N ms: Couldn't connect to server)
2> kbench: the mail is saved in TMP/data/kbench/unsent/YYYYMMDD-hhmmss-XXXXXX.mbox (git send-email can send it)
[exit 1]
T

# ---- servers that go quiet: bounded by --timeout, or [mail] timeout ----
# quiet MODE: a listener that accepts and never answers (silent), or
# answers until DATA and then says nothing (smtp-data); its port in $qport.
quiet() {
	rm -f "$tmp/qport"
	"$PY" "$TOP_SRCDIR/tests/cli/silent-listener.py" "$1" "$tmp/qport" 60 &
	servers="$servers $!"
	wait_until 10 test -s "$tmp/qport"
	qport=$(cat "$tmp/qport")
}
# quiet_mail ARGS...: kb mail to the quiet listener, its seconds in $took.
quiet_mail() {
	qm_t0=$(date +%s)
	kb mail --from bot@example.org --to linux-mm@kvack.org --subject test \
		--smtp "smtp://127.0.0.1:$qport" "$@" -- 6.1.0-vanilla 6.1.0-patched \
		>"$tmp/out" 2>"$tmp/err"
	qm_st=$?
	took=$(( $(date +%s) - qm_t0 ))
	return $qm_st
}
# The bounds are far below the 120 s default and the listeners' 60 s, so
# a loaded machine (sanitizers, a parallel suite) cannot fail them; only
# a limit not applied can.
quiet silent
quiet_mail --timeout 3
is "a server that never answers: not sent" "$?" 1
check "... given up within --timeout" test "$took" -le 30
check "... saying it timed out" grep -q "cannot send the mail: Timeout was reached" "$tmp/err"
check "... the mail saved" grep -q "the mail is saved in" "$tmp/err"
quiet smtp-data
quiet_mail --timeout 3
is "a server that stalls after DATA: not sent" "$?" 1
check "... given up within --timeout" test "$took" -le 30
check "... the mail saved" grep -q "the mail is saved in" "$tmp/err"
printf '[mail]\ntimeout = 2\n' >"$XDG_CONFIG_HOME/kbench/kbench.conf"
quiet_mail
is "timeout of [mail] is the default" "$?" 1
check "... given up within it" test "$took" -le 30
printf '[mail]\ntimeout = soon\n' >"$XDG_CONFIG_HOME/kbench/kbench.conf"
quiet_mail
is "an invalid timeout in [mail] is refused" "$?" 2
check "... named" grep -q "kbench.conf:2: invalid timeout 'soon' in \\[mail\\]" "$tmp/err"
rm "$XDG_CONFIG_HOME/kbench/kbench.conf"
stop_servers
servers=

# ---- STARTTLS with a certificate made here ----
if openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
	-addext subjectAltName=IP:127.0.0.1 -keyout "$tmp/key.pem" -out "$tmp/cert.pem" \
	>"$tmp/openssl.log" 2>&1; then
	start_server tls tls
	# The defaults from [mail]: sender, recipients, server; no CA file yet.
	cat >"$XDG_CONFIG_HOME/kbench/kbench.conf" <<EOF
[mail]
from = kbench bot <bot@example.org>
to = linux-mm@kvack.org, maintainer@example.org
smtp = smtp://127.0.0.1:$port
EOF
	expect_transcript -e "$saved_sed" \
		"STARTTLS to a certificate nobody trusts: the TLS error, the mail saved" \
		kb mail --subject test -- 6.1.0-vanilla 6.1.0-patched <<'T'
$ kb mail --subject test -- 6.1.0-vanilla 6.1.0-patched
2> kbench: cannot send the mail: SSL peer certificate or SSH remote key was not OK (SSL certificate problem: self-signed certificate)
2> kbench: the server said: 220 Ready to start TLS
2> kbench: the mail is saved in TMP/data/kbench/unsent/YYYYMMDD-hhmmss-XXXXXX.mbox (git send-email can send it)
[exit 1]
T
	is "... nothing was sent in the clear" "$(ls "$tmp/tls")" ""
	echo "cafile = $tmp/cert.pem" >>"$XDG_CONFIG_HOME/kbench/kbench.conf"
	kb mail --subject test -- 6.1.0-vanilla 6.1.0-patched >"$tmp/out" 2>"$tmp/err"
	ok $? "with the certificate as [mail] cafile the mail is sent"
	is "... over TLS (the server requires STARTTLS), to the recipients of [mail]" \
		"$(cat "$tmp/tls/env0" 2>&1)" \
"bot@example.org
linux-mm@kvack.org maintainer@example.org
tls"
	check "... the whole comparison arrived" grep -q '^Samples:  6.1.0-vanilla 3, 6.1.0-patched 3' \
		"$tmp/tls/msg0"
	stop_servers
	rm "$XDG_CONFIG_HOME/kbench/kbench.conf"
else
	comment "$tmp/openssl.log"
	for i in 1 2 3 4 5; do skip "openssl cannot make a certificate"; done
fi

# ---- credentials ----
start_server auth auth
KBENCH_SMTP_USER=bench KBENCH_SMTP_PASSWORD=s3cret-wrong \
	kb mail --from bot@example.org --to linux-mm@kvack.org --subject test \
	--smtp "smtp://127.0.0.1:$port" -- 6.1.0-vanilla 6.1.0-patched >"$tmp/out" 2>"$tmp/err"
st=$?
is "a refused login: exit 1, libcurl's error and the server's reply" \
	"$st $(sed -n '1,2p' "$tmp/err")" \
	"1 kbench: cannot send the mail: Login denied
kbench: the server said: 535 5.7.8 Authentication credentials invalid"
check "... the password is in no output and no saved file" \
	sh -c '! grep -rq s3cret "$1/out" "$1/err" "$1/data"' sh "$tmp"
KBENCH_SMTP_USER=bench KBENCH_SMTP_PASSWORD=right \
	kb mail --from bot@example.org --to linux-mm@kvack.org --subject test \
	--smtp "smtp://127.0.0.1:$port" -- 6.1.0-vanilla 6.1.0-patched >"$tmp/out" 2>"$tmp/err"
ok $? "the right credentials from KBENCH_SMTP_USER and KBENCH_SMTP_PASSWORD: sent"
check "... delivered" test -s "$tmp/auth/msg0"
stop_servers

# ---- refused before anything is sent ----
expect_transcript "no recipient" kb mail --from bot@example.org --dry-run -- a b <<'T'
$ kb mail --from bot@example.org --dry-run -- a b
2> kbench: no recipient: give --to ADDR (or set 'to' in [mail] of TMP/config/kbench/kbench.conf)
[exit 2]
T
expect_transcript "a recipient that is no address" \
	kb mail --from bot@example.org --to linux-mm --dry-run -- a b <<'T'
$ kb mail --from bot@example.org --to linux-mm --dry-run -- a b
2> kbench: invalid --to: 'linux-mm' is not a mail address (expected user@host)
[exit 2]
T
expect_transcript "no server" kb mail --from bot@example.org --to a@b.c -- a b <<'T'
$ kb mail --from bot@example.org --to a@b.c -- a b
2> kbench: no SMTP server: give --smtp URL (or set 'smtp' in [mail] of TMP/config/kbench/kbench.conf), or --dry-run
[exit 2]
T
expect_transcript "compare's own error, and its status" \
	kb mail --from bot@example.org --to a@b.c --dry-run -- 6.1.0-vanilla nosuch <<'T'
$ kb mail --from bot@example.org --to a@b.c --dry-run -- 6.1.0-vanilla nosuch
2> kbench: no run named 'nosuch' in TMP/k.db (see kbench runs)
[exit 1]
T
printf '[mail]\nfrom = bot@example.org\nsmpt = smtp://localhost\n' \
	>"$XDG_CONFIG_HOME/kbench/kbench.conf"
expect_transcript "an unknown key in [mail]" kb mail --to a@b.c --dry-run -- a b <<'T'
$ kb mail --to a@b.c --dry-run -- a b
2> kbench: TMP/config/kbench/kbench.conf:3: unknown key 'smpt' in [mail] (expected from, to, cc, smtp, cafile or timeout)
[exit 2]
T
rm "$XDG_CONFIG_HOME/kbench/kbench.conf"
expect_transcript -f t2500-mail-help.txt "--help" kb mail --help

done_testing
