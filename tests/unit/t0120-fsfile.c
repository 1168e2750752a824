/* t0120-fsfile: lib/fsfile: a directory made with its parents, and said
 * where it cannot be; a file copied, new or over another, and a link or
 * a directory refused when links are not followed.
 * Covers: lib/fsfile.c */
#include "config.h"
#include "lib/fsfile.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_mkdir_p(const char *dir)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT, want = STRBUF_INIT;

	strbuf_addf(&path, "%s/a/b/c", dir);
	ok(!mkdir_p(path.buf, &err) && path_is_dir(path.buf) && !err.len,
	   "a/b/c is made with its parents");
	ok(!mkdir_p(path.buf, NULL), "... and made again, it is there already");
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/file", dir);
	write_text(path.buf, "x");
	strbuf_addstr(&path, "/d/e");
	errno = 0;
	ok(mkdir_p(path.buf, &err) && errno == ENOTDIR, "a file in the way: ENOTDIR");
	strbuf_addf(&want, "cannot create directory '%s/file/d': %s", dir, strerror(ENOTDIR));
	ok_text(err.buf, want.buf, "... and the directory that could not be made is named");
	strbuf_release(&path);
	strbuf_release(&err);
	strbuf_release(&want);
}

static void test_copy_file(const char *dir)
{
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT, link = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT, want = STRBUF_INIT;

	strbuf_addf(&from, "%s/from", dir);
	strbuf_addf(&to, "%s/to", dir);
	strbuf_addf(&link, "%s/link", dir);
	write_text(from.buf, "short\n");
	write_text(to.buf, "a longer text that is replaced\n");
	ok(!copy_file(from.buf, to.buf, 0, &err) && strbuf_read_file(&text, to.buf) >= 0 &&
	   !strcmp(text.buf, "short\n"), "a copy over a longer file leaves the bytes copied");
	ok(copy_file(from.buf, to.buf, COPY_NEW, &err), "COPY_NEW refuses a file that exists");
	strbuf_addf(&want, "cannot create '%s': %s", to.buf, strerror(EEXIST));
	ok_text(err.buf, want.buf, "... and says so");
	strbuf_reset(&text);
	ok(strbuf_read_file(&text, to.buf) >= 0 && !strcmp(text.buf, "short\n"),
	   "... leaving it as it was");
	unlink(to.buf);
	ok(!copy_file(from.buf, to.buf, COPY_NEW | COPY_NOFOLLOW, &err),
	   "COPY_NEW makes a file that does not exist");
	if (symlink(from.buf, link.buf))
		diag("cannot make a link: %s", strerror(errno));
	strbuf_reset(&err);
	strbuf_reset(&want);
	unlink(to.buf);
	ok(copy_file(link.buf, to.buf, COPY_NEW | COPY_NOFOLLOW, &err) && access(to.buf, F_OK),
	   "COPY_NOFOLLOW refuses a link, and makes nothing");
	strbuf_addf(&want, "cannot open '%s': it is a symbolic link", link.buf);
	ok_text(err.buf, want.buf, "... and says so");
	strbuf_reset(&err);
	strbuf_reset(&want);
	ok(copy_file(dir, to.buf, COPY_NEW | COPY_NOFOLLOW, &err), "... and a directory");
	strbuf_addf(&want, "cannot open '%s': not a regular file", dir);
	ok_text(err.buf, want.buf, "... saying it is not a regular file");
	strbuf_reset(&err);
	strbuf_reset(&want);
	unlink(from.buf);
	ok(copy_file(from.buf, to.buf, 0, &err), "a file that is not there is not copied");
	strbuf_addf(&want, "cannot open '%s': %s", from.buf, strerror(ENOENT));
	ok_text(err.buf, want.buf, "... and says so");
	unlink(link.buf);
	strbuf_release(&from);
	strbuf_release(&to);
	strbuf_release(&link);
	strbuf_release(&err);
	strbuf_release(&text);
	strbuf_release(&want);
}

int main(void)
{
	char dir[] = "t0120.XXXXXX";
	struct strbuf cmd = STRBUF_INIT;

	if (!mkdtemp(dir))
		return ok(0, "a scratch directory"), done_testing();
	test_mkdir_p(dir);
	test_copy_file(dir);
	strbuf_addf(&cmd, "rm -rf '%s'", dir);
	if (system(cmd.buf))
		diag("cannot remove %s", dir);
	strbuf_release(&cmd);
	return done_testing();
}
