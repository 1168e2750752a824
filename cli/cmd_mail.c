/* cmd_mail: kbench mail --to ADDR... [options] -- COMPARE-ARGS: has
 * compare/ make what `kbench compare COMPARE-ARGS` prints, puts it
 * (after an optional intro) in a plain-text mail and sends it over SMTP,
 * or writes the mail as mbox with --dry-run. Defaults come from [mail] in
 * the user's kbench.conf. A mail that cannot be sent is saved, never
 * lost. */
#include "config.h"
#include "views/bisect_report.h"
#include "cli/cmd.h"
#include "views/output.h"
#include "views/compare_cmdline.h"
#include "cli/complete.h"
#include "compare/render.h"
#include "db/bisect.h"
#include "db/store.h"
#include "runner/conf.h"
#include "lib/error.h"
#include "lib/io.h"
#include "lib/mail.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const struct parse_opt_usage mail_usage = {
	.synopsis = "kbench mail --to ADDR [--to ADDR...] [--cc ADDR...] [--from ADDR]\n"
		    "                  [--subject TEXT] [--in-reply-to MSGID [--references MSGIDS]]\n"
		    "                  [--smtp URL] [--intro FILE] [--dry-run] -- COMPARE-ARGS...\n"
		    "   or: kbench mail --to ADDR [options] --bisect BISECT",
	.description =
		"Mail a comparison as plain text, ready for a mailing list: the body is the\n"
		"intro, if any, then what 'kbench compare COMPARE-ARGS' prints, as text (the\n"
		"default) or --format brief; other formats are refused. With --bisect, the\n"
		"body is the report of a bisection, as kbench bisect --report prints it.",
	.help_column = 24,
	.epilogue =
		"Defaults for --from, --to, --cc, --smtp and --timeout, and cafile (the CA\n"
		"certificates of a server the system does not trust), come from the [mail]\n"
		"section of $XDG_CONFIG_HOME/kbench/kbench.conf (~/.config/kbench/kbench.conf).\n"
		"Credentials come from ~/.netrc, or KBENCH_SMTP_USER and KBENCH_SMTP_PASSWORD;\n"
		"they are never stored or printed. smtp:// uses STARTTLS, which is required\n"
		"unless the server is this machine; smtps:// is TLS from the start.\n"
		"A mail that cannot be sent is saved as mbox in $XDG_DATA_HOME/kbench/unsent/\n"
		"(~/.local/share/kbench/unsent/) and its path printed; the exit status is 1.\n"
		"docs/mail.md has a worked example.",
};

/* The sender of a dry run given none: .invalid is never a real domain. */
#define MAIL_DRY_RUN_FROM "kbench-dry-run@sender.invalid"

/* The keys of [mail] in the user's kbench.conf. */
static const char *const mail_keys[] = { "from", "to", "cc", "smtp", "cafile", "timeout", NULL };

/* What the command line and [mail] say, the command line first. */
struct mail_opts {
	struct opt_list to, cc;		/* from the command line */
	struct opt_list in_reply_to, references;
	const char *from, *subject, *smtp, *intro, *cafile;
	int dry_run;
	int timeout_s;			/* 0: [mail] timeout, else MAIL_TIMEOUT_S */
	/* [mail], kept for its strings and for messages. */
	struct config conf;
	struct strbuf conf_path;
	char **conf_to, **conf_cc;
	size_t nconf_to, nconf_cc;
};

/* Split a [mail] list ("a@x, b@y") into its addresses. */
static size_t split_list(const char *v, char ***out)
{
	char **list = NULL;
	size_t n = 0, alloc = 0;

	for (const char *p = v; *p;) {
		size_t len = strcspn(p, ",");
		const char *b = p, *e = p + len;

		while (b < e && (*b == ' ' || *b == '\t'))
			b++;
		while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if (e > b) {
			ALLOC_GROW(list, n + 1, alloc);
			list[n++] = xstrndup(b, (size_t)(e - b));
		}
		p += len + (p[len] == ',');
	}
	*out = list;
	return n;
}

