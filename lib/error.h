/* error: how kbench reports problems (git's style: "kbench: <what>",
 * lowercase, no full stop, the subject quoted). */
#ifndef KBENCH_ERROR_H
#define KBENCH_ERROR_H

/* Print "kbench: <msg>" on stderr and return -1. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "kbench: warning: <msg>" on stderr. */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "kbench: notice: <msg>" on stderr unless quiet. */
void notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "kbench: fatal: <msg>" and exit(128). Only for main and cmd_*. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Set by --quiet: suppresses notices and progress, never errors. */
extern int kb_quiet;

#endif
