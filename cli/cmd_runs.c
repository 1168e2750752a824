/* cmd_runs: kbench runs [filters] [--format text|json|csv]: the stored runs
 * that pass every filter given (name pattern, host, config, kernel, status,
 * start time, the newest N), as a table within 100 columns (the kernel
 * release, last, whole), JSON or CSV. */
#include "config.h"
#include "cli/cmd.h"
#include "cli/complete.h"
#include "cli/date.h"
#include "views/output.h"
#include "db/store.h"
#include "lib/csv.h"
#include "lib/error.h"
#include "lib/name.h"
#include "lib/json.h"
#include "lib/parse-options.h"
#include "lib/regex.h"
#include "lib/strbuf.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The version of the JSON and CSV layouts below. */
#define RUNS_FORMAT_VERSION 1

static const struct parse_opt_usage runs_usage = {
	.synopsis = "kbench runs [--name NAME] [--host HOST] [--config CONFIG]\n"
		"                   [--kernel RELEASE] [--status STATUS] [--since DATE]\n"
		"                   [--until DATE] [--last N] [--format FMT]",
	.description =
		"List stored runs, oldest first: id, name, config, host, start time (UTC),\n"
		"status, the number of samples and the kernel release. A run whose writer\n"
		"died is shown interrupted.\n"
		"Filters combine. Text stays within 100 columns but for the kernel release,\n"
		"which ends the line whole: a longer value is cut and ends in '~' (json and\n"
		"csv have every value whole, notes included).",
	.help_column = 20,
	.epilogue = CMD_DATE_HELP "\n"
		"--since takes the start of the day, minute or second named, --until its end.",
};

static int parse_last(const struct parse_opt *opt, const char *value)
{
	char *end;
	long v = strtol(value, &end, 10);

	if (!*value || *end || v <= 0 || v > INT_MAX)
		return error("invalid value '%s' for --last: expected a positive integer", value);
	*(int *)opt->value = (int)v;
	return 0;
}

static int parse_status(const struct parse_opt *opt, const char *value)
{
	static const char *const statuses[] = { "complete", "running", "interrupted", "failed" };

	for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++)
		if (!strcmp(value, statuses[i])) {
			*(const char **)opt->value = statuses[i];
			return 0;
		}
	return error("invalid value '%s' for --status: expected complete, running, "
		     "interrupted or failed", value);
}

static int parse_format(const struct parse_opt *opt, const char *value)
{
	if (output_format_parse(value, opt->value))
		return error("unknown format '%s' (expected text, json or csv)", value);
	return 0;
}

/* ---- the listing ---- */

struct listing {
	enum output_format format;
	struct strbuf out;
	struct json json;
	long n;
};

/* The text columns: within 100 with the blanks between them, but for the
 * kernel release (width 0), the identifier kernel developers look for:
 * it ends the line, whole, however long. */
static const struct text_column {
	const char *title;
	int width, right;
} columns[] = {
	{ .title = "id", .width = 5, .right = 1 },
	{ .title = "name", .width = 18 },
	{ .title = "config", .width = 11 },
	{ .title = "host", .width = 10 },
	{ .title = "started", .width = 16 },
	{ .title = "status", .width = 11 },
	{ .title = "samples", .width = 7, .right = 1 },
	{ .title = "kernel", .width = 0 },
};
#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

static void text_line(struct strbuf *out, const char *const *cells)
{
	for (size_t i = 0; i < NCOLUMNS; i++) {
		if (i)
			strbuf_addch(out, ' ');
		if (columns[i].width)
			output_cell(out, cells[i], columns[i].width, columns[i].right);
		else
			strbuf_addstr(out, cells[i]);
	}
	strbuf_addch(out, '\n');
}