/* Read [mail] from the user's kbench.conf, if there is one. */
static int load_defaults(struct mail_opts *o)
{
	const struct conf_section *s;

	if (cmd_user_config_section("mail", mail_keys, &o->conf, &o->conf_path, &s))
		return -1;
	if (!s)
		return 0;
	if (!o->timeout_s && conf_section_get(s, "timeout") &&
	    cmd_config_int(conf_section_get(s, "timeout"), "mail", "seconds", 1, 86400,
			   &o->timeout_s))
		return -1;
	if (!o->from && conf_section_get(s, "from"))
		o->from = conf_section_get(s, "from")->value;
	if (!o->smtp && conf_section_get(s, "smtp"))
		o->smtp = conf_section_get(s, "smtp")->value;
	if (conf_section_get(s, "cafile"))
		o->cafile = conf_section_get(s, "cafile")->value;
	if (conf_section_get(s, "to"))
		o->nconf_to = split_list(conf_section_get(s, "to")->value, &o->conf_to);
	if (conf_section_get(s, "cc"))
		o->nconf_cc = split_list(conf_section_get(s, "cc")->value, &o->conf_cc);
	return 0;
}

/* Where a default can be set, for messages. */
static const char *defaults_hint(const struct mail_opts *o)
{
	return o->conf_path.len ? o->conf_path.buf : "~/.config/kbench/kbench.conf";
}

static void mail_opts_release(struct mail_opts *o)
{
	for (size_t i = 0; i < o->nconf_to; i++)
		free(o->conf_to[i]);
	free(o->conf_to);
	for (size_t i = 0; i < o->nconf_cc; i++)
		free(o->conf_cc[i]);
	free(o->conf_cc);
	opt_list_release(&o->to);
	opt_list_release(&o->cc);
	opt_list_release(&o->in_reply_to);
	opt_list_release(&o->references);
	config_release(&o->conf);
	strbuf_release(&o->conf_path);
}

/* ---- the comparison ---- */

/* Neither "no worse row" (0) nor "worse" (1), as kbench compare says it. */
#define EXIT_ERROR 128

/* What `kbench compare args[0..n-1]` prints, appended to body, and 0 to
 * go on; or -1 with the status to end with in *status (compare's own:
 * 0 after its --help, 2 for a usage error, 1 or 128 after an error, 1
 * when --exit-code finds a worse row), after saying why on stderr. */
static int compare_text(const char **args, int n, struct strbuf *body, int *status)
{
	char **argv = xcalloc((size_t)n + 2, sizeof(*argv));
	struct compare_cmdline c;
	struct store *store = NULL;
	struct strbuf out = STRBUF_INIT;
	int r, rc = -1;

	argv[0] = (char *)"compare";
	for (int i = 0; i < n; i++)
		argv[i + 1] = (char *)args[i];
	r = compare_cmdline_parse(&c, n + 1, argv, cmd_complete_runs);
	if (r) {
		*status = r == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
		goto out;
	}
	/* A mail is plain text for a list: a table a reader sees as it is. */
	if (c.format != COMPARE_FORMAT_TEXT && c.format != COMPARE_FORMAT_BRIEF) {
		error("mail sends --format text or brief, not %s (write other formats with "
		      "'kbench compare --format %s -o FILE' and attach them yourself)",
		      renderers[c.format].name, renderers[c.format].name);
		*status = EXIT_USAGE;
		goto out;
	}
	*status = c.exit_code ? EXIT_ERROR : 1;
	if (cmd_open_store(&store, CMD_STORE_READ))
		goto out;
	r = compare_cmdline_run(store, &c, &out);
	if (r < 0)
		goto out;
	/* With -o the comparison goes to the file, as compare puts it. */
	if (c.output && output_write(c.output, &out)) {
		if (c.per_host)
			*status = 1;
		goto out;
	}
	if (r) {
		*status = r;
		goto out;
	}
	if (!c.output)
		strbuf_add(body, out.buf, out.len);
	rc = 0;
out:
	strbuf_release(&out);
	compare_cmdline_release(&c);
	store_close(store);
	free(argv);
	return rc;
}

