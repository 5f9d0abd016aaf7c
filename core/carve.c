/*
 * core/carve.c - fixed-size elements carved out of chunks (carve.h).
 */
#include <stdlib.h>

#include "core/carve.h"
#include "core/xmalloc.h"

void *carve_take(carve *a, size_t per, size_t size)
{
	if (!a->n || a->used == per) {
		a->chunk = xrealloc(a->chunk, (a->n + 1) * sizeof(*a->chunk));
		a->chunk[a->n++] = xcalloc(per, size);
		a->used = 0;
	}
	return (char *)a->chunk[a->n - 1] + a->used++ * size;
}

void carve_free(carve *a)
{
	for (size_t k = 0; k < a->n; k++)
		free(a->chunk[k]);
	free(a->chunk);
	*a = (carve){ 0 };
}
