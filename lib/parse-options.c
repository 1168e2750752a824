/* parse-options: argv parsed against a command's option table, and the
 * usage text generated from the same table. */
#include "config.h"
#include "lib/parse-options.h"
#include "lib/docs.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/suggest.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void opt_list_release(struct opt_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->alloc = 0;
}

/* ---- usage ---- */

static int takes_value(const struct parse_opt *o)
{
	return o->argh != NULL;
}

/* Whether long-only options are indented past a "-x, " column. */
static int short_column(const struct parse_opt *opts)
{
	for (const struct parse_opt *o = opts; o->type != OPTION_END; o++)
		if (o->help && o->short_name && o->type != OPTION_HELP)
			return 1;
	return 0;
}

static void format_option(const struct parse_opt *o, int column, int indent_long,
			  struct strbuf *out)
{
	size_t start = out->len;
	const char *help = o->help, *nl;

	strbuf_addstr(out, "  ");
	if (o->short_name)
		strbuf_addf(out, "-%c%s", o->short_name, o->long_name ? ", " : "");
	else if (indent_long)
		strbuf_addstr(out, "    ");
	if (o->long_name)
		strbuf_addf(out, "--%s", o->long_name);
	if (takes_value(o))
		strbuf_addf(out, o->optional_value ? "[=%s]" : " %s", o->argh);
	do
		strbuf_addch(out, ' ');
	while (out->len - start < (size_t)column);
	while ((nl = strchr(help, '\n'))) {
		strbuf_add(out, help, (size_t)(nl - help));
		strbuf_addch(out, '\n');
		help = nl + 1;
		if (*help && *help != '\n')
			strbuf_addf(out, "%*s", column, "");
	}
	strbuf_addstr(out, help);
	strbuf_addch(out, '\n');
}

/* The usage text as written, into out. */
static void usage_format(const struct parse_opt_usage *u, const struct parse_opt *opts,
			 struct strbuf *out)
{
	int indent_long = short_column(opts), listed = 0;

	strbuf_addf(out, "usage: %s\n", u->synopsis);
	if (u->description)
		strbuf_addf(out, "\n%s\n", u->description);
	for (const struct parse_opt *o = opts; o->type != OPTION_END; o++) {
		if (!o->help)
			continue;
		if (!listed++) {
			strbuf_addch(out, '\n');
			if (u->options_title)
				strbuf_addf(out, "%s\n", u->options_title);
		}
		format_option(o, u->help_column, indent_long, out);
	}
	if (u->epilogue)
		strbuf_addf(out, "\n%s\n", u->epilogue);
}

/* One line of a usage text (no newline), into out with the guides it
 * names where docs_set_dir() put them (lib/docs.h). A line that the
 * longer path takes past 80 columns is broken at its last blank that
 * fits, each further line indented as the line's text is (an option's
 * help at help_column). */
static void add_line_naming_docs(struct strbuf *out, const char *line, size_t len,
				 int help_column)
{
	struct strbuf named = STRBUF_INIT;
	char *copy = xstrndup(line, len);
	const char *rest;
	size_t indent = 0;

	docs_add_text(&named, copy);
	free(copy);
	if (named.len == len) {
		strbuf_add(out, named.buf, named.len);
		strbuf_release(&named);
		return;
	}
	while (named.buf[indent] == ' ')
		indent++;
	if (indent == 2 && named.buf[2] == '-')
		indent = (size_t)help_column;
	rest = named.buf;
	while (strlen(rest) > 80 - (rest == named.buf ? 0 : indent)) {
		size_t width = rest == named.buf ? 80 : 80 - indent, cut = width;

		while (cut > 0 && rest[cut] != ' ')
			cut--;
		if (!cut || (rest == named.buf && cut <= indent))
			break;
		strbuf_add(out, rest, cut);
		strbuf_addf(out, "\n%*s", (int)indent, "");
		rest += cut + 1;
	}
	strbuf_addstr(out, rest);
	strbuf_release(&named);
}