/* The report of the bisection sel names (#ID, ID, a uuid prefix), appended
 * to body, its subject to subject. Return 0, or -1 after saying why. */
static int bisect_text(const char *sel, struct strbuf *body, struct strbuf *subject)
{
	struct store *store = NULL;
	struct strbuf err = STRBUF_INIT;
	int64_t id;
	int rc = -1;

	if (cmd_open_store(&store, CMD_STORE_READ))
		goto out;
	if (store_find_bisect(store, sel, &id, &err)) {
		if (err.len)
			error("%s", err.buf);
		goto out;
	}
	rc = bisect_report_text(store, id, body, subject);
out:
	strbuf_release(&err);
	store_close(store);
	return rc;
}

/* ---- the message ---- */

static int read_intro(const char *path, struct strbuf *sb)
{
	int rc;

	if (!strcmp(path, "-")) {
		char buf[4096];
		ssize_t n;

		while ((n = read(STDIN_FILENO, buf, sizeof(buf))) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return error("cannot read the intro from stdin: %s", strerror(errno));
			strbuf_add(sb, buf, (size_t)n);
		}
		rc = 0;
	} else if ((rc = strbuf_read_file(sb, path))) {
		return error("cannot read the intro '%s': %s", path, strerror(-rc));
	}
	if (memchr(sb->buf, '\0', sb->len))
		return error("the intro '%s' is not text", path);
	return 0;
}

/* The mail's body: the intro, an empty line, the comparison. */
static void build_body(const struct strbuf *intro, const struct strbuf *cmp,
		       struct strbuf *body)
{
	if (intro->len) {
		strbuf_add(body, intro->buf, intro->len);
		strbuf_rtrim(body);
		strbuf_addstr(body, "\n\n");
	}
	strbuf_add(body, cmp->buf, cmp->len);
}

/* Save an unsent mail in the data directory; the path goes to path. */
static int save_unsent(const struct strbuf *mbox, time_t date, struct strbuf *path)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	struct tm tm;
	char *end;
	int fd;

	if (xdg && *xdg)
		strbuf_addf(path, "%s/kbench", xdg);
	else
		strbuf_addf(path, "%s/.local/share/kbench", home && *home ? home : ".");
	/* The directories, one level at a time, private (mail may be). */
	for (end = strchr(path->buf + 1, '/');; end = strchr(end + 1, '/')) {
		if (end)
			*end = '\0';
		if (mkdir(path->buf, 0700) && errno != EEXIST)
			return error("cannot create '%s': %s", path->buf, strerror(errno));
		if (!end)
			break;
		*end = '/';
	}
	strbuf_addstr(path, "/unsent");
	if (mkdir(path->buf, 0700) && errno != EEXIST)
		return error("cannot create '%s': %s", path->buf, strerror(errno));
	localtime_r(&date, &tm);
	strbuf_addf(path, "/%04d%02d%02d-%02d%02d%02d-XXXXXX.mbox", tm.tm_year + 1900,
		    tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	fd = mkstemps(path->buf, 5);
	if (fd < 0)
		return error("cannot create '%s': %s", path->buf, strerror(errno));
	if (write_full(fd, mbox->buf, mbox->len) || close(fd)) {
		int e = errno;

		unlink(path->buf);
		return error("cannot write '%s': %s", path->buf, strerror(e));
	}
	return 0;
}

/* Print the server's last reply, a line at a time. */
static void print_reply(const struct strbuf *reply)
{
	for (const char *p = reply->buf; *p;) {
		size_t len = strcspn(p, "\n");

		error("the server said: %.*s", (int)len, p);
		p += len + (p[len] == '\n');
	}
}

/* The Message-IDs of a repeated option, one list (mail_format splits it). */
static void join_ids(const struct opt_list *l, struct strbuf *out)
{
	for (size_t i = 0; i < l->n; i++)
		strbuf_addf(out, "%s%s", i ? " " : "", l->v[i]);
}

