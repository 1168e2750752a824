/* experiment: kbench ab's arms, their rounds and their knobs. Each arm's
 * plan is an ordinary plan (runner/plan.c) run one round at a time by the
 * ordinary runner into the arm's run; between rounds this file switches
 * the arms' changes in and out. The knobs' original values are in the
 * store before the first write (runner/knob.c, db/experiment.c). A kernel
 * arm's round runs in a guest booted for it (runner/vm.c), powered off
 * after the round. */
#include "config.h"
#include "runner/experiment.h"
#include "db/experiment.h"
#include "db/store.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/uuid.h"
#include "lib/xalloc.h"
#include "machine/hostlock.h"
#include "machine/sysinfo.h"
#include "runner/dryrun.h"
#include "runner/effective.h"
#include "runner/knob.h"
#include "runner/record.h"
#include "runner/stop.h"
#include "runner/runner.h"
#include "runner/vm.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t ab_stop;

static void on_signal(int sig)
{
	ab_stop = sig;
}

/* ---- reading the design ---- */

static int is_arm_section(const char *name)
{
	return !strncmp(name, "arm:", 4);
}

static int valid_arm_name(const char *name)
{
	if (!*name || strlen(name) > 32)
		return 0;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.-+", *p))
			return 0;
	return 1;
}

static int parse_int(const char *text, int lo, int hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_order(const char *text, const char *where, enum arm_order *out)
{
	if (!strcmp(text, "abba"))
		*out = ARM_ORDER_ABBA;
	else if (!strcmp(text, "shuffle"))
		*out = ARM_ORDER_SHUFFLE;
	else
		return error("%s: order = '%s': expected abba or shuffle", where, text);
	return 0;
}

static int parse_seed(const char *text, const char *where, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || end == text || *end || *text == '-')
		return error("%s: seed = '%s': expected an integer from 0 to "
			     "18446744073709551615", where, text);
	*out = (uint64_t)v;
	return 0;
}

/* [experiment]: rounds, order, seed. */
static int read_design(struct experiment *e, const struct conf_section *cs)
{
	for (size_t i = 0; i < cs->n; i++) {
		const struct conf_entry *c = &cs->entries[i];

		if (!strcmp(c->key, "rounds")) {
			if (parse_int(c->value, 1, EXPERIMENT_MAX_ROUNDS, &e->rounds))
				return error("%s: rounds = '%s' in [experiment]: expected an "
					     "integer from 1 to %d", c->where, c->value,
					     EXPERIMENT_MAX_ROUNDS);
		} else if (!strcmp(c->key, "order")) {
			if (parse_order(c->value, c->where, &e->order))
				return -1;
		} else if (!strcmp(c->key, "seed")) {
			if (parse_seed(c->value, c->where, &e->seed))
				return -1;
			e->has_seed = 1;
		} else {
			return error("%s: unknown key '%s' in [experiment] (it takes rounds, "
				     "order, seed)", c->where, c->key);
		}
	}
	return 0;
}

static int valid_env_name(const char *name)
{
	if (!*name || isdigit((unsigned char)*name))
		return 0;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return 1;
}

/* A key of a kernel built from a tree (tree, ref, kconfig, fragment)
 * into a->build, made from defaults (NULL: none) at its first key. */
static void read_build_key(struct arm *a, const struct conf_entry *c,
			   const struct kbuild_request *defaults)
{
	if (!a->build) {
		a->build = xcalloc(1, sizeof(*a->build));
		if (defaults) {
			*a->build = *defaults;
			a->build->tree = a->build->ref = NULL;
			for (size_t i = 0; i < defaults->nfragments; i++) {
				ALLOC_GROW(a->fragments, a->nfragments + 1, a->fragments_alloc);
				a->fragments[a->nfragments++] = defaults->fragments[i];
			}
		}
	}
	if (!strcmp(c->key, "tree")) {
		a->build->tree = c->value;
	} else if (!strcmp(c->key, "ref")) {
		a->build->ref = c->value;
	} else if (!strcmp(c->key, "kconfig")) {
		a->build->kconfig = c->value;
	} else {
		ALLOC_GROW(a->fragments, a->nfragments + 1, a->fragments_alloc);
		a->fragments[a->nfragments++] = c->value;
	}
	a->build->fragments = a->fragments;
	a->build->nfragments = a->nfragments;
}

/* A key of a kernel arm (kernel, append, initrd, modules, modprobe, vcpus,
 * memory; or of a kernel built from a tree: tree, ref, kconfig, fragment)
 * into a->vm, made from defaults (NULL: VM_CONFIG_INIT) at its first key.
 * Return 1 when key is not one, 0 when taken, -1 after an error. */
static int read_vm_key(struct arm *a, const struct conf_entry *c,
		       const struct vm_config *defaults, const struct kbuild_request *build)
{
	static const struct vm_config init = VM_CONFIG_INIT;
	int v;

	if (strcmp(c->key, "kernel") && strcmp(c->key, "append") && strcmp(c->key, "initrd") &&
	    strcmp(c->key, "modules") && strcmp(c->key, "modprobe") &&
	    strcmp(c->key, "vcpus") && strcmp(c->key, "memory") && strcmp(c->key, "tree") &&
	    strcmp(c->key, "ref") && strcmp(c->key, "kconfig") && strcmp(c->key, "fragment"))
		return 1;
	if (!a->vm) {
		a->vm = xmalloc(sizeof(*a->vm));
		*a->vm = defaults ? *defaults : init;
		a->vm->kernel = NULL;
		a->vm->facts = NULL;
	}
	if (!strcmp(c->key, "tree") || !strcmp(c->key, "ref") || !strcmp(c->key, "kconfig") ||
	    !strcmp(c->key, "fragment")) {
		if (!*c->value)
			return error("%s: %s in [%s] has no value", c->where, c->key, a->cs->name);
		read_build_key(a, c, build);
	} else if (!strcmp(c->key, "kernel") || !strcmp(c->key, "initrd")) {
		if (!*c->value)
			return error("%s: %s in [%s] has no value", c->where, c->key, a->cs->name);
		*(!strcmp(c->key, "kernel") ? &a->vm->kernel : &a->vm->initrd) = c->value;
	} else if (!strcmp(c->key, "modules") || !strcmp(c->key, "modprobe")) {
		if (!*c->value)
			return error("%s: %s in [%s] has no value", c->where, c->key, a->cs->name);
		*(!strcmp(c->key, "modules") ? &a->vm->modules_dir : &a->vm->modprobe) = c->value;
	} else if (!strcmp(c->key, "append")) {
		a->vm->append = *c->value ? c->value : NULL;
	} else if (!strcmp(c->key, "vcpus")) {
		if (parse_int(c->value, 1, 288, &v))
			return error("%s: vcpus = '%s' in [%s]: expected an integer from 1 to 288",
				     c->where, c->value, a->cs->name);
		a->vm->vcpus = v;
	} else {
		if (parse_int(c->value, 64, 1 << 22, &v))
			return error("%s: memory = '%s' in [%s]: expected MiB, an integer from 64 "
				     "to %d", c->where, c->value, a->cs->name, 1 << 22);
		a->vm->mem_mib = v;
	}
	return 0;
}

