/* vm: boot a kernel under QEMU with an initramfs of kbench's own (its
 * init is kbench-sample), talk to the guest over its second serial
 * port, and run a plan's samples there. The guest has no disk and no
 * network device: QEMU gets no drive, no NIC and no monitor. */
#include "config.h"
#include "kernel/vm.h"
#include "kernel/vm_image.h"
#include "runner/conf.h"
#include "runner/plan.h"
#include "runner/runner.h"
#include "db/store.h"
#include "lib/child.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "kernel/kmod.h"
#include "machine/pin.h"
#include "machine/sysinfo.h"
#include "monitors/monitor.h"
#include "sampler/guest.h"
#include "sampler/sample.h"
#include "workloads/params.h"
#include "workloads/workload.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* How long a guest may take beyond a sample's own timeout to answer
 * (TCG runs the guest's kernel several times slower than the host). */
#define VM_ANSWER_GRACE_S 30.0
/* How long a KVM boot may take before kbench gives up on KVM. */
#define VM_KVM_PROBE_S 20.0
/* How long a guest may take to power off before QEMU is killed. */
#define VM_QUIT_S 5.0
/* Boots of one guest before a death before kbench's init is an error. */
#define VM_BOOT_TRIES 3
/* Console lines shown when the guest fails. */
#define VM_CONSOLE_TAIL 20

struct vm {
	struct vm_config cfg;
	const char *accel;		/* "kvm" or "tcg": what booted */
	struct child_program qemu;	/* running while qemu.w.running */
	int qemu_err;			/* read end of QEMU's stderr, or -1 */
	int qemu_pidfd;			/* QEMU's pidfd, or -1 */
	int sock;			/* our end of the guest's ttyS1 */
	struct strbuf dir;		/* scratch directory: initramfs, console */
	struct strbuf in;		/* bytes from the guest not yet framed */
	struct strbuf err;		/* QEMU's stderr */
	struct strbuf version;		/* QEMU's --version, first line */
	struct kernel_info kernel;	/* the guest's */
	char *cpu_model;
	int cpus, numa_nodes;
	unsigned long long mem_bytes;
	double boot_s;
	int boot_retries;		/* boots that died before the one that spoke */
	struct strbuf pinned;		/* "CPU 0 -> P#0, CPU 1 -> P#1" */
	struct kmod_set mods;		/* what the guest loads at boot */
	struct strbuf loaded;		/* the modules it loaded: "dummy loop" */
	struct strbuf mod_errors;	/* "dummy: Invalid module format; " */
	struct sample_executor exec;
	int gone;			/* QEMU ended or stopped answering */
	int keep_dir;			/* the console log is wanted after us */
};

int vm_guest_topology(const struct vm_config *cfg, struct pin_topo **out, struct strbuf *err)
{
	char desc[64];

	snprintf(desc, sizeof(desc), "pack:1 l3:1 core:%d pu:1", cfg->vcpus);
	return pin_topo_load(desc, NULL, out, err);
}

int vm_plan_for_guest(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		struct plan_section *ps = &p->sections[i];

		if (!sample_execs(ps->ops))
			return error("%s:%d: [%s] workload '%s' cannot run in the guest: only "
				     "kbench-sample's drivers (hackbench, netperf, pft) are in its "
				     "initramfs, not the program and libraries an external "
				     "workload runs", ps->cs->file, ps->cs->line, ps->cs->name,
				     ps->ops->name);
		/* The guest's PUs are numbered as the synthetic topology's. */
		if (ps->pin)
			ps->pin->binds = 1;
		/* Host counters would count the host, not the guest. */
		monitor_set_free(ps->monitors);
		ps->monitors = NULL;
	}
	return 0;
}

/* ---- QEMU ---- */

static void console_path(const struct vm *vm, struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s/console.log", vm->dir.buf);
}

/* The last n lines of the guest's console, each indented, into out. */
static void console_tail(const struct vm *vm, int n, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	size_t start;
	int lines = 0;

	console_path(vm, &path);
	if (strbuf_read_file(&text, path.buf) < 0 || !text.len) {
		strbuf_addstr(out, "    (the console is empty)\n");
		goto out;
	}
	strbuf_rtrim(&text);
	for (start = text.len; start > 0; start--)
		if (text.buf[start - 1] == '\n' && ++lines == n)
			break;
	/* A panic's first line says more than its stack trace: from there,
	 * however long. */
	{
		const char *panic = strstr(text.buf, "Kernel panic - not syncing");

		while (panic && panic > text.buf && panic[-1] != '\n')
			panic--;
		if (panic && (size_t)(panic - text.buf) < start)
			start = (size_t)(panic - text.buf);
	}
	for (const char *s = text.buf + start; *s;) {
		size_t len = strcspn(s, "\n");

		/* Carriage returns and other controls stay out of messages. */
		strbuf_addstr(out, "    ");
		for (size_t i = 0; i < len; i++)
			if ((unsigned char)s[i] >= 0x20 && s[i] != 0x7f)
				strbuf_addch(out, s[i]);
		strbuf_addch(out, '\n');
		s += len + (s[len] == '\n');
	}
out:
	strbuf_release(&path);
	strbuf_release(&text);
}

