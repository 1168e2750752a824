/* experiment_design: an A/B experiment read, before anything runs: the
 * [experiment] and [arm:NAME] sections of its config into the design
 * (arms, their knobs, options, kernels and builds, the rounds and their
 * order); experiment_resume.c reads a stored one's, to resume it.
 * experiment.c runs it. */
#include "config.h"
#include "experiment/experiment.h"
#include "experiment/experiment_design.h"
#include "experiment/experiment_settings.h"
#include "experiment/experiment_stored.h"
#include "lib/error.h"
#include "lib/regex.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "experiment/ab_looks.h"
#include "experiment/background.h"
#include "experiment/knob.h"
#include "kernel/vm.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

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

/* [experiment]'s keys (rounds, order, seed, and a sequential design's)
 * into keys, each as the table of settings reads it. */
static int read_design(const struct conf_section *cs, struct experiment_options *keys)
{
	for (size_t i = 0; i < cs->n; i++) {
		const struct conf_entry *c = &cs->entries[i];
		const struct experiment_setting *d = experiment_setting_find_key(c->key);

		if (!d)
			return experiment_settings_unknown_key(c->key, c->where);
		if (experiment_setting_read(keys, d, c->value, c->where))
			return -1;
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
		if (experiment_parse_int(c->value, 1, 288, &v))
			return error("%s: vcpus = '%s' in [%s]: expected an integer from 1 to 288",
				     c->where, c->value, a->cs->name);
		a->vm->vcpus = v;
	} else {
		if (experiment_parse_int(c->value, 64, 1 << 22, &v))
			return error("%s: memory = '%s' in [%s]: expected MiB, an integer from 64 "
				     "to %d", c->where, c->value, a->cs->name, 1 << 22);
		a->vm->mem_mib = v;
	}
	return 0;
}

/* The facts of a->built into a->build_facts, and its image as a's
 * kernel. */
void experiment_arm_set_built(struct arm *a)
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
	experiment_arm_set_built(a);
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
		if (knob_key(c->key) || !strncmp(c->key, "env.", 4) || !strcmp(c->key, "prefix") ||
		    background_key(c->key))
			return error("%s: %s in [%s]: a kernel arm runs in a guest booted for "
				     "each round, which this machine's %s does not reach; give "
				     "it on the guest's command line (append = ...)", c->where,
				     c->key, a->cs->name, knob_key(c->key) ? "knobs" :
				     !strcmp(c->key, "prefix") ? "command prefix" :
				     background_key(c->key) ? "background load" : "environment");
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
		} else if (background_key(c->key)) {
			if (!a->bg) {
				a->bg = xcalloc(1, sizeof(*a->bg));
				a->bg->arm = a->name;
				strbuf_init(&a->bg->end);
			}
			if (background_parse(a->bg, c->key, c->value, c->where))
				return -1;
		} else if (strcmp(c->key, "description")) {
			return error("%s: unknown key '%s' in [%s] (an arm takes sysctl.NAME, "
				     "sysfs.PATH, option.KEY, env.NAME, prefix, background, "
				     "background-trigger, description, "
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
	if (o->config_text && o->arms_stored) {
		char *text = experiment_strip_arms(o->config_text);
		int rc = config_load_string(c, o->config_origin, text);

		free(text);
		return rc;
	}
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
	struct strbuf sb = STRBUF_INIT, from = STRBUF_INIT;
	char *pattern = NULL;
	int rc = -1;

	/* a->conf was initialised with the arm, so that it is released
	 * whatever fails. */
	if (load_configs(&a->conf, o))
		goto out;
	for (size_t i = 0; i < a->noverrides; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "[%s] option.%.*s", a->cs->name,
			    (int)strcspn(a->overrides[i], "="), a->overrides[i]);
		if (config_add_override_from(&a->conf, a->overrides[i], sb.buf))
			goto out;
	}
	for (size_t i = 0; a->prefix && i < e->conf.n; i++) {
		const struct conf_section *cs = &e->conf.sections[i];
		const struct conf_entry *w = conf_section_get(cs, "workload");
		const struct conf_entry *cmd = conf_section_get(cs, "command");

		if (is_arm_section(cs->name) || !w || strcmp(w->value, "external") || !cmd)
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s.command=%s %s", cs->name, a->prefix, cmd->value);
		strbuf_addf(&from, "[%s] prefix", a->cs->name);
		if (config_add_override_from(&a->conf, sb.buf, from.buf))
			goto out;
		strbuf_reset(&from);
	}
	for (size_t i = 0; i < o->noverrides; i++)
		if (config_add_override(&a->conf, o->overrides[i]))
			goto out;
	strbuf_reset(&sb);
	strbuf_addf(&sb, "rounds=%d", e->rounds);
	if (config_add_override_from(&a->conf, sb.buf, "the experiment's rounds"))
		goto out;
	if (o->iterations) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "iterations=%d", o->iterations);
		if (config_add_override_from(&a->conf, sb.buf, "--iterations"))
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
	strbuf_release(&from);
	strbuf_release(&sb);
	return rc;
}

