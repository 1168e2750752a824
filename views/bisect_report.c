/* bisect_report: a stored bisection as text: its log, read back as git
 * bisect log writes one, and its report, as a regression report to a
 * kernel list reads (the commit, the change, the table, how it ran, how
 * to reproduce it). */
#include "config.h"
#include "views/bisect_report.h"
#include "views/bisect_monitors.h"
#include "compare/compare.h"
#include "compare/verdict.h"
#include "db/bisect.h"
#include "db/experiment.h"
#include "db/store.h"
#include "lib/argv.h"
#include "lib/child.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "kernel/kbuild.h"
#include "bisect/bisect_settings.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* Lines of the report's own text are kept to this width; a word longer
 * than a line (a path) is put on a line of its own, never cut. */
#define REPORT_WIDTH 76


struct vcommit {
	long idx;
	char *id, *subject, *author;
	int parents;
};

struct vstep {
	int step;
	char *commit, *good, *bad, *verdict, *reason, *accel;
	int64_t experiment_id;
	int rounds;
	double vs_good_pct, vs_good_p, vs_bad_pct, vs_bad_p;
};

struct view {
	struct bisect_info info;
	struct bisect_settings set;	/* info.settings read back */
	struct vcommit *c;
	size_t nc, c_alloc;
	struct vstep *st;
	size_t ns, st_alloc;
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static int add_commit(const struct bisect_commit *c, void *arg)
{
	struct view *v = arg;

	ALLOC_GROW(v->c, v->nc + 1, v->c_alloc);
	v->c[v->nc].idx = c->idx;
	v->c[v->nc].id = xstrdup(c->id);
	v->c[v->nc].subject = xstrdup(c->subject ? c->subject : "");
	v->c[v->nc].author = xstrdup(c->author ? c->author : "");
	v->c[v->nc].parents = c->parents;
	v->nc++;
	return 0;
}

static int add_step(const struct bisect_step *s, void *arg)
{
	struct view *v = arg;
	struct vstep *x;

	ALLOC_GROW(v->st, v->ns + 1, v->st_alloc);
	x = &v->st[v->ns++];
	x->step = s->step;
	x->commit = xstrdup(s->commit);
	x->good = xstrdup(s->good);
	x->bad = xstrdup(s->bad);
	x->verdict = dup_or_null(s->verdict);
	x->reason = dup_or_null(s->reason);
	x->accel = dup_or_null(s->accel);
	x->experiment_id = s->experiment_id;
	x->rounds = s->rounds;
	x->vs_good_pct = s->vs_good_pct;
	x->vs_good_p = s->vs_good_p;
	x->vs_bad_pct = s->vs_bad_pct;
	x->vs_bad_p = s->vs_bad_p;
	return 0;
}

static void view_release(struct view *v)
{
	bisect_info_release(&v->info);
	bisect_settings_release(&v->set);
	for (size_t i = 0; i < v->nc; i++) {
		free(v->c[i].id);
		free(v->c[i].subject);
		free(v->c[i].author);
	}
	free(v->c);
	for (size_t i = 0; i < v->ns; i++) {
		free(v->st[i].commit);
		free(v->st[i].good);
		free(v->st[i].bad);
		free(v->st[i].verdict);
		free(v->st[i].reason);
		free(v->st[i].accel);
	}
	free(v->st);
	memset(v, 0, sizeof(*v));
}

static int view_load(struct store *s, int64_t id, struct view *v)
{
	struct strbuf err = STRBUF_INIT;
	int rc;

	memset(v, 0, sizeof(*v));
	rc = store_get_bisect(s, id, &v->info);
	if (rc > 0)
		error("no bisection @%lld in the store (kbench bisect --list lists them)",
		      (long long)id);
	bisect_settings_init(&v->set);
	if (rc || store_each_bisect_commit(s, id, add_commit, v) < 0 ||
	    store_each_bisect_step(s, id, add_step, v) < 0) {
		view_release(v);
		return -1;
	}
	/* A setting this kbench does not read is left out of the report,
	 * which says what it can of the rest. */
	bisect_settings_read(&v->set, v->info.settings, &err);
	strbuf_release(&err);
	return 0;
}

static const struct vcommit *find_commit(const struct view *v, const char *id)
{
	for (size_t i = 0; id && i < v->nc; i++)
		if (!strcmp(v->c[i].id, id))
			return &v->c[i];
	return NULL;
}

/* "[ID] subject", as git bisect log writes a commit. */
static void commit_line(const struct view *v, const char *id, struct strbuf *out)
{
	const struct vcommit *c = find_commit(v, id);

	strbuf_addf(out, "[%s] %s", id, c ? c->subject : "");
}

/* text as comment lines ("# ..."), wrapped at REPORT_WIDTH. */
static void comment(const char *text, struct strbuf *out)
{
	const char *p = text;
	int first = 1;

	while (*p) {
		size_t room = REPORT_WIDTH - (first ? 2 : 4), len = strlen(p), cut = len;

		if (len > room) {
			cut = room;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (!cut)
				cut = strcspn(p, " ");
		}
		strbuf_addf(out, "%s%.*s\n", first ? "# " : "#   ", (int)cut, p);
		p += cut;
		while (*p == ' ')
			p++;
		first = 0;
	}
}

/* text wrapped at REPORT_WIDTH, each line after indent. */
static void para(const char *text, const char *indent, struct strbuf *out)
{
	const char *p = text;

	while (*p) {
		size_t room = REPORT_WIDTH - strlen(indent), len = strlen(p), cut = len;

		if (len > room) {
			cut = room;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (!cut)
				cut = strcspn(p, " ");
		}
		strbuf_addf(out, "%s%.*s\n", indent, (int)cut, p);
		p += cut;
		while (*p == ' ')
			p++;
	}
}

static void step_comment(const struct vstep *x, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "kbench step %d", x->step);
	if (x->experiment_id)
		strbuf_addf(&sb, ", experiment @%lld", (long long)x->experiment_id);
	if (x->rounds)
		strbuf_addf(&sb, ", %d rounds", x->rounds);
	if (x->accel)
		strbuf_addf(&sb, " under %s", x->accel);
	if (!x->verdict)
		strbuf_addf(&sb, ": testing %.12s, stopped before its verdict", x->commit);
	else
		strbuf_addf(&sb, ": %s%s%s", x->verdict, x->reason ? ": " : "",
			    x->reason ? x->reason : "");
	comment(sb.buf, out);
	strbuf_release(&sb);
}

