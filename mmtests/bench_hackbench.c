/* bench_hackbench: mmtests' hackbench-* directories (perf bench sched
 * messaging, or the older hackbench.c), read as kbench's hackbench
 * workload stores its samples, and its samples written back as perf
 * bench prints them. */
#include "config.h"
#include "mmtests/mmtests_bench.h"
#include "lib/error.h"
#include "lib/strbuf.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* A hackbench log of run r in the one form the mmtests that wrote it
 * reads (docs/mmtests.md): perf bench's "Total time:" lines, as every
 * mmtests since May 2019 reads them, when the run is of such an mmtests
 * (it records its version, as mmtests has since November 2019, or the
 * log is the appended hackbench-G of mmtests since April 2026) or when
 * the log holds such a line (perf bench wrote it); else the "Time:"
 * lines of the hackbench.c older mmtests ran and read. Lines of the
 * other form are left unread, with a warning. */
static int parse_hackbench(struct mm_ctx *c, const struct mm_run *r, const char *path,
			   int appended)
{
	int rc = mmtests_parse_file(c, path, MMTESTS_LOG_HACKBENCH);

	/* No "Total time:" line: the other form has nothing to leave out. */
	if (!rc && !c->vals.n && c->vals.other && !r->mmtests_version && !appended)
		return mmtests_parse_file(c, path, MMTESTS_LOG_HACKBENCH_TIME);
	if (!rc && c->vals.other)
		warning("%s: %zu 'Time:' line%s not read: the mmtests that wrote it reads the "
			"'Total time:' lines of this log (docs/mmtests.md)", path, c->vals.other,
			c->vals.other == 1 ? "" : "s");
	return rc;
}

/* hackbench: logs/hackbench-G (every invocation appended) or
 * hackbench-G-I (one file per invocation), as perf bench or the older
 * hackbench.c print it: one sample per time line of the log's form, row
 * G, as kbench's hackbench stores it. */
static int import_hackbench(struct mm_ctx *c, struct mm_run *r, const char *bench,
			    const char *logs)
{
	static const struct mm_metric m = { "", "s", 0 };
	static const char *const suffixes[] = { "", "*-", ".gz", ".xz", NULL };
	char section[64];
	struct mm_names files;
	struct strbuf path = STRBUF_INIT, label = STRBUF_INIT;
	int rc;

	/* The oldest names ran processes: hackbench-pipes, hackbench-sockets. */
	if (!strcmp(bench, "hackbench-pipes") || !strcmp(bench, "hackbench-sockets"))
		snprintf(section, sizeof(section), "hackbench-process-%s", bench + 10);
	else
		snprintf(section, sizeof(section), "%s", bench);
	rc = mmtests_list_dir(logs, &files);
	for (size_t i = 0; !rc && i < files.n; i++) {
		const char *rest = NULL;
		long long g = mmtests_name_number(files.v[i], "hackbench-", suffixes, &rest);

		if (!g)
			continue;
		if (rest && *rest && (!isdigit((unsigned char)*rest) ||
				      strspn(rest, "0123456789") != strlen(rest)))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", logs, files.v[i]);
		strbuf_reset(&label);
		strbuf_addf(&label, "%lld", g);
		rc = parse_hackbench(c, r, path.buf, !rest || !*rest);
		for (size_t k = 0; !rc && k < c->vals.n; k++)
			rc = mmtests_add_set(r, path.buf, section, "hackbench", label.buf, &m, c->vals.v + k, 1);
	}
	if (!rc)
		rc = mmtests_note_bench(r, logs, section, bench);
	mmtests_names_release(&files);
	strbuf_release(&path);
	strbuf_release(&label);
	return rc < 0 ? -1 : 0;
}

static int exports_hackbench(const struct ex_sample *s)
{
	return !strcmp(s->workload, "hackbench");
}

/* hackbench: every sample of G groups appended to hackbench-G, in the
 * benchmark directory of the section's name. */
static int export_hackbench(const char *root, struct ex_run *r, const char *section,
			    const char **bench)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int rc = 0;

	*bench = section;
	for (size_t i = 0; !rc && i < r->n; i++) {
		long long g = mmtests_row_number(r->v[i].row, "");

		if (strcmp(r->v[i].section, section) || !g)
			continue;
		/* every invocation appended to hackbench-G, as mmtests now
		 * writes it (its parse-results reads only that) */
		mmtests_logs_dir(&path, root, r, 0, section);
		strbuf_addf(&path, "/hackbench-%lld", g);
		strbuf_reset(&text);
		strbuf_addf(&text, "# Running 'sched/messaging' benchmark:\n"
			    "# %lld groups == %lld processes run\n\n     Total time: ",
			    g, 40 * g);
		mmtests_add_exact(r->v[i].value, &text);
		strbuf_addstr(&text, " [sec]\n");
		rc = mmtests_append(path.buf, &text);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

const struct mmtests_bench mmtests_hackbench = {
	.name = "hackbench-*",
	.import = import_hackbench,
	.exports = exports_hackbench,
	.export = export_hackbench,
};
