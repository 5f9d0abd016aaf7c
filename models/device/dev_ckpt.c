/*
 * models/device/dev_ckpt.c - the device's checkpoint hook (model_ops.ckpt,
 * core/ckpt.h): one function that saves and restores what the device's
 * events change.
 *
 * Visited, in order: the credits towards the bus; per RPC slot its owner,
 * PIO sequence numbers, held BAR read and held coherent load (kept
 * events), and DMA progress; the rings of answers and snoops waiting for
 * credits (kept events); the directory of homed lines (flagmap.h); the
 * DMA engine's reads in flight and its ring of active slots (slot numbers).
 * Every event the device keeps is in exactly one of those places.  Events
 * it sent itself (doorbells, computations, DEV_EV_* timers) are pending
 * events, saved by the engine; they carry slot numbers, no pointers.
 * Not visited: what dev_init() derives from the config (parameters, the
 * memory devices DMA reaches, each slot's host memory base), and the
 * statistics (registered: the engine restores them).  Loading runs after
 * dev_init(), which keeps no event, so every place an event is read into
 * is cleared first.
 */
#include <stdlib.h>

#include "core/xmalloc.h"
#include "models/device/dev_int.h"

#define DEV_CKPT_MARK 0x44455630u   /* "DEV0": credits and slots */
#define DEV_CKPT_OUT 0x44455631u    /* "DEV1": rings waiting for credits */
#define DEV_CKPT_DMA 0x44455632u    /* "DEV2": directory and DMA engine */

static void slot_ckpt(ckpt *k, dev_slot *sl)
{
	if (ckpt_loading(k))
		sl->held = sl->coh_held = NULL;
	CKPT(k, sl->owner);
	CKPT(k, sl->rx_seq);
	CKPT(k, sl->done_seq);
	ckpt_event(k, &sl->held);
	ckpt_event(k, &sl->coh_held);
	CKPT(k, sl->dma);
	CKPT(k, sl->queued);
	CKPT(k, sl->irq);
	CKPT(k, sl->dma_seq);
	CKPT(k, sl->bytes);
	CKPT(k, sl->rd_sent);
	CKPT(k, sl->rd_out);
	CKPT(k, sl->wr_sent);
}

/* The DMA engine: reads in flight and the ring of slots with requests to send. */
static void dma_ckpt(ckpt *k, dev *d)
{
	CKPT(k, d->dma_out);
	CKPT(k, d->act_head);
	d->act_n = ckpt_count(k, d->act_n, d->nslots);
	if (d->act_head >= d->nslots)
		ckpt_fail(k, "device: a saved DMA ring starts at %u of %u slots", d->act_head,
			  d->nslots);
	for (uint32_t i = 0; i < d->act_n && !ckpt_failed(k); i++) {
		uint32_t *s = &d->active[(d->act_head + i) % d->nslots];
		CKPT(k, *s);
		if (*s >= d->nslots)
			ckpt_fail(k, "device: a saved active DMA slot %u of %u", *s, d->nslots);
	}
}

/**
 * dev__ckpt - model_ops.ckpt of the device (see the file comment).
 * @c:     the component
 * @state: its dev, after dev_init() when loading
 * @k:     the visitor
 */
void dev__ckpt(sim_comp *c, void *state, ckpt *k)
{
	dev *d = state;

	(void)c;
	ckpt_mark(k, DEV_CKPT_MARK, "device");
	CKPT(k, d->cr);
	for (uint32_t s = 0; s < d->nslots && !ckpt_failed(k); s++)
		slot_ckpt(k, &d->slot[s]);
	ckpt_mark(k, DEV_CKPT_OUT, "device: waiting answers");
	for (int vc = 0; vc < CXL_NVC && !ckpt_failed(k); vc++)
		evring_ckpt(&d->out[vc], k);
	ckpt_mark(k, DEV_CKPT_DMA, "device: directory and DMA");
	flagmap_ckpt(&d->dir, k);
	dma_ckpt(k, d);
}
