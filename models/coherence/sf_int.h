/*
 * models/coherence/sf_int.h - internals of the snoop filter (sf.h), shared by sf.c
 * (create, the hash index, insert/remove/touch/lock, owners), sf_victim.c
 * (sf_victims, the single-victim policies), sf_invblk.c (InvBlk group
 * records), sf_lfi.c (the LFI count table), sf_heap.c (the indexed heap
 * both of those use) and sf_check.c (the validator), and readable by
 * tests.  Callers use sf.h only.
 *
 * Layout: entry e belongs to set e / ways for its whole life (ways =
 * entries / nsets), so a set's entries are the slice [set * ways, (set + 1)
 * * ways) of every per-entry array.  Per set:
 *   - the insertion list: its valid entries, oldest first (ins links);
 *   - the use list: its valid entries, least recently used first (use
 *     links; an insertion or sf_touch moves an entry to the tail);
 *   - the free list: its invalid entries, singly linked through ins.next,
 *     popped from the head (entries start in index order);
 *   - LFI only: a binary min-heap of its valid *unlocked* entries keyed by
 *     (insertion count of the line when it was inserted, insertion
 *     sequence), stored in the slice [set * ways, set * ways + nheap) of
 *     `heap`, with hpos[e] the position of e in it (SF_NONE: not in it).
 * Locked entries stay in both lists (victim walks skip them) but leave the
 * LFI heap, so the heap's top is always the LFI victim.
 *
 * InvBlk (invblk_max > 1 only): one group record per SF_BLOCK-aligned group
 * with a valid entry (grp; grec[e] is entry e's record), holding the key of
 * the group's best candidate run (sf_invblk.c), and per set a binary
 * max-heap of the records whose key is not empty (some line unlocked), in
 * the slice [set * ways, set * ways + ngheap) of `gheap`.  A set has at
 * most `ways` groups, so records are allocated from the set's slice of
 * `grp` through a per-set free list.  A record changes only when one of
 * its lines is inserted, removed, locked or unlocked.
 *
 * The hash index maps line -> entry for every valid entry: open
 * addressing, linear probing, 2^idx_bits >= 2 * entries slots (load <=
 * 1/2), Fibonacci hashing (sf__hash), deletion by backward shift (no
 * tombstones, so probe lengths do not degrade over a long run).
 *
 * The LFI count table maps line -> number of times it was inserted, over
 * the whole run: open addressing, linear probing, count 0 marks an empty
 * slot, doubled (rehash) when it would pass load 1/2.  It exists only when
 * the policy is LFI.  The count of a valid entry's line cannot change while
 * the entry is valid (a present line is never inserted), so it is copied
 * into lcount[e] at insertion and the heap never needs re-keying.
 */
#ifndef CXL_MODELS_SF_INT_H
#define CXL_MODELS_SF_INT_H

#include <stdint.h>

#include "models/coherence/sf.h"

#define SF_MAX_ENTRIES (UINT32_C(1) << 30)  /* keeps 2 * entries index slots in uint32 */
#define SF_LFI_MIN_SLOTS 64                  /* smallest LFI count table */

typedef struct sf_link sf_link;
struct sf_link {
	uint32_t prev;   /* previous entry in the list, SF_NONE at the head */
	uint32_t next;   /* next entry in the list, SF_NONE at the tail */
};

typedef struct sf_set sf_set;
struct sf_set {
	uint32_t ins_head;   /* oldest inserted valid entry, SF_NONE if none */
	uint32_t ins_tail;   /* newest inserted valid entry */
	uint32_t use_head;   /* least recently used valid entry */
	uint32_t use_tail;   /* most recently used valid entry */
	uint32_t free;       /* first free (invalid) entry, SF_NONE if the set is full */
	uint32_t nvalid;     /* valid entries (locked or not) */
	uint32_t nheap;      /* LFI: entries in the heap (valid and unlocked) */
	uint32_t gfree;      /* InvBlk: first free group record, SF_NONE if none */
	uint32_t ngheap;     /* InvBlk: group records in the heap */
};

typedef struct sf_grp sf_grp;
struct sf_grp {
	uint64_t base;            /* first line of the group (a multiple of SF_BLOCK) */
	uint64_t key[SF_BLOCK];   /* insertion sequence numbers of its best run, newest first */
	uint32_t len;             /* length of its best run; 0: every valid line locked */
	uint32_t nvalid;          /* valid entries in the group; 0: record free */
	uint32_t next_free;       /* next free record of the set (free records only) */
};

typedef struct sf_slot sf_slot;
struct sf_slot {
	uint64_t line;   /* key: the line of entry e (meaningless when e == SF_NONE) */
	uint32_t e;      /* entry, SF_NONE = empty slot */
};

