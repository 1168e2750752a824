/* knob: the runtime knobs an experiment changes (a sysctl under
 * /proc/sys, a sysfs attribute or every match of a sysfs glob): read,
 * written and read back, journalled in the store before the first write
 * and restored from that journal whatever way the writer ended. */
#ifndef KBENCH_KNOB_H
#define KBENCH_KNOB_H

#include <stddef.h>
#include <stdint.h>

#include "lib/strbuf.h"

struct store;

/* One file a knob key names, with the setting it had before anything was
 * written (the value written back to restore it). */
struct knob_file {
	char *path;		/* canonical: a sysfs alias and its target are one */
	char *original;
};

struct knob_files {
	struct knob_file *v;
	size_t n, alloc;
};

void knob_files_release(struct knob_files *kf);
/* The index of path in kf, or -1. */
long knob_files_find(const struct knob_files *kf, const char *path);

/* The files key names, added to kf (a file there already is not added
 * again), with their current settings; the indexes of key's files into
 * *idx (malloc'd, *nidx of them). key is "sysctl.NAME" (NAME with dots or
 * slashes, under /proc/sys) or "sysfs.PATH" (an absolute path under /sys,
 * a glob allowed; every match counts, and none is an error). where names
 * the config line for errors. Return 0, or -1 after saying why. */
int knob_expand(const char *key, const char *where, struct knob_files *kf, size_t **idx,
		size_t *nidx);
/* Whether key names a knob (starts with "sysctl." or "sysfs."). */
int knob_key(const char *key);

/* A knob's setting into value: the file's text with blanks folded; for a
 * file listing its choices with the current one in brackets ("always
 * [madvise] never") the bracketed word. Return 0, or -1 with errno set. */
int knob_read(const char *path, struct strbuf *value);
/* Write value to path and read it back; return 0 when it reads back as
 * written, else -1 with why in err ("permission denied", "the kernel
 * refused '5': Invalid argument", "reads back '8', not '5'"). */
int knob_write(const char *path, const char *value, struct strbuf *err);
/* Whether path reads as value (as knob_write checks it): 1, or 0 with
 * what it reads in now; -1 when it cannot be read (errno set). */
int knob_reads(const char *path, const char *value, struct strbuf *now);
/* value as knob_read gives a setting: blanks folded, the bracketed word of
 * a choice list; into out (reset first). */
void knob_normal(const char *value, struct strbuf *out);
/* Put back a knob a kbench that is gone left changed
 * (hostlock_restore_fn): path to original when it reads one of written
 * (values one a line, as knob_normal gives them; NULL: not known, any
 * value is written back). Nothing is read or written outside /sys and
 * /proc/sys. Return 0 when written back, 1 when it reads original
 * already, 2 when it reads something else (left as the admin set it:
 * "it reads '8', not '5' as kbench set it; left as set since" into err)
 * or is gone, -1 when it cannot be (why into err; counted by
 * knob_unrestored). */
int knob_restore_left(const char *path, const char *original, const char *written,
		      struct strbuf *err);
/* How many knobs knob_restore_left could not write back (said, their
 * journal rows dropped) in this process. */
int knob_unrestored(void);
/* Whether this process may write path; if not, why into err. */
int knob_writable(const char *path, struct strbuf *err);

/* Restore the knobs of journal rows whose writer is gone (on this host)
 * with knob_restore_left, say so ("restored 3 knobs left changed by
 * experiment #4 (pid 1234, gone)"), drop those rows, and mark such
 * experiments interrupted. A row of another boot, of a file that is gone
 * or reads a value the experiment did not write, or one that cannot be
 * written back is said and dropped too. s may be open read-only: a
 * writable store is then opened at the same path for the restore. Return
 * the count of knobs that could not be restored (said and dropped, or
 * left for later when another kbench holds the knobs or the store cannot
 * be written), or -1 when the store could not be read. */
int knob_recover(struct store *s, int writable);

/* Journal rows on this host whose writer is gone (knobs still to restore).
 * Return the count, or -1 when the store could not be read. */
long knob_left(struct store *s);

#endif
