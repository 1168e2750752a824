/* experiment_resume: a stored experiment read back to resume it (kbench
 * ab --resume): its configs' text, arms, design and what was asked of
 * every arm as its runs stored them, checked against what the store
 * holds (experiment_load_stored of experiment/experiment.h). */
#include "config.h"
#include "experiment/experiment.h"
#include "db/experiment.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "runner/effective.h"
#include "experiment/experiment_stored.h"
#include "kernel/kbuild.h"
#include "runner/record.h"
#include "kernel/vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a stored experiment, to resume ---- */

struct stored_runs {
	int64_t *id;
	char **arm;
	size_t n, alloc, arm_alloc;
};

static int add_stored(const struct experiment_run *r, void *arg)
{
	struct stored_runs *sr = arg;

	ALLOC_GROW(sr->id, sr->n + 1, sr->alloc);
	ALLOC_GROW(sr->arm, sr->n + 1, sr->arm_alloc);
	sr->id[sr->n] = r->run_id;
	sr->arm[sr->n++] = xstrdup(r->arm ? r->arm : "");
	return 0;
}

/* What was asked of every arm, from an arm run's facts. */
struct asked {
	char **overrides;
	size_t n, alloc;
	char *only;
	char *watch;
	char *arms, *guest;	/* experiment-arms, experiment-guest */
	int iterations;
};

static int read_asked(const char *section, const char *key, const char *value, void *arg)
{
	struct asked *as = arg;

	if (*section || !value)
		return 0;
	if (!strcmp(key, "experiment-override")) {
		ALLOC_GROW(as->overrides, as->n + 1, as->alloc);
		as->overrides[as->n++] = xstrdup(value);
	} else if (!strcmp(key, "experiment-only")) {
		free(as->only);
		as->only = xstrdup(value);
	} else if (!strcmp(key, "experiment-watch")) {
		free(as->watch);
		as->watch = xstrdup(value);
	} else if (!strcmp(key, "experiment-iterations")) {
		as->iterations = atoi(value);
	} else if (!strcmp(key, "experiment-arms") || !strcmp(key, "experiment-guest")) {
		char **slot = !strcmp(key, "experiment-arms") ? &as->arms : &as->guest;

		free(*slot);
		*slot = xstrdup(value);
	}
	return 0;
}

/* Whether arm a's plan has the options its run was measured with; the
 * differences into why when not. Return 1, 0, or -1 after an error. */
static int same_options(struct store *s, const struct arm *a, struct strbuf *why)
{
	struct effective want = EFFECTIVE_INIT, have = EFFECTIVE_INIT;
	int same = -1;

	if (effective_from_run(s, a->run_id, &have))
		goto out;
	effective_from_plan(&a->plan, &want);
	same = effective_equal(&have, &want);
	if (!same)
		effective_diff(&have, &want, why);
out:
	effective_release(&want);
	effective_release(&have);
	return same;
}

/* The kernel-commit and kernel-config-hash facts of a run. */
struct built_facts {
	char *commit, *config_hash;
};

static int read_built(const char *section, const char *key, const char *value, void *arg)
{
	struct built_facts *b = arg;
	char **slot = !strcmp(key, "kernel-commit") ? &b->commit :
		      !strcmp(key, "kernel-config-hash") ? &b->config_hash : NULL;

	if (!*section && value && slot) {
		free(*slot);
		*slot = xstrdup(value);
	}
	return 0;
}

/* Whether arm a, built from a tree, builds the kernel its run was
 * measured on: the same commit (its ref may have moved since) and
 * config; why not into why. An arm not built from a tree, or a run
 * without the facts, is the same. Return 1, 0, or -1 after an error. */
static int same_commit(struct store *s, const struct arm *a, struct strbuf *why)
{
	struct built_facts had = { NULL, NULL };
	int same = 1;

	if (!a->built)
		return 1;
	if (store_each_meta(s, a->run_id, read_built, &had))
		return -1;
	if (had.commit && strcmp(had.commit, a->built->commit)) {
		strbuf_addf(why, "its ref '%s' is now %.12s (%s), its run was measured on %.12s",
			    a->build->ref, a->built->commit, a->built->describe, had.commit);
		same = 0;
	} else if (had.config_hash && strcmp(had.config_hash, a->built->config_hash)) {
		strbuf_addf(why, "its config is now %s (%s), its run's was %s",
			    a->built->config_hash, a->built->config_desc, had.config_hash);
		same = 0;
	}
	free(had.commit);
	free(had.config_hash);
	return same;
}

/* Why e's runs cannot go on here, into why: another machine than any
 * run's (ri, one of them), or another kernel than a run of an arm that
 * runs on this machine's kernel (a kernel arm's runs hold its guest's,
 * booted again for each round). Return 0, or -1 after an error. */
static int other_system(const struct experiment *e, struct store *s,
			const struct run_info *ri, struct strbuf *why)
{
	for (size_t i = 0; i < e->narms; i++) {
		struct run_info own = { .id = 0 };
		int rc;

		if (e->arms[i].vm || !e->arms[i].run_id)
			continue;
		if (store_get_run(s, e->arms[i].run_id, &own))
			return -1;
		rc = record_other_system(&own, 1, why);
		run_info_release(&own);
		return rc;
	}
	return record_other_system(ri, 0, why);
}

/* Each arm of e with a run: complete (nothing left), or to resume on
 * the commit and with the options its run had (else refused, unless
 * force). Return 0, or -1 after saying why. */