void parse_opt_usage_format(const struct parse_opt_usage *u, const struct parse_opt *opts,
			    struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;
	const char *p;

	usage_format(u, opts, &text);
	for (p = text.buf; *p;) {
		size_t len = strcspn(p, "\n");

		add_line_naming_docs(out, p, len, u->help_column);
		p += len;
		if (*p == '\n')
			strbuf_addch(out, *p++);
	}
	strbuf_release(&text);
}

void parse_opt_usage_print(const struct parse_opt_usage *u, const struct parse_opt *opts,
			   FILE *f)
{
	struct strbuf sb = STRBUF_INIT;

	parse_opt_usage_format(u, opts, &sb);
	fputs(sb.buf, f);
	strbuf_release(&sb);
}

void usage_add_wrapped(struct strbuf *out, const char *text, int column, int width)
{
	int col = column;

	while (*text) {
		size_t len = strcspn(text, " ");

		/* A word too long for any line breaks after a '|' ("a|b|c"). */
		if (column + (int)len > width && memchr(text, '|', len)) {
			size_t cut = 0;

			for (size_t i = 0; i < len; i++)
				if (text[i] == '|' && (col > column ? col + 1 : col) + (int)i + 1 <= width)
					cut = i + 1;
			if (!cut && col > column) {
				strbuf_addf(out, "\n%*s", column, "");
				col = column;
				continue;
			}
			if (!cut)
				cut = (size_t)(strchr(text, '|') - text) + 1;
			if (col > column) {
				strbuf_addch(out, ' ');
				col++;
			}
			strbuf_add(out, text, cut);
			text += cut;
			strbuf_addf(out, "\n%*s", column, "");
			col = column;
			continue;
		}
		if (col > column && col + 1 + (int)len > width) {
			strbuf_addf(out, "\n%*s", column, "");
			col = column;
		} else if (col > column) {
			strbuf_addch(out, ' ');
			col++;
		}
		strbuf_add(out, text, len);
		col += (int)len;
		text += len;
		text += strspn(text, " ");
	}
}

/* ---- parsing ---- */

static const struct parse_opt *global_table;
/* Set by parse_options_complete(): the last word is completed. */
static int completing;
static parse_opt_complete_fn *complete_fallback;

void parse_options_set_global(const struct parse_opt *opts)
{
	global_table = opts;
}

struct parse_ctx {
	int argc;
	char **argv;
	int i;			/* the argument being parsed */
	const struct parse_opt *opts;
	const struct parse_opt_usage *usage;
};

/* A usage error: its message, then the usage, on stderr. */
static int usage_error(const struct parse_ctx *ctx, const char *fmt, const char *what)
{
	error(fmt, what);
	parse_opt_usage_print(ctx->usage, ctx->opts, stderr);
	return PARSE_OPT_ERROR;
}

static int bad_value(const char *value, const char *name, const char *expected)
{
	error("invalid value '%s' for '%s': expected %s", value, name, expected);
	return PARSE_OPT_ERROR;
}

static int parse_int(const struct parse_opt *o, const char *value, const char *name)
{
	long lo = o->min < o->max ? o->min : INT_MIN, hi = o->min < o->max ? o->max : INT_MAX;
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (end == value || *end || errno || v < lo || v > hi) {
		struct strbuf expected = STRBUF_INIT;

		if (o->min < o->max)
			strbuf_addf(&expected, "a number from %ld to %ld", lo, hi);
		else
			strbuf_addstr(&expected, "an integer");
		bad_value(value, name, expected.buf);
		strbuf_release(&expected);
		return PARSE_OPT_ERROR;
	}
	*(int *)o->value = (int)v;
	return 0;
}

static int parse_double(const struct parse_opt *o, const char *value, const char *name)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (end == value || *end || errno || !isfinite(v))
		return bad_value(value, name, "a number");
	*(double *)o->value = v;
	return 0;
}

/* Store value (NULL for an option without one) as o says; name is the
 * option as the user spelled it, for messages. */