/* The design of e from set (the options over [experiment]'s keys): its
 * rounds, or when rounds = auto (or a stored design) its sequential
 * design, set's over the defaults, checked by building it. Return 0, or
 * -1 after saying which is wrong. */
static int set_sequential(struct experiment *e, const struct experiment_options *set)
{
	struct experiment_options full = *set;
	struct strbuf err = STRBUF_INIT;
	struct seq_design d;
	struct kb_regex *re;
	int rc = -1;

	experiment_settings_defaults(&full);
	e->rounds = full.rounds;
	if (set->design) {
		if (seq_plan_parse(set->design, &e->seq, &err)) {
			error("the experiment's stored design %s", err.buf);
			goto out;
		}
		e->sequential = 1;
		e->rounds = e->seq.max_rounds;
	} else if (set->rounds_auto) {
		e->seq = (struct seq_plan){
			.min_rounds = full.min_rounds,
			.max_rounds = full.max_rounds,
			.every = full.look_every,
			.alpha = EXPERIMENT_SEQ_ALPHA,
			.equivalence_pct = full.equivalence,
		};
		e->sequential = 1;
		e->rounds = e->seq.max_rounds;
	} else if (experiment_settings_first_sequential(set)) {
		error("min-rounds, max-rounds, look-every, equivalence and watch belong to a "
		      "sequential design: rounds = auto in [experiment], or --rounds auto");
		goto out;
	} else {
		return 0;
	}
	if (seq_plan_design(&e->seq, &d, &err)) {
		error("the sequential design: %s", err.buf);
		goto out;
	}
	if (set->watch) {
		e->watch = xstrdup(set->watch);
		if (!(re = kb_regex_compile(e->watch, 0, &err))) {
			error("watch '%s': %s", e->watch, err.buf);
			goto out;
		}
		kb_regex_free(re);
	}
	rc = 0;
out:
	strbuf_release(&err);
	return rc;
}

int experiment_load(struct experiment *e, const struct experiment_options *o)
{
	const struct conf_section *design = NULL;
	struct experiment_options keys = { .name = NULL }, set;
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
		struct conf_section *cs = &e->conf.sections[i];

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
		/* kbench bisect's stand-ins are no files. */
		if (!o->images_later && experiment_absolute_paths(cs))
			goto out;
		config_init(&e->arms[e->narms].conf);
		e->narms++;
	}
	if (e->narms < 2) {
		error("%s: an experiment needs two arms or more, [arm:NAME] sections (it has %zu); "
		      "see kbench.conf(5)", e->conf.nfiles ? e->conf.files[0] : "config", e->narms);
		goto out;
	}
	if (design && read_design(design, &keys))
		goto out;
	/* The options over the keys: only [experiment]'s design settings
	 * are taken from keys. */
	set = *o;
	experiment_settings_merge(&set, &keys);
	if (set_sequential(e, &set))
		goto out;
	if (o->order && experiment_setting_read(&set, experiment_setting_find_key("order"),
						o->order, "--order"))
		goto out;
	e->order = set.order && !strcmp(set.order, "shuffle") ? ARM_ORDER_SHUFFLE :
		   ARM_ORDER_ABBA;
	e->seed = set.has_seed ? set.seed : 0;
	e->has_seed = set.has_seed;
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
	experiment_format_arms(e);
	if (o->vm && experiment_format_guest(e, o->vm))
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
	if (ab_looks_check_watch(e))
		goto out;
	rc = 0;
out:
	strbuf_release(&sb);
	return rc;
}

void experiment_release(struct experiment *e)
{
	for (size_t i = 0; i < e->narms; i++) {
		struct arm *a = &e->arms[i];

		background_release(a->bg);
		free(a->bg);
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
	free(e->watch);
	free(e->arms_text);
	free(e->guest_text);
	free(e->guest_buf);
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

const char *experiment_order_text(const struct experiment *e, char *buf, size_t len)
{
	size_t n = e->narms < 26 ? e->narms : 26, k = 0;

	if (e->order == ARM_ORDER_SHUFFLE)
		return "shuffle";
	if (n <= 2 || len < 2 * n + 2)
		return "abba";
	for (size_t i = 0; i < n; i++)
		buf[k++] = (char)('a' + i);
	buf[k++] = ' ';
	for (size_t i = n; i-- > 0;)
		buf[k++] = (char)('a' + i);
	buf[k] = '\0';
	return buf;
}