static int check_arms(struct experiment *e, struct store *s, int force)
{
	struct strbuf why = STRBUF_INIT;
	int same;

	for (size_t i = 0; i < e->narms; i++) {
		struct arm *a = &e->arms[i];
		struct run_info own = { .id = 0 };

		if (!a->run_id)
			continue;
		/* An arm whose last round completed before the stop has
		 * nothing left: its run is complete and stays so. */
		if (store_get_run(s, a->run_id, &own))
			goto fail;
		a->done = !strcmp(own.status, "complete");
		run_info_release(&own);
		if (a->done) {
			notice("arm %s: run @%lld is complete; only the other arms run", a->name,
			       (long long)a->run_id);
			continue;
		}
		strbuf_reset(&why);
		if ((same = same_commit(s, a, &why)) < 0)
			goto fail;
		if (!same && !force) {
			error("arm %s would not run the kernel run @%lld ran (--force resumes it "
			      "anyway): %s", a->name, (long long)a->run_id, why.buf);
			goto fail;
		}
		if (!same)
			warning("resuming arm %s on another commit: %s", a->name, why.buf);
		strbuf_reset(&why);
		if ((same = same_options(s, a, &why)) < 0)
			goto fail;
		if (!same && !force) {
			error("arm %s would not run as run @%lld did (--force resumes it anyway):\n%s",
			      a->name, (long long)a->run_id, why.buf);
			goto fail;
		}
		if (!same)
			warning("resuming arm %s with options that differ from run @%lld's",
				a->name, (long long)a->run_id);
	}
	strbuf_release(&why);
	return 0;
fail:
	strbuf_release(&why);
	return -1;
}

int experiment_load_stored(struct experiment *e, struct store *s, int64_t id, int force,
			   const struct kbuild_request *build)
{
	struct experiment_info x;
	struct stored_runs sr = { .id = NULL };
	struct asked as = { .overrides = NULL };
	struct run_info ri = { .id = 0 };
	struct experiment_options o = { .name = NULL };
	struct strbuf why = STRBUF_INIT, arms = STRBUF_INIT;
	struct vm_config guest;
	char *guest_buf = NULL;
	int rc = -1;

	memset(e, 0, sizeof(*e));
	if ((rc = store_get_experiment(s, id, &x))) {
		if (rc > 0)
			error("no experiment @%lld in the store", (long long)id);
		return -1;
	}
	rc = -1;
	if (!strcmp(x.status, "complete")) {
		notice("experiment @%lld '%s' is complete: nothing to resume", (long long)id, x.name);
		rc = 1;
		goto out;
	}
	if (!strcmp(x.status, "running")) {
		error("experiment @%lld '%s' is still running", (long long)id, x.name);
		goto out;
	}
	if (store_each_experiment_run(s, x.uuid, add_stored, &sr) < 0)
		goto out;
	if (!sr.n) {
		error("experiment @%lld '%s' stopped before any run: there is nothing to resume; "
		      "start it again with kbench ab -c", (long long)id, x.name);
		goto out;
	}
	if (store_get_run(s, sr.id[0], &ri))
		goto out;
	if (store_each_meta(s, sr.id[0], read_asked, &as))
		goto out;
	o.config_text = ri.config_text;
	o.config_origin = x.config_name;
	o.overrides = as.overrides;
	o.noverrides = as.n;
	o.only = as.only;
	o.iterations = as.iterations;
	o.name = x.name;
	o.build = build;
	o.rounds = x.rounds;
	o.design = x.design;
	o.watch = as.watch;
	o.order = x.arm_order;
	o.seed = x.seed;
	o.has_seed = x.has_seed;
	/* What it ran: its arms, their files absolute, and the guest's
	 * options of the command line (kbench vm's); a store of an older
	 * kbench has the configs' arms only. */
	if (as.arms) {
		o.extra = as.arms;
		o.extra_name = "the experiment's stored arms";
		o.arms_stored = 1;
	}
	if (as.guest && experiment_parse_guest(as.guest, &guest, &guest_buf))
		goto out;
	if (as.guest)
		o.vm = &guest;
	if (experiment_load(e, &o))
		goto out;
	e->guest_buf = guest_buf;
	guest_buf = NULL;
	for (size_t i = 0; i < e->narms; i++)
		strbuf_addf(&arms, "%s%s", i ? " " : "", e->arms[i].name);
	if (strcmp(arms.buf, x.arms)) {
		error("experiment @%lld has the arms %s, its config now %s", (long long)id, x.arms,
		      arms.buf);
		goto out;
	}
	for (size_t r = 0; r < sr.n; r++)
		for (size_t i = 0; i < e->narms; i++)
			if (!strcmp(e->arms[i].name, sr.arm[r]))
				e->arms[i].run_id = sr.id[r];
	if (other_system(e, s, &ri, &why))
		goto out;
	if (why.len && !force) {
		error("experiment @%lld cannot be resumed here: %s (--force resumes it anyway)",
		      (long long)id, why.buf);
		goto out;
	}
	if (why.len)
		warning("resuming experiment @%lld although %s", (long long)id, why.buf);
	if (check_arms(e, s, force))
		goto out;
	e->id = id;
	snprintf(e->uuid, sizeof(e->uuid), "%s", x.uuid);
	e->resumed = 1;
	rc = 0;
out:
	if (rc < 0)
		experiment_release(e);
	experiment_info_release(&x);
	run_info_release(&ri);
	for (size_t i = 0; i < sr.n; i++)
		free(sr.arm[i]);
	free(sr.arm);
	free(sr.id);
	for (size_t i = 0; i < as.n; i++)
		free(as.overrides[i]);
	free(as.overrides);
	free(as.only);
	free(as.watch);
	free(as.arms);
	free(as.guest);
	free(guest_buf);
	strbuf_release(&why);
	strbuf_release(&arms);
	return rc;
}