static void qemu_version(struct vm *vm)
{
	const char *argv[] = { vm_qemu_program(&vm->cfg), "--version", NULL };
	struct child_program p = CHILD_PROGRAM_INIT;
	struct child_io io = { .out = &vm->version, .timeout_s = 10 };
	struct strbuf why = STRBUF_INIT;

	p.argv = argv;
	p.in = p.err = CHILD_FD_NULL;
	p.new_group = 1;
	/* No version is no fact, not an error: a QEMU that cannot run says
	 * so when it is started. */
	if (child_program_run(&p, &io, &why) != CHILD_EXITED)
		strbuf_reset(&vm->version);
	if (vm->version.len) {
		vm->version.len = strcspn(vm->version.buf, "\n");
		vm->version.buf[vm->version.len] = '\0';
	}
	strbuf_release(&why);
}

/* Take what QEMU wrote to its stderr into vm->err; with wait_ms, wait
 * that long for it first. Return 0 at its end (EOF), else 1. */
static int qemu_read_err(struct vm *vm, int wait_ms)
{
	struct pollfd pfd = { .fd = vm->qemu_err, .events = POLLIN };
	char buf[4096];
	ssize_t n;

	if (vm->qemu_err < 0)
		return 0;
	if (wait_ms && poll(&pfd, 1, wait_ms) <= 0)
		return 1;
	n = read(vm->qemu_err, buf, sizeof(buf));
	if (n > 0) {
		strbuf_add(&vm->err, buf, (size_t)n);
		return 1;
	}
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	close(vm->qemu_err);
	vm->qemu_err = -1;
	return 0;
}

/* Let QEMU (if it runs) end by itself within grace_s, else kill its
 * group; reap it, its stderr added to vm->err. */
static void qemu_end(struct vm *vm, double grace_s)
{
	int64_t deadline = clock_ns(CLOCK_MONOTONIC) + (int64_t)(grace_s * 1e9);

	if (!vm->qemu.w.running)
		return;
	while (!worker_poll(&vm->qemu.w) && clock_ns(CLOCK_MONOTONIC) < deadline)
		if (!qemu_read_err(vm, 50))
			usleep(50000);	/* its stderr closed: look again soon */
	/* What is left of its group goes with it (or it, at the grace). */
	worker_kill_group(&vm->qemu.w);
	/* Its last words, bounded: a process it left could hold the pipe. */
	for (int i = 0; i < 20 && qemu_read_err(vm, 10); i++)
		;
	if (vm->qemu_err >= 0)
		close(vm->qemu_err);
	vm->qemu_err = -1;
	if (vm->qemu_pidfd >= 0)
		close(vm->qemu_pidfd);
	vm->qemu_pidfd = -1;
	if (vm->sock >= 0)
		close(vm->sock);
	vm->sock = -1;
}

static int qemu_start(struct vm *vm, const char *accel)
{
	struct strbuf initramfs = STRBUF_INIT, console = STRBUF_INIT, why = STRBUF_INIT;
	struct words w = { 0 };
	int sv[2] = { -1, -1 }, ep[2] = { -1, -1 }, rc = -1;

	strbuf_addf(&initramfs, "%s/initramfs.cpio", vm->dir.buf);
	console_path(vm, &console);
	unlink(console.buf);
	vm_command_words(&vm->cfg, accel, initramfs.buf, console.buf, &w);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) || pipe2(ep, O_CLOEXEC)) {
		error("cannot make the guest's link: %s", strerror(errno));
		goto out;
	}
	/* The guest's ttyS1 is QEMU's stdin and stdout (-serial stdio). */
	vm->qemu = (struct child_program)CHILD_PROGRAM_INIT;
	vm->qemu.argv = (const char *const *)w.v;
	vm->qemu.in = vm->qemu.out = sv[1];
	vm->qemu.err = ep[1];
	vm->qemu.new_group = 1;
	if (child_program_start(&vm->qemu, &why)) {
		error("%s", why.buf);
		goto out;
	}
	vm->qemu_pidfd = (int)syscall(SYS_pidfd_open, vm->qemu.w.pid, 0);
	vm->sock = sv[0];
	vm->qemu_err = ep[0];
	sv[0] = ep[0] = -1;
	fcntl(vm->qemu_err, F_SETFL, O_NONBLOCK);
	vm->accel = !strcmp(accel, "kvm") ? "kvm" : "tcg";
	strbuf_reset(&vm->in);
	strbuf_reset(&vm->err);
	rc = 0;
