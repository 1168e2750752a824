/* mail: RFC 5322 formatting of a plain-text mail, its mboxrd form, and
 * SMTP delivery with libcurl (the message streamed through a read
 * callback; the server's replies watched through the debug callback,
 * which never looks at what is sent, credentials included). */
#include "config.h"
#include "lib/mail.h"
#include "lib/clock.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <curl/curl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define MAX_LINE_BYTES 998	/* RFC 5322 2.1.1, without the CRLF */
#define FOLD_COLUMN 78		/* header lines are folded before it */
#define ENCODED_BYTES 36	/* UTF-8 bytes in one encoded word (60 columns) */

static const char *const day_names[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
static const char *const month_names[] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
};

/* The date as RFC 5322 writes it, in local time, whatever the locale. */
static void add_date(struct strbuf *sb, time_t t)
{
	struct tm tm;
	long off;

	localtime_r(&t, &tm);
	off = tm.tm_gmtoff / 60;
	strbuf_addf(sb, "%s, %02d %s %04d %02d:%02d:%02d %c%02ld%02ld", day_names[tm.tm_wday],
		    tm.tm_mday, month_names[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
		    tm.tm_sec, off < 0 ? '-' : '+', labs(off) / 60, labs(off) % 60);
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int ascii_only(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] > 0x7e)
			return 0;
	return 1;
}

/* The display name (before '<') and address of a mailbox, blanks trimmed. */
static int split_mailbox(const char *mb, const char **name, size_t *nlen,
			 const char **addr, size_t *alen, struct strbuf *err)
{
	const char *lt = strrchr(mb, '<'), *a, *e;

	if (lt) {
		const char *gt = strchr(lt, '>');

		if (!gt) {
			strbuf_addf(err, "'%s' has an unclosed '<'", mb);
			return -1;
		}
		a = lt + 1;
		e = gt;
		*name = mb;
		*nlen = (size_t)(lt - mb);
		while (*nlen && is_blank(mb[*nlen - 1]))
			(*nlen)--;
		while (*nlen && is_blank(**name)) {
			(*name)++;
			(*nlen)--;
		}
	} else {
		a = mb;
		e = mb + strlen(mb);
		*name = mb;
		*nlen = 0;
	}
	while (a < e && is_blank(*a))
		a++;
	while (e > a && is_blank(e[-1]))
		e--;
	*addr = a;
	*alen = (size_t)(e - a);
	return 0;
}

int mail_address(const char *mailbox, struct strbuf *addr, struct strbuf *err)
{
	const char *name, *a, *at;
	size_t nlen, alen;

	if (split_mailbox(mailbox, &name, &nlen, &a, &alen, err))
		return -1;
	at = memchr(a, '@', alen);
	if (!alen || !at || at == a || at == a + alen - 1) {
		strbuf_addf(err, "'%s' is not a mail address (expected user@host)", mailbox);
		return -1;
	}
	for (size_t i = 0; i < alen; i++)
		if ((unsigned char)a[i] <= ' ' || (unsigned char)a[i] == 0x7f ||
		    strchr("<>,;\"()[]\\", a[i])) {
			strbuf_addf(err, "'%s' is not a mail address (it holds '%c')", mailbox,
				    (unsigned char)a[i] < ' ' ? '?' : a[i]);
			return -1;
		}
	for (size_t i = 0; i < nlen; i++)
		if ((unsigned char)name[i] < ' ' || name[i] == 0x7f) {
			strbuf_addf(err, "'%s' holds a control character", mailbox);
			return -1;
		}
	strbuf_add(addr, a, alen);
	return 0;
}

void mail_message_id(const char *from, time_t date, struct strbuf *out)
{
	struct strbuf addr = STRBUF_INIT, err = STRBUF_INIT;
	const char *domain = "localhost";
	uint64_t mix = (uint64_t)clock_ns(CLOCK_REALTIME) * 0x9e3779b97f4a7c15ull ^
		(uint64_t)clock_ns(CLOCK_MONOTONIC);
	struct tm tm;

	if (from && !mail_address(from, &addr, &err))
		domain = strchr(addr.buf, '@') + 1;
	gmtime_r(&date, &tm);
	strbuf_addf(out, "<%04d%02d%02d%02d%02d%02d.%ld.%08x@%s>", tm.tm_year + 1900,
		    tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long)getpid(),
		    (unsigned)(mix >> 32 ^ mix), domain);
	strbuf_release(&addr);
	strbuf_release(&err);
}

