/* experiment_settings: the settings of an experiment's design (kbench ab),
 * as one table of typed settings: the key of [experiment], the option of
 * kbench ab, the field of struct experiment_options, the default, the
 * range, the help and what a wrong value is told. The table reads the
 * [experiment] keys, checks kbench ab's options and gives their help,
 * lists what --resume refuses, and takes the options over the keys. */
#ifndef KBENCH_EXPERIMENT_SETTINGS_H
#define KBENCH_EXPERIMENT_SETTINGS_H

#include <stddef.h>

struct experiment_options;
struct strbuf;

enum experiment_setting_type {
	/* int, and int flag: N, or auto (flag set, the int 0); 0 and no
	 * flag: not given */
	EXPERIMENT_SETTING_ROUNDS,
	EXPERIMENT_SETTING_INT,		/* int; 0: not given */
	/* double, and int flag: a percentage, "%" optional; no flag: not
	 * given */
	EXPERIMENT_SETTING_PCT,
	EXPERIMENT_SETTING_STRING,	/* const char *; NULL: not given */
	EXPERIMENT_SETTING_ORDER,	/* const char *, abba or shuffle; NULL: not given */
	EXPERIMENT_SETTING_SEED,	/* uint64_t, and int flag; no flag: not given */
};

enum {
	/* Belongs to a sequential design (rounds = auto). */
	EXPERIMENT_SETTING_SEQUENTIAL = 1 << 0,
	/* Its check is its option's: a wrong key's message names no
	 * section ("WHERE: seed = 'x': expected ..."). */
	EXPERIMENT_SETTING_NO_SECTION = 1 << 1,
};

struct experiment_setting {
	const char *key;		/* in [experiment]; NULL: an option only */
	const char *option;		/* of kbench ab ("--rounds") */
	const char *argh;		/* its value's name in the help */
	enum experiment_setting_type type;
	size_t offset;			/* of its field in struct experiment_options */
	size_t flag_offset;		/* of its int flag (ROUNDS, PCT, SEED) */
	const char *def;		/* the default, as text; NULL: none */
	int lo, hi;			/* the range of the key's number */
	int option_lo;			/* the option's lower bound (hi the same) */
	unsigned flags;
	/* What a wrong value of the key is told it expects, after
	 * "expected "; NULL: any value. */
	const char *expect;
	/* What a wrong value of the option is told it takes ("--rounds
	 * takes ..., not 'x'"); NULL: the option is checked as the key is
	 * (where: the option) or by the option parser (INT, STRING). */
	const char *option_expect;
	const char *help;		/* its help, as kbench ab --help prints it */
};

/* The settings, in the order kbench ab lists their options. */
extern const struct experiment_setting experiment_settings_table[];
extern const size_t experiment_settings_count;

/* The setting of [experiment] key, or NULL. */
const struct experiment_setting *experiment_setting_find_key(const char *key);
/* The setting of kbench ab's option ("--rounds" or "rounds"), or NULL. */
const struct experiment_setting *experiment_setting_find_option(const char *option);

/* Whether setting d is given in o. */
int experiment_setting_given(const struct experiment_options *o,
			     const struct experiment_setting *d);

/* Read value as the [experiment] key of d into o; where: the file and
 * line (or the option) for messages. Return 0, or -1 after saying "WHERE:
 * KEY = 'VALUE' in [experiment]: expected ...". */
int experiment_setting_read(struct experiment_options *o, const struct experiment_setting *d,
			    const char *value, const char *where);

/* Read value as d's option (a ROUNDS, PCT or SEED setting) into o.
 * Return 0, or -1 after saying why ("--rounds takes ..., not 'x'"). */
int experiment_setting_parse_option(struct experiment_options *o,
				    const struct experiment_setting *d, const char *value);

/* A key of [experiment] that is none of the table's: say so, naming the
 * keys it takes. Return -1. */
int experiment_settings_unknown_key(const char *key, const char *where);

/* Into out, what --resume refuses in a comma list (after those before it,
 * such as "-c, -o, -n"): each setting's option. */
void experiment_settings_options_text(struct strbuf *out);

/* The first setting given in o, or NULL. */
const struct experiment_setting *experiment_settings_first_given(
	const struct experiment_options *o);

/* The first setting of a sequential design given in o, or NULL. */
const struct experiment_setting *experiment_settings_first_sequential(
	const struct experiment_options *o);

/* Each setting of over not given there taken from under (its fields
 * only; the rest of over stays). */
void experiment_settings_merge(struct experiment_options *over,
			       const struct experiment_options *under);

/* Each setting of o not given set to its default: rounds, and a
 * sequential design's numbers (order's, abba, is its field's NULL; the
 * others have none). */
void experiment_settings_defaults(struct experiment_options *o);

/* An integer from lo to hi, the whole of text, into *out. Return 0, or
 * -1 (nothing said) when text is not one. */
int experiment_parse_int(const char *text, int lo, int hi, int *out);

#endif
