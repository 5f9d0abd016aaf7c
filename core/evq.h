/*
 * core/evq.h - the rank's pending-event set: a ladder queue (Tang, Goh and
 * Thng, "Ladder Queue: An O(1) Priority Queue Structure for Large-Scale
 * Discrete Event Simulation", ACM TOMACS 15(3), 2005), bucketed on time
 * alone, with an exactly key-ordered bottom.
 *
 * Order (the deterministic ordering key, a total order):
 *     (time, dst component, src component, src sequence number)
 * No two events share a key (a source never reuses a sequence number), so
 * the pop order is fully defined and does not depend on insertion order,
 * which changes with the rank count.  A process-local insertion counter
 * would NOT be enough for that reason.  Pops come out in exactly the order
 * of evq_key_lt, whatever the times (0 .. SIM_TIME_MAX - 1), component ids
 * or number of events sharing one time.
 *
 * Structure (events move only downwards, each at most once per level):
 *   top     unsorted list of events at or after top_start
 *   rungs   rung r splits a time range into 2^shift-ps buckets of unsorted
 *           lists; rung r+1 refines one bucket of rung r.  A bucket with
 *           few events, or whose events all share one time (it can never
 *           be split by time), goes to the bottom instead.
 *   bottom  the earliest events: a run sorted by the full key (popped from
 *           its end) plus a small min-heap for events pushed later into the
 *           bottom's time range (zero-delay sends, early remote events).
 * Every event in the bottom is earlier than every event in a rung, rung
 * r+1 is earlier than rung r, and rung 0 is earlier than top.  While the
 * queue is not empty the bottom is not empty (after the first pop), so
 * evq_peek_time() is one load.
 *
 * Why a ladder queue: measured against the 4-ary heap it replaced, a binary
 * heap and a calendar queue on the PHOLD hold model (test/bench/evq_bench.c)
 * and in the engine itself: PHOLD on 1 rank runs 1.7x (4096 pending
 * events) to 2.5x (65536) the heap's events/s; the table is in core/evq.c.
 *
 * Complexity: push O(1) (O(log b) into a bottom of b events), pop O(1)
 * amortised for time distributions the buckets can split; a burst of k
 * events with one identical time costs O(k log k) once, to sort it.
 * Memory: 24 bytes per event in top or a rung, 32 in the bottom (plus room
 * for RUN_INSERT_MAX more before the run once a push has used it), 4 per
 * bucket; arrays grow to the peak and are reused (no allocation in steady
 * state), never shrink, and are freed by evq_destroy().  Not thread-safe:
 * one queue per rank.
 */
#ifndef CXL_CORE_EVQ_H
#define CXL_CORE_EVQ_H

#include <stddef.h>
#include <stdint.h>

#include "core/event.h"

#define EVQ_RUNGS 8          /* most rungs; deeper buckets are sorted */
#define EVQ_NIL UINT32_MAX   /* end of a node list */

typedef struct evq_entry evq_entry;
struct evq_entry {
	sim_time time; /* event time, ps */
	uint64_t tie;  /* (dst << 32) | src */
	uint64_t seq;  /* source's send counter */
	cxl_event *ev; /* the event */
};

/* A queued event in top or a rung: a node of an index-linked list. */
typedef struct evq_node evq_node;
struct evq_node {
	sim_time time; /* ev->time, ps (bucketing reads only this) */
	cxl_event *ev; /* the event; the rest of the key is read at sort time */
	uint32_t next; /* next node of the list, EVQ_NIL at the end */
};

/*
 * One rung: buckets [start + b*2^shift, start + (b+1)*2^shift), b < nb.
 * It holds the events with rcur <= time < (rung above's rcur, or top_start
 * for rung 0); buckets below `cur` are empty.
 */
typedef struct evq_rung evq_rung;
struct evq_rung {
	uint32_t *head; /* bucket list heads, EVQ_NIL if empty */
	size_t cap;     /* allocated heads */
	size_t nb;      /* buckets in use */
	size_t cur;     /* first bucket that may hold events */
	sim_time start; /* start of bucket 0, ps */
	sim_time rcur;  /* earliest time this rung accepts, ps */
	unsigned shift; /* bucket width is 2^shift ps */
};

