/*
 * models/link/bus_tx.c - the bus's transmitters (see bus.c for the model).
 *
 * Full duplex has one transmitter per wire direction, half duplex one
 * shared by both, which adds bus.turnaround whenever it sends in the other
 * direction than its previous packet (not before its first).  A
 * transmitter is either idle or serialising one thing; when it ends (the
 * self-sent BUS_EV_TX_DONE, whose event is re-used for the next one) it
 * picks the next.  Any arrival that may give it work calls bus__tx_start.
 *
 * Plain path (bus.replay_buffer = 0, the default): an idle transmitter
 * picks, among the VCs of a direction whose FIFO head can be sent (a credit
 * is held towards the far port), the next one round-robin after the VC it
 * sent last in that direction; half duplex tries the direction it did not
 * send last first, so under load in both directions it alternates packet
 * by packet.  At the end of the serialisation the packet leaves the far
 * port after bus.latency (hops + 1) and its input credit goes back; with a
 * cut-through switch on the far port it leaves once its header is over.
 *
 * Early mode (b->early, the default where it is exact): the plain path
 * sends the packet (delay serialisation + bus.latency) and its credit
 * (delay serialisation) when the serialisation STARTS, so the packet and
 * the credit arrive at exactly the times they would if sent at its end,
 * and a transmitter needs a BUS_EV_TX_DONE event only when something waits
 * for it (an idle bus costs one event per packet, its arrival, instead of
 * two).  What must stay as it was:
 *   - the transmitter is free at the end `until` of its serialisation,
 *     exactly where the end event would have run: an event at `until`
 *     from a component whose id is below the bus's ran before that end
 *     event (the ordering key, evq.h), so it finds the transmitter busy
 *     and arms an end event now (delay 0), which runs where the old one
 *     did relative to every other component's events; an event from a
 *     higher id finds it free;
 *   - statistics are counted at the start, so only a transmission that
 *     ends before sim_stop_time() sends ahead; one ending at or after it
 *     keeps its packet (queued_at_end) and sends nothing, as before;
 *   - the order of same-time events at the receivers: a send made ahead
 *     of time carries, as its ordering number (sim_send_port_seq), its
 *     virtual send time (the serialisation's end) x 8 + its rank among the
 *     bus's sends with that virtual time (packet, then credit; the other
 *     transmitter's sends with the same end first if it started first), so
 *     two of its events reaching one component at one time are ordered by
 *     when the old model sent them.  With bus.latency > 0 a packet and a
 *     credit towards one port never share an arrival time unless their
 *     virtual times differ, which keeps that order exact.
 * A packet that the transmitter would take from its FIFO at once (full
 * duplex, nothing else waiting in its direction, a credit held, the
 * transmitter free) starts without the FIFO's push and pop
 * (bus__tx_start_now, called by the arrival): ring trace replay 468.5 ->
 * 460.1 M loop instructions, spine_leaf 233.5 -> 224.4 M, identical results.
 * Early mode is off (the old path, with its end events) with the
 * data-link layer, time series, cut-through peers, bus.latency = 0,
 * bus.header_bytes = 0 (a 0 ps serialisation) or an end beyond 2^60 ps.
 * Batched credits (bus.credit_batch > 1, cxl_fc.h): a credit held goes
 * with its batch in the credit's slot, on a packet, or with the timer
 * (bus__fc_send, slots 4-5 of its time); packets carry the credits held
 * for the port they leave by.
 *
 * With the data-link layer on, bus_replay.c decides what goes next (DLLP >
 * replay > new TLP) and what happens at the end; this file keeps the
 * timing (bus__occupy), which both paths share, as they share the
 * round-robin VC pick (bus__pick_vc, inline in bus_int.h).
 */
#include "models/link/bus_int.h"

#include "models/proto/cxl_lat.h"

/**
 * bus__first_dir - the wire direction transmitter @t tries first: its own
 * in full duplex; in half duplex the one it did not send last (0 first),
 * or with bus.esf_half_drain the one it sent last.
 */
int bus__first_dir(const bus *b, int t)
{
	if (b->half && b->esf_drain && b->last_dir >= 0)
		return b->last_dir; /* ESF-compatible (bus_esf.c): keep the direction */
	return b->half ? (b->last_dir < 0 ? 0 : 1 - b->last_dir) : t;
}

/**
 * bus__occupy - make @tx busy sending @bytes in wire direction @d: sets
 * tx->busy, tx->dir and tx->span (serialisation, times the iso-bisection
 * slowdown, plus the turnaround if a half-duplex bus changes direction) and
 * records the direction.  Returns the serialisation time alone, ps.
 */
