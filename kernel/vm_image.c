/* vm_image: what a guest is booted from, apart from booting it: the
 * check of the kernel image, the initramfs (kbench-sample as /init, the
 * modules the guest loads) and QEMU's command line. */
#include "config.h"
#include "kernel/vm.h"
#include "kernel/vm_image.h"
#include "lib/cpio.h"
#include "lib/io.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "kernel/kmod.h"
#include "sampler/guest.h"
#include "sampler/sample.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *vm_qemu_program(const struct vm_config *cfg)
{
	const char *env = getenv("KBENCH_QEMU");

	if (cfg->qemu)
		return cfg->qemu;
	return env && *env ? env : "qemu-system-x86_64";
}

/* ---- the command line ---- */

static void word(struct words *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void word(struct words *w, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(w->v, w->n + 2, w->alloc);
	w->v[w->n++] = strbuf_detach(&sb);
	w->v[w->n] = NULL;
}

void vm_words_release(struct words *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
	memset(w, 0, sizeof(*w));
}

/* " no_timer_check" where a TCG boot needs it, else "". */
static const char *tcg_timer_words(const struct vm_config *cfg, const char *accel)
{
	if (strcmp(accel, "tcg") || (cfg->append && strstr(cfg->append, "no_timer_check")))
		return "";
	return " no_timer_check";
}

/* Whether the guest's clock counts instructions: -icount under TCG. */
int vm_icount(const struct vm_config *cfg, const char *accel)
{
	return cfg->icount_shift >= 0 && !strcmp(accel, "tcg");
}

void vm_command_words(const struct vm_config *cfg, const char *accel,
		      const char *initramfs, const char *console, struct words *w)
{
	const char *cpu = cfg->cpu ? cfg->cpu : !strcmp(accel, "kvm") ? "host" : NULL;

	word(w, "%s", vm_qemu_program(cfg));
	word(w, "-name");
	word(w, "kbench-guest,debug-threads=on");	/* vCPU threads named "CPU N/..." */
	word(w, "-nodefaults");
	word(w, "-no-user-config");
	word(w, "-display");
	word(w, "none");
	word(w, "-monitor");
	word(w, "none");
	word(w, "-nic");
	word(w, "none");
	word(w, "-no-reboot");
	word(w, "-accel");
	if (vm_icount(cfg, accel)) {
		/* Counting instructions needs the single-threaded TCG. */
		word(w, "tcg,thread=single");
		word(w, "-icount");
		word(w, "shift=%d,sleep=off", cfg->icount_shift);
	} else {
		word(w, "%s", !strcmp(accel, "tcg") ? "tcg,thread=multi" : accel);
	}
	if (cpu) {
		word(w, "-cpu");
		word(w, "%s", cpu);
	}
	word(w, "-smp");
	word(w, "%d,sockets=1,cores=%d,threads=1", cfg->vcpus, cfg->vcpus);
	word(w, "-m");
	word(w, "%dM", cfg->mem_mib);
	word(w, "-chardev");
	word(w, "file,id=console,path=%s", console);
	word(w, "-serial");
	word(w, "chardev:console");
	/* ttyS1: the frames, on QEMU's stdin and stdout (our socket). */
	word(w, "-chardev");
	word(w, "stdio,id=link,signal=off");
	word(w, "-serial");
	word(w, "chardev:link");
	word(w, "-kernel");
	word(w, "%s", cfg->kernel);
	word(w, "-initrd");
	word(w, "%s", initramfs);
	word(w, "-append");
	/* panic=-1 with -no-reboot: a panicking guest ends QEMU at once.
	 * Under TCG the IO-APIC timer check can miss ticks of an emulated
	 * CPU and panic ("IO-APIC + timer doesn't work!"): skip it unless
	 * the user's command line names it already. */
	word(w, "console=ttyS0 panic=-1%s%s%s", tcg_timer_words(cfg, accel),
	     cfg->append && *cfg->append ? " " : "", cfg->append ? cfg->append : "");
}

static void sh_quote(struct strbuf *out, const char *s)
{
	if (*s && !s[strcspn(s, " \t\n'\"\\$`*?[]{}()<>|&;!#~")]) {
		strbuf_addstr(out, s);
		return;
	}
	strbuf_addch(out, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(out, "'\\''");
		else
			strbuf_addch(out, *s);
	}
	strbuf_addch(out, '\'');
}

void vm_describe_command(const struct vm_config *cfg, const char *accel,
			 const char *initramfs, struct strbuf *out)
{
	struct words w = { 0 };

	vm_command_words(cfg, accel, initramfs, "CONSOLE.log", &w);
	for (size_t i = 0; i < w.n; i++) {
		int opt = i + 1 < w.n && w.v[i][0] == '-' && w.v[i + 1][0] != '-';

		sh_quote(out, w.v[i]);
		if (opt) {
			strbuf_addch(out, ' ');
			sh_quote(out, w.v[++i]);
		}
		strbuf_addstr(out, i + 1 < w.n ? " \\\n    " : "\n");
	}
	vm_words_release(&w);
}

/* ---- the initramfs ---- */

/* Whether the ELF file at path asks for a program interpreter (is
 * linked dynamically): the guest has no libraries. -1: unreadable. */
static int elf_dynamic(const char *path)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = -1;

	if (fd < 0)
		return -1;
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		goto out;
	rc = 0;
	for (int i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (Elf64_Off)i * eh.e_phentsize)) !=
		    (ssize_t)sizeof(ph)) {
			rc = -1;
			break;
		}
		if (ph.p_type == PT_INTERP)
			rc = 1;
	}