out:
	for (int i = 0; i < 2; i++) {
		if (sv[i] >= 0)
			close(sv[i]);
		if (ep[i] >= 0)
			close(ep[i]);
	}
	vm_words_release(&w);
	strbuf_release(&initramfs);
	strbuf_release(&console);
	strbuf_release(&why);
	return rc;
}

enum wait_end {
	WAIT_FRAME,	/* a frame arrived */
	WAIT_TIMEOUT,
	WAIT_EXITED,	/* QEMU ended (or closed the link) */
	WAIT_STOPPED,	/* *stop was set */
	WAIT_BROKEN,	/* KVM said it cannot run the guest */
};

/* Wait up to timeout_s for the next frame from the guest, keeping QEMU's
 * stderr. */
static enum wait_end wait_frame(struct vm *vm, double timeout_s, volatile sig_atomic_t *stop,
				int *type, struct strbuf *payload)
{
	int64_t deadline = clock_ns(CLOCK_MONOTONIC) + (int64_t)(timeout_s * 1e9);
	size_t dropped = 0;

	for (;;) {
		struct pollfd pfd[3] = {
			{ .fd = vm->sock, .events = POLLIN },
			{ .fd = vm->qemu_err, .events = POLLIN },
			{ .fd = vm->qemu_pidfd, .events = POLLIN },
		};
		int64_t left;
		char buf[4096];
		ssize_t n;

		if (wire_take(&vm->in, type, payload, &dropped))
			return WAIT_FRAME;
		if (stop && *stop)
			return WAIT_STOPPED;
		if (strstr(vm->err.buf, "KVM internal error") ||
		    strstr(vm->err.buf, "failed to set MSR"))
			return WAIT_BROKEN;
		left = (deadline - clock_ns(CLOCK_MONOTONIC)) / 1000000;
		if (left <= 0)
			return WAIT_TIMEOUT;
		/* A signal handler sets *stop; 250 ms bounds how late it is seen. */
		if (poll(pfd, pfd[2].fd >= 0 ? 3 : 2, left > 250 ? 250 : (int)left) < 0 &&
		    errno != EINTR)
			return WAIT_EXITED;
		if (pfd[1].revents)
			qemu_read_err(vm, 0);
		if (pfd[0].revents) {
			n = read(vm->sock, buf, sizeof(buf));
			if (n > 0)
				strbuf_add(&vm->in, buf, (size_t)n);
			else if (n == 0 || errno != EINTR)
				return WAIT_EXITED;
		}
		if (pfd[2].revents && !pfd[0].revents)
			return WAIT_EXITED;
	}
}

/* ---- the guest's facts ---- */

static void take_facts(struct vm *vm, const struct strbuf *p)
{
	for (const char *r = p->buf; r < p->buf + p->len; r += strlen(r) + 1) {
		const char *v = strchr(r, '=');

		if (!v++)
			continue;
		if (!strncmp(r, "release=", 8))
			vm->kernel.release = xstrdup(v);
		else if (!strncmp(r, "version=", 8))
			vm->kernel.version = xstrdup(v);
		else if (!strncmp(r, "cmdline=", 8))
			vm->kernel.cmdline = xstrdup(v);
		else if (!strncmp(r, "cpu_model=", 10))
			vm->cpu_model = xstrdup(v);
		else if (!strncmp(r, "cpus=", 5))
			vm->cpus = atoi(v);
		else if (!strncmp(r, "numa_nodes=", 11))
			vm->numa_nodes = atoi(v);
		else if (!strncmp(r, "mem_bytes=", 10))
			vm->mem_bytes = strtoull(v, NULL, 10);
		else if (!strncmp(r, "module=", 7))
			strbuf_addf(&vm->loaded, "%s%s", vm->loaded.len ? " " : "", v);
		else if (!strncmp(r, "module_error=", 13))
			strbuf_addf(&vm->mod_errors, "%s; ", v);
	}
	if (!vm->kernel.release)
		vm->kernel.release = xstrdup("unknown");
	if (!vm->kernel.version)
		vm->kernel.version = xstrdup("");
	if (!vm->kernel.cmdline)
		vm->kernel.cmdline = xstrdup("");
}

static int fact(struct store *s, int64_t run_id, const char *key, const char *value)
{
	return store_add_meta(s, run_id, "", key, value ? value : "");
}

