/* uuid: random (version 4) UUIDs, which name runs and experiments in every
 * store and bundle, and name-based ones (version 8) for runs whose identity
 * comes from elsewhere (an imported mmtests run). */
#ifndef KBENCH_UUID_H
#define KBENCH_UUID_H

/* A new random UUID in its 36-character text form, NUL-terminated, into
 * out. getrandom() supplies the bits; where it fails, a generator seeded
 * from the clock and the pid does, so that a name is always made. */
void uuid_random(char out[37]);

/* The UUID text names: the same text always gives the same UUID (two
 * 64-bit FNV-1a hashes of it, as version 8, RFC 4122 variant), so that
 * importing the same thing twice finds the run the first import added. */
void uuid_from_text(const char *text, char out[37]);

#endif
