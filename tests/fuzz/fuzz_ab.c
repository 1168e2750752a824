/* fuzz_ab: libFuzzer target for the A/B experiment's config: the input is
 * read as a config with [experiment] and [arm:NAME] sections, whose keys
 * name knob files (sysctl., sysfs. globs), options, environment and
 * prefixes, as `kbench ab --dry-run` reads it. Knob files are only found
 * and read, never written. What it accepts is checked against what it
 * promises: two arms or more, bounded rounds, knobs that name a file. */
#include "config.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "experiment/experiment.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char scratch[] = "/tmp/kbench-fuzz-ab-XXXXXX";
static struct strbuf conf_file = STRBUF_INIT;

static void remove_scratch(void)
{
	unlink(conf_file.buf);
	rmdir(scratch);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!mkdtemp(scratch)) {
		perror("fuzz_ab: mkdtemp");
		exit(1);
	}
	strbuf_addf(&conf_file, "%s/ab.conf", scratch);
	atexit(remove_scratch);
	/* Plans on a synthetic machine, as fuzz_config makes them. */
	setenv("HWLOC_SYNTHETIC", "pack:2 numa:2 l3:2 core:2 pu:2", 0);
	if (!getenv("KBENCH_FUZZ_VERBOSE")) {
		FILE *null = fopen("/dev/null", "w");

		if (null)
			stderr = null;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *const configs[] = { conf_file.buf };
	const struct experiment_options o = { .configs = configs, .nconfigs = 1 };
	struct experiment e;
	int fd;

	if (memchr(data, '\0', size))
		return 0;
	fd = open(conf_file.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write_full(fd, data, size) || close(fd))
		abort();
	if (!experiment_load(&e, &o)) {
		if (e.narms < 2 || e.narms > EXPERIMENT_MAX_ARMS || e.rounds < 1 ||
		    e.rounds > EXPERIMENT_MAX_ROUNDS)
			abort();
		for (size_t i = 0; i < e.narms; i++)
			for (size_t k = 0; k < e.arms[i].nknobs; k++)
				if (e.arms[i].knobs[k].file >= e.files.n || !e.arms[i].knobs[k].value)
					abort();
	}
	experiment_release(&e);
	return 0;
}
