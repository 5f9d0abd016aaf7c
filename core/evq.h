/*
 * core/evq.h - the rank's pending-event set: an implicit 4-ary min-heap.
 *
 * Order (the deterministic ordering key, a total order):
 *     (time, dst component, src component, src sequence number)
 * No two events share a key (a source never reuses a sequence number), so
 * the pop order is fully defined and does not depend on insertion order,
 * which changes with the rank count.  A process-local insertion counter
 * would NOT be enough for that reason.
 *
 * Entries hold the key inline next to the event pointer (32 bytes), so
 * sifting touches only the heap array, never the events.  The 4-ary layout
 * puts a node's four children in one 128-byte span.  Why a 4-ary heap: it
 * was measured against a binary heap and a calendar queue on the PHOLD hold
 * model, see test/bench/evq_bench.c and the README section "Event queue".
 *
 * Complexity: push O(log4 n), pop O(4 log4 n), peek O(1).  Memory: 32 bytes
 * per pending event; the array doubles when full and never shrinks.
 */
#ifndef CXL_CORE_EVQ_H
#define CXL_CORE_EVQ_H

#include <stddef.h>
#include <stdint.h>

#include "core/event.h"

typedef struct evq_entry evq_entry;
struct evq_entry {
	sim_time time; /* event time, ps */
	uint64_t tie;  /* (dst << 32) | src */
	uint64_t seq;  /* source's send counter */
	cxl_event *ev; /* the event */
};

typedef struct evq evq;
struct evq {
	evq_entry *a; /* heap array, a[0] is the minimum */
	size_t n;     /* entries in use */
	size_t cap;   /* capacity of a */
};

void evq_init(evq *q);
void evq_destroy(evq *q);

/* evq_key_lt - true if entry @x orders strictly before @y. */
static inline int evq_key_lt(const evq_entry *x, const evq_entry *y)
{
	if (x->time != y->time)
		return x->time < y->time;
	if (x->tie != y->tie)
		return x->tie < y->tie;
	return x->seq < y->seq;
}

/* evq_entry_of - the queue entry (key + pointer) for @ev. */
static inline evq_entry evq_entry_of(cxl_event *ev)
{
	return (evq_entry){ ev->time, ((uint64_t)ev->dst << 32) | ev->src, ev->seq, ev };
}

/* evq_push - insert @ev (its time, dst, src and seq must be set). */
void evq_push(evq *q, cxl_event *ev);

/* evq_pop - remove and return the minimum event; the queue must not be empty. */
cxl_event *evq_pop(evq *q);

/* evq_peek_time - time of the minimum event, SIM_TIME_MAX if empty. */
static inline sim_time evq_peek_time(const evq *q)
{
	return q->n ? q->a[0].time : SIM_TIME_MAX;
}

static inline size_t evq_size(const evq *q)
{
	return q->n;
}

/*
 * evq_check - validate the heap property and owners; returns the number of
 * violations found (0 for a sound queue).  O(n): for tests and debug builds.
 */
size_t evq_check(const evq *q);

#endif
