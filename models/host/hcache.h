/*
 * models/host/hcache.h - the requester's local cache as a data structure:
 * set-associative, write-back, LRU within a set (ESF §III-D: the
 * requester's cache coherence management unit, whose cache filters hits
 * and answers back-invalidation snoops).  No events: req.c drives it.
 *
 * Lines are HCACHE_CLEAN (may be shared with other caches) or HCACHE_DIRTY
 * (held exclusively and written); absent lines are HCACHE_INVALID.  Line L
 * lives in set L % nsets.  Memory: one tag, one state byte and one LRU stamp
 * per way, allocated at init; nothing allocates afterwards.  A checkpoint
 * (hcache_ckpt) carries the contents, never the geometry.
 */
#ifndef CXL_MODELS_HCACHE_H
#define CXL_MODELS_HCACHE_H

#include <stdint.h>

#include "core/ckpt.h"

/* EXCL: clean, but granted exclusively (a device-homed line, dev.h): a store hits it */
enum hcache_state { HCACHE_INVALID, HCACHE_CLEAN, HCACHE_DIRTY, HCACHE_EXCL };

typedef struct hcache hcache;
struct hcache {
	uint64_t *tag;     /* [set * assoc + way] line number */
	uint64_t *used;    /* [set * assoc + way] LRU stamp of the last use */
	uint8_t *state;    /* [set * assoc + way] enum hcache_state */
	uint32_t nsets;    /* sets */
	uint32_t assoc;    /* ways per set */
	uint64_t clock;    /* LRU stamp counter */
	uint64_t nvalid;   /* valid lines now */
};

/*
 * hcache_init - a cache of @lines lines (> 0) in sets of @assoc ways
 * (0 or >= @lines: fully associative).  @lines must be a multiple of the
 * ways.  Return: 0, or -1 with a reason in @why (128 bytes).
 */
int hcache_init(hcache *h, uint64_t lines, uint32_t assoc, char *why);
void hcache_free(hcache *h);

/* hcache_lookup - state of @line; a valid line counts as used (LRU). */
enum hcache_state hcache_lookup(hcache *h, uint64_t line);

/* hcache_peek - state of @line, without touching LRU. */
enum hcache_state hcache_peek(const hcache *h, uint64_t line);

/*
 * hcache_fill - install @line in @state (CLEAN or DIRTY); if present, just
 * set its state.  Evicts the LRU way of a full set: OUT *@victim and the
 * return value are its line and state (HCACHE_INVALID: nothing evicted).
 */
enum hcache_state hcache_fill(hcache *h, uint64_t line, enum hcache_state state,
			      uint64_t *victim);

/* hcache_invalidate - drop @line; returns the state it had. */
enum hcache_state hcache_invalidate(hcache *h, uint64_t line);

/*
 * hcache_ckpt - save or restore the contents of @h (tags, states, LRU
 * stamps, clock) with visitor @k (core/ckpt.h).  @h is set up by
 * hcache_init() with the config's geometry in both directions; a saved
 * cache of another geometry fails the visitor.
 */
void hcache_ckpt(hcache *h, ckpt *k);

#endif
