/* fsfile: making a directory with its parents, and copying a file whole
 * and synced: the one way each is done. */
#ifndef KBENCH_FSFILE_H
#define KBENCH_FSFILE_H

struct strbuf;

/* Make the directory path and each missing parent (mode 0755); one that
 * exists is fine. Return 0, or -1 with errno set and, when err is not
 * NULL, "cannot create directory 'DIR': ..." appended to err, DIR the
 * one that could not be made. */
int mkdir_p(const char *path, struct strbuf *err);

/* copy_file() flags. */
#define COPY_NEW	1	/* to must not exist: it is made (else truncated) */
#define COPY_NOFOLLOW	2	/* from must be a regular file, not a symbolic link */

/* Copy the bytes of the file from into the file to and fsync it. Return
 * 0, or -1 with err appended: "cannot open 'FROM': ..." ("...: it is a
 * symbolic link", "...: not a regular file" with COPY_NOFOLLOW), "cannot
 * create 'TO': ..." (COPY_NEW) or "cannot write 'TO': ...", "cannot read
 * 'FROM': ..."; a file to made by COPY_NEW is removed again. */
int copy_file(const char *from, const char *to, unsigned flags, struct strbuf *err);

#endif
