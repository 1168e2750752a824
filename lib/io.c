/* io: whole reads and writes on file descriptors. */
#include "config.h"
#include "lib/io.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int read_full(int fd, void *buf, size_t len)
{
	ssize_t n = read_upto(fd, buf, len);

	if (n < 0)
		return -1;
	if ((size_t)n < len) {
		errno = 0;
		return -1;
	}
	return 0;
}

ssize_t read_upto(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int wait_byte(int fd)
{
	char b;
	ssize_t n;

	while ((n = read(fd, &b, 1)) < 0 && errno == EINTR)
		;
	close(fd);
	return n == 1 ? 0 : -1;
}

int path_is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}
