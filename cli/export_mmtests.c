/* export_mmtests: kbench export --mmtests DIR RUN...: the runs written as
 * mmtests lays out its results (mmtests/mmtests_export.c), saying which
 * sections no mmtests benchmark reads. */
#include "config.h"
#include "cli/cmd.h"
#include "mmtests/mmtests.h"
#include "lib/name.h"

#include <stdio.h>

static int list_skipped(const char *run, const char *section, const char *why, void *arg)
{
	(void)arg;
	printf("  skip  %s: section %s: %s\n", name_printable(run), name_printable(section), why);
	return 0;
}

int cmd_export_mmtests(struct store *s, const int64_t *run_ids, size_t n, const char *dir)
{
	if (mmtests_export(s, run_ids, n, dir, list_skipped, NULL))
		return 1;
	printf("exported %zu run%s to %s in mmtests' layout\n", n, n == 1 ? "" : "s", dir);
	return fflush(stdout) ? 1 : 0;
}
