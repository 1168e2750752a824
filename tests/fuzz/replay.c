/* replay: runs a libFuzzer target's entry point over files, without
 * libFuzzer, so the ordinary build compiles every target and the suite
 * feeds each its seed corpus (under the sanitizers in CI). */
#include "config.h"
#include "lib/strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

int main(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		strbuf_reset(&sb);
		if (strbuf_read_file(&sb, argv[i])) {
			fprintf(stderr, "replay: cannot read '%s'\n", argv[i]);
			rc = 1;
			continue;
		}
		LLVMFuzzerTestOneInput((const uint8_t *)sb.buf, sb.len);
	}
	strbuf_release(&sb);
	return rc;
}
