/*
 * core/xmalloc.h - allocation that never returns NULL.
 *
 * Out of memory is not a recoverable error in a simulator: these wrappers
 * panic (rank, file, line) instead of returning NULL.  Hot paths never call
 * them per event; they are for setup and for pool growth (see evpool.h).
 */
#ifndef CXL_CORE_XMALLOC_H
#define CXL_CORE_XMALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* xcalloc_lines - @count x @size zeroed bytes starting on a 64-byte cache line; free() frees them. */
void *xcalloc_lines(size_t count, size_t size);

#endif
