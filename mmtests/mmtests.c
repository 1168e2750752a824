/* mmtests: an mmtests results directory (work/log/<run>/iter-N/<bench>/logs)
 * read into kbench runs. Every run of the directory is read and checked
 * first, into a private bundle, which store_import() then adds as it adds
 * any bundle: in one transaction, idempotent by uuid, nothing stored on a
 * refusal. Expects years of runs: thousands of small log files. */
#include "config.h"
#include "mmtests/mmtests.h"
#include "db/store.h"
#include "lib/child.h"
#include "lib/error.h"
#include "lib/name.h"
#include "lib/regex.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/uuid.h"
#include "lib/xalloc.h"
#include "machine/sysinfo.h"

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
#include <time.h>
#include <unistd.h>

/* One sample as kbench stores it: up to five result rows (pft's four). */
struct mm_set {
	char *section;
	const char *workload;
	int iteration;
	size_t n;
	struct sample_record r[4];
};

/* A counter of samples per (section, first row), which numbers them. */
struct mm_count {
	char *key;
	int n;
};

struct mm_skip {
	char *bench, *why;
};

/* One run directory, read. */
struct mm_run {
	char *name, *path;
	struct machine_info m;
	struct kernel_info k;
	char *mmtests_version, *config_text;
	long long start, finish;	/* epoch seconds; -1: not known */
	char *unfinished;		/* why mmtests has not finished the run;
					 * NULL: it has, or nothing says */
	struct mm_set *sets;
	size_t nsets, asets;
	struct mm_count *counts;
	size_t ncounts;
	struct mm_skip *skips;
	size_t nskips;
	struct strbuf benches;		/* "section\tbenchmark\n" of what was read */
};

struct mm_ctx {
	struct mmtests_parser *parser;
	struct mmtests_values vals;
	struct strbuf text, err;
};

/* ---- directories ---- */

struct names {
	char **v;
	size_t n;
};

static void names_release(struct names *d)
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
static int list_dir(const char *path, struct names *out)
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
static int read_file(const char *path, struct strbuf *sb)
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

/* read_file() of path, else of path.gz: path is left naming the file
 * read. */
static int read_file_gz(struct strbuf *path, struct strbuf *sb)
{
	int rc = read_file(path->buf, sb);

	if (rc == 1) {
		strbuf_addstr(path, ".gz");
		rc = read_file(path->buf, sb);
	}
	return rc;
}

/* ---- a run ---- */

static void run_release(struct mm_run *r)
{
	free(r->name);
	free(r->path);
	machine_info_release(&r->m);
	kernel_info_release(&r->k);
	free(r->mmtests_version);
	free(r->config_text);
	free(r->unfinished);
	for (size_t i = 0; i < r->nsets; i++) {
		free(r->sets[i].section);
		for (size_t j = 0; j < r->sets[i].n; j++)
			free((char *)r->sets[i].r[j].row);
	}
	free(r->sets);
	for (size_t i = 0; i < r->ncounts; i++)
		free(r->counts[i].key);
	free(r->counts);
	for (size_t i = 0; i < r->nskips; i++) {
		free(r->skips[i].bench);
		free(r->skips[i].why);
	}
	free(r->skips);
	strbuf_release(&r->benches);
}

static void skip(struct mm_run *r, const char *bench, const char *why)
{
	for (size_t i = 0; i < r->nskips; i++)
		if (!strcmp(r->skips[i].bench, bench))
			return;
	r->skips = xrealloc(r->skips, (r->nskips + 1) * sizeof(*r->skips));
	r->skips[r->nskips].bench = xstrdup(bench);
	r->skips[r->nskips++].why = xstrdup(why);
}

/* name checked as a section or row name; -1 after printing why. */
static int check_label(const char *file, const char *what, const char *name)
{
	const char *why = name_invalid(NAME_LABEL, name, strlen(name), NULL);

	return why ? error("%s: invalid %s name '%s': %s", file, what, name_printable(name), why)
		   : 0;
}

/* What each result row of a benchmark is. */
struct mm_metric {
	const char *prefix;	/* the row is PREFIX-LABEL, or LABEL for "" */
	const char *unit;
	int higher;
};

/* Add one sample of section (workload) for row label with the n values
 * v, one for each of metrics m; file names it for messages. */
static int add_set(struct mm_run *r, const char *file, const char *section, const char *workload,
		   const char *label, const struct mm_metric *m, const double *v, size_t n)
{
	struct mm_set *s;
	struct strbuf row = STRBUF_INIT, key = STRBUF_INIT;
	size_t i;

	if (check_label(file, "section", section))
		return -1;
	if (r->nsets == r->asets) {
		r->asets = r->asets ? 2 * r->asets : 64;
		r->sets = xrealloc(r->sets, r->asets * sizeof(*r->sets));
	}
	s = &r->sets[r->nsets];
	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		strbuf_reset(&row);
		strbuf_addf(&row, "%s%s%s", m[i].prefix, *m[i].prefix ? "-" : "", label);
		if (check_label(file, "row", row.buf)) {
			for (size_t j = 0; j < i; j++)
				free((char *)s->r[j].row);
			strbuf_release(&row);
			strbuf_release(&key);
			return -1;
		}
		s->r[i] = (struct sample_record){ .row = strbuf_detach(&row), .value = v[i],
						  .unit = m[i].unit, .higher_better = m[i].higher };
	}
	s->n = n;
	s->section = xstrdup(section);
	s->workload = workload;
	strbuf_addf(&key, "%s\t%s", section, s->r[0].row);
	for (i = 0; i < r->ncounts && strcmp(r->counts[i].key, key.buf); i++)
		;
	if (i == r->ncounts) {
		r->counts = xrealloc(r->counts, (r->ncounts + 1) * sizeof(*r->counts));
		r->counts[r->ncounts++] = (struct mm_count){ .key = strbuf_detach(&key) };
	}
	s->iteration = ++r->counts[i].n;
	r->nsets++;
	strbuf_release(&row);
	strbuf_release(&key);
	return 0;
}

/* Remember that section was read from benchmark (run_meta), once: a
 * section that got no sample too. logs names the benchmark's directory
 * for messages. Return 0, or -1 after printing why section cannot be a
 * section's name. */
