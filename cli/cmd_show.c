/* cmd_show: kbench show RUN: one run's machine, kernel, config, status,
 * sample counts per section, failures and flagged samples; --monitors and
 * --slab print what the monitors recorded; --format json all of it. */
#include "config.h"
#include "cli/cmd.h"
#include "cli/complete.h"
#include "views/experiment_view.h"
#include "views/output.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/name.h"
#include "lib/json.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The version of the --format json document. */
#define SHOW_FORMAT_VERSION 1

static const struct parse_opt_usage show_usage = {
	.synopsis = "kbench show [--config | --monitors | --slab] RUN\n"
		"   or: kbench show --format json RUN",
	.description =
		"Show one run: machine, kernel, status, per-section sample counts, the\n"
		"warm-up samples stored (in no statistic) and what they took, the\n"
		"effective options of each section, failures and flagged samples.\n"
		"RUN is a name (latest complete run), @ID, a uuid prefix or NAME@HOST.\n"
		"A name means a run made on this host; NAME@* looks on every host.",
	.help_column = 14,
	.complete_args = cmd_complete_runs,
};

/* The flagged samples listed in full; the rest are counted. */
#define MAX_FLAGGED 50

struct count_state {
	int64_t flagged;	/* over every section */
	int64_t warmups;	/* warm-up result rows, over every section */
	int64_t warmup_ns;	/* their samples' time */
	int nsections;
};

static int print_count(const struct section_count *c, void *arg)
{
	struct count_state *cs = arg;

	if (!cs->nsections++)
		printf("\n%-32s %8s %8s\n", "section", "samples", "flagged");
	printf("%-32s %8lld %8lld\n", name_printable(c->section), (long long)c->samples,
	       (long long)c->flagged);
	cs->flagged += c->flagged;
	cs->warmups += c->warmups;
	cs->warmup_ns += c->warmup_ns;
	return 0;
}

static int print_flagged(const struct sample_row *r, void *arg)
{
	int *shown = arg;

	if (!r->flag || !*r->flag)
		return 0;
	printf("  [%s] %s sample %d: %g %s  FLAGGED: %s\n", name_printable(r->section),
	       name_printable(r->row), r->iteration, r->value, name_printable(r->unit),
	       name_printable_text(r->flag));
	return ++*shown == MAX_FLAGGED;
}

static int print_failure(const struct failure_row *r, void *arg)
{
	int *n = arg;

	if (!(*n)++)
		printf("\nFailures:\n");
	printf("  [%s] row %s %s %d: %s\n", name_printable(r->section), name_printable(r->row),
	       r->iteration < 0 ? "warm-up" : "sample",
	       r->iteration < 0 ? -r->iteration : r->iteration, name_printable_text(r->reason));
	return 0;
}

/* A guest's boot: the round it ran, its time (vm.boot_s.round-R). */
struct boot {
	long round;
	double s;
};

/* The section of the facts printed last; the boots of a guest run, one
 * a round (two for a round that a resume booted again). */
struct meta_state {
	struct strbuf section;
	struct boot *boot;
	size_t nboot, boot_alloc;
};

/* A boot, from fact vm.boot_s.round-R, into m. */
static void add_boot(struct meta_state *m, const char *key, const char *value)
{
	char *end;
	long r = strtol(key + strlen("vm.boot_s.round-"), &end, 10);

	if (*end || r < 1)
		return;
	size_t at = m->nboot;

	ALLOC_GROW(m->boot, m->nboot + 1, m->boot_alloc);
	/* In round order; a round's boots in the order stored. */
	for (; at > 0 && m->boot[at - 1].round > r; at--)
		m->boot[at] = m->boot[at - 1];
	m->boot[at] = (struct boot){ .round = r, .s = strtod(value, NULL) };
	m->nboot++;
}

/* A guest run's boot time in each round, in round order, and their
 * spread. */
