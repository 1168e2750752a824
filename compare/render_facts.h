/* render_facts: the header block the text formats print first, laid out
 * from the facts of the compared runs (facts.c). */
#ifndef KBENCH_RENDER_FACTS_H
#define KBENCH_RENDER_FACTS_H

#include <stddef.h>

struct cmp_model;
struct strbuf;

/* The header block of the text formats, appended to out, lines at most
 * width columns: kernel release, host, CPU model, machine size, cmdline
 * changes, config name and checksum (and its changes), samples per run.
 * A fact every run shares is one line; one that differs has a line per
 * run, labelled with the run's column label. Ends with an empty line. */
void render_facts_header(const struct cmp_model *m, size_t width, struct strbuf *out);

#endif