/* The facts of a->built into a->build_facts, and its image as a's
 * kernel. */
static void set_built(struct arm *a)
{
	kbuild_facts(a->built, a->build_facts);
	a->build_facts[2 * KBUILD_NFACTS] = NULL;
	a->vm->kernel = a->built->image;
	a->vm->facts = a->build_facts;
}

/* An arm built from a tree needs both tree and ref, and no image; the
 * commit is resolved now (not built: experiment_run builds it). Return
 * 0, or -1 after saying why. */
static int check_built_arm(struct arm *a, const struct conf_entry *kernel)
{
	const struct conf_entry *tree = conf_section_get(a->cs, "tree");
	const struct conf_entry *ref = conf_section_get(a->cs, "ref");
	const struct conf_entry *any = tree ? tree : ref ? ref :
				       conf_section_get(a->cs, "kconfig") ?
				       conf_section_get(a->cs, "kconfig") :
				       conf_section_get(a->cs, "fragment");
	struct strbuf why = STRBUF_INIT;

	if (kernel)
		return error("%s: %s in [%s]: an arm boots the image of kernel = IMAGE or one "
			     "built from tree = DIR, not both", any->where, any->key, a->cs->name);
	if (!tree || !ref)
		return error("%s: %s in [%s] builds the arm's kernel from a git tree, which needs "
			     "%s", any->where, any->key, a->cs->name,
			     !tree && !ref ? "tree = DIR and ref = COMMIT" :
			     !tree ? "tree = DIR" : "ref = COMMIT");
	a->built = xcalloc(1, sizeof(*a->built));
	if (kbuild_resolve(a->build, a->built, &why)) {
		error("%s: [%s]: %s", tree->where, a->cs->name, why.buf);
		strbuf_release(&why);
		return -1;
	}
	set_built(a);
	return 0;
}

/* A kernel arm runs in a guest booted afresh for each round: what
 * changes this machine (its knobs, kbench's environment, a command
 * prefix) does not reach it; its kernel must be an image kbench vm
 * boots, or one built from a tree. Return 0, or -1 after saying which
 * key. */
static int check_kernel_arm(struct arm *a, int images_later)
{
	const struct conf_entry *kernel = conf_section_get(a->cs, "kernel");
	struct strbuf why = STRBUF_INIT;

	for (size_t i = 0; i < a->cs->n; i++) {
		const struct conf_entry *c = &a->cs->entries[i];

		if (!kernel && !a->build)
			return error("%s: %s in [%s] sets the guest of a kernel arm, which needs "
				     "kernel = IMAGE (or tree = DIR and ref = COMMIT)", c->where,
				     c->key, a->cs->name);
		if (knob_key(c->key) || !strncmp(c->key, "env.", 4) || !strcmp(c->key, "prefix"))
			return error("%s: %s in [%s]: a kernel arm runs in a guest booted for "
				     "each round, which this machine's %s does not reach; give "
				     "it on the guest's command line (append = ...)", c->where,
				     c->key, a->cs->name, knob_key(c->key) ? "knobs" :
				     !strcmp(c->key, "prefix") ? "command prefix" : "environment");
	}
	if (a->build)
		return check_built_arm(a, kernel);
	/* Its image is checked now, not when its first round boots. */
	if (kernel && !images_later && vm_check_kernel(kernel->value, &why)) {
		error("%s: kernel in [%s]: %s", kernel->where, a->cs->name, why.buf);
		strbuf_release(&why);
		return -1;
	}
	return 0;
}

/* The keys of [arm:NAME] into a; vm: what a kernel arm's guest starts
 * from (NULL: VM_CONFIG_INIT). */
static int read_arm(struct experiment *e, struct arm *a, const struct vm_config *vm,
		    const struct kbuild_request *build, int images_later)
{
	for (size_t i = 0; i < a->cs->n; i++) {
		const struct conf_entry *c = &a->cs->entries[i];
		struct arm_key *k;
		int taken;

		if (strchr(c->value, '\n') || strchr(c->value, '\r'))
			return error("%s: %s in [%s]: a value is one line", c->where, c->key,
				     a->cs->name);
		ALLOC_GROW(a->keys, a->nkeys + 1, a->keys_alloc);
		k = &a->keys[a->nkeys++];
		*k = (struct arm_key){ .key = c->key, .value = c->value };
		taken = read_vm_key(a, c, vm, build);
		if (taken < 0)
			return -1;
		if (!taken) {
			continue;
		} else if (knob_key(c->key)) {
			size_t *idx, n;

			if (!*c->value)
				return error("%s: %s in [%s] has no value", c->where, c->key,
					     a->cs->name);
			if (knob_expand(c->key, c->where, &e->files, &idx, &n))
				return -1;
			for (size_t j = 0; j < n; j++) {
				size_t at;

				/* The last key naming a file wins, as in configs. */
				for (at = 0; at < a->nknobs && a->knobs[at].file != idx[j]; at++)
					;
				if (at == a->nknobs) {
					ALLOC_GROW(a->knobs, a->nknobs + 1, a->knobs_alloc);
					a->nknobs++;
				}
				a->knobs[at] = (struct arm_knob){ .file = idx[j], .value = c->value };
			}
			k->nfiles = n;
			free(idx);
		} else if (!strncmp(c->key, "option.", 7) && c->key[7]) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "%s=%s", c->key + 7, c->value);
			ALLOC_GROW(a->overrides, a->noverrides + 1, a->overrides_alloc);
			a->overrides[a->noverrides++] = strbuf_detach(&sb);
		} else if (!strncmp(c->key, "env.", 4)) {
			struct strbuf sb = STRBUF_INIT;

			if (!valid_env_name(c->key + 4))
				return error("%s: '%s' in [%s]: an environment variable's name is "
					     "letters, digits and '_'", c->where, c->key,
					     a->cs->name);
			strbuf_addf(&sb, "%s=%s", c->key + 4, c->value);
			ALLOC_GROW(a->env, a->nenv + 1, a->env_alloc);
			a->env[a->nenv++] = strbuf_detach(&sb);
		} else if (!strcmp(c->key, "prefix")) {
			a->prefix = *c->value ? c->value : NULL;
		} else if (strcmp(c->key, "description")) {
			return error("%s: unknown key '%s' in [%s] (an arm takes sysctl.NAME, "
				     "sysfs.PATH, option.KEY, env.NAME, prefix, description, "
				     "or a kernel's: kernel, append, initrd, modules, modprobe, vcpus, memory, "
				     "tree, ref, kconfig, fragment)",
				     c->where, c->key, a->cs->name);
		}
	}
	return a->vm ? check_kernel_arm(a, images_later) : 0;
}