static int vm_facts(void *arg, struct store *s, int64_t run_id)
{
	struct vm *vm = arg;
	char buf[64];

	if (fact(s, run_id, "vm.accel", vm->accel))
		return -1;
	snprintf(buf, sizeof(buf), "%d", vm->cfg.icount_shift);
	if (vm_icount(&vm->cfg, vm->accel) && fact(s, run_id, "vm.icount", buf))
		return -1;
	if (fact(s, run_id, "vm.qemu", vm->version.buf) ||
	    fact(s, run_id, "vm.kernel_image", vm->cfg.kernel) ||
	    fact(s, run_id, "vm.initrd", vm->cfg.initrd) ||
	    fact(s, run_id, "vm.modules", vm->loaded.buf) ||
	    fact(s, run_id, "vm.append", vm->cfg.append) ||
	    fact(s, run_id, "vm.vcpu_pin", vm->pinned.buf))
		return -1;
	for (size_t i = 0; vm->cfg.facts && vm->cfg.facts[i]; i += 2)
		if (fact(s, run_id, vm->cfg.facts[i], vm->cfg.facts[i + 1]))
			return -1;
	snprintf(buf, sizeof(buf), "%d", vm->cfg.vcpus);
	if (fact(s, run_id, "vm.vcpus", buf))
		return -1;
	snprintf(buf, sizeof(buf), "%d", vm->cfg.mem_mib);
	if (fact(s, run_id, "vm.memory_mib", buf))
		return -1;
	snprintf(buf, sizeof(buf), "%.2f", vm->boot_s);
	if (fact(s, run_id, "vm.boot_s", buf))
		return -1;
	snprintf(buf, sizeof(buf), "%d", vm->boot_retries);
	if (fact(s, run_id, "vm.boot_retries", buf))
		return -1;
	if (fact(s, run_id, "guest.cpu_model", vm->cpu_model))
		return -1;
	snprintf(buf, sizeof(buf), "%d", vm->cpus);
	if (fact(s, run_id, "guest.cpus", buf))
		return -1;
	snprintf(buf, sizeof(buf), "%d", vm->numa_nodes);
	if (fact(s, run_id, "guest.numa_nodes", buf))
		return -1;
	snprintf(buf, sizeof(buf), "%llu", vm->mem_bytes);
	return fact(s, run_id, "guest.mem_bytes", buf);
}

/* ---- pinning the vCPU threads ---- */

/* Bind each vCPU thread ("CPU N/TCG", "CPU N/KVM") of QEMU to slot N of
 * a plan of the host's PUs. Return 0, or -1 after an error message. */
static int pin_vcpus(struct vm *vm)
{
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT, comm = STRBUF_INIT;
	struct pin_plan *plan = NULL;
	DIR *d = NULL;
	struct dirent *e;
	int rc = -1, found = 0;

	if (pin_plan_compute(vm->cfg.vcpu_pin, vm->cfg.vcpus, &plan, &err)) {
		error("--vcpu-pin: %s", err.buf);
		goto out;
	}
	if (plan->kind == PIN_ANY || !plan->nslots) {
		strbuf_addstr(&vm->pinned, "unbound");
		rc = 0;
		goto out;
	}
	if (plan->kind != PIN_MANY) {
		error("--vcpu-pin: '%s' is a policy for two parties; use spread, compact or "
		      "unbound", vm->cfg.vcpu_pin);
		goto out;
	}
	strbuf_addf(&path, "/proc/%d/task", (int)vm->qemu.w.pid);
	d = opendir(path.buf);
	while (d && (e = readdir(d))) {
		int cpu;

		if (e->d_name[0] == '.')
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "/proc/%d/task/%s/comm", (int)vm->qemu.w.pid, e->d_name);
		strbuf_reset(&comm);
		if (strbuf_read_file(&comm, path.buf) < 0)
			continue;
		/* Single-threaded TCG (icount) runs every vCPU in one thread. */
		if (!strncmp(comm.buf, "ALL CPUs/", 9))
			cpu = 0;
		else if (sscanf(comm.buf, "CPU %d/", &cpu) != 1 || cpu < 0 || cpu >= vm->cfg.vcpus)
			continue;
		if (pin_bind_task(plan, cpu, (pid_t)atoi(e->d_name), &err)) {
			error("cannot pin vCPU %d: %s", cpu, err.buf);
			goto out;
		}
		found++;
	}
	if (found != vm->cfg.vcpus) {
		error("found %d of the guest's %d vCPU threads in QEMU to pin", found,
		      vm->cfg.vcpus);
		goto out;
	}
	strbuf_addf(&vm->pinned, "%s:", plan->policy);
	for (int i = 0; i < vm->cfg.vcpus; i++)
		strbuf_addf(&vm->pinned, " vCPU%d P#%d", i, pin_plan_cpu(plan, i));
	rc = 0;
out:
	if (d)
		closedir(d);
	pin_plan_free(plan);
	strbuf_release(&err);
	strbuf_release(&path);
	strbuf_release(&comm);
	return rc;
}

/* ---- boot ---- */

/* The console line that says why a guest died: its panic line where it
 * has one, else its last line, into out. */
