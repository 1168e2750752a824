/* cmd: the subcommands of kbench, one file each (cli/cmd_*.c),
 * registered in the table in main.c. */
#ifndef KBENCH_CMD_H
#define KBENCH_CMD_H

#include <stddef.h>
#include <stdint.h>

struct store;
struct strbuf;

/* Options every command takes (parsed by main before the command). */
struct global_opts {
	const char *db;		/* --db FILE, or NULL for the default */
};
extern struct global_opts global_opts;

/* How a command uses the store. */
enum cmd_store_access {
	CMD_STORE_READ,		/* read only: the file must exist and is not written,
				 * but for a one-time upgrade of an older schema */
	CMD_STORE_WRITE,	/* created if missing, migrated, written */
};

/* Open the database named by --db or the default for access; return 0, or
 * -1 after printing why not. */
int cmd_open_store(struct store **out, enum cmd_store_access access);

int cmd_run(int argc, char **argv);
int cmd_vm(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_direct(int argc, char **argv);	/* kbench <workload> ... */
int cmd_topology(int argc, char **argv);
int cmd_note(int argc, char **argv);
int cmd_query(int argc, char **argv);

/* The longest note, in bytes. */
#define NOTE_MAX 65536
/* Whether text may be a run's note: no control characters but newline
 * and tab, at most NOTE_MAX bytes. Returns 0, or -1 after saying why. */
int cmd_check_note(const char *text);

/* A run name must not read as another selector (#ID, NAME@HOST) nor carry
 * bytes that would garble a table (kbench run and calibrate). Returns 0,
 * or -1 after saying which rule name breaks. */
int cmd_check_run_name(const char *name);

int cmd_history(int argc, char **argv);
int cmd_regressions(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_mail(int argc, char **argv);
int cmd_recover(int argc, char **argv);

int cmd_calibrate(int argc, char **argv);

/* After a run: print its table, and a comparison with the previous complete
 * run of the same config on this machine when there is one. */
int cmd_report_run(struct store *s, int64_t run_id);

struct changepoint_params;
/* history and regressions: --p-value and --window (NULL: not given) into
 * params; 0, or -1 after printing why. */
int cmd_history_params(const char *pvalue, const char *window,
		       struct changepoint_params *params);
/* Whether the locale named by LC_ALL, LC_CTYPE or LANG is UTF-8 (kbench
 * runs in the C locale itself). */
int cmd_utf8_locale(void);

/* kbench fleet: Slurm jobs on a cluster, their bundles uploaded and collected. */
int cmd_fleet(int argc, char **argv);

int cmd_configs(int argc, char **argv);
/* The source tree when this kbench runs from its build tree (not
 * installed), else NULL. */
const char *cmd_source_tree(void);
/* The config file that name stands for, into path: name itself when it
 * exists; else, for a name without '/', NAME or NAME.conf among the
 * shipped configs (the source tree's configs/ when not installed, else
 * the data directory); else name itself, for the caller's error. */
void cmd_find_config(const char *name, struct strbuf *path);

#endif