/* The sections of c an arm runs: every one but [experiment] and the
 * arms, and of those the ones only matches. */
static char *section_pattern(const char *only)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "^(?!arm:|experiment$)");
	if (only)
		strbuf_addf(&sb, ".*?(?:%s)", only);
	return strbuf_detach(&sb);
}

/* The configs of o into c: its files, or the text a run stored. */
static int load_configs(struct config *c, const struct experiment_options *o)
{
	if (o->config_text)
		return config_load_string(c, o->config_origin, o->config_text);
	for (size_t i = 0; i < o->nconfigs; i++)
		if (config_load(c, o->configs[i]))
			return -1;
	return 0;
}

/* Arm a's configs: the files again, with its options, its prefix on the
 * external workloads' commands, the -o given, and the design's rounds. */
static int arm_config(struct experiment *e, struct arm *a, const struct experiment_options *o)
{
	struct strbuf sb = STRBUF_INIT;
	char *pattern = NULL;
	int rc = -1;

	/* a->conf was initialised with the arm, so that it is released
	 * whatever fails. */
	if (load_configs(&a->conf, o))
		goto out;
	for (size_t i = 0; i < a->noverrides; i++)
		if (config_add_override(&a->conf, a->overrides[i]))
			goto out;
	for (size_t i = 0; a->prefix && i < e->conf.n; i++) {
		const struct conf_section *cs = &e->conf.sections[i];
		const struct conf_entry *w = conf_section_get(cs, "workload");
		const struct conf_entry *cmd = conf_section_get(cs, "command");

		if (is_arm_section(cs->name) || !w || strcmp(w->value, "external") || !cmd)
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s.command=%s %s", cs->name, a->prefix, cmd->value);
		if (config_add_override(&a->conf, sb.buf))
			goto out;
	}
	for (size_t i = 0; i < o->noverrides; i++)
		if (config_add_override(&a->conf, o->overrides[i]))
			goto out;
	strbuf_reset(&sb);
	strbuf_addf(&sb, "rounds=%d", e->rounds);
	if (config_add_override(&a->conf, sb.buf))
		goto out;
	if (o->iterations) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "iterations=%d", o->iterations);
		if (config_add_override(&a->conf, sb.buf))
			goto out;
	}
	pattern = section_pattern(o->only);
	if (a->vm) {
		struct pin_topo *topo = NULL;

		/* Pin policies are computed on the guest's topology: a row
		 * the guest cannot honour is refused before any boot. */
		strbuf_reset(&sb);
		if (vm_guest_topology(a->vm, &topo, &sb)) {
			error("arm %s: %s", a->name, sb.buf);
			goto out;
		}
		if (plan_build_on(&a->conf, pattern, topo, &a->plan) ||
		    vm_plan_for_guest(&a->plan))
			goto out;
	} else if (plan_build(&a->conf, pattern, &a->plan)) {
		goto out;
	}
	rc = 0;
out:
	free(pattern);
	strbuf_release(&sb);
	return rc;
}

