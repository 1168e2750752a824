/* bench_pft: mmtests' pft directory, read as kbench's pft workload
 * stores its samples, its section named by the config's
 * PFT_USE_PROCESSES. */
#include "config.h"
#include "mmtests/mmtests_bench.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/io.h"
#include "lib/regex.h"

#include <string.h>

/* pft: logs/base/pft-N.log (mmtests' PFT_PAGESIZES=base; logs/pft-N.log
 * read too), one line per invocation; rows system-N, elapsed-N,
 * faults/cpu-N and faults/sec-N as kbench's pft stores them. The section
 * is pft-processes or pft-threads as the config's PFT_USE_PROCESSES says,
 * pft without one. */
static int import_pft(struct mm_ctx *c, struct mm_run *r, const char *bench, const char *logs)
{
	static const struct mm_metric m[] = {
		{ "system", "s", 0 }, { "elapsed", "s", 0 },
		{ "faults/cpu", "faults/cpu-s", 1 }, { "faults/sec", "faults/s", 1 },
	};
	static const char *const suffixes[] = { ".log", ".log.gz", ".log.xz", NULL };
	const char *section = "pft";
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, label = STRBUF_INIT;
	struct mm_names files = { 0 };
	int rc = 0;

	if (r->config_text) {
		struct kb_regex *re = kb_regex_compile(
			"^\\s*(?:export\\s+)?PFT_USE_PROCESSES=[\"']?(\\w*)", KB_REGEX_MULTILINE, &label);
		struct kb_regex_span sp;
		size_t pos = 0;
		int found = re ? kb_regex_find(re, r->config_text, strlen(r->config_text), &pos, 1,
					       &sp, &label) : -1;

		kb_regex_free(re);
		if (found < 0)
			return error("pft: PFT_USE_PROCESSES: %s", label.buf);
		if (found)
			section = !strncmp(r->config_text + sp.gstart, "yes", 3) ? "pft-processes"
										    : "pft-threads";
		strbuf_reset(&label);
	}
	strbuf_addf(&dir, "%s/base", logs);
	if (!path_is_dir(dir.buf)) {
		strbuf_reset(&dir);
		strbuf_addstr(&dir, logs);
	}
	rc = mmtests_list_dir(dir.buf, &files);
	for (size_t i = 0; !rc && i < files.n; i++) {
		long long n = mmtests_name_number(files.v[i], "pft-", suffixes, NULL);

		if (!n)
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir.buf, files.v[i]);
		strbuf_reset(&label);
		strbuf_addf(&label, "%lld", n);
		rc = mmtests_parse_file(c, path.buf, MMTESTS_LOG_PFT);
		/* per line: user, system, elapsed, faults/cpu, faults/sec */
		for (size_t k = 0; !rc && k < c->vals.n; k += c->vals.per)
			rc = mmtests_add_set(r, path.buf, section, "pft", label.buf, m, c->vals.v + k + 1, 4);
	}
	if (!rc)
		rc = mmtests_note_bench(r, logs, section, bench);
	mmtests_names_release(&files);
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&label);
	return rc < 0 ? -1 : 0;
}

const struct mmtests_bench mmtests_pft = {
	.name = "pft",
	.import = import_pft,
};
