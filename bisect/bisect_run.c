/* bisect_run: a bisection started (its commits listed by git, its
 * configs checked, its settings and commits stored) or resumed (read
 * back from the store, its finished steps replayed on the walk); its
 * steps are bisect/bisect_step.c's. */
#include "config.h"
#include "bisect/bisect_run.h"
#include "bisect/bisect_ctx.h"
#include "bisect/bisect_step.h"
#include "compare/sequential.h"
#include "db/bisect.h"
#include "db/store.h"
#include "lib/child.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/uuid.h"
#include "lib/xalloc.h"
#include "experiment/ab_looks.h"
#include "bisect/bisect_settings.h"
#include "lib/argv.h"
#include "runner/conf.h"
#include "experiment/experiment.h"
#include "kernel/git.h"
#include "kernel/vm.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long git may take to list or resolve commits. */
#define GIT_TIMEOUT_S 300

/* ---- git ---- */

/* The commit id ref names in tree, into id. */
static int rev_parse(const char *tree, const char *ref, struct strbuf *id, struct strbuf *err)
{
	struct strbuf arg = STRBUF_INIT;
	const char *args[] = { "rev-parse", "--verify", "--quiet", "--end-of-options", NULL, NULL };
	int rc;

	strbuf_addf(&arg, "%s^{commit}", ref);
	args[4] = arg.buf;
	rc = git_output(tree, args, GIT_TIMEOUT_S, id, err);
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
	const char *args[] = { "merge-base", "--is-ancestor", a, b, NULL };
	struct git_cmd g = GIT_CMD_INIT;
	struct strbuf why = STRBUF_INIT;
	int rc;

	g.tree = tree;
	g.timeout_s = GIT_TIMEOUT_S;
	if (!git_run(&g, args, &why)) {
		rc = 1;
	} else if (g.end == CHILD_EXITED && WIFEXITED(g.status) && WEXITSTATUS(g.status) == 1) {
		rc = 0;		/* exit 1: not an ancestor */
	} else {
		rc = -1;
		strbuf_addstr(err, g.end < 0 ? why.buf : "git merge-base --is-ancestor failed");
	}
	strbuf_release(&why);
	git_cmd_release(&g);
	return rc;
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
	if (git_output(b->tree, one, GIT_TIMEOUT_S, &out, err) ||
	    git_output(b->tree, log_args, GIT_TIMEOUT_S, &out, err))
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

/* ---- starting and resuming ---- */

/* What a bisection would do: its commits, its first steps. */
static void dry_run(const struct bisect_ctx *b)
{
	char g[16], bb[16], id[16];
	long next = bisect_walk_next(&b->walk);

	bisect_short_id(bisect_ctx_commit(b, -1)->id, g, sizeof(g));
	bisect_short_id(bisect_ctx_commit(b, (long)b->walk.n - 1)->id, bb, sizeof(bb));
	printf("%zu commit%s after %s (good) up to %s (bad), on its first-parent line:\n",
	       b->walk.n, b->walk.n == 1 ? "" : "s", g, bb);
	for (size_t i = 0; i < b->walk.n; i++) {
		const struct bcommit *c = bisect_ctx_commit(b, (long)i);

		bisect_short_id(c->id, id, sizeof(id));
		printf("  %s %s%s%s\n", id, c->subject, c->parents > 1 ? " (a merge)" : "",
		       i + 1 == b->walk.n ? " (the bad end)" : "");
	}
	printf("Step 0 runs the good end against the bad end, %d to %d rounds", b->set.rounds,
	       b->set.max_rounds);
	if (next >= 0) {
		bisect_short_id(bisect_ctx_commit(b, next)->id, id, sizeof(id));
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

int bisect_options_check(struct bisect_options *o, struct strbuf *err)
{
	struct seq_design d;
	struct strbuf why = STRBUF_INIT;
	int rc = -1;

	if (!(o->threshold_pct >= 0) || o->threshold_pct >= 100) {
		strbuf_addf(err, "--threshold must be a percentage from 0 to 100, not %g",
			    o->threshold_pct);
		return -1;
	}
	if (!o->max_rounds)
		o->max_rounds = o->rounds > BISECT_DEFAULT_MAX_ROUNDS ? o->rounds :
				BISECT_DEFAULT_MAX_ROUNDS;
	if (o->max_rounds < o->rounds) {
		strbuf_addf(err, "--max-rounds %d is fewer than --rounds %d", o->max_rounds,
			    o->rounds);
		return -1;
	}
	if (seq_design_init(&d, o->rounds, o->max_rounds, o->rounds, BISECT_ALPHA, &why))
		strbuf_addf(err, "--rounds %d and --max-rounds %d: %s", o->rounds, o->max_rounds,
			    why.buf);
	else
		rc = 0;
	strbuf_release(&why);
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

		if (git_output(b.tree, args, GIT_TIMEOUT_S, &good, &err)) {
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
	bisect_short_id(good.buf, g, sizeof(g));
	bisect_short_id(bad.buf, bb, sizeof(bb));
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
	rc = bisect_run_steps(&b);
out:
	free(cs);
	bisect_ctx_release(&b);
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
	bisect_ctx_elapsed(&b, &out);
	notice("bisect @%lld resumed: %d step%s finished, %zu commit%s left to test, roughly %d "
	       "step%s [%s elapsed]", (long long)id, rp.done, rp.done == 1 ? "" : "s",
	       bisect_walk_untested(&b.walk), bisect_walk_untested(&b.walk) == 1 ? "" : "s",
	       bisect_walk_steps_left(&b.walk), bisect_walk_steps_left(&b.walk) == 1 ? "" : "s",
	       out.buf);
	rc = bisect_run_steps(&b);
out:
	bisect_info_release(&x);
	bisect_ctx_release(&b);
	strbuf_release(&err);
	strbuf_release(&out);
	return rc;
}