int experiment_load(struct experiment *e, const struct experiment_options *o)
{
	const struct conf_section *design = NULL;
	struct strbuf sb = STRBUF_INIT;
	int rc = -1;

	memset(e, 0, sizeof(*e));
	config_init(&e->conf);
	e->rounds = EXPERIMENT_DEFAULT_ROUNDS;
	e->overrides = xcalloc(o->noverrides + 1, sizeof(*e->overrides));
	for (size_t i = 0; i < o->noverrides; i++)
		e->overrides[i] = xstrdup(o->overrides[i]);
	e->noverrides = o->noverrides;
	e->only = o->only ? xstrdup(o->only) : NULL;
	e->iterations = o->iterations;
	if (load_configs(&e->conf, o))
		goto out;
	if (o->extra) {
		size_t len = e->conf.name.len;

		if (config_load_string(&e->conf, o->extra_name ? o->extra_name : "arms",
				       o->extra))
			goto out;
		/* The configs name the experiment, not the arms given. */
		e->conf.name.len = len;
		e->conf.name.buf[len] = '\0';
	}
	for (size_t i = 0; i < e->conf.n; i++) {
		const struct conf_section *cs = &e->conf.sections[i];

		if (!strcmp(cs->name, "experiment")) {
			design = cs;
			continue;
		}
		if (!is_arm_section(cs->name))
			continue;
		if (!valid_arm_name(cs->name + 4)) {
			error("%s:%d: invalid arm name '%s': 1 to 32 letters, digits, '_', '.', "
			      "'-', '+'", cs->file, cs->line, cs->name + 4);
			goto out;
		}
		if (e->narms == EXPERIMENT_MAX_ARMS) {
			error("%s:%d: more than %d arms", cs->file, cs->line, EXPERIMENT_MAX_ARMS);
			goto out;
		}
		e->arms = xrealloc(e->arms, (e->narms + 1) * sizeof(*e->arms));
		memset(&e->arms[e->narms], 0, sizeof(*e->arms));
		e->arms[e->narms].name = xstrdup(cs->name + 4);
		e->arms[e->narms].cs = cs;
		config_init(&e->arms[e->narms].conf);
		e->narms++;
	}
	if (e->narms < 2) {
		error("%s: an experiment needs two arms or more, [arm:NAME] sections (it has %zu); "
		      "see kbench.conf(5)", e->conf.nfiles ? e->conf.files[0] : "config", e->narms);
		goto out;
	}
	if (design && read_design(e, design))
		goto out;
	if (o->rounds)
		e->rounds = o->rounds;
	if (o->order && parse_order(o->order, "--order", &e->order))
		goto out;
	if (o->seed) {
		if (parse_seed(o->seed, "--seed", &e->seed))
			goto out;
		e->has_seed = 1;
	}
	if (e->order == ARM_ORDER_SHUFFLE && !e->has_seed) {
		if (getrandom(&e->seed, sizeof(e->seed), 0) != (ssize_t)sizeof(e->seed))
			e->seed = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ULL;
		e->has_seed = 1;
	}
	if (e->order == ARM_ORDER_ABBA)
		e->has_seed = 0;
	for (size_t i = 0; i < e->narms; i++)
		if (read_arm(e, &e->arms[i], o->vm, o->build, o->images_later))
			goto out;
	e->name = xstrdup(o->name ? o->name : e->conf.name.buf);
	for (size_t i = 0; i < e->narms; i++) {
		struct arm *a = &e->arms[i];

		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s", e->name, a->name);
		a->run_name = strbuf_detach(&sb);
		if (arm_config(e, a, o))
			goto out;
	}
	rc = 0;
out:
	strbuf_release(&sb);
	return rc;
}

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
	} else if (!strcmp(key, "experiment-iterations")) {
		as->iterations = atoi(value);
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

int experiment_load_stored(struct experiment *e, struct store *s, int64_t id, int force,
			   const struct kbuild_request *build)
{
	struct experiment_info x;
	struct stored_runs sr = { .id = NULL };
	struct asked as = { .overrides = NULL };
	struct run_info ri = { .id = 0 };
	struct experiment_options o = { .name = NULL };
	struct strbuf why = STRBUF_INIT, seed = STRBUF_INIT, arms = STRBUF_INIT;
	int rc = -1, same;

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
	o.order = x.arm_order;
	if (x.has_seed) {
		strbuf_addf(&seed, "%llu", (unsigned long long)x.seed);
		o.seed = seed.buf;
	}
	if (experiment_load(e, &o))
		goto out;
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
	for (size_t i = 0; i < e->narms; i++) {
		struct arm *a = &e->arms[i];

		struct run_info own = { .id = 0 };

		if (!a->run_id)
			continue;
		/* An arm whose last round completed before the stop has
		 * nothing left: its run is complete and stays so. */
		if (store_get_run(s, a->run_id, &own))
			goto out;
		a->done = !strcmp(own.status, "complete");
		run_info_release(&own);
		if (a->done) {
			notice("arm %s: run @%lld is complete; only the other arms run", a->name,
			       (long long)a->run_id);
			continue;
		}
		strbuf_reset(&why);
		if ((same = same_commit(s, a, &why)) < 0)
			goto out;
		if (!same && !force) {
			error("arm %s would not run the kernel run @%lld ran (--force resumes it "
			      "anyway): %s", a->name, (long long)a->run_id, why.buf);
			goto out;
		}
		if (!same)
			warning("resuming arm %s on another commit: %s", a->name, why.buf);
		strbuf_reset(&why);
		if ((same = same_options(s, a, &why)) < 0)
			goto out;
		if (!same && !force) {
			error("arm %s would not run as run @%lld did (--force resumes it anyway):\n%s",
			      a->name, (long long)a->run_id, why.buf);
			goto out;
		}
		if (!same)
			warning("resuming arm %s with options that differ from run @%lld's",
				a->name, (long long)a->run_id);
	}
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
	strbuf_release(&why);
	strbuf_release(&seed);
	strbuf_release(&arms);
	return rc;
}

void experiment_release(struct experiment *e)
{
	for (size_t i = 0; i < e->narms; i++) {
		struct arm *a = &e->arms[i];

		free(a->name);
		free(a->vm);
		free(a->build);
		free(a->fragments);
		kbuild_result_release(a->built);
		free(a->built);
		free(a->knobs);
		free(a->keys);
		for (size_t j = 0; j < a->noverrides; j++)
			free(a->overrides[j]);
		free(a->overrides);
		for (size_t j = 0; j < a->nenv; j++)
			free(a->env[j]);
		free(a->env);
		plan_release(&a->plan);
		config_release(&a->conf);
		free(a->run_name);
	}
	free(e->arms);
	for (size_t i = 0; i < e->noverrides; i++)
		free(e->overrides[i]);
	free(e->overrides);
	free(e->only);
	knob_files_release(&e->files);
	config_release(&e->conf);
	free(e->name);
	memset(e, 0, sizeof(*e));
}

void experiment_round_order(const struct experiment *e, int round, size_t *order)
{
	uint64_t state;

	for (size_t i = 0; i < e->narms; i++)
		order[i] = round % 2 || e->order != ARM_ORDER_ABBA ? i : e->narms - 1 - i;
	if (e->order != ARM_ORDER_SHUFFLE)
		return;
	state = e->seed ^ ((uint64_t)round * 0xd1b54a32d192ed03ULL);
	for (size_t i = e->narms - 1; i > 0; i--) {
		size_t j = (size_t)(plan_splitmix64(&state) % (i + 1)), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}

static const char *order_name(enum arm_order o)
{
	return o == ARM_ORDER_SHUFFLE ? "shuffle" : "abba";
}

/* The setting arm a gives file f: its own value, else the original. */
static const char *arm_value(const struct experiment *e, const struct arm *a, size_t f)
{
	for (size_t i = 0; i < a->nknobs; i++)
		if (a->knobs[i].file == f)
			return a->knobs[i].value;
	return e->files.v[f].original;
}

/* ---- the dry run ---- */

/* The current values of the files of an arm's knob key, counted. */
static void describe_now(const struct experiment *e, const struct arm *a, const char *value,
			 struct strbuf *sb)
{
	struct strbuf now = STRBUF_INIT, seen = STRBUF_INIT, err = STRBUF_INIT;
	size_t shown = 0, unwritable = 0;

	strbuf_addch(&seen, '\n');
	for (size_t i = 0; i < a->nknobs; i++) {
		const struct knob_file *f = &e->files.v[a->knobs[i].file];
		size_t count = 0;

		if (strcmp(a->knobs[i].value, value))
			continue;
		if (!knob_writable(f->path, &err))
			unwritable++;
		strbuf_reset(&now);
		strbuf_addf(&now, "\n%s\n", f->original);
		if (strstr(seen.buf, now.buf))
			continue;
		strbuf_addstr(&seen, now.buf + 1);
		for (size_t j = 0; j < a->nknobs; j++)
			count += !strcmp(a->knobs[j].value, value) &&
				 !strcmp(e->files.v[a->knobs[j].file].original, f->original);
		if (shown < 4)
			strbuf_addf(sb, "%s%s%s", shown ? ", " : "now ", f->original,
				    count > 1 ? "" : "");
		if (shown < 4 && count > 1)
			strbuf_addf(sb, " (%zu files)", count);
		shown++;
	}
	if (shown > 4)
		strbuf_addf(sb, ", ... (%zu values)", shown);
	if (unwritable)
		strbuf_addf(sb, "; %zu not writable by this process%s", unwritable,
			    geteuid() ? " (kbench ab must run as root)" : "");
	strbuf_release(&now);
	strbuf_release(&seen);
	strbuf_release(&err);
}

int experiment_dry_run(const struct experiment *e, struct store *s)
{
	size_t *order = xcalloc(e->narms, sizeof(*order));
	struct strbuf sb = STRBUF_INIT;
	int64_t samples = 0;
	double seconds = 0;
	size_t unknown = 0, sections = 0;
	char when[32];
	int rc = 0;

	printf("Experiment %s: %zu arms, %d rounds, order %s", e->name, e->narms, e->rounds,
	       order_name(e->order));
	if (e->has_seed)
		printf(" (seed %llu)", (unsigned long long)e->seed);
	printf("\nRounds:");
	for (int r = 1; r <= e->rounds && r <= 8; r++) {
		experiment_round_order(e, r, order);
		printf(" ");
		for (size_t i = 0; i < e->narms; i++)
			printf("%s%s", i ? "," : "", e->arms[order[i]].name);
	}
	printf("%s\n\nArms (each stored as a run of its own):\n", e->rounds > 8 ? " ..." : "");
	for (size_t i = 0; i < e->narms; i++) {
		const struct arm *a = &e->arms[i];

		printf("  %s -> run '%s'\n", a->name, a->run_name);
		if (!a->nkeys)
			printf("    (no change: the knobs as they are)\n");
		for (size_t k = 0; k < a->nkeys; k++) {
			const struct arm_key *key = &a->keys[k];

			printf("    %s = %s", key->key, key->value);
			if (key->nfiles) {
				strbuf_reset(&sb);
				describe_now(e, a, key->value, &sb);
				printf("  [%zu file%s, %s]", key->nfiles, key->nfiles == 1 ? "" : "s",
				       sb.buf);
			}
			printf("\n");
		}
		if (a->built)
			printf("    builds %s (%.12s %s) of %s, %s: %s\n", a->built->describe,
			       a->built->commit, a->built->subject, a->built->tree,
			       a->built->config_desc, a->built->cache_hit ?
			       "in the kernel cache" : "not in the kernel cache, built first");
	}
	if (e->files.n) {
		printf("\nKnobs journalled in the store before the first write, and restored "
		       "after (%zu files):\n", e->files.n);
		for (size_t f = 0; f < e->files.n && f < 12; f++) {
			strbuf_reset(&sb);
			printf("  %s = %s%s\n", e->files.v[f].path, e->files.v[f].original,
			       knob_writable(e->files.v[f].path, &sb) ? "" : "  (not writable)");
		}
		if (e->files.n > 12)
			printf("  ... and %zu more\n", e->files.n - 12);
	}
	for (size_t i = 0; i < e->narms; i++)
		samples += plan_total_samples(&e->arms[i].plan);
	printf("\nSamples: %lld over every arm and round, warm-up included (each arm's "
	       "warm-up runs again whenever it is switched in)\n", (long long)samples);
	for (size_t i = 0; i < e->narms; i++) {
		double t;
		int u;

		if (dryrun_estimate(&e->arms[i].plan, s, &t, &u))
			rc = -1;
		seconds += t;
		unknown += (size_t)u;
		sections += e->arms[i].plan.n;
	}
	dryrun_format_duration(seconds, when, sizeof(when));
	if (unknown == sections)
		printf("Estimated duration: unknown (no a-priori figure, no earlier run here)\n");
	else if (unknown)
		printf("Estimated duration: at least %s for %zu arms x %d rounds (each arm's "
		       "plan runs once a round; %zu of %zu arm sections unknown)\n", when,
		       e->narms, e->rounds, unknown, sections);
	else
		printf("Estimated duration: %s for %zu arms x %d rounds (each arm's plan runs "
		       "once a round)\n", when, e->narms, e->rounds);
	for (size_t i = 0; i < e->narms; i++) {
		const struct arm *a = &e->arms[i];
		int differs = i == 0;

		for (size_t k = 0; k < a->nkeys; k++)
			differs |= !a->keys[k].nfiles && strcmp(a->keys[k].key, "description");
		if (!differs)
			continue;
		printf("\nPlan of arm %s:\n", a->name);
		if (dryrun_print(&a->plan, &a->conf, s))
			rc = -1;
	}
	strbuf_release(&sb);
	free(order);
	return rc;
}

/* ---- running it ---- */

/* Every knob file to arm a's setting (the original where a sets none),
 * each read back. Return 0, or -1 after saying which did not take. */
static int switch_in(struct experiment *e, const struct arm *a)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	for (size_t f = 0; f < e->files.n; f++) {
		if (!knob_write(e->files.v[f].path, arm_value(e, a, f), &err))
			continue;
		error("arm %s: %s", a->name, err.buf);
		rc = -1;
		break;
	}
	strbuf_release(&err);
	return rc;
}

/* Every knob back to its original value; each one restored leaves the
 * journal. Return the count that could not be restored. */
static int restore_all(struct experiment *e, struct store *s)
{
	struct strbuf err = STRBUF_INIT;
	int bad = 0;

	for (size_t f = 0; f < e->files.n; f++) {
		strbuf_reset(&err);
		if (knob_write(e->files.v[f].path, e->files.v[f].original, &err)) {
			error("cannot restore %s to '%s': %s; 'kbench recover' tries again",
			      e->files.v[f].path, e->files.v[f].original, err.buf);
			bad++;
		} else if (e->id && store_journal_forget(s, e->id, e->files.v[f].path)) {
			bad++;
		}
	}
	strbuf_release(&err);
	return bad;
}

struct busy_knob {
	const struct experiment *e;
	int busy;
};

static int check_busy(const struct journal_row *r, void *arg)
{
	struct busy_knob *b = arg;

	if (!r->here || !r->alive || knob_files_find(&b->e->files, r->path) < 0)
		return 0;
	error("%s is being changed by experiment @%lld (pid %lld), which is still at work",
	      r->path, (long long)r->experiment_id, (long long)r->pid);
	b->busy = 1;
	return 1;
}

/* Record the experiment as a new one, status running. */
static int record_experiment(struct experiment *e, struct store *s, const char *started)
{
	struct strbuf arms = STRBUF_INIT;
	struct experiment_record er = {
		.name = e->name,
		.config_name = e->conf.name.buf,
		.rounds = e->rounds,
		.arm_order = order_name(e->order),
		.has_seed = e->has_seed,
		.seed = e->seed,
		.started_at = started,
	};
	int rc;

	uuid_random(e->uuid);
	for (size_t i = 0; i < e->narms; i++)
		strbuf_addf(&arms, "%s%s", i ? " " : "", e->arms[i].name);
	er.uuid = e->uuid;
	er.arms = arms.buf;
	rc = store_begin_experiment(s, &er, &e->id);
	strbuf_release(&arms);
	return rc;
}

/* Record the experiment (mark a resumed one running again) and journal
 * every knob's original value. */
static int journal(struct experiment *e, struct store *s)
{
	struct knob_original *ko = xcalloc(e->files.n + 1, sizeof(*ko));
	struct busy_knob busy = { .e = e };
	struct run_writer w;
	char started[32], *host = sysinfo_hostname();
	int rc = -1;

	if (store_each_journal(s, check_busy, &busy) < 0 || busy.busy)
		goto out;
	clock_iso_utc(started, sizeof(started), time(NULL));
	if (e->resumed ? store_resume_experiment(s, e->id) : record_experiment(e, s, started))
		goto out;
	for (size_t f = 0; f < e->files.n; f++)
		ko[f] = (struct knob_original){ .path = e->files.v[f].path,
						.original = e->files.v[f].original };
	run_writer_self(&w);
	rc = store_journal_knobs(s, e->id, ko, e->files.n, host, &w, started);
out:
	free(host);
	free(ko);
	return rc;
}

struct arm_facts {
	struct experiment *e;
	struct arm *a;
	size_t index;
};

/* The facts of an arm's run: the experiment, the arm, its keys and the
 * value every knob file read back after the arm was switched in. */
static int arm_facts(struct store *s, int64_t run_id, void *arg)
{
	struct arm_facts *af = arg;
	struct strbuf k = STRBUF_INIT, v = STRBUF_INIT;
	int rc = -1;

	strbuf_addf(&v, "%lld", (long long)af->e->id);
	if (store_add_meta(s, run_id, "", "experiment", v.buf) ||
	    store_add_meta(s, run_id, "", "experiment-uuid", af->e->uuid) ||
	    store_add_meta(s, run_id, "", "arm", af->a->name) ||
	    store_add_meta(s, run_id, "", "arm-order", order_name(af->e->order)))
		goto out;
	for (size_t i = 0; i < af->a->nkeys; i++) {
		strbuf_reset(&k);
		strbuf_addf(&k, "arm %s", af->a->keys[i].key);
		if (store_add_meta(s, run_id, "", k.buf, af->a->keys[i].value))
			goto out;
	}
	/* What was asked of every arm, for a resume to ask it again. */
	for (size_t i = 0; i < af->e->noverrides; i++)
		if (store_add_meta(s, run_id, "", "experiment-override", af->e->overrides[i]))
			goto out;
	if (af->e->only && store_add_meta(s, run_id, "", "experiment-only", af->e->only))
		goto out;
	if (af->e->iterations) {
		strbuf_reset(&v);
		strbuf_addf(&v, "%d", af->e->iterations);
		if (store_add_meta(s, run_id, "", "experiment-iterations", v.buf))
			goto out;
	}
	for (size_t f = 0; f < af->e->files.n; f++) {
		const char *path = af->e->files.v[f].path;

		strbuf_reset(&k);
		strbuf_addf(&k, "knob %s", path);
		if (knob_read(path, &v)) {
			error("cannot read %s back: %s", path, strerror(errno));
			goto out;
		}
		if (store_add_meta(s, run_id, "", k.buf, v.buf))
			goto out;
	}
	af->a->run_id = run_id;
	rc = 0;
out:
	strbuf_release(&k);
	strbuf_release(&v);
	return rc;
}

/* Set (set 1) or unset the environment of arm a; the values it replaces
 * are kept in saved (one per variable, NULL when unset). */
static void arm_env(const struct arm *a, int set, char **saved)
{
	for (size_t i = 0; i < a->nenv; i++) {
		const char *eq = strchr(a->env[i], '=');
		char *name = xstrndup(a->env[i], (size_t)(eq - a->env[i]));

		if (set) {
			const char *old = getenv(name);

			saved[i] = old ? xstrdup(old) : NULL;
			setenv(name, eq + 1, 1);
		} else {
			if (saved[i])
				setenv(name, saved[i], 1);
			else
				unsetenv(name);
			free(saved[i]);
			saved[i] = NULL;
		}
		free(name);
	}
}

/* Boot kernel arm a's guest for round r into *vm, with its boot time in
 * tag (the progress line). What auto found holds for every arm's boots
 * that follow: KVM is not probed again where it failed. Return 0, or -1
 * after an error (the guest did not come up). */
static int boot_arm(struct experiment *e, struct arm *a, int r, struct vm **vm,
		    struct strbuf *tag)
{
	notice("round %d/%d %s: booting %s%s%s", r, e->rounds, a->name, a->vm->kernel,
	       a->vm->append ? " " : "", a->vm->append ? a->vm->append : "");
	if (vm_boot(a->vm, vm)) {
		error("arm %s: the guest did not boot in round %d", a->name, r);
		return -1;
	}
	for (size_t i = 0; i < e->narms; i++)
		if (e->arms[i].vm && !strcmp(e->arms[i].vm->accel, "auto"))
			e->arms[i].vm->accel = vm_accel(*vm);
	strbuf_addf(tag, " (boot %.1f s)", vm_boot_s(*vm));
	return 0;
}

/* A later round's boot that needed more than one try, as a fact of the
 * arm's run: key vm.boot_retries.round-R (the first round's boot is the
 * run's vm.boot_retries). Return 0, or -1 when it cannot be stored. */
static int boot_retried(struct store *s, int64_t run_id, int r, const struct vm *vm)
{
	char key[48], n[16];

	if (!vm_boot_retries(vm))
		return 0;
	snprintf(key, sizeof(key), "vm.boot_retries.round-%d", r);
	snprintf(n, sizeof(n), "%d", vm_boot_retries(vm));
	return store_add_meta(s, run_id, "", key, n) ? -1 : 0;
}

/* Run round r of arm a (its knobs switched in already; a kernel arm's
 * guest booted for it and powered off after, the boot outside every
 * sample). Return the runner's status (0, 1, 128+N, -1). */
static int run_arm_round(struct experiment *e, struct store *s, size_t i, int r)
{
	struct arm *a = &e->arms[i];
	struct arm_facts af = { .e = e, .a = a, .index = i };
	struct strbuf tag = STRBUF_INIT;
	char **saved = xcalloc(a->nenv + 1, sizeof(*saved));
	struct run_request req = {
		.name = a->run_name,
		.resume = a->run_id,
		.round = r,
		.next_round = a->ran_here,
		.keep_running = r < e->rounds,
		.facts = arm_facts,
		.facts_arg = &af,
	};
	int64_t run_id = 0;
	struct vm *vm = NULL;
	int rc = -1;

	strbuf_addf(&tag, "round %d/%d %s", r, e->rounds, a->name);
	if (a->vm) {
		if (boot_arm(e, a, r, &vm, &tag))
			goto out;
		req.exec = vm_executor(vm);
	}
	req.tag = tag.buf;
	arm_env(a, 1, saved);
	rc = plan_execute(&a->plan, &a->conf, s, &req, &run_id);
	arm_env(a, 0, saved);
	if (run_id > 0 && vm && req.resume && boot_retried(s, run_id, r, vm))
		rc = -1;
	vm_stop(vm);
	if (run_id > 0) {
		a->run_id = run_id;
		a->ran_here = 1;
	}
out:
	free(saved);
	strbuf_release(&tag);
	return rc;
}

/* Mark the runs of arms left running (an experiment stopped part way). */
static void close_runs(struct experiment *e, struct store *s, const char *status)
{
	char at[32];

	clock_iso_utc(at, sizeof(at), time(NULL));
	for (size_t i = 0; i < e->narms; i++) {
		struct run_info ri = { .id = 0 };

		if (!e->arms[i].run_id || store_get_run(s, e->arms[i].run_id, &ri))
			continue;
		if (!strcmp(ri.status, "running"))
			store_finish_run(s, e->arms[i].run_id, status, at);
		run_info_release(&ri);
	}
}

/* Take this machine's knobs (machine/hostlock.h) for e, restoring what a
 * killed holder left, then read every knob file's original value again:
 * what was read when the config was loaded may be another kbench's
 * setting, or a killed one's. Return 0, 1 when another kbench holds the
 * knobs (said), or -1 after an error. */
static int take_knobs(struct experiment *e, struct store *s)
{
	struct strbuf what = STRBUF_INIT, err = STRBUF_INIT, now = STRBUF_INIT;
	int rc;

	strbuf_addf(&what, "kbench ab, experiment '%s'", e->name);
	rc = hostlock_knobs(what.buf, store_path(s), e->wait_knobs, knob_write, &err);
	if (rc) {
		error("%s", err.buf);
		goto out;
	}
	for (size_t f = 0; f < e->files.n; f++) {
		if (knob_read(e->files.v[f].path, &now)) {
			error("cannot read knob %s: %s", e->files.v[f].path, strerror(errno));
			rc = -1;
			goto out;
		}
		if (strcmp(now.buf, e->files.v[f].original))
			notice("%s reads '%s' now, '%s' when the config was read: '%s' is its "
			       "original value", e->files.v[f].path, now.buf,
			       e->files.v[f].original, now.buf);
		free(e->files.v[f].original);
		e->files.v[f].original = strbuf_detach(&now);
	}
out:
	strbuf_release(&what);
	strbuf_release(&err);
	strbuf_release(&now);
	return rc;
}

/* Say that e measures on this machine (machine/hostlock.h); each arm's
 * run says who else does. */
static void measuring(const struct experiment *e, struct store *s)
{
	struct strbuf what = STRBUF_INIT, others = STRBUF_INIT, err = STRBUF_INIT;

	strbuf_addf(&what, "kbench ab, experiment '%s'", e->name);
	if (hostlock_measure(what.buf, store_path(s), &others, &err))
		warning("cannot tell whether another kbench measures on this machine: %s",
			err.buf);
	strbuf_release(&what);
	strbuf_release(&others);
	strbuf_release(&err);
}

/* Journal every knob file's original value host-wide too, so that a
 * kbench of any store restores it if this one is killed. */
static int journal_host(const struct experiment *e)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	for (size_t f = 0; f < e->files.n && !rc; f++)
		if (hostlock_journal(e->files.v[f].path, e->files.v[f].original, &err)) {
			error("%s", err.buf);
			rc = -1;
		}
	strbuf_release(&err);
	return rc;
}