static void print_boots(const struct meta_state *m)
{
	double lo = INFINITY, hi = -INFINITY;

	if (!m->nboot)
		return;
	for (size_t i = 0; i < m->nboot; i++) {
		lo = fmin(lo, m->boot[i].s);
		hi = fmax(hi, m->boot[i].s);
	}
	printf("\nBoots: %zu, %.2f to %.2f s (%.2f s apart):", m->nboot, lo, hi, hi - lo);
	for (size_t i = 0; i < m->nboot; i++)
		printf("%s round %ld %.2f s", i ? "," : "", m->boot[i].round, m->boot[i].s);
	printf("\n");
}

static int print_meta(const char *section, const char *key, const char *value, void *arg)
{
	struct meta_state *m = arg;

	/* An arm's knobs, one fact a file, are counted under Experiment. */
	if (!*section && !strncmp(key, "knob ", 5))
		return 0;
	/* The experiment as it ran, for a resume: kbench show --format json
	 * has it; its arms' keys are the arm facts. */
	if (!*section && (!strcmp(key, "experiment-arms") || !strcmp(key, "experiment-guest")))
		return 0;
	if (!*section && !strncmp(key, "vm.boot_s.round-", 16) && value)
		add_boot(m, key, value);
	if (strcmp(m->section.buf, section)) {
		strbuf_reset(&m->section);
		strbuf_addstr(&m->section, section);
		printf("\n[%s]\n", *section ? name_printable(section) : "run");
	}
	printf("  %-16s %s\n", name_printable(key), name_printable_text(value));
	return 0;
}

/* ---- iterations = auto ---- */

struct row_results {
	struct row_result *r;
	struct strbuf text;	/* the strings of r, NUL-separated */
	size_t n, alloc, met;
};

static int collect_row_result(const struct row_result *rr, void *arg)
{
	struct row_results *rs = arg;

	ALLOC_GROW(rs->r, rs->n + 1, rs->alloc);
	rs->r[rs->n] = *rr;
	/* Offsets now, pointers once the text stops growing. */
	rs->r[rs->n].section = (const char *)(uintptr_t)rs->text.len;
	strbuf_add(&rs->text, rr->section, strlen(rr->section) + 1);
	rs->r[rs->n].row = (const char *)(uintptr_t)rs->text.len;
	strbuf_add(&rs->text, rr->row, strlen(rr->row) + 1);
	rs->met += rr->met != 0;
	rs->n++;
	return 0;
}

static int load_row_results(struct store *store, int64_t id, struct row_results *rs)
{
	memset(rs, 0, sizeof(*rs));
	strbuf_init(&rs->text);
	if (store_each_row_result(store, id, collect_row_result, rs))
		return -1;
	for (size_t i = 0; i < rs->n; i++) {
		rs->r[i].section = rs->text.buf + (uintptr_t)rs->r[i].section;
		rs->r[i].row = rs->text.buf + (uintptr_t)rs->r[i].row;
	}
	return 0;
}

static void row_results_release(struct row_results *rs)
{
	free(rs->r);
	strbuf_release(&rs->text);
}

/* One line per row and round of the sections with iterations = auto;
 * nothing for a run without them. */
static void print_row_results(const struct row_results *rs)
{
	if (!rs->n)
		return;
	printf("\nAdaptive iterations: %zu of %zu rows met their ci_target\n", rs->met, rs->n);
	printf("  %-24s %-12s %5s %7s %9s %8s  %s\n", "section", "row", "round", "samples",
	       "ci", "target", "met");
	for (size_t i = 0; i < rs->n; i++) {
		const struct row_result *r = &rs->r[i];
		char ci[32];

		if (isnan(r->ci_reached))
			snprintf(ci, sizeof(ci), "-");
		else
			snprintf(ci, sizeof(ci), "%.2f%%", r->ci_reached * 100);
		printf("  %-24s %-12s %5d %7d %9s %7g%%  %s\n", name_printable(r->section),
		       name_printable(r->row), r->round,
		       r->iterations, ci, r->ci_target * 100, r->met ? "yes" : "no");
	}
}