static int note_bench(struct mm_run *r, const char *logs, const char *section,
		      const char *bench)
{
	struct strbuf line = STRBUF_INIT;

	if (check_label(logs, "section", section))
		return -1;
	strbuf_addf(&line, "\n%s\t%s\n", section, bench);
	if (!r->benches.len)
		strbuf_addch(&r->benches, '\n');
	if (!strstr(r->benches.buf, line.buf))
		strbuf_addstr(&r->benches, line.buf + 1);
	strbuf_release(&line);
	return 0;
}

/* Parse the log at path as kind into c->vals; 1 when there is no such
 * file, 0, or -1 after printing why. */
static int parse_file(struct mm_ctx *c, const char *path, enum mmtests_log kind)
{
	int rc = read_file(path, &c->text);

	if (rc)
		return rc;
	strbuf_reset(&c->err);
	if (mmtests_parse_log(c->parser, kind, path, c->text.buf, c->text.len, &c->vals, &c->err))
		return error("%s", c->err.buf);
	return 0;
}

/* The number after prefix in name and before one of the suffixes given
 * (NULL-terminated; "" for none): hackbench-4 gives 4. 0 when it is not. */
static long long name_number(const char *name, const char *prefix, const char *const *suffixes,
			     const char **rest)
{
	size_t n = strlen(prefix);
	char *end;
	long long v;

	if (strncmp(name, prefix, n) || !isdigit((unsigned char)name[n]))
		return 0;
	errno = 0;
	v = strtoll(name + n, &end, 10);
	if (errno || v <= 0)
		return 0;
	for (; *suffixes; suffixes++)
		if (!strcmp(end, *suffixes) ||
		    (**suffixes == '*' && !strncmp(end, *suffixes + 1, strlen(*suffixes + 1)))) {
			if (rest)
				*rest = end + strlen(*suffixes + (**suffixes == '*'));
			return v;
		}
	return 0;
}

/* Read every file of logs named PREFIX<N><SUFFIX>, whose <N> is the row
 * label, as kind, each figure one sample of section with metric m. */
static int import_numbered(struct mm_ctx *c, struct mm_run *r, const char *logs,
			   const char *section, const char *workload, const char *prefix,
			   const char *const *suffixes, enum mmtests_log kind,
			   const char *label_prefix, const struct mm_metric *m)
{
	struct names files;
	struct strbuf path = STRBUF_INIT, label = STRBUF_INIT;
	int rc = list_dir(logs, &files);

	for (size_t i = 0; !rc && i < files.n; i++) {
		long long n = name_number(files.v[i], prefix, suffixes, NULL);

		if (!n)
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", logs, files.v[i]);
		strbuf_reset(&label);
		strbuf_addf(&label, "%s%lld", label_prefix, n);
		rc = parse_file(c, path.buf, kind);
		for (size_t k = 0; !rc && k < c->vals.n; k += c->vals.per)
			rc = add_set(r, path.buf, section, workload, label.buf, m, c->vals.v + k, 1);
	}
	names_release(&files);
	strbuf_release(&path);
	strbuf_release(&label);
	return rc < 0 ? -1 : 0;
}

/* A hackbench log of run r in the one form the mmtests that wrote it
 * reads (docs/mmtests.md): perf bench's "Total time:" lines, as every
 * mmtests since May 2019 reads them, when the run is of such an mmtests
 * (it records its version, as mmtests has since November 2019, or the
 * log is the appended hackbench-G of mmtests since April 2026) or when
 * the log holds such a line (perf bench wrote it); else the "Time:"
 * lines of the hackbench.c older mmtests ran and read. Lines of the
 * other form are left unread, with a warning. */
static int parse_hackbench(struct mm_ctx *c, const struct mm_run *r, const char *path,
			   int appended)
{
	int rc = parse_file(c, path, MMTESTS_LOG_HACKBENCH);

	/* No "Total time:" line: the other form has nothing to leave out. */
	if (!rc && !c->vals.n && c->vals.other && !r->mmtests_version && !appended)
		return parse_file(c, path, MMTESTS_LOG_HACKBENCH_TIME);
	if (!rc && c->vals.other)
		warning("%s: %zu 'Time:' line%s not read: the mmtests that wrote it reads the "
			"'Total time:' lines of this log (docs/mmtests.md)", path, c->vals.other,
			c->vals.other == 1 ? "" : "s");
	return rc;
}

/* hackbench: logs/hackbench-G (every invocation appended) or
 * hackbench-G-I (one file per invocation), as perf bench or the older
 * hackbench.c print it: one sample per time line of the log's form, row
 * G, as kbench's hackbench stores it. */
static int import_hackbench(struct mm_ctx *c, struct mm_run *r, const char *bench,
			    const char *logs)
{
	static const struct mm_metric m = { "", "s", 0 };
	static const char *const suffixes[] = { "", "*-", ".gz", ".xz", NULL };
	char section[64];
	struct names files;
	struct strbuf path = STRBUF_INIT, label = STRBUF_INIT;
	int rc;

	/* The oldest names ran processes: hackbench-pipes, hackbench-sockets. */
	if (!strcmp(bench, "hackbench-pipes") || !strcmp(bench, "hackbench-sockets"))
		snprintf(section, sizeof(section), "hackbench-process-%s", bench + 10);
	else
		snprintf(section, sizeof(section), "%s", bench);
	rc = list_dir(logs, &files);
	for (size_t i = 0; !rc && i < files.n; i++) {
		const char *rest = NULL;
		long long g = name_number(files.v[i], "hackbench-", suffixes, &rest);

		if (!g)
			continue;
		if (rest && *rest && (!isdigit((unsigned char)*rest) ||
				      strspn(rest, "0123456789") != strlen(rest)))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", logs, files.v[i]);
		strbuf_reset(&label);
		strbuf_addf(&label, "%lld", g);
		rc = parse_hackbench(c, r, path.buf, !rest || !*rest);
		for (size_t k = 0; !rc && k < c->vals.n; k++)
			rc = add_set(r, path.buf, section, "hackbench", label.buf, &m, c->vals.v + k, 1);
	}
	if (!rc)
		rc = note_bench(r, logs, section, bench);
	names_release(&files);
	strbuf_release(&path);
	strbuf_release(&label);
	return rc < 0 ? -1 : 0;
}