/* The commits in (good, bad] that a bisection ending among skipped ones
 * could name: the skipped ones and the bad bound. */
static long idx_of(const struct view *v, const char *id)
{
	const struct vcommit *c = find_commit(v, id);

	return c ? c->idx : -2;
}

/* The newest commit known good when the bisection ended. */
static const char *good_bound(const struct view *v)
{
	const char *good = v->info.good;
	long best = -1;

	for (size_t i = 0; i < v->ns; i++)
		if (v->st[i].step && v->st[i].verdict && !strcmp(v->st[i].verdict, "good") &&
		    idx_of(v, v->st[i].commit) > best) {
			best = idx_of(v, v->st[i].commit);
			good = v->st[i].commit;
		}
	return good;
}

static void log_text(const struct view *v, struct strbuf *out)
{
	const struct bisect_info *b = &v->info;
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "kbench bisect @%lld (%s) in %s, started by:", (long long)b->id, b->uuid,
		    b->tree);
	comment(sb.buf, out);
	/* The command on one line: a command wrapped cannot be pasted. */
	strbuf_addf(out, "#   %s\n", b->command);
	strbuf_addstr(out, "git bisect start '--first-parent'\n# bad: ");
	commit_line(v, b->bad, out);
	strbuf_addf(out, "\ngit bisect bad %s\n# good: ", b->bad);
	commit_line(v, b->good, out);
	strbuf_addf(out, "\ngit bisect good %s\n", b->good);
	for (size_t i = 0; i < v->ns; i++) {
		const struct vstep *x = &v->st[i];
		const char *word = NULL;

		step_comment(x, out);
		if (!x->step || !x->verdict)
			continue;
		word = x->verdict;
		strbuf_addf(out, "# %s: ", word);
		commit_line(v, x->commit, out);
		strbuf_addf(out, "\ngit bisect %s %s\n", word, x->commit);
	}
	strbuf_reset(&sb);
	if (!strcmp(b->status, "complete") && !strcmp(b->result, "found")) {
		strbuf_addstr(out, "# first bad commit: ");
		commit_line(v, b->first_bad, out);
		strbuf_addch(out, '\n');
	} else if (!strcmp(b->status, "complete") && !strcmp(b->result, "skipped")) {
		long lo = idx_of(v, good_bound(v)), hi = idx_of(v, b->first_bad);

		strbuf_addstr(out, "# only skipped commits left to test\n");
		for (size_t i = 0; i < v->nc; i++)
			if (v->c[i].idx > lo && v->c[i].idx <= hi) {
				strbuf_addstr(out, "# possible first bad commit: ");
				commit_line(v, v->c[i].id, out);
				strbuf_addch(out, '\n');
			}
	} else if (!strcmp(b->status, "complete")) {
		comment("kbench: nothing to bisect", out);
	} else {
		strbuf_addf(&sb, "kbench: the bisection is %s; kbench bisect --resume %lld goes on",
			    b->status, (long long)b->id);
		comment(sb.buf, out);
	}
	strbuf_release(&sb);
}

