/*
 * models/memory/dram_ckpt.c - the DRAM model's part of a checkpoint
 * (core/ckpt.h): what the scheduler changes while the run runs, per
 * channel - the queue, the per-rank, bank-group and bank timing state,
 * the data and command bus, the refresh schedule and the statistics.
 *
 * What dram_create() derives from the parameters (the clock fraction, the
 * field sizes, the allocations) is not visited: a restart builds the DRAM
 * from the same config first.  The model is pure, so the one thing it
 * cannot restore itself is a queued request's tag (the caller's: an event
 * pointer at mem.c); dram_ckpt() hands each tag to the caller's @fn, in
 * queue order, which saves what the tag stands for and rebuilds it.  The
 * saved bytes never hold a tag.
 */
#include "models/memory/dram.h"

#include "models/memory/dram_int.h"

#define DRAM_CKPT_MARK 0x4452414du /* "DRAM" */

/* One channel: its scalars, the rank/bank-group/bank arrays, the queue. */
static void chan_ckpt(const dram *d, dram_chan *c, ckpt *k, dram_tag_ckpt_fn *fn, void *ctx)
{
	const dram_params *p = &d->p;
	uint32_t nbg = p->ranks * p->bankgroups;

	CKPT(k, c->nwrites);
	CKPT(k, c->bypass);
	CKPT(k, c->gen);
	CKPT(k, c->write_mode);
	CKPT(k, c->bus_rank);
	CKPT(k, c->bus_end);
	CKPT(k, c->cmd_ok);
	CKPT(k, c->cyc);
	CKPT(k, c->next);
	CKPT(k, c->next_ok);
	CKPT(k, c->upto);
	CKPT(k, c->st);
	ckpt_bytes(k, c->rk, p->ranks * sizeof(*c->rk));
	ckpt_bytes(k, c->bg, nbg * sizeof(*c->bg));
	ckpt_bytes(k, c->bk, (size_t)nbg * p->banks * sizeof(*c->bk));
	c->n = ckpt_count(k, c->n, p->queue);
	for (uint32_t i = 0; i < c->n; i++) {
		dram_req r = c->q[i];
		r.tag = 0;
		CKPT(k, r);
		if (ckpt_loading(k))
			c->q[i] = r;
		fn(ctx, k, &c->q[i].tag);
	}
}

/**
 * dram_ckpt - save or restore the state of @d that commands change (see
 * the file comment).
 * @d:   the DRAM, built from the same parameters when loading
 * @k:   the visitor
 * @fn:  called once per queued request, channel by channel, oldest first,
 *       with its tag: saving, it saves what the tag names; loading, it
 *       restores that and sets the tag (which reads 0 before)
 * @ctx: handed to @fn
 * A loaded queue longer than params.queue fails the visitor (ckpt_count).
 */
void dram_ckpt(dram *d, ckpt *k, dram_tag_ckpt_fn *fn, void *ctx)
{
	ckpt_mark(k, DRAM_CKPT_MARK, "dram");
	for (uint32_t i = 0; i < d->p.channels && !ckpt_failed(k); i++)
		chan_ckpt(d, &d->ch[i], k, fn, ctx);
}