static void death_line(struct vm *vm, struct strbuf *out)
{
	struct strbuf tail = STRBUF_INIT;
	const char *p, *line;

	console_tail(vm, VM_CONSOLE_TAIL, &tail);
	strbuf_rtrim(&tail);
	p = strstr(tail.buf, "Kernel panic");
	if (!p) {
		line = strrchr(tail.buf, '\n');
		p = line ? line + 1 : tail.buf;
	}
	strbuf_add(out, p, strcspn(p, "\n"));
	if (!out->len)
		strbuf_addstr(out, vm->err.len ? vm->err.buf : "no console output");
	strbuf_release(&tail);
}

/* The first line of what QEMU wrote on its standard error that is not a
 * warning: QEMU's own refusal (of KVM, a device, an option); NULL when
 * none (a guest that panics leaves QEMU quiet). */
static const char *qemu_refused(const struct vm *vm)
{
	const char *p = vm->err.buf;

	while (p && *p) {
		size_t n = strcspn(p, "\n");
		const char *w = strstr(p, "warning:");

		if (n && (!w || w >= p + n))
			return p;
		p = p[n] ? p + n + 1 : NULL;
	}
	return NULL;
}

/* Boot under accel once and wait for the guest's hello. Return 0 when it
 * came, 1 when a KVM probe failed (why says how), 2 when the guest died
 * before kbench's init spoke and retry is set (a warning says so; the
 * caller boots again), -1 after an error. */
static int boot_once(struct vm *vm, const char *accel, double timeout_s, int retry,
		     struct strbuf *why)
{
	struct strbuf payload = STRBUF_INIT, tail = STRBUF_INIT;
	int64_t t0 = clock_ns(CLOCK_MONOTONIC);
	int probing = !strcmp(accel, "kvm") && !strcmp(vm->cfg.accel, "auto");
	const char *refusal;
	int type = 0, rc = -1;
	enum wait_end end;

	if (qemu_start(vm, accel))
		return -1;
	do
		end = wait_frame(vm, timeout_s, vm->cfg.stop, &type, &payload);
	while (end == WAIT_FRAME && type != WIRE_HELLO);
	if (end == WAIT_STOPPED) {
		/* Interrupted: QEMU goes at once, the caller says why. */
		qemu_end(vm, 0);
		goto out;
	}
	if (end == WAIT_FRAME) {
		vm->boot_s = (double)(clock_ns(CLOCK_MONOTONIC) - t0) / 1e9;
		take_facts(vm, &payload);
		rc = 0;
		goto out;
	}
	qemu_end(vm, 0);
	strbuf_rtrim(&vm->err);
	if (probing) {
		if (end == WAIT_TIMEOUT)
			strbuf_addf(why, "no word from the guest within %g s", timeout_s);
		else
			strbuf_addf(why, "%.*s", (int)strcspn(vm->err.buf, "\n"),
				    vm->err.len ? vm->err.buf : "QEMU ended");
		rc = 1;
		goto out;
	}
	/* QEMU refusing KVM (a CPU it cannot set up: "failed to set MSR")
	 * says so and ends: no guest died, and booting again fails again. */
	if (!strcmp(accel, "kvm") && end != WAIT_TIMEOUT && (refusal = qemu_refused(vm))) {
		error("KVM does not run this guest here: %.*s; --accel tcg (or auto) boots "
		      "without it", (int)strcspn(refusal, "\n"), refusal);
		goto out;
	}
	if (retry && end != WAIT_TIMEOUT) {
		death_line(vm, &tail);
		warning("the guest died before kbench's init spoke under %s (%s); booting it "
			"again", accel, tail.buf);
		rc = 2;
		goto out;
	}
	vm->keep_dir = 1;
	console_tail(vm, VM_CONSOLE_TAIL, &tail);
	if (end == WAIT_TIMEOUT)
		error("the guest did not come up within %g s (--boot-timeout) under %s; QEMU "
		      "was killed", timeout_s, accel);
	else if (vm->err.len)
		error("QEMU ended before the guest came up under %s: %s", accel, vm->err.buf);
	else
		error("the guest kernel ended before kbench's init spoke (a panic, or a "
		      "command line it cannot boot with) under %s", accel);
	error("the guest's last console lines (all of it in %s/console.log):\n%s",
	      vm->dir.buf, tail.buf);
out:
	strbuf_release(&payload);
	strbuf_release(&tail);
	return rc;
}

/* Boot under accel, booting again (VM_BOOT_TRIES in all) a guest that
 * died before kbench's init spoke: a kernel under TCG can panic in a
 * check of emulated hardware now and then. A boot that times out is not
 * tried again (it cost the whole --boot-timeout). Return 0, or -1 after
 * an error. */