static void add_base64(struct strbuf *sb, const unsigned char *p, size_t len)
{
	static const char digits[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;

		if (i + 1 < len)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < len)
			v |= p[i + 2];
		strbuf_addch(sb, digits[v >> 18 & 63]);
		strbuf_addch(sb, digits[v >> 12 & 63]);
		strbuf_addch(sb, i + 1 < len ? digits[v >> 6 & 63] : '=');
		strbuf_addch(sb, i + 2 < len ? digits[v & 63] : '=');
	}
}

/* UTF-8 text as RFC 2047 encoded words, separated by blanks (where the
 * header may be folded); no word splits a character. */
static void add_encoded(struct strbuf *sb, const char *s, size_t len)
{
	while (len) {
		size_t n = len < ENCODED_BYTES ? len : ENCODED_BYTES;

		/* Do not cut before a continuation byte. */
		while (n < len && n > 1 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
		strbuf_addstr(sb, "=?UTF-8?B?");
		add_base64(sb, (const unsigned char *)s, n);
		strbuf_addstr(sb, "?=");
		s += n;
		len -= n;
		if (len)
			strbuf_addch(sb, ' ');
	}
}

/* A mailbox as a header shows it: the display name quoted when it holds
 * specials, encoded when it is not ASCII. */
static int add_mailbox(struct strbuf *sb, const char *mb, struct strbuf *err)
{
	struct strbuf addr = STRBUF_INIT;
	const char *name, *a;
	size_t nlen, alen;

	if (mail_address(mb, &addr, err)) {
		strbuf_release(&addr);
		return -1;
	}
	split_mailbox(mb, &name, &nlen, &a, &alen, err);
	if (nlen && !ascii_only(name, nlen)) {
		if (nlen >= 2 && name[0] == '"' && name[nlen - 1] == '"') {
			name++;
			nlen -= 2;
		}
		add_encoded(sb, name, nlen);
		strbuf_addch(sb, ' ');
	} else if (nlen) {
		int quoted = nlen >= 2 && name[0] == '"' && name[nlen - 1] == '"';
		int special = 0;

		for (size_t i = 0; i < nlen; i++)
			if (strchr("()<>[]:;@\\,.\"", name[i]))
				special = 1;
		if (special && !quoted) {
			strbuf_addch(sb, '"');
			for (size_t i = 0; i < nlen; i++) {
				if (name[i] == '"' || name[i] == '\\')
					strbuf_addch(sb, '\\');
				strbuf_addch(sb, name[i]);
			}
			strbuf_addstr(sb, "\" ");
		} else {
			strbuf_add(sb, name, nlen);
			strbuf_addch(sb, ' ');
		}
	}
	strbuf_addf(sb, nlen ? "<%s>" : "%s", addr.buf);
	strbuf_release(&addr);
	return 0;
}

/* "Name: value" folded before FOLD_COLUMN at its blanks, CRLF-ended. */
static void add_header(struct strbuf *out, const char *name, const char *value)
{
	size_t col = strlen(name) + 2;

	strbuf_addf(out, "%s:", name);
	for (const char *p = value; *p;) {
		size_t len;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		len = strcspn(p, " ");
		if (col + 1 + len > FOLD_COLUMN && col > strlen(name) + 2) {
			strbuf_addstr(out, "\r\n");
			col = 0;
		}
		strbuf_addch(out, ' ');
		strbuf_add(out, p, len);
		col += 1 + len;
		p += len;
	}
	strbuf_addstr(out, "\r\n");
}

static int add_mailbox_list(struct strbuf *out, const char *name, const char *const *v,
			    size_t n, struct strbuf *err)
{
	struct strbuf list = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		if (i)
			strbuf_addstr(&list, ", ");
		rc = add_mailbox(&list, v[i], err);
	}
	if (!rc)
		add_header(out, name, list.buf);
	strbuf_release(&list);
	return rc;
}