int bisect_log_text(struct store *s, int64_t id, struct strbuf *out)
{
	struct view v;

	if (view_load(s, id, &v))
		return -1;
	log_text(&v, out);
	view_release(&v);
	return 0;
}

/* ---- the report ---- */

/* The runs of arms good_id and bad_id of the latest step whose
 * experiment ran both: *step the step. Return 1 when found, 0 when none,
 * -1 after an error. */
struct arm_find {
	const char *a, *b;
	int64_t run_a, run_b;
};

static int find_arm(const struct experiment_run *r, void *arg)
{
	struct arm_find *f = arg;

	/* An arm is named after its commit's id, as short as it is unique. */
	if (r->arm && strlen(r->arm) >= 8 && !strncmp(f->a, r->arm, strlen(r->arm)))
		f->run_a = r->run_id;
	if (r->arm && strlen(r->arm) >= 8 && !strncmp(f->b, r->arm, strlen(r->arm)))
		f->run_b = r->run_id;
	return 0;
}

static int pair_runs(struct store *s, const struct view *v, const char *a, const char *b,
		     int64_t *run_a, int64_t *run_b, const struct vstep **step)
{
	for (size_t i = v->ns; i-- > 0;) {
		const struct vstep *x = &v->st[i];
		struct experiment_info e;
		struct arm_find f = { .a = a, .b = b };
		int has_a = !strcmp(x->good, a) || !strcmp(x->commit, a) || !strcmp(x->bad, a);
		int has_b = !strcmp(x->good, b) || !strcmp(x->commit, b) || !strcmp(x->bad, b);

		if (!x->experiment_id || !x->verdict || !has_a || !has_b)
			continue;
		if (store_get_experiment(s, x->experiment_id, &e))
			continue;
		if (store_each_experiment_run(s, e.uuid, find_arm, &f) < 0) {
			experiment_info_release(&e);
			return -1;
		}
		experiment_info_release(&e);
		if (f.run_a && f.run_b) {
			*run_a = f.run_a;
			*run_b = f.run_b;
			*step = x;
			return 1;
		}
	}
	return 0;
}

struct row_find {
	const char *section, *row;
	int rounds;
	struct strbuf *line;		/* "SECTION STAT ROW: PCT, VERDICT" */
	struct strbuf *detail;		/* the means and the test */
	int found;
	double pct;
	char *stat;
};

static int find_row(const struct row_verdict *r, void *arg)
{
	struct row_find *f = arg;
	char stat[16];
	size_t i;

	if (strcmp(r->section, f->section) || strcmp(r->row, f->row))
		return 0;
	for (i = 0; r->stat[i] && i + 1 < sizeof(stat); i++)
		stat[i] = (char)tolower((unsigned char)r->stat[i]);
	stat[i] = '\0';
	strbuf_addf(f->line, "%s %s %s: %+.2f%%, %s", r->section, stat, r->row, r->pct,
		    r->verdict);
	strbuf_addf(f->detail, "%.*f -> %.*f%s%s", r->decimals, r->base_mean, r->decimals,
		    r->new_mean, *r->unit ? " " : "", r->unit);
	if (r->paired && isfinite(r->p))
		strbuf_addf(f->detail, ", a paired t-test on %d rounds, p %.2g", f->rounds, r->p);
	else if (isfinite(r->p))
		strbuf_addf(f->detail, ", p %.2g", r->p);
	f->found = 1;
	f->pct = r->pct;
	f->stat = xstrdup(stat);
	return 1;
}

/* How the steps' guests ran: "under TCG in every step", or which. */
static void accel_text(const struct view *v, struct strbuf *out)
{
	size_t tcg = 0, kvm = 0;
	struct strbuf which = STRBUF_INIT;

	for (size_t i = 0; i < v->ns; i++) {
		if (!v->st[i].accel)
			continue;
		if (!strcmp(v->st[i].accel, "tcg")) {
			tcg++;
			strbuf_addf(&which, "%s%d", which.len ? ", " : "", v->st[i].step);
		} else {
			kvm++;
		}
	}
	if (tcg && !kvm)
		strbuf_addstr(out, "under TCG in every step");
	else if (!tcg)
		strbuf_addstr(out, "under KVM in every step");
	else
		strbuf_addf(out, "under TCG in step%s %s, KVM in the others", tcg == 1 ? "" : "s",
			    which.buf);
	strbuf_release(&which);
}

