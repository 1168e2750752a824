/* parse-options: a command's options declared once, in a table (git's
 * parse-options shape), from which both the parsing of argv and the usage
 * text are generated. */
#ifndef KBENCH_PARSE_OPTIONS_H
#define KBENCH_PARSE_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

struct strbuf;

/* The exit status of every usage error: an unknown option, a missing or
 * bad value, an argument too many or too few. */
#define EXIT_USAGE 2

enum parse_opt_type {
	OPTION_END,
	OPTION_FLAG,		/* int *: set to 1 */
	OPTION_INT,		/* int *: a decimal integer, within [min, max] */
	OPTION_DOUBLE,		/* double *: a finite number */
	OPTION_STRING,		/* const char **: the last one given */
	OPTION_STRING_LIST,	/* struct opt_list *: every one given, in order */
	OPTION_CALLBACK,	/* callback(opt, value) */
	OPTION_HELP,		/* print the usage on stdout and stop */
};

struct parse_opt;
struct parse_opt_complete;
/* Offer the candidates for the word being completed (kbench __complete):
 * a value of c->opt, or an argument when c->opt is NULL. */
typedef void parse_opt_complete_fn(struct parse_opt_complete *c);
/* Handle one occurrence of opt (value is NULL when opt takes none); return
 * 0, or -1 after printing why the value is wrong. */
typedef int parse_opt_cb(const struct parse_opt *opt, const char *value);

struct parse_opt {
	enum parse_opt_type type;
	char short_name;	/* 'c' for -c; 0: none */
	const char *long_name;	/* "config" for --config; NULL: none */
	void *value;		/* where the value goes, see the types */
	const char *argh;	/* the value's name in the usage ("FILE"); NULL: no value */
	const char *help;	/* '\n' starts a continuation line; NULL: not listed */
	long min, max;		/* OPTION_INT: the bounds; min == max: any int */
	parse_opt_cb *callback;	/* OPTION_CALLBACK */
	int optional_value;	/* the value is optional, given as --name=V
				 * only (the callback gets NULL without) */
	parse_opt_complete_fn *complete;	/* its values; NULL: by argh (see
						 * parse_options_complete()) */
};

/* The value pointer, checked against the type the option stores. */
#define OPT_VALUE_(v, type) (1 ? (v) : (type)NULL)

#define OPT_END() { .type = OPTION_END }
#define OPT_BOOL(s, l, v, h) \
	{ .type = OPTION_FLAG, .short_name = (s), .long_name = (l), \
	  .value = OPT_VALUE_(v, int *), .help = (h) }
#define OPT_INT(s, l, v, a, h, ...) \
	{ .type = OPTION_INT, .short_name = (s), .long_name = (l), \
	  .value = OPT_VALUE_(v, int *), .argh = (a), .help = (h), __VA_ARGS__ }
#define OPT_INT_RANGE(s, l, v, a, h, lo, hi, ...) \
	{ .type = OPTION_INT, .short_name = (s), .long_name = (l), \
	  .value = OPT_VALUE_(v, int *), .argh = (a), .help = (h), .min = (lo), .max = (hi), \
	  __VA_ARGS__ }
#define OPT_DOUBLE(s, l, v, a, h, ...) \
	{ .type = OPTION_DOUBLE, .short_name = (s), .long_name = (l), \
	  .value = OPT_VALUE_(v, double *), .argh = (a), .help = (h), __VA_ARGS__ }
#define OPT_STRING(s, l, v, a, h, ...) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), \
	  .value = OPT_VALUE_(v, const char **), .argh = (a), .help = (h), __VA_ARGS__ }
#define OPT_STRING_LIST(s, l, v, a, h, ...) \
	{ .type = OPTION_STRING_LIST, .short_name = (s), .long_name = (l), \
	  .value = OPT_VALUE_(v, struct opt_list *), .argh = (a), .help = (h), __VA_ARGS__ }
/* a: the value's name, or NULL when the option takes no value. The
 * macros of options with a value take further designated initialisers
 * after their arguments: OPT_STRING(..., .complete = complete_hosts). */
#define OPT_CALLBACK(s, l, v, a, h, cb, ...) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .callback = (cb), __VA_ARGS__ }
/* A long option whose value is optional: --name or --name=V (a). */
#define OPT_CALLBACK_OPTVAL(l, v, a, h, cb) \
	{ .type = OPTION_CALLBACK, .long_name = (l), .value = (v), .argh = (a), \
	  .help = (h), .callback = (cb), .optional_value = 1 }
/* -h and --help; h NULL keeps them out of the listing. */
#define OPT_HELP(h) \
	{ .type = OPTION_HELP, .short_name = 'h', .long_name = "help", .help = (h) }

/* The values of a repeatable option, in the order given: the strings are
 * argv's, the array belongs to the list. */
struct opt_list {
	const char **v;
	size_t n, alloc;
};
#define OPT_LIST_INIT { .v = NULL, .n = 0, .alloc = 0 }
void opt_list_release(struct opt_list *l);

