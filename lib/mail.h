/* mail: a plain-text mail as kernel mailing lists want it (RFC 5322 with
 * CRLF line endings, text/plain; charset=utf-8, 8bit, no format=flowed,
 * In-Reply-To and References for threading), its mbox form (for git
 * send-email, mutt, git am), and its delivery over SMTP with libcurl.
 *
 *	struct mail m = { .from = ..., .to = ..., .nto = 1, .subject = ...,
 *			  .body = text, .date = time(NULL) };
 *
 *	if (mail_format(&m, &msg, &err) || mail_send(&srv, from, rcpt, n,
 *						    &msg, &err, &reply))
 *		(say err and reply; keep msg)
 */
#ifndef KBENCH_MAIL_H
#define KBENCH_MAIL_H

#include <stddef.h>
#include <time.h>

struct strbuf;

struct mail {
	const char *from;		/* "Name <addr@host>" or "addr@host" */
	const char *const *to;		/* mailboxes as from */
	size_t nto;
	const char *const *cc;
	size_t ncc;
	const char *subject;		/* UTF-8; encoded when not ASCII */
	const char *in_reply_to;	/* the Message-ID of the mail answered,
					 * with or without <> (several: blanks
					 * or commas between); NULL: not a reply */
	const char *references;		/* the thread above it, oldest first (the
					 * References of the mail answered), as
					 * in_reply_to; NULL: none */
	const char *body;		/* UTF-8 text, LF line endings */
	time_t date;
	const char *message_id;		/* "<...>"; NULL: one is made */
};

/* The address of a mailbox ("Name <addr>" or "addr"), appended to addr.
 * Returns 0, or -1 with err saying why it is not one (no '@', blanks or
 * control characters in it, an unclosed '<'). */
int mail_address(const char *mailbox, struct strbuf *addr, struct strbuf *err);

/* A new Message-ID for a message from mailbox from, appended to out:
 * "<20261201093000.4242.5f3a9c1e@DOMAIN>", DOMAIN that of the address. */
void mail_message_id(const char *from, time_t date, struct strbuf *out);

/* Whether v may stand in a header (the subject: what names it in err):
 * no line break nor control character. Returns 0, or -1 with err saying
 * why not. */
int mail_check_header_text(const char *what, const char *v, struct strbuf *err);
/* Whether list holds Message-IDs only (LEFT@RIGHT, angle brackets
 * optional, blanks or commas between), as In-Reply-To and References
 * take them. Returns 0, or -1 with err naming the first that is not one. */
int mail_check_msg_ids(const char *list, struct strbuf *err);

/* m as an RFC 5322 message with CRLF line endings, appended to out:
 * Date, From, To, Cc, Subject, Message-ID, In-Reply-To and References
 * (the references, then the Message-IDs answered, each once, folded),
 * MIME-Version, Content-Type and Content-Transfer-Encoding, then the body.
 * Returns 0, or -1 with err saying why (a mailbox that is not one, a line
 * break in a header, a Message-ID that is not one, references without a
 * mail answered, a body line longer than 998 bytes or a NUL byte). */
int mail_format(const struct mail *m, struct strbuf *out, struct strbuf *err);

/* A message as mail_format makes it, as one mboxrd message appended to
 * out: a "From ENVELOPE-FROM DATE" line, LF line endings, lines starting
 * with ">*From " given one more '>', and an empty line at the end. */
void mail_mbox(const char *msg, const char *envelope_from, time_t date, struct strbuf *out);

/* Where and how to send. */
struct mail_server {
	/* smtp://HOST[:PORT][/EHLO-NAME]: STARTTLS, required unless HOST is a
	 * loopback address (there it is used when offered); smtps://: TLS
	 * from the start. */
	const char *url;
	/* NULL: the credentials of ~/.netrc for HOST, if any. Never logged,
	 * printed or stored. */
	const char *user, *password;
	const char *cafile;	/* NULL: the system's CA certificates */
	long timeout_s;		/* the whole transfer; 0: MAIL_TIMEOUT_S */
};

/* The longest a mail may take to send, and the longest the server may
 * stay silent (a connection, a reply, the end of DATA): at most
 * MAIL_STALL_S, and never more than the whole. */
#define MAIL_TIMEOUT_S 120
#define MAIL_STALL_S 30

/* Send msg (as mail_format makes it) with envelope sender from and
 * recipients rcpt[0..n-1] (addresses). Returns 0, or -1 with err holding
 * libcurl's error and reply the server's last refusal (a 4xx or 5xx
 * reply), else its last reply (empty when it sent none). */
int mail_send(const struct mail_server *srv, const char *from, const char *const *rcpt,
	      size_t n, const struct strbuf *msg, struct strbuf *err, struct strbuf *reply);

#endif