static int boot_tries(struct vm *vm, const char *accel)
{
	struct strbuf why = STRBUF_INIT;
	int rc;

	vm->boot_retries = 0;
	while ((rc = boot_once(vm, accel, vm->cfg.boot_timeout_s,
			       vm->boot_retries + 1 < VM_BOOT_TRIES, &why)) == 2)
		vm->boot_retries++;
	strbuf_release(&why);
	return rc ? -1 : 0;
}

static int kvm_usable(struct strbuf *why)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		int err = errno;

		strbuf_addf(why, err == ENOENT ? "there is no /dev/kvm" :
			    "/dev/kvm cannot be opened for writing: %s", strerror(err));
		if (err == EACCES || err == EPERM)
			strbuf_addstr(why, " (the kvm group may open it)");
		return 0;
	}
	close(fd);
	return 1;
}

int vm_check_accel_name(const char *a)
{
	if (!strcmp(a, "auto") || !strcmp(a, "kvm") || !strcmp(a, "tcg"))
		return 0;
	return error("--accel must be auto, kvm or tcg, not '%s'", a);
}

int vm_check_accel(const struct vm_config *cfg, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;

	if (!strcmp(cfg->accel, "kvm") && !kvm_usable(&why)) {
		strbuf_addf(err, "--accel kvm: %s; --accel tcg (or auto) boots without KVM",
			    why.buf);
		strbuf_release(&why);
		return -1;
	}
	return 0;
}

static int sample_executor_run(void *arg, const struct plan_section *ps, long long row,
			       struct wl_sample *out, struct child *c, struct strbuf *reason,
			       volatile sig_atomic_t *stop);

int vm_boot(const struct vm_config *cfg, struct vm **out)
{
	struct vm *vm = xcalloc(1, sizeof(*vm));
	struct strbuf why = STRBUF_INIT, path = STRBUF_INIT;
	const char *tmp = getenv("TMPDIR");
	int rc = -1;

	*out = NULL;
	vm->cfg = *cfg;
	vm->sock = vm->qemu_err = vm->qemu_pidfd = -1;
	strbuf_init(&vm->dir);
	strbuf_init(&vm->in);
	strbuf_init(&vm->err);
	strbuf_init(&vm->version);
	strbuf_init(&vm->pinned);
	strbuf_init(&vm->loaded);
	strbuf_init(&vm->mod_errors);
	if (cfg->icount_shift >= 0 && cfg->vcpus != 1) {
		error("counting instructions (icount) runs one vCPU, not %d", cfg->vcpus);
		goto out;
	}
	if (vm_check_kernel(cfg->kernel, &why)) {
		error("%s", why.buf);
		goto out;
	}
	qemu_version(vm);
	if (!vm->version.len) {
		error("cannot run '%s': install QEMU (Debian: apt-get install qemu-system-x86) "
		      "or name the program with KBENCH_QEMU", vm_qemu_program(cfg));
		goto out;
	}
	strbuf_addf(&vm->dir, "%s/kbench-vm-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(vm->dir.buf)) {
		error("cannot make a directory for the guest's files: %s", strerror(errno));
		strbuf_reset(&vm->dir);
		goto out;
	}
	strbuf_addf(&path, "%s/initramfs.cpio", vm->dir.buf);
	if (!cfg->modules_dir != !cfg->modprobe) {
		error("%s", cfg->modprobe ? "modprobe needs modules, the tree to load them from" :
		      "modules needs modprobe: the guest loads only the modules named");
		goto out;
	}
	if (cfg->modules_dir) {
		struct strbuf err = STRBUF_INIT;

		if (kmod_resolve(cfg->modules_dir, cfg->modprobe, &vm->mods, &err)) {
			error("--modules: %s", err.buf);
			strbuf_release(&err);
			goto out;
		}
		strbuf_release(&err);
		for (size_t i = 0; i < vm->mods.nbuiltin; i++)
			notice("module %s is built into the %s kernel: nothing to load",
			       vm->mods.builtin[i], vm->mods.release);
	}
	if (vm_write_initramfs(cfg, &vm->mods, path.buf))
		goto out;
	if (vm_check_accel(cfg, &why)) {
		error("%s", why.buf);
		goto out;
	}
	if (!strcmp(cfg->accel, "kvm") || (!strcmp(cfg->accel, "auto") && kvm_usable(&why))) {
		if (strcmp(cfg->accel, "auto"))
			rc = boot_tries(vm, "kvm");
		else
			rc = boot_once(vm, "kvm", cfg->boot_timeout_s < VM_KVM_PROBE_S ?
				       cfg->boot_timeout_s : VM_KVM_PROBE_S, 0, &why);
		if (rc < 0)
			goto out;
		if (rc > 0)
			notice("KVM does not run this guest here (%s); booting with TCG instead",
			       why.buf);
	} else if (!strcmp(cfg->accel, "auto")) {
		notice("%s: booting with TCG, much slower than KVM", why.buf);
		rc = 1;
	} else {
		rc = 1;
	}
	if (rc > 0 && boot_tries(vm, "tcg"))
		goto out;
	if (vm->mod_errors.len) {
		vm->mod_errors.len -= 2;	/* the last "; " */
		vm->mod_errors.buf[vm->mod_errors.len] = '\0';
		error("the guest could not load its modules: %s", vm->mod_errors.buf);
		if (strcmp(vm->mods.release, vm->kernel.release))
			error("the modules are for %s and the guest runs %s", vm->mods.release,
			      vm->kernel.release);
		goto out;
	}
	strbuf_reset(&why);
	if (vm->boot_retries)
		strbuf_addf(&why, " (after %d boot%s that died)", vm->boot_retries,
			    vm->boot_retries == 1 ? "" : "s");
	notice("booted %s under %s%s (%d vCPUs, %d MiB) in %.1f s%s", vm->kernel.release,
	       !strcmp(vm->accel, "kvm") ? "KVM" : "TCG",
	       vm_icount(cfg, vm->accel) ? " counting instructions" : "", cfg->vcpus, cfg->mem_mib,
	       vm->boot_s, why.buf);
	if (pin_vcpus(vm))
		goto out;
	vm->exec.run = sample_executor_run;
	vm->exec.facts = vm_facts;
	vm->exec.kernel = &vm->kernel;
	vm->exec.arg = vm;
	*out = vm;
	vm = NULL;
	rc = 0;
out:
	vm_stop(vm);
	strbuf_release(&why);
	strbuf_release(&path);
	return rc;
}

