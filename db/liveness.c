/* liveness: who writes a run (pid, boot id, process start time), stored
 * with the run, and whether that writer is still at work when a reader
 * finds the run marked running. Linux /proc only; where it cannot be read
 * the pid alone decides, as for runs stored before the rest was. */
#include "config.h"
#include "db/store.h"
#include "db/internal.h"
#include "lib/io.h"
#include "machine/sysinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Read up to len - 1 bytes of a /proc file into buf, NUL-terminated.
 * Return the count, or -1 with errno set. */
static ssize_t read_proc(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int saved;

	if (fd < 0)
		return -1;
	n = read_upto(fd, buf, len - 1);
	saved = errno;
	close(fd);
	errno = saved;
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* The boot id of the running kernel into buf (len >= 40), "" if unknown. */
static void read_boot_id(char *buf, size_t len)
{
	if (read_proc("/proc/sys/kernel/random/boot_id", buf, len) <= 0)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* The state (field 3) and start time (field 22, clock ticks after boot)
 * of process pid. Return 0, or -1 with errno set (ENOENT: no such
 * process, or one this reader may not see). */
static int read_proc_start(int64_t pid, char *state, uint64_t *ticks)
{
	char path[64], buf[1024], *p, *end;
	int field;

	snprintf(path, sizeof(path), "/proc/%" PRId64 "/stat", pid);
	if (read_proc(path, buf, sizeof(buf)) < 0)
		return -1;
	/* The command name (field 2) is in parentheses and may hold spaces
	 * and parentheses itself: the fields go on after the last ')'. */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2]) {
		errno = EINVAL;
		return -1;
	}
	p += 2;
	*state = *p;
	for (field = 3; field < 22; field++) {
		p = strchr(p, ' ');
		if (!p) {
			errno = EINVAL;
			return -1;
		}
		p++;
	}
	errno = 0;
	*ticks = strtoull(p, &end, 10);
	if (errno || end == p) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

void run_writer_self(struct run_writer *w)
{
	char state;

	memset(w, 0, sizeof(*w));
	w->pid = (int64_t)getpid();
	read_boot_id(w->boot_id, sizeof(w->boot_id));
	if (read_proc_start(w->pid, &state, &w->start_ticks))
		w->start_ticks = 0;
}

/* The pid rule of runs stored without boot id and start time: alive while
 * a process has that pid. */
static int pid_exists(int64_t pid)
{
	return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

/* The rule for runs stored without boot id and start time: alive while
 * a kbench process has that pid. A run written before those facts were
 * stored, by a process long gone, would otherwise show as running for as
 * long as any process (pid 1 always) has its pid. A process this reader
 * may not look at (/proc mounted with hidepid) is judged by its pid. */
static int pid_is_kbench(int64_t pid)
{
	char path[64], comm[64];
	char state;
	uint64_t ticks;

	if (!pid_exists(pid))
		return 0;
	snprintf(path, sizeof(path), "/proc/%" PRId64 "/comm", pid);
	if (read_proc(path, comm, sizeof(comm)) < 0)
		return errno == ENOENT ? 0 : 1;
	comm[strcspn(comm, "\n")] = '\0';
	if (strcmp(comm, "kbench"))
		return 0;
	return read_proc_start(pid, &state, &ticks) || (state != 'Z' && state != 'X');
}

int store_other_boot(struct store *s, const char *boot_id)
{
	if (!boot_id || !*boot_id)
		return 0;
	if (!s->boot_id_read) {
		read_boot_id(s->boot_id, sizeof(s->boot_id));
		s->boot_id_read = 1;
	}
	return *s->boot_id && strcmp(boot_id, s->boot_id) != 0;
}

int run_writer_alive(struct store *s, const char *hostname, int64_t pid,
		     const char *boot_id, uint64_t start_ticks)
{
	char *host, state;
	uint64_t ticks;
	int other;

	if (pid <= 0)
		return 0;
	host = sysinfo_hostname();
	other = strcmp(host, hostname) != 0;
	free(host);
	if (other)
		return 1;	/* cannot tell for another host */
	if (!boot_id || !*boot_id || !start_ticks)
		return pid_is_kbench(pid);
	if (!s->boot_id_read) {
		read_boot_id(s->boot_id, sizeof(s->boot_id));
		s->boot_id_read = 1;
	}
	if (!*s->boot_id)
		return pid_exists(pid);
	if (strcmp(boot_id, s->boot_id))
		return 0;	/* written before the last reboot */
	/* /proc mounted with hidepid hides other users' processes: then
	 * only the pid can be asked. */
	if (read_proc_start(pid, &state, &ticks))
		return pid_exists(pid);
	/* Another process now has the pid (or, in a pid namespace, the
	 * writer's pid names someone else here); a zombie is no writer. */
	return ticks == start_ticks && state != 'Z' && state != 'X';
}
