/*
 * core/ckpt.c - the checkpoint visitor models use (contract in ckpt.h).
 *
 * Saving appends to a pack_w, loading reads a pack_r; a failed load keeps
 * the first reason and turns every later visit into a no-op that leaves
 * its field alone, so a hook needs no error checks of its own.
 */
#include "core/ckpt.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/sim_int.h"

int ckpt_failed(const ckpt *k)
{
	return k->why[0] != '\0';
}

void ckpt_fail(ckpt *k, const char *fmt, ...)
{
	va_list ap;

	if (ckpt_failed(k))
		return;
	va_start(ap, fmt);
	vsnprintf(k->why, sizeof(k->why), fmt, ap);
	va_end(ap);
	if (!k->why[0])
		snprintf(k->why, sizeof(k->why), "bad state");
}

/* Read @n bytes into a scratch copy first: a failed read leaves @p alone. */
static int get(ckpt *k, void *p, size_t n)
{
	if (ckpt_failed(k))
		return -1;
	if (k->r->bad || k->r->off + n > k->r->n) {
		k->r->bad = 1;
		ckpt_fail(k, "the saved state ends early (truncated or from another config)");
		return -1;
	}
	if (n)
		memcpy(p, k->r->p + k->r->off, n);
	k->r->off += n;
	return 0;
}

void ckpt_bytes(ckpt *k, void *p, size_t n)
{
	if (k->loading)
		get(k, p, n);
	else
		pack_put(k->w, p, n);
}

uint32_t ckpt_count(ckpt *k, uint32_t n, uint32_t max)
{
	if (!k->loading) {
		CXL_ASSERT(n <= max);
		PACK_PUT(k->w, n);
		return n;
	}
	uint32_t v = 0;
	if (get(k, &v, sizeof(v)))
		return 0;
	if (v > max) {
		ckpt_fail(k, "a saved count of %u is above its bound %u (another config?)", v, max);
		return 0;
	}
	return v;
}

void ckpt_event(ckpt *k, cxl_event **ev)
{
	uint8_t have = *ev != NULL;

	if (!k->loading) {
		PACK_PUT(k->w, have);
		if (have) {
			CXL_ASSERT((*ev)->owner == CXL_OWN_MODEL);
			pack_put(k->w, *ev, sizeof(**ev));
		}
		return;
	}
	cxl_event tmp;
	if (get(k, &have, sizeof(have)) || have > 1 || (have && get(k, &tmp, sizeof(tmp)))) {
		ckpt_fail(k, "a saved event is damaged");
		return;
	}
	if (*ev)
		sim_event_free(k->c, *ev);
	*ev = NULL;
	if (!have)
		return;
	cxl_event *e = sim_event_new(k->c);
	*e = tmp;
	e->owner = CXL_OWN_MODEL;
	*ev = e;
}

void ckpt_hist(ckpt *k, stats_hist *h)
{
	if (!k->loading) {
		stats_hist_pack(k->w, h);
		return;
	}
	if (ckpt_failed(k))
		return;
	stats_hist_free(h);
	stats_hist_init(h);
	stats_hist_unpack(k->r, h);
	if (k->r->bad)
		ckpt_fail(k, "a saved histogram is damaged");
}

void ckpt_same(ckpt *k, uint64_t v, const char *what)
{
	uint64_t saved = v;

	ckpt_bytes(k, &saved, sizeof(saved));
	if (k->loading && !ckpt_failed(k) && saved != v)
		ckpt_fail(k, "%s is %llu in the checkpoint, %llu now", what,
			  (unsigned long long)saved, (unsigned long long)v);
}

void ckpt_mark(ckpt *k, uint32_t tag, const char *what)
{
	uint32_t v = tag;

	if (!k->loading) {
		PACK_PUT(k->w, v);
		return;
	}
	if (!get(k, &v, sizeof(v)) && v != tag)
		ckpt_fail(k, "the saved state does not line up at %s (read %#x, expected %#x)",
			  what, v, tag);
}
