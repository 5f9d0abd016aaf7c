/*
 * models/coherence/sf_victim.c - victim selection (sf_victims): the single victim of
 * the set's policy (invblk_max 1), or the InvBlk run (sf_invblk.c).
 *
 * Single victim, over the set's valid unlocked entries:
 *   FIFO/LIFO  walk the insertion list from the head/tail;
 *   LRU/MRU    walk the use list from the head/tail;
 *   LFI        the top of the set's LFI heap (sf_lfi.c), O(1).
 * The walks skip locked entries, so they cost O(1 + locked entries passed);
 * locked entries are the few with a transaction or eviction in flight.
 */
#include "models/coherence/sf.h"

#include "core/err.h"
#include "models/coherence/sf_int.h"

/* First unlocked entry of a list walked from @e, forward or backward. */
static uint32_t first_unlocked(const sf *s, const sf_link *l, uint32_t e, int forward)
{
	while (e != SF_NONE && s->ent[e].locked)
		e = forward ? l[e].next : l[e].prev;
	return e;
}

/* sf__policy_victim - the policy's victim in @set, SF_NONE if none is unlocked. */
uint32_t sf__policy_victim(const sf *s, uint32_t set)
{
	const sf_set *st = &s->set[set];

	switch (s->p.policy) {
	case SF_FIFO:
		return first_unlocked(s, s->ins, st->ins_head, 1);
	case SF_LIFO:
		return first_unlocked(s, s->ins, st->ins_tail, 0);
	case SF_LRU:
		return first_unlocked(s, s->use, st->use_head, 1);
	case SF_MRU:
		return first_unlocked(s, s->use, st->use_tail, 0);
	case SF_LFI:
		return st->nheap ? s->heap[sf__set_base(s, set)] : SF_NONE;
	case SF_NPOLICY:
		break;
	}
	CXL_PANIC("sf: bad policy %d", (int)s->p.policy);
}

/**
 * sf_victims - choose and lock the victims that make room in @line's set.
 * @s:    the filter
 * @line: the line that needs a slot (only its set matters)
 * @out:  OUT the victims' entries in line order (room for SF_BLOCK)
 *
 * invblk_max 1: the policy's victim; otherwise the best InvBlk run (see
 * sf_invblk.c).  Candidates are the set's valid unlocked entries,
 * whether or not the set has a free slot.  Returns the number of victims
 * (1..invblk_max), or 0 if the set has no valid unlocked entry.
 */
uint32_t sf_victims(sf *s, uint64_t line, uint32_t *out)
{
	uint32_t set = sf__set_of(s, line);
	uint32_t n = 0;

	if (s->p.invblk_max == 1) {
		uint32_t v = sf__policy_victim(s, set);

		if (v != SF_NONE)
			out[n++] = v;
	} else {
		n = sf__invblk_victims(s, set, out);
	}
	for (uint32_t i = 0; i < n; i++)
		sf_lock(s, out[i]);
	return n;
}
