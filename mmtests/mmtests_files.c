/* mmtests_files: the files of an mmtests results directory, as the
 * import reads them: a directory's entries in natural order, and a file's
 * text (decompressed through gzip or xz), bounded in size and refused
 * when it is not a regular file of a disk's file system. */
#include "config.h"
#include "mmtests/mmtests_bench.h"
#include "lib/child.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

void mmtests_names_release(struct mm_names *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i]);
	free(d->v);
	d->v = NULL;
	d->n = 0;
}

/* Compare names with runs of digits as numbers: hackbench-2 < hackbench-10. */
static int natcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *sa = a, *sb = b;

			while (*sa == '0' && isdigit((unsigned char)sa[1]))
				sa++;
			while (*sb == '0' && isdigit((unsigned char)sb[1]))
				sb++;
			for (a = sa; isdigit((unsigned char)*a); a++)
				;
			for (b = sb; isdigit((unsigned char)*b); b++)
				;
			if (a - sa != b - sb)
				return a - sa < b - sb ? -1 : 1;
			for (; sa < a; sa++, sb++)
				if (*sa != *sb)
					return *sa < *sb ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int natcmp_p(const void *a, const void *b)
{
	return natcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of path (not . or ..) in natural order; a missing directory
 * has none. Return 0, or -1 after printing why. */
int mmtests_list_dir(const char *path, struct mm_names *out)
{
	DIR *d = opendir(path);
	struct dirent *e;
	size_t alloc = 0;

	out->v = NULL;
	out->n = 0;
	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? 0 :
			error("cannot read directory '%s': %s", path, strerror(errno));
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (out->n == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			out->v = xrealloc(out->v, alloc * sizeof(*out->v));
		}
		out->v[out->n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), natcmp_p);
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* What is read of one file of a results directory, raw and once
 * decompressed: mmtests' logs are kilobytes, and its largest file
 * (tests-timestamp or tests-sysstate, with /proc files copied in around
 * every test) a few megabytes. docs/mmtests.md states it. */
#define MMTESTS_FILE_MAX ((size_t)64 << 20)
/* The memory xz may take to decompress one: the largest preset, -9,
 * needs 65 MiB. */
#define MMTESTS_XZ_MEMLIMIT "--memlimit-decompress=128MiB"

/* What a file of mode is, when it is not a regular file. */
static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO" :
		S_ISCHR(mode) ? "a character device" : S_ISBLK(mode) ? "a block device" :
		S_ISSOCK(mode) ? "a socket" : "not a regular file";
}

/* The kernel's file systems, when fd lies on one: their "regular" files
 * (/proc/kmsg, trace_pipe, a sysfs attribute) may wait for ever on a
 * read, or never end, and no results directory holds one (mmtests
 * copies what it keeps of /proc). NULL for any other. */
static const char *kernel_fs(int fd)
{
	static const struct { unsigned long magic; const char *name; } fs[] = {
		{ PROC_SUPER_MAGIC, "/proc" }, { SYSFS_MAGIC, "sysfs" },
		{ DEBUGFS_MAGIC, "debugfs" }, { TRACEFS_MAGIC, "tracefs" },
		{ SECURITYFS_MAGIC, "securityfs" }, { CGROUP_SUPER_MAGIC, "cgroupfs" },
		{ CGROUP2_SUPER_MAGIC, "cgroupfs" }, { BPF_FS_MAGIC, "bpffs" },
		{ PSTOREFS_MAGIC, "pstore" }, { 0x62656570, "configfs" },
	};
	struct statfs sfs;

	if (fstatfs(fd, &sfs))
		return NULL;
	for (size_t i = 0; i < sizeof(fs) / sizeof(fs[0]); i++)
		if ((unsigned long)sfs.f_type == fs[i].magic)
			return fs[i].name;
	return NULL;
}

/* The whole of fd, a regular file of size bytes, into sb: at most
 * MMTESTS_FILE_MAX bytes, even from a file that grows as it is read.
 * Return 0, or -1 after printing why. */
static int read_regular(const char *path, int fd, off_t size, struct strbuf *sb)
{
	char buf[65536];

	strbuf_grow(sb, (size_t)size);
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return error("cannot read '%s': its read would wait, as no file of a results "
				     "directory does", path);
		if (n < 0)
			return error("cannot read '%s': %s", path, strerror(errno));
		if (!n)
			return 0;
		if (sb->len + (size_t)n > MMTESTS_FILE_MAX)
			return error("cannot read '%s': it grew past the %zu MiB kbench reads of "
				     "one file (docs/mmtests.md)", path, MMTESTS_FILE_MAX >> 20);
		strbuf_add(sb, buf, (size_t)n);
	}
}

