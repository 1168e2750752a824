/* bisect_settings: what a bisection was started with, as one table of
 * typed settings (the field, its type, its default, its range, its
 * option and help). The table writes the "key=value" lines stored with a
 * bisection, reads them back when it is resumed or reported, and gives
 * the options of the command lines that reproduce it. */
#ifndef KBENCH_BISECT_SETTINGS_H
#define KBENCH_BISECT_SETTINGS_H

#include "lib/argv.h"

#include <stddef.h>

struct strbuf;

/* Rounds of a step before its first look, and the most it runs: the
 * shipped experiments' 6 rounds find a change of about 15% on a small
 * machine, the default 12 one near 10% (docs/ab.md). */
#define BISECT_DEFAULT_ROUNDS 6
#define BISECT_DEFAULT_MAX_ROUNDS 12
/* The paired test needs 3 rounds. */
#define BISECT_MIN_ROUNDS 3
/* The false-positive rate of a step's paired tests, over all its looks. */
#define BISECT_ALPHA 0.05
/* The smallest change of the row that counts, in %. */
#define BISECT_DEFAULT_THRESHOLD 5.0

struct bisect_settings {
	struct argv_list configs;	/* paths, for the report: their text is stored */
	int rounds, max_rounds;
	double threshold_pct;
	char *row;			/* "SECTION/ROW"; NULL: the largest regression */
	struct argv_list overrides;	/* -o KEY=VALUE, as kbench run takes them */
	char *only;			/* --only REGEX; NULL: every section */
	char *kconfig;			/* NULL: the builder's default */
	struct argv_list fragments;	/* paths */
	/* Each readable fragment's text as it was when the bisection began,
	 * a line with "\n" and "\\" escaped, for the report: read back, never
	 * written from here (the writer reads the fragment's file). */
	struct argv_list fragment_texts;
	char *guest_fragment;		/* merged before them; NULL: none */
	char *cache_dir;		/* NULL: the builder's default */
	int jobs;			/* 0: the online CPUs */
	double build_timeout_s;		/* 0: the builder's default */
	int vcpus, mem_mib;
	char *accel;			/* "auto", "kvm", "tcg" */
	char *append;			/* more of the guests' command line; NULL: none */
	int icount_shift;		/* -1: off */
	double boot_timeout_s;
};

enum bisect_setting_type {
	BISECT_SETTING_INT,		/* int */
	BISECT_SETTING_DOUBLE,		/* double */
	BISECT_SETTING_STRING,		/* char *, NULL when not set */
	BISECT_SETTING_LIST,		/* struct argv_list, one line per word */
};

/* How a setting is written. */
enum {
	/* Written whatever its value; otherwise only when it is not its
	 * default (a string: when set). */
	BISECT_SETTING_ALWAYS = 1 << 0,
	/* Never written by itself (fragment-text: the fragment writes it). */
	BISECT_SETTING_READ_ONLY = 1 << 1,
	/* A path of a file whose text follows it as fragment-text. */
	BISECT_SETTING_WITH_TEXT = 1 << 2,
	/* Its option takes no value: given when the setting is. */
	BISECT_SETTING_FLAG = 1 << 3,
};

struct bisect_setting {
	const char *key;		/* as stored */
	enum bisect_setting_type type;
	size_t offset;			/* of its field in struct bisect_settings */
	const char *def;		/* the default, as text; NULL: none (unset) */
	double lo, hi;			/* the range of a number */
	int lo_open;			/* lo itself is out of range */
	unsigned flags;
	const char *option;		/* on kbench bisect's command line; NULL: none */
	const char *help;		/* its help, as --help prints it */
};

/* The settings, in the order they are written. */
extern const struct bisect_setting bisect_settings_table[];
extern const size_t bisect_settings_count;

/* The setting stored under key, or NULL. */
const struct bisect_setting *bisect_setting_find(const char *key);

/* Every setting at its default, every list empty. */
void bisect_settings_init(struct bisect_settings *s);
void bisect_settings_release(struct bisect_settings *s);

/* Append s as "key=value" lines, in the table's order, to out. */
void bisect_settings_write(const struct bisect_settings *s, struct strbuf *out);

/* Read "key=value" lines (as bisect_settings_write writes them) into s,
 * over what it holds: a list grows, anything else is replaced. Every line
 * is read; a line that does not fit its key is left out. Return 0, or -1
 * with the first such line said in err ("the stored setting jobs = '0' is
 * not one this kbench reads"). */
int bisect_settings_read(struct bisect_settings *s, const char *text, struct strbuf *err);

/* The n-th (from 0) value of setting d in s, as it is written, into out
 * (replacing what it held). Return 0, or -1 when s has none such (a
 * string not set, a number at its default that is not always written, a
 * list shorter). */
int bisect_setting_text(const struct bisect_settings *s, const struct bisect_setting *d,
			size_t n, struct strbuf *out);

/* Whether the setting d of s is its default. */
int bisect_setting_is_default(const struct bisect_settings *s, const struct bisect_setting *d);

#endif
