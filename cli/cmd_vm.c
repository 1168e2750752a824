/* cmd_vm: kbench vm -k IMAGE -c CONF [-c CONF...] [-o ...] [-n NAME]: run
 * the configs inside a kernel booted under QEMU (runner/vm.h), storing
 * each sample as a native run does. */
#include "config.h"
#include "cli/cmd.h"
#include "runner/conf.h"
#include "runner/dryrun.h"
#include "runner/plan.h"
#include "runner/runner.h"
#include "runner/vm.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "machine/pin.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct parse_opt_usage vm_usage = {
	.synopsis = "kbench vm -k IMAGE -c CONFIG [-c CONFIG...] [-o [SECTION.]KEY=VALUE...]\n"
		    "                 [--append TEXT] [--initrd FILE] [--vcpus N] [--memory MIB]\n"
		    "                 [--accel auto|kvm|tcg] [-n NAME] [--only REGEX] [--dry-run]",
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
		"arguments or config, 128+N interrupted by signal N. See docs/vm.md.",
};

static int check_accel(const char *a)
{
	if (!strcmp(a, "auto") || !strcmp(a, "kvm") || !strcmp(a, "tcg"))
		return 0;
	return error("--accel must be auto, kvm or tcg, not '%s'", a);
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
	printf("INITRAMFS: kbench-sample as /init%s%s%s\n\n", vc->initrd ? ", after '" : "",
	       vc->initrd ? vc->initrd : "", vc->initrd ? "'" : "");
	fflush(stdout);
	if (global_opts.db)
		strbuf_addstr(&path, global_opts.db);
	else
		store_default_path(&path);
	if (!access(path.buf, F_OK) && cmd_open_store(&s, CMD_STORE_READ))
		s = NULL;
	rc = dryrun_print(p, c, s) ? 1 : 0;
	store_close(s);
	strbuf_release(&path);
	strbuf_release(&cmd);
	return rc;
}

int cmd_vm(int argc, char **argv)
{
	struct opt_list configs = OPT_LIST_INIT, overrides = OPT_LIST_INIT;
	struct strbuf config_path = STRBUF_INIT, err = STRBUF_INIT;
	struct vm_config vc = VM_CONFIG_INIT;
	struct run_request req = { .name = NULL };
	const char *only = NULL, *note = NULL;
	int dry = 0, no_report = 0;
	const struct parse_opt options[] = {
		OPT_STRING('k', "kernel", &vc.kernel, "IMAGE",
			   "the kernel to boot: a bzImage (a tree's\n"
			   "arch/x86/boot/bzImage) or a /boot/vmlinuz"),
		OPT_STRING_LIST('c', "config", &configs, "FILE",
				"an INI config (repeatable); see kbench.conf(5)"),
		OPT_STRING_LIST('o', NULL, &overrides, "KEY=VALUE",
				"set KEY over the configs, as for kbench run"),
		OPT_STRING(0, "append", &vc.append, "TEXT",
			   "more of the kernel command line (console=ttyS0\n"
			   "panic=-1 come first)"),
		OPT_STRING(0, "initrd", &vc.initrd, "FILE",
			   "an initramfs unpacked before kbench's own (modules,\n"
			   "firmware); kbench's /init wins"),
		OPT_INT_RANGE(0, "vcpus", &vc.vcpus, "N", "vCPUs (default 2)", 1, 288),
		OPT_INT_RANGE(0, "memory", &vc.mem_mib, "MIB", "guest memory in MiB (default 512)",
			      64, 1 << 22),
		OPT_STRING(0, "accel", &vc.accel, "auto|kvm|tcg",
			   "KVM, TCG, or KVM when it boots the guest and\n"
			   "TCG otherwise (default auto)"),
		OPT_STRING(0, "cpu", &vc.cpu, "MODEL",
			   "QEMU's -cpu (default: host under KVM, QEMU's\n"
			   "own under TCG)"),
		OPT_STRING(0, "vcpu-pin", &vc.vcpu_pin, "POLICY",
			   "host PUs of the vCPU threads: spread (one a core,\n"
			   "the default), compact or unbound"),
		OPT_DOUBLE(0, "boot-timeout", &vc.boot_timeout_s, "SECONDS",
			   "how long the guest may take to come up (default 60)"),
		OPT_STRING('n', "name", &req.name, "NAME",
			   "the run's name (default: the guest's uname -r)"),
		OPT_STRING(0, "only", &only, "REGEX",
			   "run only the sections whose name matches (PCRE2)"),
		OPT_BOOL(0, "dry-run", &dry,
			 "print the QEMU command line and the plan, run nothing"),
		OPT_BOOL(0, "no-report", &no_report, "do not print the table after the run"),
		OPT_STRING(0, "note", &note, "TEXT", "the run's note"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct config conf;
	struct plan plan = { .n = 0 };
	struct pin_topo *topo = NULL;
	struct store *store = NULL;
	struct vm *vm = NULL;
	int64_t run_id = 0;
	int rc = EXIT_USAGE;

	config_init(&conf);
	argc = parse_options(argc, argv, options, &vm_usage, 0);
	if (argc < 0) {
		rc = argc == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
		goto out;
	}
	if (argc > 0) {
		error("unexpected argument '%s' (the kernel is given with -k, configs with -c)",
		      argv[0]);
		goto out;
	}
	if (!vc.kernel) {
		error("no kernel given: use -k IMAGE (e.g. arch/x86/boot/bzImage)");
		goto out;
	}
	if (!configs.n) {
		error("no config given: use -c FILE (e.g. configs/quick.conf)");
		goto out;
	}
	if (check_accel(vc.accel) || (req.name && cmd_check_run_name(req.name)) ||
	    (note && cmd_check_note(note)))
		goto out;
	if (!(vc.boot_timeout_s > 0)) {
		error("--boot-timeout must be more than 0 seconds");
		goto out;
	}
	for (size_t i = 0; i < configs.n; i++) {
		cmd_find_config(configs.v[i], &config_path);
		if (config_load(&conf, config_path.buf))
			goto out;
	}
	for (size_t i = 0; i < overrides.n; i++)
		if (config_add_override(&conf, overrides.v[i]))
			goto out;
	/* Pin policies are computed on the guest's topology: a row the
	 * guest cannot honour is refused here, before it boots. */
	if (vm_guest_topology(&vc, &topo, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (plan_build_on(&conf, only, topo, &plan) || vm_plan_for_guest(&plan))
		goto out;
	if (dry) {
		rc = dry_run(&vc, &plan, &conf);
		goto out;
	}
	rc = 1;
	if (cmd_open_store(&store, CMD_STORE_WRITE))
		goto out;
	if (vm_boot(&vc, &vm))
		goto out;
	req.exec = vm_executor(vm);
	rc = plan_execute(&plan, &conf, store, &req, &run_id);
	vm_stop(vm);
	vm = NULL;
	if (rc < 0)
		rc = 1;
	if (note && run_id > 0 && store_set_note(store, run_id, note, 0) && !rc)
		rc = 1;
	if (rc == 0 && !no_report)
		rc = cmd_report_run(store, run_id) ? 1 : 0;
out:
	vm_stop(vm);
	store_close(store);
	plan_release(&plan);
	config_release(&conf);
	opt_list_release(&configs);
	opt_list_release(&overrides);
	strbuf_release(&config_path);
	strbuf_release(&err);
	return rc;
}
