/* complete: candidates for kbench __complete, from the store (runs, hosts,
 * configs), the configs given on the command line (sections, the keys of
 * their workloads) and the shipped configs. Errors on the way are no
 * candidates: the shell drops what is printed on stderr. */
#include "config.h"
#include "cli/complete.h"
#include "views/output.h"
#include "cli/setup.h"
#include "db/store.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "runner/conf.h"
#include "runner/plan.h"
#include "workloads/workload.h"

#include <string.h>

static int offer(const char *name, void *arg)
{
	parse_opt_complete_add(arg, name);
	return 0;
}

/* The distinct names of kind in the store, when there is one. */
static void complete_stored(struct parse_opt_complete *c, enum store_name_kind kind)
{
	struct store *s = cmd_open_store_if_any();

	if (s)
		store_each_name(s, kind, offer, c);
	store_close(s);
}

void cmd_complete_runs(struct parse_opt_complete *c)
{
	complete_stored(c, STORE_NAME_RUN);
}

void cmd_complete_first_experiment(struct parse_opt_complete *c)
{
	if (!c->nargs)
		complete_stored(c, STORE_NAME_EXPERIMENT);
}

void cmd_complete_first_run(struct parse_opt_complete *c)
{
	if (!c->nargs)
		cmd_complete_runs(c);
}

void cmd_complete_files(struct parse_opt_complete *c)
{
	c->files = "";
}

void cmd_complete_output_formats(struct parse_opt_complete *c)
{
	for (int f = 0; f < OUTPUT_NFORMATS; f++)
		parse_opt_complete_add(c, output_format_name(f));
}

/* The configs the command line gives (its --config list) into conf. */
static void load_configs(const struct parse_opt_complete *c, struct config *conf)
{
	struct strbuf path = STRBUF_INIT;

	for (const struct parse_opt *o = c->opts; o && o->type != OPTION_END; o++) {
		const struct opt_list *l = o->value;

		if (o->type != OPTION_STRING_LIST || !o->long_name || strcmp(o->long_name, "config"))
			continue;
		for (size_t i = 0; i < l->n; i++)
			if (!cmd_find_config(l->v[i], &path))
				config_load(conf, path.buf);
	}
	strbuf_release(&path);
}

/* "PREFIXKEY=" for every key of opts. */
static void add_keys(struct parse_opt_complete *c, const char *prefix,
		     const struct wl_option *opts)
{
	struct strbuf key = STRBUF_INIT;

	for (const struct wl_option *o = opts; o && o->name; o++) {
		strbuf_reset(&key);
		strbuf_addf(&key, "%s%s=", prefix, o->name);
		parse_opt_complete_add(c, key.buf);
	}
	strbuf_release(&key);
}

/* -o KEY=VALUE: the keys of the command's workload, or of the runner and
 * the workloads of the configs given (every workload's without a config),
 * and SECTION.KEY= for their sections. */
static void complete_keys(struct parse_opt_complete *c)
{
	const struct workload_ops *ops = workload_find(c->command);
	struct strbuf prefix = STRBUF_INIT;
	struct config conf;

	c->nospace = 1;
	if (ops) {
		add_keys(c, "", ops->options);
		return;
	}
	config_init(&conf);
	load_configs(c, &conf);
	add_keys(c, "", plan_runner_options());
	for (int i = 0; !conf.n && workloads[i]; i++)
		add_keys(c, "", workloads[i]->options);
	for (size_t i = 0; i < conf.n; i++) {
		const struct conf_section *cs = &conf.sections[i];

		ops = plan_section_workload(cs, &conf);
		add_keys(c, "", ops ? ops->options : NULL);
		strbuf_reset(&prefix);
		strbuf_addf(&prefix, "%s.", cs->name);
		if (strncmp(c->word, prefix.buf, prefix.len)) {
			parse_opt_complete_add(c, prefix.buf);
			continue;
		}
		add_keys(c, prefix.buf, plan_runner_options());
		add_keys(c, prefix.buf, ops ? ops->options : NULL);
	}
	config_release(&conf);
	strbuf_release(&prefix);
}

/* --only REGEX of a command that takes configs: their section names. */
static void complete_sections(struct parse_opt_complete *c)
{
	struct config conf;

	config_init(&conf);
	load_configs(c, &conf);
	for (size_t i = 0; i < conf.n; i++)
		parse_opt_complete_add(c, conf.sections[i].name);
	config_release(&conf);
}

/* -c FILE: a config file, or the name of a shipped config. */
static void complete_configs(struct parse_opt_complete *c)
{
	size_t n;
	char **names = cmd_shipped_config_names(&n);

	for (size_t i = 0; i < n; i++)
		parse_opt_complete_add(c, names[i]);
	cmd_free_names(names, n);
	c->files = "conf";
}

void cmd_complete_by_argh(struct parse_opt_complete *c)
{
	const char *argh = c->opt->argh, *name = c->opt->long_name ? c->opt->long_name : "";

	if (!strcmp(argh, "FILE") && !strcmp(name, "config"))
		complete_configs(c);
	else if (!strcmp(argh, "KEY=VALUE"))
		complete_keys(c);
	else if (!strcmp(argh, "REGEX") && !strcmp(name, "only"))
		complete_sections(c);
	else if (!strcmp(argh, "RUN") || !strcmp(argh, "RUNS"))
		complete_stored(c, STORE_NAME_RUN);
	else if (!strcmp(argh, "EXPERIMENT"))
		complete_stored(c, STORE_NAME_EXPERIMENT);
	else if (!strcmp(argh, "HOST"))
		complete_stored(c, STORE_NAME_HOST);
	else if (!strcmp(argh, "CONFIG"))
		complete_stored(c, STORE_NAME_CONFIG);
	else if (strstr(argh, "DIR"))
		c->dirs = 1;
	else if (strstr(argh, "FILE") || !strcmp(argh, "IMAGE") || !strcmp(argh, "PATH"))
		c->files = "";
}
