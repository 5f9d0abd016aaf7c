/*
 * models/proto/flagmap.c - the map of flag-line values (contract in flagmap.h).
 *
 * Keys are stored as line + 1 so that 0 marks an empty slot (line
 * UINT64_MAX cannot be held: lines are byte addresses / 64).  The load
 * stays at most 3/4, so a probe run always ends at an empty slot.
 * Updating a line already held never allocates.
 */
#include "models/proto/flagmap.h"

#include <stdlib.h>

#include "core/err.h"
#include "core/xmalloc.h"

static uint32_t slot_of(const flagmap *m, uint64_t line)
{
	uint64_t h = (line + 1) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32) & (m->cap - 1);
}

/* The slot of @line, or the empty slot ending its probe run; @m->cap > 0. */
static uint32_t find(const flagmap *m, uint64_t line)
{
	uint32_t i = slot_of(m, line);

	while (m->key[i] && m->key[i] != line + 1)
		i = (i + 1) & (m->cap - 1);
	return i;
}

int flagmap_get(const flagmap *m, uint64_t line, uint16_t *v)
{
	if (!m->cap)
		return 0;
	uint32_t i = find(m, line);
	if (!m->key[i])
		return 0;
	*v = m->val[i];
	return 1;
}

static void grow(flagmap *m)
{
	flagmap old = *m;

	m->cap = old.cap ? 2 * old.cap : 16;
	m->key = xcalloc(m->cap, sizeof(*m->key));
	m->val = xmalloc(m->cap * sizeof(*m->val));
	m->n = 0;
	for (uint32_t i = 0; i < old.cap; i++)
		if (old.key[i])
			flagmap_set(m, old.key[i] - 1, old.val[i]);
	free(old.key);
	free(old.val);
}

void flagmap_set(flagmap *m, uint64_t line, uint16_t v)
{
	CXL_ASSERT(line != UINT64_MAX); /* keys are line + 1 */
	uint32_t i = m->cap ? find(m, line) : 0;

	if (!m->cap || !m->key[i]) { /* a new line: grow first if it would pass 3/4 */
		if (4 * ((uint64_t)m->n + 1) > 3 * (uint64_t)m->cap) {
			grow(m);
			i = find(m, line);
		}
		m->n++;
		m->key[i] = line + 1;
	}
	m->val[i] = v;
}

int flagmap_del(flagmap *m, uint64_t line)
{
	uint32_t i, j, mask = m->cap - 1;

	if (!m->cap)
		return 0;
	for (i = slot_of(m, line); m->key[i] != line + 1; i = (i + 1) & mask)
		if (!m->key[i])
			return 0;
	/* backward shift: move later entries of the run into the hole */
	for (j = (i + 1) & mask; m->key[j]; j = (j + 1) & mask) {
		uint32_t home = slot_of(m, m->key[j] - 1);
		/* entry j may fill hole i unless its home lies in (i, j] */
		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->key[i] = m->key[j];
			m->val[i] = m->val[j];
			i = j;
		}
	}
	m->key[i] = 0;
	m->n--;
	return 1;
}

void flagmap_free(flagmap *m)
{
	free(m->key);
	free(m->val);
	*m = (flagmap){ 0 };
}

#define FLAGMAP_MAX (UINT32_C(1) << 30) /* slots a checkpoint may hold: more is damage */

void flagmap_ckpt(flagmap *m, ckpt *k)
{
	uint32_t cap = ckpt_count(k, m->cap, FLAGMAP_MAX), n = ckpt_count(k, m->n, cap);

	if (ckpt_loading(k)) {
		if (ckpt_failed(k) || (cap & (cap - 1)) || 4 * (uint64_t)n > 3 * (uint64_t)cap) {
			ckpt_fail(k, "a saved flag map of %u lines in %u slots", n, cap);
			return;
		}
		flagmap_free(m);
		if (cap) {
			m->key = xcalloc(cap, sizeof(*m->key));
			m->val = xcalloc(cap, sizeof(*m->val));
		}
		m->cap = cap;
		m->n = n;
	}
	if (cap)
		ckpt_bytes(k, m->key, (size_t)cap * sizeof(*m->key));
	for (uint32_t i = 0; i < cap && !ckpt_failed(k); i++)
		if (m->key[i])
			CKPT(k, m->val[i]);
}