static void text_run(struct listing *l, const struct run_info *r)
{
	char id[24], started[20], samples[24];
	const char *cells[NCOLUMNS] = {
		id, name_printable(r->name), name_printable(r->config_name),
		name_printable(r->hostname), started, r->status, samples,
		name_printable(r->kernel_release),
	};

	if (!l->n) {
		const char *titles[NCOLUMNS];

		for (size_t i = 0; i < NCOLUMNS; i++)
			titles[i] = columns[i].title;
		text_line(&l->out, titles);
	}
	snprintf(id, sizeof(id), "%lld", (long long)r->id);
	/* 2026-11-29T23:52:28Z -> 2026-11-29 23:52 */
	snprintf(started, sizeof(started), "%.10s %.5s", r->started_at,
		 strlen(r->started_at) > 11 ? r->started_at + 11 : "");
	snprintf(samples, sizeof(samples), "%lld", (long long)r->nsamples);
	text_line(&l->out, cells);
}

/* A value the store left empty is written as null, as one never set. */
static const char *or_null(const char *v)
{
	return v && *v ? v : NULL;
}

static void json_run(struct listing *l, const struct run_info *r)
{
	struct json *j = &l->json;

	json_newline(j);
	json_object_begin(j);
	json_key_int(j, "id", r->id);
	json_key_string(j, "uuid", or_null(r->uuid));
	json_key_string(j, "name", or_null(r->name));
	json_key_string(j, "hostname", or_null(r->hostname));
	json_key_string(j, "cpu_model", or_null(r->cpu_model));
	json_key_int(j, "cpus", r->cpus);
	json_key_string(j, "kernel_release", or_null(r->kernel_release));
	json_key_string(j, "kernel_version", or_null(r->kernel_version));
	json_key_string(j, "config_name", or_null(r->config_name));
	json_key_string(j, "kbench_version", or_null(r->kbench_version));
	json_key_string(j, "started_at", or_null(r->started_at));
	json_key_string(j, "finished_at", or_null(r->finished_at));
	json_key_string(j, "status", or_null(r->status));
	json_key_int(j, "samples", r->nsamples);
	json_key_int(j, "failures", r->nfailures);
	json_key_string(j, "notes", or_null(r->notes));
	json_object_end(j);
}

static void csv_run(struct listing *l, const struct run_info *r)
{
	const char *fields[] = {
		r->uuid, r->name, r->hostname, r->config_name, r->kernel_release,
		r->started_at, r->finished_at, r->status,
	};

	strbuf_addf(&l->out, "%lld,", (long long)r->id);
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		csv_field(&l->out, fields[i]);
		strbuf_addch(&l->out, ',');
	}
	strbuf_addf(&l->out, "%lld,%lld,", (long long)r->nsamples, (long long)r->nfailures);
	csv_field(&l->out, r->notes ? r->notes : "");
	strbuf_addch(&l->out, '\n');
}

static int list_run(const struct run_info *r, void *arg)
{
	struct listing *l = arg;

	switch (l->format) {
	case OUTPUT_TEXT: text_run(l, r); break;
	case OUTPUT_JSON: json_run(l, r); break;
	case OUTPUT_CSV: csv_run(l, r); break;
	case OUTPUT_NFORMATS: break;
	}
	l->n++;
	return 0;
}

static void listing_begin(struct listing *l)
{
	if (l->format == OUTPUT_JSON) {
		json_init(&l->json, &l->out);
		json_document_begin(&l->json, "kbench-runs", RUNS_FORMAT_VERSION);
		json_key(&l->json, "runs");
		json_array_begin(&l->json);
	} else if (l->format == OUTPUT_CSV) {
		strbuf_addf(&l->out, "# kbench runs csv %d\n", RUNS_FORMAT_VERSION);
		strbuf_addstr(&l->out, "id,uuid,name,hostname,config_name,kernel_release,"
			      "started_at,finished_at,status,samples,failures,notes\n");
	}
}

static void listing_end(struct listing *l)
{
	if (l->format != OUTPUT_JSON)
		return;
	json_array_end(&l->json);
	json_object_end(&l->json);
	json_finish(&l->json);
	strbuf_addch(&l->out, '\n');
}