sim_time bus__occupy(bus *b, bus_tx *tx, int d, uint32_t bytes)
{
	sim_time ser = b->slow * bus__ser(&b->rate, bytes);

	tx->span = ser;
	if (b->half && b->last_dir >= 0 && b->last_dir != d)
		tx->span += b->turnaround;
	b->last_dir = d;
	tx->busy = 1;
	tx->dir = (uint8_t)d;
	return ser;
}

/* count_tlp - the statistics of the TLP @tx sends in direction @d (first transmission). */
static inline void count_tlp(bus *b, const bus_tx *tx, int d)
{
	b->pkts[d]++;
	b->wire[d] += bus__wire_bytes(b, tx->size);
	b->payload[d] += tx->size;
	b->busy[d] += tx->span;
}

/*
 * start_pkt - the plain path's start of packet @ev of VC @v, just taken
 * from direction @d's FIFO (or never put there, bus__tx_start_now), on
 * transmitter @tx: spend a credit towards the far port; with a cut-through
 * switch there, send it as soon as its header is over.
 */
static void start_pkt(sim_comp *c, bus *b, bus_tx *tx, int d, int v, cxl_event *ev)
{
	cxl_lat_until(&ev->pkt, CXL_LAT_QUEUE, sim_now(c)); /* waited for the transmitter */
	b->cr[1 - d].n[v]--;
	b->rr[d] = (uint8_t)(v + 1 < CXL_NVC ? v + 1 : 0);
	sim_time ser = bus__occupy(b, tx, d, bus__wire_bytes(b, ev->pkt.size));
	tx->span += bus__esf_turn_extra(b, v, tx->span - ser); /* 0 unless ESF-compatible */
	tx->what = BUS_TX_NEW;
	tx->vc = (uint8_t)v;
	tx->size = ev->pkt.size;
	tx->cur = ev;
	if (b->cut[1 - d]) {
		/* cut-through: the far switch takes the packet once its header is over */
		sim_time head = b->slow * bus__ser(&b->rate, b->header);
		ev->pkt.hops++;
		cxl_lat_add(&ev->pkt, CXL_LAT_SER, tx->span - ser + head);
		cxl_lat_add(&ev->pkt, CXL_LAT_LINK, b->latency);
		cxl_fc_piggy(&b->fc, (uint16_t)(1 - d), ev);
		cxl_pkt_send_port(c, ev, (uint16_t)(1 - d), tx->span - ser + head + b->latency,
				  CXL_LAT_LINK);
		tx->cur = NULL;
	}
}

/*
 * start_plain - the plain path: take the next packet transmitter @t may
 * send from its FIFO and start it (start_pkt).  Returns 0 if nothing can
 * be sent.
 */
static int start_plain(sim_comp *c, bus *b, int t)
{
	int first = bus__first_dir(b, t), d = first, v = -1;

	for (int k = 0; k < (b->half ? 2 : 1) && v < 0; k++) {
		d = k ? 1 - first : first;
		v = bus__pick_vc(c, b, d);
	}
	if (v < 0)
		return 0;
	start_pkt(c, b, &b->tx[t], d, v, bus__q_pop(b, d, v));
	return 1;
}

/**
 * bus__early_init - decide whether bus @b sends ahead (early mode, above);
 * call in init after the data-link layer and the statistics are set up.
 */
void bus__early_init(const sim_comp *c, bus *b)
{
	b->stop = sim_stop_time(c);
	b->early = !b->rb_cap && !b->ts_busy[0] && !b->ts_busy[1] && !b->cut[0] && !b->cut[1] &&
		   b->latency > 0 && b->header > 0 && b->stop < ((sim_time)1 << 60);
	b->tx[0].vt = b->tx[1].vt = SIM_TIME_MAX;
}

/* can_send - transmitter @t could start a packet now (one is waiting and a credit held). */
static int can_send(sim_comp *c, const bus *b, int t)
{
	if (!b->half)
		return bus__pick_vc(c, b, t) >= 0;
	return bus__pick_vc(c, b, 0) >= 0 || bus__pick_vc(c, b, 1) >= 0;
}

/*
 * arm - make transmitter @t's end event run at its `until` (early mode),
 * re-using @timer (an event the caller handles) or a new one.  Nothing if
 * it is armed already or ends at or after the stop.
 */
