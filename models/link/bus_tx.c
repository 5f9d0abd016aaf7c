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
 * With the data-link layer on, bus_replay.c decides what goes next (DLLP >
 * replay > new TLP) and what happens at the end; this file keeps the
 * timing (bus__occupy) and the round-robin VC pick (bus__pick_vc), which
 * both paths share.
 */
#include "models/link/bus_int.h"

#include "models/proto/cxl_lat.h"

/**
 * bus__pick_vc - the next VC of direction @d, round-robin from b->rr[d],
 * whose FIFO head may be sent: it holds a packet and a credit towards the
 * far port is held (refuse-on-full: no credit needed, the far end refuses).
 * Returns the VC, or -1 if none.
 */
int bus__pick_vc(const bus *b, int d)
{
	for (int k = 0; k < CXL_NVC; k++) {
		int v = (b->rr[d] + k) % CXL_NVC;
		if (b->q[d][v].n && (b->refuse || b->cr[1 - d].n[v]))
			return v;
	}
	return -1;
}

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
	sim_time ser = b->slow * bus_ser_time(b->gen, b->lanes, b->enc, bytes);

	tx->span = ser;
	if (b->half && b->last_dir >= 0 && b->last_dir != d)
		tx->span += b->turnaround;
	b->last_dir = d;
	tx->busy = 1;
	tx->dir = (uint8_t)d;
	return ser;
}

/*
 * start_plain - the plain path: take the next packet transmitter @t may
 * send from its FIFO, spend a credit towards the far port; with a
 * cut-through switch there, send it as soon as its header is over.
 * Returns 0 if nothing can be sent.
 */
static int start_plain(sim_comp *c, bus *b, int t)
{
	bus_tx *tx = &b->tx[t];
	int first = bus__first_dir(b, t), d = first, v = -1;

	for (int k = 0; k < (b->half ? 2 : 1) && v < 0; k++) {
		d = k ? 1 - first : first;
		v = bus__pick_vc(b, d);
	}
	if (v < 0)
		return 0;
	cxl_event *ev = evring_pop(&b->q[d][v]);
	cxl_lat_until(&ev->pkt, CXL_LAT_QUEUE, sim_now(c)); /* waited for the transmitter */
	b->cr[1 - d].n[v]--;
	b->rr[d] = (uint8_t)((v + 1) % CXL_NVC);
	sim_time ser = bus__occupy(b, tx, d, bus__wire_bytes(b, ev->pkt.size));
	tx->span += bus__esf_turn_extra(b, v, tx->span - ser); /* 0 unless ESF-compatible */
	tx->what = BUS_TX_NEW;
	tx->vc = (uint8_t)v;
	tx->size = ev->pkt.size;
	tx->cur = ev;
	if (b->cut[1 - d]) {
		/* cut-through: the far switch takes the packet once its header is over */
		sim_time head = b->slow * bus_ser_time(b->gen, b->lanes, b->enc, b->header);
		ev->pkt.hops++;
		cxl_lat_add(&ev->pkt, CXL_LAT_SER, tx->span - ser + head);
		cxl_lat_add(&ev->pkt, CXL_LAT_LINK, b->latency);
		cxl_pkt_send_port(c, ev, (uint16_t)(1 - d), tx->span - ser + head + b->latency,
				  CXL_LAT_LINK);
		tx->cur = NULL;
	}
	return 1;
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
	if (!(b->rb_cap ? bus__replay_start(b, t, sim_now(c)) : start_plain(c, b, t)))
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
	(*b->pkts[d])++;
	*b->wire[d] += bus__wire_bytes(b, tx->size);
	*b->payload[d] += tx->size;
	*b->busy[d] += tx->span;
	series_span(b->ts_busy[d], sim_now(c) - tx->span, sim_now(c));
	if (ev) { /* store-and-forward: the whole packet is over */
		ev->pkt.hops++;
		cxl_lat_until(&ev->pkt, CXL_LAT_SER, sim_now(c));
		cxl_lat_add(&ev->pkt, CXL_LAT_LINK, b->latency);
		cxl_pkt_send_port(c, ev, (uint16_t)(1 - d), b->latency, CXL_LAT_LINK);
	}
	cxl_grant(c, (uint16_t)d, tx->vc, 1);
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
	if (b->rb_cap)
		bus__replay_done(c, b, tx);
	else
		done_plain(c, b, tx);
	bus__tx_start(c, b, t, timer);
}
