/* setup: what the commands share before they do their own work: their
 * options parsed, the store opened, run names and notes checked, shipped
 * configs found by name. */
#ifndef KBENCH_SETUP_H
#define KBENCH_SETUP_H

struct conf_entry;
struct conf_section;
struct config;
struct parse_opt;
struct parse_opt_usage;
struct store;
struct strbuf;

#include "db/store.h"	/* enum store_name_kind */

#include <stddef.h>
#include <stdint.h>

/* Options every command takes (parsed by main, before or after the
 * command's name). */
struct global_opts {
	const char *db;		/* --db FILE, or NULL for the default */
};
extern struct global_opts global_opts;

/* Parse a command's options from argv (argv[0] names the command) with
 * parse_options(), leaving in *argc the number of arguments after them,
 * moved to argv[0..*argc-1]. Return 0; or -1 when the command ends here,
 * with *status its exit status: 0 after --help printed the usage,
 * EXIT_USAGE after a bad option was reported. *status is left alone on 0. */
int cmd_parse_options(int *argc, char **argv, const struct parse_opt *options,
		      const struct parse_opt_usage *usage, int *status);

/* The store's file: --db, else store_default_path(), into path. */
void cmd_store_path(struct strbuf *path);

/* How a command uses the store. */
enum cmd_store_access {
	CMD_STORE_READ,		/* read only: the file must exist and is not written,
				 * but for a one-time upgrade of an older schema */
	CMD_STORE_WRITE,	/* created if missing, migrated, written */
};

/* Open the store cmd_store_path() names for access; return 0, or -1 after
 * printing why not. */
int cmd_open_store(struct store **out, enum cmd_store_access access);
/* The store opened for reading when its file exists, else NULL (none is
 * created): what --dry-run estimates from. A store that cannot be read
 * is NULL too, after the message saying why. */
struct store *cmd_open_store_if_any(void);

/* Runs, each once, in the order first added. */
struct run_ids {
	int64_t *v;
	size_t n, alloc;
};
#define RUN_IDS_INIT { .v = NULL, .n = 0, .alloc = 0 }
void run_ids_add(struct run_ids *ids, int64_t id);
void run_ids_release(struct run_ids *ids);
/* Add the runs the selectors sel[0..n-1] name to ids. Returns 0, or -1
 * after printing why one names none. */
int cmd_resolve_runs(struct store *s, char *const *sel, int n, struct run_ids *ids);

/* When typed is not a name of kind in s but one is close to it, append
 * " (did you mean 'NAME'?)" to out and return 1; else 0. */
int cmd_suggest_name(struct store *s, enum store_name_kind kind, const char *typed,
		     struct strbuf *out);
/* Whether typed is not a name of kind in s (1) or is (0); when it is not
 * and one is close to it, append " (did you mean 'NAME'?)" to hint. */
int cmd_name_unknown(struct store *s, enum store_name_kind kind, const char *typed,
		     struct strbuf *hint);

/* The longest note, in bytes. */
#define NOTE_MAX 65536
/* Whether text may be a run's note (kbench note, run --note): no control
 * characters but newline and tab, at most NOTE_MAX bytes. Returns 0, or
 * -1 after saying why. */
int cmd_check_note(const char *text);
/* The option callback of --note TEXT: the text, checked by
 * cmd_check_note() as it is parsed, into the const char * opt->value. */
int cmd_parse_note(const struct parse_opt *opt, const char *value);

/* The user's kbench.conf, where commands keep their defaults:
 * $XDG_CONFIG_HOME/kbench/kbench.conf, else ~/.config/kbench/kbench.conf,
 * into path. Return 0, or -1 when neither variable is set. */
int cmd_user_config_path(struct strbuf *path);

/* Section [name] of the user's kbench.conf into *section, loaded into
 * conf (config_init'ed by the caller, who releases it) with its path in
 * path; *section is NULL when there is no such file or section. Every key
 * of the section must be one of keys (NULL-terminated). Return 0, or -1
 * after printing why (the file's error, or "FILE:LINE: unknown key"). */
int cmd_user_config_section(const char *name, const char *const *keys, struct config *conf,
			    struct strbuf *path, const struct conf_section **section);

/* The value of entry e of section [name] as an integer from min to max
 * into *out. Return 0, or -1 after "FILE:LINE: invalid KEY 'VALUE' in
 * [NAME] (expected UNIT, MIN to MAX)". */
int cmd_config_int(const struct conf_entry *e, const char *name, const char *unit, long min,
		   long max, int *out);

/* A run name must not read as another selector (@ID, NAME@HOST) nor carry
 * bytes that would garble a table (kbench run and calibrate). Returns 0,
 * or -1 after saying which rule name breaks. */
int cmd_check_run_name(const char *name);
/* The option callback of a run's name (-n NAME): checked by
 * cmd_check_run_name() as it is parsed, into the const char *
 * opt->value. */
int cmd_parse_run_name(const struct parse_opt *opt, const char *value);
/* The option callback of --accel: auto, kvm or tcg, checked as it is
 * parsed (vm_check_accel_name()), into the const char * opt->value. */
int cmd_parse_accel(const struct parse_opt *opt, const char *value);

/* The source tree when this kbench runs from its build tree (not
 * installed), else NULL. */
const char *cmd_source_tree(void);
/* The directory of the shipped configs, into dir: the source tree's
 * configs/ when not installed, else the data directory. */
void cmd_shipped_configs_dir(struct strbuf *dir);
/* The config file that name stands for, into path: name itself when it
 * exists; else, for a name without '/', NAME or NAME.conf among the
 * shipped configs; else name itself. Returns 0, or -1 after saying that
 * there is no such file (with the closest shipped config's name). */
int cmd_find_config(const char *name, struct strbuf *path);
/* The names of the shipped configs (their files without .conf), sorted,
 * *n of them; free them with cmd_free_names(). */
char **cmd_shipped_config_names(size_t *n);
void cmd_free_names(char **names, size_t n);

/* --icount with --accel accel and --vcpus vcpus: 0, or -1 after saying
 * why it cannot be (KVM forced; more than one vCPU). */
int cmd_check_icount(const char *accel, int vcpus);

struct config;
struct opt_list;
/* Load the configs a command's -c options name (each found as
 * cmd_find_config finds it) into c, then apply its -o overrides (NULL:
 * none). Returns 0, or -1 after the config's or the override's error. */
int cmd_load_configs(struct config *c, const struct opt_list *configs,
		     const struct opt_list *overrides);

struct parse_opt;
struct parse_opt_usage;
/* Whether the command's -c options name a config: 0, or -1 after saying
 * none was given and how to give one, then (usage not NULL) the usage
 * of options. */
int cmd_require_configs(const struct opt_list *configs, const struct parse_opt_usage *usage,
			const struct parse_opt *options);

#endif