out:
	close(fd);
	return rc;
}

/* The modules of mods into the archive as GUEST_MODULES_DIR/NN-NAME.ko[.xz],
 * and their paths, in load order, as GUEST_MODULES_LIST. Return 0, or -1
 * after an error message. */
static int add_modules(struct strbuf *cpio, const struct kmod_set *mods)
{
	struct strbuf list = STRBUF_INIT, text = STRBUF_INIT, name = STRBUF_INIT;
	int rc = -1;

	if (!mods->n)
		return 0;
	cpio_add(cpio, GUEST_MODULES_DIR, S_IFDIR | 0755, NULL, 0, 0, 0);
	for (size_t i = 0; i < mods->n; i++) {
		const char *base = strrchr(mods->mods[i].path, '/');
		const char *ext = strstr(base ? base : mods->mods[i].path, ".ko");

		strbuf_reset(&text);
		if (strbuf_read_file(&text, mods->mods[i].path) < 0) {
			error("cannot read the module '%s': %s", mods->mods[i].path, strerror(errno));
			goto out;
		}
		strbuf_reset(&name);
		strbuf_addf(&name, "%s/%02zu-%s%s", GUEST_MODULES_DIR, i, mods->mods[i].name,
			    ext ? ext : ".ko");
		cpio_add(cpio, name.buf, S_IFREG | 0644, text.buf, text.len, 0, 0);
		strbuf_addf(&list, "/%s\n", name.buf);
	}
	cpio_add(cpio, GUEST_MODULES_LIST, S_IFREG | 0644, list.buf, list.len, 0, 0);
	rc = 0;
out:
	strbuf_release(&list);
	strbuf_release(&text);
	strbuf_release(&name);
	return rc;
}

/* Write the guest's initramfs to path: the user's initrd first (the
 * kernel unpacks concatenated archives in turn), then ours, whose /init
 * is kbench-sample. Return 0, or -1 after an error message. */
int vm_write_initramfs(const struct vm_config *cfg, const struct kmod_set *mods,
		       const char *path)
{
	struct strbuf cpio = STRBUF_INIT, prog_text = STRBUF_INIT, err = STRBUF_INIT;
	const char *prog = sample_program(&err);
	int fd = -1, rc = -1, dyn;

	if (!prog) {
		error("%s", err.buf);
		goto out;
	}
	dyn = elf_dynamic(prog);
	if (dyn) {
		error(dyn < 0 ? "cannot read '%s' as an x86-64 ELF program" :
		      "'%s' is linked dynamically and the guest has no libraries: build kbench "
		      "without --disable-static-sample and without the sanitizers", prog);
		goto out;
	}
	if (cfg->initrd && strbuf_read_file(&cpio, cfg->initrd) < 0) {
		error("cannot read the initrd '%s': %s", cfg->initrd, strerror(errno));
		goto out;
	}
	while (cpio.len % 4)
		strbuf_addch(&cpio, '\0');
	if (strbuf_read_file(&prog_text, prog) < 0) {
		error("cannot read '%s': %s", prog, strerror(errno));
		goto out;
	}
	cpio_add(&cpio, "dev", S_IFDIR | 0755, NULL, 0, 0, 0);
	cpio_add(&cpio, "dev/console", S_IFCHR | 0600, NULL, 0, 5, 1);
	cpio_add(&cpio, "dev/null", S_IFCHR | 0666, NULL, 0, 1, 3);
	cpio_add(&cpio, "dev/ttyS1", S_IFCHR | 0600, NULL, 0, 4, 65);
	cpio_add(&cpio, "proc", S_IFDIR | 0555, NULL, 0, 0, 0);
	cpio_add(&cpio, "sys", S_IFDIR | 0555, NULL, 0, 0, 0);
	cpio_add(&cpio, "tmp", S_IFDIR | 01777, NULL, 0, 0, 0);
	cpio_add(&cpio, "init", S_IFREG | 0755, prog_text.buf, prog_text.len, 0, 0);
	if (add_modules(&cpio, mods))
		goto out;
	cpio_finish(&cpio);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write_full(fd, cpio.buf, cpio.len)) {
		error("cannot write the initramfs '%s': %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	strbuf_release(&cpio);
	strbuf_release(&prog_text);
	strbuf_release(&err);
	return rc;
}

int vm_check_kernel(const char *path, struct strbuf *err)
{
	/* The x86 boot protocol's header: "HdrS" at 0x202 of the setup
	 * sectors every bzImage starts with (Documentation/arch/x86/boot.rst). */
	unsigned char head[0x206];
	struct stat st;
	ssize_t n = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode))
		n = read_upto(fd, head, sizeof(head));
	else if (fd >= 0)
		errno = 0;
	if (n < 0) {
		strbuf_addf(err, "cannot use the kernel image '%s': %s", path,
			    errno ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	if (n >= SELFMAG && !memcmp(head, ELFMAG, SELFMAG)) {
		strbuf_addf(err, "cannot use the kernel image '%s': it is an ELF file (a "
			    "vmlinux?); kbench vm boots a bzImage (arch/x86/boot/bzImage) or a "
			    "/boot/vmlinuz", path);
		return -1;
	}
	if ((size_t)n < sizeof(head) || memcmp(head + 0x202, "HdrS", 4)) {
		strbuf_addf(err, "cannot use the kernel image '%s': it is not an x86 Linux "
			    "kernel (no boot header 'HdrS' at offset 0x202); give a bzImage "
			    "(arch/x86/boot/bzImage) or a /boot/vmlinuz", path);
		return -1;
	}
	return 0;
}
