/* clock: nanosecond clocks, the one way kbench reads time. */
#ifndef KBENCH_CLOCK_H
#define KBENCH_CLOCK_H

#include <stdint.h>
#include <time.h>

#define NSEC_PER_SEC 1000000000LL

/* clk read as nanoseconds since its epoch. */
int64_t clock_ns(clockid_t clk);
/* A timespec or timeval difference in seconds. */
double timespec_diff_s(const struct timespec *end, const struct timespec *start);

#endif
