/*
 * models/coherence/sf_check.c - the snoop filter's validator (sf_check): walks every
 * list, the hash index, the LFI heaps and count table, and panics with the
 * first broken invariant it finds.  O(entries + index slots + LFI table
 * slots); for tests and debug builds (callers wrap it in #ifndef NDEBUG),
 * never per event in a release run.
 *
 * Invariants (sf_int.h): per set, the insertion list holds exactly the
 * valid entries in increasing insertion sequence, the use list the same
 * entries, the free list exactly the invalid ones, all inside the set's
 * slice; the index holds exactly the valid entries, each reachable from its
 * line; owners are distinct and at most SF_MAX_OWNERS; invalid entries are
 * unlocked.  LFI: each set's heap holds exactly its valid unlocked entries
 * in heap order with hpos matching, and lcount[e] is the current count of
 * the line (it cannot have changed while e was valid).  InvBlk: each group
 * record in use holds exactly the valid entries of its group's lines, all
 * in the record's set and pointing back to it, its key equals a fresh
 * sf__grp_best, it is in the set's heap iff that key is not empty, the
 * heap is in order, and the free records form the set's free list.
 */
#include "models/coherence/sf.h"

#include <string.h>

#include "core/err.h"
#include "models/coherence/sf_int.h"

#define BAD(...) CXL_PANIC("sf_check: " __VA_ARGS__)

/* Walk a list from @head; returns its length; every member valid and in @set. */
static uint32_t check_list(const sf *s, const sf_link *l, uint32_t set, uint32_t head,
			   uint32_t tail, const char *what)
{
	uint32_t n = 0, prev = SF_NONE;
	uint32_t base = sf__set_base(s, set);

	for (uint32_t e = head; e != SF_NONE; prev = e, e = l[e].next) {
		if (e < base || e >= base + s->ways || n++ == s->ways)
			BAD("set %u %s list: entry %u out of the set or a cycle", set, what, e);
		if (!s->ent[e].valid || l[e].prev != prev)
			BAD("set %u %s list: entry %u invalid or bad prev link", set, what, e);
		if (l == s->ins && prev != SF_NONE && s->seq[prev] >= s->seq[e])
			BAD("set %u insertion list out of order at entry %u", set, e);
	}
	if (prev != tail)
		BAD("set %u %s list: tail %u, last entry %u", set, what, tail, prev);
	return n;
}

static void check_set(const sf *s, uint32_t set)
{
	const sf_set *st = &s->set[set];
	uint32_t base = sf__set_base(s, set), nfree = 0;

	if (check_list(s, s->ins, set, st->ins_head, st->ins_tail, "insertion") != st->nvalid)
		BAD("set %u: insertion list length != nvalid %u", set, st->nvalid);
	if (check_list(s, s->use, set, st->use_head, st->use_tail, "use") != st->nvalid)
		BAD("set %u: use list length != nvalid %u", set, st->nvalid);
	for (uint32_t e = st->free; e != SF_NONE; e = s->ins[e].next) {
		if (e < base || e >= base + s->ways || nfree++ == s->ways || s->ent[e].valid)
			BAD("set %u free list: entry %u out of the set, valid, or a cycle", set, e);
	}
	if (nfree + st->nvalid != s->ways)
		BAD("set %u: %u free + %u valid != %u ways", set, nfree, st->nvalid, s->ways);
}

static void check_entry(const sf *s, uint32_t e)
{
	const sf_entry *en = &s->ent[e];

	if (!en->valid) {
		if (en->locked || en->nowners)
			BAD("invalid entry %u locked or owned", e);
		return;
	}
	if (sf_find(s, en->line) != e)
		BAD("entry %u (line %llu) not found by its line", e, (unsigned long long)en->line);
	if (en->nowners > SF_MAX_OWNERS)
		BAD("entry %u: %u owners", e, en->nowners);
	for (unsigned i = 0; i < en->nowners; i++)
		for (unsigned j = i + 1; j < en->nowners; j++)
			if (en->owner[i] == en->owner[j])
				BAD("entry %u: owner %u twice", e, en->owner[i]);
}

static void check_index(const sf *s)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i <= s->idx_mask; i++) {
		const sf_slot *slot = &s->idx[i];

		if (slot->e == SF_NONE)
			continue;
		n++;
		if (slot->e >= s->p.entries || !s->ent[slot->e].valid ||
		    s->ent[slot->e].line != slot->line)
			BAD("index slot %u: entry %u stale", i, slot->e);
	}
	if (n != s->count)
		BAD("index holds %u entries, count %u", n, s->count);
}