/* The bits one unit of netperf's -f letter u stands for (its netlib.c:
 * k, m and g are powers of 1000 bits, K, M and G of 1024 bytes); 0 for
 * x (transactions) and any other letter. */
static double netperf_bits(char u)
{
	switch (u) {
	case 'b': return 1;
	case 'k': return 1e3;
	case 'm': return 1e6;
	case 'g': return 1e9;
	case 'B': return 8;
	case 'K': return 8.0 * 1024;
	case 'M': return 8.0 * 1024 * 1024;
	case 'G': return 8.0 * 1024 * 1024 * 1024;
	default: return 0;
	}
}

/* How netperf's header writes the unit of -f letter u. */
static const char *netperf_unit_name(char u)
{
	switch (u) {
	case 'x': return "per sec";
	case 'b': return "10^0bits/sec";
	case 'k': return "10^3bits/sec";
	case 'm': return "10^6bits/sec";
	case 'g': return "10^9bits/sec";
	case 'B': return "Bytes/sec";
	case 'K': return "KBytes/sec";
	case 'M': return "MBytes/sec";
	default: return "GBytes/sec";
	}
}

/* netperf: logs/protocols names the test; logs/PROTO-SIZE.N is one
 * invocation's output. RR rows are the size (always 1: mmtests passes no
 * -r), in transactions per second; STREAM rows the size, UDP_STREAM's
 * send-SIZE and recv-SIZE, in 10^6 bit/s. The unit netperf printed is
 * what a units-PROTO file says (mmtests' -f since 2024: k for RR, m for
 * STREAM), else what each log's header says (older mmtests passed -f m
 * to every test: RR in 10^6 bit/s too); figures in bits are converted,
 * an RR transaction of 1-byte request and response being 16 bits. A log
 * whose header names no unit, where no units file does, is refused: its
 * figure could be either. */
static int import_netperf(struct mm_ctx *c, struct mm_run *r, const char *bench,
			  const char *logs)
{
	static const struct {
		const char *proto, *section, *unit;
		enum mmtests_log kind;
	} protos[] = {
		{ "TCP_RR", "netperf-tcp-rr", "trans/s", MMTESTS_LOG_NETPERF },
		{ "UDP_RR", "netperf-udp-rr", "trans/s", MMTESTS_LOG_NETPERF },
		{ "TCP_STREAM", "netperf-tcp-stream", "Mbit/s", MMTESTS_LOG_NETPERF },
		{ "UDP_STREAM", "netperf-udp-stream", "Mbit/s", MMTESTS_LOG_UDP_STREAM },
	};
	static const struct mm_metric udp[] = { { "send", "Mbit/s", 1 }, { "recv", "Mbit/s", 1 } };
	struct strbuf path = STRBUF_INIT, label = STRBUF_INIT, proto = STRBUF_INIT;
	struct strbuf units = STRBUF_INIT;
	struct names files = { 0 };
	struct mm_metric m = { "", NULL, 1 };
	char file_unit = 0;	/* the units file's letter; 0: no such file */
	const char *section;
	size_t p;
	int rc, rr;

	strbuf_addf(&path, "%s/protocols", logs);
	rc = read_file(path.buf, &proto);
	if (rc) {
		if (rc > 0)
			skip(r, bench, "no logs/protocols file names the netperf test");
		rc = rc < 0 ? -1 : 0;
		goto out;
	}
	strbuf_rtrim(&proto);
	if (strchr(proto.buf, '\n'))
		proto.buf[strcspn(proto.buf, "\n")] = '\0';
	for (p = 0; p < sizeof(protos) / sizeof(protos[0]) && strcmp(protos[p].proto, proto.buf);
	     p++)
		;
	if (p == sizeof(protos) / sizeof(protos[0])) {
		strbuf_reset(&label);
		strbuf_addf(&label, "netperf test '%s': kbench's netperf runs TCP_RR, UDP_RR, "
			    "TCP_STREAM and UDP_STREAM", name_printable(proto.buf));
		skip(r, bench, label.buf);
		goto out;
	}
	/* mmtests' IPv6 runs keep their name: they are another section. */
	section = strstr(bench, "ipv6") ? bench : protos[p].section;
	m.unit = protos[p].unit;
	rr = !strcmp(m.unit, "trans/s");
	strbuf_addf(&units, "%s/units-%s", logs, protos[p].proto);
	rc = read_file(units.buf, &label);
	if (rc < 0)
		goto out;
	if (!rc) {
		const char *t;

		strbuf_rtrim(&label);
		t = label.buf + strspn(label.buf, " \t");
		file_unit = *t;
		if (!*t || t[1] || !strchr(rr ? "kmgx" : "kmg", *t)) {
			rc = error("%s:1: expected netperf's units (k, m or g%s), found '%s'",
				   units.buf, rr ? ", or x" : "", name_printable(label.buf));
			goto out;
		}
	}
	rc = list_dir(logs, &files);
	for (size_t i = 0; !rc && i < files.n; i++) {
		static const char *const dot[] = { "*.", NULL };
		const char *rest = NULL;
		long long size;
		char prefix[32], u;
		double bits, scale;

		snprintf(prefix, sizeof(prefix), "%s-", protos[p].proto);
		size = name_number(files.v[i], prefix, dot, &rest);
		if (!size || !*rest || strspn(rest, "0123456789") != strlen(rest))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", logs, files.v[i]);
		strbuf_reset(&label);
		strbuf_addf(&label, "%lld", size);
		rc = parse_file(c, path.buf, protos[p].kind);
		if (rc)
			break;
		if (!c->vals.n) {
			warning("%s: no result line: a netperf that failed, no sample", path.buf);
			continue;
		}
		u = c->vals.unit;
		if (file_unit && u && u != file_unit) {
			rc = error("%s:%zu: netperf's header gives the result in %s, but %s says "
				   "'%c'", path.buf, c->vals.unit_line, netperf_unit_name(u),
				   units.buf, file_unit);
			break;
		}
		if (!file_unit && !u) {
			rc = error("%s:%zu: expected netperf's header naming the result's unit "
				   "('per sec', '10^6bits/sec' and the like) before it, found none "
				   "(and no %s says it)", path.buf, c->vals.result_line,
				   strrchr(units.buf, '/') + 1);
			break;
		}
		if (file_unit)
			u = file_unit;
		bits = netperf_bits(u);
		if (u == 'x' ? !rr : !bits) {
			rc = error("%s:%zu: expected a %s in netperf's header, found '%s'", path.buf,
				   c->vals.unit_line, rr ? "rate in transactions or bits per second" :
				   "rate in bits or bytes per second", netperf_unit_name(u));
			break;
		}
		scale = u == 'x' ? 1 : rr ? bits / 16 : bits / 1e6;
		for (size_t k = 0; k < c->vals.n; k++)
			c->vals.v[k] *= scale;
		rc = add_set(r, path.buf, section, "netperf", label.buf,
			     protos[p].kind == MMTESTS_LOG_UDP_STREAM ? udp : &m, c->vals.v,
			     c->vals.per);
	}
	if (!rc)
		rc = note_bench(r, logs, section, bench);
out:
	names_release(&files);
	strbuf_release(&path);
	strbuf_release(&label);
	strbuf_release(&proto);
	strbuf_release(&units);
	return rc < 0 ? -1 : 0;
}

