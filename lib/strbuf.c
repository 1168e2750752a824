/* strbuf: a growable NUL-terminated string. */
#include "config.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char strbuf_empty[1];

void strbuf_init(struct strbuf *sb)
{
	sb->buf = (char *)strbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb);
}

char *strbuf_detach(struct strbuf *sb)
{
	char *s = sb->alloc ? sb->buf : xstrdup("");

	strbuf_init(sb);
	return s;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;
	char *p;

	if (want <= sb->alloc)
		return;
	if (want < sb->len)	/* wrapped: len + extra overflows */
		want = SIZE_MAX;
	if (want < 2 * sb->alloc)
		want = 2 * sb->alloc;
	if (want < 64)
		want = 64;
	p = xrealloc(sb->alloc ? sb->buf : NULL, want);
	if (!sb->alloc)
		p[0] = '\0';
	sb->buf = p;
	sb->alloc = want;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	assert(sb->len + len < sb->alloc);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n, m;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	strbuf_grow(sb, (size_t)n);
	/* Both passes format the same arguments: a second length that
	 * differs would leave len past what was written. */
	m = vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	assert(m == n);
	(void)m;
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

int strbuf_read_file(struct strbuf *sb, const char *path)
{
	char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n;
	int rc = 0;

	if (!f)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(sb, buf, n);
	if (ferror(f))
		rc = -EIO;
	fclose(f);
	return rc;
}

void strbuf_rtrim(struct strbuf *sb)
{
	while (sb->len && isspace((unsigned char)sb->buf[sb->len - 1]))
		sb->len--;
	if (sb->alloc)
		sb->buf[sb->len] = '\0';
}

static void newline_indent(struct strbuf *out, size_t indent, size_t *col)
{
	strbuf_addch(out, '\n');
	strbuf_addf(out, "%*s", (int)indent, "");
	*col = indent;
}

void strbuf_add_wrapped(struct strbuf *out, size_t col, size_t indent, size_t width,
			const char *text)
{
	int first = 1;

	if (width < indent + 16)
		width = indent + 16;	/* overflow rather than loop */
	for (const char *p = text; *p;) {
		size_t len;

		if (*p == ' ') {
			p++;
			continue;
		}
		len = strcspn(p, " ");
		if (!first) {
			if (col + 1 + len > width && col > indent) {
				newline_indent(out, indent, &col);
			} else {
				strbuf_addch(out, ' ');
				col++;
			}
		}
		/* A word longer than a line (a path) overflows it, whole: a
		 * word cut in two cannot be copied and pasted. */
		strbuf_add(out, p, len);
		col += len;
		p += len;
		first = 0;
	}
	while (out->len && out->buf[out->len - 1] == ' ')
		out->len--;
	out->buf[out->len] = '\0';
	strbuf_addch(out, '\n');
}
