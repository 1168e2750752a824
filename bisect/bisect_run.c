/* bisect_run: a bisection from its first step to its end, or from where a
 * stopped one was. Each step is one experiment of kernel arms under one
 * bisection id; its verdict comes from kbench's paired comparisons of
 * the arms; the walk (bisect/bisect.c) picks the next commit. */
#include "config.h"
#include "bisect/bisect_run.h"
#include "compare/sequential.h"
#include "compare/stats.h"
#include "compare/verdict.h"
#include "db/bisect.h"
#include "db/experiment.h"
#include "db/store.h"
#include "lib/child.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/uuid.h"
#include "lib/xalloc.h"
#include "experiment/ab_looks.h"
#include "bisect/bisect.h"
#include "bisect/bisect_settings.h"
#include "lib/argv.h"
#include "runner/conf.h"
#include "experiment/experiment.h"
#include "kernel/kbuild.h"
#include "kernel/vm.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long git may take to list or resolve commits. */
#define GIT_TIMEOUT_S 300

struct bcommit {
	char *id, *subject, *author;
	int parents;
};

/* A kernel built for a commit in this process. */
struct built {
	char *commit;
	struct kbuild_result res;
};

struct bisect_ctx {
	struct store *s;
	int64_t id;
	char *tree;
	/* commits[0] the good end, commits[1 + i] commit i of the walk. */
	struct bcommit *commits;
	size_t ncommits, commits_alloc;
	struct bisect_walk walk;
	/* The settings, as stored. */
	struct bisect_settings set;
	struct vm_config vc;
	/* The looks of a step (every `rounds` rounds up to max_rounds) and
	 * their bounds, so that looking does not raise the false-positive
	 * rate (compare/sequential.h). */
	struct seq_design design;
	char *config_text, *config_name;
	/* The row decided on (NULL until step 0 chose it) and its change
	 * from the good end to the bad one. */
	char *section, *row;
	double regression_pct;
	int next_step;
	int64_t started_ns;
	double spent_s;			/* by the finished steps before a resume */
	struct built *built;
	size_t nbuilt, built_alloc;
};

/* ---- git ---- */

/* Run git -C tree args...; its stdout into out. Return 0, or -1 with err
 * saying why (git's own last line when it failed). */
