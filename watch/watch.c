/* watch: one cycle of kbench watch: the lock, the resume of an unfinished
 * cycle, the fetch, the build of the tips, the experiment of the last
 * tip tested against the new one, the verdicts, the bisections and the
 * mails, each step stored before the next (db/watch.h). */
#include "config.h"
#include "watch/watch.h"
#include "watch/watch_internal.h"
#include "bisect/bisect_run.h"
#include "compare/verdict.h"
#include "db/bisect.h"
#include "db/store.h"
#include "db/watch.h"
#include "experiment/experiment.h"
#include "kernel/git.h"
#include "kernel/kbuild.h"
#include "kernel/vm.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "machine/hostlock.h"
#include "machine/sysinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

/* The most a git command other than the fetch may take, in seconds. */
#define WATCH_GIT_TIMEOUT_S 300

static void watch_now(char *buf, size_t len)
{
	clock_iso_utc(buf, len, time(NULL));
}

static void short_id(const char *id, char *buf)
{
	snprintf(buf, 13, "%s", id && *id ? id : "-");
}

/* The commit ref names in the tree, into id (reset first). */
static int rev_parse(const char *tree, const char *ref, struct strbuf *id, struct strbuf *err)
{
	struct strbuf arg = STRBUF_INIT;
	const char *args[] = { "rev-parse", "--verify", "--quiet", NULL, NULL };
	int rc;

	strbuf_addf(&arg, "%s^{commit}", ref);
	args[3] = arg.buf;
	strbuf_reset(id);
	rc = git_output(tree, args, WATCH_GIT_TIMEOUT_S, id, err);
	strbuf_rtrim(id);
	if (rc || id->len != 40) {
		if (!rc)
			strbuf_addf(err, "'%s' names no commit of %s", ref, tree);
		rc = -1;
	}
	strbuf_release(&arg);
	return rc;
}

/* ---- the lock: one cycle at a time for a (tree, branch) on this host ---- */

static int lock_fd = -1;