/* The usage text of a command:
 *
 *	usage: SYNOPSIS
 *
 *	DESCRIPTION
 *
 *	OPTIONS_TITLE
 *	  -c, --config FILE   help, from column help_column
 *	                      a continuation line of the help
 *	      --only REGEX    a long-only option
 *
 *	EPILOGUE
 *
 * Every part but the synopsis is optional; none ends with a newline. An
 * option overlong for help_column is followed by one space. Long-only
 * options are indented to line up with "-x, " only when an option other
 * than OPT_HELP has a short name. */
struct parse_opt_usage {
	const char *synopsis;		/* after "usage: "; may hold continuation lines */
	const char *description;
	const char *options_title;	/* a line right above the options */
	int help_column;		/* 0-based column of the options' help */
	const char *epilogue;
	parse_opt_complete_fn *complete_args;	/* the arguments' candidates; NULL: none */
};

/* The usage text of u and the listed options of opts, into out; the
 * guides it names (docs/NAME.md) are named where docs_set_dir() put them,
 * lines kept within 80 columns (lib/docs.h). */
void parse_opt_usage_format(const struct parse_opt_usage *u, const struct parse_opt *opts,
			    struct strbuf *out);
/* The same, written to f. */
void parse_opt_usage_print(const struct parse_opt_usage *u, const struct parse_opt *opts,
			   FILE *f);

/* Append text to out, the current line of out being column characters
 * wide already: words are wrapped so that no line passes width columns
 * (a word longer than that stays whole), each further line indented to
 * column. No newline is added at the end. */
void usage_add_wrapped(struct strbuf *out, const char *text, int column, int width);

/* parse_options() flags. */
enum {
	/* The first argument that is not an option ends the options: it and
	 * everything after it are left as they are (a command name). */
	PARSE_OPT_STOP_AT_NON_OPTION = 1 << 0,
};

/* parse_options() results below 0. */
enum {
	PARSE_OPT_ERROR = -1,	/* a usage error, printed; exit EXIT_USAGE */
	PARSE_OPT_HELP = -2,	/* the usage was printed on stdout; exit 0 */
};

/* Parse the options in argv[1..argc-1] (argv[0] names the command) as
 * getopt_long does: options and arguments may come in any order, "--" ends
 * the options, "--name=VALUE" or "--name VALUE", "-cVALUE" or "-c VALUE",
 * short flags bundled ("-qv"), and a long name shortened to any prefix that
 * is not ambiguous. Each option's value goes where the table says, in the
 * order given. Return the number of arguments left, moved to argv[0..n-1]
 * in their order (argv[n] is NULL); or PARSE_OPT_HELP after printing the
 * usage on stdout, or PARSE_OPT_ERROR after printing the error (and, for
 * an unknown option or a missing value, the usage) on stderr. */
int parse_options(int argc, char **argv, const struct parse_opt *opts,
		  const struct parse_opt_usage *usage, unsigned flags);

/* The program's global options, accepted by every later parse_options()
 * call besides the command's own: an option the command's table does not
 * have (by exact name or unambiguous prefix) is looked up in opts, so that
 * they may come before or after the command name. opts must outlive the
 * parsing; NULL: none. They are not listed in the command's usage. */
void parse_options_set_global(const struct parse_opt *opts);

/* ---- completion (kbench __complete, for completion/kbench.bash) ---- */

/* The word being completed and where it stands. A completion function
 * adds candidates with parse_opt_complete_add() and may ask the shell to
 * complete file names as well (files, dirs) or to add no blank after
 * the word (nospace). */
struct parse_opt_complete {
	const char *word;		/* as typed so far (after "--name=") */
	const char *command;		/* argv[0] of the parse: the command's name */
	const struct parse_opt *opts;	/* the command's options, holding the values
					 * of those given before the word */
	const struct parse_opt *opt;	/* whose value the word is; NULL: an argument */
	int nargs;			/* arguments before the word */
	const char *files;		/* complete file names too: "" any, or these
					 * extensions ("conf"); NULL: none */
	int dirs;			/* complete directory names too */
	int nospace;			/* candidates are prefixes (KEY=, SECTION.) */
	struct strbuf *out;		/* the candidates, one a line */
};

/* Offer candidate when it starts with the word typed (each once). */
void parse_opt_complete_add(struct parse_opt_complete *c, const char *candidate);

/* From now on parse_options() completes the last word of the argv it is
 * given instead of parsing it: the options before it are parsed as usual
 * (silently: an error only ends their parsing), and then it prints on
 * stdout a line of the shell's directives ("files[=EXT]", "dirs",
 * "nospace", blank-separated; possibly empty) and the candidates, one a
 * line, and returns PARSE_OPT_HELP. The word may be an option name, an
 * option's value (then opt->complete, else the words of an argh such as
 * "auto|kvm|tcg", else fallback, which decides by argh, offers them), or
 * an argument (the usage's complete_args). With
 * PARSE_OPT_STOP_AT_NON_OPTION an argument before the word ends the
 * parsing as usual, for the caller to hand the rest to a subcommand. */
void parse_options_complete(parse_opt_complete_fn *fallback);
/* Whether parse_options_complete() was called. */
int parse_options_completing(void);

#endif