/* The run's -o overrides (run_meta '', 'override'), as given. */
static int add_override(const char *section, const char *key, const char *value, void *arg)
{
	struct strbuf *sb = arg;

	if (!*section && !strcmp(key, "override"))
		strbuf_addf(sb, "%s-o '%s'", sb->len ? " " : "", name_printable_text(value));
	return 0;
}

/* ---- --monitors ---- */

struct monitor_state {
	struct strbuf section, row;
	int n;
};

/* One line per key; a section heading, and a column heading per row. */
static int print_monitor(const struct monitor_summary *m, void *arg)
{
	struct monitor_state *ms = arg;
	struct strbuf name = STRBUF_INIT;
	int new_section = !ms->n || strcmp(ms->section.buf, m->section);

	if (new_section) {
		printf("%s[%s]\n", ms->n ? "\n" : "", name_printable(m->section));
		strbuf_reset(&ms->section);
		strbuf_addstr(&ms->section, m->section);
	}
	if (new_section || strcmp(ms->row.buf, m->row)) {
		printf("  %-8s %-40s %16s %16s %16s %4s\n", "row", "source/key", "mean",
		       "min", "max", "n");
		strbuf_reset(&ms->row);
		strbuf_addstr(&ms->row, m->row);
	}
	strbuf_addf(&name, "%s/%s", m->source, m->key);
	printf("  %-8s %-40s %16.2f %16.2f %16.2f %4lld\n", name_printable(m->row),
	       name_printable(name.buf), m->mean, m->min,
	       m->max, (long long)m->n);
	strbuf_release(&name);
	ms->n++;
	return 0;
}

static int show_monitors(struct store *store, int64_t id)
{
	struct monitor_state ms = { .section = STRBUF_INIT, .row = STRBUF_INIT };
	int rc = store_each_monitor_summary(store, id, print_monitor, &ms);

	if (!rc && !ms.n)
		printf("no monitor values in this run\n");
	strbuf_release(&ms.section);
	strbuf_release(&ms.row);
	return rc;
}

/* ---- --slab ---- */

struct cache_row {
	char *section, *name;
	double v[2][3];		/* [before, after][objects, slabs, partial] */
	int have[2][3];
};

struct slab_state {
	struct cache_row *c;
	size_t n, alloc, hint;
};

static const char *const cache_fields[] = { "objects", "slabs", "partial" };

static int collect_cache(const struct monitor_row *r, void *arg)
{
	struct slab_state *ss = arg;
	const char *slash = strrchr(r->key, '/');
	int when = r->kind == MONITOR_KIND_AFTER, field = -1;
	struct cache_row *c = NULL;
	size_t len;

	if (strcmp(r->source, "slabcache") || !slash)
		return 0;
	for (int f = 0; f < 3; f++)
		if (!strcmp(slash + 1, cache_fields[f]))
			field = f;
	if (field < 0)
		return 0;
	len = (size_t)(slash - r->key);
	for (size_t i = ss->hint; !c && i < ss->n; i++)
		if (!strcmp(ss->c[i].section, r->section) && strlen(ss->c[i].name) == len &&
		    !strncmp(ss->c[i].name, r->key, len))
			c = &ss->c[i];
	for (size_t i = 0; !c && i < ss->hint && i < ss->n; i++)
		if (!strcmp(ss->c[i].section, r->section) && strlen(ss->c[i].name) == len &&
		    !strncmp(ss->c[i].name, r->key, len))
			c = &ss->c[i];
	if (!c) {
		ALLOC_GROW(ss->c, ss->n + 1, ss->alloc);
		c = &ss->c[ss->n++];
		*c = (struct cache_row){
			.section = xstrdup(r->section),
			.name = xstrndup(r->key, len),
		};
	}
	ss->hint = (size_t)(c - ss->c);
	c->v[when][field] = r->value;
	c->have[when][field] = 1;
	return 0;
}

static void print_cell(int have, double v)
{
	if (have)
		printf(" %10.0f", v);
	else
		printf(" %10s", "-");
}

