/* bisect_step: a bisection's steps: building their commits, running
 * their experiments, reading their looks, storing their verdicts. */
#include "config.h"
#include "bisect/bisect_step.h"
#include "bisect/bisect_ctx.h"
#include "bisect/bisect_run.h"
#include "compare/sequential.h"
#include "compare/stats.h"
#include "compare/verdict.h"
#include "db/bisect.h"
#include "db/experiment.h"
#include "db/store.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "experiment/ab_looks.h"
#include "experiment/experiment.h"
#include "kernel/kbuild.h"
#include "kernel/vm.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* A look of the step's design (every b->set.rounds rounds), said: one
 * that decides ends the step's experiment there, one that does not lets
 * it go on to the next look. */
static int step_look(struct experiment *e, struct store *s, int look, int round, void *arg)
{
	struct step_looks *l = arg;
	struct strbuf sb = STRBUF_INIT;
	int rc;

	(void)s;
	(void)look;
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
	struct seq_look_hook hook = { .design = &b->design, .look = step_look, .arg = l };
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
	e.round_done = seq_look_hook_round_done;
	e.round_done_arg = &hook;
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

/* The rounds experiment exp ran; 0 when it cannot be read. */
static int experiment_rounds(struct store *s, int64_t exp)
{
	struct experiment_info x;
	int rounds = 0;

	if (!store_get_experiment(s, exp, &x)) {
		rounds = x.rounds;
		experiment_info_release(&x);
	}
	return rounds;
}

/* Step 0: the good end against the bad one. Return 0 when the regression
 * is confirmed (b->section, b->row set), 1 when there is none (said, and
 * the bisection closed), 128+N, or -1 after an error. */
static int confirm(struct bisect_ctx *b)
{
	const struct bcommit *good = bisect_ctx_commit(b, -1), *bad = bisect_ctx_commit(b, (long)b->walk.n - 1);
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
	bisect_short_id(good->id, g, sizeof(g));
	bisect_short_id(bad->id, bb, sizeof(bb));
	bisect_ctx_elapsed(b, &el);
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
	st.rounds = experiment_rounds(b->s, exp);
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

/* What the looks l of a later step st decided: its figures into st,
 * the reason into reason, the mark and the verdict it stores into *mark
 * and *verdict (left as they are when it cannot tell). */
static void step_verdict(const struct bisect_ctx *b, const struct step_looks *l,
			 struct bisect_step *st, struct strbuf *reason, enum bisect_mark *mark,
			 const char **verdict)
{
	st->vs_good_pct = l->have_good ? l->vs_good.pct : NAN;
	st->vs_good_p = l->have_good ? l->p_good : NAN;
	st->vs_bad_pct = l->have_bad ? l->vs_bad.pct : NAN;
	st->vs_bad_p = l->have_bad ? l->p_bad : NAN;
	if (!l->have_good || !l->have_bad)
		strbuf_addf(reason, "the runs have no row %s %s", b->section, b->row);
	else
		strbuf_addf(reason, "%s %s: %+.1f%% from the good end to it (p %.2g), "
			    "%+.1f%% from it to the bad end (p %.2g)", b->section, b->row,
			    l->vs_good.pct, l->p_good, l->to_bad_pct, l->p_bad);
	if (l->verdict == BISECT_VERDICT_GOOD) {
		*mark = BISECT_GOOD;
		*verdict = "good";
	} else if (l->verdict == BISECT_VERDICT_BAD) {
		*mark = BISECT_BAD;
		*verdict = "bad";
	} else {
		strbuf_addf(reason, "; cannot tell after %d rounds", st->rounds);
	}
}

/* A later step: commit idx beside the ends of the open range. Return 0
 * (the walk is marked), 128+N, or -1 after an error. */
static int run_step(struct bisect_ctx *b, long idx)
{
	long gi;
	size_t bi;
	const struct bcommit *c = bisect_ctx_commit(b, idx), *good, *bad;
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
	good = bisect_ctx_commit(b, gi);
	bad = bisect_ctx_commit(b, (long)bi);
	l.step = st.step = b->next_step;
	st.good = good->id;
	st.bad = bad->id;
	now_iso(at_, sizeof(at_));
	st.started_at = at_;
	bisect_short_id(c->id, id, sizeof(id));
	left = bisect_walk_steps_left(&b->walk);
	bisect_ctx_elapsed(b, &el);
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
		if (exp)
			st.rounds = experiment_rounds(b->s, exp);
		if (rc)
			strbuf_addf(&reason, "its experiment @%lld failed (a guest that did not "
				    "boot, or was lost: kbench experiments %lld)", (long long)exp,
				    (long long)exp);
		else
			step_verdict(b, &l, &st, &reason, &mark, &verdict);
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

int bisect_run_steps(struct bisect_ctx *b)
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
	bisect_short_id(bisect_ctx_commit(b, (long)bi)->id, id, sizeof(id));
	now_iso(at_, sizeof(at_));
	if (store_finish_bisect(b->s, b->id, "complete", found ? "found" : "skipped",
				bisect_ctx_commit(b, (long)bi)->id, at_)) {
		rc = -1;
		goto out;
	}
	bisect_ctx_elapsed(b, &el);
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
