/* xalloc: allocation with one contract for all of kbench: a failed
 * allocation prints "kbench: fatal: out of memory ..." and aborts, so no
 * caller checks for NULL and no out-of-memory path is threaded through. */
#ifndef KBENCH_XALLOC_H
#define KBENCH_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
/* Zeroed; n * size is checked for overflow. */
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *ptr, size_t size);
/* realloc to n elements of size bytes, the product checked for overflow. */
void *xreallocarray(void *ptr, size_t n, size_t size);
char *xstrdup(const char *s);
/* xstrdup of NULL is NULL. */
char *xstrdup_or_null(const char *s);
char *xstrndup(const char *s, size_t n);

/* The size to grow an array to so it holds at least `need` elements:
 * half as much again as now, at least 16. */
#define alloc_nr(x) (((x) + 16) * 3 / 2)

/* Make room for `nr` elements in the array x, which has `alloc` allocated:
 *
 *	ALLOC_GROW(list, n + 1, list_alloc);
 *	list[n++] = item;
 *
 * Grows geometrically, so appending one at a time is amortised O(1). */
#define ALLOC_GROW(x, nr, alloc) \
	do { \
		if ((size_t)(nr) > (alloc)) { \
			if (alloc_nr(alloc) < (size_t)(nr)) \
				(alloc) = (nr); \
			else \
				(alloc) = alloc_nr(alloc); \
			(x) = xreallocarray((x), (alloc), sizeof(*(x))); \
		} \
	} while (0)

#endif
