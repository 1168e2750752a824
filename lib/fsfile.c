/* fsfile: directories made with their parents, files copied. */
#include "config.h"
#include "lib/fsfile.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int mkdir_p(const char *path, struct strbuf *err)
{
	char *p = xstrdup(path);
	int rc = 0, saved = 0;

	for (char *s = *p ? p + 1 : p; ; s++) {
		if (*s == '/' || !*s) {
			char c = *s;

			*s = '\0';
			if (mkdir(p, 0755) && errno != EEXIST) {
				saved = errno;
				if (err)
					strbuf_addf(err, "cannot create directory '%s': %s", p,
						    strerror(saved));
				rc = -1;
				break;
			}
			if (!c)
				break;
			*s = c;
		}
	}
	free(p);
	if (rc)
		errno = saved;
	return rc;
}

/* Copy what in holds to out: 0, or -1 with err saying which side failed. */
static int copy_fd(int in, int out, const char *from, const char *to, struct strbuf *err)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			strbuf_addf(err, "cannot read '%s': %s", from, strerror(errno));
			return -1;
		}
		if (write_full(out, buf, (size_t)n)) {
			strbuf_addf(err, "cannot write '%s': %s", to, strerror(errno));
			return -1;
		}
	}
	if (fsync(out)) {
		strbuf_addf(err, "cannot write '%s': %s", to, strerror(errno));
		return -1;
	}
	return 0;
}

int copy_file(const char *from, const char *to, unsigned flags, struct strbuf *err)
{
	int nofollow = flags & COPY_NOFOLLOW;
	int in = open(from, O_RDONLY | O_CLOEXEC | (nofollow ? O_NOFOLLOW | O_NONBLOCK : 0));
	int out = -1, rc = -1;
	struct stat st;

	if (in < 0 && nofollow && errno == ELOOP) {
		strbuf_addf(err, "cannot open '%s': it is a symbolic link", from);
		return -1;
	}
	if (in < 0) {
		strbuf_addf(err, "cannot open '%s': %s", from, strerror(errno));
		return -1;
	}
	if (nofollow && (fstat(in, &st) || !S_ISREG(st.st_mode))) {
		strbuf_addf(err, "cannot open '%s': not a regular file", from);
		goto out;
	}
	out = open(to, O_WRONLY | O_CREAT | O_CLOEXEC |
		   (flags & COPY_NEW ? O_EXCL : O_TRUNC), 0644);
	if (out < 0) {
		strbuf_addf(err, "cannot %s '%s': %s", flags & COPY_NEW ? "create" : "write",
			    to, strerror(errno));
		goto out;
	}
	rc = copy_fd(in, out, from, to, err);
out:
	close(in);
	if (out >= 0 && close(out) && !rc) {
		strbuf_addf(err, "cannot write '%s': %s", to, strerror(errno));
		rc = -1;
	}
	if (rc && out >= 0 && (flags & COPY_NEW))
		unlink(to);
	return rc;
}