/* Nothing listed: say whether the store is empty or the filters left
 * nothing. Returns 0, or -1 after printing why not: a --host or --config
 * that no stored run has is an error, with the closest stored name. */
static int say_none(struct store *store, const struct run_filter *f)
{
	struct strbuf hint = STRBUF_INIT;
	int64_t total;

	if (store_count_runs(store, &total))
		return -1;
	if (total && f->host && cmd_name_unknown(store, STORE_NAME_HOST, f->host, &hint)) {
		error("no run was made on host '%s' in %s%s", f->host, store_path(store), hint.buf);
		strbuf_release(&hint);
		return -1;
	}
	if (total && f->config && cmd_name_unknown(store, STORE_NAME_CONFIG, f->config, &hint)) {
		error("no run has config '%s' in %s%s", f->config, store_path(store), hint.buf);
		strbuf_release(&hint);
		return -1;
	}
	if (!total)
		fprintf(stderr, "kbench: no runs in %s\n", name_printable_text(store_path(store)));
	else
		fprintf(stderr, "kbench: no runs match (%s holds %lld run%s)\n",
			name_printable_text(store_path(store)), (long long)total, total == 1 ? "" : "s");
	return 0;
}

int cmd_runs(int argc, char **argv)
{
	struct run_filter f = { 0 };
	struct date_bound since = { "" }, until = { "" };
	struct listing l = { .format = OUTPUT_TEXT, .out = STRBUF_INIT };
	const char *name = NULL;
	const struct parse_opt options[] = {
		OPT_STRING(0, "name", &name, "NAME",
			   "only runs of this name\n"
			   "(a PCRE2 pattern, matched anywhere: '^base$' for\n"
			   "exactly base)"),
		OPT_STRING(0, "host", &f.host, "HOST", "only runs made on this host"),
		OPT_STRING(0, "config", &f.config, "CONFIG",
			   "only runs of this config (its name: configs/quick.conf\n"
			   "is 'quick')"),
		OPT_STRING(0, "kernel", &f.kernel, "RELEASE",
			   "only runs of this kernel release (a glob: '6.18*')"),
		OPT_CALLBACK(0, "status", &f.status, "STATUS",
			     "only runs with this status: complete, running, interrupted\n"
			     "or failed", parse_status),
		OPT_CALLBACK(0, "since", &since, "DATE",
			     "only runs started at or after DATE (e.g. 2026-11-01)",
			     cmd_parse_date),
		OPT_CALLBACK(0, "until", &until, "DATE",
			     "only runs started at or before DATE (up to its end)",
			     cmd_parse_date),
		OPT_CALLBACK(0, "last", &f.limit, "N", "only the N most recent runs\n"
			     "(of those the other filters let through)", parse_last),
		OPT_CALLBACK(0, "format", &l.format, "FMT",
			     "text (default), json or csv", parse_format,
			     .complete = cmd_complete_output_formats),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct kb_regex *name_re = NULL;
	struct store *store = NULL;
	int failed, rc = EXIT_USAGE;

	if (cmd_parse_options(&argc, argv, options, &runs_usage, &rc))
		return rc;
	if (argc > 0) {
		error("unexpected argument '%s'", argv[0]);
		return EXIT_USAGE;
	}
	if (name && !(name_re = kb_regex_new(name, "--name")))
		goto out;
	f.name_re = name_re;
	f.since = *since.s ? since.s : NULL;
	f.until = *until.s ? until.s : NULL;
	rc = 1;
	if (cmd_open_store(&store, CMD_STORE_READ))
		goto out;
	listing_begin(&l);
	failed = store_each_run(store, &f, list_run, &l);
	listing_end(&l);
	if (failed || (!l.n && say_none(store, &f)))
		goto out;
	fwrite(l.out.buf, 1, l.out.len, stdout);
	rc = fflush(stdout) ? 1 : 0;
out:
	strbuf_release(&l.out);
	kb_regex_free(name_re);
	store_close(store);
	return rc;
}