/* Every address of a list (validated), appended to addrs. */
static int add_addresses(const char *what, const char *const *v, size_t n,
			 struct strbuf *addrs, size_t *count)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		if (mail_address(v[i], addrs, &err))
			rc = error("invalid %s: %s", what, err.buf);
		else
			strbuf_addch(addrs, '\0');	/* one string each */
		(*count)++;
	}
	strbuf_release(&err);
	return rc;
}

/* The recipients and the sender of o (the command line's, else those of
 * [mail]), checked, as mail_format and mail_send take them: *to and *cc
 * the lists the headers name, from the sender's address alone, rcpt
 * every recipient's address, one string each ('\0' after each), *nrcpt
 * how many. Return 0, or -1 after saying what is missing or invalid. */
static int pick_addresses(struct mail_opts *o, const char ***to, size_t *nto,
			  const char ***cc, size_t *ncc, struct strbuf *from,
			  struct strbuf *rcpt, size_t *nrcpt)
{
	*nto = o->to.n ? o->to.n : o->nconf_to;
	*to = o->to.n ? o->to.v : (const char **)o->conf_to;
	*ncc = o->cc.n ? o->cc.n : o->nconf_cc;
	*cc = o->cc.n ? o->cc.v : (const char **)o->conf_cc;
	if (!*nto)
		return error("no recipient: give --to ADDR (or set 'to' in [mail] of %s)",
			     defaults_hint(o));
	if (!o->from && o->dry_run) {
		/* A dry run sends nothing: a placeholder stands in, and says so. */
		o->from = MAIL_DRY_RUN_FROM;
		notice("no sender: the dry run writes 'From: %s'; give --from ADDR "
		       "(or set 'from' in [mail]) to send", o->from);
	} else if (!o->from) {
		return error("no sender: give --from ADDR (or set 'from' in [mail] of %s)",
			     defaults_hint(o));
	}
	if (!o->dry_run && !o->smtp)
		return error("no SMTP server: give --smtp URL (or set 'smtp' in [mail] of %s), "
			     "or --dry-run", defaults_hint(o));
	if (add_addresses("--from", &o->from, 1, from, nrcpt))
		return -1;
	*nrcpt = 0;
	return add_addresses("--to", *to, *nto, rcpt, nrcpt) ||
	       add_addresses("--cc", *cc, *ncc, rcpt, nrcpt) ? -1 : 0;
}

/* Send msg (mbox: the same in mbox form) from from to the nrcpt
 * addresses of rcpt through o's server; a mail that cannot be sent is
 * saved, or else written on stdout, so that it is not lost. Return the
 * command's status (0, 1, EXIT_USAGE), after saying why. */
static int send_or_save(const struct mail_opts *o, const char *from, const struct strbuf *rcpt,
			size_t nrcpt, const struct strbuf *msg, const struct strbuf *mbox,
			time_t date, const char *id)
{
	struct strbuf err = STRBUF_INIT, reply = STRBUF_INIT, saved = STRBUF_INIT;
	const char **rcpts = xcalloc(nrcpt ? nrcpt : 1, sizeof(*rcpts));
	struct mail_server srv = { .url = o->smtp };
	int rc = 1;

	for (size_t i = 0, off = 0; i < nrcpt; i++, off += strlen(rcpt->buf + off) + 1)
		rcpts[i] = rcpt->buf + off;
	srv.cafile = o->cafile;
	srv.timeout_s = o->timeout_s;
	srv.user = getenv("KBENCH_SMTP_USER");
	srv.password = getenv("KBENCH_SMTP_PASSWORD");
	if (srv.password && !srv.user) {
		error("KBENCH_SMTP_PASSWORD is set but KBENCH_SMTP_USER is not");
		rc = EXIT_USAGE;
		goto out;
	}
	if (mail_send(&srv, from, rcpts, nrcpt, msg, &err, &reply)) {
		error("cannot send the mail: %s", err.buf);
		print_reply(&reply);
		if (save_unsent(mbox, date, &saved)) {
			error("the mail follows on stdout, so that it is not lost");
			fwrite(mbox->buf, 1, mbox->len, stdout);
			fflush(stdout);
		} else {
			error("the mail is saved in %s (git send-email can send it)", saved.buf);
		}
		goto out;
	}
	notice("sent %s to %zu recipient%s", id, nrcpt, nrcpt == 1 ? "" : "s");
	rc = 0;
out:
	free(rcpts);
	strbuf_release(&err);
	strbuf_release(&reply);
	strbuf_release(&saved);
	return rc;
}