static void slab_state_release(struct slab_state *ss)
{
	for (size_t i = 0; i < ss->n; i++) {
		free(ss->c[i].section);
		free(ss->c[i].name);
	}
	free(ss->c);
}

static int show_slab(struct store *store, int64_t id)
{
	struct slab_state ss = { 0 };
	const char *section = NULL;
	long quiet = 0;
	int rc = -1;

	if (store_each_monitor(store, id, collect_cache, &ss))
		goto out;
	if (!ss.n) {
		printf("no slab caches recorded in this run (set 'monitors = slab' or 'all')\n");
		rc = 0;
		goto out;
	}
	for (size_t i = 0; i < ss.n; i++) {
		const struct cache_row *c = &ss.c[i];

		if (!section || strcmp(section, c->section)) {
			if (quiet)
				printf("  (%ld caches with no partial slabs before or after)\n", quiet);
			quiet = 0;
			printf("%s[%s] slab caches before the first sample and after the last\n",
			       section ? "\n" : "", c->section);
			printf("  %-28s %10s %10s %10s %10s\n", "cache", "partial", "", "objects", "");
			printf("  %-28s %10s %10s %10s %10s\n", "", "before", "after", "before",
			       "after");
			section = c->section;
		}
		/* The seed question is the partial lists: caches with none on
		 * either side say nothing (unless partial is unknown here). */
		if (c->have[0][2] && c->have[1][2] && !c->v[0][2] && !c->v[1][2]) {
			quiet++;
			continue;
		}
		printf("  %-28s", name_printable(c->name));
		print_cell(c->have[0][2], c->v[0][2]);
		print_cell(c->have[1][2], c->v[1][2]);
		print_cell(c->have[0][0], c->v[0][0]);
		print_cell(c->have[1][0], c->v[1][0]);
		putchar('\n');
	}
	if (quiet)
		printf("  (%ld caches with no partial slabs before or after)\n", quiet);
	rc = 0;
out:
	slab_state_release(&ss);
	return rc;
}

/* ---- --format json ---- */

static int json_count(const struct section_count *c, void *arg)
{
	struct json *j = arg;

	json_newline(j);
	json_object_begin(j);
	json_key_string(j, "section", c->section);
	json_key_int(j, "samples", c->samples);
	json_key_int(j, "flagged", c->flagged);
	json_key_int(j, "warmups", c->warmups);
	json_key_double(j, "warmup_s", (double)c->warmup_ns / 1e9);
	json_object_end(j);
	return 0;
}

static int json_flagged(const struct sample_row *r, void *arg)
{
	struct json *j = arg;

	if (!r->flag || !*r->flag)
		return 0;
	json_newline(j);
	json_object_begin(j);
	json_key_string(j, "section", r->section);
	json_key_string(j, "row", r->row);
	json_key_int(j, "iteration", r->iteration);
	json_key_double(j, "value", r->value);
	json_key_string(j, "unit", r->unit);
	json_key_string(j, "flag", r->flag);
	json_object_end(j);
	return 0;
}

static int json_failure(const struct failure_row *r, void *arg)
{
	struct json *j = arg;

	json_newline(j);
	json_object_begin(j);
	json_key_string(j, "section", r->section);
	json_key_string(j, "row", r->row);
	/* Stored negative for a warm-up sample. */
	json_key_int(j, "iteration", r->iteration < 0 ? -r->iteration : r->iteration);
	json_key(j, "warmup");
	json_bool(j, r->iteration < 0);
	json_key_string(j, "reason", r->reason);
	json_object_end(j);
	return 0;
}

static int json_meta(const char *section, const char *key, const char *value, void *arg)
{
	struct json *j = arg;

	json_newline(j);
	json_object_begin(j);
	json_key_string(j, "section", section);
	json_key_string(j, "key", key);
	json_key_string(j, "value", value);
	json_object_end(j);
	return 0;
}

