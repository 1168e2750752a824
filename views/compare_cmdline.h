/* compare_cmdline: kbench compare's command line, parsed once for every
 * command that takes one (compare itself, mail after its "--", the
 * report after an experiment), and the
 * comparison it asks for, rendered. */
#ifndef KBENCH_VIEWS_COMPARE_CMDLINE_H
#define KBENCH_VIEWS_COMPARE_CMDLINE_H

#include "compare/compare.h"
#include "lib/parse-options.h"

#include <stddef.h>

struct kb_regex;
struct store;
struct strbuf;

/* --exit-code: which worse mean rows exit 1. */
enum compare_exit_when {
	COMPARE_EXIT_NEVER,	/* no --exit-code */
	COMPARE_EXIT_STAR,	/* a worse row marked * */
	COMPARE_EXIT_ANY,	/* also a worse ? whose within-run test was significant */
};

/* What a compare command line asks for. */
struct compare_cmdline {
	enum compare_format format;
	const char *output;		/* -o FILE; NULL: the standard output */
	struct compare_options opt;
	struct kb_regex *only;		/* --only, compiled; opt.only points here */
	int per_host;			/* --per-host */
	enum compare_exit_when exit_code;	/* --exit-code[=any] */
	struct opt_list noise_from;	/* --noise-from, as given */
	const char *const *selectors;	/* BASE NEW [NEW...], in the argv parsed */
	size_t nselectors;
};

/* Parse argv[1..argc-1] (argv[0] names the command) as kbench compare's
 * options and runs into c, which the caller releases. Return 0;
 * PARSE_OPT_HELP after printing the usage on stdout; or -1 after printing
 * why (a bad option or value, fewer than two runs, options that do not
 * go together), and the usage where it helps. complete_runs gives the
 * candidates of the runs (kbench __complete); NULL: none. */
int compare_cmdline_parse(struct compare_cmdline *c, int argc, char **argv,
			  parse_opt_complete_fn *complete_runs);

/* The comparison c asks for of the runs in s, rendered in c->format and
 * appended to out (c->output is the caller's to write). Return 1 when
 * c->exit_code is set and a run has a mean row worse than the baseline's
 * that it counts (* ; with =any also a ? significant within the runs),
 * else 0; or -1 after printing why. */
int compare_cmdline_run(struct store *s, const struct compare_cmdline *c, struct strbuf *out);

void compare_cmdline_release(struct compare_cmdline *c);

/* The format named name into *f; return 0, or -1 after printing what
 * --format takes. */
int compare_cmdline_format(const char *name, enum compare_format *f);

/* The callback of a --format option (parse_options()): the format
 * named value into the enum compare_format opt->value, or -1 after
 * printing what --format takes. */
int compare_cmdline_parse_format(const struct parse_opt *opt, const char *value);
/* --format's candidates (kbench __complete): the renderers' names. */
void compare_cmdline_complete_format(struct parse_opt_complete *c);

/* Notice each run of m that is not complete: it is compared on the
 * samples it stored so far. */
void compare_cmdline_say_unfinished(struct store *s, const struct cmp_model *m);

#endif
