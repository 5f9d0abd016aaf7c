/*
 * models/coherence/sf.h - the DCOH's inclusive snoop filter as a data structure:
 * which requesters hold which lines of one memory device, and which entries
 * to evict when it is full (ESF §III-G, §V-B, §V-C).  No events, no
 * engine: the memory endpoint (mem.c) drives it and sends the BISnps.
 *
 * Entries: `entries` in total, in sets of `assoc` (0 = one fully
 * associative set).  A line L lives in set (L / SF_BLOCK) % nsets, so
 * SF_BLOCK contiguous lines share a set and an InvBlk can cover them.
 * An entry records the line, its owners (PBR ids of the requesters that
 * may cache it, at most SF_MAX_OWNERS) and whether one of them holds it
 * exclusively (may have written it).
 *
 * Victim policies (ESF §III-G), over the valid, unlocked entries of a set:
 *   FIFO  the entry inserted longest ago
 *   LRU   the entry used (inserted or hit: sf_touch) longest ago
 *   LFI   least frequently inserted: the line inserted the fewest times so
 *         far (a count per line over the whole run), ties to FIFO
 *   LIFO  the entry inserted last
 *   MRU   the entry used last
 * InvBlk (invblk_max > 1): block-length-prioritised selection, as ESF's
 * experiment: among the runs of contiguous lines present (valid, unlocked)
 * in the set, of length at most invblk_max and not crossing an SF_BLOCK
 * boundary, the longest; ties go to the run holding the most recently
 * inserted entry (LIFO).  invblk_max = 1 is the policy alone.
 *
 * Locking: entries chosen as victims are locked until sf_remove(); a locked
 * entry is never chosen again, nor counted free.  The caller locks the
 * entry of a line with a transaction in flight (sf_lock) so it is not
 * evicted under it.
 *
 * Determinism: everything depends only on the sequence of calls.  Memory:
 * fixed arrays sized at sf_init plus the LFI count table (grows with the
 * distinct lines inserted; allocation on growth only).  No allocation on
 * any other call.
 *
 * Cases the text above leaves open, as implemented (sf.c, sf_victim.c,
 * sf_invblk.c; additions, no change to the calls below):
 *  - the LFI count table exists only with policy LFI; other policies do
 *    not count insertions and never allocate after sf_create();
 *  - InvBlk ties that the newest entry does not break (it belongs to two
 *    equally long runs) go to the run whose next newest entry is newer;
 *    for invblk_max > 1 the policy plays no part (even with runs of one);
 *  - sf_victims chooses among the valid unlocked entries of the set even
 *    if the set still has a free slot;
 *  - sf_lock / sf_unlock are idempotent; an entry keeps its insertion and
 *    use positions while locked; sf_remove accepts a locked entry;
 *  - sf_add_owner returns 1 when @pbr is (now or already) an owner; owner
 *    order is kept on drop, and dropping owner[0] clears excl;
 *  - using an invalid entry where a valid one is required, or inserting a
 *    present line, is a caller bug: CXL_ASSERT panics.
 * Additions: sf_entries (iterate entries with sf_entry_at), sf_set_free,
 * sf_check (validator for tests and debug builds).
 *
 * Costs (any set size, fully associative included): sf_find, sf_insert,
 * sf_remove, sf_touch, sf_lock, sf_unlock O(1) expected; with LFI or
 * invblk_max > 1 the last four but sf_touch add O(log set size) for a
 * per-set heap.  sf_victims O(1), plus for FIFO/LRU/LIFO/MRU the locked
 * entries it walks past.
 */
#ifndef CXL_MODELS_SF_H
#define CXL_MODELS_SF_H

#include <stdint.h>

#include "core/ckpt.h"

#define SF_MAX_OWNERS 8      /* owners recorded per line */
#define SF_BLOCK 4           /* lines that share a set; the longest InvBlk */
#define SF_NONE UINT32_MAX   /* no entry */

enum sf_policy { SF_FIFO, SF_LRU, SF_LFI, SF_LIFO, SF_MRU, SF_NPOLICY };

typedef struct sf_params sf_params;
struct sf_params {
	uint32_t entries;        /* total entries (> 0; a multiple of assoc) */
	uint32_t assoc;          /* ways per set; 0 = fully associative */
	enum sf_policy policy;   /* victim policy */
	uint32_t invblk_max;     /* 1..SF_BLOCK: longest block one BISnp may cover */
};

typedef struct sf_entry sf_entry;
struct sf_entry {
	uint64_t line;                   /* line number (address / 64) */
	uint16_t owner[SF_MAX_OWNERS];   /* PBR ids, in the order they were added */
	uint8_t nowners;                 /* used entries of owner */
	uint8_t excl;                    /* 1: owner[0] holds it exclusively */
	uint8_t valid;                   /* 1: in use */
	uint8_t locked;                  /* 1: being evicted or in a transaction */
};

typedef struct sf sf;   /* body in sf_int.h */

/* sf_create - an empty filter; NULL with a message in @why (64 bytes) if @p is invalid. */
sf *sf_create(const sf_params *p, char *why);
void sf_destroy(sf *s);

/* sf_find - the valid entry of @line, or SF_NONE. */
uint32_t sf_find(const sf *s, uint64_t line);

/* sf_entry_at - entry @e (valid or not). */
sf_entry *sf_entry_at(sf *s, uint32_t e);

/* sf_touch - entry @e was hit (LRU and MRU order; the others ignore it). */
void sf_touch(sf *s, uint32_t e);

/*
 * sf_insert - a new entry for @line (not present) in a free slot of its
 * set, no owners, unlocked; counts the insertion (LFI).  SF_NONE if the
 * set has no free slot (evict first).
 */
uint32_t sf_insert(sf *s, uint64_t line);

/*
 * sf_victims - choose and lock the victims that make room in @line's set:
 * up to invblk_max contiguous lines by the rules above.  Writes their
 * entries in line order to @out (room for SF_BLOCK) and returns how many
 * (>= 1), or 0 if every valid entry of the set is locked.
 */
uint32_t sf_victims(sf *s, uint64_t line, uint32_t *out);

/* sf_lock / sf_unlock - keep entry @e from being chosen as a victim. */
void sf_lock(sf *s, uint32_t e);
void sf_unlock(sf *s, uint32_t e);

/* sf_remove - free entry @e (its owners are gone). */
void sf_remove(sf *s, uint32_t e);

/* Owners: add (no-op if present; returns 0 if SF_MAX_OWNERS are taken), drop. */
int sf_add_owner(sf *s, uint32_t e, uint16_t pbr);
void sf_drop_owner(sf *s, uint32_t e, uint16_t pbr);

/* sf_count - valid entries now (all sets). */
uint32_t sf_count(const sf *s);

/* sf_entries - entry slots (params.entries); entries are 0 .. sf_entries() - 1. */
uint32_t sf_entries(const sf *s);

/* sf_set_free - free slots in @line's set (sf_insert of @line succeeds iff > 0). */
uint32_t sf_set_free(const sf *s, uint64_t line);

/*
 * sf_ckpt - save or restore (core/ckpt.h) the filter's contents: entries,
 * lists, index and the policy's tables (sf_ckpt.c).  Loading, @s must have
 * been created with the same parameters.
 */
void sf_ckpt(sf *s, ckpt *k);

/*
 * sf_check - walk every internal structure and panic (CXL_PANIC) on the
 * first broken invariant; returns sf_count().  O(entries): tests and debug
 * builds only.
 */
uint32_t sf_check(const sf *s);

#endif
