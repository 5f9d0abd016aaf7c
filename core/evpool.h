/*
 * core/evpool.h - per-rank free list of events.
 *
 * Events are carved from slabs of EVPOOL_SLAB events; a slab is allocated
 * only when the free list is empty, so a run in steady state allocates
 * nothing.  Slabs are freed only by evpool_destroy().  Each pool belongs to
 * one rank (one engine); nothing here is thread-safe.
 *
 * Ownership: evpool_get() returns an event owned by the caller with `owner`
 * set to the requested tag; evpool_put() asserts the event is not already
 * in the pool (double free is a panic, not a silent corruption).
 */
#ifndef CXL_CORE_EVPOOL_H
#define CXL_CORE_EVPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "core/event.h"

#define EVPOOL_SLAB 4096

typedef struct evpool evpool;
struct evpool {
	cxl_event *free;   /* head of the free list */
	void **slabs;      /* every slab allocated, for destroy */
	size_t nslabs;     /* slabs in use */
	size_t cap_slabs;  /* capacity of `slabs` */
	uint64_t live;     /* events handed out and not yet returned */
	uint64_t peak;     /* highest `live` seen */
};

void evpool_init(evpool *p);
void evpool_destroy(evpool *p);
/* evpool__grow - add one slab of EVPOOL_SLAB events to the free list. */
void evpool__grow(evpool *p);

/*
 * evpool__v16 - 16 bytes of an event, for evpool_zero.  GCC's vector
 * extension; aligned(8): the stores must not assume more than the event has.
 */
typedef uint64_t evpool__v16 __attribute__((vector_size(16), aligned(8), may_alias));
_Static_assert(sizeof(cxl_event) == 6 * sizeof(evpool__v16), "evpool_zero clears 96 bytes");

/*
 * evpool_zero - clear @ev with six 16-byte stores.  Surprise: the struct
 * assignment `*ev = (cxl_event){ 0 }` compiles (GCC 12 -O2) to a 12-word
 * `rep stos`, which costs more instructions and has a slow start.
 */
static inline void evpool_zero(cxl_event *ev)
{
	evpool__v16 *w = (evpool__v16 *)ev, z = { 0, 0 };

	/* written out: as a loop, GCC makes it a memset, and that the `rep stos` again */
	w[0] = z, w[1] = z, w[2] = z, w[3] = z, w[4] = z, w[5] = z;
}

/* evpool_get - a zeroed event owned by @owner (an enum cxl_owner). */
static inline cxl_event *evpool_get(evpool *p, uint8_t owner)
{
	if (!p->free)
		evpool__grow(p);
	cxl_event *ev = p->free;
	p->free = ev->next_free;
	evpool_zero(ev);
	ev->owner = owner;
	if (++p->live > p->peak)
		p->peak = p->live;
	return ev;
}

/* evpool_put - return @ev to the pool; panics on a double free. */
void evpool__double_free(const cxl_event *ev);
static inline void evpool_put(evpool *p, cxl_event *ev)
{
	if (ev->owner == CXL_OWN_POOL)
		evpool__double_free(ev);
	ev->owner = CXL_OWN_POOL;
	ev->next_free = p->free;
	p->free = ev;
	p->live--;
}

#endif
