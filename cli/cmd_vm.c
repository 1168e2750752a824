/* cmd_vm: kbench vm -k IMAGE -c CONF [-c CONF...] [-o ...] [-n NAME]: run
 * the configs inside a kernel booted under QEMU (kernel/vm.h), storing
 * each sample as a native run does. With two or more kernels (or
 * command lines) each is a kernel arm of an experiment (runner/
 * experiment.h, as kbench ab runs one): the arms' boots alternate round
 * by round (ABBA...), each boot running one round of every section, and
 * the arms are compared with the paired test afterwards. */
#include "config.h"
#include "cli/cmd.h"
#include "views/report.h"
#include "runner/conf.h"
#include "experiment/experiment.h"
#include "runner/dryrun.h"
#include "kernel/kbuild.h"
#include "runner/plan.h"
#include "runner/runner.h"
#include "kernel/vm.h"
#include "kernel/vm_run.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "kernel/kmod.h"
#include "machine/pin.h"

#include <ctype.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct parse_opt_usage vm_usage = {
	.synopsis = "kbench vm -k IMAGE -c CONFIG [-c CONFIG...] [-o [SECTION.]KEY=VALUE...]\n"
		    "                 [--append TEXT] [--initrd FILE] [--vcpus N] [--memory MIB]\n"
		    "                 [--modules DIR --modprobe NAME[,NAME...]]\n"
		    "                 [--accel auto|kvm|tcg] [--icount] [-n NAME] [--only REGEX]\n"
		    "                 [--dry-run]\n"
		    "   or: kbench vm -k A [-k B...] [--append TEXT...] [-n NAME...] --rounds N\n"
		    "                 -c CONFIG...\n"
		    "   or: kbench vm [--tree DIR] --ref REF [--ref REF...] [--kconfig FILE|TARGET]\n"
		    "                 [--fragment FILE...] [kbench build's options] -c CONFIG...",
	.description = "Boot a kernel under QEMU and run the configs inside it, storing every\n"
		       "sample as it is measured, as 'kbench run' does on this kernel.",
	.help_column = 24,
	.epilogue =
		"The guest runs from an initramfs kbench builds (its init is kbench-sample):\n"
		"no disk image, no network device. Samples come back over the guest's second\n"
		"serial port as each is measured. KVM is used when it boots the guest, else\n"
		"TCG (said which). The run's kernel facts are the guest's; vm.* and guest.*\n"
		"facts say how it ran. A guest that panics, hangs or is killed ends the run\n"
		"failed, keeping what it sent, with its last console lines. Hackbench, pft\n"
		"and netperf's loopback tests run in the guest; the external workload does\n"
		"not. Exit status: 0 complete, 1 failed (or the guest did not boot), 2 bad\n"
		"arguments or config, 128+N interrupted by signal N.\n"
		"\n"
		"Arms: several -k (or --append) make the kernel arms of an experiment, as\n"
		"kbench ab runs one: the i-th -k, --append and -n go together (one given\n"
		"serves all), -n naming the arm. Each arm is the run CONFIG/ARM; with\n"
		"--rounds N their boots alternate, ABBA..., each boot running one round of\n"
		"every section, the boot outside every sample; then the arms are compared\n"
		"with a paired test over the rounds.\n"
		"\n"
		"Refs: --ref REF boots the kernel of that commit of the git tree --tree (the\n"
		"current directory by default), built as kbench build builds it (or found in\n"
		"the kernel cache) before the first boot; several --ref are the arms, as\n"
		"several -k are. The runs store the commit's facts (kernel-commit,\n"
		"kernel-describe, kernel-subject, kernel-config-hash, kernel-compiler,\n"
		"kernel-tree). See docs/vm.md.",
};

/* One kernel of an alternation: its image (or the ref it is built
 * from), command line and name. */
struct vm_arm {
	struct vm_config vc;
	const char *ref;	/* --ref; NULL: vc.kernel is given */
	const char *name;	/* NULL: from the image's file name, or the ref */
};

/* What kbench vm's command line says. */
struct vm_opts {
	struct opt_list configs, overrides;	/* -c, -o */
	struct opt_list kernels, appends, names, refs;	/* -k, --append, -n, --ref */
	struct cmd_build_opts bo;	/* how a --ref is built */
	struct vm_config vc;		/* the guest's options */
	const char *only, *note;
	int rounds, dry, no_report, icount;
};