/* A header value given by the user: one line, no control characters. */
static int check_line(const char *what, const char *v, struct strbuf *err)
{
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f) {
			strbuf_addf(err, "the %s holds a line break or a control character", what);
			return -1;
		}
	return 0;
}

static int add_body(struct strbuf *out, const char *body, struct strbuf *err)
{
	size_t line = 1;

	for (const char *p = body; *p; line++) {
		size_t len = strcspn(p, "\n");
		size_t text = len && p[len - 1] == '\r' ? len - 1 : len;

		if (text > MAX_LINE_BYTES) {
			strbuf_addf(err, "line %zu of the body is %zu bytes long; a mail line holds "
				    "at most %d", line, text, MAX_LINE_BYTES);
			return -1;
		}
		strbuf_add(out, p, text);
		strbuf_addstr(out, "\r\n");
		p += len + (p[len] == '\n');
	}
	return 0;
}

static int printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			return 0;
	return 1;
}

/* The Message-IDs of list, each with or without its <>, separated by
 * blanks, line breaks or commas (a header pasted whole), appended to out
 * as "<a@b> <c@d>", leaving out those that out holds already. Returns 0,
 * or -1 with err naming one that is not a Message-ID. */
static int add_msg_ids(struct strbuf *out, const char *list, struct strbuf *err)
{
	struct strbuf id = STRBUF_INIT;
	int rc = 0;

	for (const char *p = list; *p && !rc;) {
		size_t len, at;

		p += strspn(p, " \t\r\n,");
		len = strcspn(p, " \t\r\n,");
		if (!len)
			break;
		strbuf_reset(&id);
		strbuf_addf(&id, "<%.*s>", (int)(len - (*p == '<') - (p[len - 1] == '>' && len > 1)),
			    p + (*p == '<'));
		at = strcspn(id.buf + 1, "@<>");
		if (id.len < 5 || id.buf[1 + at] != '@' || at == 0 || id.buf[2 + at] == '>' ||
		    strpbrk(id.buf + 2 + at, "@<") || strcspn(id.buf + 1, ">") != id.len - 2 ||
		    !printable(id.buf)) {
			strbuf_addf(err, "'%.*s' is not a Message-ID (expected <LEFT@RIGHT>)",
				    (int)len, p);
			rc = -1;
		} else if (!strstr(out->buf, id.buf)) {
			if (out->len)
				strbuf_addch(out, ' ');
			strbuf_addstr(out, id.buf);
		}
		p += len;
	}
	strbuf_release(&id);
	return rc;
}

int mail_check_header_text(const char *what, const char *v, struct strbuf *err)
{
	return check_line(what, v, err);
}

int mail_check_msg_ids(const char *list, struct strbuf *err)
{
	struct strbuf ids = STRBUF_INIT;
	int rc = add_msg_ids(&ids, list, err);

	strbuf_release(&ids);
	return rc;
}

int mail_format(const struct mail *m, struct strbuf *out, struct strbuf *err)
{
	struct strbuf v = STRBUF_INIT;
	int rc = -1;

	if (!m->nto) {
		strbuf_addstr(err, "the message has no recipient");
		goto out;
	}
	if (check_line("subject", m->subject ? m->subject : "", err) ||
	    (m->in_reply_to && check_line("Message-ID to reply to", m->in_reply_to, err)) ||
	    (m->message_id && check_line("Message-ID", m->message_id, err)))
		goto out;
	add_date(&v, m->date);
	add_header(out, "Date", v.buf);
	strbuf_reset(&v);
	if (add_mailbox(&v, m->from, err))
		goto out;
	add_header(out, "From", v.buf);
	if (add_mailbox_list(out, "To", m->to, m->nto, err) ||
	    (m->ncc && add_mailbox_list(out, "Cc", m->cc, m->ncc, err)))
		goto out;
	strbuf_reset(&v);
	if (m->subject && !ascii_only(m->subject, strlen(m->subject)))
		add_encoded(&v, m->subject, strlen(m->subject));
	else
		strbuf_addstr(&v, m->subject ? m->subject : "");
	add_header(out, "Subject", v.buf);
	strbuf_reset(&v);
	if (m->message_id)
		strbuf_addstr(&v, m->message_id);
	else
		mail_message_id(m->from, m->date, &v);
	add_header(out, "Message-ID", v.buf);
	strbuf_reset(&v);
	if (m->in_reply_to && add_msg_ids(&v, m->in_reply_to, err))
		goto out;
	if (v.len) {
		struct strbuf refs = STRBUF_INIT;

		add_header(out, "In-Reply-To", v.buf);
		/* The thread above the mail answered, then that mail. */
		if ((m->references && add_msg_ids(&refs, m->references, err)) ||
		    add_msg_ids(&refs, m->in_reply_to, err)) {
			strbuf_release(&refs);
			goto out;
		}
		add_header(out, "References", refs.buf);
		strbuf_release(&refs);
	} else if (m->references && *m->references) {
		strbuf_addstr(err, "References without In-Reply-To: give the Message-ID of the "
			      "mail answered too");
		goto out;
	}
	add_header(out, "MIME-Version", "1.0");
	add_header(out, "Content-Type", "text/plain; charset=utf-8");
	add_header(out, "Content-Transfer-Encoding", "8bit");
	strbuf_addstr(out, "\r\n");
	if (add_body(out, m->body, err))
		goto out;
	rc = 0;
out:
	strbuf_release(&v);
	return rc;
}

