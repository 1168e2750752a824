/* cmd_watch: kbench watch CONFIG: one cycle of the nightly loop of the
 * watch CONFIG's [watch] section declares (watch/watch.h): fetch the
 * branch, test its new tip against the last one under QEMU, bisect a
 * regression and mail its culprit; --status prints what the cycles did,
 * --dry-run what the next would do. */
#include "config.h"
#include "cli/cmd.h"
#include "cli/complete.h"
#include "cli/setup.h"
#include "db/store.h"
#include "db/watch.h"
#include "kernel/kbuild.h"
#include "lib/argv.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "views/watch_html.h"
#include "watch/watch.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct parse_opt_usage watch_usage = {
	.synopsis = "kbench watch [--dry-run] CONFIG\n"
		    "   or: kbench watch --status [--format text|json|html] [CONFIG]",
	.description =
		"Run one cycle of the watch CONFIG's [watch] section declares: resume the\n"
		"last cycle if it was stopped, send the mails still pending, git fetch the\n"
		"branch; if its tip moved, build the new tip, run it against the last tip\n"
		"tested in one interleaved A/B experiment of kernels under QEMU, and when a\n"
		"gating row is worse beyond the threshold with a verdict, bisect the commits\n"
		"between them and mail the report of the first bad commit, once. A cycle\n"
		"with nothing new says so and does nothing else.",
	.help_column = 22,
	.complete_args = cmd_complete_files,
	.epilogue =
		"Every cycle, experiment, bisection and mail is stored: a cycle stopped\n"
		"anywhere is resumed by the next one, a mail that could not be sent is sent\n"
		"by the next one, and a culprit is never reported twice for a row. One cycle\n"
		"at a time runs for a tree and branch on a host. The keys of [watch] are in\n"
		"kbench.conf(5); mail settings missing from it come from its file's [mail]\n"
		"section, then from [mail] of the user's kbench.conf.\n"
		"Exit status: 0 the cycle did what it had to (a failed fetch or build is\n"
		"recorded and mailed), 1 a failure or a mail left pending, 2 bad arguments,\n"
		"128+N stopped by signal N. See docs/nightly.md.",
};

static const char *const mail_keys[] = { "from", "to", "cc", "smtp", "cafile", "timeout", NULL };

/* What the file leaves unsaid of the mail, from the user's [mail]. */
static int user_mail(struct watch_config *w, struct config *conf)
{
	struct strbuf path = STRBUF_INIT;
	const struct conf_section *s = NULL;
	const struct conf_entry *e;
	int rc = -1;

	if (cmd_user_config_section("mail", mail_keys, conf, &path, &s))
		goto out;
	rc = 0;
	if (!s)
		goto out;
	if (!w->nto && (e = conf_section_get(s, "to")))
		watch_split_list(e->value, &w->to, &w->nto);
	if (!w->ncc && (e = conf_section_get(s, "cc")))
		watch_split_list(e->value, &w->cc, &w->ncc);
	if (!w->from && (e = conf_section_get(s, "from")))
		w->from = e->value;
	if (!w->smtp && (e = conf_section_get(s, "smtp")))
		w->smtp = e->value;
	if (!w->cafile && (e = conf_section_get(s, "cafile")))
		w->cafile = e->value;
	if (!w->mail_timeout_s && (e = conf_section_get(s, "timeout")) &&
	    cmd_config_int(e, "mail", "seconds", 1, 86400, &w->mail_timeout_s))
		rc = -1;
out:
	strbuf_release(&path);
	return rc;
}

/* --status --format html: the page of the cycles of every watch in s, or
 * of cfg's. Return 0, or -1 after saying why. */
static int status_html(struct store *s, const struct watch_config *cfg, struct strbuf *out)
{
	int64_t id = 0;

	if (cfg && s) {
		int r = store_watch_find(s, cfg->tree, cfg->remote, cfg->branch, &id);

		if (r < 0)
			return -1;
		if (r)
			id = -1;
	}
	return watch_html_page(s, id, out);
}

/* The status a cycle ends the command with. */
static int status(int rc)
{
	return rc < 0 ? 1 : rc;
}

