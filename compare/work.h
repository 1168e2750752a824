/* work: whether two runs measured different work. The one decision that
 * kbench compare's Warning lines, the series of kbench history and
 * regressions and the run kbench run's report compares with share: runs
 * asked to do different work (another config text, other effective
 * options) whose stored effective values show it, and runs that measured
 * on different kinds (natively, in a guest under KVM or TCG, with
 * another vCPU count or memory). */
#ifndef KBENCH_WORK_H
#define KBENCH_WORK_H

#include "db/series.h"

struct strbuf;

/* Why two runs measured different work (bits of run_work_differs). */
#define WORK_OPTIONS 1u		/* their options differ */
#define WORK_CONFIG 2u		/* their config texts differ */
#define WORK_KIND 4u		/* they measured on different kinds */

/* Whether kinds a and b (store_run_kind's; NULL reads as "", native)
 * differ: another place, accelerator, icount, vCPU count or memory. */
int run_kinds_differ(const char *a, const char *b);

/* Kind (store_run_kind's) as people read it, appended to out: "native",
 * "guest (TCG, 2 vCPUs, 512 MiB)", "guest (TCG icount shift 3, 1 vCPU,
 * 512 MiB)", "guest (KVM, 4 vCPUs, 2048 MiB)". */
void run_kind_describe(const char *kind, struct strbuf *out);

/* Whether runs a and b measured different work in section (NULL: in any
 * section): 0 when not, else why, WORK_KIND when they measured on
 * different kinds (whatever they were asked), WORK_OPTIONS and
 * WORK_CONFIG as their options and config texts differ. They did when they were asked for
 * different work (options or config text) and a SECTION.KEY of the
 * section that both stored has a different value in each: an option
 * set to the value the config gave anyway, a comment edited or a key
 * only one run stored (one kbench added since) changes nothing. When
 * one of them stored no value of the section, their options alone
 * decide. */
unsigned run_work_differs(const struct run_work *a, const struct run_work *b,
			  const char *section);

#endif
