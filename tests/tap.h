/* tap: a minimal TAP emitter for C unit tests (plan, ok, ok_text, skip,
 * diag). With KBENCH_TEST_STOP=1 in the environment a test stops at its
 * first failure: after the diagnostics that follow the failing ok, the
 * next ok, skip or done_testing prints "Bail out!" and exits. */
#ifndef KBENCH_TAP_H
#define KBENCH_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_failed, tap_stopping;

static inline void plan(int n)
{
	printf("1..%d\n", n);
}

/* After a failure, with KBENCH_TEST_STOP set, end the test. */
static inline void tap_stop(void)
{
	if (!tap_stopping)
		return;
	puts("Bail out! stopped at the first failure (KBENCH_TEST_STOP)");
	fflush(stdout);
	exit(1);
}

static inline int vok(int cond, const char *fmt, va_list ap)
{
	const char *stop = getenv("KBENCH_TEST_STOP");

	tap_stop();
	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	vprintf(fmt, ap);
	putchar('\n');
	if (!cond) {
		tap_failed++;
		tap_stopping = stop && *stop && strcmp(stop, "0");
	}
	fflush(stdout);
	return cond;
}

static inline int ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cond = vok(cond, fmt, ap);
	va_end(ap);
	return cond;
}

/* The line of text that starts at s, as a TAP comment marked with mark. */
static inline void tap_line(char mark, const char *s)
{
	const char *end = strchr(s, '\n');

	if (!end) {
		printf("#   %c%s\n#   \\ no newline at the end\n", mark, s);
		return;
	}
	printf("#   %c%.*s\n", mark, (int)(end - s), s);
}

/* The line after the one s starts, or NULL at the end of the text. */
static inline const char *tap_next(const char *s)
{
	const char *end = strchr(s, '\n');

	return end && end[1] ? end + 1 : NULL;
}

/*
 * ok_text: pass when got and want are the same text. On a mismatch print
 * where they part: the line number, up to two equal lines before it, then
 * up to five lines of each from there, the expected marked '-' and what
 * was got marked '+', as a diff would.
 */
static inline int ok_text(const char *got, const char *want, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline int ok_text(const char *got, const char *want, const char *fmt, ...)
{
	const char *g = got, *w = want, *ctx[2] = { NULL, NULL };
	int good = !strcmp(got, want), line = 1;
	va_list ap;

	va_start(ap, fmt);
	vok(good, fmt, ap);
	va_end(ap);
	if (good)
		return good;
	/* the first line that differs */
	for (;;) {
		size_t gl = strcspn(g, "\n"), wl = strcspn(w, "\n");

		if (gl != wl || memcmp(g, w, gl) || g[gl] != w[wl] || !g[gl])
			break;
		ctx[0] = ctx[1];
		ctx[1] = g;
		g += gl + 1;
		w += wl + 1;
		line++;
	}
	printf("# texts differ at line %d (-want +got):\n", line);
	for (int i = 0; i < 2; i++)
		if (ctx[i])
			tap_line(' ', ctx[i]);
	if (!*w)
		puts("#   (want ends before this line)");
	for (int i = 0; i < 5 && w && *w; i++, w = tap_next(w))
		tap_line('-', w);
	if (!*g)
		puts("#   (got ends before this line)");
	for (int i = 0; i < 5 && g && *g; i++, g = tap_next(g))
		tap_line('+', g);
	fflush(stdout);
	return good;
}

static inline void skip(const char *why)
{
	tap_stop();
	printf("ok %d # SKIP %s\n", ++tap_n, why);
}

static inline void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static inline int done_testing(void)
{
	tap_stop();
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
