/*
 * models/memory/mem_ckpt.c - the memory endpoint's checkpoint hook
 * (model_ops.ckpt, core/ckpt.h): one function that saves and restores
 * what the endpoint's events change.
 *
 * Visited, in this order (the bytes carry no names; a ckpt_mark starts
 * each section):
 *   - the credits towards the bus on every port, the response rings;
 *   - the requests of several lines: the parent slots (each slot's kept
 *     request), their free stack and the ring of parents whose next part
 *     may enter the DCOH; the slots exist only once the first such request
 *     came, and loading makes them if the saved run had them;
 *   - the flag values of the lines the device holds (flagmap.h);
 *   - the simple model's channel free times, or the detailed model's DRAM
 *     (dram_ckpt.c: its queues hold kept events, named by their tags,
 *     saved here and rebuilt as tags on load), the wait rings, the time of
 *     each channel's pending timer and the wait-area accounting;
 *   - the DCOH, if the device has one (dcoh_ckpt.c: snoop filter,
 *     transactions, parked requests, BISnps waiting for credits).
 * Every event the endpoint keeps is in exactly one of: a response ring, a
 * parent slot, a wait ring, a DRAM queue, or the DCOH.  Self-sent events in
 * flight (MEM_EV_ARRIVE, MEM_EV_DONE, MEM_EV_DRAM timers) are pending
 * events, which the engine saves; they carry slot and channel numbers, no
 * pointers.  Not visited: what mem_init() derives from the config
 * (parameters, the HDM decoder, array sizes, statistics pointers), and
 * the statistics themselves (registered: the engine restores them).
 * Loading runs after mem_init(), which keeps no event, so every slot an
 * event is read into is cleared first.
 */
#include <stdlib.h>

#include "core/xmalloc.h"
#include "models/memory/dram.h"
#include "models/memory/mem_int.h"

#define MEM_CKPT_MARK 0x4d454d30u   /* "MEM0": credits and responses */
#define MEM_CKPT_PARTS 0x4d454d31u  /* "MEM1": requests of several lines */
#define MEM_CKPT_FLAGS 0x4d454d32u  /* "MEM2": flag values */
#define MEM_CKPT_DRAM 0x4d454d33u   /* "MEM3": the DRAM path */
#define MEM_CKPT_COH 0x4d454d34u    /* "MEM4": the DCOH */

static void parent_ckpt(ckpt *k, mem_parent *pa)
{
	if (ckpt_loading(k))
		pa->req = NULL;
	ckpt_event(k, &pa->req);
	CKPT(k, pa->coh_ps);
	CKPT(k, pa->n);
	CKPT(k, pa->made);
	CKPT(k, pa->done);
	CKPT(k, pa->ready);
	CKPT(k, pa->queued);
	CKPT(k, pa->in_wait);
}

/* The parent slots of requests of several lines, if the run has made them. */
static void parts_ckpt(ckpt *k, mem *m)
{
	uint8_t have = m->parent != NULL;

	ckpt_mark(k, MEM_CKPT_PARTS, "memory: requests of several lines");
	CKPT(k, have);
	if (!have || ckpt_failed(k))
		return;
	if (ckpt_loading(k) && !m->parent)
		mem__parents_init(m);
	for (uint32_t s = 0; s < m->nparent && !ckpt_failed(k); s++)
		parent_ckpt(k, &m->parent[s]);
	m->nfree = ckpt_count(k, m->nfree, m->nparent);
	ckpt_bytes(k, m->parent_free, m->nfree * sizeof(*m->parent_free));
	CKPT(k, m->next_head);
	m->next_n = ckpt_count(k, m->next_n, m->nparent);
	if (m->next_head >= m->nparent)
		ckpt_fail(k, "memory: a saved part ring starts at %u of %u", m->next_head,
			  m->nparent);
	for (uint32_t i = 0; i < m->next_n && !ckpt_failed(k); i++)
		CKPT(k, m->next_q[(m->next_head + i) % m->nparent]);
}

/* dram_tag_ckpt_fn: a queued DRAM request's tag is its event (mem.c: enqueue()). */
static void tag_ckpt(void *ctx, ckpt *k, uint64_t *tag)
{
	cxl_event *ev = ckpt_loading(k) ? NULL : (cxl_event *)(uintptr_t)*tag;

	(void)ctx;
	ckpt_event(k, &ev);
	if (ckpt_loading(k))
		*tag = (uint64_t)(uintptr_t)ev;
}

/* The DRAM path of either model. */
static void dram_path_ckpt(ckpt *k, mem *m)
{
	ckpt_mark(k, MEM_CKPT_DRAM, "memory: DRAM");
	if (!m->dr) {
		ckpt_bytes(k, m->ch_free, m->nch * sizeof(*m->ch_free));
		return;
	}
	dram_ckpt(m->dr, k, tag_ckpt, NULL);
	for (uint32_t i = 0; i < m->nch && !ckpt_failed(k); i++)
		evring_ckpt(&m->wait[i], k);
	ckpt_bytes(k, m->timer_at, m->nch * sizeof(*m->timer_at));
	CKPT(k, m->nwait);
	CKPT(k, m->wait_since);
	CKPT(k, m->wait_area);
	CKPT(k, m->kick);
}

/**
 * mem__ckpt - model_ops.ckpt of the memory endpoint (see the file comment).
 * @c:     the component
 * @state: its mem, after mem_init() when loading
 * @k:     the visitor
 * A saved run with a DCOH restored into one without (or the reverse) fails
 * the visitor: the configs differ.
 */
void mem__ckpt(sim_comp *c, void *state, ckpt *k)
{
	mem *m = state;
	uint8_t coh = m->coh != NULL;

	(void)c;
	ckpt_mark(k, MEM_CKPT_MARK, "memory");
	ckpt_bytes(k, m->cr, m->nports * sizeof(*m->cr));
	cxl_fc_ckpt(k, &m->fc);
	for (uint32_t i = 0; i < 2 * m->nports && !ckpt_failed(k); i++)
		evring_ckpt(&m->resp[i], k);
	parts_ckpt(k, m);
	ckpt_mark(k, MEM_CKPT_FLAGS, "memory: flag values");
	flagmap_ckpt(&m->flagv, k);
	dram_path_ckpt(k, m);
	ckpt_mark(k, MEM_CKPT_COH, "memory: DCOH");
	CKPT(k, coh);
	if (ckpt_loading(k) && coh != (m->coh != NULL))
		ckpt_fail(k, "memory: saved %s a DCOH, the config has %s", coh ? "with" : "without",
			  m->coh ? "one" : "none");
	if (m->coh && !ckpt_failed(k))
		dcoh_ckpt(m->coh, k);
}