static int take_lock(const struct watch_config *w)
{
	struct strbuf err = STRBUF_INIT, name = STRBUF_INIT;
	uint64_t h = 14695981039346656037ULL;	/* FNV-1a */
	int dirfd, rc = -1;

	for (const char *p = w->tree; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	h = (h ^ '\n') * 1099511628211ULL;
	for (const char *p = w->branch; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	strbuf_addf(&name, "watch.%016llx", (unsigned long long)h);
	dirfd = hostlock_dir_open(1, &err);
	if (dirfd < 0) {
		error("cannot take the watch's lock: %s", err.buf);
		goto out;
	}
	lock_fd = hostlock_open_file(dirfd, name.buf, O_RDWR | O_CREAT, 0644);
	close(dirfd);
	if (lock_fd < 0) {
		error("cannot open the watch's lock '%s': %s", name.buf, strerror(errno));
		goto out;
	}
	if (flock(lock_fd, LOCK_EX | LOCK_NB)) {
		error("another kbench watch is running a cycle of %s (branch %s) on this host",
		      w->tree, w->branch);
		close(lock_fd);
		lock_fd = -1;
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&err);
	strbuf_release(&name);
	return rc;
}

static void drop_lock(void)
{
	if (lock_fd >= 0)
		close(lock_fd);
	lock_fd = -1;
}

/* ---- steps ---- */

static int end_cycle(struct watch_ctx *ctx, const char *state, const char *result,
		     const char *err)
{
	char now[32];

	watch_now(now, sizeof(now));
	return store_watch_end_cycle(ctx->s, ctx->cycle_id, state, result, err, now);
}

static int step_to(struct watch_ctx *ctx, enum watch_step step)
{
	return store_watch_cycle_step(ctx->s, ctx->cycle_id, step);
}

/* The kernel of commit id, built or found in the cache, into *k. */
static int build_tip(const struct watch_run *r, const char *id, struct kbuild_result *k,
		 struct strbuf *err)
{
	const struct watch_config *w = r->cfg;
	const char **fragments = xcalloc(r->nfragments + 2, sizeof(*fragments));
	struct kbuild_request rq = {
		.tree = w->tree,
		.ref = id,
		.kconfig = r->kconfig,
		.cache_dir = w->cache,
		.jobs = w->jobs,
		.timeout_s = w->build_timeout_s,
		.progress = 1,
	};
	int rc;

	if (r->guest_fragment)
		fragments[rq.nfragments++] = r->guest_fragment;
	for (size_t i = 0; i < r->nfragments; i++)
		fragments[rq.nfragments++] = r->fragments[i];
	rq.fragments = fragments;
	memset(k, 0, sizeof(*k));
	rc = kbuild_build(&rq, k, err);
	if (!rc && vm_check_kernel(k->image, err))
		rc = -1;
	free(fragments);
	return rc;
}

static void vm_of(const struct watch_config *w, struct vm_config *vc)
{
	struct vm_config init = VM_CONFIG_INIT;

	*vc = init;
	vc->accel = w->accel;
	vc->vcpus = w->vcpus;
	vc->mem_mib = w->mem_mib;
	vc->append = w->append && *w->append ? w->append : NULL;
	vc->boot_timeout_s = w->boot_timeout_s;
	vc->icount_shift = w->icount ? VM_ICOUNT_SHIFT : -1;
}

struct verdicts {
	const struct watch_config *w;
	struct watch_verdict *v;
	size_t n;
	int regressions;
};

static int gating(const struct watch_config *w, const char *section, const char *row)
{
	size_t n = strlen(section);

	if (!w->nrows)
		return 1;
	for (size_t i = 0; i < w->nrows; i++)
		if (!strcmp(w->rows[i], section) ||
		    (!strncmp(w->rows[i], section, n) && w->rows[i][n] == '/' &&
		     !strcmp(w->rows[i] + n + 1, row)))
			return 1;
	return 0;
}

static int take_verdict(const struct row_verdict *rv, void *arg)
{
	struct verdicts *vs = arg;
	struct watch_verdict *v;

	vs->v = xrealloc(vs->v, (vs->n + 1) * sizeof(*vs->v));
	v = &vs->v[vs->n++];
	memset(v, 0, sizeof(*v));
	v->section = xstrdup(rv->section);
	v->row = xstrdup(rv->row);
	v->verdict = xstrdup(rv->verdict);
	v->change_pct = rv->pct;
	v->p = rv->p;
	v->gating = gating(vs->w, rv->section, rv->row);
	v->regression = v->gating && rv->significant && !strcmp(rv->verdict, "worse") &&
			-rv->pct >= vs->w->threshold_pct;
	vs->regressions += v->regression;
	return 0;
}

static void verdicts_release(struct verdicts *vs)
{
	for (size_t i = 0; i < vs->n; i++) {
		free((char *)vs->v[i].section);
		free((char *)vs->v[i].row);
		free((char *)vs->v[i].verdict);
	}
	free(vs->v);
}

struct first_round {
	struct watch_ctx *ctx;
	int linked;
};

/* After a round: the experiment is linked to the cycle, so that a kill
 * from here on resumes it. */
static int link_experiment(struct experiment *e, struct store *s, int round, void *arg)
{
	struct first_round *f = arg;

	(void)round;
	if (!f->linked && e->id) {
		if (store_watch_cycle_links(s, f->ctx->cycle_id, e->id, 0))
			return -1;
		f->linked = 1;
	}
	return 0;
}

/* Run (or resume, exp_id > 0) the experiment of old against new tip, and
 * record each row's verdict. Return 0, 1 after a failure, 128+N when
 * stopped; *regressions the rows to bisect. */
static int experiment(struct watch_ctx *ctx, const struct kbuild_result *old,
		      const struct kbuild_result *new, int64_t exp_id, int *regressions)
{
	const struct watch_config *w = ctx->r->cfg;
	struct strbuf arms = STRBUF_INIT, name = STRBUF_INIT;
	struct vm_config vc;
	struct experiment e;
	struct experiment_options o = {
		.config_text = w->bench_text,
		.config_origin = w->path,
		.extra_name = "kbench watch",
		.vm = &vc,
	};
	struct first_round f = { ctx, exp_id > 0 };
	struct verdicts vs = { .w = w };
	char a[13], b[13];
	int rc = 1, loaded;

	memset(&e, 0, sizeof(e));
	vm_of(w, &vc);
	*regressions = 0;
	short_id(old->commit, a);
	short_id(new->commit, b);
	if (exp_id > 0) {
		loaded = experiment_load_stored(&e, ctx->s, exp_id, 0, NULL);
		if (loaded < 0)
			goto out;
		notice("watch: resuming experiment @%lld, %s against %s", (long long)exp_id, a, b);
	} else {
		strbuf_addf(&arms, "[arm:%s]\nkernel = %s\ndescription = %s %s\n", a, old->image,
			    old->commit, old->subject);
		strbuf_addf(&arms, "[arm:%s]\nkernel = %s\ndescription = %s %s\n", b, new->image,
			    new->commit, new->subject);
		strbuf_addf(&name, "watch-%lld", (long long)ctx->cycle_id);
		o.extra = arms.buf;
		o.name = name.buf;
		if (w->rounds) {
			o.rounds = w->rounds;
		} else {
			o.rounds_auto = 1;
			o.max_rounds = w->max_rounds;
		}
		if (experiment_load(&e, &o))
			goto out;
		loaded = 0;
		notice("watch: experiment of %s against %s, %s", a, b, w->rounds ?
		       "fixed rounds" : "rounds = auto");
	}
	if (!loaded) {
		e.round_done = link_experiment;
		e.round_done_arg = &f;
		rc = experiment_run(&e, ctx->s);
		if (e.id && !f.linked && store_watch_cycle_links(ctx->s, ctx->cycle_id, e.id, 0))
			rc = 1;
		for (size_t i = 0; !exp_id && i < e.narms && i < 2; i++)
			if (kbuild_store_facts(ctx->s, e.arms[i].run_id, i ? new : old) && !rc)
				rc = 1;
		if (rc)
			goto out;
	}
	if (e.narms < 2 || !e.arms[0].run_id || !e.arms[1].run_id) {
		error("watch: the experiment has no runs to compare");
		rc = 1;
		goto out;
	}
	if (compare_each_row_verdict(ctx->s, e.arms[0].run_id, e.arms[1].run_id, take_verdict,
				     &vs) < 0 ||
	    store_watch_add_verdicts(ctx->s, ctx->cycle_id, vs.v, vs.n)) {
		rc = 1;
		goto out;
	}
	for (size_t i = 0; i < w->nrows; i++) {
		size_t j;

		for (j = 0; j < vs.n; j++) {
			struct watch_config one = { .rows = &w->rows[i], .nrows = 1 };

			if (gating(&one, vs.v[j].section, vs.v[j].row))
				break;
		}
		if (j == vs.n)
			warning("watch: rows: '%s' is no row of the experiment: it gates nothing",
				w->rows[i]);
	}
	for (size_t i = 0; i < vs.n; i++)
		printf("  %s/%s: %s %+.1f%%%s%s\n", vs.v[i].section, vs.v[i].row, vs.v[i].verdict,
		       vs.v[i].change_pct, vs.v[i].gating ? "" : " (not gating)",
		       vs.v[i].regression ? ": a regression" : "");
	*regressions = vs.regressions;
	rc = 0;
out:
	verdicts_release(&vs);
	experiment_release(&e);
	strbuf_release(&arms);
	strbuf_release(&name);
	return rc;
}

/* ---- bisections ---- */

struct regressed {
	char *section, *row, *culprit;
	int64_t bisect_id;
};

struct regressed_list {
	struct regressed *v;
	size_t n;
};

static int take_regressed(const struct watch_verdict *v, void *arg)
{
	struct regressed_list *l = arg;

	if (!v->regression)
		return 0;
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = (struct regressed){ xstrdup(v->section), xstrdup(v->row),
					   *v->culprit ? xstrdup(v->culprit) : NULL, v->bisect_id };
	return 0;
}

static void regressed_release(struct regressed_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].section);
		free(l->v[i].row);
		free(l->v[i].culprit);
	}
	free(l->v);
}

