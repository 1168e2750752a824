/* t0500-mail: lib/mail's message as a mailing list wants it: the headers
 * in order, CRLF line endings, encoded words for a UTF-8 subject or name,
 * folding before 78 columns, threading headers, refusals (a bad address,
 * a line break in a header, an overlong body line), the mbox form, and a
 * send to a port where nothing listens failing with libcurl's error.
 * Covers: lib/mail.c */
#include "config.h"
#include "lib/mail.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* 2026-11-29 22:32:26 UTC, a Sunday. */
#define DATE 1795991546

static int expect(const char *got, const char *want, const char *what)
{
	return ok_text(got, want, "%s", what);
}

/* msg holds want; else show msg. */
static void has(const struct strbuf *msg, const char *want, const char *what)
{
	int good = strstr(msg->buf, want) != NULL;

	ok(good, "%s", what);
	if (!good) {
		diag("want, within the message:");
		fputs(want, stdout);
		diag("got:");
		fputs(msg->buf, stdout);
		putchar('\n');
	}
}

/* mail_format fails and says why with want in its words. */
static void refused(const struct mail *m, const char *want, const char *what)
{
	struct strbuf msg = STRBUF_INIT, err = STRBUF_INIT;
	int rc = mail_format(m, &msg, &err);

	ok(rc && strstr(err.buf, want), "%s: %s", what, err.buf);
	strbuf_release(&msg);
	strbuf_release(&err);
}

static void test_message(void)
{
	const char *to[] = { "Linux MM <linux-mm@kvack.org>", "maintainer@example.org" };
	const char *cc[] = { "J. Random Hacker <jrh@example.org>" };
	struct mail m = {
		.from = "kbench bot <bench-bot@example.org>",
		.to = to, .nto = 2, .cc = cc, .ncc = 1,
		.subject = "Re: [PATCH] mm, slub: change percpu partial accounting",
		.in_reply_to = "20261128.v6.18-rc7@example.org",
		.body = "Hi,\n\nhackbench-process-sockets\nAmean 1 0.5380\n",
		.date = DATE,
		.message_id = "<1795991546.9260-kbench@example.org>",
	};
	struct strbuf msg = STRBUF_INIT, err = STRBUF_INIT;
	int rc;

	setenv("TZ", "UTC", 1);
	rc = mail_format(&m, &msg, &err);
	ok(!rc, "a message is made (%s)", err.buf);
	expect(msg.buf,
	       "Date: Sun, 29 Nov 2026 22:32:26 +0000\r\n"
	       "From: kbench bot <bench-bot@example.org>\r\n"
	       "To: Linux MM <linux-mm@kvack.org>, maintainer@example.org\r\n"
	       "Cc: \"J. Random Hacker\" <jrh@example.org>\r\n"
	       "Subject: Re: [PATCH] mm, slub: change percpu partial accounting\r\n"
	       "Message-ID: <1795991546.9260-kbench@example.org>\r\n"
	       "In-Reply-To: <20261128.v6.18-rc7@example.org>\r\n"
	       "References: <20261128.v6.18-rc7@example.org>\r\n"
	       "MIME-Version: 1.0\r\n"
	       "Content-Type: text/plain; charset=utf-8\r\n"
	       "Content-Transfer-Encoding: 8bit\r\n"
	       "\r\n"
	       "Hi,\r\n\r\nhackbench-process-sockets\r\nAmean 1 0.5380\r\n",
	       "headers in order, a display name with a '.' quoted, the Message-ID replied "
	       "to in <>, CRLF everywhere");
	strbuf_release(&msg);
	strbuf_release(&err);
}