/* After round r of arm a: every knob file reads as the arm set it, or
 * something else changed it during the round, which is said and stored
 * with the arm's run (key knob-changed.round-R). Return 0, or -1 when
 * that cannot be stored. */
static int check_knobs(const struct experiment *e, const struct arm *a, struct store *s, int r)
{
	struct strbuf now = STRBUF_INIT, seen = STRBUF_INIT;
	char key[48];
	int rc = 0;

	for (size_t f = 0; f < e->files.n; f++) {
		const char *want = arm_value(e, a, f);
		int same = knob_reads(e->files.v[f].path, want, &now);

		if (same == 1)
			continue;
		if (same < 0)
			strbuf_addf(&now, "(unreadable: %s)", strerror(errno));
		warning("round %d %s: %s reads '%s' after the round, not '%s' as the arm set it: "
			"something else changed it during the round", r, a->name,
			e->files.v[f].path, now.buf, want);
		strbuf_addf(&seen, "%s%s: '%s', not '%s'", seen.len ? "; " : "",
			    e->files.v[f].path, now.buf, want);
	}
	if (seen.len && a->run_id) {
		snprintf(key, sizeof(key), "knob-changed.round-%d", r);
		rc = store_add_meta(s, a->run_id, "", key, seen.buf) ? -1 : 0;
	}
	strbuf_release(&now);
	strbuf_release(&seen);
	return rc;
}

