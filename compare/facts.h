/* facts: what the compared runs were (kernel, host, CPU, machine size,
 * cmdline, config): the facts that differ between columns, recorded in
 * the model for every format, and the header block of the text formats,
 * where a fact shared by every run is printed once and one that differs
 * is printed per run, as a diff where the values are long. */
#ifndef KBENCH_FACTS_H
#define KBENCH_FACTS_H

#include <stddef.h>
#include <stdint.h>

struct cmp_model;
struct strbuf;

/* Record in m->facts each fact whose value is not the same in every
 * column (model_finish calls it when there are two columns or more). */
void facts_finish(struct cmp_model *m);

/* The CPU model as shown: blanks trimmed at both ends and each run of
 * blanks inside made one space. Appended to out. */
void facts_cpu_model(const char *model, struct strbuf *out);

/* The kernel parameters of cmdline b that are not those of cmdline a,
 * separated by spaces and appended to out: "-quiet" (only in a),
 * "+mitigations=off" (only in b), "mem=4G->8G" (a parameter given once on
 * each side, with another value). Nothing when both hold the same words
 * in any order. */
void facts_cmdline_diff(const char *a, const char *b, struct strbuf *out);

/* The lines of config text b that are not in config text a, after a
 * longest-common-subsequence match of their lines (blank and comment lines
 * left out), appended to out one a line, each named by its section:
 * "-[hackbench] loops = 10" (a's), "+[hackbench] loops = 20" (b's). At
 * most max_lines lines; then "... and N more". Returns the number of lines
 * that differ. */
size_t facts_config_diff(const char *a, const char *b, size_t max_lines, struct strbuf *out);

/* The value of key in section of config text (the last one given), else
 * in its [global] section, appended to out; returns 0, or -1 when neither
 * sets it. */
int facts_config_value(const char *text, const char *section, const char *key,
		       struct strbuf *out);

/* The POSIX cksum of len bytes (CRC-32 with the length appended), as
 * cksum(1) prints it for the same bytes: `kbench show --config RUN | cksum`
 * gives a run's config checksum. */
uint32_t facts_cksum(const char *text, size_t len);

/* The header block of the text formats, appended to out, lines at most
 * width columns: kernel release, host, CPU model, machine size, cmdline
 * changes, config name and checksum (and its changes), samples per run.
 * A fact every run shares is one line; one that differs has a line per
 * run, labelled with the run's column label. Ends with an empty line. */
void facts_header(const struct cmp_model *m, size_t width, struct strbuf *out);

#endif
