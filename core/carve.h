/*
 * core/carve.h - fixed-size elements carved out of chunks: storage taken at
 * registration time whose elements never move (pointers to them stay
 * valid) and lie in the order they were taken, so one component's lie
 * together.  The statistics (entries, counter values) and the time series
 * take theirs this way.
 */
#ifndef CXL_CORE_CARVE_H
#define CXL_CORE_CARVE_H

#include <stddef.h>

typedef struct carve carve;
struct carve {
	void **chunk; /* chunks allocated, `per` elements each */
	size_t n;     /* chunks */
	size_t used;  /* elements used in the last chunk */
};

/* carve_take - the next zeroed element of @size bytes, @per to a chunk (the same every call). */
void *carve_take(carve *a, size_t per, size_t size);

/* carve_free - free every chunk; @a is empty again. */
void carve_free(carve *a);

#endif
