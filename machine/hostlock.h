/* hostlock: who measures on this machine, and who owns its knobs. The
 * knobs (sysctls, sysfs attributes) are the machine's, not a store's: one
 * kbench process at a time may change them, whatever store it writes to.
 *
 * The lock directory ($KBENCH_LOCK_DIR, else /run/lock/kbench) holds
 *   knobs        flock()ed exclusively by the one process that changes
 *                knobs (kbench ab with knob arms)
 *   knobs.journal  the knobs that process changed, with their original
 *                values and the values it may write, under the boot id
 *                of the boot it was written in; written before the first
 *                change and removed after the restore: a process that
 *                takes the lock after a holder was killed restores them
 *                first (those still reading a value kbench wrote)
 *   holder.PID   one file a kbench process that measures (run, ab, vm),
 *                flock()ed by it while it lives: what it is, its store
 *   background.PGID  a background load's process group (machine/leftover.h)
 *
 * Nothing there is trusted that another user could have written: the
 * directory is kbench's own (made 0755 by the user running kbench, a
 * directory and not a symbolic link, of that user or root, writable by no
 * one else), and every file in it is opened without following a symbolic
 * link and checked (a regular file of that user or root, one link,
 * writable by no one else) before a byte of it is read. An old directory
 * of this user writable by all (1777, as kbench made it before) is made
 * 0755; a file there that fails the check is said, ignored, and removed
 * when the directory is this user's.
 *
 * Locks die with their process (kill -9 included), so nothing is left
 * held; a holder file whose lock is free is stale and removed by the next
 * reader. Every wait is bounded. */
#ifndef KBENCH_HOSTLOCK_H
#define KBENCH_HOSTLOCK_H

#include <sys/types.h>

#include "lib/strbuf.h"

/* The lock directory, into out. */
void hostlock_dir(struct strbuf *out);

/* Open the lock directory (O_DIRECTORY, O_NOFOLLOW) once it is found to
 * be kbench's own, making it (0755) first when make is set and it is
 * missing; an old one of this user writable by others is made 0755 and
 * said. Return the descriptor; -2 when it is missing and not made (err
 * empty); -1 with why in err, naming the directory and what is wrong
 * (another user's, writable by others, a symbolic link, not a
 * directory). */
int hostlock_dir_open(int make, struct strbuf *err);
/* Whether the lock directory open at dirfd is this user's own (a file
 * there that fails the check is removed only then). */
int hostlock_dir_mine(int dirfd);
/* Open name in the lock directory dirfd as open(2) would with flags
 * (O_NOFOLLOW and O_CLOEXEC added) and check it before anything is read:
 * a regular file of this user or root, with one link, writable by no one
 * else. A file that fails is said in a warning (naming it and what is
 * wrong), removed when the directory is this user's, and not opened.
 * Return the descriptor, or -1 with errno set (EPERM: refused, said). */
int hostlock_open_file(int dirfd, const char *name, int flags, mode_t mode);
/* The boot id of this boot (/proc/sys/kernel/random/boot_id) into buf of
 * len bytes; "" when it cannot be read. */
void hostlock_boot_id(char *buf, size_t len);

/* Say that this process measures: what ("kbench run -c quick", "kbench
 * ab experiment #3 'x'") and store (its path). Registers once a process;
 * a later call updates what. The other kbench processes measuring on
 * this machine now, one line each ("pid 1234: kbench run -c quick, store
 * /root/kbench.db, since 2026-12-05 12:00:01 UTC, changing knobs"), are
 * appended to others. Return 0, or -1 with why in err (the directory
 * cannot be made or read: the caller warns and goes on). */
int hostlock_measure(const char *what, const char *store, struct strbuf *others,
		     struct strbuf *err);
/* Whether this process said it measures (hostlock_measure). */
int hostlock_measuring(void);
/* The other kbench processes measuring now, as hostlock_measure says
 * them, into others. */
void hostlock_others(struct strbuf *others);

/* Put a knob a kbench that is gone left changed back: path to original
 * when it reads one of written (values one a line; NULL: not known).
 * Return 0 when written back, 1 when it reads original already, 2 when it
 * reads something else (left as it is: what it reads and what was
 * expected into err), -1 when it cannot be (why into err). */
typedef int hostlock_restore_fn(const char *path, const char *original, const char *written,
				struct strbuf *err);

/* Take the knobs of this machine for this process (exclusive), waiting up
 * to wait_s seconds (0: not at all) for another holder to let go; a
 * notice says who is waited for. Then knobs a killed holder left
 * journalled are restored by restore and said; a row journalled in
 * another boot (or with no boot id) is said and dropped, never written,
 * and so is one restore cannot or will not write back: the journal is
 * gone afterwards. Return 0; 1 when another process holds them, with who
 * in err (pid, what, store); -1 with why in err (this process then
 * registers nothing it did not before). */
int hostlock_knobs(const char *what, const char *store, double wait_s,
		   hostlock_restore_fn *restore, struct strbuf *err);
/* Journal path's original value host-wide, with the values this process
 * may write to it (one a line), after the store's journal and before the
 * first write. Return 0, or -1 with why in err. */
int hostlock_journal(const char *path, const char *original, const char *written,
		     struct strbuf *err);
/* Whether this process holds the knobs. */
int hostlock_holds_knobs(void);
/* Let go of the knobs; when restored (every knob has its original value
 * back), drop the host-wide journal too, else keep it for the next
 * holder to restore. */
void hostlock_knobs_release(int restored);

/* Let go of everything this process holds (the host-wide journal stays
 * unless hostlock_knobs_release said the knobs are restored) and remove
 * its holder file. */
void hostlock_release(void);

#endif
