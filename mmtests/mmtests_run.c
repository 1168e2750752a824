/* mmtests_run: a run of an mmtests results directory as it is read: the
 * samples each benchmark adds (numbered per section and row), the
 * sections it read, the benchmarks left out and why; and what reads the
 * logs of a benchmark directory into them. */
#include "config.h"
#include "mmtests/mmtests_bench.h"
#include "lib/error.h"
#include "lib/name.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void mmtests_skip(struct mm_run *r, const char *bench, const char *why)
{
	for (size_t i = 0; i < r->nskips; i++)
		if (!strcmp(r->skips[i].bench, bench))
			return;
	r->skips = xrealloc(r->skips, (r->nskips + 1) * sizeof(*r->skips));
	r->skips[r->nskips].bench = xstrdup(bench);
	r->skips[r->nskips++].why = xstrdup(why);
}

/* name checked as a section or row name; -1 after printing why. */
static int check_label(const char *file, const char *what, const char *name)
{
	const char *why = name_invalid(NAME_LABEL, name, strlen(name), NULL);

	return why ? error("%s: invalid %s name '%s': %s", file, what, name_printable(name), why)
		   : 0;
}

/* Add one sample of section (workload) for row label with the n values
 * v, one for each of metrics m; file names it for messages. */
int mmtests_add_set(struct mm_run *r, const char *file, const char *section, const char *workload,
		   const char *label, const struct mm_metric *m, const double *v, size_t n)
{
	struct mm_set *s;
	struct strbuf row = STRBUF_INIT, key = STRBUF_INIT;
	size_t i;

	if (check_label(file, "section", section))
		return -1;
	if (r->nsets == r->asets) {
		r->asets = r->asets ? 2 * r->asets : 64;
		r->sets = xrealloc(r->sets, r->asets * sizeof(*r->sets));
	}
	s = &r->sets[r->nsets];
	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		strbuf_reset(&row);
		strbuf_addf(&row, "%s%s%s", m[i].prefix, *m[i].prefix ? "-" : "", label);
		if (check_label(file, "row", row.buf)) {
			for (size_t j = 0; j < i; j++)
				free((char *)s->r[j].row);
			strbuf_release(&row);
			strbuf_release(&key);
			return -1;
		}
		s->r[i] = (struct sample_record){ .row = strbuf_detach(&row), .value = v[i],
						  .unit = m[i].unit, .higher_better = m[i].higher };
	}
	s->n = n;
	s->section = xstrdup(section);
	s->workload = workload;
	strbuf_addf(&key, "%s\t%s", section, s->r[0].row);
	for (i = 0; i < r->ncounts && strcmp(r->counts[i].key, key.buf); i++)
		;
	if (i == r->ncounts) {
		r->counts = xrealloc(r->counts, (r->ncounts + 1) * sizeof(*r->counts));
		r->counts[r->ncounts++] = (struct mm_count){ .key = strbuf_detach(&key) };
	}
	s->iteration = ++r->counts[i].n;
	r->nsets++;
	strbuf_release(&row);
	strbuf_release(&key);
	return 0;
}

/* Remember that section was read from benchmark (run_meta), once: a
 * section that got no sample too. logs names the benchmark's directory
 * for messages. Return 0, or -1 after printing why section cannot be a
 * section's name. */
int mmtests_note_bench(struct mm_run *r, const char *logs, const char *section,
		      const char *bench)
{
	struct strbuf line = STRBUF_INIT;

	if (check_label(logs, "section", section))
		return -1;
	strbuf_addf(&line, "\n%s\t%s\n", section, bench);
	if (!r->benches.len)
		strbuf_addch(&r->benches, '\n');
	if (!strstr(r->benches.buf, line.buf))
		strbuf_addstr(&r->benches, line.buf + 1);
	strbuf_release(&line);
	return 0;
}

/* Parse the log at path as kind into c->vals; 1 when there is no such
 * file, 0, or -1 after printing why. */
int mmtests_parse_file(struct mm_ctx *c, const char *path, enum mmtests_log kind)
{
	int rc = mmtests_read_file(path, &c->text);

	if (rc)
		return rc;
	strbuf_reset(&c->err);
	if (mmtests_parse_log(c->parser, kind, path, c->text.buf, c->text.len, &c->vals, &c->err))
		return error("%s", c->err.buf);
	return 0;
}

/* The number after prefix in name and before one of the suffixes given
 * (NULL-terminated; "" for none): hackbench-4 gives 4. 0 when it is not. */
long long mmtests_name_number(const char *name, const char *prefix, const char *const *suffixes,
			     const char **rest)
{
	size_t n = strlen(prefix);
	char *end;
	long long v;

	if (strncmp(name, prefix, n) || !isdigit((unsigned char)name[n]))
		return 0;
	errno = 0;
	v = strtoll(name + n, &end, 10);
	if (errno || v <= 0)
		return 0;
	for (; *suffixes; suffixes++)
		if (!strcmp(end, *suffixes) ||
		    (**suffixes == '*' && !strncmp(end, *suffixes + 1, strlen(*suffixes + 1)))) {
			if (rest)
				*rest = end + strlen(*suffixes + (**suffixes == '*'));
			return v;
		}
	return 0;
}

/* Read every file of logs named PREFIX<N><SUFFIX>, whose <N> is the row
 * label, as kind, each figure one sample of section with metric m. */
int mmtests_import_numbered(struct mm_ctx *c, struct mm_run *r, const char *logs,
			   const char *section, const char *workload, const char *prefix,
			   const char *const *suffixes, enum mmtests_log kind,
			   const char *label_prefix, const struct mm_metric *m)
{
	struct mm_names files;
	struct strbuf path = STRBUF_INIT, label = STRBUF_INIT;
	int rc = mmtests_list_dir(logs, &files);

	for (size_t i = 0; !rc && i < files.n; i++) {
		long long n = mmtests_name_number(files.v[i], prefix, suffixes, NULL);

		if (!n)
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", logs, files.v[i]);
		strbuf_reset(&label);
		strbuf_addf(&label, "%s%lld", label_prefix, n);
		rc = mmtests_parse_file(c, path.buf, kind);
		for (size_t k = 0; !rc && k < c->vals.n; k += c->vals.per)
			rc = mmtests_add_set(r, path.buf, section, workload, label.buf, m, c->vals.v + k, 1);
	}
	mmtests_names_release(&files);
	strbuf_release(&path);
	strbuf_release(&label);
	return rc < 0 ? -1 : 0;
}
