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
#include "db/bisect.h"
#include "db/store.h"
#include "lib/argv.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "bisect/bisect_run.h"
#include "bisect/bisect_settings.h"
#include "kernel/kbuild.h"
#include "kernel/vm.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct parse_opt_usage bisect_usage = {
	.synopsis = "kbench bisect --tree DIR --good REF --bad REF -c CONFIG [-c CONFIG...]\n"
		    "                    [-o [SECTION.]KEY=VALUE...] [--only REGEX]\n"
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

/* The bisections' rows, kept until every row name is known: the column
 * is as wide as the longest, never cut. */
struct listing {
	struct strbuf *head, *row, *tail;	/* before the row, the row, after it */
	size_t n, alloc;
	int width;
};

/* Display columns of UTF-8 text s: a sequence counts as one, as
 * output_cell counts them. */
static int columns(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static int list_one(const struct bisect_info *b, void *arg)
{
	struct listing *l = arg;
	size_t i = l->n;

	if (l->n + 1 > l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 16;
		l->head = xreallocarray(l->head, l->alloc, sizeof(*l->head));
		l->row = xreallocarray(l->row, l->alloc, sizeof(*l->row));
		l->tail = xreallocarray(l->tail, l->alloc, sizeof(*l->tail));
	}
	strbuf_init(&l->head[i]);
	strbuf_init(&l->row[i]);
	strbuf_init(&l->tail[i]);
	l->n++;
	strbuf_addf(&l->head[i], "%4lld %-11s %-13s %5d ", (long long)b->id, b->status,
		    *b->result ? b->result : "-", b->steps);
	if (*b->section)
		strbuf_addf(&l->row[i], "%s/%s", b->section, b->row);
	else
		strbuf_addch(&l->row[i], '-');
	strbuf_addf(&l->tail[i], " %-12.12s %.10s\n", *b->first_bad ? b->first_bad : "-",
		    b->started_at);
	if (columns(l->row[i].buf) > l->width)
		l->width = columns(l->row[i].buf);
	return 0;
}

static int list(void)
{
	struct store *s = NULL;
	struct listing l = { .width = 3 };
	struct strbuf out = STRBUF_INIT;
	int rc = 1;

	if (cmd_open_store(&s, CMD_STORE_READ) || store_each_bisect(s, list_one, &l) < 0)
		goto out;
	if (!l.n)
		strbuf_addstr(&out, "No bisection in the store.\n");
	else
		strbuf_addf(&out, "%4s %-11s %-13s %5s %-*s %-12s %s\n", "id", "status", "result",
			    "steps", l.width, "row", "first bad", "started");
	for (size_t i = 0; i < l.n; i++) {
		strbuf_add(&out, l.head[i].buf, l.head[i].len);
		output_cell(&out, l.row[i].buf, l.width, 0);
		strbuf_add(&out, l.tail[i].buf, l.tail[i].len);
	}
	fwrite(out.buf, 1, out.len, stdout);
	rc = fflush(stdout) ? 1 : 0;
out:
	for (size_t i = 0; i < l.n; i++) {
		strbuf_release(&l.head[i]);
		strbuf_release(&l.row[i]);
		strbuf_release(&l.tail[i]);
	}
	free(l.head);
	free(l.row);
	free(l.tail);
	strbuf_release(&out);
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

/* --report --mail ADDR...: as kbench mail --to ADDR... --bisect @ID. */
static int mail(const char *sel, const struct opt_list *to)
{
	struct store *s = NULL;
	char idtext[32];
	int64_t id;
	int rc = 1;

	if (cmd_open_store(&s, CMD_STORE_READ) || find(s, sel, &id))
		goto out;
	store_close(s);
	s = NULL;
	snprintf(idtext, sizeof(idtext), "@%lld", (long long)id);
	rc = mail_bisect_report(idtext, to->v, to->n);
out:
	store_close(s);
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

/* --row: SECTION/ROW, checked as it is parsed, into the const char *
 * opt->value; whether the config has it is known once it is loaded. */
static int parse_row(const struct parse_opt *opt, const char *value)
{
	const char *slash = strchr(value, '/');

	if (!slash || slash == value || !slash[1])
		return error("--row '%s': expected SECTION/ROW, as kbench compare names them "
			     "(hackbench/4)", value);
	*(const char **)opt->value = value;
	return 0;
}

/* What kbench bisect was given, and what a new bisection's files
 * resolve to (owned, freed by args_release). */
struct bisect_args {
	struct opt_list configs, to, overrides;
	struct cmd_build_opts bo;
	struct vm_config vc;
	struct bisect_options o;
	int resume, log, rep, lst, no_report, icount;
	char **paths, **fragments, *kconfig;
	struct strbuf cache, cmdline;
};

static void args_release(struct bisect_args *a)
{
	for (size_t i = 0; a->paths && i < a->configs.n; i++)
		free(a->paths[i]);
	free(a->paths);
	opt_list_release(&a->configs);
	opt_list_release(&a->overrides);
	opt_list_release(&a->bo.fragments);
	cmd_build_fragments_free(a->fragments);
	free(a->kconfig);
	opt_list_release(&a->to);
	strbuf_release(&a->cmdline);
	strbuf_release(&a->cache);
}

/* The modes go one at a time, and the options of a new bisection with
 * none of them. Return 0, or -1 after saying why. */
static int check_mode(const struct bisect_args *a, int argc, char **argv)
{
	int run = !(a->resume || a->log || a->rep || a->lst);

	if (a->resume + a->log + a->rep + a->lst > 1)
		return error("--resume, --log, --report and --list go one at a time");
	if (argc > (run || a->lst ? 0 : 1))
		return error("unexpected argument '%s'", argv[run || a->lst ? 0 : 1]);
	if (a->to.n && !a->rep)
		return error("--mail goes with --report");
	if (!run && (a->o.tree || a->o.good || a->o.bad || a->configs.n || a->overrides.n ||
		     a->o.only || a->o.row || a->bo.fragments.n || a->bo.kconfig ||
		     a->bo.no_guest_fragment || a->bo.cache || a->bo.jobs || a->bo.timeout_s ||
		     a->icount || a->o.dry_run))
		return error("--resume, --log, --report and --list take a stored bisection: "
			     "--tree, --good, --bad, -c, -o, --only, --row and the build's options "
			     "start a new one");
	return 0;
}

/* The settings of a new bisection. Return 0, or -1 after saying why. */
static int check_new(struct bisect_args *a)
{
	struct strbuf err = STRBUF_INIT;
	struct vm_config vc = a->vc;

	if (!a->o.tree || !a->o.good || !a->o.bad)
		return error("a bisection needs --tree DIR, --good REF and --bad REF (or --resume, "
			     "--log, --report, --list)");
	if (!a->configs.n)
		return error("no config given: use -c FILE (what to measure, e.g. "
			     "configs/hackbench.conf)");
	if (bisect_options_check(&a->o, &err)) {
		error("%s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	if (vm_check_accel_name(vc.accel) || (a->icount && cmd_check_icount(vc.accel, vc.vcpus)))
		return -1;
	if (!(vc.boot_timeout_s > 0) || vc.boot_timeout_s > 86400)
		return error("--boot-timeout must be more than 0 seconds and at most a day");
	if (a->icount)
		a->vc.icount_shift = VM_ICOUNT_SHIFT;
	if (vc.append && strpbrk(vc.append, "\n\r"))
		return error("--append is one line");
	return 0;
}

/* The files of a new bisection by their absolute paths, into a->o: its
 * settings are stored, to be read by --resume from anywhere. Return 0,
 * or -1 after saying why. */
static int resolve_files(struct bisect_args *a)
{
	struct cmd_build_opts *bo = &a->bo;
	struct strbuf path = STRBUF_INIT;
	struct kbuild_request rq;

	a->paths = xcalloc(a->configs.n + 1, sizeof(*a->paths));
	for (size_t i = 0; i < a->configs.n; i++) {
		char abs[PATH_MAX];

		if (cmd_find_config(a->configs.v[i], &path)) {
			strbuf_release(&path);
			return -1;
		}
		a->paths[i] = realpath(path.buf, abs) ? xstrdup(abs) : strbuf_detach(&path);
		strbuf_reset(&path);
	}
	strbuf_release(&path);
	a->o.configs = a->paths;
	a->o.nconfigs = a->configs.n;
	a->o.overrides = (char *const *)a->overrides.v;
	a->o.noverrides = a->overrides.n;
	if (cmd_build_request(bo, &rq, &a->fragments))
		return -1;
	for (size_t i = 0; a->fragments[i]; i++)
		if (absolute(&a->fragments[i]))
			return -1;
	if (bo->kconfig && (strchr(bo->kconfig, '/') || !access(bo->kconfig, F_OK))) {
		a->kconfig = xstrdup(bo->kconfig);
		if (absolute(&a->kconfig))
			return -1;
	}
	a->o.kconfig = a->kconfig ? a->kconfig : bo->kconfig;
	a->o.guest_fragment = bo->no_guest_fragment ? NULL : a->fragments[0];
	a->o.fragments = a->fragments + !bo->no_guest_fragment;
	a->o.nfragments = rq.nfragments - !bo->no_guest_fragment;
	if (bo->cache && *bo->cache != '/') {
		char cwd[PATH_MAX];

		if (!getcwd(cwd, sizeof(cwd)))
			return error("cannot read the current directory: %s", strerror(errno));
		strbuf_addf(&a->cache, "%s/%s", cwd, bo->cache);
	}
	a->o.cache_dir = a->cache.len ? a->cache.buf : bo->cache;
	a->o.jobs = bo->jobs;
	a->o.build_timeout_s = bo->timeout_s;
	a->o.vm = &a->vc;
	a->o.command = a->cmdline.buf;
	return 0;
}

/* Start the bisection a holds (or list it, --dry-run), then print its
 * report. Return the command's status. */
static int start(struct bisect_args *a)
{
	struct store *store = NULL;
	int64_t id = 0;
	int rc;

	if (a->o.dry_run) {
		rc = bisect_start(NULL, &a->o, &id);
		return rc == -2 ? EXIT_USAGE : rc ? 1 : 0;
	}
	if (cmd_open_store(&store, CMD_STORE_WRITE))
		return 1;
	rc = bisect_start(store, &a->o, &id);
	/* A tree or a ref that is not there is a failure (exit 1), as for
	 * kbench build; a config or --row that does not fit, a usage error. */
	if (rc < 0)
		rc = rc == -2 ? EXIT_USAGE : 1;
	else if (rc <= 1 && id && !a->no_report && report(store, id))
		rc = 1;
	store_close(store);
	return rc;
}

/* --resume of the bisection sel names, then its report. */
static int resume(const char *sel, int no_report)
{
	struct store *store = NULL;
	int64_t id = 0;
	int rc = 1;

	if (cmd_open_store(&store, CMD_STORE_WRITE) || find(store, sel, &id))
		goto out;
	rc = status(bisect_resume(store, id));
	if (rc <= 1 && !no_report && report(store, id))
		rc = 1;
out:
	store_close(store);
	return rc;
}

#define SETTING_HELP(key) (bisect_setting_find(key)->help)
#define SETTING_LO(key) ((int)bisect_setting_find(key)->lo)
#define SETTING_HI(key) ((int)bisect_setting_find(key)->hi)

int cmd_bisect(int argc, char **argv)
{
	struct bisect_args a = {
		.configs = OPT_LIST_INIT, .to = OPT_LIST_INIT, .overrides = OPT_LIST_INIT,
		.bo = { .fragments = OPT_LIST_INIT, .timeout_name = "build-timeout" },
		.vc = VM_CONFIG_INIT,
		.o = { .threshold_pct = BISECT_DEFAULT_THRESHOLD, .rounds = BISECT_DEFAULT_ROUNDS,
		       .max_rounds = 0 },
		.cache = STRBUF_INIT, .cmdline = STRBUF_INIT,
	};
	const struct parse_opt options[] = {
		OPT_STRING(0, "tree", &a.o.tree, "DIR", "the git tree of the kernel"),
		OPT_STRING(0, "good", &a.o.good, "REF", "a commit without the regression"),
		OPT_STRING(0, "bad", &a.o.bad, "REF", "a later commit with it"),
		OPT_STRING_LIST('c', "config", &a.configs, "FILE", SETTING_HELP("config")),
		OPT_STRING_LIST('o', NULL, &a.overrides, "KEY=VALUE", SETTING_HELP("override")),
		OPT_STRING(0, "only", &a.o.only, "REGEX", SETTING_HELP("only")),
		OPT_CALLBACK(0, "row", &a.o.row, "SECTION/ROW", SETTING_HELP("row"), parse_row),
		OPT_DOUBLE(0, "threshold", &a.o.threshold_pct, "PCT", SETTING_HELP("threshold")),
		OPT_INT_RANGE(0, "rounds", &a.o.rounds, "N", SETTING_HELP("rounds"),
			      SETTING_LO("rounds"), SETTING_HI("rounds")),
		OPT_INT_RANGE(0, "max-rounds", &a.o.max_rounds, "N", SETTING_HELP("max-rounds"),
			      SETTING_LO("max-rounds"), SETTING_HI("max-rounds")),
		CMD_BUILD_OPTIONS(&a.bo, "build-timeout"),
		OPT_INT_RANGE(0, "vcpus", &a.vc.vcpus, "N", SETTING_HELP("vcpus"),
			      SETTING_LO("vcpus"), SETTING_HI("vcpus")),
		OPT_INT_RANGE(0, "memory", &a.vc.mem_mib, "MIB", SETTING_HELP("memory"),
			      SETTING_LO("memory"), SETTING_HI("memory")),
		OPT_STRING(0, "append", &a.vc.append, "TEXT", SETTING_HELP("append")),
		OPT_CALLBACK(0, "accel", &a.vc.accel, "auto|kvm|tcg", SETTING_HELP("accel"),
			     cmd_parse_accel),
		OPT_DOUBLE(0, "boot-timeout", &a.vc.boot_timeout_s, "SECONDS",
			   SETTING_HELP("boot-timeout")),
		OPT_BOOL(0, "icount", &a.icount, SETTING_HELP("icount")),
		OPT_BOOL(0, "no-report", &a.no_report, "do not print the report at the end"),
		OPT_BOOL(0, "dry-run", &a.o.dry_run,
			 "list the commits and the first step; build, run\n"
			 "and store nothing"),
		OPT_BOOL(0, "resume", &a.resume, "go on with a stopped bisection"),
		OPT_BOOL(0, "log", &a.log, "print a bisection's log, as git bisect log"),
		OPT_BOOL(0, "report", &a.rep, "print a bisection's report"),
		OPT_STRING_LIST(0, "mail", &a.to, "ADDR",
				"with --report: mail it to ADDR (repeatable)"),
		OPT_BOOL(0, "list", &a.lst, "list the bisections in the store"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	const char *sel;
	int rc = EXIT_USAGE;

	/* The command as it was typed, for the log. */
	strbuf_addstr(&a.cmdline, "kbench ");
	argv_quote(argv, (size_t)argc, &a.cmdline);
	if (cmd_parse_options(&argc, argv, options, &bisect_usage, &rc) ||
	    check_mode(&a, argc, argv))
		goto out;
	sel = argc ? argv[0] : NULL;
	if (a.lst)
		rc = list();
	else if (a.log || a.rep)
		rc = a.to.n ? mail(sel, &a.to) : show(sel, a.rep);
	else if (a.resume)
		rc = resume(sel, a.no_report);
	else if (!check_new(&a))
		rc = resolve_files(&a) ? EXIT_USAGE : start(&a);
out:
	args_release(&a);
	return rc;
}
