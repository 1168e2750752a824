/* watch_html: kbench watch --status --format html, one self-contained
 * page of a store's watches and their cycles, each cycle linked to its
 * experiment's comparison and its bisection's report further down. */
#ifndef KBENCH_WATCH_HTML_H
#define KBENCH_WATCH_HTML_H

#include <stdint.h>

struct store;
struct strbuf;

/* The page of the cycles of watch watch_id (0: of every watch; -1: of
 * none, a watch the store does not know) in s (NULL: no store, no
 * cycle), oldest first, appended to out: per watch a table of its cycles (time, host,
 * tips tested, result, verdict of each row, bisection and culprit, mail
 * sent with its Message-ID or pending), then per cycle the comparison of
 * its experiment (as compare --format html shows it) and the report of
 * its bisection (as kbench bisect --report prints it), which the table
 * links to. Return 0, or -1 after saying why. */
int watch_html_page(struct store *s, int64_t watch_id, struct strbuf *out);

#endif
