/* argv: split a command line into words like sh, without running one. */
#include "config.h"
#include "lib/argv.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <stdlib.h>
#include <string.h>

void argv_list_push(struct argv_list *a, const char *word)
{
	ALLOC_GROW(a->v, a->n + 2, a->alloc);
	a->v[a->n++] = xstrdup(word);
	a->v[a->n] = NULL;
}

void argv_list_release(struct argv_list *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = a->alloc = 0;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

int argv_split(const char *line, struct argv_list *out, struct strbuf *err)
{
	struct strbuf word = STRBUF_INIT;
	const char *s = line;
	int rc = -1;

	for (;;) {
		int in_word = 0;

		while (is_blank(*s))
			s++;
		if (!*s)
			break;
		if (*s == '#') {
			strbuf_addstr(err, "'#' starts a comment in a shell: quote it, or set "
				    "shell = yes");
			goto out;
		}
		strbuf_reset(&word);
		while (*s && !is_blank(*s)) {
			if (*s == '\\' && s[1] == '\n') {
				s += 2;		/* a line continued: no character */
				continue;
			}
			in_word = 1;
			if (*s == '\'') {
				const char *end = strchr(s + 1, '\'');

				if (!end) {
					strbuf_addstr(err, "unterminated single quote");
					goto out;
				}
				strbuf_add(&word, s + 1, (size_t)(end - s - 1));
				s = end + 1;
			} else if (*s == '"') {
				for (s++; *s != '"'; s++) {
					if (!*s) {
						strbuf_addstr(err, "unterminated double quote");
						goto out;
					}
					if (*s == '\\' && s[1] == '\n') {
						s++;
						continue;
					}
					if (*s == '\\' && s[1] && strchr("\"\\$`", s[1]))
						s++;
					strbuf_addch(&word, *s);
				}
				s++;
			} else if (*s == '\\') {
				if (!s[1]) {
					strbuf_addstr(err, "backslash at the end of the line");
					goto out;
				}
				strbuf_addch(&word, s[1]);
				s += 2;
			} else if (strchr("|&;<>()$`", *s)) {
				strbuf_addf(err, "'%c' means something to a shell but none runs "
					    "this command: quote it, or set shell = yes", *s);
				goto out;
			} else {
				strbuf_addch(&word, *s++);
			}
		}
		if (in_word)
			argv_list_push(out, word.buf);
	}
	rc = 0;
out:
	strbuf_release(&word);
	return rc;
}

void argv_quote(char *const *v, size_t n, struct strbuf *sb)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789-_./:=@%+,";

	for (size_t i = 0; i < n; i++) {
		const char *w = v[i];

		if (i)
			strbuf_addch(sb, ' ');
		if (*w && strspn(w, plain) == strlen(w)) {
			strbuf_addstr(sb, w);
			continue;
		}
		strbuf_addch(sb, '\'');
		for (; *w; w++) {
			if (*w == '\'')
				strbuf_addstr(sb, "'\\''");
			else
				strbuf_addch(sb, *w);
		}
		strbuf_addch(sb, '\'');
	}
}
