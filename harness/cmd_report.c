/* cmd_report: what kbench run prints when a run ends: its own table, then
 * the comparison with the previous complete run of the same config on
 * this machine when there is one. */
#include "config.h"
#include "harness/cmd.h"
#include "compare/compare.h"
#include "db/store.h"
#include "lib/strbuf.h"

#include <stdio.h>

int cmd_report_run(struct store *s, int64_t run_id)
{
	struct strbuf out = STRBUF_INIT;
	struct run_info r, p;
	int64_t ids[2];
	int found, rc = -1;

	if (store_get_run(s, run_id, &r))
		return -1;
	if (store_previous_run(s, run_id, &ids[0], &found))
		goto out;
	ids[1] = run_id;
	if (compare_runs_text(s, &run_id, 1, &out))
		goto out;
	printf("run #%lld '%s': %lld samples (%lld failed) in %s\n\n", (long long)r.id,
	       r.name, (long long)r.nsamples, (long long)r.nfailures, store_path(s));
	fputs(out.buf, stdout);
	if (found && !store_get_run(s, ids[0], &p)) {
		strbuf_reset(&out);
		printf("\nCompared with the previous run of config '%s' on this machine: "
		       "#%lld '%s' (%s)\n\n", r.config_name, (long long)p.id, p.name,
		       p.started_at);
		run_info_release(&p);
		if (compare_runs_text(s, ids, 2, &out))
			goto out;
		fputs(out.buf, stdout);
	}
	rc = 0;
out:
	strbuf_release(&out);
	run_info_release(&r);
	return rc;
}