/* Send (or, dry run, print) the mail o describes: the report of the
 * bisection bisect_sel names, else the comparison of argv[0..argc-1].
 * Return the command's status (0, 1, EXIT_USAGE), after saying why. */
static int mail_send_text(struct mail_opts *o, const char *bisect_sel, int argc, char **argv)
{
	struct strbuf cmp = STRBUF_INIT, intro = STRBUF_INIT, body = STRBUF_INIT;
	struct strbuf subject = STRBUF_INIT, msg = STRBUF_INIT, mbox = STRBUF_INIT;
	struct strbuf from = STRBUF_INIT, rcpt = STRBUF_INIT, id = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT, parents = STRBUF_INIT, refs = STRBUF_INIT;
	const char **to = NULL, **cc = NULL;
	size_t nto, ncc, nrcpt = 0;
	struct mail m = { .date = time(NULL) };
	struct strbuf bisect_subject = STRBUF_INIT;
	int rc = EXIT_USAGE;

	if (load_defaults(o) || pick_addresses(o, &to, &nto, &cc, &ncc, &from, &rcpt, &nrcpt))
		goto out;
	if (o->intro && read_intro(o->intro, &intro))
		goto out;

	if (bisect_sel) {
		rc = 1;
		if (bisect_text(bisect_sel, &cmp, &bisect_subject))
			goto out;
	} else if (compare_text((const char **)argv, argc, &cmp, &rc)) {
		goto out;
	}
	rc = 1;
	build_body(&intro, &cmp, &body);
	if (o->subject) {
		strbuf_addstr(&subject, o->subject);
	} else if (bisect_sel) {
		strbuf_add(&subject, bisect_subject.buf, bisect_subject.len);
	} else {
		strbuf_addstr(&subject, "kbench compare");
		for (int i = 0; i < argc; i++)
			strbuf_addf(&subject, " %s", argv[i]);
	}
	mail_message_id(o->from, m.date, &id);
	m.from = o->from;
	m.to = to;
	m.nto = nto;
	m.cc = cc;
	m.ncc = ncc;
	m.subject = subject.buf;
	join_ids(&o->in_reply_to, &parents);
	join_ids(&o->references, &refs);
	m.in_reply_to = parents.buf;
	m.references = refs.buf;
	m.body = body.buf;
	m.message_id = id.buf;
	if (mail_format(&m, &msg, &err)) {
		error("cannot make the mail: %s", err.buf);
		rc = EXIT_USAGE;
		goto out;
	}
	mail_mbox(msg.buf, from.buf, m.date, &mbox);
	if (o->dry_run) {
		fwrite(mbox.buf, 1, mbox.len, stdout);
		rc = fflush(stdout) ? 1 : 0;
		goto out;
	}
	rc = send_or_save(o, from.buf, &rcpt, nrcpt, &msg, &mbox, m.date, id.buf);
out:
	strbuf_release(&cmp);
	strbuf_release(&intro);
	strbuf_release(&body);
	strbuf_release(&subject);
	strbuf_release(&msg);
	strbuf_release(&mbox);
	strbuf_release(&from);
	strbuf_release(&rcpt);
	strbuf_release(&id);
	strbuf_release(&err);
	strbuf_release(&parents);
	strbuf_release(&refs);
	strbuf_release(&bisect_subject);
	return rc;
}

/* --subject: one line of text, checked as it is parsed, into the
 * const char * opt->value. */