static const char *nth(const struct opt_list *l, size_t i)
{
	return !l->n ? NULL : l->v[i < l->n ? i : l->n - 1];
}

/* The narms arms of the options: each with vc, its -k, --ref, --append
 * (one for all, or one an arm) and -n. Returns them (malloc'd), or NULL
 * after saying which name is refused or given twice. */
static struct vm_arm *vm_arms(const struct opt_list *kernels, const struct opt_list *refs,
			      const struct opt_list *appends, const struct opt_list *names,
			      const struct vm_config *vc, size_t narms)
{
	struct vm_arm *arms = xcalloc(narms, sizeof(*arms));

	for (size_t i = 0; i < narms; i++) {
		arms[i].vc = *vc;
		arms[i].vc.kernel = nth(kernels, i);
		arms[i].ref = nth(refs, i);
		arms[i].vc.append = nth(appends, i);
		arms[i].name = names->n ? names->v[i] : NULL;
		if (arms[i].name && cmd_check_run_name(arms[i].name))
			goto bad;
		for (size_t j = 0; arms[i].name && j < i; j++)
			if (!strcmp(arms[i].name, arms[j].name)) {
				error("two arms are named '%s'", arms[i].name);
				goto bad;
			}
	}
	return arms;
bad:
	free(arms);
	return NULL;
}

/* The guest's options that go together: a boot timeout, and --modules
 * with --modprobe; checked before a kernel is built. Return 0, or -1
 * after saying why not. */
static int check_guest_options(const struct vm_config *vc)
{
	if (!(vc->boot_timeout_s > 0))
		return error("--boot-timeout must be more than 0 seconds");
	if (!vc->modules_dir != !vc->modprobe)
		return error(vc->modprobe ? "--modprobe needs --modules DIR, the tree to load "
			     "them from" : "--modules needs --modprobe NAME,...: the guest loads "
			     "only the modules named and what they depend on");
	return 0;
}

/* The files the guest's options name, read before a kernel is built:
 * the initrd, and the modules --modprobe names in the --modules tree.
 * Return 0, or -1 after saying why not. */
static int check_guest_files(const struct vm_config *vc)
{
	struct kmod_set set = KMOD_SET_INIT;
	struct strbuf err = STRBUF_INIT;
	struct stat st;
	int rc = 0;

	if (vc->initrd && (stat(vc->initrd, &st) || access(vc->initrd, R_OK)))
		rc = error("cannot read the initrd '%s': %s", vc->initrd, strerror(errno));
	else if (vc->initrd && S_ISDIR(st.st_mode))
		rc = error("cannot read the initrd '%s': %s", vc->initrd, strerror(EISDIR));
	else if (vc->modules_dir && kmod_resolve(vc->modules_dir, vc->modprobe, &set, &err))
		rc = error("--modules: %s", err.buf);
	kmod_set_release(&set);
	strbuf_release(&err);
	return rc;
}

/* Whether this machine can boot the guest as --accel asks. Return 0, or
 * -1 after saying why not. */