/* Build the kernels of the arms built from a tree, or find them in the
 * kernel cache, before anything else: a build takes minutes, and one
 * that fails stops the experiment before any knob or sample. Return 0,
 * 1 after a failed build, 128+N when stopped by signal N. */
static int build_arms(struct experiment *e)
{
	struct stop_signals ss;
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	ab_stop = 0;
	stop_signals_catch(&ss, on_signal);
	for (size_t i = 0; i < e->narms && !rc; i++) {
		struct arm *a = &e->arms[i];
		struct kbuild_result res;

		/* A resumed arm whose run is complete boots no more. */
		if (!a->build || a->done)
			continue;
		a->build->stop = &ab_stop;
		a->build->progress = 1;
		strbuf_reset(&err);
		rc = kbuild_build(a->build, &res, &err);
		a->build->stop = NULL;
		if (!rc && vm_check_kernel(res.image, &err))
			rc = -1;
		if (rc) {
			error("arm %s: %s", a->name, err.buf);
			kbuild_result_release(&res);
			rc = rc >= 128 ? rc : 1;
			break;
		}
		if (res.cache_hit)
			notice("arm %s: %s (%.12s %s) from the kernel cache", a->name, res.describe,
			       res.commit, res.subject);
		else
			notice("arm %s: built %s (%.12s %s) in %dm%02ds", a->name, res.describe,
			       res.commit, res.subject, (int)res.build_s / 60,
			       (int)res.build_s % 60);
		kbuild_result_release(a->built);
		*a->built = res;
		set_built(a);
	}
	stop_signals_restore(&ss);
	strbuf_release(&err);
	return rc;
}

