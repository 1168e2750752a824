/* ab_looks: the looks of a sequential experiment, stored and said. */
#include "config.h"
#include "experiment/ab_looks.h"
#include "compare/sequential.h"
#include "compare/verdict.h"
#include "db/experiment.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/regex.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "experiment/experiment.h"
#include "runner/plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct ab_looks {
	struct seq_design d;
	struct kb_regex *watch;		/* NULL: every mean row */
};

struct ab_looks *ab_looks_new(const struct experiment *e)
{
	struct ab_looks *l = xcalloc(1, sizeof(*l));
	struct strbuf err = STRBUF_INIT;

	if (seq_plan_design(&e->seq, &l->d, &err)) {
		error("experiment '%s': its sequential design: %s", e->name, err.buf);
		goto fail;
	}
	if (e->watch && !(l->watch = kb_regex_compile(e->watch, 0, &err))) {
		error("watch '%s': %s", e->watch, err.buf);
		goto fail;
	}
	strbuf_release(&err);
	return l;
fail:
	strbuf_release(&err);
	ab_looks_free(l);
	return NULL;
}

void ab_looks_free(struct ab_looks *l)
{
	if (!l)
		return;
	kb_regex_free(l->watch);
	free(l);
}

/* One look's rows, collected, with what they own. */
struct look_rows {
	struct ab_looks *l;
	const char *arm;
	int look, rounds;
	char when[32];
	struct experiment_look *v;
	int *needed;			/* cannot tell: the rounds that would
					 * have told (0: unknown) */
	char **owned;			/* section, row, stat of each row */
	size_t n, alloc, needed_alloc, nowned, owned_alloc;
};

static const char *keep(struct look_rows *lr, const char *s)
{
	ALLOC_GROW(lr->owned, lr->nowned + 1, lr->owned_alloc);
	return lr->owned[lr->nowned++] = xstrdup(s ? s : "");
}

static int watched(const struct ab_looks *l, const char *section, const char *row)
{
	struct strbuf name = STRBUF_INIT;
	int yes;

	if (!l->watch)
		return 1;
	strbuf_addf(&name, "%s/%s", section, row);
	yes = kb_regex_match(l->watch, name.buf) > 0;
	strbuf_release(&name);
	return yes;
}

static int add_row(const struct row_verdict *v, void *arg)
{
	struct look_rows *lr = arg;
	struct experiment_look *x;
	int at_look = v->paired && v->seq_look == lr->look;

	ALLOC_GROW(lr->v, lr->n + 1, lr->alloc);
	ALLOC_GROW(lr->needed, lr->n + 1, lr->needed_alloc);
	lr->needed[lr->n] = at_look ? v->seq_rounds_needed : 0;
	x = &lr->v[lr->n++];
	*x = (struct experiment_look){
		.look = lr->look + 1,
		.rounds = lr->rounds,
		.arm = lr->arm,
		.section = keep(lr, v->section),
		.row = keep(lr, v->row),
		.stat = keep(lr, v->stat),
		.pct = v->pct,
		.lo_pct = at_look ? v->seq_lo_pct : NAN,
		.hi_pct = at_look ? v->seq_hi_pct : NAN,
		.t = v->t,
		.bound = at_look ? v->seq_bound : NAN,
		/* A row not paired over these rounds (a round without its
		 * samples) is not decided by this look. */
		.decision = seq_decision_name(at_look ? (enum seq_decision)v->seq_decision :
					      lr->look == lr->l->d.nlooks - 1 ? SEQ_CANNOT_TELL :
					      SEQ_GO_ON),
		.watched = watched(lr->l, v->section, v->row),
		.looked_at = lr->when,
	};
	return 0;
}

static void describe(struct strbuf *sb, const struct experiment_look *x)
{
	strbuf_addf(sb, "%s %s %s %s %+.2f%%", x->arm, x->section, x->stat, x->row, x->pct);
	if (!isnan(x->lo_pct))
		strbuf_addf(sb, " [%+.2f%%, %+.2f%%]", x->lo_pct, x->hi_pct);
}

/* Say where the experiment stands after look lr->look; return 1 when
 * every watched row is decided. */
static int report(const struct experiment *e, struct look_rows *lr)
{
	size_t watched_n = 0, changed = 0, same = 0, open = 0, worst = 0;
	double worst_width = -1;
	struct strbuf sb = STRBUF_INIT;
	int last = lr->look == lr->l->d.nlooks - 1;

	for (size_t i = 0; i < lr->n; i++) {
		const struct experiment_look *x = &lr->v[i];
		double width = isnan(x->lo_pct) ? INFINITY : x->hi_pct - x->lo_pct;

		if (!x->watched)
			continue;
		watched_n++;
		if (!strcmp(x->decision, "change"))
			changed++;
		else if (!strcmp(x->decision, "no change"))
			same++;
		else if (open++, width > worst_width) {
			worst_width = width;
			worst = i;
		}
	}
	strbuf_addf(&sb, "look %d/%d after %d rounds: ", lr->look + 1, lr->l->d.nlooks,
		    lr->rounds);
	if (!watched_n) {
		strbuf_addstr(&sb, "no mean row watched");
		if (e->watch)
			strbuf_addf(&sb, " matches '%s'", e->watch);
		warning("%s", sb.buf);
		strbuf_release(&sb);
		return 0;
	}
	if (!open) {
		strbuf_addf(&sb, "every watched row decided (%zu changed, %zu no change larger "
			    "than %g%%)%s", changed, same, e->seq.equivalence_pct,
			    last ? "" : ": the experiment stops");
		notice("%s", sb.buf);
		strbuf_release(&sb);
		return 1;
	}
	strbuf_addf(&sb, "%zu of %zu watched rows decided (%zu changed, %zu no change); ",
		    changed + same, watched_n, changed, same);
	if (last) {
		strbuf_addf(&sb, "cannot tell for %zu: ", open);
		describe(&sb, &lr->v[worst]);
		if (lr->needed[worst])
			strbuf_addf(&sb, " would need about %d rounds", lr->needed[worst]);
		else
			strbuf_addstr(&sb, " (the rounds it would need are unknown)");
	} else {
		strbuf_addstr(&sb, "waiting on ");
		describe(&sb, &lr->v[worst]);
		if (e->seq.equivalence_pct > 0)
			strbuf_addf(&sb, " to exclude 0 or fit within +/-%g%%",
				    e->seq.equivalence_pct);
		else
			strbuf_addstr(&sb, " to exclude 0");
		if (open > 1)
			strbuf_addf(&sb, " (and %zu more)", open - 1);
	}
	notice("%s", sb.buf);
	strbuf_release(&sb);
	return 0;
}