struct find_bisect {
	const char *tree, *good, *bad;
	char *setting;			/* "\nrow=S/R\n" */
	int64_t id;
};

static int match_bisect(const struct bisect_info *b, void *arg)
{
	struct find_bisect *f = arg;
	struct strbuf set = STRBUF_INIT;
	int hit;

	strbuf_addf(&set, "\n%s", b->settings);
	hit = !strcmp(b->tree, f->tree) && !strcmp(b->good, f->good) && !strcmp(b->bad, f->bad) &&
	      strstr(set.buf, f->setting);
	strbuf_release(&set);
	if (hit)
		f->id = b->id;
	return 0;
}

struct find_culprit {
	const char *tree, *good, *new, *setting;
	int64_t id;
};

/* A complete bisection from the baseline (f->good) of the row whose
 * culprit the new tip holds. */
static int match_culprit(const struct bisect_info *b, void *arg)
{
	struct find_culprit *f = arg;
	struct strbuf set = STRBUF_INIT, err = STRBUF_INIT;
	const char *args[] = { "merge-base", "--is-ancestor", b->first_bad, f->new, NULL };

	strbuf_addf(&set, "\n%s", b->settings);
	if (!strcmp(b->tree, f->tree) && !strcmp(b->good, f->good) &&
	    !strcmp(b->status, "complete") && *b->first_bad && strstr(set.buf, f->setting) &&
	    !git_output(f->tree, args, WATCH_GIT_TIMEOUT_S, NULL, &err))
		f->id = b->id;
	strbuf_release(&set);
	strbuf_release(&err);
	return 0;
}

