/* output: what the listing commands (runs, show, query) share to print
 * their results: the format names and cells cut to a column (CSV fields
 * are lib/csv.h's). */
#ifndef KBENCH_OUTPUT_H
#define KBENCH_OUTPUT_H

struct strbuf;

enum output_format {
	OUTPUT_TEXT,
	OUTPUT_JSON,
	OUTPUT_CSV,
	OUTPUT_NFORMATS
};

/* The format named name ("text", "json", "csv"); returns 0, or -1 without
 * printing when there is none by that name. */
int output_format_parse(const char *name, enum output_format *f);
/* The name of format f. */
const char *output_format_name(enum output_format f);

/* s in a text column width display columns wide: a longer s is cut to
 * width - 1 columns followed by '~'; a shorter one is padded with blanks
 * after it (right == 0) or before it (right != 0). A UTF-8 sequence counts
 * as one column and is never split. Appended to out. */
void output_cell(struct strbuf *out, const char *s, int width, int right);

/* Write out to the file at path (made or emptied), or to stdout when path
 * is NULL. Returns 0, or -1 after printing why (nothing printed when
 * stdout fails: its reader went away). */
int output_write(const char *path, const struct strbuf *out);

#endif
