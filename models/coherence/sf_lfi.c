/*
 * models/coherence/sf_lfi.c - the state behind the LFI (least frequently inserted)
 * policy: a count of insertions per line over the whole run, and per set a
 * binary min-heap of the valid unlocked entries so the victim is the top.
 *
 * Count table: line -> insertions, open addressing with linear probing,
 * a count of 0 marking an empty slot (a stored line has been inserted at
 * least once).  It starts at max(SF_LFI_MIN_SLOTS, 2 * entries) slots
 * rounded up to a power of two and doubles (allocate, rehash, free) before
 * its load would pass 1/2, so a bump is O(1) expected, amortised; this is
 * the filter's only allocation after sf_create().  Counts saturate at
 * UINT32_MAX.  Lines are never removed: ESF keeps "a global counter table
 * to record the inserted times of each cacheline".
 *
 * Heap (sf_heap.c) order: fewer insertions first, then the older
 * insertion (FIFO), which is the LFI victim rule of sf.h.  The key of an
 * entry is fixed while it is valid (sf_int.h), so push and delete are the
 * only operations: O(log ways) each, victim O(1).
 */
#include <stdlib.h>

#include "core/err.h"
#include "core/xmalloc.h"
#include "models/coherence/sf_int.h"

/* ---------------------------------------------------------- count table */

static void table_alloc(sf_lfi *t, unsigned bits)
{
	t->bits = bits;
	t->nslots = UINT64_C(1) << bits;
	t->used = 0;
	t->line = xmalloc(t->nslots * sizeof(*t->line));
	t->count = xcalloc(t->nslots, sizeof(*t->count));
}

/* Slot of @line, or the empty slot where it would go. */
static uint64_t table_slot(const sf_lfi *t, uint64_t line)
{
	uint64_t i = sf__hash(line, t->bits);

	while (t->count[i] && t->line[i] != line)
		i = (i + 1) & (t->nslots - 1);
	return i;
}

static void table_grow(sf_lfi *t)
{
	sf_lfi old = *t;

	CXL_ASSERT(old.bits < 62);
	table_alloc(t, old.bits + 1);
	for (uint64_t i = 0; i < old.nslots; i++) {
		if (!old.count[i])
			continue;
		uint64_t j = table_slot(t, old.line[i]);
		t->line[j] = old.line[i];
		t->count[j] = old.count[i];
		t->used++;
	}
	free(old.line);
	free(old.count);
}

/* sf__lfi_init - the count table and heap arrays of an LFI filter (sf_create). */
void sf__lfi_init(sf *s)
{
	unsigned bits = 1;

	while ((UINT64_C(1) << bits) < SF_LFI_MIN_SLOTS ||
	       (UINT64_C(1) << bits) < 2 * (uint64_t)s->p.entries)
		bits++;
	table_alloc(&s->lfi, bits);
	s->lcount = xcalloc(s->p.entries, sizeof(*s->lcount));
	s->heap = xmalloc((size_t)s->p.entries * sizeof(*s->heap));
	s->hpos = xmalloc((size_t)s->p.entries * sizeof(*s->hpos));
	for (uint32_t e = 0; e < s->p.entries; e++)
		s->hpos[e] = SF_NONE;
}

/* sf__lfi_free - free what sf__lfi_init allocated (no-op if nothing). */
void sf__lfi_free(sf *s)
{
	free(s->lfi.line);
	free(s->lfi.count);
	free(s->lcount);
	free(s->heap);
	free(s->hpos);
}

/* sf__lfi_bump - count one more insertion of @line; returns the new count. */
uint32_t sf__lfi_bump(sf *s, uint64_t line)
{
	sf_lfi *t = &s->lfi;
	uint64_t i = table_slot(t, line);

	if (!t->count[i]) {
		if (2 * (t->used + 1) > t->nslots) {
			table_grow(t);
			i = table_slot(t, line);
		}
		t->line[i] = line;
		t->used++;
	}
	if (t->count[i] < UINT32_MAX)
		t->count[i]++;
	return t->count[i];
}

/* sf__lfi_count - insertions of @line so far (0 if never, or not LFI). */
uint32_t sf__lfi_count(const sf *s, uint64_t line)
{
	if (!s->lfi.nslots)
		return 0;
	return s->lfi.count[table_slot(&s->lfi, line)];
}

/* ------------------------------------------------------------------ heap */

/* Entry @a is a better LFI victim than @b: fewer insertions, then older. */
static int lfi_before(const sf *s, uint32_t a, uint32_t b)
{
	if (s->lcount[a] != s->lcount[b])
		return s->lcount[a] < s->lcount[b];
	return s->seq[a] < s->seq[b];
}

/* sf__lfi_heap - the LFI heap of @set: valid unlocked entries, the victim on top. */
sf_heap sf__lfi_heap(const sf *s, uint32_t set)
{
	return (sf_heap){ .h = s->heap + sf__set_base(s, set), .pos = s->hpos,
			  .n = &s->set[set].nheap, .before = lfi_before };
}

/* sf__lfi_add - valid entry @e becomes a candidate (inserted or unlocked). */
void sf__lfi_add(sf *s, uint32_t e)
{
	sf_heap hp = sf__lfi_heap(s, e / s->ways);

	sf__heap_push(s, &hp, e);
}

/* sf__lfi_del - entry @e stops being a candidate (locked or removed). */
void sf__lfi_del(sf *s, uint32_t e)
{
	sf_heap hp = sf__lfi_heap(s, e / s->ways);

	sf__heap_del(s, &hp, e);
}