static int any_tcg(const struct view *v)
{
	for (size_t i = 0; i < v->ns; i++)
		if (v->st[i].accel && !strcmp(v->st[i].accel, "tcg"))
			return 1;
	return 0;
}

/* The n-th (from 0) value of the bisection's setting key, as stored,
 * into out; 0 when there is one, -1 when not. */
static int setting(const struct view *v, const char *key, size_t n, struct strbuf *out)
{
	return bisect_setting_text(&v->set, bisect_setting_find(key), n, out);
}

/* The settings the guests and the build were made with, as options. */
static const char *const build_and_guest_settings[] = {
	"kconfig", "fragment", "vcpus", "memory", "append", "accel", "icount", "boot-timeout",
};

/* The options of the settings of v that keys names, in its order; one
 * at its default is left out. */
static void setting_words(const struct view *v, const char *const *keys, size_t n,
			  struct argv_list *w)
{
	struct strbuf val = STRBUF_INIT;

	for (size_t k = 0; k < n; k++) {
		const struct bisect_setting *d = bisect_setting_find(keys[k]);

		if (bisect_setting_is_default(&v->set, d))
			continue;
		for (size_t i = 0; !bisect_setting_text(&v->set, d, i, &val); i++) {
			argv_list_push(w, d->option);
			if (!(d->flags & BISECT_SETTING_FLAG))
				argv_list_push(w, val.buf);
		}
	}
	strbuf_release(&val);
}

/* The options the kernels were built and booted with. */
static void build_and_guest_words(const struct view *v, struct argv_list *w)
{
	setting_words(v, build_and_guest_settings,
		      sizeof(build_and_guest_settings) / sizeof(build_and_guest_settings[0]), w);
	/* The shipped guest fragment is kbench build's default. */
	if (!v->set.guest_fragment)
		argv_list_push(w, "--no-guest-fragment");
}

/* The name the report gives the benchmark config it prints, which its
 * commands read: the stored config's name ("tp", "a+b") and ".conf". */
static void config_file(const struct view *v, struct strbuf *out)
{
	strbuf_addf(out, "%s.conf", *v->info.config_name ? v->info.config_name : "bisect");
}

/* -c FILE (the config printed in the report), then -o and --only as
 * the bisection took them. */
static void config_words(const struct view *v, struct argv_list *w)
{
	static const char *const keys[] = { "override", "only" };
	struct strbuf file = STRBUF_INIT;

	config_file(v, &file);
	argv_list_push(w, "-c");
	argv_list_push(w, file.buf);
	setting_words(v, keys, sizeof(keys) / sizeof(keys[0]), w);
	strbuf_release(&file);
}

/* The kbench vm command that runs the two commits against each other as
 * the step did. */
static void vm_command(const struct view *v, const char *a, const char *b, int rounds,
		       struct strbuf *out)
{
	struct argv_list w = ARGV_LIST_INIT;
	char ra[16], rb[16], val[16];

	snprintf(ra, sizeof(ra), "%.12s", a);
	snprintf(rb, sizeof(rb), "%.12s", b);
	argv_list_push(&w, "kbench");
	argv_list_push(&w, "vm");
	argv_list_push(&w, "--tree");
	argv_list_push(&w, v->info.tree);
	argv_list_push(&w, "--ref");
	argv_list_push(&w, ra);
	argv_list_push(&w, "--ref");
	argv_list_push(&w, rb);
	config_words(v, &w);
	build_and_guest_words(v, &w);
	argv_list_push(&w, "--rounds");
	snprintf(val, sizeof(val), "%d", rounds);
	argv_list_push(&w, val);
	argv_quote(w.v, w.n, out);
	argv_list_release(&w);
}

/* The kbench bisect command that runs this bisection again: its ends as
 * commit ids, its row, the rest of its settings. */
