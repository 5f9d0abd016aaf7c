/*
 * models/proto/evring.h - a fixed-capacity FIFO of kept events (packets a model
 * holds in a buffer), for the data-path models' input and output buffers.
 *
 * The capacity is set once (from the model's buffer size, which its credits
 * already bound), so pushing never allocates: a push on a full ring is a
 * broken flow-control invariant and panics.  Events in a ring are owned by
 * the model (sim_event_keep).
 */
#ifndef CXL_MODELS_EVRING_H
#define CXL_MODELS_EVRING_H

#include <stdint.h>
#include <stdlib.h>

#include "core/err.h"
#include "core/event.h"
#include "core/sim.h"

typedef struct evring evring;
struct evring {
	cxl_event **e; /* slots */
	uint32_t cap;  /* slots allocated */
	uint32_t head; /* index of the oldest event */
	uint32_t n;    /* events held */
};

/* evring_init - @r with room for @cap events (allocates once). */
static inline void evring_init(evring *r, uint32_t cap, cxl_event **slots)
{
	*r = (evring){ .e = slots, .cap = cap };
}

static inline void evring_push(evring *r, cxl_event *ev)
{
	CXL_ASSERT(r->n < r->cap);
	r->e[(r->head + r->n++) % r->cap] = ev;
}

/* evring_peek - the oldest event, NULL if empty. */
static inline cxl_event *evring_peek(const evring *r)
{
	return r->n ? r->e[r->head] : NULL;
}

/*
 * evring_pop - remove the oldest event.  A ring that empties starts again
 * at slot 0: most rings hold a packet or two at a time, so they keep to
 * their first cache line instead of cycling through all their slots (on
 * rack-4096 the FIFOs' storage is 25 MB, each ring 4 lines of pointers).
 */
static inline cxl_event *evring_pop(evring *r)
{
	CXL_ASSERT(r->n > 0);
	cxl_event *ev = r->e[r->head];
	r->head = --r->n ? (r->head + 1) % r->cap : 0;
	return ev;
}

/* evring_free_all - return every held event to @c's pool (end of run); the count. */
static inline uint32_t evring_free_all(sim_comp *c, evring *r)
{
	uint32_t n = 0;

	for (; r->n; n++)
		sim_event_free(c, evring_pop(r));
	return n;
}

/*
 * evring_ckpt - save or restore @r's events for a checkpoint (core/ckpt.h),
 * oldest first; restored, they start at slot 0 (what init kept is freed).
 */
static inline void evring_ckpt(evring *r, ckpt *k)
{
	uint32_t n = ckpt_count(k, r->n, r->cap);

	if (ckpt_loading(k)) {
		evring_free_all(k->c, r);
		r->head = 0;
		for (uint32_t i = 0; i < n; i++)
			r->e[i] = NULL;
		r->n = n;
	}
	for (uint32_t i = 0; i < n; i++)
		ckpt_event(k, &r->e[(r->head + i) % r->cap]);
}

#endif
