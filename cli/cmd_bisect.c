/* cmd_bisect: kbench bisect --tree DIR --good REF --bad REF -c CONFIG:
 * find the commit that made a row of a config worse, each step an
 * interleaved experiment of the commit tested and the two ends of the
 * range still open as kernels under QEMU (bisect/bisect_run.h), stored
 * under one bisection id; and --resume, --log, --report (--mail), --list
 * of stored bisections. */
#include "config.h"
#include "views/bisect_report.h"
#include "cli/cmd.h"
#include "views/output.h"
#include "compare/sequential.h"
#include "db/bisect.h"
#include "db/store.h"
#include "lib/argv.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "bisect/bisect_run.h"
#include "kernel/kbuild.h"
#include "kernel/vm.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct parse_opt_usage bisect_usage = {
	.synopsis = "kbench bisect --tree DIR --good REF --bad REF -c CONFIG [-c CONFIG...]\n"
		    "                    [--row SECTION/ROW] [--threshold PCT] [--rounds N]\n"
		    "                    [--max-rounds N] [--kconfig FILE|TARGET]\n"
		    "                    [--fragment FILE...] [--no-guest-fragment] [--cache DIR]\n"
		    "                    [-j N] [--build-timeout SECONDS] [--vcpus N] [--memory MIB]\n"
		    "                    [--append TEXT] [--accel auto|kvm|tcg] [--icount]\n"
		    "                    [--boot-timeout SECONDS] [--no-report] [--dry-run]\n"
		    "   or: kbench bisect --resume [BISECT]\n"
		    "   or: kbench bisect --log [BISECT]\n"
		    "   or: kbench bisect --report [BISECT] [--mail ADDR...]\n"
		    "   or: kbench bisect --list",
	.description =
		"Find the commit between a good and a bad one that made a row of a config\n"
		"worse. Each step builds a commit and runs it beside the good and the bad\n"
		"end of the range still open, as kernels under QEMU, interleaved round by\n"
		"round in one experiment; the paired comparisons decide whether it is good\n"
		"or bad. Step 0 runs the two ends alone to confirm the regression. Commits are\n"
		"built as kbench build builds them, into its kernel cache.",
	.help_column = 28,
	.epilogue =
		"The commits are those git rev-list --first-parent --ancestry-path GOOD..BAD\n"
		"lists: a merge is tested as one commit. The row is --row, else the one the\n"
		"bad end made worse the most. A commit is bad when it is worse than the good\n"
		"end and not different from the bad one, good when the converse; else the\n"
		"step looks again every --rounds rounds up to --max-rounds, then skips it,\n"
		"as a commit that cannot be built is skipped. Every step is stored under\n"
		"the bisection's id: --resume goes on after a stop, --log prints its log as\n"
		"git bisect log does, --report its report (--mail sends it, with the [mail]\n"
		"settings of kbench.conf; kbench mail --bisect has every mail option).\n"
		"BISECT is @ID, ID or a uuid prefix; the latest when not given.\n"
		"Exit status: 0 a first bad commit named, 1 none (nothing to bisect, only\n"
		"skipped commits left, a failure), 2 bad arguments, 128+N stopped by signal\n"
		"N. See docs/bisect.md.",
};

/* The bisection a selector names (NULL: the latest), into *id. */
static int find(struct store *s, const char *sel, int64_t *id)
{
	struct strbuf err = STRBUF_INIT;
	int rc = store_find_bisect(s, sel, id, &err);

	if (rc && err.len)
		error("%s", err.buf);
	strbuf_release(&err);
	return rc;
}

struct listing {
	struct strbuf out;
	int n;
};

static int list_one(const struct bisect_info *b, void *arg)
{
	struct listing *l = arg;
	struct strbuf row = STRBUF_INIT;

	if (!l->n++)
		strbuf_addf(&l->out, "%4s %-11s %-13s %5s %-19s %-12s %s\n", "id", "status",
			    "result", "steps", "row", "first bad", "started");
	if (*b->section)
		strbuf_addf(&row, "%s/%s", b->section, b->row);
	strbuf_addf(&l->out, "%4lld %-11s %-13s %5d ", (long long)b->id, b->status,
		    *b->result ? b->result : "-", b->steps);
	output_cell(&l->out, row.len ? row.buf : "-", 19, 0);
	strbuf_addf(&l->out, " %-12.12s %.10s\n", *b->first_bad ? b->first_bad : "-",
		    b->started_at);
	strbuf_release(&row);
	return 0;
}

