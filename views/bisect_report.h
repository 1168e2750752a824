/* bisect_report: what kbench bisect prints of a stored bisection: its log
 * as git bisect log writes one (git bisect replay takes it: kbench's own
 * lines are comments), and the report of its end, ready to mail. kbench
 * bisect --log and --report print them, kbench mail --bisect sends the
 * report. */
#ifndef KBENCH_BISECT_REPORT_H
#define KBENCH_BISECT_REPORT_H

#include <stdint.h>

struct store;
struct strbuf;

/* The log of bisection id, appended to out. Return 0, or -1 after
 * saying why. */
int bisect_log_text(struct store *s, int64_t id, struct strbuf *out);

/* The report of bisection id, appended to out, and a subject line for
 * its mail into subject (may be NULL): the first bad commit (id, author,
 * subject), the row's change against its parent with the test that
 * decided it, the comparison table of the two, where and how the kernels
 * ran (KVM or TCG), the log and the commands that reproduce it. A
 * bisection that did not name a commit says why. Return 0, or -1 after
 * saying why. */
int bisect_report_text(struct store *s, int64_t id, struct strbuf *out, struct strbuf *subject);

#endif