/* With a fixed baseline, a row stays worse against it once a culprit is
 * in: the bisection that named it, when the new tip holds that culprit,
 * is the row's (*id), and no other runs. Return 1 when one is found, 0
 * when none, -1 after an error. */
static int known_culprit(struct store *s, const char *tree, const char *baseline,
			 const char *new, const char *setting, int64_t *id)
{
	struct find_culprit f = { tree, baseline, new, setting, 0 };

	if (store_each_bisect(s, match_culprit, &f))
		return -1;
	*id = f.id;
	return f.id != 0;
}

/* Bisect one row regressed between old and new (or resume its bisection,
 * stopped), and record its culprit. Return 0, 1 after a failure (a
 * bisection that named no commit is not one), 128+N when stopped. */
static int bisect_row(struct watch_ctx *ctx, struct regressed *g, const char *old,
		      const char *new, const char *bench_path)
{
	const struct watch_config *w = ctx->r->cfg;
	struct strbuf row = STRBUF_INIT;
	struct find_bisect f = { w->tree, old, new, NULL, 0 };
	struct bisect_info bi;
	struct vm_config vc;
	int rc = 1;

	strbuf_addf(&row, "%s/%s", g->section, g->row);
	if (g->culprit) {
		rc = 0;
		goto out;
	}
	if (!g->bisect_id) {
		struct strbuf set = STRBUF_INIT;

		strbuf_addf(&set, "\nrow=%s\n", row.buf);
		f.setting = strbuf_detach(&set);
		if (store_each_bisect(ctx->s, match_bisect, &f))
			goto out;
		g->bisect_id = f.id;
	}
	if (!g->bisect_id && w->baseline) {
		int known = known_culprit(ctx->s, w->tree, old, new, f.setting, &g->bisect_id);

		if (known < 0)
			goto out;
		if (known)
			notice("watch: %s regressed against the baseline as bisection @%lld found, "
			       "its culprit in the new tip: not bisected again",
			       row.buf, (long long)g->bisect_id);
	}
	if (g->bisect_id) {
		if (store_get_bisect(ctx->s, g->bisect_id, &bi))
			goto out;
		if (strcmp(bi.status, "complete")) {
			notice("watch: resuming bisection @%lld of %s", (long long)g->bisect_id,
			       row.buf);
			rc = bisect_resume(ctx->s, g->bisect_id);
			bisect_info_release(&bi);
			if (rc > 1)
				goto out;
			if (store_get_bisect(ctx->s, g->bisect_id, &bi))
				goto out;
		}
	} else {
		char *configs[] = { (char *)bench_path };
		struct bisect_options o = {
			.tree = w->tree,
			.good = old,
			.bad = new,
			.configs = configs,
			.nconfigs = 1,
			.row = row.buf,
			.threshold_pct = w->threshold_pct,
			.rounds = w->rounds ? w->rounds : BISECT_DEFAULT_ROUNDS,
			.max_rounds = w->max_rounds,
			.kconfig = ctx->r->kconfig,
			.fragments = ctx->r->fragments,
			.nfragments = ctx->r->nfragments,
			.guest_fragment = ctx->r->guest_fragment,
			.cache_dir = w->cache,
			.jobs = w->jobs,
			.build_timeout_s = w->build_timeout_s,
			.vm = &vc,
			.command = ctx->r->command,
		};
		int64_t id = 0;

		vm_of(w, &vc);
		notice("watch: bisecting %s between %.12s and %.12s", row.buf, old, new);
		rc = bisect_start(ctx->s, &o, &id);
		if (id && (store_watch_verdict_bisect(ctx->s, ctx->cycle_id, g->section, g->row,
						      id, NULL) ||
			   store_watch_cycle_links(ctx->s, ctx->cycle_id, 0, id))) {
			rc = 1;
			goto out;
		}
		g->bisect_id = id;
		if (rc > 1 || rc < 0 || !id) {
			rc = rc > 1 ? rc : 1;
			goto out;
		}
		if (store_get_bisect(ctx->s, id, &bi))
			goto out;
	}
	if (store_watch_verdict_bisect(ctx->s, ctx->cycle_id, g->section, g->row, g->bisect_id,
				       *bi.first_bad ? bi.first_bad : NULL) ||
	    store_watch_cycle_links(ctx->s, ctx->cycle_id, 0, g->bisect_id)) {
		bisect_info_release(&bi);
		goto out;
	}
	if (*bi.first_bad)
		g->culprit = xstrdup(bi.first_bad);
	else
		notice("watch: the bisection @%lld of %s named no commit (%s)",
		       (long long)g->bisect_id, row.buf, *bi.result ? bi.result : bi.status);
	bisect_info_release(&bi);
	rc = 0;
out:
	free(f.setting);
	strbuf_release(&row);
	return rc;
}