static void test_encoding_and_folding(void)
{
	const char *to[] = {
		"first.recipient@example.org", "second.recipient@example.org",
		"third.recipient@example.org", "J\xc3\xb6rg M\xc3\xbcller <jm@example.org>",
	};
	struct mail m = {
		.from = "bot@example.org", .to = to, .nto = 4,
		.subject = "\xc3\xa9t\xc3\xa9: a subject that is long enough to need two encoded words",
		.body = "no newline at the end", .date = DATE, .message_id = "<x@y>",
	};
	struct strbuf msg = STRBUF_INIT, err = STRBUF_INIT;
	const char *p;
	int longest = 0, rc;

	rc = mail_format(&m, &msg, &err);
	ok(!rc, "a message with UTF-8 is made (%s)", err.buf);
	for (p = msg.buf; *p; p += strcspn(p, "\n") + 1)
		if ((int)strcspn(p, "\r") > longest)
			longest = (int)strcspn(p, "\r");
	ok(longest <= 78, "every header line is within 78 columns (longest %d)", longest);
	has(&msg, "To: first.recipient@example.org, second.recipient@example.org,\r\n"
	    " third.recipient@example.org, =?UTF-8?B?SsO2cmcgTcO8bGxlcg==?=\r\n"
	    " <jm@example.org>\r\n",
	    "To is folded at blanks, the name with umlauts an encoded word");
	has(&msg, "Subject: =?UTF-8?B?w6l0w6k6IGEgc3ViamVjdCB0aGF0IGlzIGxvbmcgZW5vdWdo?=\r\n"
	    " =?UTF-8?B?IHRvIG5lZWQgdHdvIGVuY29kZWQgd29yZHM=?=\r\n",
	    "a UTF-8 subject is encoded words on folded lines");
	has(&msg, "\r\n\r\nno newline at the end\r\n", "the body's last line gets its CRLF");
	strbuf_release(&msg);
	strbuf_release(&err);
}

static void test_refusals(void)
{
	const char *bad[] = { "not-an-address" };
	const char *good[] = { "a@b.c" };
	struct mail m = { .from = "bot@example.org", .to = bad, .nto = 1, .subject = "s",
			  .body = "", .date = DATE, .message_id = "<x@y>" };
	struct strbuf line = STRBUF_INIT;

	refused(&m, "'not-an-address' is not a mail", "a recipient without '@' is refused");
	m.to = good;
	m.subject = "two\r\nBcc: victim@example.org";
	refused(&m, "subject holds a line break", "a line break in the subject is refused");
	m.subject = "s";
	for (int i = 0; i < 999; i++)
		strbuf_addch(&line, 'x');
	strbuf_addch(&line, '\n');
	m.body = line.buf;
	refused(&m, "line 1 of the body is 999 bytes", "a body line over 998 bytes is refused");
	m.nto = 0;
	refused(&m, "no recipient", "a message without recipients is refused");
	strbuf_release(&line);
}

/* References: the thread above, then the mails answered, each id once,
 * in <>, folded; ids as a header holds them or as a user types them. */
static void test_references(void)
{
	const char *to[] = { "a@b.c" };
	struct mail m = {
		.from = "bot@example.org", .to = to, .nto = 1, .subject = "s", .body = "",
		.date = DATE, .message_id = "<x@y>",
		.in_reply_to = "<reply.2@example.org>",
		.references = "<cover.1@example.org>\r\n <patch.1@example.org>,\t"
			      "reply.2@example.org patch.1@example.org",
	};
	struct strbuf msg = STRBUF_INIT, err = STRBUF_INIT;

	ok(!mail_format(&m, &msg, &err), "a reply deep in a thread is made (%s)", err.buf);
	has(&msg, "In-Reply-To: <reply.2@example.org>\r\n"
	    "References: <cover.1@example.org> <patch.1@example.org> <reply.2@example.org>\r\n",
	    "References: the chain in order, each id once, the mail answered last");
	m.in_reply_to = "a1@example.org a2@example.org";
	m.references = NULL;
	strbuf_reset(&msg);
	ok(!mail_format(&m, &msg, &err), "a reply to two mails is made (%s)", err.buf);
	has(&msg, "In-Reply-To: <a1@example.org> <a2@example.org>\r\n"
	    "References: <a1@example.org> <a2@example.org>\r\n", "both answered, both referenced");
	m.in_reply_to = NULL;
	m.references = "<cover.1@example.org>";
	refused(&m, "References without In-Reply-To", "references without a mail answered");
	m.in_reply_to = "<a@example.org>";
	m.references = "<cover.1@example.org> <oops> <@x> <y@>";
	refused(&m, "'<oops>' is not a Message-ID", "an id without '@' is refused");
	m.references = "<y@>";
	refused(&m, "'<y@>' is not a Message-ID", "an id without a right part is refused");
	m.references = "a@b@c";
	refused(&m, "'a@b@c' is not a Message-ID", "an id with two '@' is refused");
	strbuf_release(&msg);
	strbuf_release(&err);
}