int vm_boot_retries(const struct vm *vm)
{
	return vm->boot_retries;
}

const char *vm_accel(const struct vm *vm)
{
	return vm->accel;
}

double vm_boot_s(const struct vm *vm)
{
	return vm->boot_s;
}

const struct sample_executor *vm_executor(struct vm *vm)
{
	return &vm->exec;
}

/* ---- samples ---- */

static int metric_count(const struct wl_params *p)
{
	int n = 0;

	while (p->metrics && p->metrics[n].name)
		n++;
	return n;
}

/* A result's records into out and c. Return 0, or -1 with reason. */
static int take_result(const struct strbuf *p, const struct plan_section *ps,
		       struct wl_sample *out, struct child *c, struct strbuf *reason)
{
	int rc = -1, have_rc = 0;

	for (const char *r = p->buf; r < p->buf + p->len; r += strlen(r) + 1) {
		const char *v = strchr(r, '=');
		int n = 0;

		if (!v++)
			continue;
		if (!strncmp(r, "rc=", 3)) {
			rc = atoi(v);
			have_rc = 1;
		} else if (!strncmp(r, "err=", 4)) {
			strbuf_addstr(reason, v);
		} else if (!strncmp(r, "duration_ns=", 12)) {
			c->duration_ns = strtoll(v, NULL, 10);
		} else if (!strncmp(r, "user_ns=", 8)) {
			long long ns = strtoll(v, NULL, 10);

			c->ru.ru_utime.tv_sec = ns / 1000000000;
			c->ru.ru_utime.tv_usec = ns % 1000000000 / 1000;
		} else if (!strncmp(r, "sys_ns=", 7)) {
			long long ns = strtoll(v, NULL, 10);

			c->ru.ru_stime.tv_sec = ns / 1000000000;
			c->ru.ru_stime.tv_usec = ns % 1000000000 / 1000;
		} else if (!strncmp(r, "r=", 2) && out->nresults < WL_MAX_RESULTS) {
			struct wl_result *res = &out->results[out->nresults];

			if (sscanf(v, "%d %lf %n", &res->metric, &res->value, &n) < 2 || !n ||
			    res->metric < 0 || res->metric >= metric_count(ps->params))
				goto bad;
			snprintf(res->row, sizeof(res->row), "%s", v + n);
			out->nresults++;
		} else if (!strncmp(r, "x=", 2) && out->nextras < WL_MAX_EXTRAS) {
			struct wl_extra *x = &out->extras[out->nextras];

			if (sscanf(v, "%lf %n", &x->value, &n) < 1 || !n)
				goto bad;
			snprintf(x->key, sizeof(x->key), "%s", v + n);
			out->nextras++;
		} else if (!strncmp(r, "flag=", 5)) {
			snprintf(out->flag, sizeof(out->flag), "%s", v);
		}
	}
	if (!have_rc)
		goto bad;
	if (rc && !reason->len)
		strbuf_addstr(reason, "the workload failed in the guest without saying why");
	if (!rc && out->nresults <= 0) {
		strbuf_addstr(reason, "the workload reported no result");
		rc = -1;
	}
	return rc ? -1 : 0;
bad:
	strbuf_addstr(reason, "the guest sent a malformed result");
	return -1;
}