/* The benchmark configs as one file a bisection reads: the watch's own
 * config when it names one, else its text written to a file of its own
 * under TMPDIR (path), removed by the caller. */
static int bench_file(const struct watch_config *w, struct strbuf *path, int *made)
{
	const char *tmp = getenv("TMPDIR");
	const char *base = strrchr(w->path, '/');
	int fd;

	*made = 0;
	if (w->nconfigs == 1) {
		strbuf_addstr(path, w->configs[0]);
		return 0;
	}
	strbuf_addf(path, "%s/kbench-watch.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(path->buf))
		return error("cannot make a directory for the benchmark config: %s",
			     strerror(errno));
	strbuf_addf(path, "/%s", base ? base + 1 : w->path);
	fd = open(path->buf, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0 || write(fd, w->bench_text, strlen(w->bench_text)) < 0 || close(fd)) {
		error("cannot write '%s': %s", path->buf, strerror(errno));
		return -1;
	}
	*made = 1;
	return 0;
}

static void bench_file_remove(struct strbuf *path, int made)
{
	char *slash;

	if (!made)
		return;
	unlink(path->buf);
	slash = strrchr(path->buf, '/');
	if (slash) {
		*slash = 0;
		rmdir(path->buf);
	}
}

static int bisect_all(struct watch_ctx *ctx, const char *old, const char *new)
{
	struct regressed_list l = { NULL, 0 };
	struct strbuf path = STRBUF_INIT;
	int rc = 1, made = 0;

	if (store_watch_each_verdict(ctx->s, ctx->cycle_id, take_regressed, &l) ||
	    bench_file(ctx->r->cfg, &path, &made))
		goto out;
	rc = 0;
	for (size_t i = 0; i < l.n; i++) {
		int r = bisect_row(ctx, &l.v[i], old, new, path.buf);

		if (r > 1) {
			rc = r;
			goto out;
		}
		rc |= r;
	}
	if (step_to(ctx, WATCH_STEP_MAIL)) {
		rc = 1;
		goto out;
	}
	for (size_t i = 0; i < l.n; i++)
		if (l.v[i].culprit && watch_queue_report(ctx, l.v[i].section, l.v[i].row,
							 l.v[i].culprit, l.v[i].bisect_id))
			rc = 1;
out:
	bench_file_remove(&path, made);
	strbuf_release(&path);
	regressed_release(&l);
	return rc;
}

/* ---- the cycle ---- */

/* Carry cycle c (new or resumed) from the step it reached to its end. */
static int run_cycle(struct watch_ctx *ctx, struct watch_cycle *c)
{
	const struct watch_config *w = ctx->r->cfg;
	struct strbuf err = STRBUF_INIT, id = STRBUF_INIT, remote_ref = STRBUF_INIT;
	struct kbuild_result kold, knew;
	char *tested = NULL, *seen = NULL, *old = NULL, *new = NULL;
	char a[13], b[13];
	int rc = 1, regressions = 0, have_old = 0, have_new = 0;

	memset(&kold, 0, sizeof(kold));
	memset(&knew, 0, sizeof(knew));
	old = *c->old_tip ? xstrdup(c->old_tip) : NULL;
	new = *c->new_tip ? xstrdup(c->new_tip) : NULL;
	if (c->step == WATCH_STEP_FETCH) {
		const char *args[] = { "fetch", "--quiet", w->remote, NULL, NULL };
		struct strbuf spec = STRBUF_INIT;

		strbuf_addf(&spec, "+refs/heads/%s:refs/remotes/%s/%s", w->branch, w->remote,
			    w->branch);
		args[3] = spec.buf;
		printf("git fetch %s %s\n", w->remote, w->branch);
		fflush(stdout);
		strbuf_addf(&remote_ref, "refs/remotes/%s/%s", w->remote, w->branch);
		if (git_output(w->tree, args, w->fetch_timeout_s, NULL, &err) ||
		    rev_parse(w->tree, remote_ref.buf, &id, &err)) {
			strbuf_release(&spec);
			if (store_watch_tips(ctx->s, ctx->watch_id, NULL, &seen))
				goto out;
			error("watch: %s", err.buf);
			watch_queue_failure(ctx, "fetch", seen ? seen : "", "", err.buf);
			rc = end_cycle(ctx, "failed", "fetch-failed", err.buf) ? 1 : 0;
			goto out;
		}
		strbuf_release(&spec);
		new = xstrdup(id.buf);
		if (store_watch_tips(ctx->s, ctx->watch_id, &tested, &seen))
			goto out;
		short_id(new, b);
		if (seen && !strcmp(seen, new)) {
			printf("nothing new on %s/%s: the tip is still %s\n", w->remote, w->branch, b);
			rc = store_watch_cycle_tips(ctx->s, ctx->cycle_id, NULL, new) ||
			     end_cycle(ctx, "complete", "nothing-new", NULL) ? 1 : 0;
			goto out;
		}
		if (w->baseline) {
			if (rev_parse(w->tree, w->baseline, &id, &err)) {
				error("watch: baseline: %s", err.buf);
				end_cycle(ctx, "failed", NULL, err.buf);
				goto out;
			}
			old = xstrdup(id.buf);
		} else if (tested) {
			old = xstrdup(tested);
		}
		short_id(old, a);
		if (old && !strcmp(old, new)) {
			printf("tip %s is the baseline: nothing to test against it\n", b);
			rc = store_watch_cycle_tips(ctx->s, ctx->cycle_id, NULL, new) ||
			     end_cycle(ctx, "complete", "baseline", NULL) ? 1 : 0;
			goto out;
		}
		if (old) {
			char was[13];

			short_id(seen ? seen : old, was);
			printf("new tip %s (was %s): testing it against %s\n", b, was, a);
		} else {
			printf("first tip %s: building it as the baseline\n", b);
		}
		fflush(stdout);
		if (store_watch_cycle_tips(ctx->s, ctx->cycle_id, old, new) ||
		    step_to(ctx, WATCH_STEP_BUILD))
			goto out;
		c->step = WATCH_STEP_BUILD;
	}
	short_id(old, a);
	short_id(new, b);
	if (c->step <= WATCH_STEP_EXPERIMENT) {
		int r = build_tip(ctx->r, new, &knew, &err);

		if (r > 1) {
			rc = r;
			goto out;
		}
		if (r) {
			error("watch: %s", err.buf);
			watch_queue_failure(ctx, "build", new, b, err.buf);
			rc = end_cycle(ctx, "failed", "build-failed", err.buf) ? 1 : 0;
			goto out;
		}
		have_new = 1;
		if (!old) {
			printf("baseline %s built: the next cycles test against it\n", b);
			rc = end_cycle(ctx, "complete", "baseline", NULL) ? 1 : 0;
			goto out;
		}
		strbuf_reset(&err);
		r = build_tip(ctx->r, old, &kold, &err);
		if (r) {
			error("watch: the last tip tested, %s: %s", a, err.buf);
			end_cycle(ctx, "failed", "build-failed", err.buf);
			rc = r > 1 ? r : 1;
			goto out;
		}
		have_old = 1;
		if (c->step < WATCH_STEP_EXPERIMENT && step_to(ctx, WATCH_STEP_EXPERIMENT))
			goto out;
		r = experiment(ctx, &kold, &knew, c->experiment_id, &regressions);
		if (r) {
			if (r == 1)
				end_cycle(ctx, "failed", NULL, "the experiment failed");
			rc = r;
			goto out;
		}
		if (!regressions) {
			printf("no regression of %s against %s\n", b, a);
			rc = end_cycle(ctx, "complete", "no-regression", NULL) ? 1 : 0;
			goto out;
		}
		if (step_to(ctx, WATCH_STEP_BISECT))
			goto out;
		c->step = WATCH_STEP_BISECT;
	}
	if (c->step <= WATCH_STEP_MAIL) {
		int r = bisect_all(ctx, old, new);

		if (r > 1) {
			rc = r;
			goto out;
		}
		if (r) {
			end_cycle(ctx, "failed", "regression", "a bisection failed");
			goto out;
		}
		r = watch_send_pending(ctx);
		rc = end_cycle(ctx, "complete", "regression", NULL) || r ? 1 : 0;
	}
out:
	if (have_old)
		kbuild_result_release(&kold);
	if (have_new)
		kbuild_result_release(&knew);
	free(tested);
	free(seen);
	free(old);
	free(new);
	strbuf_release(&err);
	strbuf_release(&id);
	strbuf_release(&remote_ref);
	return rc;
}

static void dry_run(struct store *s, const struct watch_run *r)
{
	const struct watch_config *w = r->cfg;
	char *tested = NULL, *seen = NULL;
	struct watch_cycle c = { 0 };
	int64_t id = 0;
	int have = 0;

	printf("watch %s, branch %s of %s, on this host\n", w->tree, w->branch, w->remote);
	if (s && !store_watch_find(s, w->tree, w->remote, w->branch, &id)) {
		store_watch_tips(s, id, &tested, &seen);
		have = !store_watch_unfinished_cycle(s, id, &c);
	}
	if (have && !c.alive)
		printf("resume cycle #%lld, stopped at its %s step\n", (long long)c.id,
		       watch_step_name(c.step));
	else if (have)
		printf("cycle #%lld is running: this one would stop\n", (long long)c.id);
	printf("git fetch %s %s (at most %.0f s)\n", w->remote, w->branch, w->fetch_timeout_s);
	if (!tested && !w->baseline)
		printf("a first tip: build it as the baseline\n");
	else
		printf("a new tip: build it, run it against %.12s (%s, %s rounds%s) under QEMU\n",
		       w->baseline ? w->baseline : tested, w->baseline ? "the baseline" :
		       "the last tip tested", w->rounds ? "" : "auto", w->icount ? ", --icount" : "");
	printf("gating rows: ");
	if (!w->nrows)
		printf("every row");
	for (size_t i = 0; i < w->nrows; i++)
		printf("%s%s", i ? ", " : "", w->rows[i]);
	printf("\na row worse by %g%% or more, with a verdict: bisect it, mail the culprit to ",
	       w->threshold_pct);
	if (!w->nto)
		printf("no one (no 'to')");
	for (size_t i = 0; i < w->nto; i++)
		printf("%s%s", i ? ", " : "", w->to[i]);
	printf("\n");
	if (have)
		watch_cycle_release(&c);
	free(tested);
	free(seen);
}

int watch_cycle(struct store *s, const struct watch_run *r)
{
	const struct watch_config *w = r->cfg;
	struct watch_ctx ctx = { .s = s, .r = r };
	struct watch_cycle c;
	char now[32];
	int rc = 1, pending;

	if (r->dry_run) {
		dry_run(s, r);
		return 0;
	}
	if (take_lock(w))
		return 1;
	ctx.hostname = sysinfo_hostname();
	watch_now(now, sizeof(now));
	if (store_watch_get(s, w->tree, w->remote, w->branch, w->path, w->conf.text.buf, now,
			    &ctx.watch_id))
		goto out;
	pending = watch_send_pending(&ctx);
	if (pending < 0)
		goto out;
	switch (store_watch_unfinished_cycle(s, ctx.watch_id, &c)) {
	case -1:
		goto out;
	case 0:
		if (c.alive) {
			error("cycle #%lld of this watch is marked running by a live process",
			      (long long)c.id);
			watch_cycle_release(&c);
			goto out;
		}
		printf("resuming cycle #%lld, stopped at its %s step\n", (long long)c.id,
		       watch_step_name(c.step));
		ctx.cycle_id = c.id;
		if (store_watch_resume_cycle(s, c.id)) {
			watch_cycle_release(&c);
			goto out;
		}
		rc = run_cycle(&ctx, &c);
		watch_cycle_release(&c);
		if (rc > 1)
			goto out;
		break;
	default:
		break;
	}
	if (store_watch_begin_cycle(s, ctx.watch_id, now, &ctx.cycle_id) ||
	    store_watch_get_cycle(s, ctx.cycle_id, &c) != 0)
		goto out;
	printf("cycle #%lld of %s (%s %s)\n", (long long)c.id, w->tree, w->remote, w->branch);
	fflush(stdout);
	rc = run_cycle(&ctx, &c);
	watch_cycle_release(&c);
	if (rc <= 1 && (pending = watch_send_pending(&ctx)))
		rc = rc ? rc : 1;
out:
	free(ctx.hostname);
	drop_lock();
	return rc;
}