/* End e after round r, complete: the design is cut to r rounds and every
 * arm's run, left running for the rounds that would have followed, is
 * complete. Return 0, or -1 when the store cannot say so. */
static int end_early(struct experiment *e, struct store *s, int r)
{
	int rc = store_set_experiment_rounds(s, e->id, r);

	e->rounds = r;
	for (size_t i = 0; i < e->narms && !rc; i++)
		if (e->arms[i].run_id && record_finish_run(s, e->arms[i].run_id, "complete"))
			rc = -1;
	notice("experiment @%lld ends after round %d: its rounds decided", (long long)e->id, r);
	return rc ? -1 : 0;
}

static const char *const outcome_status[] = {
	[EXPERIMENT_COMPLETE] = "complete",
	[EXPERIMENT_FAILED] = "failed",
	[EXPERIMENT_REFUSED] = "failed",
	[EXPERIMENT_STOPPED] = "interrupted",
};

int experiment_exit_status(enum experiment_outcome outcome, int signal)
{
	switch (outcome) {
	case EXPERIMENT_COMPLETE:
		return 0;
	case EXPERIMENT_REFUSED:
		return 2;
	case EXPERIMENT_STOPPED:
		return 128 + signal;
	case EXPERIMENT_FAILED:
		break;
	}
	return 1;
}

