/* cmd_direct: kbench WORKLOAD [flags]: run one sample of one workload and
 * print it as the peer tool does (perf bench style). Flags come from the
 * workload's flag table; -o KEY=VALUE sets any option of its table. */
#include "config.h"
#include "cli/cmd.h"
#include "lib/child.h"
#include "lib/error.h"
#include "workloads/params.h"
#include "machine/pin.h"
#include "runner/plan.h"
#include "runner/runner.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Does fl repeat the names of the entry before it? Such an entry is not an
 * option of its own: it is applied along with that entry (-t N sets both
 * the worker count and the model). */
static int flag_is_companion(const struct wl_flag *flags, const struct wl_flag *fl)
{
	const struct wl_flag *prev = fl - 1;

	return fl != flags && fl->short_name == prev->short_name &&
	       !strcmp(fl->long_name ? fl->long_name : "", prev->long_name ? prev->long_name : "");
}

static int flag_is_end(const struct wl_flag *fl)
{
	return !fl->short_name && !fl->long_name;
}

/* The help of flag fl: its own, or the choices of the WL_ENUM option it
 * sets ("a, b or c"). */
static void flag_help(const struct workload_ops *ops, const struct wl_flag *fl,
		      struct strbuf *sb)
{
	int i = wl_option_index(ops->options, fl->option);

	if (fl->help)
		strbuf_addstr(sb, fl->help);
	else if (i >= 0 && ops->options[i].type == WL_ENUM)
		wl_option_choices(&ops->options[i], ", ", " or ", sb);
}

/* What the option callbacks fill in while argv is parsed. */
struct direct_ctx {
	struct wl_params *p;
	struct strbuf *err;	/* the reason of the last bad value */
	double timeout_s;
	int simple;		/* --format simple */
};

/* A flag of the workload's table, as one option of the command. */
struct direct_flag {
	struct direct_ctx *ctx;
	const struct wl_flag *fl;
	char *help;
};

static int set_param(struct direct_ctx *ctx, const char *name, const char *text)
{
	if (wl_params_set(ctx->p, name, text, ctx->err))
		return error("%s", ctx->err->buf);
	return 0;
}

/* A workload flag: its option, then those of the companions after it. */
static int parse_flag(const struct parse_opt *opt, const char *value)
{
	const struct direct_flag *df = opt->value;
	const struct wl_flag *fl = df->fl, *flags = df->ctx->p->ops->flags;

	if (set_param(df->ctx, fl->option, fl->value ? fl->value : value))
		return -1;
	for (const struct wl_flag *c = fl + 1; !flag_is_end(c) && flag_is_companion(flags, c); c++)
		if (set_param(df->ctx, c->option, c->value))
			return -1;
	return 0;
}

static int parse_option(const struct parse_opt *opt, const char *value)
{
	const char *eq = strchr(value, '=');
	char *key;
	int rc;

	if (!eq)
		return error("invalid -o '%s': expected KEY=VALUE", value);
	key = xstrndup(value, (size_t)(eq - value));
	rc = set_param(opt->value, key, eq + 1);
	free(key);
	return rc;
}

static int parse_timeout(const struct parse_opt *opt, const char *value)
{
	/* The parser of the config key, so that both agree. */
	const struct wl_option *o = plan_runner_option("timeout");
	struct direct_ctx *ctx = opt->value;
	struct strbuf err = STRBUF_INIT;
	struct wl_value v = { 0 };
	int rc = 0;

	if (wl_value_parse(o, value, &v, &err))
		rc = error("invalid value '%s' for --timeout: expected seconds, %s", value,
			   wl_type_expect(o));
	else
		ctx->timeout_s = v.d;
	wl_value_release(&v);
	strbuf_release(&err);
	return rc;
}

static int parse_format(const struct parse_opt *opt, const char *value)
{
	struct direct_ctx *ctx = opt->value;

	if (!strcmp(value, "simple"))
		ctx->simple = 1;
	else if (strcmp(value, "default"))
		return error("invalid value '%s' for --format: expected default or simple", value);
	return 0;
}

