/*
 * models/host/req_ckpt.c - the requester's checkpoint hook (model_ops.ckpt
 * of cxl_host_ops and cxl_accel_ops; the visitor's contract in
 * core/ckpt.h): one function that saves, or on a restart restores, what the
 * requester's events change.
 *
 * Restarting, req_init() has already run as in a fresh run: parameters,
 * targets, the slot table and free stack, the cache's arrays, the rings,
 * statistics (their values the engine restores), the trace reopened at its
 * start, the program's processes and generator.  The engine also restores
 * the send counter and the random stream (so draws continue as they
 * would have) and re-queues the pending events: timers (REQ_EV_ISSUE,
 * REQ_EV_HIT with its slot, REQ_EV_PROG and REQ_EV_IRQ with their
 * process) and the packets in flight, whose tag is their slot.  Slots,
 * processes and entries keep their numbers, so those events find what
 * they refer to.  The hook then visits, in this order:
 *   requester  the issue state (credits, counts, the drawn next request,
 *              the timer flag, the window flag, r->requests, which a
 *              trace's end lowers), every slot and the free-slot stack
 *   flag maps  values of flag lines held, and the programs' per-line
 *              counts of write-backs and fills in flight (flagmap.h)
 *   cache      req_coh.c: contents, write-backs waiting, BIRsps waiting
 *   trace      req_trace.c: position of the replay (the reader skips to it)
 *   program    prog.c: processes, entries, then the generator's cursors
 * with a check word between sections.  Nothing here is a pointer: the
 * slots, rings and maps are saved as their contents and refilled in place.
 *
 * Not restored here: time series (simulation.sample_period), which are the
 * engine's (series.h); the progress line's counters are r->issued and
 * prog->retired, restored with the rest.
 */
#include "models/host/req.h"

#include <stdlib.h>

#include "core/xmalloc.h"
#include "models/host/req_int.h"

#define TAG_REQ 0x52455155u   /* "REQU" */
#define TAG_FLAGS 0x464c4147u /* "FLAG" */

/* Save or restore one slot, field by field (no padding in the checkpoint). */
static void slot_ckpt(req_slot *s, ckpt *k)
{
	CKPT(k, s->index);
	CKPT(k, s->line);
	CKPT(k, s->issue);
	CKPT(k, s->kind);
	CKPT(k, s->write);
	CKPT(k, s->snooped);
	CKPT(k, s->cached);
	CKPT(k, s->bytes);
	CKPT(k, s->proc);
	CKPT(k, s->ent);
	CKPT(k, s->value);
	CKPT(k, s->flag);
	CKPT(k, s->role);
}

/* The slot table and the free stack; restored ones are checked for consistency. */
static void slots_ckpt(req *r, ckpt *k)
{
	uint32_t n = ckpt_count(k, r->queue, r->queue), used = 0;

	if (ckpt_loading(k) && n != r->queue) {
		ckpt_fail(k, "%u slots saved, %u configured (workload.queue, host.cores)", n,
			  r->queue);
		return;
	}
	for (uint32_t s = 0; s < n; s++)
		slot_ckpt(&r->slot[s], k);
	r->nfree = ckpt_count(k, r->nfree, r->queue);
	ckpt_bytes(k, r->free_slot, r->nfree * sizeof(*r->free_slot));
	if (!ckpt_loading(k))
		return;
	for (uint32_t s = 0; s < n; s++)
		used += r->slot[s].kind != REQ_FREE;
	for (uint32_t i = 0; i < r->nfree; i++)
		if (r->free_slot[i] >= r->queue || r->slot[r->free_slot[i]].kind != REQ_FREE)
			ckpt_fail(k, "saved free slot %u is not free", r->free_slot[i]);
	if (used != r->outstanding || used + r->nfree != r->queue)
		ckpt_fail(k, "saved slots: %u in use, %u free, %u outstanding of %u", used, r->nfree,
			  r->outstanding, r->queue);
}

/**
 * req__ckpt - model_ops.ckpt of the requester: save or restore its state
 * with visitor @k (the order and the rules in this file's header).
 * @c:     the requester
 * @state: its req
 * @k:     the visitor; it fails, naming what, on a checkpoint that does not
 *         fit this config (slots, cache geometry, processes, trace)
 */
void req__ckpt(sim_comp *c, void *state, ckpt *k)
{
	req *r = state;

	(void)c; /* the events it restores come from k->c's pool */
	ckpt_mark(k, TAG_REQ, "requester");
	CKPT(k, r->cr);
	CKPT(k, r->requests);
	CKPT(k, r->measuring);
	CKPT(k, r->issued);
	CKPT(k, r->outstanding);
	CKPT(k, r->next_issue);
	CKPT(k, r->next_read);
	CKPT(k, r->next_line);
	CKPT(k, r->timer_armed);
	CKPT(k, r->exhausted);
	cxl_fc_ckpt(k, &r->fc);
	slots_ckpt(r, k);
	ckpt_mark(k, TAG_FLAGS, "requester flag lines");
	flagmap_ckpt(&r->vals, k);
	flagmap_ckpt(&r->wb_busy, k);
	flagmap_ckpt(&r->fill_busy, k);
	req__coh_ckpt(r, k);
	req__trace_ckpt(r, k);
	req__prog_ckpt(r, k);
}
