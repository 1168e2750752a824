/* io: whole reads and writes on file descriptors, retried across EINTR and
 * short transfers. */
#ifndef KBENCH_IO_H
#define KBENCH_IO_H

#include <stddef.h>
#include <sys/types.h>

/* Write all len bytes; return 0, or -1 with errno set. */
int write_full(int fd, const void *buf, size_t len);
/* Read exactly len bytes; return 0, or -1 with errno set (errno 0 at EOF
 * before len bytes). */
int read_full(int fd, void *buf, size_t len);
/* Read until EOF or len bytes; return the count read, or -1 with errno. */
ssize_t read_upto(int fd, void *buf, size_t len);
/* Wait for one byte on fd (a held child's go signal), then close fd.
 * Return 0, or -1 at EOF or on an error. */
int wait_byte(int fd);
/* Whether path is a directory (symbolic links followed). */
int path_is_dir(const char *path);

#endif
