/* child: the one way kbench runs a piece of work in a child process.
 *
 * child_start() forks; the child becomes the leader of a new process group
 * (so everything it starts can be killed at once), restores default signal
 * handling, runs fn(arg, fd) and exits with its return value; fd is the
 * write end of a pipe whose bytes the parent collects. child_finish()
 * collects those bytes while waiting for the exit, kills the whole group
 * when the timeout passes or *stop becomes non-zero, and always kills
 * what is left of the group once the child is gone.
 *
 * child_start_held() is child_start() with a handshake: the child waits
 * before running fn until the parent calls child_release(), so the parent
 * can attach to it first (perf counters opened on its pid count fn and
 * everything it starts, but none of the harness).
 *
 * A program (Slurm's commands, gnuplot, an external workload's command
 * and server) is run with child_program_run(), its output captured, or
 * started with child_program_start() to run beside kbench; its name is
 * looked up in PATH by child_find_program(), the one PATH search:
 *
 *	const char *argv[] = { "sbatch", "--parsable", path, NULL };
 *	struct child_program p = CHILD_PROGRAM_INIT;
 *	struct child_io io = { .out = &out, .err = &err, .timeout_s = 120 };
 *
 *	p.argv = argv;
 *	p.new_group = 1;
 *	end = child_program_run(&p, &io, &why);
 *	(-1: it did not run, why says why; CHILD_TIMEOUT: killed;
 *	 CHILD_EXITED: p.w.status says how it ended) */
#ifndef KBENCH_CHILD_H
#define KBENCH_CHILD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "lib/worker.h"

struct strbuf;

struct child {
	pid_t pid;
	int fd;			/* read end of the result pipe */
	int pidfd;
	int go_fd;		/* held children: write end of the release pipe, or -1 */
	int status;		/* wait status, valid after child_finish */
	struct rusage ru;	/* of the child and its reaped descendants */
	int64_t started_ns;	/* CLOCK_REALTIME at fork */
	int64_t duration_ns;	/* fork to reap, CLOCK_MONOTONIC */
	int64_t mono_start_ns;
};

enum child_end {
	CHILD_EXITED = 0,	/* it exited or died on its own: see status */
	CHILD_TIMEOUT,		/* killed after the timeout */
	CHILD_STOPPED,		/* killed because *stop was set */
	CHILD_OUT_FULL,		/* killed once its output passed io->out_max */
};

/* Make this process the reaper of its orphaned descendants, so that
 * child_finish can reap a killed group completely. Call once. */
void child_reaper_init(void);
/* Return 0, or -1 with the reason in err. */
int child_start(struct child *c, int (*fn)(void *arg, int fd), void *arg, struct strbuf *err);
/* Start c held: the child waits until child_release(c). If the parent
 * finishes it without releasing, the child exits with status 1 without
 * running fn. Return 0, or -1 with the reason in err. */
int child_start_held(struct child *c, int (*fn)(void *arg, int fd), void *arg,
		     struct strbuf *err);
/* Start prog held, as child_start_held() does, but without copying
 * kbench: posix_spawn (a vfork-like clone in glibc), so that kbench's
 * mappings are neither copied nor torn down, and its own pages are not
 * made copy-on-write, for each sample. args is argv (args[0] the name it
 * runs as), to which "--result-fd=N" (the write end of c's result pipe)
 * and "--go-fd=N" (a socket prog must read one byte from before it
 * works; EOF: give up) are added; the pass descriptors stay open in prog
 * too. Return 0, or -1 with the reason in err. */
int child_spawn_held(struct child *c, const char *prog, char *const args[],
		     const int *pass, size_t npass, struct strbuf *err);
/* A sample server: prog run once with "--serve-fd=N", which forks each
 * sample for child_serve_held() as kbench's own child (see sampler/). */
struct child_server {
	pid_t pid;		/* 0: not running */
	int fd;			/* our end of its socket, or -1 */
};
#define CHILD_SERVER_INIT { 0, -1 }
/* Start prog as s, in its own process group, dying with kbench. Return 0,
 * or -1 with the reason in err. */
int child_server_start(struct child_server *s, const char *prog, struct strbuf *err);
/* End s (it may have died already) and reap it. */
void child_server_stop(struct child_server *s);
/* child_spawn_held() through s: the server forks c with the pass
 * descriptor (one: the job), the result pipe and the go socket, and c is
 * our child as a spawned one is. Return 0; 1 when s is gone (stop it and
 * start another); 2 when s cannot serve here (its clone is refused, or
 * what it forks is not our child: spawn instead), the reason in err;
 * -1 with the reason in err. */
int child_serve_held(struct child *c, struct child_server *s, int pass, struct strbuf *err);
/* Let a held child run fn. Return 0, or -1 with the reason in err (the
 * child then exits without running fn). */
