/* cpio: the newc format: a 110-byte ASCII header of hexadecimal fields,
 * the name with its NUL, padding to 4 bytes, the data, padding to 4
 * bytes; "TRAILER!!!" ends the archive. */
#include "config.h"
#include "lib/cpio.h"
#include "lib/strbuf.h"

#include <string.h>
#include <sys/stat.h>

static void pad4(struct strbuf *out)
{
	while (out->len % 4)
		strbuf_addch(out, '\0');
}

void cpio_add(struct strbuf *out, const char *name, mode_t mode, const void *data,
	      size_t len, unsigned int rmajor, unsigned int rminor)
{
	static unsigned int ino = 1;
	size_t namesize = strlen(name) + 1;

	/* magic, ino, mode, uid, gid, nlink, mtime, filesize, devmajor,
	 * devminor, rdevmajor, rdevminor, namesize, check */
	strbuf_addf(out, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		    ino++, (unsigned int)mode, 0u, 0u, S_ISDIR(mode) ? 2u : 1u, 0u,
		    (unsigned int)len, 0u, 0u, rmajor, rminor, (unsigned int)namesize, 0u);
	strbuf_add(out, name, namesize);
	pad4(out);
	if (len)
		strbuf_add(out, data, len);
	pad4(out);
}

void cpio_finish(struct strbuf *out)
{
	cpio_add(out, "TRAILER!!!", 0, NULL, 0, 0, 0);
}