static int parse_subject(const struct parse_opt *opt, const char *value)
{
	struct strbuf err = STRBUF_INIT;

	if (mail_check_header_text("subject", value, &err)) {
		error("--subject: %s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	*(const char **)opt->value = value;
	return 0;
}

/* --in-reply-to, --references: Message-IDs, checked as they are parsed,
 * added to the struct opt_list opt->value. */
static int parse_msg_ids(const struct parse_opt *opt, const char *value)
{
	struct opt_list *l = opt->value;
	struct strbuf err = STRBUF_INIT;

	if (mail_check_msg_ids(value, &err)) {
		error("--%s: %s", opt->long_name, err.buf);
		strbuf_release(&err);
		return -1;
	}
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = value;
	return 0;
}

int cmd_mail(int argc, char **argv)
{
	const char *bisect_sel = NULL;
	struct mail_opts o = { .to = OPT_LIST_INIT, .cc = OPT_LIST_INIT,
			       .in_reply_to = OPT_LIST_INIT, .references = OPT_LIST_INIT,
			       .conf_path = STRBUF_INIT };
	const struct parse_opt options[] = {
		OPT_STRING_LIST(0, "to", &o.to, "ADDR", "a recipient (repeatable)"),
		OPT_STRING_LIST(0, "cc", &o.cc, "ADDR", "a recipient in copy (repeatable)"),
		OPT_STRING(0, "from", &o.from, "ADDR", "the sender, e.g. 'Name <me@example.org>'"),
		OPT_CALLBACK(0, "subject", &o.subject, "TEXT",
			     "the subject (default: kbench compare COMPARE-ARGS)", parse_subject),
		OPT_CALLBACK(0, "in-reply-to", &o.in_reply_to, "MSGID",
			     "the Message-ID of the mail this one answers, so\n"
			     "that it joins its thread", parse_msg_ids),
		OPT_CALLBACK(0, "references", &o.references, "MSGIDS",
			     "the thread above that mail, oldest first: its\n"
			     "References header as it is (repeatable); the\n"
			     "mail's References are these, then --in-reply-to", parse_msg_ids),
		OPT_STRING(0, "smtp", &o.smtp, "URL",
			   "smtp://HOST[:PORT] (STARTTLS) or smtps://HOST[:PORT]"),
		OPT_STRING(0, "intro", &o.intro, "FILE",
			   "text put before the comparison ('-': stdin)"),
		OPT_INT_RANGE(0, "timeout", &o.timeout_s, "S",
			      "give up sending after S seconds, or after 30 s\n"
			      "(or S) of silence from the server (default 120)",
			      1, 86400),
		OPT_BOOL(0, "dry-run", &o.dry_run,
			 "write the mail in mbox form on stdout, send nothing"),
		OPT_STRING(0, "bisect", &bisect_sel, "BISECT",
			   "mail the report of a bisection (kbench bisect):\n"
			   "@ID, ID or a uuid prefix, instead of a comparison"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	int rc = EXIT_USAGE;

	config_init(&o.conf);
	if (cmd_parse_options(&argc, argv, options, &mail_usage, &rc))
		goto out;
	if (bisect_sel && argc) {
		error("--bisect mails a bisection's report: no comparison arguments ('%s')",
		      argv[0]);
		goto out;
	}
	if (o.references.n && !o.in_reply_to.n) {
		error("--references without --in-reply-to: give the Message-ID of the mail "
		      "answered too");
		goto out;
	}
	if (!argc && !bisect_sel) {
		error("mail needs the runs to compare, after '--' (e.g. -- base new)");
		parse_opt_usage_print(&mail_usage, options, stderr);
		goto out;
	}
	rc = mail_send_text(&o, bisect_sel, argc, argv);
out:
	mail_opts_release(&o);
	return rc;
}

int mail_bisect_report(const char *sel, const char *const *to, size_t nto)
{
	struct mail_opts o = { .to = OPT_LIST_INIT, .cc = OPT_LIST_INIT,
			       .in_reply_to = OPT_LIST_INIT, .references = OPT_LIST_INIT,
			       .conf_path = STRBUF_INIT };
	int rc;

	config_init(&o.conf);
	/* The list owns its array, not the strings. */
	for (size_t i = 0; i < nto; i++) {
		ALLOC_GROW(o.to.v, o.to.n + 1, o.to.alloc);
		o.to.v[o.to.n++] = to[i];
	}
	rc = mail_send_text(&o, sel, 0, NULL);
	mail_opts_release(&o);
	return rc;
}
