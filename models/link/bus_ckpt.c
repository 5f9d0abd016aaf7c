/*
 * models/link/bus_ckpt.c - the bus's checkpoint hook (core/ckpt.h).
 *
 * One function saves and restores what a bus's events change; init has
 * already built what the config gives (parameters, the FIFOs' and replay
 * buffers' storage, early mode and its stop, cut-through peers,
 * statistics), and the engine restores the statistics and puts the
 * pending events back (transmitter ends, DLLP/TLP flights, timers, the
 * packets and credits sent ahead).  Visited, in this order:
 *   shape     buffer, replay_buffer, duplex and early mode, checked equal
 *             to init's (a checkpoint of another config is refused);
 *   FIFOs     per direction and VC: head, count and the packets held
 *             (kept events), at the ring slots they had;
 *   links     credits held towards each port, the round-robin VC per
 *             direction, the last direction sent;
 *   tx[2]     each transmitter field by field: the packet it serialises
 *             (plain path, kept; an early-mode packet that never ends
 *             before the stop stays there too) and its timing, including
 *             early mode's until/armed/vt/nsent (the ordering numbers of
 *             its sends ahead);
 *   dl[2]     with the data-link layer only: per direction the replay
 *             buffer's ring (head, n, sent, head_seq) and its entries in
 *             [head, head + n) (packet until accepted, size, VC, replayed),
 *             REPLAY_NUM, both timers (due time, armed flag) and the
 *             receiver (NEXT_RCV_SEQ, NAK/ACK state, the waiting DLLP).
 * Entries of a ring outside its held range are never read before they are
 * written, so they are not saved.  Time series (sampling on) are not the
 * hook's.
 */
#include "models/link/bus_int.h"

/* fifo - one input FIFO: its ring position and the packets it holds. */
static void fifo(ckpt *k, evring *r)
{
	uint32_t head = ckpt_count(k, r->head, r->cap - 1);
	uint32_t n = ckpt_count(k, r->n, r->cap);

	if (ckpt_loading(k)) {
		CXL_ASSERT(r->n == 0); /* init keeps no packet; its slots are NULL */
		r->head = head;
		r->n = n;
	}
	for (uint32_t i = 0; i < r->n; i++)
		ckpt_event(k, &r->e[(r->head + i) % r->cap]);
}

/* tx - one transmitter (bus_int.h), its pointer (cur) as a kept event. */
static void tx(ckpt *k, bus_tx *t)
{
	ckpt_event(k, &t->cur);
	CKPT(k, t->busy);
	CKPT(k, t->span);
	CKPT(k, t->dir);
	CKPT(k, t->vc);
	CKPT(k, t->size);
	CKPT(k, t->what);
	CKPT(k, t->dllp);
	CKPT(k, t->seq);
	CKPT(k, t->until);
	CKPT(k, t->armed);
	CKPT(k, t->vt);
	CKPT(k, t->nsent);
}

/* dll - the data-link layer of one direction: replay buffer, timers, receiver. */
static void dll(ckpt *k, const bus *b, bus_dll *l)
{
	uint32_t head = ckpt_count(k, l->head, b->rb_cap - 1);
	uint32_t n = ckpt_count(k, l->n, b->rb_cap);
	uint32_t sent = ckpt_count(k, l->sent, n);

	if (ckpt_loading(k)) {
		CXL_ASSERT(l->n == 0); /* init holds no TLP; the entries are zeroed */
		l->head = head;
		l->n = n;
		l->sent = sent;
	}
	for (uint32_t i = 0; i < l->n; i++) {
		bus_rbent *e = &l->rb[(l->head + i) % b->rb_cap];
		ckpt_event(k, &e->ev);
		CKPT(k, e->size);
		CKPT(k, e->vc);
		CKPT(k, e->replayed);
	}
	CKPT(k, l->head_seq);
	CKPT(k, l->replay_num);
	CKPT(k, l->rt_due);
	CKPT(k, l->rt_armed);
	CKPT(k, l->next_rcv);
	CKPT(k, l->nak_scheduled);
	CKPT(k, l->dllp);
	CKPT(k, l->ack_owed);
	CKPT(k, l->ack_free);
	CKPT(k, l->ack_armed);
}

/**
 * bus__ckpt - model_ops.ckpt of the bus: save or restore (@k) the state of
 * bus @state that its events change (list at the top of this file).
 * @c: the component.  A checkpoint of another shape (buffer, replay
 * buffer, duplex, early mode) fails the restart with the reason.
 */
void bus__ckpt(sim_comp *c, void *state, ckpt *k)
{
	bus *b = state;

	(void)c;
	ckpt_same(k, b->buffer, "bus.buffer");
	ckpt_same(k, b->rb_cap, "bus.replay_buffer");
	ckpt_same(k, (uint32_t)b->half, "half duplex");
	ckpt_same(k, (uint32_t)b->early, "early mode (sends ahead)");
	ckpt_mark(k, 0x42550001, "bus FIFOs");
	for (int d = 0; d < 2; d++)
		for (int v = 0; v < CXL_NVC; v++)
			fifo(k, &b->q[d][v]);
	if (ckpt_loading(k))
		bus__q_sync(b);
	ckpt_mark(k, 0x42550002, "bus credits");
	CKPT(k, b->cr);
	CKPT(k, b->rr);
	if (ckpt_loading(k) && (b->rr[0] >= CXL_NVC || b->rr[1] >= CXL_NVC))
		ckpt_fail(k, "bus: a saved round-robin VC %u/%u (expected below %d)", b->rr[0],
			  b->rr[1], CXL_NVC); /* bus__pick_vc relies on it */
	CKPT(k, b->last_dir);
	ckpt_mark(k, 0x42550003, "bus transmitters");
	tx(k, &b->tx[0]);
	tx(k, &b->tx[1]);
	if (b->rb_cap) {
		ckpt_mark(k, 0x42550004, "bus data-link layer");
		dll(k, b, &b->dl[0]);
		dll(k, b, &b->dl[1]);
	}
	ckpt_mark(k, 0x42550005, "bus credit return");
	cxl_fc_ckpt(k, &b->fc);
	ckpt_mark(k, 0x425500ff, "bus end");
}