/* The outcome of the steps' status rc: 0, 2 (refused), 128+N (stopped by
 * signal N, set in *signal), anything else a failure. */
static enum experiment_outcome outcome_of(int rc, int *signal)
{
	*signal = rc >= 128 ? rc - 128 : 0;
	if (!rc)
		return EXPERIMENT_COMPLETE;
	if (rc == 2)
		return EXPERIMENT_REFUSED;
	return rc >= 128 ? EXPERIMENT_STOPPED : EXPERIMENT_FAILED;
}

int experiment_run(struct experiment *e, struct store *s)
{
	struct stop_signals ss = { .caught = { 0 } };
	size_t *order = xcalloc(e->narms, sizeof(*order));
	struct strbuf err = STRBUF_INIT;
	enum experiment_outcome outcome;
	char at[32];
	int rc = 1, bad, sig;

	if ((rc = build_arms(e)))
		goto out_free;
	rc = 1;

	/* A knob this process may not write stops it before anything. */
	for (size_t f = 0; f < e->files.n; f++)
		if (!knob_writable(e->files.v[f].path, &err)) {
			error("%s; nothing was changed or run", err.buf);
			rc = 2;
			goto out_free;
		}
	if (e->files.n) {
		int taken = take_knobs(e, s);

		if (taken) {
			rc = taken > 0 ? 1 : 2;
			goto out_free;
		}
	} else {
		measuring(e, s);
	}
	ab_stop = 0;
	stop_signals_catch(&ss, on_signal);
	if (journal(e, s) || journal_host(e))
		goto out;
	notice("experiment @%lld '%s' (%s)%s: %zu arms, %d rounds, order %s; %zu knob files "
	       "journalled", (long long)e->id, e->name, e->uuid, e->resumed ? " resumed" : "",
	       e->narms, e->rounds, order_name(e->order), e->files.n);
	/* Every arm's knobs must take, and go back, before any sample. */
	if (e->files.n) {
		int refused = 0;

		for (size_t i = 0; i < e->narms && !refused; i++)
			refused = switch_in(e, &e->arms[i]) != 0;
		bad = 0;
		for (size_t f = 0; f < e->files.n; f++) {
			strbuf_reset(&err);
			if (knob_write(e->files.v[f].path, e->files.v[f].original, &err)) {
				error("cannot restore %s to '%s': %s", e->files.v[f].path,
				      e->files.v[f].original, err.buf);
				bad++;
			}
		}
		if (refused || bad) {
			error("experiment @%lld stopped before any sample: a knob cannot be %s",
			      (long long)e->id, bad ? "restored" : "set");
			rc = 2;
			goto out;
		}
	}
	rc = 0;
	for (int r = 1; r <= e->rounds && !rc && !ab_stop; r++) {
		experiment_round_order(e, r, order);
		for (size_t k = 0; k < e->narms && !rc && !ab_stop; k++) {
			struct arm *a = &e->arms[order[k]];

			if (a->done)
				continue;
			if (switch_in(e, a)) {
				rc = 1;
				break;
			}
			rc = run_arm_round(e, s, order[k], r);
			if (e->files.n && rc >= 0 && rc < 128 && check_knobs(e, a, s, r))
				rc = -1;
			if (rc < 0)
				rc = 1;
			else if (rc == 1 && r < e->rounds)
				rc = 0;	/* failed samples are recorded; go on */
		}
		if (!rc && !ab_stop && e->round_done && r < e->rounds) {
			int end = e->round_done(e, s, r, e->round_done_arg);

			if (end < 0)
				rc = 1;
			else if (end > 0)
				rc = end_early(e, s, r);
		}
	}
	if (ab_stop && !rc)
		rc = 128 + ab_stop;
out:
	bad = restore_all(e, s);
	hostlock_knobs_release(!bad);
	if (bad) {
		error("%d knob%s could not be restored; their original values stay journalled",
		      bad, bad == 1 ? "" : "s");
		if (!rc)
			rc = 1;
	} else if (e->files.n && e->id) {
		notice("restored %zu knob file%s to their original values", e->files.n,
		       e->files.n == 1 ? "" : "s");
	}
	outcome = outcome_of(rc, &sig);
	if (e->id) {
		close_runs(e, s, outcome == EXPERIMENT_STOPPED ? "interrupted" : "failed");
		clock_iso_utc(at, sizeof(at), time(NULL));
		store_finish_experiment(s, e->id, outcome_status[outcome], at);
	}
	stop_signals_restore(&ss);
	if (outcome == EXPERIMENT_STOPPED)
		error("experiment @%lld interrupted by signal %d; every knob is restored",
		      (long long)e->id, sig);
	hostlock_release();
out_free:
	strbuf_release(&err);
	free(order);
	outcome = outcome_of(rc, &sig);
	return experiment_exit_status(outcome, sig);
}