static void bisect_command(const struct view *v, struct strbuf *out)
{
	static const char *const keys[] = { "threshold", "rounds", "max-rounds" };
	struct argv_list w = ARGV_LIST_INIT;
	struct strbuf row = STRBUF_INIT;
	char good[16], bad[16];

	snprintf(good, sizeof(good), "%.12s", v->info.good);
	snprintf(bad, sizeof(bad), "%.12s", v->info.bad);
	argv_list_push(&w, "kbench");
	argv_list_push(&w, "bisect");
	argv_list_push(&w, "--tree");
	argv_list_push(&w, v->info.tree);
	argv_list_push(&w, "--good");
	argv_list_push(&w, good);
	argv_list_push(&w, "--bad");
	argv_list_push(&w, bad);
	config_words(v, &w);
	setting_words(v, keys, sizeof(keys) / sizeof(keys[0]), &w);
	build_and_guest_words(v, &w);
	if (*v->info.section) {
		strbuf_addf(&row, "%s/%s", v->info.section, v->info.row);
		argv_list_push(&w, "--row");
		argv_list_push(&w, row.buf);
	}
	argv_quote(w.v, w.n, out);
	argv_list_release(&w);
	strbuf_release(&row);
}

/* The base name of a path. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* A stored fragment's text ("\n" and "\\" escaped), its lines indented. */
static void fragment_text(const char *esc, struct strbuf *out)
{
	strbuf_addstr(out, "      ");
	for (const char *p = esc; *p; p++) {
		if (*p == '\\' && p[1] == 'n') {
			p++;
			if (p[1])
				strbuf_addstr(out, "\n      ");
		} else if (*p == '\\' && p[1] == '\\') {
			strbuf_addch(out, *++p);
		} else {
			strbuf_addch(out, *p);
		}
	}
	strbuf_rtrim(out);
	strbuf_addch(out, '\n');
}

/* The kernels' config in words: the base config, then each fragment
 * merged, by name, with its text or where it comes from. */
static void kernel_config_text(const struct view *v, struct strbuf *out)
{
	struct strbuf val = STRBUF_INIT, text = STRBUF_INIT;
	int guest = !setting(v, "guest-fragment", 0, &val);
	int nfrag = 0;

	while (!setting(v, "fragment", nfrag, &text))
		nfrag++;
	strbuf_addstr(out, "The kernels' config: ");
	if (setting(v, "kconfig", 0, &text))
		strbuf_addf(out, "%s (make %s, kbench build's default)", KBUILD_DEFAULT_KCONFIG,
			    KBUILD_DEFAULT_KCONFIG);
	else if (strchr(text.buf, '/'))
		strbuf_addf(out, "the config file %s", text.buf);
	else
		strbuf_addf(out, "%s (make %s)", text.buf, text.buf);
	if (!guest && !nfrag) {
		strbuf_addstr(out, ", no fragment merged.\n");
		goto out;
	}
	strbuf_addstr(out, ",\nthen these fragments merged into it in this order (merge_config.sh):\n");
	if (guest)
		strbuf_addf(out, "  - %s, the guest fragment kbench ships\n    (configs/kernel/%s "
			    "in its source)\n", base_name(val.buf), base_name(val.buf));
	for (int i = 0, t = 0; i < nfrag; i++) {
		setting(v, "fragment", i, &val);
		strbuf_addf(out, "  - %s (%s)", base_name(val.buf), val.buf);
		/* Its text, stored with the bisection when it began. */
		if (!setting(v, "fragment-text", t++, &text) && text.len) {
			strbuf_addstr(out, ":\n");
			fragment_text(text.buf, out);
		} else {
			strbuf_addch(out, '\n');
		}
	}
out:
	strbuf_release(&val);
	strbuf_release(&text);
}

/* The benchmark config as stored, indented, under the name the commands
 * read it by. */
static void bench_config_text(const struct view *v, struct strbuf *out)
{
	struct strbuf file = STRBUF_INIT, sb = STRBUF_INIT;

	config_file(v, &file);
	strbuf_addf(&sb, "The benchmark config, as stored with the bisection (save it as %s: "
		    "the commands below read it):", file.buf);
	para(sb.buf, "", out);
	strbuf_addch(out, '\n');
	for (const char *p = v->info.config_text; *p;) {
		size_t len = strcspn(p, "\n");

		strbuf_addf(out, "%s%.*s\n", len ? "  " : "", (int)len, p);
		p += len + (p[len] == '\n');
	}
	strbuf_release(&file);
	strbuf_release(&sb);
}