/* pft: logs/base/pft-N.log (mmtests' PFT_PAGESIZES=base; logs/pft-N.log
 * read too), one line per invocation; rows system-N, elapsed-N,
 * faults/cpu-N and faults/sec-N as kbench's pft stores them. The section
 * is pft-processes or pft-threads as the config's PFT_USE_PROCESSES says,
 * pft without one. */
static int import_pft(struct mm_ctx *c, struct mm_run *r, const char *bench, const char *logs)
{
	static const struct mm_metric m[] = {
		{ "system", "s", 0 }, { "elapsed", "s", 0 },
		{ "faults/cpu", "faults/cpu-s", 1 }, { "faults/sec", "faults/s", 1 },
	};
	static const char *const suffixes[] = { ".log", ".log.gz", ".log.xz", NULL };
	const char *section = "pft";
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, label = STRBUF_INIT;
	struct names files = { 0 };
	int rc = 0;

	if (r->config_text) {
		struct kb_regex *re = kb_regex_compile(
			"^\\s*(?:export\\s+)?PFT_USE_PROCESSES=[\"']?(\\w*)", KB_REGEX_MULTILINE, &label);
		struct kb_regex_span sp;
		size_t pos = 0;
		int found = re ? kb_regex_find(re, r->config_text, strlen(r->config_text), &pos, 1,
					       &sp, &label) : -1;

		kb_regex_free(re);
		if (found < 0)
			return error("pft: PFT_USE_PROCESSES: %s", label.buf);
		if (found)
			section = !strncmp(r->config_text + sp.gstart, "yes", 3) ? "pft-processes"
										    : "pft-threads";
		strbuf_reset(&label);
	}
	strbuf_addf(&dir, "%s/base", logs);
	if (!path_is_dir(dir.buf)) {
		strbuf_reset(&dir);
		strbuf_addstr(&dir, logs);
	}
	rc = list_dir(dir.buf, &files);
	for (size_t i = 0; !rc && i < files.n; i++) {
		long long n = name_number(files.v[i], "pft-", suffixes, NULL);

		if (!n)
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir.buf, files.v[i]);
		strbuf_reset(&label);
		strbuf_addf(&label, "%lld", n);
		rc = parse_file(c, path.buf, MMTESTS_LOG_PFT);
		/* per line: user, system, elapsed, faults/cpu, faults/sec */
		for (size_t k = 0; !rc && k < c->vals.n; k += c->vals.per)
			rc = add_set(r, path.buf, section, "pft", label.buf, m, c->vals.v + k + 1, 4);
	}
	if (!rc)
		rc = note_bench(r, logs, section, bench);
	names_release(&files);
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&label);
	return rc < 0 ? -1 : 0;
}

/* tbench: logs/tbench-N.log(.gz), one invocation per client count; its
 * final Throughput line is the sample, row clients-N in MB/sec, as
 * configs/tbench.conf reads it. mmtests' own table reads the per-second
 * lines instead. */
static int import_tbench(struct mm_ctx *c, struct mm_run *r, const char *bench,
			 const char *logs)
{
	static const struct mm_metric m = { "", "MB/sec", 1 };
	static const char *const suffixes[] = { ".log", ".log.gz", ".log.xz", NULL };
	int rc = import_numbered(c, r, logs, "tbench", "external", "tbench-", suffixes,
				 MMTESTS_LOG_TBENCH, "clients-", &m);

	if (!rc)
		rc = note_bench(r, logs, "tbench", bench);
	return rc;
}

/* sysbenchcpu: logs/benchlog-T-_-I (mmtests now) or sysbench-raw-T-I
 * (before), one invocation each: events per second, row threads-T of
 * section sysbench-cpu as configs/sysbench.conf reads it. */
static int import_sysbench_cpu(struct mm_ctx *c, struct mm_run *r, const char *bench,
			       const char *logs)
{
	static const struct mm_metric m = { "", "events/s", 1 };
	static const char *const raw[] = { "*-", NULL }, *const benchlog[] = { "*-_-", NULL };
	int rc = import_numbered(c, r, logs, "sysbench-cpu", "external", "sysbench-raw-",
				 raw, MMTESTS_LOG_SYSBENCH_CPU, "threads-", &m);

	if (!rc)
		rc = import_numbered(c, r, logs, "sysbench-cpu", "external", "benchlog-",
				     benchlog, MMTESTS_LOG_SYSBENCH_CPU, "threads-", &m);

	if (!rc)
		rc = note_bench(r, logs, "sysbench-cpu", bench);
	return rc;
}

/* The benchmarks kbench reads, and those it knows it cannot. */
static const struct mm_bench {
	const char *name;	/* a name, or a prefix ending in '*' */
	int (*import)(struct mm_ctx *c, struct mm_run *r, const char *bench, const char *logs);
	const char *why;	/* not imported: why */
} benches[] = {
	{ "hackbench-*", import_hackbench, NULL },
	{ "netperf-*", import_netperf, NULL },
	{ "pft", import_pft, NULL },
	{ "tbench", import_tbench, NULL },
	{ "sysbenchcpu", import_sysbench_cpu, NULL },
	{ "dbench*", NULL, "dbench's figures are per-second rates and per-client loadfile "
	  "times, not one per invocation; kbench has no dbench workload" },
	{ "sysbench*", NULL, "mmtests reads a 95th percentile latency here; kbench's "
	  "sysbench sections read total time" },
};

