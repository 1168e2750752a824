/* bench_pft: mmtests' pft directory, read as kbench's pft workload
 * stores its samples, its section named by the config's
 * PFT_USE_PROCESSES; and its samples written back in pft's columns. */
#include "config.h"
#include "mmtests/mmtests_bench.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/io.h"
#include "lib/regex.h"

#include <string.h>
#include <unistd.h>

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

/* pft: one line per sample of each worker count, in pft's columns. */
static int export_pft(const char *root, struct ex_run *r, const char *section, const char *bench)
{
	static const char *const cols[] = { "system-", "elapsed-", "faults/cpu-", "faults/sec-" };
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; !rc && i < r->n; i++) {
		const struct ex_sample *s = &r->v[i];
		long long n = mmtests_row_number(s->row, "system-");
		double v[4] = { 0, 0, 0, 0 };

		if (strcmp(s->section, section) || !n)
			continue;
		/* the sample's other rows: the same iteration, the same count */
		for (size_t j = 0; j < r->n; j++)
			for (size_t c = 0; c < 4; c++)
				if (!strcmp(r->v[j].section, section) &&
				    r->v[j].iteration == s->iteration &&
				    mmtests_row_number(r->v[j].row, cols[c]) == n)
					v[c] = r->v[j].value;
		/* logs/pft-N.log, as mmtests wrote it last (before 2026, when
		 * pft left it); older mmtests read logs/base/pft-N.log */
		mmtests_logs_dir(&path, root, r, 0, bench);
		strbuf_addf(&path, "/pft-%lld.log", n);
		strbuf_reset(&text);
		if (access(path.buf, F_OK))
			strbuf_addstr(&text, "MappingSize  Threads CacheLine   UserTime  SysTime "
				      "WallTime flt/cpu/s fault/wsec\n");
		strbuf_addf(&text, "  0 %4lld   0 ", n);
		mmtests_add_exact(s->user_s, &text);
		for (size_t c = 0; c < 4; c++) {
			strbuf_addstr(&text, c < 2 ? "s " : c == 2 ? "s  " : " ");
			mmtests_add_exact(v[c], &text);
		}
		strbuf_addch(&text, '\n');
		rc = mmtests_append(path.buf, &text);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

static int exports_pft(const struct ex_sample *s)
{
	return !strcmp(s->workload, "pft");
}

/* pft's directory is pft when the run has one section of pft, else the
 * section's name; pft-processes and pft-threads say so in the config, as
 * mmtests' PFT_USE_PROCESSES. */
static int export_pft_section(const char *root, struct ex_run *r, const char *section,
			      const char **bench)
{
	struct strbuf done = STRBUF_INIT;
	int npft = 0;

	strbuf_addch(&done, '\n');
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].workload, "pft") && !strstr(done.buf, r->v[i].section)) {
			npft++;
			strbuf_addf(&done, "%s\n", r->v[i].section);
		}
	strbuf_release(&done);
	*bench = npft == 1 ? "pft" : section;
	if (!strcmp(section, "pft-processes") || !strcmp(section, "pft-threads"))
		strbuf_addf(&r->config, "export PFT_USE_PROCESSES=%s\n",
			    section[4] == 'p' ? "yes" : "no");
	return export_pft(root, r, section, *bench);
}

const struct mmtests_bench mmtests_pft = {
	.name = "pft",
	.import = import_pft,
	.exports = exports_pft,
	.export = export_pft_section,
};