static void test_address_and_id(void)
{
	struct strbuf a = STRBUF_INIT, err = STRBUF_INIT, id = STRBUF_INIT;

	int rc;

	rc = mail_address("  Some One <some.one@example.org> ", &a, &err);
	ok(!rc && !strcmp(a.buf, "some.one@example.org"), "the address of a mailbox: '%s'", a.buf);
	strbuf_reset(&a);
	rc = mail_address("Some One <some.one@example.org", &a, &err);
	ok(rc && strstr(err.buf, "unclosed '<'"), "an unclosed '<' is refused: %s", err.buf);
	mail_message_id("Bot <bot@lists.example.org>", DATE, &id);
	ok(!strncmp(id.buf, "<20261129223226.", 16) &&
	   strlen(id.buf) > 30 && !strcmp(id.buf + strlen(id.buf) - 19, "@lists.example.org>"),
	   "a Message-ID: the date, then the sender's domain: %s", id.buf);
	strbuf_release(&a);
	strbuf_release(&err);
	strbuf_release(&id);
}

static void test_mbox(void)
{
	struct strbuf out = STRBUF_INIT;

	mail_mbox("Subject: s\r\n\r\nFrom here on\r\n>From there\r\nnot From\r\n",
		  "bot@example.org", DATE, &out);
	expect(out.buf,
	       "From bot@example.org Sun Nov 29 22:32:26 2026\n"
	       "Subject: s\n\n>From here on\n>>From there\nnot From\n\n",
	       "mbox: a From_ line, LF endings, '>*From ' lines quoted, an empty line at "
	       "the end");
	strbuf_release(&out);
}

/* A loopback port where nothing listens: bound, never listened on. */
static int dead_port(int *fd)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	*fd = socket(AF_INET, SOCK_STREAM, 0);
	if (*fd < 0 || bind(*fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(*fd, (struct sockaddr *)&sa, &len))
		return -1;
	return ntohs(sa.sin_port);
}

static void test_send_refused(void)
{
	const char *rcpt[] = { "a@example.org" };
	struct strbuf msg = STRBUF_INIT, err = STRBUF_INIT, reply = STRBUF_INIT;
	struct strbuf url = STRBUF_INIT;
	struct mail_server srv = { .url = NULL };
	int fd, rc, port = dead_port(&fd);

	if (port < 0) {
		skip("no loopback port to try");
		return;
	}
	strbuf_addf(&url, "smtp://127.0.0.1:%d", port);
	srv.url = url.buf;
	strbuf_addstr(&msg, "Subject: s\r\n\r\nbody\r\n");
	rc = mail_send(&srv, "bot@example.org", rcpt, 1, &msg, &err, &reply);
	ok(rc && strstr(err.buf, "connect") && !reply.len,
	   "a refused connection fails with libcurl's error: %s", err.buf);
	strbuf_reset(&err);
	srv.url = "http://127.0.0.1/";
	rc = mail_send(&srv, "bot@example.org", rcpt, 1, &msg, &err, &reply);
	ok(rc && strstr(err.buf, "expected smtp://"), "a URL that is not SMTP is refused: %s",
	   err.buf);
	close(fd);
	strbuf_release(&url);
	strbuf_release(&msg);
	strbuf_release(&err);
	strbuf_release(&reply);
}

int main(void)
{
	test_message();
	test_encoding_and_folding();
	test_refusals();
	test_references();
	test_address_and_id();
	test_mbox();
	test_send_refused();
	return done_testing();
}