static const struct mm_bench *find_bench(const char *name)
{
	for (size_t i = 0; i < sizeof(benches) / sizeof(benches[0]); i++) {
		size_t n = strlen(benches[i].name);

		if (benches[i].name[n - 1] == '*' ? !strncmp(name, benches[i].name, n - 1)
						    : !strcmp(name, benches[i].name))
			return &benches[i];
	}
	return NULL;
}

/* ---- facts ---- */

/* uname -a: "Linux HOST RELEASE VERSION... MACHINE... GNU/Linux". */
static void read_uname(struct mm_run *r, char *text)
{
	static const char *const arch[] = { "x86_64", "i386", "i486", "i586", "i686",
		"aarch64", "armv7l", "ppc64le", "ppc64", "s390x", "riscv64", "loongarch64",
		"mips64", "unknown", "GNU/Linux", NULL };
	char *f[64];
	size_t n = 0, end;
	struct strbuf v = STRBUF_INIT;

	for (char *t = strtok(text, " \t\n"); t && n < 64; t = strtok(NULL, " \t\n"))
		f[n++] = t;
	if (n < 3)
		return;
	free(r->m.hostname);
	r->m.hostname = xstrdup(f[1]);
	r->k.release = xstrdup(f[2]);
	for (end = n; end > 3; end--) {
		size_t a;

		for (a = 0; arch[a] && strcmp(arch[a], f[end - 1]); a++)
			;
		if (!arch[a])
			break;
	}
	for (size_t i = 3; i < end; i++)
		strbuf_addf(&v, "%s%s", i > 3 ? " " : "", f[i]);
	if (v.len)
		r->k.version = strbuf_detach(&v);
	strbuf_release(&v);
}

/* The value after "KEY" on the first line of text that starts with it,
 * trimmed (NULL when it has none), and that line's number in *lineno (0:
 * no line starts with key; lineno may be NULL). */
static char *line_value_at(const char *text, const char *key, size_t *lineno)
{
	size_t k = strlen(key), n = 0;

	if (lineno)
		*lineno = 0;
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t len = strcspn(l, "\n");

		n++;
		if (len >= k && !strncmp(l, key, k)) {
			const char *v = l + k;

			if (lineno)
				*lineno = n;
			while (v < l + len && isspace((unsigned char)*v))
				v++;
			while (len && isspace((unsigned char)l[len - 1]))
				len--;
			return v < l + len ? strndup(v, (size_t)(l + len - v)) : NULL;
		}
	}
	return NULL;
}

static char *line_value(const char *text, const char *key)
{
	return line_value_at(text, key, NULL);
}

/* The largest count of CPUs, cores, sockets or nodes taken from lscpu:
 * Linux's own bound (NR_CPUS) is at most 8192 on every architecture. */
#define MMTESTS_COUNT_MAX 1048576

/* The count after key in file's text into *out: 0 when there is none,
 * or it is lscpu's '-' (what it does not know). Return 0, or -1 after
 * printing why for anything else but a count from 1 to
 * MMTESTS_COUNT_MAX ("0", "-8", "many", a count followed by more than
 * blanks). */
static int count_value(const char *file, const char *text, const char *key, int *out)
{
	size_t line;
	char *v = line_value_at(text, key, &line), *end = NULL;
	long long n = 0;
	int rc = 0;

	*out = 0;
	if (!v || !strcmp(v, "-"))
		goto out;
	errno = 0;
	if (isdigit((unsigned char)*v))
		n = strtoll(v, &end, 10);
	if (end && n > MMTESTS_COUNT_MAX)
		rc = error("%s:%zu: expected a count of at most %d after '%s', found '%s'", file,
			   line, MMTESTS_COUNT_MAX, key, v);
	else if (!end || errno || *end || n < 1)
		rc = error("%s:%zu: expected a count from 1 to %d (or '-') after '%s', found '%s'",
			   file, line, MMTESTS_COUNT_MAX, key, v);
	else
		*out = (int)n;
out:
	free(v);
	return rc;
}

/* The latest time taken from tests-timestamp: the end of 9999, in seconds
 * since 1970 (what gmtime() can write as a four-digit year). */
#define MMTESTS_EPOCH_MAX 253402300799LL

/* "start :: EPOCH" or "finish :: EPOCH" in file's text into *t, and its
 * line into *lineno; -1 when no line starts with key. Return 0, or -1
 * after printing why for a line whose value is not seconds since 1970
 * (0, the first second of 1970, is no time a run was made at). */
static int stamp(const char *file, const char *text, const char *key, long long *t,
		 size_t *lineno)
{
	size_t line;
	char *v = line_value_at(text, key, &line), *end = NULL;
	int rc = 0;

	*t = -1;
	*lineno = line;
	if (!line)
		return 0;
	errno = 0;
	if (v && isdigit((unsigned char)*v))
		*t = strtoll(v, &end, 10);
	if (!end || *end || errno || *t < 1 || *t > MMTESTS_EPOCH_MAX) {
		rc = error("%s:%zu: expected seconds since 1970 (from 1 to %lld) after '%s', found "
			   "'%s'", file, line, MMTESTS_EPOCH_MAX, key, v ? v : "");
		*t = -1;
	}
	free(v);
	return rc;
}

/* "MemTotal: N kB" of file's text, in bytes, into *bytes (0: none, or
 * not a number). Return 0, or -1 after printing why for a size past an
 * exbibyte. */
