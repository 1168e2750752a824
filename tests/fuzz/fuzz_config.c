/* fuzz_config: libFuzzer target for the config parser and validation: the
 * input is parsed as a config file and, when it parses, planned as
 * `kbench run --dry-run` would. Nothing runs and nothing is stored. */
#include "config.h"
#include "runner/conf.h"
#include "runner/plan.h"
#include "lib/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Validation as the run command does it; the one call to repoint when
 * plan building moves. */
static int build_plan(struct config *c)
{
	struct plan p;

	if (plan_build(c, NULL, &p))
		return -1;
	plan_release(&p);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* Pin plans are computed on this synthetic machine instead of
	 * loading the real one for every input (milliseconds each); two of
	 * everything, so that every pin policy can be honoured. */
	setenv("HWLOC_SYNTHETIC", "pack:2 numa:2 l3:2 core:2 pu:2", 0);
	/* Every rejected input prints its error: quiet unless asked. */
	if (!getenv("KBENCH_FUZZ_VERBOSE")) {
		FILE *null = fopen("/dev/null", "w");

		if (null)
			stderr = null;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config c;
	char *text;

	/* config_load refuses a file holding a NUL before parsing. */
	if (memchr(data, '\0', size))
		return 0;
	text = xstrndup((const char *)data, size);
	config_init(&c);
	if (!config_load_string(&c, "fuzz.conf", text))
		build_plan(&c);
	config_release(&c);
	free(text);
	return 0;
}
