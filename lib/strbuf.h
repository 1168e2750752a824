/* strbuf: a growable NUL-terminated string, the one text buffer of kbench. */
#ifndef KBENCH_STRBUF_H
#define KBENCH_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;	/* always NUL-terminated, never NULL after init */
	size_t len;	/* bytes used, excluding the NUL */
	size_t alloc;	/* bytes allocated; 0 while buf points at the static "" */
};

#define STRBUF_INIT { .buf = (char *)strbuf_empty, .len = 0, .alloc = 0 }
extern const char strbuf_empty[];

void strbuf_init(struct strbuf *sb);
/* Free the buffer and leave sb empty but usable. */
void strbuf_release(struct strbuf *sb);
/* Hand the buffer to the caller (who frees it) and reset sb. */
char *strbuf_detach(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Read the whole file at path; return 0, or -errno. */
int strbuf_read_file(struct strbuf *sb, const char *path);
/* Drop trailing whitespace. */
void strbuf_rtrim(struct strbuf *sb);
/* Append text's words to sb, whose last line is col columns wide, wrapped
 * before width columns into lines indented by indent; a word longer than a
 * line (a path) goes on a line of its own, whole, past width: it is never
 * cut. Ends the line, without trailing blanks. */
void strbuf_add_wrapped(struct strbuf *sb, size_t col, size_t indent, size_t width,
			const char *text);

#endif