static void arm(sim_comp *c, bus *b, int t, cxl_event *timer)
{
	bus_tx *tx = &b->tx[t];

	if (tx->armed || tx->until >= b->stop)
		return;
	if (!timer)
		timer = sim_event_new(c);
	timer->kind = BUS_EV_TX_DONE;
	timer->dst_port = (uint16_t)t;
	tx->armed = 1;
	sim_send_self(c, timer, tx->until - sim_now(c));
}

/*
 * send_ahead - early mode: count the packet transmitter @t has just started
 * and send it and its credit now, to arrive as if sent at the end.
 */
static void send_ahead(sim_comp *c, bus *b, int t)
{
	bus_tx *tx = &b->tx[t];
	cxl_event *ev = tx->cur;
	int d = tx->dir;
	sim_time end = tx->until;
	const bus_tx *other = &b->tx[1 - t];
	unsigned rank = !b->half && other->vt == end ? other->nsent : 0;

	tx->cur = NULL;
	tx->vt = end;
	tx->nsent = (uint8_t)(rank + 2);
	count_tlp(b, tx, d);
	ev->pkt.hops++;
	cxl_lat_until(&ev->pkt, CXL_LAT_SER, end);
	cxl_lat_add(&ev->pkt, CXL_LAT_LINK, b->latency);
	cxl_lat_check(&ev->pkt, sim_now(c), tx->span + b->latency);
	cxl_lat_add(&ev->pkt, CXL_LAT_LINK, c->ports[1 - d].latency);
	cxl_fc_piggy(&b->fc, (uint16_t)(1 - d), ev);
	sim_send_port_seq(c, ev, (uint16_t)(1 - d), tx->span + b->latency, end << 3 | rank);
	bus__credit(c, b, d, tx->vc, tx->span, 1, end << 3 | (rank + 1));
}

/**
 * bus__credit - the packet of VC @vc that came in on port @d has left its
 * FIFO: return its credit over @d (cxl_fc_owe: at once, or with its batch,
 * or held for the timer or a packet), after @delay, numbered @seq if
 * @ahead (early mode).
 */
void bus__credit(sim_comp *c, bus *b, int d, uint8_t vc, sim_time delay, int ahead,
		 uint64_t seq)
{
	uint16_t n = cxl_fc_owe(c, &b->fc, (uint16_t)d, vc);

	if (!n)
		return;
	if (ahead) /* lazy: the peer takes it in at its next event if nothing waits for it */
		sim_send_port_lazy_seq(c, (uint16_t)d, delay, CXL_EV_CREDIT, vc, n, seq);
	else
		sim_send_port_lazy(c, (uint16_t)d, delay, CXL_EV_CREDIT, vc, n);
}

/**
 * bus__fc_send - cxl_fc_send_fn of the bus: a packed return of held
 * credits out of @port now; in early mode numbered after every send made
 * ahead for this time (slots 4-5 of the time's eight, one per port).
 */
void bus__fc_send(sim_comp *c, void *state, uint16_t port, cxl_event *ev)
{
	const bus *b = state;

	if (b->early)
		sim_send_port_seq(c, ev, port, 0, sim_now(c) << 3 | (4u + port));
	else
		sim_send_port(c, ev, port, 0);
}

/* started_early - transmitter @t has just started a packet (early mode): its end, and the sends ahead. */
static void started_early(sim_comp *c, bus *b, int t)
{
	bus_tx *tx = &b->tx[t];

	tx->until = sim_now(c) + tx->span;
	if (tx->until < b->stop)
		send_ahead(c, b, t);
}

/*
 * free_early - early mode: is transmitter @t free for an arrival from @src
 * now?  Busy until its `until`; at `until` itself, free for a component
 * ordered after the bus (its end event would have run first, evq.h's key),
 * which then marks it idle (the end event was not armed).
 */
static int free_early(const sim_comp *c, bus *b, int t, uint32_t src)
{
	bus_tx *tx = &b->tx[t];

	if (!tx->busy)
		return 1;
	sim_time now = sim_now(c);
	if (now < tx->until || (now == tx->until && src < c->id))
		return 0;
	CXL_ASSERT(!tx->armed);
	tx->busy = 0; /* its end event would have run before this one */
	return 1;
}

/*
 * start_early - early mode: if transmitter @t (idle) has a packet it may
 * send, start it and send ahead; arm its end event (re-using @timer, the
 * event the caller handles, if not NULL) if another could follow at once.
 */
