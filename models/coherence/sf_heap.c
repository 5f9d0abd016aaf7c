/*
 * models/coherence/sf_heap.c - the indexed binary heap behind the LFI victim (entries
 * keyed by insertion count, sf_lfi.c) and the InvBlk victim (group records
 * keyed by their best run, sf_invblk.c).  The heap is a view (sf_heap in
 * sf_int.h) over arrays the filter allocated in sf_create(): one slice per
 * set, a position array indexed by id, a size and an order.  Nothing here
 * allocates.
 *
 * Costs: push, delete and fix O(log n) comparisons; the top is h[0].  An id
 * is in the heap iff pos[id] != SF_NONE; pushing an id already in, or
 * deleting or fixing one that is out, is a panic.
 */
#include "core/err.h"
#include "models/coherence/sf_int.h"

static void put(const sf_heap *hp, uint32_t i, uint32_t id)
{
	hp->h[i] = id;
	hp->pos[id] = i;
}

/* Move the id at @i up while it belongs above its parent; returns its new place. */
static uint32_t sift_up(const sf *s, const sf_heap *hp, uint32_t i)
{
	uint32_t id = hp->h[i];

	while (i > 0) {
		uint32_t parent = (i - 1) / 2;

		if (!hp->before(s, id, hp->h[parent]))
			break;
		put(hp, i, hp->h[parent]);
		i = parent;
	}
	put(hp, i, id);
	return i;
}

static void sift_down(const sf *s, const sf_heap *hp, uint32_t i)
{
	uint32_t id = hp->h[i], n = *hp->n;

	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && hp->before(s, hp->h[c + 1], hp->h[c]))
			c++;
		if (!hp->before(s, hp->h[c], id))
			break;
		put(hp, i, hp->h[c]);
		i = c;
	}
	put(hp, i, id);
}

/* sf__heap_push - add @id (not in the heap). */
void sf__heap_push(const sf *s, const sf_heap *hp, uint32_t id)
{
	CXL_ASSERT(hp->pos[id] == SF_NONE);
	put(hp, (*hp->n)++, id);
	sift_up(s, hp, *hp->n - 1);
}

/* sf__heap_fix - restore the order after the key of @id (in the heap) changed. */
void sf__heap_fix(const sf *s, const sf_heap *hp, uint32_t id)
{
	uint32_t i = hp->pos[id];

	CXL_ASSERT(i < *hp->n && hp->h[i] == id);
	if (sift_up(s, hp, i) == i)
		sift_down(s, hp, i);
}

/* sf__heap_del - take @id (in the heap) out. */
void sf__heap_del(const sf *s, const sf_heap *hp, uint32_t id)
{
	uint32_t i = hp->pos[id];

	CXL_ASSERT(i < *hp->n && hp->h[i] == id);
	hp->pos[id] = SF_NONE;
	if (i == --*hp->n)
		return;
	put(hp, i, hp->h[*hp->n]);
	sf__heap_fix(s, hp, hp->h[i]);
}

/* sf__heap_ok - 1 if every id is in place and no child belongs above its parent. */
int sf__heap_ok(const sf *s, const sf_heap *hp)
{
	for (uint32_t i = 0; i < *hp->n; i++) {
		if (hp->pos[hp->h[i]] != i)
			return 0;
		if (i && hp->before(s, hp->h[i], hp->h[(i - 1) / 2]))
			return 0;
	}
	return 1;
}
