/* internal: what the fleet's own files share and no other room needs. */
#ifndef KBENCH_FLEET_INTERNAL_H
#define KBENCH_FLEET_INTERNAL_H

struct strbuf;

/* argv as one line, words separated by blanks, for messages. */
void fleet_add_cmdline(struct strbuf *sb, const char *const *argv);

#endif
