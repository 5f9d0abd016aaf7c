/*
 * models/coherence/dcoh_ckpt.c - the DCOH's part of a checkpoint
 * (core/ckpt.h): its snoop filter (sf_ckpt.c), open transactions, parked
 * requests and BISnps waiting for credits.
 *
 * Every event the DCOH keeps is in exactly one of txn[].req, parked[] and
 * the bisnp ring (dcoh_int.h), so each is visited once with ckpt_event().
 * A transaction names its entries by snoop-filter index, never by pointer.
 * The credits it spends (dcoh.cr) belong to the memory endpoint, which
 * saves them; its statistics are registered, so the engine restores them.
 * Loading, the DCOH is the one dcoh_create() made from the same config:
 * nothing kept yet, so slots are cleared before an event is read into them.
 */
#include "models/coherence/dcoh.h"

#include "models/coherence/dcoh_int.h"
#include "models/coherence/sf.h"

#define DCOH_CKPT_MARK 0x44434f48u /* "DCOH" */

static void txn_ckpt(ckpt *k, dcoh_txn *t)
{
	if (ckpt_loading(k))
		t->req = NULL;
	ckpt_event(k, &t->req);
	if (!t->req) {
		if (ckpt_loading(k))
			*t = (dcoh_txn){ .entry = SF_NONE };
		return;
	}
	CKPT(k, t->line);
	CKPT(k, t->snp);
	CKPT(k, t->victim);
	CKPT(k, t->nvictim);
	CKPT(k, t->entry);
	CKPT(k, t->waiting);
	CKPT(k, t->start);
	if (ckpt_loading(k) && t->nvictim > SF_BLOCK)
		ckpt_fail(k, "DCOH: a saved transaction with %u victims", t->nvictim);
}

/**
 * dcoh_ckpt - save or restore the DCOH @d (see the file comment).
 * @d: the DCOH; loading, as dcoh_create() made it (no events kept)
 * @k: the visitor (its component is the memory device owning @d)
 */
void dcoh_ckpt(dcoh *d, ckpt *k)
{
	ckpt_mark(k, DCOH_CKPT_MARK, "DCOH");
	sf_ckpt(d->sf, k);
	for (uint32_t i = 0; i < d->ntxn && !ckpt_failed(k); i++)
		txn_ckpt(k, &d->txn[i]);
	uint32_t n = ckpt_count(k, d->nparked, d->ntxn);
	if (ckpt_loading(k)) {
		for (uint32_t i = 0; i < n; i++)
			d->parked[i] = NULL;
		d->nparked = n;
	}
	for (uint32_t i = 0; i < n; i++)
		ckpt_event(k, &d->parked[i]);
	evring_ckpt(&d->bisnp, k);
}