typedef struct sf_lfi sf_lfi;
struct sf_lfi {
	uint64_t *line;   /* key per slot */
	uint32_t *count;  /* insertions of the slot's line (saturating), 0 = empty slot */
	uint64_t nslots;  /* slots, a power of two (0: no table, policy is not LFI) */
	uint64_t used;    /* occupied slots */
	unsigned bits;    /* log2(nslots) */
};

struct sf {
	sf_params p;         /* parameters as given (assoc 0 kept) */
	uint32_t nsets;      /* sets (1 if fully associative) */
	uint32_t ways;       /* entries per set */
	uint32_t count;      /* valid entries, all sets */
	uint64_t seq_next;   /* insertion sequence number of the next sf_insert */
	sf_entry *ent;       /* [entries] the entries */
	uint64_t *seq;       /* [entries] insertion sequence number of a valid entry */
	sf_link *ins;        /* [entries] insertion-list links (free list: next only) */
	sf_link *use;        /* [entries] use-list links */
	sf_set *set;         /* [nsets] list heads and counts */
	sf_slot *idx;        /* [1 << idx_bits] hash index line -> entry */
	uint32_t idx_mask;   /* (1 << idx_bits) - 1 */
	unsigned idx_bits;   /* log2 of the index size */
	uint32_t *lcount;    /* [entries] LFI: count of the line at its insertion (NULL otherwise) */
	uint32_t *heap;      /* [entries] LFI: per-set heaps of entries (NULL otherwise) */
	uint32_t *hpos;      /* [entries] LFI: position in its set's heap, SF_NONE if out */
	sf_lfi lfi;          /* LFI: insertion count per line ever inserted */
	sf_grp *grp;         /* [entries] InvBlk: group records (NULL if invblk_max 1) */
	uint32_t *grec;      /* [entries] InvBlk: group record of a valid entry */
	uint32_t *gheap;     /* [entries] InvBlk: per-set heaps of group records */
	uint32_t *ghpos;     /* [entries] InvBlk: position of a record in its heap, SF_NONE if out */
};

/*
 * An indexed binary heap over ids (entries or group records) in one set's
 * slice (sf_heap.c): h[0] is the top, pos[id] is the place of id in h
 * (SF_NONE: not in the heap), before(s, a, b) says a belongs above b.
 * Push, delete and re-key (fix) are O(log n); ids are never duplicated.
 */
typedef int sf_before_fn(const sf *s, uint32_t a, uint32_t b);

typedef struct sf_heap sf_heap;
struct sf_heap {
	uint32_t *h;            /* the set's slice; h[0] is the top */
	uint32_t *pos;          /* place of each id in h, SF_NONE if out (indexed by id) */
	uint32_t *n;            /* ids in the heap */
	sf_before_fn *before;   /* heap order */
};

void sf__heap_push(const sf *s, const sf_heap *hp, uint32_t id);
void sf__heap_del(const sf *s, const sf_heap *hp, uint32_t id);
void sf__heap_fix(const sf *s, const sf_heap *hp, uint32_t id);
int sf__heap_ok(const sf *s, const sf_heap *hp);

/* sf__hash - Fibonacci hash of @line to @bits bits (1 <= bits <= 63). */
static inline uint64_t sf__hash(uint64_t line, unsigned bits)
{
	return (line * UINT64_C(0x9e3779b97f4a7c15)) >> (64 - bits);
}

/* sf__set_of - set index of @line. */
static inline uint32_t sf__set_of(const sf *s, uint64_t line)
{
	return (uint32_t)((line / SF_BLOCK) % s->nsets);
}

/* sf__set_base - first entry of set @set. */
static inline uint32_t sf__set_base(const sf *s, uint32_t set)
{
	return set * s->ways;
}

/* sf_lfi.c: the count table and the per-set heaps (policy LFI only). */
void sf__lfi_init(sf *s);
void sf__lfi_free(sf *s);
uint32_t sf__lfi_bump(sf *s, uint64_t line);
uint32_t sf__lfi_count(const sf *s, uint64_t line);
sf_heap sf__lfi_heap(const sf *s, uint32_t set);
void sf__lfi_add(sf *s, uint32_t e);
void sf__lfi_del(sf *s, uint32_t e);

/* sf_victim.c: the single victim of the set's policy (SF_NONE if all locked). */
uint32_t sf__policy_victim(const sf *s, uint32_t set);

/* sf_invblk.c: group records and heaps (invblk_max > 1 only). */
void sf__grp_init(sf *s);
void sf__grp_free(sf *s);
void sf__grp_insert(sf *s, uint32_t e);
void sf__grp_remove(sf *s, uint32_t e);
void sf__grp_refresh(sf *s, uint32_t r);
sf_heap sf__grp_heap(const sf *s, uint32_t set);
uint32_t sf__grp_best(const sf *s, uint64_t base, uint32_t *run, uint64_t *key);
uint32_t sf__invblk_victims(const sf *s, uint32_t set, uint32_t *out);

#endif