/* The machine of run id: "vm (AMD EPYC, 2 CPUs, 23.5 GiB)". */
static void machine_text(struct store *s, int64_t id, struct strbuf *out)
{
	struct run_info ri;

	if (store_get_run(s, id, &ri)) {
		strbuf_addstr(out, "this machine");
		return;
	}
	strbuf_addf(out, "%s (", ri.hostname);
	if (ri.cpu_model && *ri.cpu_model) {
		size_t start = out->len;

		strbuf_addf(out, "%s", ri.cpu_model);
		strbuf_rtrim(out);
		if (out->len > start)
			strbuf_addstr(out, ", ");
	}
	strbuf_addf(out, "%d CPUs, %.1f GiB)", ri.cpus, (double)ri.mem_bytes / (1 << 30));
	run_info_release(&ri);
}

/* The table of run a against run b and how they ran, with what
 * reproduces it. */
static int pair_text(struct store *s, const struct view *v, const char *a, const char *b,
		     const char *what, int monitors, struct strbuf *out)
{
	int64_t run_a = 0, run_b = 0, ids[2];
	const struct vstep *x = NULL;
	struct strbuf sb = STRBUF_INIT, val = STRBUF_INIT;
	int rc = pair_runs(s, v, a, b, &run_a, &run_b, &x);

	if (rc <= 0) {
		if (!rc)
			strbuf_addf(out, "No step ran %.12s and %.12s side by side: no table of the "
				    "two.\n", a, b);
		return rc;
	}
	strbuf_addstr(&sb, "How it ran: on ");
	machine_text(s, run_b, &sb);
	strbuf_addstr(&sb, ", the kernels in QEMU guests ");
	{
		struct strbuf c = STRBUF_INIT, m = STRBUF_INIT;

		setting(v, "vcpus", 0, &c);
		setting(v, "memory", 0, &m);
		strbuf_addf(&sb, "(%s vCPUs, %s MiB) ", c.buf, m.buf);
		strbuf_release(&c);
		strbuf_release(&m);
	}
	accel_text(v, &sb);
	if (any_tcg(v) && !setting(v, "icount", 0, &val))
		strbuf_addstr(&sb, ", the guests' clocks counting instructions (--icount). The "
			      "figures count the instructions the kernels run, whatever the "
			      "host's load; not what they cost on hardware (caches, memory, "
			      "contention).");
	else if (any_tcg(v))
		strbuf_addstr(&sb, ". TCG emulates every guest instruction: it shows which kernel "
			      "is slower on a path that is mostly kernel code, not by how much "
			      "on hardware (docs/vm.md).");
	else
		strbuf_addch(&sb, '.');
	if (any_tcg(v))
		strbuf_addstr(&sb, " Confirm the figure under KVM.");
	para(sb.buf, "", out);
	strbuf_addf(out, "\n%s (step %d, experiment @%lld):\n\n", what, x->step,
		    (long long)x->experiment_id);
	ids[0] = run_a;
	ids[1] = run_b;
	strbuf_release(&val);
	if (compare_runs_text(s, ids, 2, out)) {
		strbuf_release(&sb);
		return -1;
	}
	if (monitors && *v->info.section) {
		char na[16], nb[16];

		snprintf(na, sizeof(na), "%.12s", a);
		snprintf(nb, sizeof(nb), "%.12s", b);
		strbuf_addf(out, "\nMonitors of %s %s per sample, %s against %s:\n\n", v->info.section,
			    v->info.row, nb, na);
		if (bisect_monitor_text(s, run_a, run_b, v->info.section, v->info.row, na, nb,
					out) < 0) {
			strbuf_release(&sb);
			return -1;
		}
	}
	strbuf_addch(out, '\n');
	kernel_config_text(v, out);
	strbuf_addch(out, '\n');
	bench_config_text(v, out);
	strbuf_addstr(out, "\nTo reproduce the comparison:\n\n  ");
	vm_command(v, a, b, x->rounds ? x->rounds : 6, out);
	strbuf_addstr(out, "\n\nand the bisection:\n\n  ");
	bisect_command(v, out);
	strbuf_addch(out, '\n');
	strbuf_release(&sb);
	return 1;
}

/* The change of the row between the runs of a and b: a line, and the
 * means and the test in detail. Return 1, 0 when no step ran both, -1
 * after an error. */
static int change_line(struct store *s, const struct view *v, const char *a, const char *b,
		       struct strbuf *line, struct strbuf *detail, double *pct, char **stat)
{
	int64_t run_a = 0, run_b = 0;
	const struct vstep *x = NULL;
	struct row_find f = { .section = v->info.section, .row = v->info.row, .line = line,
			      .detail = detail };
	int rc = pair_runs(s, v, a, b, &run_a, &run_b, &x);