int cmd_watch(int argc, char **argv)
{
	const char *format = "text";
	int show = 0, dry_run = 0;
	const struct parse_opt options[] = {
		OPT_BOOL(0, "status", &show,
			 "print each cycle: its tips, verdicts, bisection,\n"
			 "culprit and mails"),
		OPT_STRING(0, "format", &format, "FMT",
			   "--status as text (default), json or html (one\n"
			   "page, each cycle linked to its comparison and\n"
			   "its bisection's report)"),
		OPT_BOOL(0, "dry-run", &dry_run,
			 "say what the next cycle would do; fetch, build,\n"
			 "run and store nothing"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct cmd_build_opts bo = { .fragments = OPT_LIST_INIT, .timeout_name = "build-timeout" };
	struct watch_config w;
	struct watch_run r = { .cfg = &w };
	struct config user;
	struct kbuild_request rq;
	struct strbuf cmdline = STRBUF_INIT, out = STRBUF_INIT;
	struct store *store = NULL;
	char **fragments = NULL, *kconfig = NULL;
	const char **frags = NULL;
	int rc = EXIT_USAGE, loaded = 0, json;

	memset(&w, 0, sizeof(w));
	config_init(&user);
	strbuf_addstr(&cmdline, "kbench ");
	argv_quote(argv, (size_t)argc, &cmdline);
	if (cmd_parse_options(&argc, argv, options, &watch_usage, &rc))
		goto out;
	if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "html")) {
		error("--format takes text, json or html, not '%s'", format);
		goto out;
	}
	json = !strcmp(format, "json");
	if (!show && strcmp(format, "text")) {
		error("--format goes with --status");
		goto out;
	}
	if (show && dry_run) {
		error("--status and --dry-run go one at a time");
		goto out;
	}
	if (argc > 1) {
		error("unexpected argument '%s': one config at a time", argv[1]);
		goto out;
	}
	if (!argc && !show) {
		error("no config given: kbench watch CONFIG (a file with a [watch] section)");
		parse_opt_usage_print(&watch_usage, options, stderr);
		goto out;
	}
	if (argc) {
		if (watch_config_load(&w, argv[0])) {
			rc = EXIT_USAGE;
			goto out;
		}
		loaded = 1;
	}
	rc = 1;
	if (show) {
		store = cmd_open_store_if_any();
		if (!strcmp(format, "html") ? status_html(store, loaded ? &w : NULL, &out) :
		    watch_status(store, loaded ? &w : NULL, json, &out))
			goto out;
		fwrite(out.buf, 1, out.len, stdout);
		rc = fflush(stdout) ? 1 : 0;
		goto out;
	}
	rc = EXIT_USAGE;
	if (user_mail(&w, &user))
		goto out;
	/* The build's options as kbench build takes them. */
	bo.tree = w.tree;
	bo.kconfig = w.kconfig;
	bo.cache = w.cache;
	bo.jobs = w.jobs;
	bo.timeout_s = w.build_timeout_s;
	bo.no_guest_fragment = w.guest_fragment != NULL;
	frags = xcalloc(w.nfragments + 2, sizeof(*frags));
	for (size_t i = 0; i < w.nfragments; i++)
		frags[bo.fragments.n++] = w.fragments[i];
	if (w.guest_fragment && strcmp(w.guest_fragment, "none"))
		frags[bo.fragments.n++] = w.guest_fragment;
	bo.fragments.v = frags;
	if (cmd_build_request(&bo, &rq, &fragments))
		goto out;
	if (w.guest_fragment && strcmp(w.guest_fragment, "none")) {
		/* The file given is merged first, as the shipped one would be. */
		size_t n = rq.nfragments;
		char *g = fragments[n - 1];

		memmove(fragments + 1, fragments, (n - 1) * sizeof(*fragments));
		fragments[0] = g;
	}
	for (size_t i = 0; fragments[i]; i++)
		if (*fragments[i] != '/') {
			char abs[PATH_MAX];

			if (realpath(fragments[i], abs)) {
				free(fragments[i]);
				fragments[i] = xstrdup(abs);
			}
		}
	if (w.kconfig && (strchr(w.kconfig, '/') || !access(w.kconfig, F_OK))) {
		char abs[PATH_MAX];

		kconfig = xstrdup(realpath(w.kconfig, abs) ? abs : w.kconfig);
	}
	r.kconfig = kconfig ? kconfig : w.kconfig;
	r.guest_fragment = w.guest_fragment && !strcmp(w.guest_fragment, "none") ? NULL :
			   fragments[0];
	r.fragments = fragments + (r.guest_fragment != NULL);
	r.nfragments = rq.nfragments - (r.guest_fragment != NULL);
	r.command = cmdline.buf;
	r.dry_run = dry_run;
	if (dry_run) {
		store = cmd_open_store_if_any();
		rc = status(watch_cycle(store, &r));
		goto out;
	}
	rc = 1;
	if (cmd_open_store(&store, CMD_STORE_WRITE))
		goto out;
	rc = status(watch_cycle(store, &r));
out:
	store_close(store);
	cmd_build_fragments_free(fragments);
	free(frags);
	free(kconfig);
	if (loaded)
		watch_config_release(&w);
	config_release(&user);
	strbuf_release(&cmdline);
	strbuf_release(&out);
	return rc;
}
