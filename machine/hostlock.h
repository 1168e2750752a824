/* hostlock: who measures on this machine, and who owns its knobs. The
 * knobs (sysctls, sysfs attributes) are the machine's, not a store's: one
 * kbench process at a time may change them, whatever store it writes to.
 *
 * The lock directory ($KBENCH_LOCK_DIR, else /run/lock/kbench) holds
 *   knobs        flock()ed exclusively by the one process that changes
 *                knobs (kbench ab with knob arms)
 *   knobs.journal  the knobs that process changed, with their original
 *                values, written before the first change and removed
 *                after the restore: a process that takes the lock after a
 *                holder was killed restores them first
 *   holder.PID   one file a kbench process that measures (run, ab, vm),
 *                flock()ed by it while it lives: what it is, its store
 *
 * Locks die with their process (kill -9 included), so nothing is left
 * held; a holder file whose lock is free is stale and removed by the next
 * reader. Every wait is bounded. */
#ifndef KBENCH_HOSTLOCK_H
#define KBENCH_HOSTLOCK_H

#include "lib/strbuf.h"

/* The lock directory, into out. */
void hostlock_dir(struct strbuf *out);

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

/* Take the knobs of this machine for this process (exclusive), waiting up
 * to wait_s seconds (0: not at all) for another holder to let go; a
 * notice says who is waited for. Then knobs a killed holder left
 * journalled are restored (restore is called for each path and original;
 * non-zero: not restored, left in the journal) and said. Return 0; 1 when
 * another process holds them, with who in err (pid, what, store); -1 with
 * why in err. */
int hostlock_knobs(const char *what, const char *store, double wait_s,
		   int (*restore)(const char *path, const char *original, struct strbuf *err),
		   struct strbuf *err);
/* Journal path's original value host-wide (after the store's journal,
 * before the first write). Return 0, or -1 with why in err. */
int hostlock_journal(const char *path, const char *original, struct strbuf *err);
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
