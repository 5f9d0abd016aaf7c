/*
 * models/coherence/sf.c - the snoop filter's entries: create/destroy, the hash index
 * (line -> entry), insert, remove, touch, lock and the owner lists.  Victim
 * selection is in sf_victim.c, the LFI count table and heaps in sf_lfi.c,
 * the validator in sf_check.c; the layout is described in sf_int.h.
 *
 * Costs: sf_find, sf_insert, sf_remove O(1) expected (hash index at load
 * <= 1/2 plus O(1) list splices); with policy LFI, insert, remove, lock and
 * unlock add O(log ways) for the heap and insert an O(1) expected count
 * table update (amortised over the doublings); with invblk_max > 1 they
 * add a few index look-ups and O(log ways) for the group heap
 * (sf_invblk.c).  sf_touch is O(1).  Every array is allocated in
 * sf_create(), except the LFI count table, which doubles when it fills.
 *
 * Misuse (an entry index out of range or invalid where a valid one is
 * required, inserting a line already present) is a broken invariant of the
 * caller: CXL_ASSERT panics; nothing is returned.
 */
#include "models/coherence/sf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/xmalloc.h"
#include "models/coherence/sf_int.h"

/* ---------------------------------------------------------------- lists */

static void list_append(sf_link *l, uint32_t *head, uint32_t *tail, uint32_t e)
{
	l[e].prev = *tail;
	l[e].next = SF_NONE;
	if (*tail == SF_NONE)
		*head = e;
	else
		l[*tail].next = e;
	*tail = e;
}

static void list_unlink(sf_link *l, uint32_t *head, uint32_t *tail, uint32_t e)
{
	if (l[e].prev == SF_NONE)
		*head = l[e].next;
	else
		l[l[e].prev].next = l[e].next;
	if (l[e].next == SF_NONE)
		*tail = l[e].prev;
	else
		l[l[e].next].prev = l[e].prev;
	l[e].prev = l[e].next = SF_NONE;
}

/* ---------------------------------------------------------- hash index */

static void idx_add(sf *s, uint64_t line, uint32_t e)
{
	uint32_t i = (uint32_t)sf__hash(line, s->idx_bits);

	while (s->idx[i].e != SF_NONE) {
		CXL_ASSERT(s->idx[i].line != line);   /* sf_insert of a present line */
		i = (i + 1) & s->idx_mask;
	}
	s->idx[i] = (sf_slot){ .line = line, .e = e };
}

/* Backward-shift deletion: close the gap so no probe sequence breaks. */
static void idx_del(sf *s, uint64_t line)
{
	uint32_t i = (uint32_t)sf__hash(line, s->idx_bits);

	while (s->idx[i].line != line || s->idx[i].e == SF_NONE) {
		CXL_ASSERT(s->idx[i].e != SF_NONE);
		i = (i + 1) & s->idx_mask;
	}
	for (uint32_t j = i;;) {
		j = (j + 1) & s->idx_mask;
		if (s->idx[j].e == SF_NONE)
			break;
		uint32_t home = (uint32_t)sf__hash(s->idx[j].line, s->idx_bits);
		/* the slot j may move to i unless its home lies cyclically in (i, j] */
		int stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
		if (stays)
			continue;
		s->idx[i] = s->idx[j];
		i = j;
	}
	s->idx[i].e = SF_NONE;
}

/**
 * sf_find - the valid entry of @line, or SF_NONE.
 * @s:    the filter
 * @line: line number
 *
 * O(1) expected: linear probing at load <= 1/2.
 */
uint32_t sf_find(const sf *s, uint64_t line)
{
	uint32_t i = (uint32_t)sf__hash(line, s->idx_bits);

	for (;; i = (i + 1) & s->idx_mask) {
		const sf_slot *slot = &s->idx[i];

		if (slot->e == SF_NONE)
			return SF_NONE;
		if (slot->line == line)
			return slot->e;
	}
}

/* ------------------------------------------------------ create, destroy */

/* One message per rule; @why is 64 bytes (sf.h), so keep them short. */
static int check_params(const sf_params *p, char *why)
{
	char buf[64];

	if (p->entries == 0)
		snprintf(buf, sizeof(buf), "entries must be > 0");
	else if (p->entries > SF_MAX_ENTRIES)
		snprintf(buf, sizeof(buf), "entries %u above the limit 2^30", p->entries);
	else if (p->assoc && p->entries % p->assoc)
		snprintf(buf, sizeof(buf), "entries %u not a multiple of assoc %u", p->entries,
			 p->assoc);
	else if ((unsigned)p->policy >= SF_NPOLICY)
		snprintf(buf, sizeof(buf), "unknown victim policy %u", (unsigned)p->policy);
	else if (p->invblk_max < 1 || p->invblk_max > SF_BLOCK)
		snprintf(buf, sizeof(buf), "invblk_max %u not in 1..%d", p->invblk_max, SF_BLOCK);
	else
		return 0;
	if (why)
		memcpy(why, buf, sizeof(buf));
	return -1;
}

