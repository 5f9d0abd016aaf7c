/*
 * core/xmalloc.c - allocation wrappers that panic on failure (see xmalloc.h).
 */
#include "core/xmalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		CXL_PANIC("out of memory allocating %zu bytes", n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);

	if (!p)
		CXL_PANIC("out of memory allocating %zu x %zu bytes", count, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		CXL_PANIC("out of memory reallocating %zu bytes", n);
	return q;
}

void *xcalloc_lines(size_t count, size_t size)
{
	size_t n;

	if (__builtin_mul_overflow(count ? count : 1, size ? size : 1, &n) || n > SIZE_MAX - 63)
		CXL_PANIC("out of memory allocating %zu x %zu bytes", count, size);
	n = (n + 63) & ~(size_t)63; /* aligned_alloc wants a multiple of the alignment */
	void *p = aligned_alloc(64, n);
	if (!p)
		CXL_PANIC("out of memory allocating %zu x %zu bytes", count, size);
	memset(p, 0, n);
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}