void mail_mbox(const char *msg, const char *envelope_from, time_t date, struct strbuf *out)
{
	struct tm tm;

	gmtime_r(&date, &tm);
	strbuf_addf(out, "From %s %s %s %2d %02d:%02d:%02d %04d\n", envelope_from,
		    day_names[tm.tm_wday], month_names[tm.tm_mon], tm.tm_mday, tm.tm_hour,
		    tm.tm_min, tm.tm_sec, tm.tm_year + 1900);
	for (const char *p = msg; *p;) {
		size_t len = strcspn(p, "\n");
		size_t text = len && p[len - 1] == '\r' ? len - 1 : len;
		size_t gt = strspn(p, ">");

		if (gt < text && !strncmp(p + gt, "From ", 5))
			strbuf_addch(out, '>');
		strbuf_add(out, p, text);
		strbuf_addch(out, '\n');
		p += len + (p[len] == '\n');
	}
	strbuf_addch(out, '\n');
}

/* ---- sending ---- */

struct upload {
	const char *buf;
	size_t len, pos;
};

static size_t read_message(char *dst, size_t size, size_t nmemb, void *arg)
{
	struct upload *u = arg;
	size_t n = u->len - u->pos;

	if (n > size * nmemb)
		n = size * nmemb;
	memcpy(dst, u->buf + u->pos, n);
	u->pos += n;
	return n;
}

/* The server's replies: the last one, all its lines, and the last one
 * that said no (4xx, 5xx), which explains a failure better than the QUIT
 * that may follow it. */
struct replies {
	struct strbuf last, refusal;
	int complete;		/* its final line came: the next line starts anew */
};

static int watch_replies(CURL *c, curl_infotype type, char *data, size_t size, void *arg)
{
	struct replies *r = arg;

	(void)c;
	/* Only what the server says: what we send holds the credentials. */
	if (type != CURLINFO_HEADER_IN)
		return 0;
	while (size) {
		size_t len = 0, text;

		while (len < size && data[len] != '\n')
			len++;
		text = len && data[len - 1] == '\r' ? len - 1 : len;
		if (r->complete) {
			strbuf_reset(&r->last);
			r->complete = 0;
		}
		if (r->last.len)
			strbuf_addch(&r->last, '\n');
		strbuf_add(&r->last, data, text);
		/* "250-more" continues a reply, "250 done" ends it. */
		if (text <= 3 || data[3] == ' ') {
			r->complete = 1;
			if (r->last.buf[0] == '4' || r->last.buf[0] == '5') {
				strbuf_reset(&r->refusal);
				strbuf_add(&r->refusal, r->last.buf, r->last.len);
			}
		}
		len += len < size;
		data += len;
		size -= len;
	}
	return 0;
}

/* Is the URL's host this machine (where STARTTLS protects nothing)? */
static int loopback_host(const char *url)
{
	CURLU *u = curl_url();
	char *host = NULL;
	int lo = 0;

	if (u && !curl_url_set(u, CURLUPART_URL, url, 0) &&
	    !curl_url_get(u, CURLUPART_HOST, &host, 0))
		lo = !strcasecmp(host, "localhost") || !strncmp(host, "127.", 4) ||
			!strcmp(host, "[::1]");
	curl_free(host);
	curl_url_cleanup(u);
	return lo;
}

