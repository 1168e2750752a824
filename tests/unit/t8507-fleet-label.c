/* t8507-fleet-label: the name a fleet job or daily chain is known by
 * (kbench fleet submit, schedule and unschedule): its -n, else its
 * watch's or configs' file names, with what Slurm and a shell would not
 * take replaced.
 * Covers: fleet/schedule.c */
#include "config.h"
#include "fleet/fleet.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <string.h>

static void label(const char *name, const char *watch, const char *const *configs,
		  size_t n, const char *before, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, before);
	fleet_job_label(name, watch, configs, n, &sb);
	if (!ok(!strcmp(sb.buf, want), "label '%s'", want))
		diag("got '%s'", sb.buf);
	strbuf_release(&sb);
}

int main(void)
{
	const char *const one[] = { "configs/quick.conf" };
	const char *const two[] = { "a.conf", "/etc/kbench/b.ini" };
	const char *const odd[] = { "my run (2).conf" };
	const char *const bare[] = { ".conf" };

	label("nightly", NULL, one, 1, "", "nightly");
	label("a b/c", NULL, NULL, 0, "", "a_b_c");
	label(NULL, NULL, one, 1, "", "quick");
	label(NULL, NULL, two, 2, "", "a+b.ini");
	label(NULL, NULL, odd, 1, "", "my_run__2_");
	label(NULL, NULL, bare, 1, "", ".conf");
	label(NULL, "/etc/kbench/watch.conf", NULL, 0, "", "watch-watch");
	label(NULL, "w", NULL, 0, "", "watch-w");
	label("x", "w.conf", NULL, 0, "", "x");
	/* After a prefix, as unschedule builds the chain's job name. */
	label("night ly", NULL, NULL, 0, FLEET_DAILY_PREFIX, "kbench-daily-night_ly");
	return done_testing();
}
