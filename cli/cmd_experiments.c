/* cmd_experiments: kbench experiments [EXPERIMENT]: the A/B experiments in
 * the store (kbench ab), oldest first, or one of them with its arms' runs,
 * to find an experiment again, compare its arms or resume it. */
#include "config.h"
#include "cli/cmd.h"
#include "cli/complete.h"
#include "views/experiment_view.h"
#include "views/output.h"
#include "db/experiment.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/json.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"

#include <stdio.h>
#include <string.h>

/* The version of the --format json document. */
#define EXPERIMENTS_FORMAT_VERSION 1

static const struct parse_opt_usage experiments_usage = {
	.synopsis = "kbench experiments [--format text|json] [EXPERIMENT]",
	.description =
		"List the A/B experiments in the store (kbench ab), oldest first: id, name,\n"
		"status, rounds, arms, start time (UTC) and samples; or show one with its\n"
		"arms' runs. EXPERIMENT is @ID, ID, a name (its latest experiment) or a\n"
		"uuid prefix. An experiment whose writer died is shown interrupted; 'kbench\n"
		"ab --resume EXPERIMENT' finishes its rounds.",
	.help_column = 20,
	.complete_args = cmd_complete_first_experiment,
};

static int parse_format(const struct parse_opt *opt, const char *value)
{
	enum output_format *f = opt->value;

	if (output_format_parse(value, f) || *f == OUTPUT_CSV)
		return error("unknown format '%s' (expected text or json)", value);
	return 0;
}

struct listing {
	enum output_format format;
	struct json j;
	struct strbuf out;
	int n;
};

static int list_one(const struct experiment_info *x, void *arg)
{
	struct listing *l = arg;

	if (l->format == OUTPUT_JSON) {
		json_newline(&l->j);
		json_object_begin(&l->j);
		json_key_int(&l->j, "id", x->id);
		json_key_string(&l->j, "uuid", x->uuid);
		json_key_string(&l->j, "name", x->name);
		json_key_string(&l->j, "status", x->status);
		json_key_string(&l->j, "arms", x->arms);
		json_key_int(&l->j, "rounds", x->rounds);
		json_key_string(&l->j, "order", x->arm_order);
		json_key_string(&l->j, "config_name", x->config_name);
		json_key_string(&l->j, "started_at", x->started_at);
		json_key_string(&l->j, "finished_at", *x->finished_at ? x->finished_at : NULL);
		json_key_int(&l->j, "runs", x->nruns);
		json_key_int(&l->j, "samples", x->nsamples);
		json_object_end(&l->j);
		return 0;
	}
	if (!l->n++)
		strbuf_addf(&l->out, "%5s  %-22s %-11s %6s  %-18s %-20s %7s\n", "id", "name",
			    "status", "rounds", "arms", "started", "samples");
	strbuf_addf(&l->out, "%5lld  ", (long long)x->id);
	output_cell(&l->out, x->name, 22, 0);
	strbuf_addf(&l->out, " %-11s %6d  ", x->status, x->rounds);
	output_cell(&l->out, x->arms, 18, 0);
	strbuf_addf(&l->out, " %-20s %7lld\n", x->started_at, (long long)x->nsamples);
	return 0;
}

static int list(struct store *s, enum output_format format)
{
	struct listing l = { .format = format, .out = STRBUF_INIT };
	int rc;

	if (format == OUTPUT_JSON) {
		json_init(&l.j, &l.out);
		json_document_begin(&l.j, "kbench-experiments", EXPERIMENTS_FORMAT_VERSION);
		json_key(&l.j, "experiments");
		json_array_begin(&l.j);
	}
	rc = store_each_experiment(s, list_one, &l);
	if (format == OUTPUT_JSON) {
		json_array_end(&l.j);
		json_object_end(&l.j);
		json_finish(&l.j);
		strbuf_addch(&l.out, '\n');
	}
	if (!rc)
		fwrite(l.out.buf, 1, l.out.len, stdout);
	/* As kbench runs says an empty store: on stderr, the text empty. */
	if (!rc && !l.n && format != OUTPUT_JSON)
		fprintf(stderr, "kbench: no experiments in %s\n", store_path(s));
	strbuf_release(&l.out);
	return rc ? 1 : 0;
}

static int show_one(struct store *s, const char *sel, enum output_format format)
{
	struct experiment_view v;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct json j;
	int64_t id;
	int rc = 1;

	memset(&v, 0, sizeof(v));
	if (store_find_experiment(s, sel, &id, &err)) {
		if (err.len)
			error("%s", err.buf);
		goto out;
	}
	if (experiment_view_load(s, id, &v))
		goto out;
	if (format == OUTPUT_JSON) {
		json_init(&j, &out);
		json_document_begin(&j, "kbench-experiment", EXPERIMENTS_FORMAT_VERSION);
		experiment_view_json(&j, &v);
		json_object_end(&j);
		json_finish(&j);
		strbuf_addch(&out, '\n');
		fwrite(out.buf, 1, out.len, stdout);
	} else {
		experiment_view_print(&v);
	}
	rc = 0;
out:
	experiment_view_release(&v);
	strbuf_release(&err);
	strbuf_release(&out);
	return rc;
}

int cmd_experiments(int argc, char **argv)
{
	enum output_format format = OUTPUT_TEXT;
	const struct parse_opt options[] = {
		OPT_CALLBACK(0, "format", &format, "FMT", "text (default) or json",
			     parse_format),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct store *store = NULL;
	int rc = EXIT_USAGE;

	if (cmd_parse_options(&argc, argv, options, &experiments_usage, &rc))
		return rc;
	if (argc > 1) {
		error("experiments takes one experiment at most");
		parse_opt_usage_print(&experiments_usage, options, stderr);
		return EXIT_USAGE;
	}
	if (cmd_open_store(&store, CMD_STORE_READ))
		return 1;
	rc = argc ? show_one(store, argv[0], format) : list(store, format);
	store_close(store);
	return rc;
}