/* The options of `kbench WORKLOAD`: the workload's flags (companions
 * apart), then the common ones; flags[] gets one entry a workload flag. */
static struct parse_opt *direct_options(const struct workload_ops *ops, struct direct_ctx *ctx,
					struct direct_flag **flags)
{
	struct parse_opt *opts;
	size_t n = 0, nflags = 0;

	for (const struct wl_flag *fl = ops->flags; fl && !flag_is_end(fl); fl++)
		nflags++;
	opts = xcalloc(nflags + 5, sizeof(*opts));
	*flags = xcalloc(nflags + 1, sizeof(**flags));
	for (const struct wl_flag *fl = ops->flags; fl && !flag_is_end(fl); fl++) {
		struct direct_flag *df = &(*flags)[n];
		struct strbuf help = STRBUF_INIT;

		if (flag_is_companion(ops->flags, fl))
			continue;
		flag_help(ops, fl, &help);
		*df = (struct direct_flag){ .ctx = ctx, .fl = fl, .help = strbuf_detach(&help) };
		opts[n++] = (struct parse_opt)OPT_CALLBACK(fl->short_name, fl->long_name, df,
			fl->value ? NULL : fl->short_name ? "N" : "VALUE", df->help, parse_flag);
	}
	opts[n++] = (struct parse_opt)OPT_CALLBACK('o', "option", ctx, "KEY=VALUE",
						   "set any option below", parse_option);
	opts[n++] = (struct parse_opt)OPT_CALLBACK(0, "timeout", ctx, "SECONDS",
		"kill the sample after this long (default 600)", parse_timeout);
	opts[n++] = (struct parse_opt)OPT_CALLBACK(0, "format", ctx, "default|simple",
		"simple: the bare numbers only", parse_format);
	opts[n++] = (struct parse_opt)OPT_HELP("this text");
	opts[n] = (struct parse_opt)OPT_END();
	return opts;
}

static void direct_flags_free(struct direct_flag *flags)
{
	for (struct direct_flag *df = flags; df && df->fl; df++)
		free(df->help);
	free(flags);
}

/* The flag that sets option name, with its own description; NULL: none. */
static const struct wl_flag *option_flag(const struct workload_ops *ops, const char *name)
{
	for (const struct wl_flag *fl = ops->flags; fl && !flag_is_end(fl); fl++)
		if (fl->option && !fl->value && fl->help && !strcmp(fl->option, name))
			return fl;
	return NULL;
}

/* The parts of the usage around the options: the workload's option table
 * (the keys of its config sections) and its metrics. */
static void direct_usage(const struct workload_ops *ops, struct parse_opt_usage *u,
			 struct strbuf *synopsis, struct strbuf *description,
			 struct strbuf *epilogue)
{
	struct strbuf text = STRBUF_INIT;

	strbuf_addf(synopsis, "kbench %s [options]", ops->name);
	strbuf_addf(&text, "%s.", ops->summary);
	usage_add_wrapped(description, text.buf, 0, 79);
	strbuf_addstr(description, "\nRuns one sample and prints it.");
	strbuf_addf(epilogue, "Options (also the keys of a [%s-...] config section):\n",
		    ops->name);
	for (const struct wl_option *o = ops->options; o->name; o++) {
		const struct wl_flag *fl = option_flag(ops, o->name);

		strbuf_reset(&text);
		/* An option a flag sets is described at the flag, once. */
		if (fl && fl->short_name)
			strbuf_addf(&text, "as -%c; ", fl->short_name);
		else if (fl)
			strbuf_addf(&text, "as --%s; ", fl->long_name);
		else
			strbuf_addf(&text, "%s; ", o->help);
		strbuf_addf(&text, "%s; default %s", wl_type_expect(o), o->def ? o->def : "none");
		strbuf_addf(epilogue, "  %-12s ", o->name);
		usage_add_wrapped(epilogue, text.buf, 15, 79);
		strbuf_addch(epilogue, '\n');
	}
	strbuf_addstr(epilogue, "\nMetrics:");
	if (!ops->metrics->name) {
		strbuf_addf(epilogue, "\n  %-12s ", "(config)");
		usage_add_wrapped(epilogue, "the metric.NAME keys given, with unit.NAME and "
				  "better.NAME", 15, 79);
	}
	for (const struct wl_metric *m = ops->metrics; m->name; m++) {
		strbuf_reset(&text);
		strbuf_addf(&text, "%s, %s is better: %s", m->unit,
			    m->better == WL_HIGHER ? "higher" : "lower", m->help);
		strbuf_addf(epilogue, "\n  %-12s ", m->name[0] ? m->name : "(row)");
		usage_add_wrapped(epilogue, text.buf, 15, 79);
	}
	strbuf_release(&text);
	*u = (struct parse_opt_usage){
		.synopsis = synopsis->buf,
		.description = description->buf,
		.help_column = 27,
		.epilogue = epilogue->buf,
	};
}