/* fd decompressed by tool (gzip or xz) into sb: stopped at
 * MMTESTS_FILE_MAX bytes, and after 600 s. Return 0, or -1 after
 * printing why. */
static int decompress(const char *path, int fd, const char *tool, struct strbuf *sb)
{
	const char *argv[] = { tool, "-dc", NULL, NULL };
	struct child_program p = CHILD_PROGRAM_INIT;
	struct child_io io = { .out = sb, .out_max = MMTESTS_FILE_MAX, .timeout_s = 600 };
	struct strbuf why = STRBUF_INIT;
	int rc;

	if (!strcmp(tool, "xz"))
		argv[2] = MMTESTS_XZ_MEMLIMIT;
	io.err = &why;
	p.argv = argv;
	p.in = fd;
	rc = child_program_run(&p, &io, &why);
	if (rc == CHILD_EXITED && WIFEXITED(p.w.status) && !WEXITSTATUS(p.w.status))
		rc = 0;
	else if (rc == CHILD_OUT_FULL)
		rc = error("cannot read '%s' with %s: it decompresses to more than the %zu MiB "
			   "kbench reads of one file (docs/mmtests.md); stopped there", path, tool,
			   MMTESTS_FILE_MAX >> 20);
	else if (rc == CHILD_TIMEOUT)
		rc = error("cannot read '%s' with %s: it did not finish in %g s", path, tool,
			   io.timeout_s);
	else {
		strbuf_rtrim(&why);
		rc = error("cannot read '%s' with %s: %s", path, tool,
			   why.len ? why.buf : "it failed");
	}
	strbuf_release(&why);
	return rc;
}

/* The text of the file at path into sb (reset first), through gzip or xz
 * for a .gz or .xz file. Only a regular file is read (a FIFO would block,
 * a device never end), not one of the kernel's file systems (/proc/kmsg
 * is a regular file whose read waits), without waiting on a read, of at
 * most MMTESTS_FILE_MAX bytes on disk and once decompressed. Return 0, 1 when there is no such file, or -1 after
 * printing why. */
int mmtests_read_file(const char *path, struct strbuf *sb)
{
	const char *tool = ends_with(path, ".gz") ? "gzip" : ends_with(path, ".xz") ? "xz" : NULL;
	const char *kind;
	struct stat st;
	int fd, rc;

	strbuf_reset(sb);
	/* Looked at before it is opened (opening a device can do things),
	 * and again once open, as what is read. */
	if (stat(path, &st))
		return errno == ENOENT ? 1 : error("cannot read '%s': %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return error("cannot read '%s': it is %s, not a regular file", path,
			     file_kind(st.st_mode));
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 1 : error("cannot read '%s': %s", path, strerror(errno));
	if (fstat(fd, &st)) {
		rc = error("cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = error("cannot read '%s': it is %s, not a regular file", path,
			   file_kind(st.st_mode));
		goto out;
	}
	if ((kind = kernel_fs(fd))) {
		rc = error("cannot read '%s': it is a file of %s, whose read may wait for ever, "
			   "not a file of a results directory", path, kind);
		goto out;
	}
	if ((uintmax_t)st.st_size > MMTESTS_FILE_MAX) {
		rc = error("cannot read '%s': it is %jd bytes, more than the %zu MiB kbench reads "
			   "of one file (docs/mmtests.md)", path, (intmax_t)st.st_size,
			   MMTESTS_FILE_MAX >> 20);
		goto out;
	}
	/* The flag stays: open() did not wait for a FIFO's writer, and a
	 * read that would wait (a file system's own kind of file) fails at
	 * once rather than hang; a disk file's reads ignore it. A
	 * decompressor is killed after 600 s. */
	rc = tool ? decompress(path, fd, tool, sb) : read_regular(path, fd, st.st_size, sb);
out:
	close(fd);
	if (rc)
		strbuf_reset(sb);
	return rc;
}

/* mmtests_read_file() of path, else of path.gz: path is left naming the file
 * read. */
int mmtests_read_file_gz(struct strbuf *path, struct strbuf *sb)
{
	int rc = mmtests_read_file(path->buf, sb);

	if (rc == 1) {
		strbuf_addstr(path, ".gz");
		rc = mmtests_read_file(path->buf, sb);
	}
	return rc;
}