	if (rc <= 0)
		return rc;
	f.rounds = x->rounds;
	if (compare_each_row_verdict(s, run_a, run_b, find_row, &f) < 0)
		return -1;
	*pct = f.pct;
	*stat = f.stat;
	return f.found;
}

/* The author date of commit id of tree as git log shows it ("Mon Dec 7
 * 11:26:38 2026 +0000"), into out; 0, or -1 when git cannot say (the
 * tree gone: the report goes without it). */
static int commit_date(const char *tree, const char *id, struct strbuf *out)
{
	const char *argv[] = { "git", "-C", tree, "show", "-s", "--format=%ad", "--date=default",
			       id, "--", NULL };
	struct child_program p = CHILD_PROGRAM_INIT;
	struct strbuf err = STRBUF_INIT, msg = STRBUF_INIT;
	struct child_io io = { .out = out, .err = &msg, .timeout_s = 60 };
	int end, rc = -1;

	p.argv = argv;
	p.in = CHILD_FD_NULL;
	end = child_program_run(&p, &io, &err);
	if (end == CHILD_EXITED && WIFEXITED(p.w.status) && !WEXITSTATUS(p.w.status)) {
		strbuf_rtrim(out);
		rc = out->len ? 0 : -1;
	}
	strbuf_release(&err);
	strbuf_release(&msg);
	return rc;
}

static int report_found(struct store *s, const struct view *v, struct strbuf *out,
			struct strbuf *subject)
{
	const struct bisect_info *b = &v->info;
	const struct vcommit *bad = find_commit(v, b->first_bad), *parent = NULL;
	struct strbuf sb = STRBUF_INIT, line = STRBUF_INIT, detail = STRBUF_INIT;
	double pct = NAN;
	char *stat = NULL;
	int rc;

	for (size_t i = 0; bad && i < v->nc; i++)
		if (v->c[i].idx == bad->idx - 1)
			parent = &v->c[i];
	if (!bad || !parent)
		return error("bisection @%lld: its first bad commit is not among its commits",
			     (long long)b->id);
	rc = change_line(s, v, parent->id, bad->id, &line, &detail, &pct, &stat);
	if (rc < 0)
		goto out;
	strbuf_addf(&sb, "kbench bisect @%lld names the first bad commit of a regression of %s "
		    "%s%s%s in %s, %zu commit%s after the good end %.12s (%s):", (long long)b->id,
		    b->section, stat ? stat : "", stat ? " " : "", b->row, b->tree, v->nc - 1,
		    v->nc == 2 ? "" : "s", b->good, b->good_ref);
	para(sb.buf, "", out);
	strbuf_addf(out, "\ncommit %s\nAuthor: %s\n", bad->id, bad->author);
	strbuf_reset(&sb);
	if (!commit_date(b->tree, bad->id, &sb))
		strbuf_addf(out, "Date:   %s\n", sb.buf);
	strbuf_addf(out, "\n    %s\n\n", bad->subject);
	strbuf_reset(&sb);
	/* The oldest commit's first parent need not be the good end (which
	 * may be on a branch merged into it): it is compared with the end. */
	if (rc) {
		strbuf_addf(out, "%s\n", line.buf);
		strbuf_addf(&sb, "from %s %.12s to it: %s", parent->idx < 0 ? "the good end" :
			    "its parent", parent->id, detail.buf);
	} else {
		strbuf_addf(out, "%s %s\n", b->section, b->row);
	}
	if (isfinite(b->regression_pct))
		strbuf_addf(&sb, "%sfrom the good end to the bad end: %+.2f%%", sb.len ? "; " : "",
			    b->regression_pct);
	para(sb.buf, "  ", out);
	strbuf_addch(out, '\n');
	para("Every change in this report reads from the older commit to the newer one, as "
	     "kbench compare gives a new run against its baseline: - worse, + better.", "", out);
	strbuf_addch(out, '\n');
	if (bad->parents > 1) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "It is a merge: the commits were tested on the first-parent line, "
			    "the merged branch as one. If that branch shows the regression on its "
			    "own, 'kbench bisect --good $(git merge-base %.12s^1 %.12s^2) --bad "
			    "%.12s^2' looks inside it.", bad->id, bad->id, bad->id);
		para(sb.buf, "", out);
		strbuf_addch(out, '\n');
	}
	if (subject)
		strbuf_addf(subject, "[kbench bisect] %.12s %s: %s %s %s %+.1f%%", bad->id,
			    bad->subject, b->section, stat ? stat : "", b->row,
			    isfinite(pct) ? pct : b->regression_pct);
	rc = pair_text(s, v, parent->id, bad->id, parent->idx < 0 ?
		       "The first bad commit against the good end" :
		       "The first bad commit against its parent", 1, out);