/* A growable array of entries. */
typedef struct evq_vec evq_vec;
struct evq_vec {
	evq_entry *a; /* entries */
	size_t n;     /* in use */
	size_t cap;   /* allocated */
};

typedef struct evq evq;
struct evq {
	size_t n;                   /* events queued */
	sim_time min_time;          /* time of the minimum event, SIM_TIME_MAX if empty */
	evq_vec run;                /* bottom: sorted by key, descending (min at end) */
	size_t run_h;               /* room before run.a (its allocation starts at run.a -
				       run_h): a push may move later entries down into it
				       (evq.c run_insert) */
	evq_vec ins;                /* bottom: min-heap of events pushed after the sort */
	evq_vec scratch;            /* merge-sort buffer, swapped with run */
	uint32_t top;               /* top list head */
	size_t ntop;                /* events in top */
	sim_time top_min;           /* earliest time in top, ps */
	sim_time top_max;           /* latest time in top, ps */
	sim_time top_start;         /* events at or after this go to top, ps */
	evq_rung rung[EVQ_RUNGS];   /* rungs 0 .. nrungs-1, deeper = earlier, finer */
	size_t nrungs;              /* rungs in use */
	evq_node *node;             /* node store for top and rungs */
	uint32_t cap_node;          /* allocated nodes */
	uint32_t free_node;         /* free-node list head, EVQ_NIL if none */
	uint32_t *cnt;              /* digit counts of the one-time sort (evq.c) */
	size_t cap_cnt;             /* allocated counts */
};

/* evq_init - an empty queue; allocates nothing. */
void evq_init(evq *q);

/* evq_destroy - free the queue's memory (not the events it still holds). */
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

/* evq_entry_dst - the destination in @e's key (the high half of tie). */
static inline uint32_t evq_entry_dst(const evq_entry *e)
{
	return (uint32_t)(e->tie >> 32);
}

/*
 * evq_push - insert @ev: its time (< SIM_TIME_MAX), dst, src and seq must
 * be set and its owner must be CXL_OWN_QUEUE (asserted).  Any time is
 * accepted, including times before the current minimum.
 */
void evq_push(evq *q, cxl_event *ev);

/* evq__pop_slow - evq_pop when the bottom's heap holds events or the run is about to empty. */
cxl_event *evq__pop_slow(evq *q);

/*
 * evq_pop - remove and return the minimum event; the queue must not be
 * empty (asserted).  Inline for the common case, the next event at the end
 * of the sorted run with another behind it: a few loads and stores per event.
 */
static inline cxl_event *evq_pop(evq *q)
{
	evq_vec *r = &q->run;

	if (q->ins.n || r->n < 2)
		return evq__pop_slow(q);
	evq_entry *e = &r->a[--r->n];
	q->n--;
	q->min_time = e[-1].time;
	return e->ev;
}

/* evq_peek_time - time of the minimum event, SIM_TIME_MAX if empty. */
static inline sim_time evq_peek_time(const evq *q)
{
	return q->min_time;
}

/*
 * evq_peek_dst - destination of the minimum event if it is at the end of the
 * sorted run (the common case), else UINT32_MAX: a hint for prefetching,
 * read from the entry without touching the event.
 */
static inline uint32_t evq_peek_dst(const evq *q)
{
	return q->run.n && !q->ins.n ? evq_entry_dst(&q->run.a[q->run.n - 1]) : UINT32_MAX;
}

/* evq_size - events queued. */
static inline size_t evq_size(const evq *q)
{
	return q->n;
}

/*
 * evq_check - validate the whole structure: every event's owner and time,
 * the time ranges of top, rungs and bottom, bucket placement, the bottom's
 * order, the cached minimum, the count, and the node store (no lost or
 * doubly linked node).  Returns the number of violations (0 for a sound
 * queue).  O(n + nodes + buckets): for tests and debugging.
 */
size_t evq_check(const evq *q);

#endif
