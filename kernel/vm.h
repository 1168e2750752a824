/* vm: a plan run inside a kernel booted under QEMU. kbench builds an
 * initramfs whose init is kbench-sample (sampler/guest.c), boots the
 * kernel with KVM when it works and TCG otherwise, pins each vCPU
 * thread to a host PU, and runs the plan's samples in the guest one at
 * a time, each sent as a job on the guest's second serial port and
 * stored as soon as its result comes back (runner.c, through struct
 * sample_executor). QEMU is killed on every way out. */
#ifndef KBENCH_VM_H
#define KBENCH_VM_H

#include <signal.h>
#include <stdint.h>

struct config;
struct plan;
struct pin_topo;
struct sample_executor;
struct strbuf;

struct vm_config {
	const char *kernel;	/* bzImage / vmlinuz path */
	const char *initrd;	/* NULL: none; unpacked before kbench's own */
	const char *modules_dir;	/* a modules tree (kernel/kmod.h), or NULL */
	const char *modprobe;	/* modules the guest loads from it, with what they need */
	const char *append;	/* more of the kernel command line, or NULL */
	const char *qemu;	/* NULL: $KBENCH_QEMU, else qemu-system-x86_64 */
	const char *accel;	/* "auto" (KVM when it boots, else TCG), "kvm", "tcg" */
	const char *cpu;	/* -cpu; NULL: "host" under KVM, QEMU's default under TCG */
	const char *vcpu_pin;	/* host pin policy of the vCPU threads: "spread", "unbound"... */
	int vcpus;
	int mem_mib;
	double boot_timeout_s;	/* from QEMU's start to the guest's first word */
	/* More facts of each run in this guest (a built kernel's:
	 * kernel-commit...): key, value, key, value..., NULL; NULL: none. */
	const char *const *facts;
	/* Under TCG, the guest's clock counts instructions (QEMU's -icount
	 * shift=N,sleep=off: 2^N ns each) instead of following the host's:
	 * its timings no longer depend on the host's load. One vCPU only
	 * (single-threaded TCG). -1: off; ignored under KVM. */
	int icount_shift;
	/* Set by a signal handler: a boot in progress is abandoned within
	 * 250 ms, QEMU killed, and vm_boot() fails without a word (the
	 * caller says it was interrupted). NULL: a boot is waited for. */
	volatile sig_atomic_t *stop;
};

#define VM_CONFIG_INIT { .accel = "auto", .vcpu_pin = "spread", .vcpus = 2, \
			 .mem_mib = 512, .boot_timeout_s = 60, .icount_shift = -1 }
/* The -icount shift kbench bisect counts instructions with: 8 ns each, a
 * 125 MIPS guest, near what TCG runs a guest at on a current host. */
#define VM_ICOUNT_SHIFT 3

struct vm;

/* Whether path is a kernel image kbench vm can boot: a readable file with
 * the x86 Linux boot header (a bzImage, a /boot/vmlinuz). Return 0, or -1
 * with the reason in err ("cannot use the kernel image 'PATH': ..."). */
int vm_check_kernel(const char *path, struct strbuf *err);

/* Whether a names an accelerator --accel takes: auto, kvm or tcg.
 * Return 0, or -1 after saying what it must be. */
int vm_check_accel_name(const char *a);

/* Whether cfg's accelerator can be had here: --accel kvm needs a /dev/kvm
 * this process can open for writing (auto falls back to TCG, tcg needs
 * none). Return 0, or -1 with the reason in err ("--accel kvm: there is
 * no /dev/kvm; ..."). */
int vm_check_accel(const struct vm_config *cfg, struct strbuf *err);

/* The guest's topology as QEMU presents it (one package, one core a
 * vCPU), on which the plan's pin policies are computed. Return 0, or -1
 * with the reason in err. */
int vm_guest_topology(const struct vm_config *cfg, struct pin_topo **out, struct strbuf *err);
/* Make plan p, built on vm_guest_topology(), one for the guest: its pin
 * plans bind there, and host monitors are dropped (they would measure
 * the host). A section the guest cannot run (the external workload) is
 * an error. Return 0, or -1 after an error message. */
int vm_plan_for_guest(struct plan *p);
/* The QEMU command line for cfg under accel ("kvm", "tcg"), the
 * initramfs at initramfs, into out, one word a line quoted as sh needs. */
void vm_describe_command(const struct vm_config *cfg, const char *accel,
			 const char *initramfs, struct strbuf *out);

/* Boot cfg's kernel and wait for the guest to say what it is; under TCG
 * the kernel's command line gets no_timer_check (unless cfg->append has
 * it), and a guest that dies before kbench's init speaks is booted again,
 * three boots in all. Prints which accelerator ran, how long the boot
 * took and the boots that died. Return 0 with the guest in *out, or -1
 * after an error message (with the console's last lines when the kernel
 * did not come up), or -1 without one when *cfg->stop was set (QEMU is
 * gone). */
int vm_boot(const struct vm_config *cfg, struct vm **out);
/* How many boots of vm's kernel died before kbench's init spoke and were
 * booted again (at most 2: the third death is vm_boot's error). */
int vm_boot_retries(const struct vm *vm);
/* The accelerator vm booted with: "kvm" or "tcg". */
const char *vm_accel(const struct vm *vm);
/* How long vm took from QEMU's start to the guest's first word, in s. */
double vm_boot_s(const struct vm *vm);
/* The executor that runs samples in vm (valid until vm_stop). */
const struct sample_executor *vm_executor(struct vm *vm);
/* Power the guest off (QEMU killed if it does not go within seconds),
 * remove its files, and free vm. NULL is fine. */
void vm_stop(struct vm *vm);

#endif