static int list(void)
{
	struct store *s = NULL;
	struct listing l = { .out = STRBUF_INIT };
	int rc = 1;

	if (cmd_open_store(&s, CMD_STORE_READ) || store_each_bisect(s, list_one, &l) < 0)
		goto out;
	if (!l.n)
		strbuf_addstr(&l.out, "No bisection in the store.\n");
	fwrite(l.out.buf, 1, l.out.len, stdout);
	rc = fflush(stdout) ? 1 : 0;
out:
	strbuf_release(&l.out);
	store_close(s);
	return rc;
}

/* --log or --report of the bisection sel names. */
static int show(const char *sel, int report)
{
	struct store *s = NULL;
	struct strbuf out = STRBUF_INIT;
	int64_t id;
	int rc = 1;

	if (cmd_open_store(&s, CMD_STORE_READ) || find(s, sel, &id))
		goto out;
	if (report ? bisect_report_text(s, id, &out, NULL) : bisect_log_text(s, id, &out))
		goto out;
	fwrite(out.buf, 1, out.len, stdout);
	rc = fflush(stdout) ? 1 : 0;
out:
	strbuf_release(&out);
	store_close(s);
	return rc;
}

/* --report --mail ADDR...: kbench mail --to ADDR... --bisect #ID. */
static int mail(const char *sel, const struct opt_list *to)
{
	struct store *s = NULL;
	struct strbuf idtext = STRBUF_INIT;
	char **argv = xcalloc(2 * to->n + 4, sizeof(*argv));
	int64_t id;
	int argc = 0, rc = 1;

	if (cmd_open_store(&s, CMD_STORE_READ) || find(s, sel, &id))
		goto out;
	store_close(s);
	s = NULL;
	strbuf_addf(&idtext, "@%lld", (long long)id);
	argv[argc++] = (char *)"mail";
	for (size_t i = 0; i < to->n; i++) {
		argv[argc++] = (char *)"--to";
		argv[argc++] = (char *)to->v[i];
	}
	argv[argc++] = (char *)"--bisect";
	argv[argc++] = idtext.buf;
	rc = cmd_mail(argc, argv);
out:
	store_close(s);
	free(argv);
	strbuf_release(&idtext);
	return rc;
}

/* Replace the path *p by its absolute form (a file that is not there is
 * said). Return 0, or -1 after saying why. */
static int absolute(char **p)
{
	char abs[PATH_MAX];

	if (!realpath(*p, abs))
		return error("cannot use '%s': %s", *p, strerror(errno));
	free(*p);
	*p = xstrdup(abs);
	return 0;
}

/* Print the report of bisection id after it ran. */
static int report(struct store *s, int64_t id)
{
	struct strbuf out = STRBUF_INIT;
	int rc;

	rc = bisect_report_text(s, id, &out, NULL);
	if (!rc) {
		fputc('\n', stdout);
		fwrite(out.buf, 1, out.len, stdout);
		rc = fflush(stdout) ? -1 : 0;
	}
	strbuf_release(&out);
	return rc;
}

/* The status a bisection's run ends the command with. */
static int status(int rc)
{
	return rc < 0 ? 1 : rc;
}

