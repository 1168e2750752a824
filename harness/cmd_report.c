/* cmd_report: what kbench run prints when a run ends. */
#include "config.h"
#include "cmd.h"
#include "error.h"
#include "../db/store.h"

#include <stdio.h>

int cmd_report_run(struct store *s, int64_t run_id)
{
	struct run_info r;

	if (store_get_run(s, run_id, &r))
		return -1;
	printf("run #%lld '%s': %lld samples stored (%lld failed) in %s\n", (long long)r.id,
	       r.name, (long long)r.nsamples, (long long)r.nfailures, store_path(s));
	run_info_release(&r);
	return 0;
}