/* The guest is gone: why, with the console's last lines, into reason. */
static void guest_lost(struct vm *vm, const char *what, struct strbuf *reason)
{
	struct strbuf tail = STRBUF_INIT;

	vm->gone = 1;
	vm->keep_dir = 1;
	qemu_end(vm, 0);
	strbuf_rtrim(&vm->err);
	console_tail(vm, VM_CONSOLE_TAIL, &tail);
	strbuf_addstr(reason, what);
	if (vm->err.len)
		strbuf_addf(reason, " (QEMU: %.*s)", (int)strcspn(vm->err.buf, "\n"), vm->err.buf);
	strbuf_addf(reason, "; the guest's last console lines (all of it in %s/console.log):\n%s",
		    vm->dir.buf, tail.buf);
	strbuf_rtrim(reason);
	strbuf_release(&tail);
}

static int sample_executor_run(void *arg, const struct plan_section *ps, long long row,
			       struct wl_sample *out, struct child *c, struct strbuf *reason,
			       volatile sig_atomic_t *stop)
{
	struct vm *vm = arg;
	struct strbuf job = STRBUF_INIT, frame = STRBUF_INIT, payload = STRBUF_INIT;
	int fd = -1, type = 0, rc = -1;
	enum wait_end end;

	memset(out, 0, sizeof(*out));
	if (vm->gone) {
		strbuf_addstr(reason, "the guest is gone");
		return -2;
	}
	if ((fd = sample_job_file(ps->params, row, reason)) < 0)
		goto out;
	strbuf_addf(&job, "timeout_ms=%lld", (long long)(ps->timeout_s * 1000));
	strbuf_addch(&job, '\0');
	{
		char buf[4096];
		ssize_t n;

		while ((n = read_upto(fd, buf, sizeof(buf))) > 0)
			strbuf_add(&job, buf, (size_t)n);
	}
	wire_frame(&frame, WIRE_JOB, job.buf, job.len);
	c->started_ns = clock_ns(CLOCK_REALTIME);
	c->mono_start_ns = clock_ns(CLOCK_MONOTONIC);
	if (write_full(vm->sock, frame.buf, frame.len)) {
		guest_lost(vm, "the guest's link broke", reason);
		rc = -2;
		goto out;
	}
	do
		end = wait_frame(vm, ps->timeout_s + VM_ANSWER_GRACE_S, stop, &type, &payload);
	while (end == WAIT_FRAME && type != WIRE_RESULT);
	switch (end) {
	case WAIT_FRAME:
		rc = take_result(&payload, ps, out, c, reason);
		break;
	case WAIT_STOPPED:
		/* The guest is mid-sample: it goes with the run. */
		qemu_end(vm, 0);
		vm->gone = 1;
		strbuf_addstr(reason, "interrupted");
		break;
	case WAIT_TIMEOUT:
		guest_lost(vm, "the guest stopped answering", reason);
		strbuf_addf(reason, "\n(no answer within the sample's timeout of %g s and %g s "
			    "more; QEMU was killed)", ps->timeout_s, VM_ANSWER_GRACE_S);
		rc = -2;
		break;
	default:
		guest_lost(vm, "the guest ended during the sample (a panic, or QEMU killed)",
			   reason);
		rc = -2;
		break;
	}
out:
	if (fd >= 0)
		close(fd);
	strbuf_release(&job);
	strbuf_release(&frame);
	strbuf_release(&payload);
	return rc;
}

static void remove_dir(const char *dir)
{
	struct strbuf p = STRBUF_INIT;
	static const char *const files[] = { "initramfs.cpio", "console.log" };

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir, files[i]);
		unlink(p.buf);
	}
	rmdir(dir);
	strbuf_release(&p);
}

void vm_stop(struct vm *vm)
{
	if (!vm)
		return;
	if (vm->qemu.w.running && vm->sock >= 0) {
		struct strbuf f = STRBUF_INIT;

		wire_frame(&f, WIRE_QUIT, "", 0);
		/* A link already broken: QEMU is killed below anyway. */
		(void)!write_full(vm->sock, f.buf, f.len);
		strbuf_release(&f);
	}
	qemu_end(vm, VM_QUIT_S);
	if (vm->dir.len) {
		struct strbuf p = STRBUF_INIT;

		strbuf_addf(&p, "%s/initramfs.cpio", vm->dir.buf);
		if (vm->keep_dir)
			unlink(p.buf);
		else
			remove_dir(vm->dir.buf);
		strbuf_release(&p);
	}
	strbuf_release(&vm->dir);
	strbuf_release(&vm->in);
	strbuf_release(&vm->err);
	strbuf_release(&vm->version);
	strbuf_release(&vm->pinned);
	strbuf_release(&vm->loaded);
	strbuf_release(&vm->mod_errors);
	kmod_set_release(&vm->mods);
	kernel_info_release(&vm->kernel);
	free(vm->cpu_model);
	free(vm);
}
