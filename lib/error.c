/* error: how kbench reports problems on stderr. */
#include "config.h"
#include "lib/error.h"
#include "lib/name.h"
#include "lib/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int kb_quiet;

/* The message in one write, its control characters escaped: a message
 * names files, runs and facts that came from elsewhere (a results
 * directory, a bundle), and none of their bytes may drive the terminal. */
static void report(const char *prefix, const char *fmt, va_list ap)
{
	struct strbuf msg = STRBUF_INIT, out = STRBUF_INIT;

	strbuf_vaddf(&msg, fmt, ap);
	strbuf_addf(&out, "kbench: %s", prefix);
	name_escape_text(&out, msg.buf, msg.len);
	strbuf_addch(&out, '\n');
	fwrite(out.buf, 1, out.len, stderr);
	strbuf_release(&msg);
	strbuf_release(&out);
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
