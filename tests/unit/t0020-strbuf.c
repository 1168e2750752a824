/* t0020-strbuf: lib/strbuf, the one text buffer: empty at init without
 * an allocation, NUL-terminated after every append, growing past its
 * allocation (a formatted text longer than the first guess included),
 * detached and released back to empty; whole files read, a missing one
 * an -errno; trailing blanks trimmed; and the wrapping the help texts
 * use: within the width, indented, a word longer than a line cut.
 * Covers: lib/strbuf.c */
#include "config.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void appends(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *s, big[3000];

	ok(sb.len == 0 && sb.alloc == 0 && !strcmp(sb.buf, ""), "STRBUF_INIT is empty, unallocated");
	strbuf_addstr(&sb, "ab");
	strbuf_addch(&sb, 'c');
	strbuf_add(&sb, "def", 2);
	ok(sb.len == 5 && !strcmp(sb.buf, "abcde") && sb.alloc > sb.len,
	   "add, addstr, addch: '%s' (len %zu)", sb.buf, sb.len);
	strbuf_addf(&sb, "-%d-%s", 42, "x");
	ok_text(sb.buf, "abcde-42-x", "addf appends formatted text");
	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	strbuf_addf(&sb, "%s!", big);
	ok(sb.len == 10 + sizeof(big) && sb.buf[sb.len - 1] == '!' && sb.buf[sb.len] == '\0' &&
	   sb.alloc > sb.len, "addf past the allocation: %zu bytes, NUL-terminated", sb.len);
	strbuf_reset(&sb);
	ok(sb.len == 0 && !strcmp(sb.buf, ""), "reset empties it");
	strbuf_addstr(&sb, "kept");
	s = strbuf_detach(&sb);
	ok(!strcmp(s, "kept") && sb.len == 0 && !strcmp(sb.buf, ""),
	   "detach hands over the text and leaves it empty");
	free(s);
	s = strbuf_detach(&sb);
	ok(s && !strcmp(s, ""), "detach of an empty buffer gives a string to free");
	free(s);
	strbuf_addstr(&sb, "x  \t\n\n");
	strbuf_rtrim(&sb);
	ok(sb.len == 1 && !strcmp(sb.buf, "x"), "rtrim drops trailing blanks: '%s'", sb.buf);
	strbuf_release(&sb);
	ok(sb.len == 0 && sb.alloc == 0 && !strcmp(sb.buf, ""), "release leaves it empty, usable");
	strbuf_addstr(&sb, "again");
	ok(!strcmp(sb.buf, "again"), "and it takes text again");
	strbuf_release(&sb);
}

static void files(void)
{
	char path[] = "t0020.XXXXXX";
	struct strbuf sb = STRBUF_INIT;
	int fd = mkstemp(path), rc;

	ok(fd >= 0 && write(fd, "line 1\nline 2\n", 14) == 14, "a file of two lines");
	close(fd);
	strbuf_addstr(&sb, "before:");
	rc = strbuf_read_file(&sb, path);
	ok(rc == 0 && !strcmp(sb.buf, "before:line 1\nline 2\n"),
	   "read_file appends the whole file (rc %d)", rc);
	unlink(path);
	strbuf_reset(&sb);
	rc = strbuf_read_file(&sb, path);
	ok(rc == -ENOENT && sb.len == 0, "a missing file: -ENOENT (rc %d), nothing added", rc);
	strbuf_release(&sb);
}

static void wrapping(void)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "  -x  ");
	strbuf_add_wrapped(&sb, 6, 6, 22, "one two three four five six");
	ok_text(sb.buf, "  -x  one two three\n      four five six\n",
		"wrapped within 22 columns, indented by 6");
	strbuf_reset(&sb);
	strbuf_add_wrapped(&sb, 0, 2, 18, "abc abcdefghijklmnopqrstuvwxyz0123456789 b");
	ok_text(sb.buf, "abc\n  abcdefghijklmnopqrstuvwxyz0123456789\n  b\n",
		"a word longer than a line goes whole on a line of its own");
	strbuf_reset(&sb);
	strbuf_add_wrapped(&sb, 0, 2, 5, "abc def");
	ok_text(sb.buf, "abc def\n", "a width below indent + 16 is taken as that");
	strbuf_release(&sb);
}

int main(void)
{
	appends();
	files();
	wrapping();
	return done_testing();
}