out:
	free(stat);
	strbuf_release(&sb);
	strbuf_release(&line);
	strbuf_release(&detail);
	return rc < 0 ? -1 : 0;
}

static int report_skipped(struct store *s, const struct view *v, struct strbuf *out,
			  struct strbuf *subject)
{
	const struct bisect_info *b = &v->info;
	const char *good = good_bound(v);
	long lo = idx_of(v, good), hi = idx_of(v, b->first_bad);
	struct strbuf sb = STRBUF_INIT;
	int rc;

	strbuf_addf(&sb, "kbench bisect @%lld could not name one commit for the regression of %s "
		    "%s in %s: only skipped commits are left to test. The first bad commit is "
		    "one of:", (long long)b->id, b->section, b->row, b->tree);
	para(sb.buf, "", out);
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < v->nc; i++) {
		if (v->c[i].idx <= lo || v->c[i].idx > hi)
			continue;
		strbuf_addf(out, "  %.12s %s\n", v->c[i].id, v->c[i].subject);
		for (size_t j = 0; j < v->ns; j++)
			if (!strcmp(v->st[j].commit, v->c[i].id) && v->st[j].step && v->st[j].verdict) {
				strbuf_reset(&sb);
				strbuf_addf(&sb, "%s: %s", v->st[j].verdict,
					    v->st[j].reason ? v->st[j].reason : "");
				para(sb.buf, "      ", out);
			}
	}
	strbuf_addch(out, '\n');
	if (subject)
		strbuf_addf(subject, "[kbench bisect] %s %s: one of %ld commits", b->section, b->row,
			    hi - lo);
	rc = pair_text(s, v, good, b->first_bad, "The last good commit against the first known bad "
		       "one", 0, out);
	strbuf_release(&sb);
	return rc < 0 ? -1 : 0;
}

/* The line the regression tracker reads (regzbot: "#regzbot
 * introduced: COMMIT" for a known culprit, GOOD..BAD for a range), on
 * its own after a blank line, at the end of the text. */
static void regzbot(const struct view *v, struct strbuf *out)
{
	if (strcmp(v->info.status, "complete"))
		return;
	if (!strcmp(v->info.result, "found"))
		strbuf_addf(out, "\n#regzbot introduced: %.12s\n", v->info.first_bad);
	else if (!strcmp(v->info.result, "skipped"))
		strbuf_addf(out, "\n#regzbot introduced: %.12s..%.12s\n", good_bound(v),
			    v->info.first_bad);
}

int bisect_report_text(struct store *s, int64_t id, struct strbuf *out, struct strbuf *subject)
{
	struct view v;
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	if (view_load(s, id, &v))
		return -1;
	if (!strcmp(v.info.status, "complete") && !strcmp(v.info.result, "found")) {
		rc = report_found(s, &v, out, subject);
	} else if (!strcmp(v.info.status, "complete") && !strcmp(v.info.result, "skipped")) {
		rc = report_skipped(s, &v, out, subject);
	} else if (!strcmp(v.info.status, "complete")) {
		const char *why = v.ns && v.st[0].reason ? v.st[0].reason : "";

		strbuf_addf(&sb, "kbench bisect @%lld found nothing to bisect in %s between %.12s "
			    "(%s) and %.12s (%s): %s.", (long long)id, v.info.tree, v.info.good,
			    v.info.good_ref, v.info.bad, v.info.bad_ref, why);
		para(sb.buf, "", out);
		if (subject)
			strbuf_addf(subject, "[kbench bisect] nothing to bisect between %.12s and "
				    "%.12s", v.info.good, v.info.bad);
	} else {
		strbuf_addf(&sb, "kbench bisect @%lld in %s is %s after %zu step%s; 'kbench bisect "
			    "--resume %lld' goes on.", (long long)id, v.info.tree, v.info.status,
			    v.ns, v.ns == 1 ? "" : "s", (long long)id);
		para(sb.buf, "", out);
		if (subject)
			strbuf_addf(subject, "[kbench bisect] @%lld %s", (long long)id,
				    v.info.status);
	}
	if (!rc) {
		strbuf_addf(out, "\nBisect log (kbench bisect --log %lld; git bisect replay takes "
			    "it):\n\n", (long long)id);
		log_text(&v, out);
		regzbot(&v, out);
	}
	strbuf_release(&sb);
	view_release(&v);
	return rc;
}