static int json_monitor(const struct monitor_summary *m, void *arg)
{
	struct json *j = arg;

	json_newline(j);
	json_object_begin(j);
	json_key_string(j, "section", m->section);
	json_key_string(j, "row", m->row);
	json_key_string(j, "source", m->source);
	json_key_string(j, "key", m->key);
	json_key_string(j, "kind", monitor_kind_name(m->kind));
	json_key_double(j, "mean", m->mean);
	json_key_double(j, "min", m->min);
	json_key_double(j, "max", m->max);
	json_key_int(j, "n", m->n);
	json_object_end(j);
	return 0;
}

static void json_slab(struct json *j, const struct slab_state *ss)
{
	static const char *const when[2] = { "before", "after" };

	for (size_t i = 0; i < ss->n; i++) {
		const struct cache_row *c = &ss->c[i];

		json_newline(j);
		json_object_begin(j);
		json_key_string(j, "section", c->section);
		json_key_string(j, "cache", c->name);
		for (int f = 0; f < 3; f++)
			for (int w = 0; w < 2; w++) {
				char key[32];

				snprintf(key, sizeof(key), "%s_%s", cache_fields[f], when[w]);
				json_key(j, key);
				if (c->have[w][f])
					json_double(j, c->v[w][f]);
				else
					json_null(j);
			}
		json_object_end(j);
	}
}

static void json_run(struct json *j, const struct run_info *r)
{
	json_key_int(j, "id", r->id);
	json_key_string(j, "uuid", r->uuid);
	json_key_string(j, "name", r->name);
	json_key_string(j, "status", r->status);
	json_key_string(j, "started_at", r->started_at);
	json_key_string(j, "finished_at", *r->finished_at ? r->finished_at : NULL);
	json_key_string(j, "config_name", r->config_name);
	json_key_string(j, "kbench_version", r->kbench_version);
	json_key_string(j, "notes", r->notes);
	json_key(j, "host");
	json_object_begin(j);
	json_key_string(j, "hostname", r->hostname);
	json_key_string(j, "cpu_model", r->cpu_model);
	json_key_int(j, "cpus", r->cpus);
	json_key_int(j, "cores", r->cores);
	json_key_int(j, "mem_bytes", (long long)r->mem_bytes);
	json_key_string(j, "fingerprint", r->fingerprint);
	json_object_end(j);
	json_key(j, "kernel");
	json_object_begin(j);
	json_key_string(j, "release", r->kernel_release);
	json_key_string(j, "version", r->kernel_version);
	json_key_string(j, "cmdline", r->kernel_cmdline);
	json_object_end(j);
	json_key_int(j, "samples", r->nsamples);
	json_key_int(j, "failed_samples", r->nfailures);
}

/* Open an array under key; the caller fills and closes it. */
static void array_key(struct json *j, const char *key)
{
	json_newline(j);
	json_key(j, key);
	json_array_begin(j);
}

/* The results of each row, mean and samples, into the array open. */
static void json_row_results(struct json *j, const struct row_results *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct row_result *r = &rs->r[i];

		json_newline(j);
		json_object_begin(j);
		json_key_string(j, "section", r->section);
		json_key_string(j, "row", r->row);
		json_key_int(j, "round", r->round);
		json_key_int(j, "samples", r->iterations);
		json_key_double(j, "ci_target", r->ci_target);
		json_key(j, "ci_reached");
		if (isnan(r->ci_reached))
			json_null(j);
		else
			json_double(j, r->ci_reached);
		json_key(j, "met");
		json_bool(j, r->met);
		json_object_end(j);
	}
}

/* Everything show, --config, --monitors and --slab print, as one JSON
 * document on stdout. Returns 0, or -1 after printing why. */
