/* uuid: random (version 4) UUIDs, which name runs and experiments in every
 * store and bundle. */
#ifndef KBENCH_UUID_H
#define KBENCH_UUID_H

/* A new random UUID in its 36-character text form, NUL-terminated, into
 * out. getrandom() supplies the bits; where it fails, a generator seeded
 * from the clock and the pid does, so that a name is always made. */
void uuid_random(char out[37]);

#endif