static int run_git(const char *tree, const char *const *args, struct strbuf *out, struct strbuf *err)
{
	const char *argv[16] = { "git", "-C", tree };
	struct child_program p = CHILD_PROGRAM_INIT;
	struct strbuf msg = STRBUF_INIT;
	struct child_io io = { .out = out, .err = &msg, .timeout_s = GIT_TIMEOUT_S };
	size_t n = 3;
	int end, rc = -1;

	for (size_t i = 0; args[i] && n < 15; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	p.argv = argv;
	p.in = CHILD_FD_NULL;
	end = child_program_run(&p, &io, err);
	if (end < 0)
		goto out;
	if (end != CHILD_EXITED || !WIFEXITED(p.w.status) || WEXITSTATUS(p.w.status)) {
		const char *last;

		strbuf_rtrim(&msg);
		last = strrchr(msg.buf, '\n');
		strbuf_addf(err, "git %s failed%s%s", args[0], msg.len ? ": " : "",
			    last ? last + 1 : msg.buf);
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&msg);
	return rc;
}

/* The commit id ref names in tree, into id. */
static int rev_parse(const char *tree, const char *ref, struct strbuf *id, struct strbuf *err)
{
	struct strbuf arg = STRBUF_INIT;
	const char *args[] = { "rev-parse", "--verify", "--quiet", "--end-of-options", NULL, NULL };
	int rc;

	strbuf_addf(&arg, "%s^{commit}", ref);
	args[4] = arg.buf;
	rc = run_git(tree, args, id, err);
	strbuf_rtrim(id);
	if (rc || !id->len) {
		strbuf_reset(err);
		strbuf_addf(err, "'%s' is not a commit of the tree %s", ref, tree);
		rc = -1;
	}
	strbuf_release(&arg);
	return rc;
}

/* Whether commit a is an ancestor of commit b: 1, 0, or -1 (err says). */
static int is_ancestor(const char *tree, const char *a, const char *b, struct strbuf *err)
{
	const char *argv[] = { "git", "-C", tree, "merge-base", "--is-ancestor", a, b, NULL };
	struct child_program p = CHILD_PROGRAM_INIT;
	struct strbuf out = STRBUF_INIT;
	struct child_io io = { .out = &out, .err = &out, .timeout_s = GIT_TIMEOUT_S };
	int end;

	p.argv = argv;
	p.in = CHILD_FD_NULL;
	end = child_program_run(&p, &io, err);
	strbuf_release(&out);
	if (end < 0)
		return -1;
	if (end == CHILD_EXITED && WIFEXITED(p.w.status) && WEXITSTATUS(p.w.status) <= 1)
		return WEXITSTATUS(p.w.status) == 0;
	strbuf_addstr(err, "git merge-base --is-ancestor failed");
	return -1;
}

/* The commits of (good, bad] on bad's first-parent line that descend from
 * good, oldest first, as "ID SUBJECT" lines, after the good end's. */
static int list_commits(struct bisect_ctx *b, const char *good, const char *bad,
			struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT, range = STRBUF_INIT;
	const char *log_args[] = { "log", "--first-parent", "--ancestry-path", "--reverse",
				   "--format=%H%x1f%P%x1f%an <%ae>%x1f%s", NULL, "--", NULL };
	const char *one[] = { "log", "-1", "--format=%H%x1f%P%x1f%an <%ae>%x1f%s", NULL, "--",
			      NULL };
	int rc = -1;

	strbuf_addf(&range, "%s..%s", good, bad);
	log_args[5] = range.buf;
	one[3] = good;
	if (run_git(b->tree, one, &out, err) || run_git(b->tree, log_args, &out, err))
		goto out;
	for (char *p = out.buf, *nl; *p; p = nl + 1) {
		char *f[4];
		int parents = 1;

		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		f[0] = p;
		for (int k = 1; k < 4; k++)
			f[k] = f[k - 1] ? strchr(f[k - 1] + (k > 1), '\x1f') : NULL;
		if (!f[3]) {
			strbuf_addf(err, "git log printed '%s', not a commit id, its parents, author "
				    "and subject", p);
			goto out;
		}
		for (int k = 1; k < 4; k++)
			*f[k]++ = '\0';
		for (const char *q = f[1]; *q; q++)
			parents += *q == ' ';
		ALLOC_GROW(b->commits, b->ncommits + 1, b->commits_alloc);
		b->commits[b->ncommits].id = xstrdup(f[0]);
		b->commits[b->ncommits].parents = parents;
		b->commits[b->ncommits].author = xstrdup(f[2]);
		b->commits[b->ncommits].subject = xstrdup(f[3]);
		b->ncommits++;
		if (!nl)
			break;
	}
	rc = 0;
out:
	strbuf_release(&out);
	strbuf_release(&range);
	return rc;
}

/* ---- the context ---- */

static void ctx_release(struct bisect_ctx *b)
{
	free(b->tree);
	for (size_t i = 0; i < b->ncommits; i++) {
		free(b->commits[i].id);
		free(b->commits[i].subject);
		free(b->commits[i].author);
	}
	free(b->commits);
	bisect_walk_release(&b->walk);
	bisect_settings_release(&b->set);
	free(b->config_text);
	free(b->config_name);
	free(b->section);
	free(b->row);
	for (size_t i = 0; i < b->nbuilt; i++) {
		free(b->built[i].commit);
		kbuild_result_release(&b->built[i].res);
	}
	free(b->built);
	memset(b, 0, sizeof(*b));
}

/* Commit idx of the walk (-1: the good end). */
static const struct bcommit *commit_at(const struct bisect_ctx *b, long idx)
{
	return &b->commits[idx + 1];
}

static void short_id(const char *id, char *buf, size_t len)
{
	snprintf(buf, len, "%.12s", id);
}

static double elapsed_s(const struct bisect_ctx *b)
{
	return b->spent_s + (double)(clock_ns(CLOCK_MONOTONIC) - b->started_ns) / 1e9;
}

static void elapsed_text(const struct bisect_ctx *b, struct strbuf *sb)
{
	long s = (long)elapsed_s(b);

	if (s >= 3600)
		strbuf_addf(sb, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		strbuf_addf(sb, "%ld:%02ld", s / 60, s % 60);
}

/* The guests' config of b from its settings, over base (NULL: the
 * defaults of kernel/vm.h): what the settings hold replaces it. */
static void settings_vm(struct bisect_ctx *b, const struct vm_config *base)
{
	const struct vm_config init = VM_CONFIG_INIT;

	b->vc = base ? *base : init;
	b->vc.kernel = NULL;
	b->vc.vcpus = b->set.vcpus;
	b->vc.mem_mib = b->set.mem_mib;
	b->vc.accel = b->set.accel;
	b->vc.append = b->set.append;
	b->vc.icount_shift = b->set.icount_shift;
	b->vc.boot_timeout_s = b->set.boot_timeout_s;
}

/* The settings of a bisection started with o. */
static void settings_from_options(struct bisect_ctx *b, const struct bisect_options *o)
{
	struct bisect_settings *set = &b->set;

	bisect_settings_init(set);
	for (size_t i = 0; i < o->nconfigs; i++)
		argv_list_push(&set->configs, o->configs[i]);
	set->rounds = o->rounds;
	set->max_rounds = o->max_rounds;
	set->threshold_pct = o->threshold_pct;
	set->row = o->row ? xstrdup(o->row) : NULL;
	for (size_t i = 0; i < o->noverrides; i++)
		argv_list_push(&set->overrides, o->overrides[i]);
	set->only = o->only ? xstrdup(o->only) : NULL;
	set->kconfig = o->kconfig ? xstrdup(o->kconfig) : NULL;
	for (size_t i = 0; i < o->nfragments; i++)
		argv_list_push(&set->fragments, o->fragments[i]);
	set->guest_fragment = o->guest_fragment ? xstrdup(o->guest_fragment) : NULL;
	set->cache_dir = o->cache_dir ? xstrdup(o->cache_dir) : NULL;
	set->jobs = o->jobs;
	set->build_timeout_s = o->build_timeout_s;
	set->vcpus = o->vm->vcpus;
	set->mem_mib = o->vm->mem_mib;
	free(set->accel);
	set->accel = xstrdup(o->vm->accel);
	set->append = o->vm->append ? xstrdup(o->vm->append) : NULL;
	set->icount_shift = o->vm->icount_shift;
	set->boot_timeout_s = o->vm->boot_timeout_s;
	settings_vm(b, o->vm);
}

/* ---- building ---- */

static volatile sig_atomic_t build_stop;

static void on_build_signal(int sig)
{
	build_stop = sig;
}

/* The kernel of commit id, built (or found in the builder's cache) once
 * in this process, into *k. Return 0; -1 with err saying why the build
 * failed; or 128+N when signal N stopped it (nothing is stored). */
static int build_commit(struct bisect_ctx *b, const char *id, const struct kbuild_result **k,
		 struct strbuf *err)
{
	struct kbuild_request req = {
		.tree = b->tree,
		.ref = id,
		.kconfig = b->set.kconfig,
		.cache_dir = b->set.cache_dir,
		.jobs = b->set.jobs,
		.timeout_s = b->set.build_timeout_s,
		.progress = 1,
		.stop = &build_stop,
	};
	struct sigaction sa = { .sa_handler = on_build_signal }, old_int, old_term, old_hup;
	const char **fragments = xcalloc(b->set.fragments.n + 1, sizeof(*fragments));
	struct built *n;
	int rc;

	for (size_t i = 0; i < b->nbuilt; i++)
		if (!strcmp(b->built[i].commit, id)) {
			*k = &b->built[i].res;
			free(fragments);
			return 0;
		}
	/* The guest fragment first, as kbench build merges it. */
	if (b->set.guest_fragment)
		fragments[req.nfragments++] = b->set.guest_fragment;
	for (size_t i = 0; i < b->set.fragments.n; i++)
		fragments[req.nfragments++] = b->set.fragments.v[i];
	req.fragments = fragments;
	ALLOC_GROW(b->built, b->nbuilt + 1, b->built_alloc);
	n = &b->built[b->nbuilt];
	memset(n, 0, sizeof(*n));
	build_stop = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	rc = kbuild_build(&req, &n->res, err);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	free(fragments);
	if (!rc && vm_check_kernel(n->res.image, err))
		rc = -1;
	if (rc) {
		kbuild_result_release(&n->res);
		return rc;
	}
	n->commit = xstrdup(id);
	b->nbuilt++;
	*k = &n->res;
	return 0;
}

/* ---- reading a step's verdicts ---- */

/* What a look at an experiment found. */
struct step_looks {
	struct bisect_ctx *b;
	int step;
	size_t good, test, bad;		/* arm indexes (test: the bad end in step 0) */
	/* Step 0: the row chosen, and the largest change seen when none
	 * is a regression (for the message). */
	char *section, *row;
	double pct, p;
	int significant, found;
	char *worst;			/* "hackbench Amean 1 -3.2% (within noise)" */
	double worst_pct;
	/* Later steps. */
	struct bisect_cmp vs_good, vs_bad;
	/* The change from the tested commit on to the bad end (%, + better):
	 * vs_bad reversed, so that every change reads from the older commit
	 * to the newer one, as from the good end to the tested one. */
	double to_bad_pct;
	double p_good, p_bad;
	int have_good, have_bad;
	enum bisect_verdict verdict;
	char *missing;			/* a row asked for that the runs lack */
	int decided_at;			/* the round whose look decided; 0: none */
};

static void look_release(struct step_looks *l)
{
	free(l->section);
	free(l->row);
	free(l->worst);
	free(l->missing);
	l->section = l->row = l->worst = l->missing = NULL;
}

/* Split "SECTION/ROW" at its first '/' (a row may hold one: pft's
 * faults/sec-1). */
static int row_matches(const char *given, const char *section, const char *row)
{
	size_t n = strlen(section);

	return !strncmp(given, section, n) && given[n] == '/' && !strcmp(given + n + 1, row);
}

/* Whether v is a change at this look: the paired test's t against the
 * design's bound for the rounds it paired; a test the design has no look
 * for (an unpaired one, a round missing) as compare decides it. */
static int significant(const struct bisect_ctx *b, const struct row_verdict *v)
{
	int k;

	if (!v->paired || isnan(v->t) || isnan(v->df))
		return v->significant;
	k = seq_look_at(&b->design, (int)v->df + 1);
	return k < 0 ? v->significant : fabs(v->t) >= b->design.bound[k];
}

static int confirm_row(const struct row_verdict *v, void *arg)
{
	struct step_looks *l = arg;
	struct bisect_cmp c = { .significant = significant(l->b, v), .pct = v->pct,
				.diff = v->new_mean - v->base_mean };

	if (l->b->set.row && !row_matches(l->b->set.row, v->section, v->row))
		return 0;
	if (!l->worst || fabs(v->pct) > fabs(l->worst_pct)) {
		struct strbuf w = STRBUF_INIT;

		strbuf_addf(&w, "%s %s %s %+.1f%% (%s)", v->section, v->stat, v->row, v->pct,
			    v->verdict);
		free(l->worst);
		l->worst = strbuf_detach(&w);
		l->worst_pct = v->pct;
	}
	if (l->b->set.row || (bisect_is_regression(&c, l->b->set.threshold_pct) &&
				(!l->found || v->pct < l->pct))) {
		free(l->section);
		free(l->row);
		l->section = xstrdup(v->section);
		l->row = xstrdup(v->row);
		l->pct = v->pct;
		l->p = v->p;
		l->significant = c.significant;
		l->found = bisect_is_regression(&c, l->b->set.threshold_pct);
	}
	return 0;
}

struct one_row {
	const struct bisect_ctx *b;
	const char *section, *row;
	struct bisect_cmp *cmp;
	double *p;
	int *have;
	double *reversed;		/* base against new; NULL: not wanted */
};

static int one_row(const struct row_verdict *v, void *arg)
{
	struct one_row *o = arg;

	if (strcmp(v->section, o->section) || strcmp(v->row, o->row))
		return 0;
	o->cmp->significant = significant(o->b, v);
	o->cmp->pct = v->pct;
	o->cmp->diff = v->new_mean - v->base_mean;
	*o->p = v->p;
	*o->have = 1;
	if (o->reversed)
		*o->reversed = v->higher_better ? stats_pdiff(v->base_mean, v->new_mean) :
			       stats_pndiff(v->base_mean, v->new_mean);
	return 1;
}

/* Look at experiment e's arms as they stand: step 0 confirms the
 * regression (l->found), a later step classifies its commit (l->verdict).
 * Return 1 when decided, 0 when not, -1 after an error. */
static int look_at(struct experiment *e, struct step_looks *l)
{
	struct bisect_ctx *b = l->b;
	int64_t g = e->arms[l->good].run_id, t = e->arms[l->test].run_id;

	look_release(l);
	l->found = 0;
	l->verdict = BISECT_VERDICT_CANNOT_TELL;
	if (!g || !t)
		return 0;
	if (l->step == 0) {
		if (compare_each_row_verdict(b->s, g, t, confirm_row, l) < 0)
			return -1;
		if (b->set.row && !l->section) {
			l->missing = xstrdup(b->set.row);
			return 0;
		}
		return l->found;
	} else {
		struct one_row og = { b, b->section, b->row, &l->vs_good, &l->p_good,
				      &l->have_good, NULL };
		struct one_row ob = { b, b->section, b->row, &l->vs_bad, &l->p_bad, &l->have_bad,
				      &l->to_bad_pct };
		int64_t bad = e->arms[l->bad].run_id;

		l->have_good = l->have_bad = 0;
		l->p_good = l->p_bad = NAN;
		if (!bad)
			return 0;
		if (compare_each_row_verdict(b->s, g, t, one_row, &og) < 0 ||
		    compare_each_row_verdict(b->s, bad, t, one_row, &ob) < 0)
			return -1;
		if (!l->have_good || !l->have_bad)
			return 0;
		l->verdict = bisect_classify(&l->vs_good, &l->vs_bad,
					     bisect_min_pct(b->set.threshold_pct, b->regression_pct));
		return l->verdict != BISECT_VERDICT_CANNOT_TELL;
	}
}

/* What a look decided, for its notice. */
static void look_text(const struct step_looks *l, struct strbuf *sb)
{
	if (l->step == 0 && l->found)
		strbuf_addf(sb, "a regression, %s %s %+.1f%%", l->section, l->row, l->pct);
	else if (l->step == 0)
		strbuf_addstr(sb, "no regression yet");
	else if (l->verdict != BISECT_VERDICT_CANNOT_TELL)
		strbuf_addf(sb, "%s (%+.1f%% from the good end to it, %+.1f%% from it to the bad "
			    "end)", bisect_verdict_name(l->verdict), l->vs_good.pct, l->to_bad_pct);
	else if (l->have_good && l->have_bad)
		strbuf_addf(sb, "cannot tell yet (%+.1f%% from the good end to it, %+.1f%% from it "
			    "to the bad end)", l->vs_good.pct, l->to_bad_pct);
	else
		strbuf_addstr(sb, "cannot tell yet");
}

/* The experiment's hook: a look every b->set.rounds rounds, each said: one
 * that decides ends the step's experiment there, one that does not lets
 * it go on to the next look. */
static int round_done(struct experiment *e, struct store *s, int round, void *arg)
{
	struct step_looks *l = arg;
	struct strbuf sb = STRBUF_INIT;
	int rc;

	(void)s;
	if (round % l->b->set.rounds)
		return 0;
	rc = look_at(e, l);
	if (rc < 0)
		return rc;
	look_text(l, &sb);
	if (rc > 0) {
		l->decided_at = round;
		notice("bisect @%lld step %d: the look after round %d decided: %s", (long long)l->b->id,
		       l->step, round, sb.buf);
	} else
		notice("bisect @%lld step %d: the look after round %d: %s; going on to round %d "
		       "(at most %d)", (long long)l->b->id, l->step, round, sb.buf,
		       round + l->b->set.rounds < l->b->set.max_rounds ? round + l->b->set.rounds :
		       l->b->set.max_rounds, l->b->set.max_rounds);
	strbuf_release(&sb);
	return rc;
}

/* ---- running a step ---- */

/* An arm's name: the commit's short id, longer while two arms share it. */
static void arm_names(const char *const *ids, size_t n, char names[][41])
{
	for (size_t len = 8; len <= 40; len += 4) {
		int clash = 0;

		for (size_t i = 0; i < n; i++)
			snprintf(names[i], 41, "%.*s", (int)len, ids[i]);
		for (size_t i = 0; i < n && !clash; i++)
			for (size_t j = 0; j < i && !clash; j++)
				clash = !strcmp(names[i], names[j]);
		if (!clash)
			return;
	}
}

/* Run the experiment of step `step` over the kernels k[0..n-1] (good end,
 * [tested commit,] bad end), its arms named after the commits, looking at
 * it as l says. Return the experiment's status (0, 1, 128+N), or -1 after
 * an error before it ran; *exp_id its id (0: none), accel how its guests
 * ran. */
static int run_experiment(struct bisect_ctx *b, int step, const struct kbuild_result *const *k,
			  size_t n, struct step_looks *l, int64_t *exp_id, struct strbuf *accel)
{
	struct strbuf arms = STRBUF_INIT, name = STRBUF_INIT;
	const char *ids[3];
	char names[3][41];
	struct experiment_options o = {
		.config_text = b->config_text,
		.config_origin = b->config_name,
		.rounds = b->set.max_rounds,
		.extra_name = "kbench bisect",
		.vm = &b->vc,
		.overrides = b->set.overrides.v,
		.noverrides = b->set.overrides.n,
		.only = b->set.only,
	};
	struct experiment e;
	int rc = -1;

	memset(&e, 0, sizeof(e));
	*exp_id = 0;
	for (size_t i = 0; i < n; i++)
		ids[i] = k[i]->commit;
	arm_names(ids, n, names);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&arms, "[arm:%s]\nkernel = %s\ndescription = %s %s\n", names[i],
			    k[i]->image, k[i]->commit, k[i]->subject);
	strbuf_addf(&name, "bisect-%lld.%d", (long long)b->id, step);
	o.extra = arms.buf;
	o.name = name.buf;
	if (experiment_load(&e, &o))
		goto out;
	e.round_done = round_done;
	e.round_done_arg = l;
	rc = experiment_run(&e, b->s);
	*exp_id = e.id;
	if (e.narms && e.arms[0].vm)
		strbuf_addstr(accel, e.arms[0].vm->accel);
	/* What auto found holds for the steps that follow: KVM is not
	 * probed again where it failed. */
	if (!strcmp(b->vc.accel, "auto") && (!strcmp(accel->buf, "kvm") ||
					     !strcmp(accel->buf, "tcg"))) {
		free(b->set.accel);
		b->set.accel = xstrdup(accel->buf);
		b->vc.accel = b->set.accel;
	}
	for (size_t i = 0; i < e.narms && i < n; i++)
		if (kbuild_store_facts(b->s, e.arms[i].run_id, k[i]) && rc == 0)
			rc = 1;
	/* The last look, at every round run. */
	if (rc == 0 && look_at(&e, l) < 0) {
		rc = 1;
	} else if (rc == 0 && !l->decided_at) {
		struct strbuf sb = STRBUF_INIT;

		look_text(l, &sb);
		notice("bisect @%lld step %d: the last look, after round %d: %s", (long long)b->id,
		       step, e.rounds, sb.buf);
		strbuf_release(&sb);
	}
out:
	experiment_release(&e);
	strbuf_release(&arms);
	strbuf_release(&name);
	return rc;
}

static void now_iso(char *buf, size_t len)
{
	clock_iso_utc(buf, len, time(NULL));
}

/* Record a step's end. */
static int finish_step(struct bisect_ctx *b, struct bisect_step *st, const char *verdict,
		       const char *reason)
{
	char at[32];

	now_iso(at, sizeof(at));
	st->verdict = verdict;
	st->reason = reason;
	st->finished_at = at;
	return store_finish_bisect_step(b->s, st);
}

/* Step 0: the good end against the bad one. Return 0 when the regression
 * is confirmed (b->section, b->row set), 1 when there is none (said, and
 * the bisection closed), 128+N, or -1 after an error. */
static int confirm(struct bisect_ctx *b)
{
	const struct bcommit *good = commit_at(b, -1), *bad = commit_at(b, (long)b->walk.n - 1);
	const struct kbuild_result *k[2];
	struct step_looks l = { .b = b, .step = 0, .good = 0, .test = 1, .bad = 1 };
	struct bisect_step st = { .bisect_id = b->id, .step = 0, .commit = bad->id,
				  .good = good->id, .bad = bad->id };
	struct strbuf err = STRBUF_INIT, accel = STRBUF_INIT, reason = STRBUF_INIT, el = STRBUF_INIT;
	char at_[32], g[16], bb[16];
	int64_t exp = 0;
	int rc = -1;

	now_iso(at_, sizeof(at_));
	st.started_at = at_;
	short_id(good->id, g, sizeof(g));
	short_id(bad->id, bb, sizeof(bb));
	elapsed_text(b, &el);
	notice("bisect @%lld step 0: the good end %s against the bad end %s (a look every %d "
	       "rounds, up to %d) [%s elapsed]", (long long)b->id, g, bb, b->set.rounds, b->set.max_rounds,
	       el.buf);
	if (store_begin_bisect_step(b->s, &st))
		goto out;
	if ((rc = build_commit(b, good->id, &k[0], &err))) {
		if (rc < 128)
			error("the good end %s cannot be built: %s", g, err.buf);
		goto out;
	}
	if ((rc = build_commit(b, bad->id, &k[1], &err))) {
		if (rc < 128)
			error("the bad end %s cannot be built: %s", bb, err.buf);
		goto out;
	}
	rc = run_experiment(b, 0, k, 2, &l, &exp, &accel);
	if (exp)
		store_set_bisect_step_experiment(b->s, b->id, 0, exp);
	if (rc) {
		if (rc > 0 && rc < 128)
			error("bisect @%lld step 0: its experiment @%lld failed", (long long)b->id,
			      (long long)exp);
		rc = rc < 0 ? -1 : rc;
		goto out;
	}
	st.experiment_id = exp;
	st.rounds = 0;
	st.accel = accel.len ? accel.buf : NULL;
	st.vs_good_pct = l.section ? l.pct : NAN;
	st.vs_good_p = l.section ? l.p : NAN;
	st.vs_bad_pct = st.vs_bad_p = NAN;
	{
		struct experiment_info x;

		if (!store_get_experiment(b->s, exp, &x)) {
			st.rounds = x.rounds;
			experiment_info_release(&x);
		}
	}
	if (l.missing) {
		error("the runs have no row '%s' (--row SECTION/ROW, as kbench compare names "
		      "them: hackbench/4)", l.missing);
		finish_step(b, &st, "no-regression", "no such row");
		rc = -1;
		goto out;
	}
	if (!l.found) {
		if (b->set.row && l.section)
			strbuf_addf(&reason, "%s %s: %+.1f%% %s, not a regression of %g%% or more",
				    l.section, l.row, l.pct, l.significant ? "significant" :
				    "not significant", b->set.threshold_pct);
		else
			strbuf_addf(&reason, "no row is worse at the bad end by %g%% or more, "
				    "significantly (the largest change: %s)", b->set.threshold_pct,
				    l.worst ? l.worst : "none");
		rc = finish_step(b, &st, "no-regression", reason.buf) ? -1 : 1;
		if (rc < 0)
			goto out;
		error("nothing to bisect: %s after %d rounds", reason.buf, st.rounds);
		goto out;
	}
	strbuf_addf(&reason, "%s %s: %+.1f%% from the good end to the bad end (p %.2g)", l.section,
		    l.row, l.pct, l.p);
	free(b->section);
	free(b->row);
	b->section = xstrdup(l.section);
	b->row = xstrdup(l.row);
	b->regression_pct = l.pct;
	if (finish_step(b, &st, "regression", reason.buf) ||
	    store_set_bisect_row(b->s, b->id, b->section, b->row, b->regression_pct))
		goto out;
	notice("bisect @%lld step 0: %s after %d rounds: bisecting it", (long long)b->id,
	       reason.buf, st.rounds);
	rc = 0;
out:
	look_release(&l);
	strbuf_release(&err);
	strbuf_release(&accel);
	strbuf_release(&reason);
	strbuf_release(&el);
	return rc;
}

/* A later step: commit idx beside the ends of the open range. Return 0
 * (the walk is marked), 128+N, or -1 after an error. */
static int run_step(struct bisect_ctx *b, long idx)
{
	long gi;
	size_t bi;
	const struct bcommit *c = commit_at(b, idx), *good, *bad;
	const struct kbuild_result *k[3];
	struct step_looks l = { .b = b, .good = 0, .test = 1, .bad = 2 };
	struct bisect_step st = { .bisect_id = b->id, .commit = c->id };
	struct strbuf err = STRBUF_INIT, accel = STRBUF_INIT, reason = STRBUF_INIT, el = STRBUF_INIT;
	char at_[32], id[16];
	int64_t exp = 0;
	int rc = -1, left;
	const char *tail = "";
	enum bisect_mark mark = BISECT_SKIP;
	const char *verdict = "skip";

	bisect_walk_bounds(&b->walk, &gi, &bi);
	good = commit_at(b, gi);
	bad = commit_at(b, (long)bi);
	l.step = st.step = b->next_step;
	st.good = good->id;
	st.bad = bad->id;
	now_iso(at_, sizeof(at_));
	st.started_at = at_;
	short_id(c->id, id, sizeof(id));
	left = bisect_walk_steps_left(&b->walk);
	elapsed_text(b, &el);
	notice("bisect @%lld step %d: testing %s %s (%zu commit%s left to test, roughly %d "
	       "step%s; a look every %d rounds, up to %d) [%s elapsed]", (long long)b->id, st.step,
	       id, c->subject, bisect_walk_untested(&b->walk),
	       bisect_walk_untested(&b->walk) == 1 ? "" : "s", left, left == 1 ? "" : "s",
	       b->set.rounds, b->set.max_rounds, el.buf);
	if (store_begin_bisect_step(b->s, &st))
		goto out;
	if ((rc = build_commit(b, good->id, &k[0], &err)) || (rc = build_commit(b, bad->id, &k[2], &err))) {
		if (rc < 128)
			error("an end of the range cannot be built any more: %s", err.buf);
		goto out;
	}
	if ((rc = build_commit(b, c->id, &k[1], &err)) >= 128) {
		goto out;
	} else if (rc) {
		rc = -1;
		/* The reason is the builder's first line; the end of the log
		 * after it is said once, with the warning. */
		strbuf_addf(&reason, "it cannot be built: %.*s", (int)strcspn(err.buf, "\n"),
			    err.buf);
		tail = err.buf + strcspn(err.buf, "\n");
	} else {
		rc = run_experiment(b, st.step, k, 3, &l, &exp, &accel);
		if (exp)
			store_set_bisect_step_experiment(b->s, b->id, st.step, exp);
		if (rc < 0 || rc >= 128)
			goto out;
		st.experiment_id = exp;
		st.accel = accel.len ? accel.buf : NULL;
		if (exp) {
			struct experiment_info x;

			if (!store_get_experiment(b->s, exp, &x)) {
				st.rounds = x.rounds;
				experiment_info_release(&x);
			}
		}
		if (rc) {
			strbuf_addf(&reason, "its experiment @%lld failed (a guest that did not "
				    "boot, or was lost: kbench experiments %lld)", (long long)exp,
				    (long long)exp);
		} else {
			st.vs_good_pct = l.have_good ? l.vs_good.pct : NAN;
			st.vs_good_p = l.have_good ? l.p_good : NAN;
			st.vs_bad_pct = l.have_bad ? l.vs_bad.pct : NAN;
			st.vs_bad_p = l.have_bad ? l.p_bad : NAN;
			if (!l.have_good || !l.have_bad)
				strbuf_addf(&reason, "the runs have no row %s %s", b->section,
					    b->row);
			else
				strbuf_addf(&reason, "%s %s: %+.1f%% from the good end to it (p %.2g), "
					    "%+.1f%% from it to the bad end (p %.2g)", b->section,
					    b->row, l.vs_good.pct, l.p_good, l.to_bad_pct, l.p_bad);
			if (l.verdict == BISECT_VERDICT_GOOD) {
				mark = BISECT_GOOD;
				verdict = "good";
			} else if (l.verdict == BISECT_VERDICT_BAD) {
				mark = BISECT_BAD;
				verdict = "bad";
			} else {
				strbuf_addf(&reason, "; cannot tell after %d rounds", st.rounds);
			}
		}
	}
	if (finish_step(b, &st, verdict, reason.buf))
		goto out;
	if (bisect_walk_mark(&b->walk, (size_t)idx, mark)) {
		error("BUG: step %d marks %s %s against what is known", st.step, id, verdict);
		goto out;
	}
	b->next_step++;
	if (mark == BISECT_SKIP)
		warning("bisect @%lld step %d: skipping %s: %s%s", (long long)b->id, st.step, id,
			reason.buf, tail);
	else
		notice("bisect @%lld step %d: %s is %s: %s, %d rounds", (long long)b->id, st.step,
		       id, verdict, reason.buf, st.rounds);
	rc = 0;
out:
	look_release(&l);
	strbuf_release(&err);
	strbuf_release(&accel);
	strbuf_release(&reason);
	strbuf_release(&el);
	return rc;
}

/* Run the steps left and close the bisection. */
static int run_steps(struct bisect_ctx *b)
{
	char at_[32], id[16];
	long next;
	long gi;
	size_t bi;
	int rc = 0, found;
	struct strbuf el = STRBUF_INIT;

	if (!b->started_ns)
		b->started_ns = clock_ns(CLOCK_MONOTONIC);
	if (seq_design_init(&b->design, b->set.rounds, b->set.max_rounds, b->set.rounds, BISECT_ALPHA, &el)) {
		error("bisect @%lld: %s", (long long)b->id, el.buf);
		rc = -1;
		goto stopped;
	}
	if (!b->section) {
		rc = confirm(b);
		if (rc == 1) {
			now_iso(at_, sizeof(at_));
			if (store_finish_bisect(b->s, b->id, "complete", "no-regression", NULL, at_))
				rc = -1;
			rc = rc < 0 ? -1 : BISECT_DONE_NOT_FOUND;
			goto out;
		}
		if (rc)
			goto stopped;
		b->next_step = 1;
	}
	while ((next = bisect_walk_next(&b->walk)) >= 0)
		if ((rc = run_step(b, next)))
			goto stopped;
	found = bisect_walk_result(&b->walk);
	bisect_walk_bounds(&b->walk, &gi, &bi);
	short_id(commit_at(b, (long)bi)->id, id, sizeof(id));
	now_iso(at_, sizeof(at_));
	if (store_finish_bisect(b->s, b->id, "complete", found ? "found" : "skipped",
				commit_at(b, (long)bi)->id, at_)) {
		rc = -1;
		goto out;
	}
	elapsed_text(b, &el);
	if (found)
		notice("bisect @%lld: %s is the first bad commit [%s elapsed]", (long long)b->id,
		       id, el.buf);
	else
		notice("bisect @%lld: only skipped commits left to test: the first bad commit is "
		       "%s or one of the %ld skipped before it [%s elapsed]", (long long)b->id,
		       id, (long)bi - gi - 1, el.buf);
	rc = found ? BISECT_DONE_FOUND : BISECT_DONE_NOT_FOUND;
	goto out;
stopped:
	now_iso(at_, sizeof(at_));
	store_finish_bisect(b->s, b->id, rc >= 128 ? "interrupted" : "failed", NULL, NULL, at_);
	if (rc >= 128)
		error("bisect @%lld interrupted by signal %d; 'kbench bisect --resume %lld' goes "
		      "on from its last finished step", (long long)b->id, rc - 128,
		      (long long)b->id);
	else
		error("bisect @%lld stopped; 'kbench bisect --resume %lld' tries again from its "
		      "last finished step", (long long)b->id, (long long)b->id);
	if (rc < 128)
		rc = BISECT_DONE_NOT_FOUND;
out:
	strbuf_release(&el);
	return rc;
}

/* ---- starting and resuming ---- */

/* What a bisection would do: its commits, its first steps. */
static void dry_run(const struct bisect_ctx *b)
{
	char g[16], bb[16], id[16];
	long next = bisect_walk_next(&b->walk);

	short_id(commit_at(b, -1)->id, g, sizeof(g));
	short_id(commit_at(b, (long)b->walk.n - 1)->id, bb, sizeof(bb));
	printf("%zu commit%s after %s (good) up to %s (bad), on its first-parent line:\n",
	       b->walk.n, b->walk.n == 1 ? "" : "s", g, bb);
	for (size_t i = 0; i < b->walk.n; i++) {
		const struct bcommit *c = commit_at(b, (long)i);

		short_id(c->id, id, sizeof(id));
		printf("  %s %s%s%s\n", id, c->subject, c->parents > 1 ? " (a merge)" : "",
		       i + 1 == b->walk.n ? " (the bad end)" : "");
	}
	printf("Step 0 runs the good end against the bad end, %d to %d rounds", b->set.rounds,
	       b->set.max_rounds);
	if (next >= 0) {
		short_id(commit_at(b, next)->id, id, sizeof(id));
		printf("; step 1 tests %s beside them", id);
	}
	printf("; roughly %d step%s after step 0.\n", bisect_walk_steps_left(&b->walk),
	       bisect_walk_steps_left(&b->walk) == 1 ? "" : "s");
}

/* Read the configs as the steps will (their text) and check that they
 * load as an experiment of kernel arms, before anything is built. */
static int load_configs(struct bisect_ctx *b, const struct bisect_options *o)
{
	struct config c;
	struct experiment e;
	struct experiment_options eo = {
		.extra = "[arm:good]\nkernel = good\n[arm:bad]\nkernel = bad\n",
		.extra_name = "kbench bisect",
		.rounds = b->set.max_rounds,
		.vm = &b->vc,
		.images_later = 1,
		.overrides = b->set.overrides.v,
		.noverrides = b->set.overrides.n,
		.only = b->set.only,
	};
	struct strbuf rows = STRBUF_INIT;
	int rc = -1;

	config_init(&c);
	memset(&e, 0, sizeof(e));
	for (size_t i = 0; i < o->nconfigs; i++)
		if (config_load(&c, o->configs[i]))
			goto out;
	for (size_t i = 0; i < c.n; i++)
		if (!strncmp(c.sections[i].name, "arm:", 4) ||
		    !strcmp(c.sections[i].name, "experiment")) {
			error("%s:%d: [%s]: kbench bisect makes the arms of its experiments (the "
			      "commits); give it a config of workloads only",
			      c.sections[i].file, c.sections[i].line, c.sections[i].name);
			goto out;
		}
	b->config_text = xstrdup(c.text.buf);
	b->config_name = xstrdup(c.name.buf);
	eo.config_text = b->config_text;
	eo.config_origin = b->config_name;
	if (experiment_load(&e, &eo))
		goto out;
	if (b->set.row) {
		const char *slash = strchr(b->set.row, '/');
		int have = 0;

		for (size_t i = 0; slash && i < c.n; i++)
			have |= strlen(c.sections[i].name) == (size_t)(slash - b->set.row) &&
				!strncmp(c.sections[i].name, b->set.row,
					 (size_t)(slash - b->set.row));
		if (!slash || slash == b->set.row || !slash[1]) {
			error("--row '%s': expected SECTION/ROW, as kbench compare names them "
			      "(hackbench/4)", b->set.row);
			goto out;
		}
		if (!have) {
			error("--row '%s': the config has no section '%.*s'", b->set.row,
			      (int)(slash - b->set.row), b->set.row);
			goto out;
		}
		if (!ab_looks_has_row(&e, b->set.row, &rows)) {
			error("--row '%s': the plan has no such row; its rows are %s", b->set.row,
			      rows.buf);
			goto out;
		}
	}
	rc = 0;
out:
	strbuf_release(&rows);
	experiment_release(&e);
	config_release(&c);
	return rc;
}

int bisect_start(struct store *s, const struct bisect_options *o, int64_t *id)
{
	struct bisect_ctx b = { .s = s };
	struct strbuf err = STRBUF_INIT, good = STRBUF_INIT, bad = STRBUF_INIT;
	struct strbuf settings = STRBUF_INIT;
	struct bisect_commit *cs = NULL;
	struct bisect_record r = { .good_ref = o->good, .bad_ref = o->bad, .command = o->command };
	char uuid[37], started[32], path[PATH_MAX], g[16], bb[16];
	int rc = -1, anc;

	*id = 0;
	settings_from_options(&b, o);
	b.regression_pct = NAN;
	if (!realpath(o->tree, path)) {
		error("--tree '%s': %s", o->tree, strerror(errno));
		goto out;
	}
	b.tree = xstrdup(path);
	{
		const char *args[] = { "rev-parse", "--git-dir", NULL };

		if (run_git(b.tree, args, &good, &err)) {
			error("--tree '%s' is not a git tree (%s)", o->tree, err.buf);
			goto out;
		}
		strbuf_reset(&good);
	}
	if (load_configs(&b, o)) {
		rc = -2;
		goto out;
	}
	if (rev_parse(b.tree, o->good, &good, &err) || rev_parse(b.tree, o->bad, &bad, &err)) {
		error("%s", err.buf);
		goto out;
	}
	short_id(good.buf, g, sizeof(g));
	short_id(bad.buf, bb, sizeof(bb));
	if (!strcmp(good.buf, bad.buf)) {
		error("--good and --bad are the same commit, %s: nothing to bisect", g);
		goto out;
	}
	anc = is_ancestor(b.tree, good.buf, bad.buf, &err);
	if (anc <= 0) {
		if (anc < 0)
			error("%s", err.buf);
		else
			error("the good commit %s (%s) is not an ancestor of the bad one %s (%s): "
			      "kbench bisect looks for a regression between a commit and a later "
			      "one", g, o->good, bb, o->bad);
		goto out;
	}
	if (list_commits(&b, good.buf, bad.buf, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (b.ncommits < 2 || strcmp(b.commits[b.ncommits - 1].id, bad.buf)) {
		error("git lists no first-parent line from %s to %s", g, bb);
		goto out;
	}
	bisect_walk_init(&b.walk, b.ncommits - 1);
	if (o->dry_run) {
		dry_run(&b);
		rc = 0;
		goto out;
	}
	cs = xcalloc(b.ncommits, sizeof(*cs));
	for (size_t i = 0; i < b.ncommits; i++)
		cs[i] = (struct bisect_commit){ .idx = (long)i - 1, .id = b.commits[i].id,
						.subject = b.commits[i].subject,
						.author = b.commits[i].author,
						.parents = b.commits[i].parents };
	bisect_settings_write(&b.set, &settings);
	uuid_random(uuid);
	clock_iso_utc(started, sizeof(started), time(NULL));
	r.uuid = uuid;
	r.tree = b.tree;
	r.good = good.buf;
	r.bad = bad.buf;
	r.config_name = b.config_name;
	r.config_text = b.config_text;
	r.settings = settings.buf;
	r.started_at = started;
	r.commits = cs;
	r.ncommits = b.ncommits;
	if (store_begin_bisect(s, &r, &b.id))
		goto out;
	*id = b.id;
	notice("bisect @%lld (%s): %zu commit%s after %s (good) up to %s (bad) on its first-parent "
	       "line, roughly %d step%s after step 0", (long long)b.id, uuid, b.walk.n,
	       b.walk.n == 1 ? "" : "s", g, bb, bisect_walk_steps_left(&b.walk),
	       bisect_walk_steps_left(&b.walk) == 1 ? "" : "s");
	rc = run_steps(&b);
out:
	free(cs);
	ctx_release(&b);
	strbuf_release(&err);
	strbuf_release(&good);
	strbuf_release(&bad);
	strbuf_release(&settings);
	return rc;
}

static int add_commit(const struct bisect_commit *c, void *arg)
{
	struct bisect_ctx *b = arg;

	if (c->idx != (long)b->ncommits - 1)
		return error("bisection @%lld: its commits are not stored in order",
			     (long long)b->id);
	ALLOC_GROW(b->commits, b->ncommits + 1, b->commits_alloc);
	b->commits[b->ncommits].id = xstrdup(c->id);
	b->commits[b->ncommits].subject = xstrdup(c->subject ? c->subject : "");
	b->commits[b->ncommits].author = xstrdup(c->author ? c->author : "");
	b->commits[b->ncommits].parents = c->parents;
	b->ncommits++;
	return 0;
}

struct replay {
	struct bisect_ctx *b;
	int done;		/* steps with a verdict */
};

static int replay_step(const struct bisect_step *st, void *arg)
{
	struct replay *rp = arg;
	struct bisect_ctx *b = rp->b;
	enum bisect_mark m;
	long idx = -2;

	if (!st->verdict)
		return 0;
	rp->done++;
	/* The time it took counts in the elapsed time the steps after a
	 * resume say (a step cut off part way runs again, from its start). */
	if (st->started_at && st->finished_at) {
		double from = clock_parse_iso_utc(st->started_at), to = clock_parse_iso_utc(st->finished_at);

		if (isfinite(from) && isfinite(to) && to > from)
			b->spent_s += to - from;
	}
	if (st->step == 0)
		return 0;
	for (size_t i = 1; i < b->ncommits; i++)
		if (!strcmp(b->commits[i].id, st->commit))
			idx = (long)i - 1;
	m = !strcmp(st->verdict, "good") ? BISECT_GOOD : !strcmp(st->verdict, "bad") ?
	    BISECT_BAD : BISECT_SKIP;
	if (idx < 0 || bisect_walk_mark(&b->walk, (size_t)idx, m))
		return error("bisection @%lld: step %d (%s %s) does not fit its commits",
			     (long long)b->id, st->step, st->commit, st->verdict);
	return 0;
}

int bisect_resume(struct store *s, int64_t id)
{
	struct bisect_ctx b = { .s = s, .id = id };
	struct bisect_info x;
	struct replay rp = { .b = &b };
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	int rc;

	rc = store_get_bisect(s, id, &x);
	if (rc) {
		if (rc > 0)
			error("no bisection @%lld in the store (kbench bisect --list lists them)",
			      (long long)id);
		return -1;
	}
	rc = -1;
	if (!strcmp(x.status, "complete")) {
		notice("bisect @%lld is complete: nothing to resume (kbench bisect --report %lld)",
		       (long long)id, (long long)id);
		rc = !strcmp(x.result, "found") ? BISECT_DONE_FOUND : BISECT_DONE_NOT_FOUND;
		goto out;
	}
	if (x.alive) {
		error("bisect @%lld is still running (pid of its writer alive on %s)",
		      (long long)id, x.hostname);
		goto out;
	}
	if (access(x.tree, F_OK)) {
		error("bisect @%lld: its tree %s is gone: %s", (long long)id, x.tree,
		      strerror(errno));
		goto out;
	}
	b.tree = xstrdup(x.tree);
	b.config_text = xstrdup(x.config_text);
	b.config_name = xstrdup(x.config_name);
	b.regression_pct = x.regression_pct;
	if (*x.section) {
		b.section = xstrdup(x.section);
		b.row = xstrdup(x.row);
	}
	bisect_settings_init(&b.set);
	if (bisect_settings_read(&b.set, x.settings, &err)) {
		error("bisection @%lld: %s", (long long)id, err.buf);
		goto out;
	}
	settings_vm(&b, NULL);
	if (store_each_bisect_commit(s, id, add_commit, &b) < 0)
		goto out;
	if (b.ncommits < 2 || strcmp(b.commits[0].id, x.good) ||
	    strcmp(b.commits[b.ncommits - 1].id, x.bad)) {
		error("bisection @%lld: its stored commits do not run from %s to %s",
		      (long long)id, x.good, x.bad);
		goto out;
	}
	/* The tree still has them (a rebase may have dropped them). */
	for (size_t i = 0; i < b.ncommits; i++) {
		strbuf_reset(&out);
		if (rev_parse(b.tree, b.commits[i].id, &out, &err)) {
			error("bisect @%lld: %s", (long long)id, err.buf);
			goto out;
		}
	}
	bisect_walk_init(&b.walk, b.ncommits - 1);
	if (store_each_bisect_step(s, id, replay_step, &rp))
		goto out;
	b.next_step = rp.done;
	if (store_resume_bisect(s, id))
		goto out;
	b.started_ns = clock_ns(CLOCK_MONOTONIC);
	strbuf_reset(&out);
	elapsed_text(&b, &out);
	notice("bisect @%lld resumed: %d step%s finished, %zu commit%s left to test, roughly %d "
	       "step%s [%s elapsed]", (long long)id, rp.done, rp.done == 1 ? "" : "s",
	       bisect_walk_untested(&b.walk), bisect_walk_untested(&b.walk) == 1 ? "" : "s",
	       bisect_walk_steps_left(&b.walk), bisect_walk_steps_left(&b.walk) == 1 ? "" : "s",
	       out.buf);
	rc = run_steps(&b);
out:
	bisect_info_release(&x);
	ctx_release(&b);
	strbuf_release(&err);
	strbuf_release(&out);
	return rc;
}
