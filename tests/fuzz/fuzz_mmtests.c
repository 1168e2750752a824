/* fuzz_mmtests: libFuzzer target for the readers of mmtests' benchmark
 * logs (kbench import --mmtests). The input's first line names the log
 * (hackbench, netperf, udp-stream, pft, tbench, sysbench-cpu,
 * hackbench-time; anything else picks one by its bytes), the rest is the log. What is read must be
 * whole records of finite, non-negative figures; a refusal must name the
 * file and line. */
#include "config.h"
#include "mmtests/mmtests.h"
#include "lib/strbuf.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const kinds[MMTESTS_NLOGS] = {
	[MMTESTS_LOG_HACKBENCH] = "hackbench",
	[MMTESTS_LOG_NETPERF] = "netperf",
	[MMTESTS_LOG_UDP_STREAM] = "udp-stream",
	[MMTESTS_LOG_PFT] = "pft",
	[MMTESTS_LOG_TBENCH] = "tbench",
	[MMTESTS_LOG_SYSBENCH_CPU] = "sysbench-cpu",
	[MMTESTS_LOG_HACKBENCH_TIME] = "hackbench-time",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct mmtests_parser *parser;
	const char *text = (const char *)data, *nl = memchr(text, '\n', size);
	size_t first = nl ? (size_t)(nl - text) : size, skip = nl ? first + 1 : size;
	struct mmtests_values vals = { 0 };
	struct strbuf err = STRBUF_INIT;
	unsigned sum = 0;
	int kind = -1;

	if (!parser && !(parser = mmtests_parser_new()))
		abort();
	for (int k = 0; k < MMTESTS_NLOGS; k++)
		if (strlen(kinds[k]) == first && !memcmp(text, kinds[k], first))
			kind = k;
	if (kind < 0) {
		for (size_t i = 0; i < first; i++)
			sum += data[i];
		kind = (int)(sum % MMTESTS_NLOGS);
	}
	if (!mmtests_parse_log(parser, kind, "log", text + skip, size - skip, &vals, &err)) {
		if (!vals.per || vals.n % vals.per)
			abort();	/* a record cut short */
		if (kind == MMTESTS_LOG_TBENCH && vals.n > 1)
			abort();	/* one Throughput line counts, the last */
		for (size_t i = 0; i < vals.n; i++)
			if (!isfinite(vals.v[i]) || vals.v[i] < 0)
				abort();
	} else if (strncmp(err.buf, "log:", 4) || !strstr(err.buf, ": expected ")) {
		abort();	/* a refusal names the file and line, and what it wanted */
	}
	mmtests_values_release(&vals);
	strbuf_release(&err);
	return 0;
}