static int check_guest(const struct vm_config *vc)
{
	struct strbuf err = STRBUF_INIT;

	if (vm_check_accel(vc, &err)) {
		error("%s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	return 0;
}

/* The name arm a takes when -n gives none: its ref, or its image's file
 * name without "vmlinuz-" (6.1.0-28-rt-amd64), its characters those of
 * an arm name and at most 32 of them; empty when none is left. */
static void arm_base(const struct vm_arm *a, struct strbuf *out)
{
	const char *k = a->ref ? a->ref : a->vc.kernel;
	const char *base = a->ref ? NULL : strrchr(k, '/');

	base = base ? base + 1 : k;
	if (!a->ref && !strncmp(base, "vmlinuz-", 8))
		base += 8;
	strbuf_reset(out);
	for (const char *p = base; *p && out->len < 32; p++)
		strbuf_addch(out, isalnum((unsigned char)*p) || strchr("_.-+", *p) ? *p : '_');
}

/* The name of arm i of arms when -n gives none: arm_base(), with -1,
 * -2... after it where several arms have the same (the same image with
 * two command lines), else arm1, arm2... when it is empty. */
static void arm_name(const struct vm_arm *arms, size_t narms, size_t i, struct strbuf *out)
{
	struct strbuf other = STRBUF_INIT;
	size_t same = 0, nth = 0;

	arm_base(&arms[i], out);
	if (!out->len) {
		strbuf_addf(out, "arm%zu", i + 1);
		return;
	}
	for (size_t j = 0; j < narms; j++) {
		arm_base(&arms[j], &other);
		if (!strcmp(other.buf, out->buf)) {
			same++;
			if (j <= i)
				nth++;
		}
	}
	strbuf_release(&other);
	if (same > 1) {
		char n[24];

		snprintf(n, sizeof(n), "-%zu", nth);
		if (out->len + strlen(n) > 32) {
			out->len = 32 - strlen(n);
			out->buf[out->len] = '\0';
		}
		strbuf_addstr(out, n);
	}
}

/* The path of a build's input as an arm key: absolute, so that a resumed
 * experiment finds it from anywhere (a make target is left as it is). */
static void input_path(const char *path, int target, struct strbuf *out)
{
	char real[PATH_MAX];

	strbuf_addstr(out, !target && realpath(path, real) ? real : path);
}

/* What the arms of refs are built from: the tree, the base config, the
 * fragments given (the guest fragment comes from the experiment's
 * defaults, as kbench ab --resume has them). */
struct ref_build {
	const char *tree, *kconfig;
	const char *const *fragments;
	size_t nfragments;
};

/* The arms as [arm:NAME] sections, the experiment's extra config text;
 * an arm of a ref has the keys tree, ref, kconfig and fragment of rb.
 * Return 0, or -1 after an error (a value of more than one line). */
static int arms_text(const struct vm_arm *arms, size_t narms, const struct ref_build *rb,
		     struct strbuf *out)
{
	struct strbuf name = STRBUF_INIT;

	for (size_t i = 0; i < narms; i++) {
		const struct vm_arm *a = &arms[i];
		const char *k = a->ref ? a->ref : a->vc.kernel;

		if (strpbrk(k, "\n\r") || (a->vc.append && strpbrk(a->vc.append, "\n\r"))) {
			strbuf_release(&name);
			return error("a kernel's path, ref and command line are one line each");
		}
		if (a->name) {
			strbuf_reset(&name);
			strbuf_addstr(&name, a->name);
		} else {
			arm_name(arms, narms, i, &name);
		}
		strbuf_addf(out, "[arm:%s]\n", name.buf);
		if (a->ref) {
			strbuf_addstr(out, "tree = ");
			input_path(rb->tree, 0, out);
			strbuf_addf(out, "\nref = %s\n", a->ref);
			if (rb->kconfig) {
				const char *kc = rb->kconfig;

				strbuf_addstr(out, "kconfig = ");
				input_path(kc, !strchr(kc, '/') && access(kc, F_OK), out);
				strbuf_addch(out, '\n');
			}
			for (size_t f = 0; f < rb->nfragments; f++) {
				strbuf_addstr(out, "fragment = ");
				input_path(rb->fragments[f], 0, out);
				strbuf_addch(out, '\n');
			}
		} else {
			strbuf_addf(out, "kernel = %s\n", a->vc.kernel);
		}
		if (a->vc.append)
			strbuf_addf(out, "append = %s\n", a->vc.append);
	}
	strbuf_release(&name);
	return 0;
}

/* Two kernels or more: an experiment of kernel arms, then the paired
 * comparison of their runs. */
static int run_arms(const struct vm_arm *arms, size_t narms, const struct vm_config *vc,
		    const struct ref_build *rb, const struct kbuild_request *build,
		    const struct vm_opts *o)
{
	const struct opt_list *configs = &o->configs, *overrides = &o->overrides;
	const char *note = o->note;
	struct strbuf text = STRBUF_INIT, path = STRBUF_INIT;
	struct experiment_options eo = {
		.nconfigs = configs->n,
		.overrides = (char *const *)overrides->v,
		.noverrides = overrides->n,
		.rounds = o->rounds,
		.only = o->only,
		.extra_name = rb ? "--ref" : "-k",
		.vm = vc,
		.build = build,
	};
	char **paths = xcalloc(configs->n + 1, sizeof(*paths));
	struct experiment e;
	struct store *store = NULL;
	int rc = EXIT_USAGE;

	memset(&e, 0, sizeof(e));
	for (size_t i = 0; i < configs->n; i++) {
		if (cmd_find_config(configs->v[i], &path))
			goto out;
		paths[i] = strbuf_detach(&path);
	}
	eo.configs = paths;
	if (arms_text(arms, narms, rb, &text))
		goto out;
	eo.extra = text.buf;
	if (experiment_load(&e, &eo))
		goto out;
	for (size_t i = 0; i < e.narms; i++)
		if (cmd_check_run_name(e.arms[i].run_name))
			goto out;
	if (o->dry) {
		cmd_store_path(&path);
		if (!access(path.buf, F_OK) && cmd_open_store(&store, CMD_STORE_READ))
			store = NULL;
		rc = experiment_dry_run(&e, store) ? 1 : 0;
		goto out;
	}
	rc = 1;
	if (cmd_open_store(&store, CMD_STORE_WRITE))
		goto out;
	rc = experiment_run(&e, store);
	for (size_t i = 0; note && i < e.narms; i++)
		if (e.arms[i].run_id > 0 && store_set_note(store, e.arms[i].run_id, note, 0) &&
		    !rc)
			rc = 1;
	if (rc == 0 && !o->no_report)
		rc = report_experiment(store, &e, COMPARE_FORMAT_TEXT) ? 1 : 0;
out:
	store_close(store);
	experiment_release(&e);
	for (size_t i = 0; i < configs->n; i++)
		free(paths[i]);
	free(paths);
	strbuf_release(&text);
	strbuf_release(&path);
	return rc;
}

static volatile sig_atomic_t build_stop;

static void on_signal(int sig)
{
	build_stop = sig;
}

/* The kernel of rq built (or found in the kernel cache), interrupted by
 * SIGINT, SIGTERM or SIGHUP; as kbuild_build returns. */
static int build_one(struct kbuild_request *rq, struct kbuild_result *res, struct strbuf *err)
{
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term, old_hup;
	int rc;

	build_stop = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	rq->stop = &build_stop;
	rc = kbuild_build(rq, res, err);
	rq->stop = NULL;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	if (rc)
		return rc;
	if (res->cache_hit)
		notice("%s (%.12s %s) from the kernel cache", res->describe, res->commit,
		       res->subject);
	else
		notice("built %s (%.12s %s) in %dm%02ds", res->describe, res->commit, res->subject,
		       (int)res->build_s / 60, (int)res->build_s % 60);
	return 0;
}

/* --dry-run: the QEMU command line, then the plan. */
static int dry_run(const struct vm_config *vc, const struct plan *p, const struct config *c)
{
	struct strbuf cmd = STRBUF_INIT;
	struct store *s = NULL;
	struct strbuf path = STRBUF_INIT;
	int rc;

	vm_describe_command(vc, !strcmp(vc->accel, "kvm") ? "kvm" : "tcg", "INITRAMFS", &cmd);
	printf("QEMU command line%s:\n%s", !strcmp(vc->accel, "auto") ?
	       " (TCG; KVM with -accel kvm -cpu host when it boots the guest)" : "", cmd.buf);
	printf("INITRAMFS: kbench-sample as /init%s%s%s\n", vc->initrd ? ", after '" : "",
	       vc->initrd ? vc->initrd : "", vc->initrd ? "'" : "");
	if (vc->modules_dir) {
		struct kmod_set mods;

		strbuf_reset(&path);
		if (kmod_resolve(vc->modules_dir, vc->modprobe, &mods, &path)) {
			error("--modules: %s", path.buf);
			strbuf_release(&path);
			strbuf_release(&cmd);
			return 1;
		}
		printf("MODULES: from %s, loaded in this order:", mods.release_dir);
		for (size_t i = 0; i < mods.n; i++)
			printf(" %s", mods.mods[i].name);
		for (size_t i = 0; i < mods.nbuiltin; i++)
			printf("%s%s", i ? ", " : "; built in: ", mods.builtin[i]);
		printf("\n");
		kmod_set_release(&mods);
	}
	printf("\n");
	fflush(stdout);
	s = cmd_open_store_if_any();
	rc = dryrun_print(p, c, s) ? 1 : 0;
	store_close(s);
	strbuf_release(&path);
	strbuf_release(&cmd);
	return rc;
}

/* --vcpu-pin: a policy for any number of workers (or unbound), checked
 * as it is parsed, into the const char * opt->value. */
static int parse_vcpu_pin(const struct parse_opt *opt, const char *value)
{
	const struct pin_policy *p = pin_policy_find(value);

	if (!p)
		return error("--vcpu-pin: unknown pin policy '%s'; use spread, compact or unbound",
			     value);
	if (p->kind == PIN_TWO)
		return error("--vcpu-pin: '%s' is a policy for two parties; use spread, compact "
			     "or unbound", value);
	*(const char **)opt->value = value;
	return 0;
}

/* The options that name the kernel, checked before anything is built.
 * Return 0, or -1 after saying why not. */
static int check_kernel_options(const struct vm_opts *o, int argc, char **argv)
{
	const struct cmd_build_opts *bo = &o->bo;

	if (argc > 0)
		return error("unexpected argument '%s' (the kernel is given with -k, configs "
			     "with -c)", argv[0]);
	if (o->kernels.n && o->refs.n)
		return error("-k and --ref cannot be combined: a kernel is an image, or a "
			     "commit of --tree built");
	if (!o->refs.n && (bo->tree || bo->kconfig || bo->fragments.n || bo->no_guest_fragment ||
			   bo->cache || bo->jobs || bo->timeout_s))
		return error("--tree, --kconfig, --fragment, --no-guest-fragment, --cache, --jobs "
			     "and --build-timeout build the kernel of a --ref: give --ref REF");
	if (!o->kernels.n && !o->refs.n)
		return error("no kernel given: use -k IMAGE (e.g. arch/x86/boot/bzImage), or "
			     "--ref REF of a kernel tree");
	return 0;
}

/* The options of narms arms and of their guest, checked before a kernel
 * is built (o->vc takes --icount). Return 0, or the exit status after
 * saying why not. */
static int check_arm_options(struct vm_opts *o, size_t narms)
{
	if (o->refs.n > 1 && o->refs.n != narms) {
		error("%zu arms: give one --ref for each arm", narms);
		return EXIT_USAGE;
	}
	if (o->icount && cmd_check_icount(o->vc.accel, o->vc.vcpus))
		return EXIT_USAGE;
	/* What the options say is refused before a kernel is built. */
	if (check_guest_options(&o->vc) || cmd_require_configs(&o->configs, NULL, NULL))
		return EXIT_USAGE;
	if (check_guest_files(&o->vc))
		return 1;
	if (o->icount)
		o->vc.icount_shift = VM_ICOUNT_SHIFT;
	if ((o->kernels.n > 1 && o->kernels.n != narms) ||
	    (o->appends.n > 1 && o->appends.n != narms) ||
	    (o->names.n > 1 && o->names.n != narms) || (o->names.n == 1 && narms > 1)) {
		error("%zu arms: give one -k, --append and -n for all or one for each arm, and "
		      "a name for each arm", narms);
		return EXIT_USAGE;
	}
	return 0;
}

/* The kernels of refs: one arm's built now (--dry-run: its commit
 * found), into built and the arm's image and facts; the refs of several
 * arms found, built when the experiment's arms are loaded and run.
 * Return 0, or the exit status after saying why not. */
static int prepare_refs(struct kbuild_request *build, const struct vm_opts *o,
			struct vm_arm *arms, size_t narms, struct kbuild_result *built,
			const char **built_facts)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	if (narms == 1) {
		build->ref = o->refs.v[0];
		rc = o->dry ? kbuild_resolve(build, built, &err) : build_one(build, built, &err);
		if (rc) {
			error("%s", err.buf);
			rc = rc >= 128 ? rc : 1;
			goto out;
		}
		if (o->dry)
			printf("KERNEL: %s (%.12s %s) of %s, %s: %s\n", built->describe,
			       built->commit, built->subject, built->tree, built->config_desc,
			       built->cache_hit ? "in the kernel cache" :
			       "not in the kernel cache, built first");
		kbuild_facts(built, built_facts);
		arms[0].vc.kernel = built->image;
		arms[0].vc.facts = built_facts;
		goto out;
	}
	/* A tree or a ref that is not there is said as such (exit 1), not
	 * as a line of the arms' config text. */
	for (size_t i = 0; i < o->refs.n; i++) {
		struct kbuild_result found;

		memset(&found, 0, sizeof(found));
		build->ref = o->refs.v[i];
		rc = kbuild_resolve(build, &found, &err);
		kbuild_result_release(&found);
		build->ref = NULL;
		if (rc) {
			error("%s", err.buf);
			rc = 1;
			goto out;
		}
	}
out:
	strbuf_release(&err);
	return rc;
}

/* One kernel: the plan run in its guest, a boot a round, then the run's
 * note and report. Return the exit status. */
static int run_kernel(struct vm_config *vc, const char *name, const struct vm_opts *o)
{
	struct config conf;
	struct plan plan = { .n = 0 };
	struct pin_topo *topo = NULL;
	struct store *store = NULL;
	struct run_request req = { .name = name };
	struct strbuf err = STRBUF_INIT;
	int64_t run_id = 0;
	int rc = EXIT_USAGE;

	config_init(&conf);
	if (cmd_load_configs(&conf, &o->configs, &o->overrides))
		goto out;
	/* Pin policies are computed on the guest's topology: a row the
	 * guest cannot honour is refused here, before it boots. */
	if (vm_guest_topology(vc, &topo, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (plan_build_on(&conf, o->only, topo, &plan) || vm_plan_for_guest(&plan))
		goto out;
	if (o->dry) {
		rc = dry_run(vc, &plan, &conf);
		goto out;
	}
	rc = 1;
	if (cmd_open_store(&store, CMD_STORE_WRITE))
		goto out;
	rc = vm_run_rounds(vc, &plan, &conf, store, &req, o->rounds, &run_id);
	if (o->note && run_id > 0 && store_set_note(store, run_id, o->note, 0) && !rc)
		rc = 1;
	if (rc == 0 && !o->no_report)
		rc = report_run(store, run_id) ? 1 : 0;
out:
	store_close(store);
	plan_release(&plan);
	config_release(&conf);
	strbuf_release(&err);
	return rc;
}

int cmd_vm(int argc, char **argv)
{
	struct vm_opts o = {
		.configs = OPT_LIST_INIT, .overrides = OPT_LIST_INIT,
		.kernels = OPT_LIST_INIT, .appends = OPT_LIST_INIT, .names = OPT_LIST_INIT,
		.refs = OPT_LIST_INIT,
		.bo = { .fragments = OPT_LIST_INIT, .timeout_name = "build-timeout" },
		.vc = VM_CONFIG_INIT,
		.rounds = 1,
	};
	struct kbuild_request build;
	struct kbuild_result built;
	char **fragments = NULL;
	const char *built_facts[2 * KBUILD_NFACTS + 1] = { NULL };
	struct vm_arm *arms = NULL;
	size_t narms = 0;
	struct strbuf err = STRBUF_INIT;
	struct vm_config vc;
	const struct parse_opt options[] = {
		OPT_STRING_LIST('k', "kernel", &o.kernels, "IMAGE",
				"the kernel to boot: a bzImage (a tree's\n"
				"arch/x86/boot/bzImage) or a /boot/vmlinuz;\n"
				"repeated: the arms of an alternation"),
		OPT_STRING(0, "tree", &o.bo.tree, "DIR",
			   "the kernel git tree --ref names commits of\n"
			   "(default: the current directory)"),
		OPT_STRING_LIST(0, "ref", &o.refs, "REF",
				"boot the kernel of commit REF, built as kbench\n"
				"build builds it; repeated: the arms"),
		CMD_BUILD_OPTIONS(&o.bo, "build-timeout"),
		OPT_STRING_LIST('c', "config", &o.configs, "FILE",
				"an INI config (repeatable); see kbench.conf(5)"),
		OPT_STRING_LIST('o', NULL, &o.overrides, "KEY=VALUE",
				"set KEY over the configs, as for kbench run"),
		OPT_STRING_LIST(0, "append", &o.appends, "TEXT",
				"more of the kernel command line (console=ttyS0\n"
				"panic=-1 come first); repeated: one an arm"),
		OPT_STRING(0, "initrd", &o.vc.initrd, "FILE",
			   "an initramfs unpacked before kbench's own (modules,\n"
			   "firmware); kbench's /init wins"),
		OPT_STRING(0, "modules", &o.vc.modules_dir, "DIR",
			   "a modules tree (INSTALL_MOD_PATH of make\n"
			   "modules_install, or lib/modules/RELEASE) to\n"
			   "load --modprobe's modules from"),
		OPT_STRING(0, "modprobe", &o.vc.modprobe, "NAME,...",
			   "modules the guest loads at boot, with what\n"
			   "they depend on (needs --modules)"),
		OPT_INT_RANGE(0, "vcpus", &o.vc.vcpus, "N", "vCPUs (default 2)", 1, 288),
		OPT_INT_RANGE(0, "memory", &o.vc.mem_mib, "MIB", "guest memory in MiB (default 512)",
			      64, 1 << 22),
		OPT_CALLBACK(0, "accel", &o.vc.accel, "auto|kvm|tcg",
			     "KVM, TCG, or KVM when it boots the guest and\n"
			     "TCG otherwise (default auto)", cmd_parse_accel),
		OPT_BOOL(0, "icount", &o.icount,
			 "under TCG, time the guest by the instructions it\n"
			 "runs, not the host's clock (needs --vcpus 1)"),
		OPT_STRING(0, "cpu", &o.vc.cpu, "MODEL",
			   "QEMU's -cpu (default: host under KVM, QEMU's\n"
			   "own under TCG)"),
		OPT_CALLBACK(0, "vcpu-pin", &o.vc.vcpu_pin, "POLICY",
			     "host PUs of the vCPU threads: spread (one a core,\n"
			     "the default), compact or unbound", parse_vcpu_pin),
		OPT_DOUBLE(0, "boot-timeout", &o.vc.boot_timeout_s, "SECONDS",
			   "how long the guest may take to come up (default 60)"),
		OPT_STRING_LIST('n', "name", &o.names, "NAME",
				"the run's name (default: the guest's uname -r);\n"
				"with arms: one an arm's (default: the image's\n"
				"file name), its run CONFIG/NAME"),
		OPT_INT_RANGE(0, "rounds", &o.rounds, "N",
			      "rounds of every section, each arm booted once a\n"
			      "round, in ABBA order (default 1)", 1, 1000),
		OPT_STRING(0, "only", &o.only, "REGEX",
			   "run only the sections whose name matches (PCRE2)"),
		OPT_BOOL(0, "dry-run", &o.dry,
			 "print the QEMU command line and the plan, run nothing"),
		OPT_BOOL(0, "no-report", &o.no_report, "do not print the table after the run"),
		OPT_CALLBACK(0, "note", &o.note, "TEXT", "the run's note", cmd_parse_note),
		OPT_HELP("this text"),
		OPT_END(),
	};
	int rc = EXIT_USAGE;

	memset(&built, 0, sizeof(built));
	argc = parse_options(argc, argv, options, &vm_usage, 0);
	if (argc < 0) {
		rc = argc == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
		goto out;
	}
	if (check_kernel_options(&o, argc, argv))
		goto out;
	if (o.refs.n && cmd_build_request(&o.bo, &build, &fragments))
		goto out;
	narms = o.kernels.n + o.refs.n > o.appends.n ? o.kernels.n + o.refs.n : o.appends.n;
	if ((rc = check_arm_options(&o, narms)))
		goto out;
	rc = EXIT_USAGE;
	if (!(arms = vm_arms(&o.kernels, &o.refs, &o.appends, &o.names, &o.vc, narms)))
		goto out;
	if (o.refs.n && (rc = prepare_refs(&build, &o, arms, narms, &built, built_facts)))
		goto out;
	rc = EXIT_USAGE;
	/* A missing or wrong image is said before anything, --dry-run too. */
	for (size_t i = 0;
	     i < narms && (!o.refs.n || (narms == 1 && (!o.dry || built.cache_hit))); i++)
		if (vm_check_kernel(arms[i].vc.kernel, &err)) {
			error("%s", err.buf);
			goto out;
		}
	vc = arms[0].vc;
	if (check_guest(&vc))
		goto out;
	if (narms > 1) {
		struct ref_build rb = { .tree = build.tree, .kconfig = o.bo.kconfig };
		size_t guest = o.bo.no_guest_fragment ? 0 : 1;

		vc.kernel = vc.append = NULL;
		vc.facts = NULL;
		if (o.refs.n) {
			/* The arms' keys name the base config and the fragments
			 * given; the guest fragment is the experiment's default,
			 * as kbench ab --resume has it. */
			rb.fragments = build.fragments + guest;
			rb.nfragments = build.nfragments - guest;
			build.kconfig = NULL;
			build.nfragments = guest;
		}
		rc = run_arms(arms, narms, &vc, o.refs.n ? &rb : NULL, o.refs.n ? &build : NULL,
			      &o);
		goto out;
	}
	rc = run_kernel(&vc, arms[0].name, &o);
out:
	free(arms);
	kbuild_result_release(&built);
	cmd_build_fragments_free(fragments);
	opt_list_release(&o.refs);
	opt_list_release(&o.bo.fragments);
	opt_list_release(&o.kernels);
	opt_list_release(&o.appends);
	opt_list_release(&o.names);
	opt_list_release(&o.configs);
	opt_list_release(&o.overrides);
	strbuf_release(&err);
	return rc;
}
