/* config: kbench's INI configs. One section per benchmark instance,
 * [global] for defaults; every key keeps its file and line so that later
 * validation can name them. Parsing is inih's; line numbers, sections
 * (names of any length, sections without keys) and over-long lines are
 * tracked by our line reader. */
#ifndef KBENCH_CONF_H
#define KBENCH_CONF_H

#include <stddef.h>

#include "lib/strbuf.h"

/* The longest line a config may have, not counting its line end. */
#define CONF_MAX_LINE 198

/* Names to positions in an array, open-addressed (lookups in constant
 * time, so that a config of many sections or keys parses in linear time). */
struct conf_index_slot {
	const char *name;	/* owned by the array's element; NULL: free */
	size_t pos;
};

struct conf_index {
	struct conf_index_slot *slots;
	size_t cap, n;		/* cap is 0 or a power of two */
};

struct conf_entry {
	char *key;
	char *value;
	const char *file;	/* owned by the config */
	int line;
	char *where;		/* "FILE:LINE", or "-o 'ARG'" for an override: errors name it */
};

struct conf_section {
	char *name;
	const char *file;
	int line;
	struct conf_entry *entries;
	size_t n, alloc;
	struct conf_index by_key;	/* entries by key (not kept for [global]) */
};

struct config {
	struct conf_section *sections;	/* in file order; [global] merged into `global` */
	size_t n, alloc;
	struct conf_section global;
	struct conf_index by_name;	/* sections by name */
	char **files;			/* paths given, in order */
	size_t nfiles;
	struct strbuf text;		/* every file's text, as stored with the run */
	struct strbuf name;		/* basenames without .conf joined by '+' */
	char **overrides;		/* the -o arguments applied, in order */
	char **override_from;		/* each one's origin: NULL for -o, else
					 * what set it ("[experiment] rounds") */
	size_t noverrides;
};

void config_init(struct config *c);
void config_release(struct config *c);
/* The most errors one config file, or the validation of a plan, reports:
 * the rest go unsaid. */
#define CONF_MAX_ERRORS 20

/* Parse path and add its sections; on syntax errors print each as
 * "kbench: FILE:LINE: ..." (up to CONF_MAX_ERRORS) and return -1. A line is at most CONF_MAX_LINE
 * characters; a section name is the text between its brackets, trimmed,
 * of any length, and neither empty nor holding a control character. */
int config_load(struct config *c, const char *path);
/* Parse text as if it came from a file named `name` (for tests). */
int config_load_string(struct config *c, const char *name, const char *text);
/* Last entry with key in section, or NULL. */
const struct conf_entry *conf_section_get(const struct conf_section *s, const char *key);

/* Apply one `kbench run -o` argument: "KEY=VALUE" as if written last in
 * [global] and in every section that sets KEY itself (so that it applies
 * to every section that takes KEY), or
 * "SECTION.KEY=VALUE" as if written last in that section, SECTION being
 * the longest name of an existing section that arg starts with, followed
 * by '.' ("global." names [global]). The value is then validated by
 * plan_build with the config's keys, its errors naming "-o 'ARG'". Return
 * 0, or -1 after "kbench: -o 'ARG': ..." (a malformed argument, or a
 * section the configs lack, with the closest name). Call after every
 * config_load. */
int config_add_override(struct config *c, const char *arg);

/* config_add_override(), for a value that something other than -o sets
 * (an experiment's rounds, an arm's option.KEY): from says what, as a
 * dry run and errors name it in place of "-o 'ARG'". */
int config_add_override_from(struct config *c, const char *arg, const char *from);

#endif