static int apply(const struct parse_ctx *ctx, const struct parse_opt *o, const char *value,
		 const char *name)
{
	struct opt_list *l;

	switch (o->type) {
	case OPTION_FLAG:
		*(int *)o->value = 1;
		return 0;
	case OPTION_INT:
		return parse_int(o, value, name);
	case OPTION_DOUBLE:
		return parse_double(o, value, name);
	case OPTION_STRING:
		*(const char **)o->value = value;
		return 0;
	case OPTION_STRING_LIST:
		l = o->value;
		ALLOC_GROW(l->v, l->n + 1, l->alloc);
		l->v[l->n++] = value;
		return 0;
	case OPTION_CALLBACK:
		return o->callback(o, value) ? PARSE_OPT_ERROR : 0;
	case OPTION_HELP:
		if (completing)
			return 0;
		parse_opt_usage_print(ctx->usage, ctx->opts, stdout);
		return PARSE_OPT_HELP;
	case OPTION_END:
		break;
	}
	return error("option '%s' has no type", name);
}

/* ---- completion ---- */

static void find_long(const struct parse_opt *opts, const char *arg, size_t len,
		      const struct parse_opt **found, const struct parse_opt **other);

void parse_options_complete(parse_opt_complete_fn *fallback)
{
	completing = 1;
	complete_fallback = fallback;
}

int parse_options_completing(void)
{
	return completing;
}

void parse_opt_complete_add(struct parse_opt_complete *c, const char *candidate)
{
	size_t len = strlen(candidate);
	const char *p = c->out->buf;

	if (!len || strncmp(candidate, c->word, strlen(c->word)) || strchr(candidate, '\n'))
		return;
	/* Each once: the candidates are few. */
	for (; (p = strstr(p, candidate)); p += len)
		if ((p == c->out->buf || p[-1] == '\n') && p[len] == '\n')
			return;
	strbuf_addstr(c->out, candidate);
	strbuf_addch(c->out, '\n');
}

/* Print what c found: the directives, then each candidate after prefix;
 * the parse ends there. */
static int complete_print(const struct parse_opt_complete *c, const char *prefix)
{
	const char *sep = "";

	if (c->files) {
		printf("files%s%s", *c->files ? "=" : "", c->files);
		sep = " ";
	}
	if (c->dirs) {
		printf("%sdirs", sep);
		sep = " ";
	}
	if (c->nospace)
		printf("%snospace", sep);
	putchar('\n');
	for (const char *p = c->out->buf; *p;) {
		size_t len = strcspn(p, "\n");

		printf("%s%.*s\n", prefix, (int)len, p);
		p += len + (p[len] == '\n');
	}
	return PARSE_OPT_HELP;
}

static void complete_init(struct parse_opt_complete *c, const struct parse_ctx *ctx,
			  const struct parse_opt *o, const char *word, struct strbuf *out)
{
	*c = (struct parse_opt_complete){
		.word = word, .command = ctx->argv[0], .opts = ctx->opts, .opt = o, .out = out,
	};
}

