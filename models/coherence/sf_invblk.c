/*
 * models/coherence/sf_invblk.c - InvBlk victim selection (invblk_max > 1): the
 * block-length-prioritised choice of ESF §V-C, kept current per group so
 * that choosing is O(1).
 *
 * Rule (sf.h).  Candidates: every run of 1..invblk_max lines L, L+1, ...
 * all valid and unlocked, inside one SF_BLOCK-aligned group (equal
 * L / SF_BLOCK; a group maps to one set).  The best is the longest; among
 * equally long ones, the one holding the most recently inserted entry
 * (LIFO); if that entry is in several (a present stretch longer than
 * invblk_max), the one whose next most recent entry is newer, and so on:
 * candidates compare by (length, their insertion sequence numbers sorted
 * newest first), a total order.  The set's policy plays no part for
 * invblk_max > 1, even when every candidate has length 1 (then the victim
 * is the newest unlocked entry).  The public ESF code (Xerxes) differs: it
 * takes the policy's victim and widens a burst around it; we follow the
 * paper's experiment.
 *
 * Structure (sf_int.h).  Every group with a valid entry has a record
 * holding the key of its own best candidate (sf__grp_best: 4 index
 * look-ups, at most 10 candidates).  The best candidate of a set is the
 * best of its groups' bests, so each set keeps a max-heap of its records
 * (sf_heap.c) and the victim run is the top record's run.  A record's key
 * depends only on its group's lines, so it is recomputed (and the heap
 * fixed) exactly when one of them is inserted, removed, locked or unlocked.
 *
 * Costs: sf_insert, sf_remove, sf_lock, sf_unlock add O(1) index look-ups
 * plus O(log groups in the set) for the heap; choosing the victims is O(1).
 * Memory: entries x (48-byte record + 3 uint32), allocated in sf_create().
 */
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/xmalloc.h"
#include "models/coherence/sf_int.h"

/* Candidate (@la, @ka) beats (@lb, @kb): longer, then newer entries. */
static int key_better(uint32_t la, const uint64_t *ka, uint32_t lb, const uint64_t *kb)
{
	if (la != lb)
		return la > lb;
	for (uint32_t i = 0; i < la; i++)
		if (ka[i] != kb[i])
			return ka[i] > kb[i];
	return 0;
}

static int grp_before(const sf *s, uint32_t a, uint32_t b)
{
	const sf_grp *ga = &s->grp[a], *gb = &s->grp[b];

	return key_better(ga->len, ga->key, gb->len, gb->key);
}

/* sf__grp_heap - the group heap of @set: records with a candidate, the best on top. */
sf_heap sf__grp_heap(const sf *s, uint32_t set)
{
	return (sf_heap){ .h = s->gheap + sf__set_base(s, set), .pos = s->ghpos,
			  .n = &s->set[set].ngheap, .before = grp_before };
}

/* Sequence numbers of entries @m[0..len) into @key, newest first. */
static void run_key(const sf *s, const uint32_t *m, uint32_t len, uint64_t *key)
{
	for (uint32_t i = 0; i < len; i++) {
		uint64_t q = s->seq[m[i]];
		uint32_t j = i;

		for (; j > 0 && key[j - 1] < q; j--)
			key[j] = key[j - 1];
		key[j] = q;
	}
}

/**
 * sf__grp_best - the best candidate run of the group whose first line is
 * @base, by the rule at the top of this file.
 * @s:    the filter
 * @base: first line of the group (a multiple of SF_BLOCK)
 * @run:  OUT the run's entries in line order (room for SF_BLOCK), or NULL
 * @key:  OUT its key, newest first, zero-padded to SF_BLOCK
 *
 * Returns the run's length, 0 if no line of the group is valid and unlocked.
 */
uint32_t sf__grp_best(const sf *s, uint64_t base, uint32_t *run, uint64_t *key)
{
	uint32_t m[SF_BLOCK], best = 0;
	uint64_t k[SF_BLOCK];

	for (uint32_t i = 0; i < SF_BLOCK; i++) {
		uint32_t e = sf_find(s, base + i);

		m[i] = e != SF_NONE && !s->ent[e].locked ? e : SF_NONE;
	}
	memset(key, 0, SF_BLOCK * sizeof(*key));
	for (uint32_t a = 0; a < SF_BLOCK; a++) {
		for (uint32_t len = 1; len <= s->p.invblk_max && a + len <= SF_BLOCK; len++) {
			if (m[a + len - 1] == SF_NONE)
				break;
			if (len < best)
				continue;
			run_key(s, m + a, len, k);
			if (!key_better(len, k, best, key))
				continue;
			best = len;
			memcpy(key, k, len * sizeof(*k));
			if (run)
				memcpy(run, m + a, len * sizeof(*m));
		}
	}
	return best;
}