static void start_early(sim_comp *c, bus *b, int t, cxl_event *timer)
{
	/* nothing waits in the directions start_plain would pick from: no call */
	if (!(b->half ? b->qmask[0] | b->qmask[1] : b->qmask[t]) || !start_plain(c, b, t))
		return;
	bus__note_queue(c, b, b->tx[t].dir);
	started_early(c, b, t);
	if (can_send(c, b, t))
		arm(c, b, t, timer);
}

/**
 * bus__tx_start_now - packet @ev (kept) of VC @v has come in on port @d from
 * component @src: if the early-mode plain path would take it from its FIFO
 * at once (full duplex, nothing else waiting in direction @d, a credit held,
 * the transmitter free by the rule of bus__tx_wake, no queue time series),
 * start it without the FIFO's push and pop and return 1; the state and
 * every send are the same (FIFO order and round-robin need no other
 * packet).  Else 0: the caller queues it and wakes the transmitter.
 */
int bus__tx_start_now(sim_comp *c, bus *b, int d, int v, cxl_event *ev, uint32_t src)
{
	if (!b->early || b->half || b->qmask[d] ||
	    !cxl_credit_has(c, &b->cr[1 - d], (uint16_t)(1 - d), (unsigned)v) || b->ts_queued[d] ||
	    !free_early(c, b, d, src)) /* busy: it waits in the FIFO for the end event */
		return 0;
	start_pkt(c, b, &b->tx[d], d, v, ev);
	started_early(c, b, d);
	return 1; /* nothing else waits in direction d: no end event (start_early's can_send) */
}

/**
 * bus__tx_wake - an arrival (a packet or credits, from component @src) may
 * give transmitter @t work: start it if it is idle (bus__tx_start), or in
 * early mode, if it is busy, make its end event run (see above).
 */
void bus__tx_wake(sim_comp *c, bus *b, int t, uint32_t src)
{
	if (!b->early) {
		bus__tx_start(c, b, t, NULL);
		return;
	}
	if (!free_early(c, b, t, src)) {
		if (can_send(c, b, t))
			arm(c, b, t, NULL);
		return;
	}
	start_early(c, b, t, NULL);
}

/**
 * bus__tx_start - if transmitter @t is idle and has something to send,
 * start it and arm its completion timer.  @timer is an event the caller
 * owns that may serve as the timer (the handled BUS_EV_TX_DONE), or NULL to
 * allocate one when needed.
 */
void bus__tx_start(sim_comp *c, bus *b, int t, cxl_event *timer)
{
	bus_tx *tx = &b->tx[t];

	if (tx->busy)
		return;
	if (!(b->rb_cap ? bus__replay_start(c, b, t, sim_now(c)) : start_plain(c, b, t)))
		return;
	bus__note_queue(c, b, tx->dir); /* it may have taken a packet from a FIFO */
	if (!timer)
		timer = sim_event_new(c);
	timer->kind = BUS_EV_TX_DONE;
	timer->dst_port = (uint16_t)t;
	sim_send_self(c, timer, tx->span);
}

/* done_plain - the plain path's end of a packet: count it, send it on, return its credit. */
static void done_plain(sim_comp *c, bus *b, bus_tx *tx)
{
	cxl_event *ev = tx->cur;
	int d = tx->dir;

	tx->cur = NULL;
	count_tlp(b, tx, d);
	series_span(b->ts_busy[d], sim_now(c) - tx->span, sim_now(c));
	if (ev) { /* store-and-forward: the whole packet is over */
		ev->pkt.hops++;
		cxl_lat_until(&ev->pkt, CXL_LAT_SER, sim_now(c));
		cxl_lat_add(&ev->pkt, CXL_LAT_LINK, b->latency);
		cxl_fc_piggy(&b->fc, (uint16_t)(1 - d), ev);
		cxl_pkt_send_port(c, ev, (uint16_t)(1 - d), b->latency, CXL_LAT_LINK);
	}
	bus__credit(c, b, d, tx->vc, 0, 0, 0);
}

/**
 * bus__tx_done - the serialisation of transmitter @t is over: finish it
 * (plain path or data-link layer) and start the next one, re-using the
 * timer event @timer.
 */
void bus__tx_done(sim_comp *c, bus *b, int t, cxl_event *timer)
{
	bus_tx *tx = &b->tx[t];

	CXL_ASSERT(tx->busy);
	tx->busy = 0;
	if (b->early) {
		CXL_ASSERT(tx->armed && tx->until == sim_now(c));
		tx->armed = 0;
		start_early(c, b, t, timer);
		return;
	}
	if (b->rb_cap)
		bus__replay_done(c, b, tx);
	else
		done_plain(c, b, tx);
	bus__tx_start(c, b, t, timer);
}
