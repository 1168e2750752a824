/* leftover: the process groups kbench starts beside its samples (an
 * experiment arm's background load, experiment/background.h), recorded in
 * the lock directory (machine/hostlock.h) while they run, so that what a
 * kbench killed with SIGKILL left running is killed by the next kbench
 * command that looks (kbench ab, kbench recover).
 *
 * A record, background.PGID, holds the group's id, the start time of its
 * leader (so that a reused process id is never taken for it), the boot id
 * of the boot it was written in, what it is, at most one sysfs file with
 * the value to write back when it is reaped (a memory block's state,
 * online, the only one a background load changes), and the box
 * (machine/cgroup.h) its processes are kept in, so that one that left the
 * group is killed too; kbench build records its make's group so (kind
 * build). The recording process holds an flock() on it while it lives: a
 * record whose lock can be taken was left by a process that is gone. A
 * record is read only when the lock directory trusts it
 * (machine/hostlock.h). */
#ifndef KBENCH_LEFTOVER_H
#define KBENCH_LEFTOVER_H

#include <sys/types.h>

struct strbuf;

struct leftover {
	int fd;			/* the record, flock()ed; -1: none */
	char *path;
};
#define LEFTOVER_INIT { .fd = -1 }

/* The start time of process pid (clock ticks after boot, /proc/PID/stat
 * field 22), or 0 when it is gone. */
unsigned long long leftover_start_time(pid_t pid);

/* Record process group pgid (its leader running), what it is (one line),
 * and restore_path's value to write back when it is reaped (NULL:
 * none), into l. Return 0, or -1 with why in err. */
int leftover_record(struct leftover *l, pid_t pgid, const char *what, const char *restore_path,
		    const char *restore_value, struct strbuf *err);
/* Add a line "key value" to l's record: "kind build" (what the group is,
 * for messages; default "background"), "cgroup DIR" and "marker
 * KBENCH_BOX=NAME" (the box its processes are kept in, machine/cgroup.h:
 * killed too when the record is reaped). Return 0, or -1 with why in
 * err. */
int leftover_note(struct leftover *l, const char *key, const char *value, struct strbuf *err);
/* The group ended by its owner: remove the record. */
void leftover_forget(struct leftover *l);

/* Kill (SIGKILL) every process of each group recorded in this boot by a
 * kbench that is gone, started no earlier than its leader and owned by
 * this user (nothing when the group's leader lives with another start
 * time), and write back the memory block state its record names when it
 * reads otherwise (any other file is said, not written); one line a
 * record into said
 * ("killed 2 processes of background process group 1234 ('sleep 60' of
 * arm drain) left by a kbench that is gone"). Return the count of
 * records reaped, or -1 with why in err. */
int leftover_reap(struct strbuf *said, struct strbuf *err);

#endif
