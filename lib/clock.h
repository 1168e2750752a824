/* clock: nanosecond clocks, the one way kbench reads time. */
#ifndef KBENCH_CLOCK_H
#define KBENCH_CLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define NSEC_PER_SEC 1000000000LL

/* clk read as nanoseconds since its epoch. */
int64_t clock_ns(clockid_t clk);
/* A timespec or timeval difference in seconds. */
double timespec_diff_s(const struct timespec *end, const struct timespec *start);

/* Room for "2026-12-03T10:29:00Z" and its NUL. */
#define CLOCK_ISO_LEN 21
/* t (seconds since the epoch) as ISO 8601 UTC, "2026-12-03T10:29:00Z",
 * the form every stored time has, into buf of at least CLOCK_ISO_LEN. */
void clock_iso_utc(char *buf, size_t len, time_t t);
/* A stored time, "2026-12-03T10:29:00Z", as seconds since the epoch; NaN
 * when iso does not start with such a time. */
double clock_parse_iso_utc(const char *iso);

#endif
