/* watch_mail: the mails of kbench watch: a culprit's report (the report
 * of its bisection) or a failed fetch or build, formatted and queued in
 * the store with its Message-ID before it is sent, sent over SMTP, and
 * kept pending (sent again by the next cycle) when it could not be. */
#include "config.h"
#include "watch/watch.h"
#include "watch/watch_internal.h"
#include "db/watch.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/mail.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "views/bisect_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void watch_now(char *buf, size_t len)
{
	clock_iso_utc(buf, len, time(NULL));
}

/* The sender when none is configured: the user at this host. */
static void sender(const struct watch_ctx *ctx, struct strbuf *from)
{
	const char *user = getenv("USER");

	if (ctx->r->cfg->from)
		strbuf_addstr(from, ctx->r->cfg->from);
	else
		strbuf_addf(from, "kbench <%s@%s>", user && *user ? user : "kbench",
			    ctx->hostname ? ctx->hostname : "localhost");
}

/* Format and queue one mail. */
static int queue(struct watch_ctx *ctx, const char *kind, const char *section,
		 const char *row, const char *culprit, const char *subject, const char *body)
{
	const struct watch_config *w = ctx->r->cfg;
	struct strbuf from = STRBUF_INIT, id = STRBUF_INIT, msg = STRBUF_INIT, err = STRBUF_INIT;
	struct mail m = { 0 };
	struct watch_mail wm = { 0 };
	char now[32];
	int64_t mail_id;
	int rc = -1, q;

	if (!w->nto) {
		notice("watch: no recipients (to = ADDR in [watch] or [mail]): '%s' is not mailed",
		       subject);
		return 0;
	}
	sender(ctx, &from);
	m.from = from.buf;
	m.to = (const char *const *)w->to;
	m.nto = w->nto;
	m.cc = (const char *const *)w->cc;
	m.ncc = w->ncc;
	m.subject = subject;
	m.body = body;
	m.date = time(NULL);
	mail_message_id(from.buf, m.date, &id);
	m.message_id = id.buf;
	if (mail_format(&m, &msg, &err)) {
		error("watch: cannot make the mail '%s': %s", subject, err.buf);
		goto out;
	}
	watch_now(now, sizeof(now));
	wm.kind = kind;
	wm.section = section;
	wm.row = row;
	wm.culprit = culprit;
	wm.subject = subject;
	wm.message_id = id.buf;
	wm.message = msg.buf;
	wm.queued_at = now;
	q = store_watch_queue_mail(ctx->s, ctx->watch_id, ctx->cycle_id, &wm, &mail_id);
	if (q < 0)
		goto out;
	if (q == 1)
		notice("watch: '%s' was mailed before: not again", subject);
	rc = 0;
out:
	strbuf_release(&from);
	strbuf_release(&id);
	strbuf_release(&msg);
	strbuf_release(&err);
	return rc;
}

int watch_queue_report(struct watch_ctx *ctx, const char *section, const char *row,
		       const char *culprit, int64_t bisect_id)
{
	struct strbuf body = STRBUF_INIT, subject = STRBUF_INIT;
	int rc = -1;

	if (bisect_report_text(ctx->s, bisect_id, &body, &subject))
		goto out;
	if (!subject.len)
		strbuf_addf(&subject, "kbench: %s/%s regressed at %.12s", section, row, culprit);
	rc = queue(ctx, "report", section, row, culprit, subject.buf, body.buf);
out:
	strbuf_release(&body);
	strbuf_release(&subject);
	return rc;
}

int watch_queue_failure(struct watch_ctx *ctx, const char *what, const char *tip,
			const char *subject_tip, const char *error_text)
{
	const struct watch_config *w = ctx->r->cfg;
	struct strbuf body = STRBUF_INIT, subject = STRBUF_INIT;
	int rc;

	if (!strcmp(what, "fetch"))
		strbuf_addf(&subject, "kbench watch: git fetch %s %s failed on %s", w->remote,
			    w->branch, ctx->hostname);
	else
		strbuf_addf(&subject, "kbench watch: the build of %s %s failed on %s", w->branch,
			    subject_tip, ctx->hostname);
	strbuf_addf(&body, "kbench watch follows branch %s of %s in %s on %s.\n\n", w->branch,
		    w->remote, w->tree, ctx->hostname);
	if (!strcmp(what, "fetch"))
		strbuf_addf(&body, "Its cycle #%lld could not fetch the branch:\n\n",
			    (long long)ctx->cycle_id);
	else
		strbuf_addf(&body, "Its cycle #%lld could not build the new tip, commit %s:\n\n",
			    (long long)ctx->cycle_id, tip);
	for (const char *p = error_text; *p;) {
		size_t len = strcspn(p, "\n");

		strbuf_addstr(&body, "    ");
		strbuf_add(&body, p, len);
		strbuf_addch(&body, '\n');
		p += len + (p[len] == '\n');
	}
	strbuf_addstr(&body, "\nThe next cycle goes on with the next tip; this failure is not "
			     "mailed again.\n");
	rc = queue(ctx, "failure", "", what, tip, subject.buf, body.buf);
	strbuf_release(&body);
	strbuf_release(&subject);
	return rc;
}

