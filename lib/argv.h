/* argv: a command line split into words as a POSIX shell splits it, for
 * running a program without a shell (execvp): blanks separate words,
 * quotes and backslashes work as in sh, and nothing is expanded. */
#ifndef KBENCH_ARGV_H
#define KBENCH_ARGV_H

#include <stddef.h>

struct strbuf;

/* A NULL-terminated array of words, as execvp takes it. */
struct argv_list {
	char **v;		/* v[n] is NULL once a word was pushed */
	size_t n, alloc;
};

#define ARGV_LIST_INIT { .v = NULL, .n = 0, .alloc = 0 }

/* Append a copy of word. */
void argv_list_push(struct argv_list *a, const char *word);
/* Free every word and leave a empty but usable. */
void argv_list_release(struct argv_list *a);

/* Split line into words appended to out, as sh would split it:
 *
 *   blanks (space, tab, newline) separate words;
 *   '...' keeps everything inside as it is;
 *   "..." keeps everything inside, but \" \\ \$ \` stand for the second
 *   character and backslash-newline for nothing;
 *   a backslash outside quotes keeps the next character as it is;
 *   '' and "" make an empty word.
 *
 * Nothing is expanded ($VAR, globs, ~) and there are no operators: an
 * unquoted | & ; < > ( ) $ ` or a # starting a word is refused, since it
 * would mean something else to a shell. Return 0, or -1 with the reason
 * in err ("unterminated single quote", ...); out keeps the words split
 * before the error. */
int argv_split(const char *line, struct argv_list *out, struct strbuf *err);

/* Append the n words of v to sb as one line a shell would split back into
 * them: a word holding anything but letters, digits and -_./:=@%+,
 * (or empty) is put in single quotes. For messages and logs. */
void argv_quote(char *const *v, size_t n, struct strbuf *sb);

#endif