static void init_sets(sf *s)
{
	for (uint32_t k = 0; k < s->nsets; k++) {
		sf_set *st = &s->set[k];
		uint32_t base = sf__set_base(s, k);

		*st = (sf_set){ .ins_head = SF_NONE, .ins_tail = SF_NONE, .use_head = SF_NONE,
				.use_tail = SF_NONE, .free = base };
		for (uint32_t e = base; e < base + s->ways; e++) {
			s->ins[e] = (sf_link){ SF_NONE, e + 1 < base + s->ways ? e + 1 : SF_NONE };
			s->use[e] = (sf_link){ SF_NONE, SF_NONE };
		}
	}
}

/**
 * sf_create - an empty filter with parameters @p.
 * @p:   parameters (copied)
 * @why: OUT 64-byte buffer for the reason @p is invalid; may be NULL
 *
 * Returns the filter, or NULL with a message in @why when entries is 0 or
 * above 2^30, not a multiple of assoc, the policy is unknown or invblk_max
 * is outside 1..SF_BLOCK.  Allocates everything except the LFI count
 * table's later growth.
 */
sf *sf_create(const sf_params *p, char *why)
{
	if (check_params(p, why))
		return NULL;

	sf *s = xcalloc(1, sizeof(*s));
	uint32_t n = p->entries;

	s->p = *p;
	s->ways = p->assoc ? p->assoc : n;
	s->nsets = n / s->ways;
	s->ent = xcalloc(n, sizeof(*s->ent));
	s->seq = xcalloc(n, sizeof(*s->seq));
	s->ins = xmalloc((size_t)n * sizeof(*s->ins));
	s->use = xmalloc((size_t)n * sizeof(*s->use));
	s->set = xmalloc((size_t)s->nsets * sizeof(*s->set));
	s->idx_bits = 1;
	while ((UINT64_C(1) << s->idx_bits) < 2 * (uint64_t)n)
		s->idx_bits++;
	s->idx_mask = (uint32_t)((UINT64_C(1) << s->idx_bits) - 1);
	s->idx = xmalloc(((size_t)s->idx_mask + 1) * sizeof(*s->idx));
	for (uint32_t i = 0; i <= s->idx_mask; i++)
		s->idx[i] = (sf_slot){ .line = 0, .e = SF_NONE };
	init_sets(s);
	if (p->policy == SF_LFI)
		sf__lfi_init(s);
	if (p->invblk_max > 1)
		sf__grp_init(s);
	return s;
}

/* sf_destroy - free @s and everything it holds; NULL is accepted. */
void sf_destroy(sf *s)
{
	if (!s)
		return;
	sf__lfi_free(s);
	sf__grp_free(s);
	free(s->idx);
	free(s->set);
	free(s->use);
	free(s->ins);
	free(s->seq);
	free(s->ent);
	free(s);
}

/* --------------------------------------------------------------- entries */

/**
 * sf_entry_at - entry @e (valid or not), for reading and for the owner and
 * excl fields; line, valid and locked belong to the filter.
 * @s: the filter
 * @e: entry index, < sf_entries(@s)
 */
sf_entry *sf_entry_at(sf *s, uint32_t e)
{
	CXL_ASSERT(e < s->p.entries);
	return &s->ent[e];
}

static sf_entry *valid_entry(sf *s, uint32_t e)
{
	CXL_ASSERT(e < s->p.entries && s->ent[e].valid);
	return &s->ent[e];
}

/**
 * sf_touch - entry @e was hit: it becomes the most recently used of its set.
 * @s: the filter
 * @e: a valid entry
 *
 * Only LRU and MRU (invblk_max 1) choose by use order; the others ignore it.
 */
void sf_touch(sf *s, uint32_t e)
{
	valid_entry(s, e);
	sf_set *st = &s->set[e / s->ways];

	list_unlink(s->use, &st->use_head, &st->use_tail, e);
	list_append(s->use, &st->use_head, &st->use_tail, e);
}

/**
 * sf_insert - a new valid, unlocked entry without owners for @line.
 * @s:    the filter
 * @line: line number, not present (asserted)
 *
 * Takes the first free slot of @line's set; the entry becomes the newest
 * inserted and the most recently used of its set.  With policy LFI the
 * insertion is counted (the count table may double here).  Returns the
 * entry, or SF_NONE if the set has no free slot (nothing changes then).
 */
