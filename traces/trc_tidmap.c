/*
 * traces/trc_tidmap.c - thread ids to dense thread indices (contract in
 * trc_tidmap.h): open addressing with linear probing over a power-of-two
 * table, doubled when half full.
 */
#include "traces/trc_tidmap.h"

#include <stdlib.h>

#include "core/xmalloc.h"

/* Slot of @key in a table of @cap slots (cap a power of two): its home or the first free one. */
static uint32_t slot(const uint64_t *keys, uint32_t cap, uint64_t key)
{
	uint32_t i = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);

	while (keys[i] && keys[i] != key)
		i = (i + 1) & (cap - 1);
	return i;
}

static void grow(trc_tidmap *m)
{
	uint32_t cap = m->cap ? 2 * m->cap : 16;
	uint64_t *key = xcalloc(cap, sizeof(*key));
	uint16_t *idx = xcalloc(cap, sizeof(*idx));

	for (uint32_t i = 0; i < m->cap; i++) {
		if (m->key[i]) {
			uint32_t j = slot(key, cap, m->key[i]);
			key[j] = m->key[i];
			idx[j] = m->idx[i];
		}
	}
	free(m->key);
	free(m->idx);
	m->key = key;
	m->idx = idx;
	m->cap = cap;
}

/**
 * trc_tidmap_index - see trc_tidmap.h.
 */
int trc_tidmap_index(trc_tidmap *m, uint64_t key, uint16_t *idx)
{
	uint32_t i;

	if (m->cap) {
		i = slot(m->key, m->cap, key);
		if (m->key[i]) {
			*idx = m->idx[i];
			return 0;
		}
	}
	if (m->n == TRC_THREADS_MAX)
		return -1;
	if (2 * (m->n + 1) > m->cap)
		grow(m);
	i = slot(m->key, m->cap, key);
	m->key[i] = key;
	m->idx[i] = (uint16_t)m->n;
	*idx = (uint16_t)m->n++;
	return 0;
}

/**
 * trc_tidmap_free - see trc_tidmap.h.
 */
void trc_tidmap_free(trc_tidmap *m)
{
	free(m->key);
	free(m->idx);
	m->key = NULL;
	m->idx = NULL;
	m->cap = m->n = 0;
}
