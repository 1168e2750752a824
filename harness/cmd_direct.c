/* cmd_direct: kbench WORKLOAD [flags]: run one sample of one workload and
 * print it as the peer tool does (perf bench style). Flags come from the
 * workload's flag table; -o KEY=VALUE sets any option of its table. */
#include "config.h"
#include "harness/cmd.h"
#include "harness/child.h"
#include "lib/error.h"
#include "workloads/params.h"
#include "machine/pin.h"
#include "harness/plan.h"
#include "harness/runner.h"
#include "lib/strbuf.h"
#include "workloads/workload.h"

#include <getopt.h>
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

static void direct_usage(const struct workload_ops *ops, FILE *f)
{
	struct strbuf help = STRBUF_INIT;
	const struct wl_flag *fl;

	fprintf(f, "usage: kbench %s [options]\n\n%s.\nRuns one sample and prints it.\n\n",
		ops->name, ops->summary);
	for (fl = ops->flags; fl && (fl->short_name || fl->long_name); fl++) {
		char left[64];

		if (flag_is_companion(ops->flags, fl))
			continue;
		if (fl->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s", fl->short_name, fl->long_name,
				 fl->value ? "" : " N");
		else
			snprintf(left, sizeof(left), "    --%s%s", fl->long_name,
				 fl->value ? "" : " VALUE");
		strbuf_reset(&help);
		flag_help(ops, fl, &help);
		fprintf(f, "  %-24s %s\n", left, help.buf);
	}
	strbuf_release(&help);
	fprintf(f, "  %-24s %s\n", "-o, --option KEY=VALUE", "set any option below");
	fprintf(f, "  %-24s %s\n", "    --timeout SECONDS", "kill the sample after this long (default 600)");
	fprintf(f, "  %-24s %s\n", "    --format default|simple", "simple: the bare numbers only");
	fprintf(f, "  %-24s %s\n", "-h, --help", "this text");
	fprintf(f, "\nOptions (also the keys of a [%s-...] config section):\n", ops->name);
	for (const struct wl_option *o = ops->options; o->name; o++)
		fprintf(f, "  %-12s %s (%s; default %s)\n", o->name, o->help,
			wl_type_expect(o), o->def ? o->def : "none");
	fprintf(f, "\nMetrics:\n");
	for (const struct wl_metric *m = ops->metrics; m->name; m++)
		fprintf(f, "  %-12s %s, %s is better: %s\n", m->name[0] ? m->name : "(row)",
			m->unit, m->better == WL_HIGHER ? "higher" : "lower", m->help);
}

int cmd_direct(int argc, char **argv)
{
	const struct workload_ops *ops = workload_find(argv[0]);
	struct option longopts[64];
	struct strbuf shortopts = STRBUF_INIT, err = STRBUF_INIT, out = STRBUF_INIT;
	struct wl_params *p = wl_params_new(ops);
	struct pin_plan *pin = NULL;
	struct wl_sample sample;
	struct child ch;
	double timeout_s = 600;
	int simple = 0, n = 0, opt, rc = 2;
	long long row;
	size_t nrows;
	const long long *rows;

	for (const struct wl_flag *fl = ops->flags; fl && (fl->short_name || fl->long_name); fl++) {
		if (n >= 56 || fl - ops->flags >= 56)
			break;
		if (flag_is_companion(ops->flags, fl))
			continue;
		longopts[n].name = fl->long_name;
		longopts[n].has_arg = fl->value ? no_argument : required_argument;
		longopts[n].flag = NULL;
		longopts[n].val = 256 + (int)(fl - ops->flags);
		n++;
		if (fl->short_name) {
			strbuf_addch(&shortopts, fl->short_name);
			if (!fl->value)
				strbuf_addch(&shortopts, ':');
		}
	}
	longopts[n++] = (struct option){ .name = "option", .has_arg = required_argument,
					 .val = 'o' };
	longopts[n++] = (struct option){ .name = "timeout", .has_arg = required_argument,
					 .val = 't' + 1000 };
	longopts[n++] = (struct option){ .name = "format", .has_arg = required_argument,
					 .val = 'f' + 1000 };
	longopts[n++] = (struct option){ .name = "help", .has_arg = no_argument, .val = 'h' };
	longopts[n] = (struct option){ .name = NULL };
	strbuf_addstr(&shortopts, "o:h");

	optind = 1;
	while ((opt = getopt_long(argc, argv, shortopts.buf, longopts, NULL)) != -1) {
		const struct wl_flag *fl = NULL;

		if (opt >= 256 && opt < 256 + 56) {
			fl = &ops->flags[opt - 256];
		} else if (opt > 0 && opt < 256 && opt != 'o' && opt != 'h' && opt != '?') {
			for (const struct wl_flag *f = ops->flags; f && (f->short_name || f->long_name); f++)
				if (f->short_name == opt && !flag_is_companion(ops->flags, f)) {
					fl = f;
					break;
				}
		}
		if (fl) {
			if (wl_params_set(p, fl->option, fl->value ? fl->value : optarg, &err)) {
				error("%s", err.buf);
				goto out;
			}
			for (const struct wl_flag *c = fl + 1; !flag_is_end(c) &&
			     flag_is_companion(ops->flags, c); c++)
				if (wl_params_set(p, c->option, c->value, &err)) {
					error("%s", err.buf);
					goto out;
				}
			continue;
		}
		switch (opt) {
		case 'o': {
			char *eq = strchr(optarg, '=');

			if (!eq) {
				error("invalid -o '%s': expected KEY=VALUE", optarg);
				goto out;
			}
			*eq = '\0';
			if (wl_params_set(p, optarg, eq + 1, &err)) {
				error("%s", err.buf);
				goto out;
			}
			break;
		}
		case 't' + 1000: {
			/* The parser of the config key, so that both agree. */
			const struct wl_option *o = plan_runner_option("timeout");
			struct wl_value v = { 0 };

			if (wl_value_parse(o, optarg, &v, &err)) {
				error("invalid value '%s' for --timeout: expected seconds, %s",
				      optarg, wl_type_expect(o));
				goto out;
			}
			timeout_s = v.d;
			wl_value_release(&v);
			break;
		}
		case 'f' + 1000:
			if (!strcmp(optarg, "simple")) {
				simple = 1;
			} else if (strcmp(optarg, "default")) {
				error("invalid value '%s' for --format: expected default or simple", optarg);
				goto out;
			}
			break;
		case 'h':
			direct_usage(ops, stdout);
			rc = 0;
			goto out;
		default:
			direct_usage(ops, stderr);
			goto out;
		}
	}
	if (optind < argc) {
		error("unexpected argument '%s'", argv[optind]);
		goto out;
	}
	if (!wl_params_given(p, ops->row_option) && ops->direct_row) {
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
	}
	rows = wl_params_rows(p, &nrows);
	row = rows[0];
	if (nrows > 1)
		notice("%zu values for '%s': running the first, %lld", nrows, ops->row_option, row);
	strbuf_reset(&err);
	if (run_sample(ops, p, row, timeout_s, &sample, &ch, &err)) {
		error("%s: %s", ops->name, err.buf);
		rc = 1;
		goto out;
	}
	if (simple) {
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
	strbuf_release(&shortopts);
	strbuf_release(&err);
	strbuf_release(&out);
	wl_params_free(p);
	pin_plan_free(pin);
	return rc;
}
