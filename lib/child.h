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
 * everything it starts, but none of the harness). */
#ifndef KBENCH_CHILD_H
#define KBENCH_CHILD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

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
};

/* Make this process the reaper of its orphaned descendants, so that
 * child_finish can reap a killed group completely. Call once. */
void child_reaper_init(void);
/* Return 0, or -1 after an error message. */
int child_start(struct child *c, int (*fn)(void *arg, int fd), void *arg);
/* Start c held: the child waits until child_release(c). If the parent
 * finishes it without releasing, the child exits with status 1 without
 * running fn. Return 0, or -1 after an error message. */
int child_start_held(struct child *c, int (*fn)(void *arg, int fd), void *arg);
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
/* Let a held child run fn. Return 0, or -1 after an error message. */
int child_release(struct child *c);
/* Return an enum child_end, or -1 on an internal error (printed). */
int child_finish(struct child *c, double timeout_s,
		 volatile sig_atomic_t *stop, struct strbuf *out);
/* Describe c->status: "exited with status 3", "killed by signal 9
 * (Killed)"; the wording of worker_describe_status(), which it uses. */
void child_describe_status(int status, struct strbuf *sb);

#endif