/* sf__grp_init - records, heaps and free lists of an InvBlk filter (sf_create). */
void sf__grp_init(sf *s)
{
	uint32_t n = s->p.entries;

	s->grp = xcalloc(n, sizeof(*s->grp));
	s->grec = xmalloc((size_t)n * sizeof(*s->grec));
	s->gheap = xmalloc((size_t)n * sizeof(*s->gheap));
	s->ghpos = xmalloc((size_t)n * sizeof(*s->ghpos));
	for (uint32_t r = 0; r < n; r++) {
		uint32_t last = (r / s->ways + 1) * s->ways - 1;

		s->grp[r].next_free = r < last ? r + 1 : SF_NONE;
		s->grec[r] = SF_NONE;
		s->ghpos[r] = SF_NONE;
	}
	for (uint32_t set = 0; set < s->nsets; set++)
		s->set[set].gfree = sf__set_base(s, set);
}

/* sf__grp_free - free what sf__grp_init allocated (no-op if nothing). */
void sf__grp_free(sf *s)
{
	free(s->grp);
	free(s->grec);
	free(s->gheap);
	free(s->ghpos);
}

/**
 * sf__grp_refresh - recompute record @r's key and fix its place in the
 * heap (in it iff it has a candidate).
 * @s: the filter
 * @r: a record in use
 */
void sf__grp_refresh(sf *s, uint32_t r)
{
	sf_grp *g = &s->grp[r];
	sf_heap hp = sf__grp_heap(s, r / s->ways);

	g->len = sf__grp_best(s, g->base, NULL, g->key);
	if (!g->len) {
		if (s->ghpos[r] != SF_NONE)
			sf__heap_del(s, &hp, r);
	} else if (s->ghpos[r] == SF_NONE) {
		sf__heap_push(s, &hp, r);
	} else {
		sf__heap_fix(s, &hp, r);
	}
}

/* sf__grp_insert - entry @e was just inserted: join (or open) its group's record. */
void sf__grp_insert(sf *s, uint32_t e)
{
	uint64_t line = s->ent[e].line, base = line - line % SF_BLOCK;
	uint32_t r = SF_NONE;

	for (uint32_t i = 0; i < SF_BLOCK && r == SF_NONE; i++) {
		uint32_t x = base + i == line ? SF_NONE : sf_find(s, base + i);

		if (x != SF_NONE)
			r = s->grec[x];
	}
	if (r == SF_NONE) {
		sf_set *st = &s->set[e / s->ways];

		r = st->gfree;
		CXL_ASSERT(r != SF_NONE);   /* a set has at most ways groups */
		st->gfree = s->grp[r].next_free;
		s->grp[r] = (sf_grp){ .base = base, .next_free = SF_NONE };
	}
	s->grec[e] = r;
	s->grp[r].nvalid++;
	sf__grp_refresh(s, r);
}

/* sf__grp_remove - entry @e was just removed: leave its record, freed when empty. */
void sf__grp_remove(sf *s, uint32_t e)
{
	uint32_t r = s->grec[e];
	sf_grp *g = &s->grp[r];

	s->grec[e] = SF_NONE;
	if (--g->nvalid) {
		sf__grp_refresh(s, r);
		return;
	}
	if (s->ghpos[r] != SF_NONE) {
		sf_heap hp = sf__grp_heap(s, r / s->ways);

		sf__heap_del(s, &hp, r);
	}
	sf_set *st = &s->set[r / s->ways];
	*g = (sf_grp){ .next_free = st->gfree };
	st->gfree = r;
}

/**
 * sf__invblk_victims - the best candidate run of @set, in line order.
 * @s:   the filter
 * @set: set index
 * @out: OUT its entries (room for SF_BLOCK)
 *
 * Returns its length, 0 if the set has no valid unlocked entry.  O(1).
 */
uint32_t sf__invblk_victims(const sf *s, uint32_t set, uint32_t *out)
{
	uint64_t key[SF_BLOCK];

	if (!s->set[set].ngheap)
		return 0;
	const sf_grp *g = &s->grp[s->gheap[sf__set_base(s, set)]];
	uint32_t n = sf__grp_best(s, g->base, out, key);

	CXL_ASSERT(n == g->len);
	return n;
}
