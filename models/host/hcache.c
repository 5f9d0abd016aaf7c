/*
 * models/host/hcache.c - the requester's set-associative write-back cache
 * (contract in hcache.h).  Every operation scans one set: O(assoc).  A
 * fully associative cache is one set, so keep it small or give it ways.
 */
#include "models/host/hcache.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/xmalloc.h"

int hcache_init(hcache *h, uint64_t lines, uint32_t assoc, char *why)
{
	*h = (hcache){ 0 };
	if (!lines) {
		snprintf(why, 128, "a cache needs at least one line");
		return -1;
	}
	if (!assoc || assoc > lines)
		assoc = (uint32_t)(lines > UINT32_MAX ? UINT32_MAX : lines);
	if (lines % assoc) {
		snprintf(why, 128, "%llu lines are not a multiple of %u ways",
			 (unsigned long long)lines, assoc);
		return -1;
	}
	h->assoc = assoc;
	h->nsets = (uint32_t)(lines / assoc);
	h->tag = xcalloc(lines, sizeof(*h->tag)); /* zeroed: a checkpoint saves no garbage */
	h->used = xcalloc(lines, sizeof(*h->used));
	h->state = xcalloc(lines, sizeof(*h->state));
	return 0;
}

void hcache_free(hcache *h)
{
	free(h->tag);
	free(h->used);
	free(h->state);
	*h = (hcache){ 0 };
}

/* Slot of @line, or -1; *@set receives the first slot of its set. */
static int64_t find(const hcache *h, uint64_t line, uint64_t *set)
{
	*set = (line % h->nsets) * h->assoc;
	for (uint32_t w = 0; w < h->assoc; w++) {
		uint64_t i = *set + w;
		if (h->state[i] != HCACHE_INVALID && h->tag[i] == line)
			return (int64_t)i;
	}
	return -1;
}

enum hcache_state hcache_peek(const hcache *h, uint64_t line)
{
	uint64_t set;
	int64_t i = find(h, line, &set);

	return i < 0 ? HCACHE_INVALID : (enum hcache_state)h->state[i];
}

enum hcache_state hcache_lookup(hcache *h, uint64_t line)
{
	uint64_t set;
	int64_t i = find(h, line, &set);

	if (i < 0)
		return HCACHE_INVALID;
	h->used[i] = ++h->clock;
	return (enum hcache_state)h->state[i];
}

enum hcache_state hcache_fill(hcache *h, uint64_t line, enum hcache_state state,
			      uint64_t *victim)
{
	uint64_t set;
	int64_t i = find(h, line, &set);
	enum hcache_state old = HCACHE_INVALID;

	if (i < 0) {
		uint64_t pick = set;
		for (uint32_t w = 0; w < h->assoc; w++) {
			uint64_t k = set + w;
			if (h->state[k] == HCACHE_INVALID) {
				pick = k;
				break;
			}
			if (h->used[k] < h->used[pick])
				pick = k;
		}
		i = (int64_t)pick;
		old = (enum hcache_state)h->state[i];
		if (old != HCACHE_INVALID)
			*victim = h->tag[i];
		else
			h->nvalid++;
		h->tag[i] = line;
	}
	h->state[i] = (uint8_t)state;
	h->used[i] = ++h->clock;
	return old;
}

enum hcache_state hcache_invalidate(hcache *h, uint64_t line)
{
	uint64_t set;
	int64_t i = find(h, line, &set);

	if (i < 0)
		return HCACHE_INVALID;
	enum hcache_state old = (enum hcache_state)h->state[i];
	h->state[i] = HCACHE_INVALID;
	h->nvalid--;
	return old;
}

void hcache_ckpt(hcache *h, ckpt *k)
{
	uint32_t nsets = ckpt_count(k, h->nsets, h->nsets), assoc = ckpt_count(k, h->assoc, h->assoc);
	uint64_t ways = (uint64_t)h->nsets * h->assoc, valid = 0;

	if (ckpt_loading(k) && !ckpt_failed(k) && (nsets != h->nsets || assoc != h->assoc)) {
		ckpt_fail(k, "the saved cache has %u sets of %u ways, this one %u of %u", nsets,
			  assoc, h->nsets, h->assoc);
		return;
	}
	CKPT(k, h->clock);
	CKPT(k, h->nvalid);
	ckpt_bytes(k, h->tag, ways * sizeof(*h->tag));
	ckpt_bytes(k, h->used, ways * sizeof(*h->used));
	ckpt_bytes(k, h->state, ways * sizeof(*h->state));
	for (uint64_t i = 0; ckpt_loading(k) && i < ways; i++) {
		if (h->state[i] > HCACHE_EXCL)
			ckpt_fail(k, "a saved cache line has state %u", h->state[i]);
		valid += h->state[i] != HCACHE_INVALID;
	}
	if (ckpt_loading(k) && valid != h->nvalid)
		ckpt_fail(k, "the saved cache holds %llu lines, not %llu",
			  (unsigned long long)valid, (unsigned long long)h->nvalid);
}
