/* csv: fields of CSV records (RFC 4180), the one way kbench writes them:
 * compare's and history's CSV formats, runs and query --format csv. */
#ifndef KBENCH_CSV_H
#define KBENCH_CSV_H

struct strbuf;

/* s as one field, appended to out: as it is, or quoted when it holds a
 * comma, a quote or a line break (CR or LF), with each quote doubled. The
 * caller writes the separators. */
void csv_field(struct strbuf *out, const char *s);

/* v as one field, appended to out: the shortest of "%.15g", "%.16g" and
 * "%.17g" that reads back as the same double (0.0719, not
 * 0.071900000000000004), or nothing (an empty field) when v is NaN or
 * infinite. */
void csv_number(struct strbuf *out, double v);

#endif