static int show_json(struct store *store, int64_t id)
{
	struct strbuf out = STRBUF_INIT;
	struct slab_state ss = { 0 };
	struct row_results rs = { .text = STRBUF_INIT };
	struct experiment_view view = { .run_id = 0 };
	struct run_info r;
	struct json j;
	int rc = -1, exp = 0;

	if (store_get_run(store, id, &r))
		return -1;
	if (store_each_monitor(store, id, collect_cache, &ss) || load_row_results(store, id, &rs))
		goto out_run;
	json_init(&j, &out);
	json_document_begin(&j, "kbench-show", SHOW_FORMAT_VERSION);
	json_run(&j, &r);
	array_key(&j, "sections");
	rc = store_each_section_count(store, id, json_count, &j);
	json_array_end(&j);
	array_key(&j, "flagged");
	rc = rc ? rc : store_each_sample(store, id, json_flagged, &j);
	json_array_end(&j);
	array_key(&j, "failures");
	rc = rc ? rc : store_each_failure(store, id, json_failure, &j);
	json_array_end(&j);
	array_key(&j, "options");
	rc = rc ? rc : store_each_meta(store, id, json_meta, &j);
	json_array_end(&j);
	/* An arm's run: its experiment. */
	if (!rc && !(exp = experiment_view_of_run(store, id, &view))) {
		json_newline(&j);
		json_key(&j, "experiment");
		json_object_begin(&j);
		experiment_view_json(&j, &view);
		json_object_end(&j);
	}
	rc = rc ? rc : exp < 0;
	array_key(&j, "monitors");
	rc = rc ? rc : store_each_monitor_summary(store, id, json_monitor, &j);
	json_array_end(&j);
	array_key(&j, "slab_caches");
	json_slab(&j, &ss);
	json_array_end(&j);
	/* Only a run with iterations = auto has them. */
	if (!rc && rs.n) {
		array_key(&j, "row_results");
		json_row_results(&j, &rs);
		json_array_end(&j);
	}
	json_newline(&j);
	json_key_string(&j, "config_text", r.config_text);
	json_object_end(&j);
	json_finish(&j);
	strbuf_addch(&out, '\n');
	if (!rc) {
		fwrite(out.buf, 1, out.len, stdout);
		rc = fflush(stdout) ? error("cannot write the output: %s", strerror(errno)) : 0;
	}
	strbuf_release(&out);
out_run:
	experiment_view_release(&view);
	slab_state_release(&ss);
	row_results_release(&rs);
	run_info_release(&r);
	return rc;
}

/* The note, its lines under one another (no trailing blanks), with no
 * control character but tabs. */
static void print_notes(const char *notes)
{
	struct strbuf text = STRBUF_INIT;
	const char *line = notes;

	do {
		size_t len = strcspn(line, "\n");

		strbuf_reset(&text);
		name_escape_text(&text, line, len);
		printf("%s%s\n", line == notes ? "  notes       " : len ? "              " : "",
		       text.buf);
		line += len;
	} while (*line++);
	strbuf_release(&text);
}

static int parse_format(const struct parse_opt *opt, const char *value)
{
	enum output_format *f = opt->value;

	if (output_format_parse(value, f) || *f == OUTPUT_CSV)
		return error("unknown format '%s' (expected text or json)", value);
	return 0;
}