int cmd_bisect(int argc, char **argv)
{
	struct opt_list configs = OPT_LIST_INIT, to = OPT_LIST_INIT;
	struct cmd_build_opts bo = { .fragments = OPT_LIST_INIT, .timeout_name = "build-timeout" };
	struct kbuild_request rq;
	char **fragments = NULL;
	struct vm_config vc = VM_CONFIG_INIT;
	struct bisect_options o = {
		.threshold_pct = BISECT_DEFAULT_THRESHOLD,
		.rounds = BISECT_DEFAULT_ROUNDS,
		.max_rounds = 0,
	};
	int resume = 0, log = 0, rep = 0, lst = 0, no_report = 0, icount = 0;
	const struct parse_opt options[] = {
		OPT_STRING(0, "tree", &o.tree, "DIR", "the git tree of the kernel"),
		OPT_STRING(0, "good", &o.good, "REF", "a commit without the regression"),
		OPT_STRING(0, "bad", &o.bad, "REF", "a later commit with it"),
		OPT_STRING_LIST('c', "config", &configs, "FILE",
				"what to measure: an INI config (repeatable)"),
		OPT_STRING(0, "row", &o.row, "SECTION/ROW",
			   "the row to bisect, as compare names it\n"
			   "(hackbench/4); default: the one the bad end\n"
			   "made worse the most"),
		OPT_DOUBLE(0, "threshold", &o.threshold_pct, "PCT",
			   "the smallest change that counts (default 5)"),
		OPT_INT_RANGE(0, "rounds", &o.rounds, "N",
			      "rounds of a step before it is looked at, and\n"
			      "between looks (default 6)", BISECT_MIN_ROUNDS, 1000),
		OPT_INT_RANGE(0, "max-rounds", &o.max_rounds, "N",
			      "the most rounds of a step before it is skipped\n"
			      "(default 12, at least --rounds)", BISECT_MIN_ROUNDS, 1000),
		CMD_BUILD_OPTIONS(&bo, "build-timeout"),
		OPT_INT_RANGE(0, "vcpus", &vc.vcpus, "N", "the guests' vCPUs (default 2)", 1, 288),
		OPT_INT_RANGE(0, "memory", &vc.mem_mib, "MIB",
			      "the guests' memory in MiB (default 512)", 64, 1 << 22),
		OPT_STRING(0, "append", &vc.append, "TEXT", "more of the guests' command line"),
		OPT_STRING(0, "accel", &vc.accel, "auto|kvm|tcg",
			   "KVM, TCG, or KVM when it boots the guest and\n"
			   "TCG otherwise (default auto)"),
		OPT_DOUBLE(0, "boot-timeout", &vc.boot_timeout_s, "SECONDS",
			   "how long a guest may take to come up (default 60)"),
		OPT_BOOL(0, "icount", &icount,
			 "under TCG, time the guests by the instructions\n"
			 "they run, not the host's clock (needs --vcpus 1)"),
		OPT_BOOL(0, "no-report", &no_report, "do not print the report at the end"),
		OPT_BOOL(0, "dry-run", &o.dry_run,
			 "list the commits and the first step; build, run\n"
			 "and store nothing"),
		OPT_BOOL(0, "resume", &resume, "go on with a stopped bisection"),
		OPT_BOOL(0, "log", &log, "print a bisection's log, as git bisect log"),
		OPT_BOOL(0, "report", &rep, "print a bisection's report"),
		OPT_STRING_LIST(0, "mail", &to, "ADDR",
				"with --report: mail it to ADDR (repeatable)"),
		OPT_BOOL(0, "list", &lst, "list the bisections in the store"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct strbuf path = STRBUF_INIT, cmdline = STRBUF_INIT, cache = STRBUF_INIT;
	char **paths = NULL, *kconfig = NULL;
	struct store *store = NULL;
	int64_t id = 0;
	int rc = EXIT_USAGE, run;

	/* The command as it was typed, for the log. */
	strbuf_addstr(&cmdline, "kbench ");
	argv_quote(argv, (size_t)argc, &cmdline);
	if (cmd_parse_options(&argc, argv, options, &bisect_usage, &rc))
		goto out;
	if (resume + log + rep + lst > 1) {
		error("--resume, --log, --report and --list go one at a time");
		goto out;
	}
	run = !(resume || log || rep || lst);
	if (argc > (run || lst ? 0 : 1)) {
		error("unexpected argument '%s'", argv[run || lst ? 0 : 1]);
		goto out;
	}
	if (to.n && !rep) {
		error("--mail goes with --report");
		goto out;
	}
	if (!run && (o.tree || o.good || o.bad || configs.n || o.row || bo.fragments.n ||
		     bo.kconfig || bo.no_guest_fragment || bo.cache || bo.jobs || bo.timeout_s ||
		     icount || o.dry_run)) {
		error("--resume, --log, --report and --list take a stored bisection: --tree, "
		      "--good, --bad, -c, --row and the build's options start a new one");
		goto out;
	}
	if (lst) {
		rc = list();
		goto out;
	}
	if (log || rep) {
		rc = to.n ? mail(argc ? argv[0] : NULL, &to) : show(argc ? argv[0] : NULL, rep);
		goto out;
	}
	if (resume) {
		rc = 1;
		if (cmd_open_store(&store, CMD_STORE_WRITE) || find(store, argc ? argv[0] : NULL, &id))
			goto out;
		rc = status(bisect_resume(store, id));
		if (rc <= 1 && !no_report && report(store, id))
			rc = 1;
		goto out;
	}
	if (!o.tree || !o.good || !o.bad) {
		error("a bisection needs --tree DIR, --good REF and --bad REF (or --resume, --log, "
		      "--report, --list)");
		goto out;
	}
	if (!configs.n) {
		error("no config given: use -c FILE (what to measure, e.g. configs/hackbench.conf)");
		goto out;
	}
	if (!(o.threshold_pct >= 0) || o.threshold_pct >= 100) {
		error("--threshold must be a percentage from 0 to 100, not %g", o.threshold_pct);
		goto out;
	}
	if (!o.max_rounds)
		o.max_rounds = o.rounds > BISECT_DEFAULT_MAX_ROUNDS ? o.rounds :
			       BISECT_DEFAULT_MAX_ROUNDS;
	if (o.max_rounds < o.rounds) {
		error("--max-rounds %d is fewer than --rounds %d", o.max_rounds, o.rounds);
		goto out;
	}
	{
		struct seq_design d;

		if (seq_design_init(&d, o.rounds, o.max_rounds, o.rounds, BISECT_ALPHA, &path)) {
			error("--rounds %d and --max-rounds %d: %s", o.rounds, o.max_rounds,
			      path.buf);
			goto out;
		}
	}
	if (vm_check_accel_name(vc.accel) || (icount && cmd_check_icount(vc.accel, vc.vcpus)))
		goto out;
	if (!(vc.boot_timeout_s > 0) || vc.boot_timeout_s > 86400) {
		error("--boot-timeout must be more than 0 seconds and at most a day");
		goto out;
	}
	if (icount)
		vc.icount_shift = VM_ICOUNT_SHIFT;
	if (vc.append && strpbrk(vc.append, "\n\r")) {
		error("--append is one line");
		goto out;
	}
	paths = xcalloc(configs.n + 1, sizeof(*paths));
	for (size_t i = 0; i < configs.n; i++) {
		char abs[PATH_MAX];

		if (cmd_find_config(configs.v[i], &path))
			goto out;
		paths[i] = realpath(path.buf, abs) ? xstrdup(abs) : strbuf_detach(&path);
		strbuf_reset(&path);
	}
	o.configs = paths;
	o.nconfigs = configs.n;
	/* The build's settings are stored, to be read by --resume from
	 * anywhere: files by their absolute paths. */
	if (cmd_build_request(&bo, &rq, &fragments))
		goto out;
	for (size_t i = 0; fragments[i]; i++)
		if (absolute(&fragments[i]))
			goto out;
	if (bo.kconfig && (strchr(bo.kconfig, '/') || !access(bo.kconfig, F_OK))) {
		kconfig = xstrdup(bo.kconfig);
		if (absolute(&kconfig))
			goto out;
	}
	o.kconfig = kconfig ? kconfig : bo.kconfig;
	o.guest_fragment = bo.no_guest_fragment ? NULL : fragments[0];
	o.fragments = fragments + !bo.no_guest_fragment;
	o.nfragments = rq.nfragments - !bo.no_guest_fragment;
	if (bo.cache && *bo.cache != '/') {
		char cwd[PATH_MAX];

		if (!getcwd(cwd, sizeof(cwd))) {
			error("cannot read the current directory: %s", strerror(errno));
			goto out;
		}
		strbuf_addf(&cache, "%s/%s", cwd, bo.cache);
	}
	o.cache_dir = cache.len ? cache.buf : bo.cache;
	o.jobs = bo.jobs;
	o.build_timeout_s = bo.timeout_s;
	o.vm = &vc;
	o.command = cmdline.buf;
	if (o.dry_run) {
		rc = bisect_start(NULL, &o, &id);
		rc = rc == -2 ? EXIT_USAGE : rc ? 1 : 0;
		goto out;
	}
	rc = 1;
	if (cmd_open_store(&store, CMD_STORE_WRITE))
		goto out;
	rc = bisect_start(store, &o, &id);
	/* A tree or a ref that is not there is a failure (exit 1), as for
	 * kbench build; a config or --row that does not fit, a usage error. */
	if (rc < 0) {
		rc = rc == -2 ? EXIT_USAGE : 1;
		goto out;
	}
	if (rc <= 1 && id && !no_report && report(store, id))
		rc = 1;
out:
	for (size_t i = 0; paths && i < configs.n; i++)
		free(paths[i]);
	free(paths);
	store_close(store);
	opt_list_release(&configs);
	opt_list_release(&bo.fragments);
	cmd_build_fragments_free(fragments);
	free(kconfig);
	opt_list_release(&to);
	strbuf_release(&path);
	strbuf_release(&cmdline);
	strbuf_release(&cache);
	return rc;
}