static int mem_value(const char *file, const char *text, uint64_t *bytes)
{
	size_t line;
	char *v = line_value_at(text, "MemTotal:", &line), *end;
	unsigned long long kb;
	int rc = 0;

	*bytes = 0;
	if (!v)
		goto out;
	errno = 0;
	if (!isdigit((unsigned char)*v))
		rc = error("%s:%zu: expected a size in kB from 1 to 2^50 after 'MemTotal:', "
			   "found '%s'", file, line, v);
	if (rc)
		goto out;
	kb = strtoull(v, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (errno || (*end && strcmp(end, "kB")) || kb > (1ULL << 50))
		rc = error("%s:%zu: expected a size in kB of at most 2^50 after 'MemTotal:', "
			   "found '%s'", file, line, v);
	else if (!kb)
		rc = error("%s:%zu: expected a size in kB from 1 to 2^50 after 'MemTotal:', "
			   "found '%s'", file, line, v);
	else
		*bytes = (uint64_t)kb << 10;
out:
	free(v);
	return rc;
}

/* What the first iteration (iter) says of the run and its machine, and
 * the last (last) of its end. */
static int read_facts(struct mm_ctx *c, struct mm_run *r, const char *iter, const char *last)
{
	struct strbuf path = STRBUF_INIT;
	int rc, per_socket;
	size_t line;

	r->m.cpu_model = NULL;
	strbuf_addf(&path, "%s/kernel.version", iter);
	if ((rc = read_file(path.buf, &c->text)) < 0)
		goto out;
	if (!rc)
		read_uname(r, c->text.buf);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/lscpu.txt", iter);
	if ((rc = read_file_gz(&path, &c->text)) < 0)
		goto out;
	if (!rc) {
		r->m.cpu_model = line_value(c->text.buf, "Model name:");
		if (count_value(path.buf, c->text.buf, "CPU(s):", &r->m.cpus) ||
		    count_value(path.buf, c->text.buf, "Socket(s):", &r->m.packages) ||
		    count_value(path.buf, c->text.buf, "Core(s) per socket:", &per_socket) ||
		    count_value(path.buf, c->text.buf, "NUMA node(s):", &r->m.numa_nodes)) {
			rc = -1;
			goto out;
		}
		if ((long long)per_socket * r->m.packages > MMTESTS_COUNT_MAX) {
			rc = error("%s: expected at most %d cores, found %d per socket on %d sockets",
				   path.buf, MMTESTS_COUNT_MAX, per_socket, r->m.packages);
			goto out;
		}
		r->m.cores = per_socket * r->m.packages;
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/tests-sysstate", iter);
	if ((rc = read_file_gz(&path, &c->text)) < 0)
		goto out;
	if (!rc) {
		r->mmtests_version = line_value(c->text.buf, "version ::");
		if ((rc = mem_value(path.buf, c->text.buf, &r->m.mem_bytes)))
			goto out;
	}
	r->start = r->finish = -1;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/tests-timestamp", iter);
	if ((rc = read_file(path.buf, &c->text)) < 0 ||
	    (!rc && (rc = stamp(path.buf, c->text.buf, "start ::", &r->start, &line))))
		goto out;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/tests-timestamp", last);
	if ((rc = read_file(path.buf, &c->text)) < 0 ||
	    (!rc && (rc = stamp(path.buf, c->text.buf, "finish ::", &r->finish, &line))))
		goto out;
	if (r->start >= 0 && r->finish >= 0 && r->finish < r->start) {
		rc = error("%s:%zu: expected a finish no earlier than the start (%lld), found "
			   "'finish :: %lld'", path.buf, line, r->start, r->finish);
		goto out;
	}
	for (int i = 0; i < 2 && !r->config_text; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/config", i ? iter : r->path);
		if ((rc = read_file(path.buf, &c->text)) < 0)
			goto out;
		if (!rc)
			r->config_text = xstrdup(c->text.buf);
	}
	if (!r->m.cpu_model)
		r->m.cpu_model = xstrdup("unknown");
	rc = 0;
out:
	strbuf_release(&path);
	return rc;
}

/* Whether name is an iteration directory's: iter-N. */
static int is_iter(const char *name)
{
	static const char *const none[] = { "", NULL };

	return name_number(name, "iter-", none, NULL) || !strcmp(name, "iter-0");
}

/* Whether text has a line that starts with key. */
static int has_line(const char *text, const char *key)
{
	size_t line;

	free(line_value_at(text, key, &line));
	return line > 0;
}

/* The last occurrence of what in text, or NULL. */
static const char *last_of(const char *text, const char *what)
{
	const char *at = NULL;

	for (const char *p = text; (p = strstr(p, what)); p++)
		at = p;
	return at;
}

/* Set r->unfinished when the files of run r (iterations iters) say that
 * mmtests has not finished it: a tests-timestamp with 'start ::' but no
 * 'finish ::' (an iteration under way), an iteration without one beside
 * iterations with one (an iteration being set up), a tests-activity whose
 * last 'run-mmtests: Start' has no 'run-mmtests: End' after it (between
 * iterations, or a second run begun in the same directory).
 * A run whose files say none of it (an older mmtests, a copy without
 * them) counts as finished. Return 0, or -1 after printing why. */
static int check_finished(struct mm_ctx *c, struct mm_run *r, const struct names *iters)
{
	struct strbuf path = STRBUF_INIT, why = STRBUF_INIT;
	const char *missing = NULL;
	int stamped = 0, rc = 0;

	for (size_t i = 0; i < iters->n && !why.len; i++) {
		if (!is_iter(iters->v[i]))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s/tests-timestamp", r->path, iters->v[i]);
		if ((rc = read_file(path.buf, &c->text)) < 0)
			goto out;
		if (rc) {
			missing = missing ? missing : iters->v[i];
			continue;
		}
		stamped = 1;
		if (has_line(c->text.buf, "start ::") && !has_line(c->text.buf, "finish ::"))
			strbuf_addf(&why, "%s/tests-timestamp has 'start ::' but no 'finish ::'",
				    iters->v[i]);
	}
	if (!why.len && stamped && missing)
		strbuf_addf(&why, "%s has no tests-timestamp, beside iterations that have one",
			    missing);
	if (!why.len) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/tests-activity", r->path);
		if ((rc = read_file(path.buf, &c->text)) < 0)
			goto out;
		if (!rc) {
			const char *start = last_of(c->text.buf, "run-mmtests: Start");
			const char *end = last_of(c->text.buf, "run-mmtests: End");

			if (start && !end)
				strbuf_addstr(&why, "tests-activity has 'run-mmtests: Start' but no "
					      "'run-mmtests: End'");
			else if (start && end < start)
				strbuf_addstr(&why, "tests-activity has 'run-mmtests: Start' after "
					      "its last 'run-mmtests: End'");
		}
	}
	if (why.len)
		r->unfinished = strbuf_detach(&why);
	rc = 0;
out:
	strbuf_release(&path);
	strbuf_release(&why);
	return rc;
}

/* Read the run directory path (named name) into r. Return 0, 1 when it
 * is not a run (no iter-N directory), or -1 after printing why. */
static int read_run(struct mm_ctx *c, const char *path, const char *name, struct mm_run *r)
{
	struct names iters, entries = { 0 };
	struct strbuf iter = STRBUF_INIT, last = STRBUF_INIT, logs = STRBUF_INIT;
	const char *why;
	int rc = list_dir(path, &iters), any = 0;

	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->path = xstrdup(path);
	r->m.hostname = xstrdup("unknown");
	if (rc)
		goto out;
	for (size_t i = 0; i < iters.n; i++) {
		if (!is_iter(iters.v[i]))
			continue;
		strbuf_reset(&last);
		strbuf_addf(&last, "%s/%s", path, iters.v[i]);
		if (!any++)
			strbuf_addstr(&iter, last.buf);
	}
	if (!any) {
		rc = 1;
		goto out;
	}
	why = name_invalid(NAME_RUN, name, strlen(name), NULL);
	if (why) {
		rc = error("%s: invalid run name '%s': %s", path, name_printable(name), why);
		goto out;
	}
	if ((rc = read_facts(c, r, iter.buf, last.buf)) || (rc = check_finished(c, r, &iters)))
		goto out;
	why = name_invalid(NAME_HOST, r->m.hostname, strlen(r->m.hostname), NULL);
	if (why) {
		rc = error("%s/kernel.version: invalid host name '%s': %s", iter.buf,
			   name_printable(r->m.hostname), why);
		goto out;
	}
	for (size_t i = 0; !rc && i < iters.n; i++) {
		if (!is_iter(iters.v[i]))
			continue;
		strbuf_reset(&iter);
		strbuf_addf(&iter, "%s/%s", path, iters.v[i]);
		names_release(&entries);
		if ((rc = list_dir(iter.buf, &entries)))
			break;
		for (size_t j = 0; !rc && j < entries.n; j++) {
			const struct mm_bench *b;

			strbuf_reset(&logs);
			strbuf_addf(&logs, "%s/%s/logs", iter.buf, entries.v[j]);
			if (!path_is_dir(logs.buf))
				continue;
			b = find_bench(entries.v[j]);
			if (!b)
				skip(r, entries.v[j], "not a workload kbench has");
			else if (!b->import)
				skip(r, entries.v[j], b->why);
			else
				rc = b->import(c, r, entries.v[j], logs.buf);
		}
	}
out:
	names_release(&iters);
	names_release(&entries);
	strbuf_release(&iter);
	strbuf_release(&last);
	strbuf_release(&logs);
	return rc;
}

/* ---- into a bundle ---- */

static void iso_time(long long epoch, char out[32])
{
	time_t t = (time_t)epoch;
	struct tm tm;

	if (epoch < 0 || !gmtime_r(&t, &tm))
		snprintf(out, 32, "1970-01-01T00:00:00Z");
	else
		strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The facts a run keeps of where it came from (run_meta). */
static int run_facts(struct store *s, int64_t run_id, void *arg)
{
	struct mm_run *r = arg;

	if (store_add_meta(s, run_id, "", "imported", "mmtests") ||
	    store_add_meta(s, run_id, "", "mmtests-run", r->name) ||
	    (r->mmtests_version &&
	     store_add_meta(s, run_id, "", "mmtests-version", r->mmtests_version)) ||
	    (r->unfinished && store_add_meta(s, run_id, "", "mmtests-unfinished", r->unfinished)))
		return -1;
	for (const char *l = r->benches.buf + (r->benches.len > 0); *l; l = strchr(l, '\n') + 1) {
		char *line = strndup(l, strcspn(l, "\n"));
		char *tab = strchr(line, '\t');
		int rc;

		*tab = '\0';
		rc = store_add_meta(s, run_id, line, "mmtests-benchmark", tab + 1);
		free(line);
		if (rc)
			return -1;
	}
	return 0;
}

/* What run r holds, appended to id: its kernel version, mmtests
 * version, config and every sample, in the order they were read. */
static void run_contents(const struct mm_run *r, struct strbuf *id)
{
	strbuf_addf(id, "\n%s\n%s\n%s", r->k.version ? r->k.version : "",
		    r->mmtests_version ? r->mmtests_version : "",
		    r->config_text ? r->config_text : "");
	for (size_t i = 0; i < r->nsets; i++)
		for (size_t j = 0; j < r->sets[i].n; j++)
			strbuf_addf(id, "\n%s\t%s\t%d\t%.17g", r->sets[i].section,
				    r->sets[i].r[j].row, r->sets[i].iteration,
				    r->sets[i].r[j].value);
}

/* The machine of s that run r was measured on, when its files are what
 * kbench export --mmtests wrote (tests-sysstate's version is kbench-V)
 * of a machine s holds (store_adopt_machine()): its facts then replace
 * r's, so that the run joins that machine; with none, or several, r's
 * stand. Return 0, or -1 after an error reading s. */
static int adopt_machine(struct store *s, struct mm_run *r)
{
	return store_adopt_machine(s, &r->m) < 0 ? -1 : 0;
}

/* Write run r into the bundle store b; its machine is one of s when
 * adopt_machine() finds it there. */
static int write_run(struct store *s, struct store *b, struct mm_run *r)
{
	char started[32], finished[32], uuid[37];
	struct strbuf id = STRBUF_INIT;
	struct run_record rec = {
		.name = r->name,
		.config_name = "mmtests",
		.config_text = r->config_text,
		.kbench_version = PACKAGE_VERSION,
		.started_at = started,
		.facts = run_facts,
		.facts_arg = r,
	};
	int64_t run_id;
	int rc = 0;

	iso_time(r->start, started);
	iso_time(r->finish >= 0 && !r->unfinished ? r->finish : r->start, finished);
	machine_info_set_fingerprint(&r->m);
	strbuf_addf(&id, "mmtests\n%s\n%s\n%s\n%lld", r->m.fingerprint, r->name,
		    r->k.release ? r->k.release : "", r->start);
	/* Without a start time, host, name and release may be shared by
	 * other runs: what the run holds tells it from them. */
	if (r->start < 0)
		run_contents(r, &id);
	/* Imported unfinished, a run stays so: once mmtests has finished it,
	 * it is another run, imported beside this one. */
	if (r->unfinished)
		strbuf_addstr(&id, "\nunfinished");
	uuid_from_text(id.buf, uuid);
	rec.uuid = uuid;
	/* The run's identity is the files' whatever the store holds: its
	 * machine may then be one the store knows better. */
	if (r->mmtests_version && !strncmp(r->mmtests_version, "kbench-", 7) &&
	    adopt_machine(s, r))
		rc = -1;
	else
		machine_info_set_fingerprint(&r->m);
	if (!rc && store_begin_run(b, &r->m, &r->k, &rec, &run_id))
		rc = -1;
	for (size_t i = 0; !rc && i < r->nsets; i++) {
		struct sample_set set = {
			.section = r->sets[i].section,
			.workload = r->sets[i].workload,
			.iteration = r->sets[i].iteration,
			.round = 1,
			.samples = r->sets[i].r,
			.nsamples = r->sets[i].n,
		};

		rc = store_add_sample_set(b, run_id, &set);
	}
	if (!rc)
		rc = store_finish_run(b, run_id, r->unfinished ? "interrupted" : "complete",
				      finished);
	strbuf_release(&id);
	return rc;
}

int mmtests_import(struct store *s, const char *dir, unsigned flags,
		   const struct mmtests_import_cbs *cbs, struct import_counts *c)
{
	struct mm_ctx ctx = { .text = STRBUF_INIT, .err = STRBUF_INIT };
	struct mm_run *runs = NULL;
	size_t nruns = 0;
	struct names entries = { 0 };
	struct strbuf path = STRBUF_INIT, tmpdir = STRBUF_INIT, file = STRBUF_INIT;
	struct store *b = NULL;
	struct bundle *bundle = NULL;
	const char *tmp = getenv("TMPDIR");
	char *real = NULL, *base;
	size_t nwrite = 0, nunfinished = 0;
	int rc = -1;

	memset(c, 0, sizeof(*c));
	if (!path_is_dir(dir))
		return error("'%s' is not a directory: --mmtests reads a results directory "
			     "(work/log)", dir);
	ctx.parser = mmtests_parser_new();
	if (!ctx.parser)
		goto out;
	/* dir is one run when it holds iter-N itself, else a directory of
	 * runs. The run is named as the directory is, not as dir reaches it
	 * (DIR/.., a trailing '/', '.'). */
	real = realpath(dir, NULL);
	if (!real) {
		error("cannot resolve '%s': %s", dir, strerror(errno));
		goto out;
	}
	base = strrchr(real, '/');
	runs = xcalloc(1, sizeof(*runs));
	rc = read_run(&ctx, dir, base && base[1] ? base + 1 : real, &runs[0]);
	if (rc < 0) {
		nruns = 1;
		goto out;
	}
	if (!rc) {
		nruns = 1;
	} else {
		run_release(&runs[0]);
		if (list_dir(dir, &entries))
			goto out;
		for (size_t i = 0; i < entries.n; i++) {
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s", dir, entries.v[i]);
			if (!path_is_dir(path.buf))
				continue;
			runs = xrealloc(runs, (nruns + 1) * sizeof(*runs));
			rc = read_run(&ctx, path.buf, entries.v[i], &runs[nruns]);
			if (rc > 0) {
				run_release(&runs[nruns]);
				continue;
			}
			nruns++;
			if (rc)
				goto out;
		}
	}
	rc = -1;
	if (!nruns) {
		error("%s: no mmtests runs (RUN/iter-N directories) there", dir);
		goto out;
	}
	/* A run mmtests has not finished is left for a later import, which
	 * then takes it whole, unless asked for as it is. */
	for (size_t i = 0; i < nruns; i++) {
		struct mm_run *r = &runs[i];

		if (r->unfinished && !(flags & MMTESTS_UNFINISHED)) {
			nunfinished++;
			strbuf_reset(&path);
			strbuf_addf(&path, "mmtests has not finished it (%s); import it once it has, "
				    "or with --unfinished", r->unfinished);
			if (cbs && cbs->skipped && cbs->skipped(r->name, NULL, path.buf, cbs->arg))
				goto out;
			continue;
		}
		nwrite++;
		for (size_t j = 0; cbs && cbs->skipped && j < r->nskips; j++)
			if (cbs->skipped(r->name, r->skips[j].bench, r->skips[j].why, cbs->arg))
				goto out;
	}
	if (!nwrite) {
		error("%s: no finished mmtests run there (%zu unfinished: import again once "
		      "mmtests has finished, or with --unfinished)", dir, nunfinished);
		goto out;
	}

	/* The runs into a private bundle, then that into the store. */
	strbuf_addf(&tmpdir, "%s/kbench-mmtests-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(tmpdir.buf)) {
		error("cannot make a scratch directory '%s': %s", tmpdir.buf, strerror(errno));
		strbuf_reset(&tmpdir);
		goto out;
	}
	strbuf_addf(&file, "%s/runs.kbench", tmpdir.buf);
	if (store_open_scratch(file.buf, &b))
		goto out;
	for (size_t i = 0; i < nruns; i++)
		if ((!runs[i].unfinished || (flags & MMTESTS_UNFINISHED)) && write_run(s, b, &runs[i]))
			goto out;
	store_close(b);
	b = NULL;
	if (bundle_open_as(file.buf, dir, &bundle) ||
	    store_import(s, bundle, !!(flags & MMTESTS_DRY_RUN), cbs ? cbs->run : NULL,
			 cbs ? cbs->arg : NULL, c))
		goto out;
	rc = 0;
out:
	bundle_close(bundle);
	store_close(b);
	if (file.len)
		store_remove_scratch(file.buf);
	if (tmpdir.len)
		rmdir(tmpdir.buf);
	for (size_t i = 0; i < nruns; i++)
		run_release(&runs[i]);
	free(runs);
	free(real);
	names_release(&entries);
	mmtests_parser_free(ctx.parser);
	mmtests_values_release(&ctx.vals);
	strbuf_release(&ctx.text);
	strbuf_release(&ctx.err);
	strbuf_release(&path);
	strbuf_release(&tmpdir);
	strbuf_release(&file);
	return rc;
}