/* The rows of one look as stored. */
struct stored_look {
	int look;
	size_t n, watched, open;
};

static int stored_row(const struct experiment_look *x, void *arg)
{
	struct stored_look *sl = arg;

	if (x->look != sl->look)
		return 0;
	sl->n++;
	if (x->watched) {
		sl->watched++;
		if (strcmp(x->decision, "change") && strcmp(x->decision, "no change"))
			sl->open++;
	}
	return 0;
}

int seq_look_hook_round_done(struct experiment *e, struct store *s, int round, void *hook)
{
	const struct seq_look_hook *h = hook;
	int look = seq_look_at(h->design, round);

	return look < 0 ? 0 : h->look(e, s, look, round, h->arg);
}

/* Look look of the design of arg (struct ab_looks) after round rounds. */
static int look_at(struct experiment *e, struct store *s, int look, int round, void *arg)
{
	struct look_rows lr = { .l = arg, .look = look, .rounds = round };
	int rc = -1;
	/* A look is taken once, over the rounds up to its own: a resumed
	 * experiment's runs may hold samples of later rounds, which would
	 * change its figures and lose its interval. One stored before the
	 * experiment was stopped stands, and decides as it did. */
	if (e->resumed) {
		struct stored_look sl = { .look = lr.look + 1 };

		if (store_each_experiment_look(s, e->id, stored_row, &sl) < 0)
			return -1;
		if (sl.n) {
			notice("look %d/%d after %d rounds: stored before the experiment was "
			       "stopped, it stands (%zu of %zu watched rows decided)", sl.look,
			       lr.l->d.nlooks, round, sl.watched - sl.open, sl.watched);
			return sl.watched && !sl.open;
		}
	}
	clock_iso_utc(lr.when, sizeof(lr.when), time(NULL));
	for (size_t i = 1; i < e->narms; i++) {
		lr.arm = e->arms[i].name;
		if (!e->arms[0].run_id || !e->arms[i].run_id)
			continue;
		if (compare_each_row_verdict(s, e->arms[0].run_id, e->arms[i].run_id, add_row,
					     &lr) < 0)
			goto out;
	}
	rc = report(e, &lr);
	if (store_add_experiment_looks(s, e->id, lr.v, lr.n))
		rc = -1;
out:
	for (size_t i = 0; i < lr.nowned; i++)
		free(lr.owned[i]);
	free(lr.owned);
	free(lr.v);
	free(lr.needed);
	return rc;
}

int ab_looks_round_done(struct experiment *e, struct store *s, int round, void *arg)
{
	struct ab_looks *l = arg;
	struct seq_look_hook hook = { .design = &l->d, .look = look_at, .arg = l };

	return seq_look_hook_round_done(e, s, round, &hook);
}

struct row_search {
	const struct kb_regex *re;	/* match it; or */
	const char *exact;		/* be it */
	struct strbuf *names;		/* the first few names seen */
	int seen;
};

static int row_found(const char *name, void *arg)
{
	struct row_search *rs = arg;

	if (rs->seen++ < 4)
		strbuf_addf(rs->names, "%s'%s'", rs->seen > 1 ? ", " : "", name);
	else if (rs->seen == 5)
		strbuf_addstr(rs->names, ", ...");
	return rs->re ? kb_regex_match(rs->re, name) > 0 : !strcmp(name, rs->exact);
}

/* Whether a row of any arm's plan of e matches re, or is exact; names
 * gets the first few rows of the plan. */
static int experiment_row_found(const struct experiment *e, const struct kb_regex *re,
				const char *exact, struct strbuf *names)
{
	struct row_search rs = { .re = re, .exact = exact, .names = names };
	int yes = 0;

	for (size_t i = 0; i < e->narms && !yes; i++) {
		strbuf_reset(names);
		rs.seen = 0;
		yes = plan_each_row_name(&e->arms[i].plan, row_found, &rs);
	}
	return yes;
}

int ab_looks_has_row(const struct experiment *e, const char *row, struct strbuf *rows)
{
	return experiment_row_found(e, NULL, row, rows);
}

int ab_looks_check_watch(const struct experiment *e)
{
	struct strbuf err = STRBUF_INIT, names = STRBUF_INIT;
	struct kb_regex *re;
	int yes;

	if (!e->watch)
		return 0;
	if (!(re = kb_regex_compile(e->watch, 0, &err))) {
		error("watch '%s': %s", e->watch, err.buf);
		strbuf_release(&err);
		return -1;
	}
	yes = experiment_row_found(e, re, NULL, &names);
	if (!yes)
		error("watch '%s' matches no row of the experiment: it is matched against "
		      "SECTION/ROW, its rows are %s", e->watch, names.len ? names.buf : "none");
	kb_regex_free(re);
	strbuf_release(&err);
	strbuf_release(&names);
	return yes ? 0 : -1;
}
