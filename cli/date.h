/* date: the DATE values of --since and --until (kbench runs, export),
 * read as the start or the end of the period they name. */
#ifndef KBENCH_DATE_H
#define KBENCH_DATE_H

struct parse_opt;

/* A bound as stored times are written, "2026-11-29T23:52:28Z": UTC, so
 * that text order is time order; "" when none was given. */
struct date_bound {
	char s[24];
};

/* The option callback of --since and --until: DATE (YYYY-MM-DD,
 * YYYY-MM-DDTHH:MM[:SS], Nh, Nd, Nw, today, yesterday) into the struct
 * date_bound opt->value: the start of the period it names, or its end for
 * an option called "until". Returns 0, or -1 after saying what a DATE
 * may be. */
int cmd_parse_date(const struct parse_opt *opt, const char *value);

/* The epilogue line of a command with such options. */
#define CMD_DATE_HELP \
	"DATE is YYYY-MM-DD, YYYY-MM-DDTHH:MM or YYYY-MM-DDTHH:MM:SS (UTC; a blank may\n" \
	"stand for the T), Nh, Nd or Nw (N hours, days or weeks ago), today or yesterday."

#endif