uint32_t sf_insert(sf *s, uint64_t line)
{
	sf_set *st = &s->set[sf__set_of(s, line)];
	uint32_t e = st->free;

	if (e == SF_NONE)
		return SF_NONE;
	idx_add(s, line, e);
	st->free = s->ins[e].next;
	s->ent[e] = (sf_entry){ .line = line, .valid = 1 };
	s->seq[e] = s->seq_next++;
	list_append(s->ins, &st->ins_head, &st->ins_tail, e);
	list_append(s->use, &st->use_head, &st->use_tail, e);
	st->nvalid++;
	s->count++;
	if (s->lcount) {
		s->lcount[e] = sf__lfi_bump(s, line);
		sf__lfi_add(s, e);
	}
	if (s->grp)
		sf__grp_insert(s, e);
	return e;
}

/**
 * sf_lock - keep valid entry @e from being chosen as a victim (idempotent).
 * @s: the filter
 * @e: a valid entry
 */
void sf_lock(sf *s, uint32_t e)
{
	sf_entry *en = valid_entry(s, e);

	if (en->locked)
		return;
	en->locked = 1;
	if (s->heap)
		sf__lfi_del(s, e);
	if (s->grp)
		sf__grp_refresh(s, s->grec[e]);
}

/**
 * sf_unlock - let valid entry @e be chosen again (idempotent).  Its place in
 * the insertion and use orders is unchanged by the lock.
 * @s: the filter
 * @e: a valid entry
 */
void sf_unlock(sf *s, uint32_t e)
{
	sf_entry *en = valid_entry(s, e);

	if (!en->locked)
		return;
	en->locked = 0;
	if (s->heap)
		sf__lfi_add(s, e);
	if (s->grp)
		sf__grp_refresh(s, s->grec[e]);
}

/**
 * sf_remove - free valid entry @e, locked or not; its slot becomes the
 * first free one of its set.
 * @s: the filter
 * @e: a valid entry
 */
void sf_remove(sf *s, uint32_t e)
{
	sf_entry *en = valid_entry(s, e);
	sf_set *st = &s->set[e / s->ways];

	if (s->heap && !en->locked)
		sf__lfi_del(s, e);
	idx_del(s, en->line);
	list_unlink(s->ins, &st->ins_head, &st->ins_tail, e);
	list_unlink(s->use, &st->use_head, &st->use_tail, e);
	s->ins[e].next = st->free;
	st->free = e;
	st->nvalid--;
	s->count--;
	*en = (sf_entry){ .line = en->line };   /* the line stays for sf__grp_remove */
	if (s->grp)
		sf__grp_remove(s, e);
}

/* ---------------------------------------------------------------- owners */

/**
 * sf_add_owner - record @pbr as an owner of valid entry @e.
 * @s:   the filter
 * @e:   a valid entry
 * @pbr: PBR id of the requester
 *
 * Returns 1 if @pbr is an owner afterwards (added at the end, or already
 * there: no change), 0 if it is not and SF_MAX_OWNERS are taken.  excl is
 * the caller's to set.
 */
int sf_add_owner(sf *s, uint32_t e, uint16_t pbr)
{
	sf_entry *en = valid_entry(s, e);

	for (unsigned i = 0; i < en->nowners; i++)
		if (en->owner[i] == pbr)
			return 1;
	if (en->nowners == SF_MAX_OWNERS)
		return 0;
	en->owner[en->nowners++] = pbr;
	return 1;
}

/**
 * sf_drop_owner - forget owner @pbr of valid entry @e (no-op if absent).
 * @s:   the filter
 * @e:   a valid entry
 * @pbr: PBR id of the requester
 *
 * The other owners keep their order.  Dropping owner[0] clears excl, since
 * excl speaks of owner[0].
 */
void sf_drop_owner(sf *s, uint32_t e, uint16_t pbr)
{
	sf_entry *en = valid_entry(s, e);

	for (unsigned i = 0; i < en->nowners; i++) {
		if (en->owner[i] != pbr)
			continue;
		if (i == 0)
			en->excl = 0;
		memmove(&en->owner[i], &en->owner[i + 1],
			(en->nowners - i - 1) * sizeof(en->owner[0]));
		en->owner[--en->nowners] = 0;
		return;
	}
}

/* ---------------------------------------------------------------- counts */

/* sf_count - valid entries now, all sets. */
uint32_t sf_count(const sf *s)
{
	return s->count;
}

/* sf_entries - entry slots in all (the params' entries): valid indices are 0..n-1. */
uint32_t sf_entries(const sf *s)
{
	return s->p.entries;
}

/* sf_set_free - free (invalid) slots in @line's set: sf_insert succeeds iff > 0. */
uint32_t sf_set_free(const sf *s, uint64_t line)
{
	return s->ways - s->set[sf__set_of(s, line)].nvalid;
}
