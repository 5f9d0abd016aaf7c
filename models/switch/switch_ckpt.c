/*
 * models/switch/switch_ckpt.c - the switch's checkpoint hook (core/ckpt.h).
 *
 * One function saves and restores what a switch's events change; init has
 * already built everything the config and the fabric give (routing, port
 * counts, the FIFOs' storage, statistics, whether it forwards ahead), and
 * the engine restores the statistics (pkts, max_occupancy, p<p>_* ...).
 * Visited, in this order:
 *   shape     nports, buf, ahead and esf, checked equal to init's (a
 *             checkpoint of another config is refused, not misread);
 *   credits   cr[port] towards each bus;
 *   FIFOs     per FIFO q: head, count, then per packet held its event
 *             (kept: ckpt_event) and its output out[q * buf + slot], at
 *             the ring slots it had (so `out` needs no remapping);
 *   outputs   load[port], the per-output lists of FIFOs (lhead, ltail,
 *             llen per port, next per FIFO: indexes, their order is the
 *             round robin's), held;
 *   ahead     (only when forwarding ahead) pipe_out, pipe_in, the ring of
 *             ready times `ends` (ehead, en, entries), plain_at/plain_any,
 *             phase, and the send numbering (ord_*, ahead_*);
 *   esf       (only with switch.esf_port_busy) port_free per port.
 * The todo stack is empty between events (serve_wanted drains it), so
 * there is nothing of it to save; saving asserts so.  Packets in the
 * pipeline are pending events (SW_EV_READY, or forwarded ahead): the
 * engine keeps those.  Time series (sampling on) are not the hook's.
 */
#include "models/switch/switch_int.h"

/* array - save or restore @n elements of @size bytes at @p. */
static void array(ckpt *k, void *p, size_t n, size_t size)
{
	ckpt_bytes(k, p, n * size);
}

/* ports - save or restore field @f of every output port, in port order (an array's bytes). */
#define ports(k, s, f)                                        \
	do {                                                  \
		for (uint32_t p_ = 0; p_ < (s)->nports; p_++) \
			CKPT((k), (s)->pt[p_].f);             \
	} while (0)

/* fifo - input FIFO @q: its ring position, packets and their outputs. */
static void fifo(ckpt *k, sw *s, uint32_t q)
{
	evring *r = &s->in[q];
	uint32_t head = ckpt_count(k, r->head, r->cap - 1);
	uint32_t n = ckpt_count(k, r->n, r->cap);

	if (ckpt_loading(k)) {
		CXL_ASSERT(r->n == 0); /* init keeps no packet */
		r->head = head;
		r->n = n;
	}
	for (uint32_t i = 0; i < r->n; i++) {
		uint32_t slot = (r->head + i) % r->cap;
		if (ckpt_loading(k))
			r->e[slot] = NULL; /* the slots are uninitialised storage */
		ckpt_event(k, &r->e[slot]);
		CKPT(k, s->out[(size_t)q * s->buf + slot]);
	}
}

/* ahead - the state of forwarding in the arrival event (switch.c). */
static void ahead(ckpt *k, sw *s)
{
	uint32_t cap = s->nq * s->buf;

	ports(k, s, pipe_out);
	array(k, s->pipe_in, s->nq, sizeof(*s->pipe_in));
	uint32_t head = ckpt_count(k, s->ehead, cap - 1);
	uint32_t n = ckpt_count(k, s->en, cap);
	if (ckpt_loading(k)) {
		s->ehead = head;
		s->en = n;
	}
	for (uint32_t i = 0; i < s->en; i++)
		CKPT(k, s->ends[(s->ehead + i) % cap]);
	CKPT(k, s->plain_at);
	CKPT(k, s->plain_any);
	CKPT(k, s->phase);
	CKPT(k, s->ord_vt);
	CKPT(k, s->ord_phase);
	CKPT(k, s->ord_sub);
	CKPT(k, s->ahead_vt);
	CKPT(k, s->ahead_sub);
}

/**
 * sw__ckpt - model_ops.ckpt of the switch: save or restore (@k) the state
 * of switch @state that its events change (list at the top of this file).
 * @c: the component.  A checkpoint of another shape (ports, buffer,
 * forwarding ahead) fails the restart with the reason.
 */
void sw__ckpt(sim_comp *c, void *state, ckpt *k)
{
	sw *s = state;

	(void)c;
	CXL_ASSERT(s->ntodo == 0);
	ckpt_same(k, s->nports, "its port count");
	ckpt_same(k, s->buf, "switch.buffer");
	ckpt_same(k, (uint32_t)s->ahead, "forwarding ahead (latency, routing, slices, sampling)");
	ckpt_same(k, (uint32_t)s->esf, "switch.esf_port_busy");
	ckpt_mark(k, 0x53570001, "switch credits");
	ports(k, s, cr);
	ckpt_mark(k, 0x53570002, "switch FIFOs");
	for (uint32_t q = 0; q < s->nq; q++)
		fifo(k, s, q);
	ckpt_mark(k, 0x53570003, "switch outputs");
	ports(k, s, load);
	ports(k, s, lhead);
	ports(k, s, ltail);
	ports(k, s, llen);
	array(k, s->next, s->nq, sizeof(*s->next));
	CKPT(k, s->held);
	if (s->ahead) {
		ckpt_mark(k, 0x53570004, "switch forwarding ahead");
		ahead(k, s);
	}
	if (s->esf) {
		ckpt_mark(k, 0x53570005, "switch ESF port occupancy");
		array(k, s->port_free, s->nports, sizeof(*s->port_free));
	}
	ckpt_mark(k, 0x53570006, "switch credit return");
	cxl_fc_ckpt(k, &s->fc);
	ckpt_mark(k, 0x535700ff, "switch end");
}