static void check_lfi_set(const sf *s, uint32_t set)
{
	const sf_heap hp = sf__lfi_heap(s, set);
	uint32_t base = sf__set_base(s, set), unlocked = 0;

	if (!sf__heap_ok(s, &hp))
		BAD("set %u: LFI heap out of order or misplaced", set);
	for (uint32_t e = base; e < base + s->ways; e++) {
		int in = s->ent[e].valid && !s->ent[e].locked;

		unlocked += (uint32_t)in;
		if (in != (s->hpos[e] != SF_NONE))
			BAD("entry %u: in LFI heap %d, valid and unlocked %d", e, !in, in);
		if (in && s->lcount[e] != sf__lfi_count(s, s->ent[e].line))
			BAD("entry %u: lcount %u != table count", e, s->lcount[e]);
	}
	if (unlocked != *hp.n)
		BAD("set %u: LFI heap size %u, valid unlocked %u", set, *hp.n, unlocked);
}

/* One InvBlk group record in use: members, count and key as recomputed. */
static void check_grp(const sf *s, uint32_t r)
{
	const sf_grp *g = &s->grp[r];
	uint64_t key[SF_BLOCK];
	uint32_t n = 0;

	for (uint32_t i = 0; i < SF_BLOCK; i++) {
		uint32_t e = sf_find(s, g->base + i);

		if (e == SF_NONE)
			continue;
		n++;
		if (s->grec[e] != r || e / s->ways != r / s->ways)
			BAD("entry %u (group %u) not in record %u of its set", e, s->grec[e], r);
	}
	if (n != g->nvalid || g->base % SF_BLOCK)
		BAD("group record %u: %u valid lines, recorded %u", r, n, g->nvalid);
	if (sf__grp_best(s, g->base, NULL, key) != g->len ||
	    memcmp(key, g->key, sizeof(key)))
		BAD("group record %u: stale key (len %u)", r, g->len);
	if ((g->len > 0) != (s->ghpos[r] != SF_NONE))
		BAD("group record %u: len %u but in heap %d", r, g->len, s->ghpos[r] != SF_NONE);
}

static void check_grp_set(const sf *s, uint32_t set)
{
	const sf_heap hp = sf__grp_heap(s, set);
	uint32_t base = sf__set_base(s, set), used = 0, nfree = 0, inheap = 0, nvalid = 0;

	if (!sf__heap_ok(s, &hp))
		BAD("set %u: group heap out of order or misplaced", set);
	for (uint32_t r = base; r < base + s->ways; r++) {
		if (!s->grp[r].nvalid) {
			if (s->ghpos[r] != SF_NONE)
				BAD("free group record %u in the heap", r);
			continue;
		}
		used++;
		nvalid += s->grp[r].nvalid;
		inheap += s->ghpos[r] != SF_NONE;
		check_grp(s, r);
	}
	for (uint32_t r = s->set[set].gfree; r != SF_NONE; r = s->grp[r].next_free)
		if (r < base || r >= base + s->ways || s->grp[r].nvalid || ++nfree > s->ways)
			BAD("set %u: group free list broken at %u", set, r);
	if (used + nfree != s->ways || inheap != *hp.n || nvalid != s->set[set].nvalid)
		BAD("set %u: %u group records used, %u free, %u in heap (size %u)", set, used,
		    nfree, inheap, *hp.n);
}

static void check_lfi_table(const sf *s)
{
	uint64_t used = 0;

	for (uint64_t i = 0; i < s->lfi.nslots; i++)
		used += s->lfi.count[i] != 0;
	if (used != s->lfi.used || 2 * used > s->lfi.nslots)
		BAD("LFI table: %llu used of %llu slots, recorded %llu", (unsigned long long)used,
		    (unsigned long long)s->lfi.nslots, (unsigned long long)s->lfi.used);
}

/**
 * sf_check - validate all of @s; panics on the first broken invariant.
 * @s: the filter
 *
 * Returns sf_count(@s).  O(entries + index slots + LFI table slots).
 */
uint32_t sf_check(const sf *s)
{
	uint32_t total = 0;

	for (uint32_t set = 0; set < s->nsets; set++) {
		check_set(s, set);
		total += s->set[set].nvalid;
		if (s->heap)
			check_lfi_set(s, set);
		if (s->grp)
			check_grp_set(s, set);
	}
	if (total != s->count)
		BAD("sets hold %u valid entries, count %u", total, s->count);
	for (uint32_t e = 0; e < s->p.entries; e++)
		check_entry(s, e);
	check_index(s);
	if (s->heap)
		check_lfi_table(s);
	return s->count;
}