/* The word is a value of o, typed after prefix ("--name=" or ""). */
static int complete_value(struct parse_ctx *ctx, const struct parse_opt *o, const char *word,
			  const char *prefix)
{
	struct strbuf out = STRBUF_INIT, choice = STRBUF_INIT;
	struct parse_opt_complete c;
	int rc;

	complete_init(&c, ctx, o, word, &out);
	if (o->complete) {
		o->complete(&c);
	} else if (strchr(o->argh, '|') && !strpbrk(o->argh, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")) {
		/* The choices themselves: "auto|kvm|tcg". */
		for (const char *p = o->argh; *p; p += *p == '|') {
			size_t len = strcspn(p, "|");

			strbuf_reset(&choice);
			strbuf_add(&choice, p, len);
			parse_opt_complete_add(&c, choice.buf);
			p += len;
		}
	} else if (complete_fallback) {
		complete_fallback(&c);
	}
	rc = complete_print(&c, prefix);
	strbuf_release(&out);
	strbuf_release(&choice);
	return rc;
}

static void complete_add_options(struct parse_opt_complete *c, const struct parse_opt *opts,
				 struct strbuf *name)
{
	for (const struct parse_opt *o = opts; o && o->type != OPTION_END; o++) {
		strbuf_reset(name);
		if (o->long_name) {
			strbuf_addf(name, "--%s", o->long_name);
			parse_opt_complete_add(c, name->buf);
		}
		strbuf_reset(name);
		if (o->short_name) {
			strbuf_addf(name, "-%c", o->short_name);
			parse_opt_complete_add(c, name->buf);
		}
	}
}

/* The last word as an argument, nargs of them before it. */
static int complete_argument(struct parse_ctx *ctx, int nargs)
{
	struct strbuf out = STRBUF_INIT;
	struct parse_opt_complete c;
	int rc;

	complete_init(&c, ctx, NULL, ctx->argv[ctx->argc - 1], &out);
	c.nargs = nargs;
	if (ctx->usage->complete_args)
		ctx->usage->complete_args(&c);
	rc = complete_print(&c, "");
	strbuf_release(&out);
	return rc;
}

/* The last word: an option's name, an option's value after '=', or an
 * argument (nargs of them before it). */
static int complete_word(struct parse_ctx *ctx, int nargs)
{
	const char *word = ctx->argv[ctx->argc - 1], *eq = strchr(word, '=');
	struct strbuf out = STRBUF_INIT, name = STRBUF_INIT;
	struct parse_opt_complete c;
	int rc;

	if (word[0] == '-' && word[1] == '-' && eq) {
		const struct parse_opt *found, *other;
		size_t len = (size_t)(eq - word) - 2;

		find_long(ctx->opts, word + 2, len, &found, &other);
		if (!found && global_table)
			find_long(global_table, word + 2, len, &found, &other);
		strbuf_add(&name, word, (size_t)(eq - word) + 1);
		if (found && !other && takes_value(found))
			rc = complete_value(ctx, found, eq + 1, name.buf);
		else
			rc = PARSE_OPT_HELP;
		strbuf_release(&name);
		return rc;
	}
	if (word[0] != '-')
		return complete_argument(ctx, nargs);
	complete_init(&c, ctx, NULL, word, &out);
	complete_add_options(&c, ctx->opts, &name);
	if (global_table != ctx->opts)
		complete_add_options(&c, global_table, &name);
	rc = complete_print(&c, "");
	strbuf_release(&out);
	strbuf_release(&name);
	return rc;
}

/* The value of o: the rest of this argument (inline, may be NULL), else
 * the next argument. */
static int take_value(struct parse_ctx *ctx, const struct parse_opt *o, const char *inline_value,
		      const char *name)
{
	if (inline_value)
		return apply(ctx, o, inline_value, name);
	if (completing && ctx->i + 1 == ctx->argc - 1)
		return complete_value(ctx, o, ctx->argv[++ctx->i], "");
	if (ctx->i + 1 >= ctx->argc)
		return usage_error(ctx, "option '%s' needs a value", name);
	return apply(ctx, o, ctx->argv[++ctx->i], name);
}

/* The option of opts named arg[0..len-1], exactly or by a prefix: found
 * (NULL: none) and, when the prefix is ambiguous, another one in other. */
static void find_long(const struct parse_opt *opts, const char *arg, size_t len,
		      const struct parse_opt **found, const struct parse_opt **other)
{
	*found = *other = NULL;
	for (const struct parse_opt *o = opts; len && o->type != OPTION_END; o++) {
		if (!o->long_name || strncmp(o->long_name, arg, len))
			continue;
		if (!o->long_name[len]) {
			*found = o;
			*other = NULL;
			break;
		}
		if (*found)
			*other = o;
		else
			*found = o;
	}
}

/* An unknown long option, arg[0..len-1]: said with the closest one the
 * command (or the program) takes, then the usage. */
static int unknown_long(const struct parse_ctx *ctx, const char *arg, size_t len)
{
	struct strbuf typed = STRBUF_INIT, msg = STRBUF_INIT;
	struct suggest sg;
	int rc;

	strbuf_add(&typed, arg, len);
	sg = (struct suggest)SUGGEST_INIT(typed.buf);
	for (const struct parse_opt *o = ctx->opts; o->type != OPTION_END; o++)
		suggest_add(&sg, o->long_name);
	for (const struct parse_opt *o = global_table; o && o->type != OPTION_END; o++)
		suggest_add(&sg, o->long_name);
	strbuf_addstr(&msg, "unknown option '%s'");
	if (sg.best)
		strbuf_addf(&msg, " (did you mean '--%s'?)", sg.best);
	rc = usage_error(ctx, msg.buf, ctx->argv[ctx->i]);
	strbuf_release(&typed);
	strbuf_release(&msg);
	return rc;
}

static int parse_long(struct parse_ctx *ctx)
{
	const char *arg = ctx->argv[ctx->i] + 2;
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct parse_opt *found, *other;
	struct strbuf name = STRBUF_INIT;
	int rc;

	find_long(ctx->opts, arg, len, &found, &other);
	if (!found && global_table && global_table != ctx->opts)
		find_long(global_table, arg, len, &found, &other);
	if (!found)
		return unknown_long(ctx, arg, len);
	strbuf_addf(&name, "--%s", found->long_name);
	if (other) {
		error("ambiguous option '--%.*s' (could be '--%s' or '--%s')", (int)len, arg,
		      found->long_name, other->long_name);
		parse_opt_usage_print(ctx->usage, ctx->opts, stderr);
		rc = PARSE_OPT_ERROR;
	} else if (found->optional_value) {
		rc = apply(ctx, found, eq ? eq + 1 : NULL, name.buf);
	} else if (!takes_value(found)) {
		rc = eq ? usage_error(ctx, "option '%s' takes no value", name.buf) :
			  apply(ctx, found, NULL, name.buf);
	} else {
		rc = take_value(ctx, found, eq ? eq + 1 : NULL, name.buf);
	}
	strbuf_release(&name);
	return rc;
}

/* One argument of short options: "-q", "-qv", "-cFILE", "-c FILE". */
static int parse_short(struct parse_ctx *ctx)
{
	const char *arg = ctx->argv[ctx->i];

	for (const char *p = arg + 1; *p; p++) {
		const struct parse_opt *o = ctx->opts;
		char name[3] = { '-', *p, '\0' };
		int rc;

		while (o->type != OPTION_END && o->short_name != *p)
			o++;
		if (o->type == OPTION_END && global_table) {
			o = global_table;
			while (o->type != OPTION_END && o->short_name != *p)
				o++;
		}
		if (o->type == OPTION_END)
			return usage_error(ctx, "unknown option '%s'", name);
		if (takes_value(o))
			return take_value(ctx, o, p[1] ? p + 1 : NULL, name);
		if ((rc = apply(ctx, o, NULL, name)))
			return rc;
	}
	return 0;
}

int parse_options(int argc, char **argv, const struct parse_opt *opts,
		  const struct parse_opt_usage *usage, unsigned flags)
{
	struct parse_ctx ctx = {
		.argc = argc, .argv = argv, .opts = opts, .usage = usage,
	};
	int nargs = 0, rc;

	/* Arguments move down to argv[0..nargs-1]; nargs < ctx.i throughout. */
	for (ctx.i = 1; ctx.i < argc; ctx.i++) {
		const char *arg = argv[ctx.i];

		if (completing && ctx.i == argc - 1)
			return complete_word(&ctx, nargs);
		if (arg[0] != '-' || !arg[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[nargs++] = argv[ctx.i];
			continue;
		}
		if (!strcmp(arg, "--")) {
			ctx.i++;
			/* Then the word is an argument, whatever it looks like. */
			if (completing && !(flags & PARSE_OPT_STOP_AT_NON_OPTION))
				return complete_argument(&ctx, nargs + argc - 1 - ctx.i);
			break;
		}
		rc = arg[1] == '-' ? parse_long(&ctx) : parse_short(&ctx);
		/* Completing, a value was (PARSE_OPT_HELP); a bad option
		 * before the word is passed over. */
		if (rc == PARSE_OPT_HELP || (rc && !completing))
			return rc;
	}
	while (ctx.i < argc)
		argv[nargs++] = argv[ctx.i++];
	argv[nargs] = NULL;
	return nargs;
}