int cmd_direct(int argc, char **argv)
{
	const struct workload_ops *ops = workload_find(argv[0]);
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf synopsis = STRBUF_INIT, description = STRBUF_INIT, epilogue = STRBUF_INIT;
	struct direct_ctx ctx = {
		.p = wl_params_new(ops), .err = &err, .timeout_s = 600,
	};
	struct wl_params *p = ctx.p;
	struct direct_flag *flags = NULL;
	struct parse_opt *options = direct_options(ops, &ctx, &flags);
	struct parse_opt_usage usage;
	struct pin_plan *pin = NULL;
	struct wl_sample sample;
	struct child ch;
	int rc = EXIT_USAGE;
	long long row;
	size_t nrows;
	const long long *rows;

	direct_usage(ops, &usage, &synopsis, &description, &epilogue);
	if (cmd_parse_options(&argc, argv, options, &usage, &rc))
		goto out;
	if (argc > 0) {
		error("unexpected argument '%s'", argv[0]);
		goto out;
	}
	if (ops->row_option && !wl_params_given(p, ops->row_option) && ops->direct_row) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%lld", ops->direct_row);
		wl_params_set(p, ops->row_option, buf, &err);
	}
	if (wl_params_finish(p, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (ops->check && ops->check(p, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (wl_option_index(ops->options, "pin") >= 0) {
		if (pin_plan_compute(wl_params_text(p, "pin"), 0, &pin, &err)) {
			error("%s", err.buf);
			goto out;
		}
		p->pin = pin;
		if (pin->passed_over)
			notice("pin: using %s, the first possible of '%s': %s", pin->policy,
			       wl_params_text(p, "pin"), pin->passed_over);
	}
	rows = wl_params_rows(p, &nrows);
	row = rows[0];
	if (nrows > 1 && ops->row_option) {
		notice("%zu values for '%s': running the first, %lld", nrows, ops->row_option, row);
	} else if (nrows > 1) {
		char label[WL_ROW_LEN];

		wl_params_row_label(p, row, label, sizeof(label));
		notice("%zu rows: running the first, %s", nrows, label);
	}
	strbuf_reset(&err);
	if (ops->section_begin && ops->section_begin(p, &err)) {
		error("%s: %s", ops->name, err.buf);
		rc = 1;
		goto out;
	}
	rc = run_sample(ops, p, row, ctx.timeout_s, &sample, &ch, &err);
	if (ops->section_end)
		ops->section_end(p);
	if (rc) {
		error("%s: %s", ops->name, err.buf);
		rc = 1;
		goto out;
	}
	if (ctx.simple) {
		for (int i = 0; i < sample.nresults; i++)
			strbuf_addf(&out, "%s%.6g", i ? " " : "", sample.results[i].value);
		strbuf_addch(&out, '\n');
	} else {
		ops->format_direct(p, row, &sample, &out);
		if (sample.flag[0])
			strbuf_addf(&out, "# flagged: %s\n", sample.flag);
	}
	fputs(out.buf, stdout);
	rc = 0;
out:
	free(options);
	direct_flags_free(flags);
	strbuf_release(&synopsis);
	strbuf_release(&description);
	strbuf_release(&epilogue);
	strbuf_release(&err);
	strbuf_release(&out);
	wl_params_free(p);
	pin_plan_free(pin);
	return rc;
}
