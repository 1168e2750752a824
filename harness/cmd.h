/* cmd: the subcommands of kbench, one file each (harness/cmd_*.c),
 * registered in the table in main.c. */
#ifndef KBENCH_CMD_H
#define KBENCH_CMD_H

#include <stddef.h>
#include <stdint.h>

struct store;

/* Options every command takes (parsed by main before the command). */
struct global_opts {
	const char *db;		/* --db FILE, or NULL for the default */
};
extern struct global_opts global_opts;

/* Open the database named by --db or the default; print why not. */
int cmd_open_store(struct store **out);

int cmd_run(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_direct(int argc, char **argv);	/* kbench <workload> ... */
int cmd_topology(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);

/* After a run: print its table, and a comparison with the previous complete
 * run of the same config on this machine when there is one. */
int cmd_report_run(struct store *s, int64_t run_id);

#endif
