/* tap: a tiny Test Anything Protocol emitter for the C unit tests. */
#ifndef KBENCH_TAP_H
#define KBENCH_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_count, tap_failed;

static inline void plan(int n) { printf("1..%d\n", n); }
static inline void plan_done(void) { printf("1..%d\n", tap_count); }

static inline __attribute__((format(printf, 2, 3))) int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
	return cond;
}

static inline __attribute__((format(printf, 1, 2))) void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static inline void skip(const char *why) { printf("ok %d # SKIP %s\n", ++tap_count, why); }
static inline int exit_status(void) { return tap_failed ? 1 : 0; }

#endif
