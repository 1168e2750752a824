/* error: how kbench reports problems on stderr. */
#include "config.h"
#include "lib/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int kb_quiet;

static void report(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "kbench: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning: ", fmt, ap);
	va_end(ap);
}

void notice(const char *fmt, ...)
{
	va_list ap;

	if (kb_quiet)
		return;
	va_start(ap, fmt);
	report("notice: ", fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("fatal: ", fmt, ap);
	va_end(ap);
	exit(128);
}