struct sending {
	struct watch_ctx *ctx;
	int64_t *ids;
	char **msgs, **mids;
	size_t n;
};

static int take_pending(const struct watch_mail *m, void *arg)
{
	struct sending *sd = arg;

	sd->ids = xrealloc(sd->ids, (sd->n + 1) * sizeof(*sd->ids));
	sd->msgs = xrealloc(sd->msgs, (sd->n + 1) * sizeof(*sd->msgs));
	sd->mids = xrealloc(sd->mids, (sd->n + 1) * sizeof(*sd->mids));
	sd->ids[sd->n] = m->id;
	sd->msgs[sd->n] = xstrdup(m->message);
	sd->mids[sd->n] = xstrdup(m->message_id);
	sd->n++;
	return 0;
}

int watch_send_pending(struct watch_ctx *ctx)
{
	const struct watch_config *w = ctx->r->cfg;
	struct sending sd = { .ctx = ctx };
	struct strbuf from = STRBUF_INIT, addr = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf reply = STRBUF_INIT, msg = STRBUF_INIT;
	struct mail_server srv = { 0 };
	const char **rcpt = NULL;
	size_t *off = NULL, nrcpt = 0;
	int rc = -1;

	if (store_watch_each_mail(ctx->s, ctx->watch_id, 0, 1, take_pending, &sd))
		goto out;
	rc = 0;
	if (!sd.n)
		goto out;
	if (!w->smtp) {
		error("watch: %zu mail%s pending and no smtp = URL in [watch] or [mail]", sd.n,
		      sd.n == 1 ? "" : "s");
		rc = 1;
		goto out;
	}
	sender(ctx, &from);
	if (mail_address(from.buf, &addr, &err)) {
		error("watch: from: %s", err.buf);
		rc = 1;
		goto out;
	}
	strbuf_addch(&addr, '\0');
	off = xcalloc(w->nto + w->ncc + 1, sizeof(*off));
	for (size_t i = 0; i < w->nto + w->ncc; i++) {
		off[nrcpt++] = addr.len;
		if (mail_address(i < w->nto ? w->to[i] : w->cc[i - w->nto], &addr, &err)) {
			error("watch: a recipient: %s", err.buf);
			rc = 1;
			goto out;
		}
		strbuf_addch(&addr, '\0');
	}
	rcpt = xcalloc(nrcpt + 1, sizeof(*rcpt));
	for (size_t i = 0; i < nrcpt; i++)
		rcpt[i] = addr.buf + off[i];
	srv.url = w->smtp;
	srv.cafile = w->cafile;
	srv.timeout_s = w->mail_timeout_s;
	srv.user = getenv("KBENCH_SMTP_USER");
	srv.password = getenv("KBENCH_SMTP_PASSWORD");
	for (size_t i = 0; i < sd.n; i++) {
		char now[32];

		strbuf_reset(&msg);
		strbuf_reset(&err);
		strbuf_reset(&reply);
		strbuf_addstr(&msg, sd.msgs[i]);
		if (mail_send(&srv, addr.buf, rcpt, nrcpt, &msg, &err, &reply)) {
			strbuf_rtrim(&reply);
			if (reply.len)
				strbuf_addf(&err, " (the server said: %s)", reply.buf);
			error("watch: cannot send %s: %s; it stays pending, for the next cycle",
			      sd.mids[i], err.buf);
			if (store_watch_mail_failed(ctx->s, sd.ids[i], err.buf)) {
				rc = -1;
				goto out;
			}
			rc = 1;
			continue;
		}
		watch_now(now, sizeof(now));
		if (store_watch_mail_sent(ctx->s, sd.ids[i], now)) {
			rc = -1;
			goto out;
		}
		printf("mailed %s to %zu recipient%s\n", sd.mids[i], nrcpt, nrcpt == 1 ? "" : "s");
		fflush(stdout);
	}
out:
	for (size_t i = 0; i < sd.n; i++) {
		free(sd.msgs[i]);
		free(sd.mids[i]);
	}
	free(sd.ids);
	free(sd.msgs);
	free(sd.mids);
	free(rcpt);
	free(off);
	strbuf_release(&from);
	strbuf_release(&addr);
	strbuf_release(&err);
	strbuf_release(&reply);
	strbuf_release(&msg);
	return rc;
}