int cmd_show(int argc, char **argv)
{
	int config_only = 0, monitors = 0, slab = 0;
	enum output_format format = OUTPUT_TEXT;
	const struct parse_opt options[] = {
		OPT_BOOL(0, "config", &config_only,
			 "print the config text stored with the run, and nothing else"),
		OPT_BOOL(0, "monitors", &monitors,
			 "print the monitor values per section and row (mean, min and\n"
			 "max over the samples), and nothing else"),
		OPT_BOOL(0, "slab", &slab,
			 "print the slab caches before each section's first sample and\n"
			 "after its last (partial slabs, objects), and nothing else"),
		OPT_CALLBACK(0, "format", &format, "FMT",
			     "text (default), or json: all of the above in one\n"
			     "document, monitor values and slab caches included,\n"
			     "with a format version", parse_format),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct store *store = NULL;
	struct strbuf err = STRBUF_INIT, overrides = STRBUF_INIT;
	struct run_info r;
	struct count_state counts = { 0 };
	struct meta_state meta = { .section = STRBUF_INIT };
	struct row_results rows = { .text = STRBUF_INIT };
	struct experiment_view view = { .run_id = 0 };
	int64_t id;
	int nfail = 0, shown = 0, exp, rc = 1;

	if (cmd_parse_options(&argc, argv, options, &show_usage, &rc))
		return rc;
	if (config_only + monitors + slab > 1) {
		error("--config, --monitors and --slab cannot be combined");
		return EXIT_USAGE;
	}
	if (format == OUTPUT_JSON && config_only + monitors + slab) {
		error("--format json cannot be combined with --config, --monitors or --slab "
		      "(its document has them all)");
		return EXIT_USAGE;
	}
	if (argc != 1) {
		error("show takes exactly one run");
		parse_opt_usage_print(&show_usage, options, stderr);
		return EXIT_USAGE;
	}
	if (cmd_open_store(&store, CMD_STORE_READ))
		return 1;
	if (store_resolve_run(store, argv[0], &id, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (format == OUTPUT_JSON) {
		rc = show_json(store, id) ? 1 : 0;
		goto out;
	}
	if (monitors || slab) {
		rc = (monitors ? show_monitors(store, id) : show_slab(store, id)) ? 1 : 0;
		goto out;
	}
	if (store_get_run(store, id, &r))
		goto out;
	if (config_only) {
		fputs(r.config_text, stdout);
		run_info_release(&r);
		rc = 0;
		goto out;
	}
	printf("run @%lld  %s\n", (long long)r.id, name_printable(r.name));
	printf("  uuid        %s\n", name_printable(r.uuid));
	printf("  status      %s\n", name_printable(r.status));
	printf("  started     %s\n", name_printable(r.started_at));
	printf("  finished    %s\n", *r.finished_at ? name_printable(r.finished_at) : "-");
	printf("  config      %s\n", name_printable(r.config_name));
	printf("  host        %s (%s, %d CPUs, %d cores, %.1f GiB)\n", name_printable(r.hostname), name_printable(r.cpu_model),
	       r.cpus, r.cores, (double)r.mem_bytes / (1 << 30));
	printf("  kernel      %s %s\n", name_printable(r.kernel_release),
	       name_printable(r.kernel_version));
	printf("  cmdline     %s\n", name_printable(r.kernel_cmdline));
	printf("  kbench      %s\n", name_printable(r.kbench_version));
	printf("  samples     %lld (%lld failed)\n", (long long)r.nsamples, (long long)r.nfailures);
	if (store_each_meta(store, id, add_override, &overrides)) {
		run_info_release(&r);
		goto out;
	}
	if (overrides.len)
		printf("  overrides   %s\n", overrides.buf);
	if (r.notes)
		print_notes(r.notes);
	run_info_release(&r);
	if ((exp = experiment_view_of_run(store, id, &view)) < 0)
		goto out;
	if (!exp) {
		putchar('\n');
		experiment_view_print(&view);
	}

	if (store_each_section_count(store, id, print_count, &counts))
		goto out;
	if (counts.warmups)
		printf("warm-up: %lld results in %.3f s, stored but in no statistic\n",
		       (long long)counts.warmups, (double)counts.warmup_ns / 1e9);
	if (counts.flagged) {
		printf("\nFlagged samples (%lld):\n", (long long)counts.flagged);
		if (store_each_sample(store, id, print_flagged, &shown))
			goto out;
		if (counts.flagged > MAX_FLAGGED)
			printf("  ... and %lld more\n", (long long)counts.flagged - MAX_FLAGGED);
	}
	if (store_each_failure(store, id, print_failure, &nfail))
		goto out;
	if (load_row_results(store, id, &rows))
		goto out;
	print_row_results(&rows);
	printf("\nOptions in effect:");
	if (store_each_meta(store, id, print_meta, &meta))
		goto out;
	print_boots(&meta);
	rc = 0;
out:
	experiment_view_release(&view);
	row_results_release(&rows);
	strbuf_release(&meta.section);
	free(meta.boot);
	strbuf_release(&err);
	strbuf_release(&overrides);
	store_close(store);
	return rc;
}
