/* mmtests_write: what writes the files of a run in mmtests' layout: a
 * figure as exactly as it reads back, a new file or one appended to (its
 * directories made), a benchmark's logs directory, and the numbers rows
 * and samples are written under. */
#include "config.h"
#include "mmtests/mmtests_bench.h"
#include "lib/error.h"
#include "lib/fsfile.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* v with the fewest decimals that read back as v, never in exponent form
 * (mmtests' patterns read [0-9.]). */
void mmtests_add_exact(double v, struct strbuf *out)
{
	char buf[512];

	for (int prec = 0; prec <= 340; prec++) {
		snprintf(buf, sizeof(buf), "%.*f", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	strbuf_addstr(out, buf);
}

/* mkdir -p path. */
int mmtests_make_dirs(const char *path)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	if (mkdir_p(path, &err))
		rc = error("%s", err.buf);
	strbuf_release(&err);
	return rc;
}

/* Write text to the new file at path (its directory made first). */
int mmtests_write_new(const char *path, const struct strbuf *text)
{
	char *dir = xstrdup(path);
	int fd, rc = 0;

	*strrchr(dir, '/') = '\0';
	if (mmtests_make_dirs(dir)) {
		free(dir);
		return -1;
	}
	free(dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 || write_full(fd, text->buf, text->len))
		rc = error("cannot write '%s': %s", path, strerror(errno));
	if (fd >= 0 && close(fd) && !rc)
		rc = error("cannot write '%s': %s", path, strerror(errno));
	return rc;
}

/* Append text to the file at path (made when absent). */
int mmtests_append(const char *path, const struct strbuf *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	int rc = 0;

	if (fd < 0) {
		char *dir = xstrdup(path);

		*strrchr(dir, '/') = '\0';
		rc = mmtests_make_dirs(dir);
		free(dir);
		if (rc)
			return -1;
		fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	}
	if (fd < 0 || write_full(fd, text->buf, text->len))
		rc = error("cannot write '%s': %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return rc;
}

/* The number after prefix in row ("clients-4" with "clients-"), or 0. */
long long mmtests_row_number(const char *row, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	long long v;

	if (strncmp(row, prefix, n) || !row[n] || row[n] == '-' || row[n] == '+')
		return 0;
	v = strtoll(row + n, &end, 10);
	return *end || v <= 0 ? 0 : v;
}

/* How many samples of (section, row) came before sample i: its number in
 * the files that hold one sample each, from 1. */
int mmtests_ordinal(const struct ex_run *r, size_t i)
{
	int k = 1;

	for (size_t j = 0; j < i; j++)
		k += !strcmp(r->v[j].section, r->v[i].section) && !strcmp(r->v[j].row, r->v[i].row);
	return k;
}

/* The benchmark's logs directory of iteration iter under root. */
void mmtests_logs_dir(struct strbuf *p, const char *root, const struct ex_run *r, int iter,
		     const char *bench)
{
	strbuf_reset(p);
	strbuf_addf(p, "%s/%s/iter-%d/%s/logs", root, r->info.name, iter, bench);
}