int child_release(struct child *c, struct strbuf *err);
/* Return an enum child_end, or -1 with the reason in err on an internal
 * error. */
int child_finish(struct child *c, double timeout_s,
		 volatile sig_atomic_t *stop, struct strbuf *out, struct strbuf *err);
/* Describe c->status: "exited with status 3", "killed by signal 9
 * (Killed)"; the wording of worker_describe_status(), which it uses. */
void child_describe_status(int status, struct strbuf *sb);

/* ---- programs ---- */

/* Look name up as execvp() would: a name with a '/' is that file, when
 * it may be executed; any other is the first executable regular file
 * DIR/name for DIR in path, a ':'-separated list in which an empty entry
 * is the current directory (path NULL: $PATH, or where that is unset
 * "/usr/local/bin:/usr/bin:/bin"). Return 0 with the file's path
 * appended to found, or -1 with errno set (ENOENT: none in path). */
int child_find_program(const char *name, const char *path, struct strbuf *found);

/* A descriptor of a program's stdin, stdout or stderr that is not one of
 * ours: kbench's own, or /dev/null. */
#define CHILD_FD_KEEP (-1)
#define CHILD_FD_NULL (-2)

/* A program to run, and once started, the process that runs it. */
struct child_program {
	const char *const *argv;	/* argv[0] looked up with child_find_program() */
	const char *dir;		/* it runs there; NULL: here */
	const char *const *env;		/* "NAME=VALUE" set for it (and its lookup),
					 * NULL-terminated; NULL: none */
	int new_group;			/* it leads a process group of its own */
	const char *cgroup;		/* a cgroup v2 directory it is moved into
					 * before it runs (machine/cgroup.h), so
					 * that all it starts stays there; NULL */
	int in, out, err;		/* its stdin, stdout and stderr: a descriptor,
					 * CHILD_FD_KEEP or CHILD_FD_NULL */
	/* Set by child_program_start(): */
	struct worker w;		/* it, running (a lib/worker: it dies with us) */
	int failed_errno;		/* it did not start: the errno of its chdir or
					 * exec (ENOENT: not found); 0: see err */
	int failed_dir;			/* ... it was the chdir to dir */
};
#define CHILD_PROGRAM_INIT { .in = CHILD_FD_KEEP, .out = CHILD_FD_KEEP, .err = CHILD_FD_KEEP }

/* Start p: fork; in the child, put its descriptors in place, restore the
 * default handling of SIGINT, SIGTERM and SIGPIPE, change to p->dir, set
 * p->env, look argv[0] up in the PATH that results and exec it. A failure
 * of the child's comes back through a close-on-exec pipe. Return 0 once
 * the program runs, p->w running (the caller reaps or kills it with
 * lib/worker); or -1, nothing left running, with why in err: "cannot
 * change to directory 'DIR': ...", "cannot run 'NAME': command not found",
 * "cannot run 'NAME': ..." (p->failed_errno and failed_dir say which), or
 * the pipe or fork that failed (failed_errno 0). kbench's own buffered
 * output is not flushed first: a caller whose program writes where
 * kbench does flushes it (a forked sample must not, or what its parent
 * had buffered would be written twice). */
int child_program_start(struct child_program *p, struct strbuf *err);

/* What child_program_run() feeds a program and collects from it. */
struct child_io {
	const char *input;	/* written to its stdin, which then ends; NULL: p->in */
	size_t input_len;
	struct strbuf *out;	/* its stdout, appended; NULL: p->out */
	struct strbuf *err;	/* its stderr, appended; NULL: p->err; out: into out
				 * with stdout, as it was written */
	size_t out_limit;	/* keep only the last out_limit bytes of out; 0: all */
	size_t out_dropped;	/* set to the bytes dropped from out's start */
	size_t out_max;		/* stop it once out holds more than out_max
				 * bytes (out_max + 1 kept); 0: no bound */
	double timeout_s;	/* it is killed after this long; 0: never */
};

/* Run p to its end: start it (child_program_start), feed io->input and
 * collect its output while waiting for it. The output ends when it
 * exits, even while something it left behind holds the pipes; then the
 * rest of its process group (p->new_group) is killed, and it is reaped.
 * SIGPIPE is ignored while input is fed, so that a program that stops
 * reading does not kill kbench. Return CHILD_EXITED with p->w.status
 * set; CHILD_TIMEOUT once it was killed (with its group: new_group) at
 * io->timeout_s; CHILD_OUT_FULL once it was killed so, its output having
 * passed io->out_max (a decompressor fed a bomb stops there); or -1 with
 * why in err (it did not start, p->failed_*
 * as child_program_start sets them; or it could not be waited for). */
int child_program_run(struct child_program *p, struct child_io *io, struct strbuf *err);

#endif