int mail_send(const struct mail_server *srv, const char *from, const char *const *rcpt,
	      size_t n, const struct strbuf *msg, struct strbuf *err, struct strbuf *reply)
{
	static int curl_ready;
	char errbuf[CURL_ERROR_SIZE] = "";
	struct upload up = { .buf = msg->buf, .len = msg->len };
	struct replies replies = { .last = STRBUF_INIT, .refusal = STRBUF_INIT };
	struct curl_slist *to = NULL;
	struct strbuf addr = STRBUF_INIT;
	CURL *c = NULL;
	CURLcode res;
	int rc = -1;

	if (strncasecmp(srv->url, "smtp://", 7) && strncasecmp(srv->url, "smtps://", 8)) {
		strbuf_addf(err, "unsupported URL '%s' (expected smtp://HOST[:PORT] or "
			    "smtps://HOST[:PORT])", srv->url);
		return -1;
	}
	if (!curl_ready) {
		if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
			strbuf_addstr(err, "libcurl cannot be initialised");
			return -1;
		}
		curl_ready = 1;
	}
	if (!(c = curl_easy_init())) {
		strbuf_addstr(err, "libcurl cannot be initialised");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		strbuf_reset(&addr);
		strbuf_addf(&addr, "<%s>", rcpt[i]);
		to = curl_slist_append(to, addr.buf);
	}
	strbuf_reset(&addr);
	strbuf_addf(&addr, "<%s>", from);
	curl_easy_setopt(c, CURLOPT_URL, srv->url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	curl_easy_setopt(c, CURLOPT_MAIL_FROM, addr.buf);
	curl_easy_setopt(c, CURLOPT_MAIL_RCPT, to);
	curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(c, CURLOPT_READFUNCTION, read_message);
	curl_easy_setopt(c, CURLOPT_READDATA, &up);
	curl_easy_setopt(c, CURLOPT_USE_SSL,
			 loopback_host(srv->url) ? (long)CURLUSESSL_TRY : (long)CURLUSESSL_ALL);
	if (srv->user) {
		curl_easy_setopt(c, CURLOPT_USERNAME, srv->user);
		curl_easy_setopt(c, CURLOPT_PASSWORD, srv->password ? srv->password : "");
	} else {
		curl_easy_setopt(c, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
	}
	if (srv->cafile)
		curl_easy_setopt(c, CURLOPT_CAINFO, srv->cafile);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	{
		long timeout_s = srv->timeout_s > 0 ? srv->timeout_s : MAIL_TIMEOUT_S;
		long stall_s = timeout_s < MAIL_STALL_S ? timeout_s : MAIL_STALL_S;

		curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, stall_s);
		curl_easy_setopt(c, CURLOPT_TIMEOUT, timeout_s);
		/* A server that goes quiet, after DATA above all, would
		 * otherwise hold the mail for libcurl's own waits. */
		curl_easy_setopt(c, CURLOPT_SERVER_RESPONSE_TIMEOUT, stall_s);
		curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
		curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, stall_s);
	}
	/* The debug callback sees the replies; it prints nothing. */
	curl_easy_setopt(c, CURLOPT_DEBUGFUNCTION, watch_replies);
	curl_easy_setopt(c, CURLOPT_DEBUGDATA, &replies);
	curl_easy_setopt(c, CURLOPT_VERBOSE, 1L);
	res = curl_easy_perform(c);
	if (res != CURLE_OK) {
		const struct strbuf *said = replies.refusal.len ? &replies.refusal : &replies.last;

		strbuf_add(reply, said->buf, said->len);
		strbuf_addstr(err, curl_easy_strerror(res));
		if (*errbuf && strcmp(errbuf, curl_easy_strerror(res)))
			strbuf_addf(err, " (%s)", errbuf);
		goto out;
	}
	rc = 0;
out:
	curl_easy_cleanup(c);
	curl_slist_free_all(to);
	strbuf_release(&addr);
	strbuf_release(&replies.last);
	strbuf_release(&replies.refusal);
	return rc;
}
