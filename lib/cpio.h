/* cpio: write an initramfs archive in the kernel's "newc" cpio format
 * (SVR4 with no CRC), the format the kernel unpacks into its root
 * file system at boot: directories, regular files and device nodes. */
#ifndef KBENCH_CPIO_H
#define KBENCH_CPIO_H

#include <stddef.h>
#include <sys/types.h>

struct strbuf;

/* Append one entry to the archive in out: name without a leading '/',
 * mode with its file type bits (S_IFDIR, S_IFREG, S_IFCHR), data and len
 * for a regular file (else NULL and 0), the device numbers of a device
 * node (else 0). */
void cpio_add(struct strbuf *out, const char *name, mode_t mode, const void *data,
	      size_t len, unsigned int rmajor, unsigned int rminor);
/* Append the trailer that ends the archive. */
void cpio_finish(struct strbuf *out);

#endif
