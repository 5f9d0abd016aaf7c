/*
 * models/link/bus_replay.c - the bus's optional PCIe data-link layer: ACK/NAK,
 * replay buffer, replay timer, ACK timer (PCIe seed §V-C; link-reference §4).
 *
 * On when bus.replay_buffer > 0, per direction d of the bus (bus_int.h:
 * sender at the port-d end, receiver at the port-(1-d) end, DLLPs back on
 * the wire of direction 1-d).  Off, nothing here runs and the bus behaves
 * exactly as without it (bus_tx.c's plain path, no extra events, no extra
 * statistics).
 *
 * Sender.  A TLP taken from its input FIFO gets the next sequence number
 * and enters the replay buffer (bus.replay_buffer TLPs); a full replay
 * buffer halts new TLPs.  Its input credit goes back at the end of its
 * first serialisation, as on the plain path.  The replay timer starts at
 * the end of a TLP's serialisation if it is not running, restarts when an
 * ACK/NAK acknowledges something and TLPs remain, stops when none remain.
 * ACK k frees every TLP below k; NAK k does too and then replays the rest,
 * in order; a replay timer expiry replays the whole buffer.  While a replay
 * pass is under way no new TLP is sent.  REPLAY_NUM counts replays since
 * the last forward progress; the 4th rolls it over, which makes a real
 * link retrain: counted (retrains_d<d>), not modelled (no retraining time).
 *
 * Wire.  Transmit priority per transmitter: ACK/NAK DLLP > replayed TLP >
 * new TLP (half duplex: by class first, then the direction not sent last
 * first).  A TLP occupies its transmitter for ser(header + payload), a
 * DLLP for ser(8 B: 6 B + 2 B framing; 0 B in flit mode, where ACK/NAK
 * ride in every flit's DLP bytes, already charged by the 236/256 factor);
 * half duplex adds the turnaround.  Both then cross bus.latency.  The
 * engine links' latency (the nodes' ports) is not part of the ACK loop.
 *
 * Receiver, when a TLP's tail arrives (BUS_EV_TLP_RX):
 *   corrupted (probability bus.error_rate, drawn from the component's own
 *   stream, so runs stay deterministic)  -> discarded; a NAK is scheduled
 *     at once unless one is already outstanding (nak_scheduled);
 *   seq below NEXT_RCV_SEQ (a duplicate)  -> discarded, an ACK at once;
 *   seq above it (after a discard)        -> discarded (go-back-N).  Unlike
 *     the spec, which NAKs it, this sends nothing, as the seed's model: a
 *     refused TLP must be recovered by the replay timer, not by a NAK;
 *   seq == NEXT_RCV_SEQ: with bus.refuse_on_full, if the bus holds no
 *     credit of its VC towards the receiving node (the node's buffer is
 *     full *as the bus sees it*: credits come back over the link, so this
 *     view is one link latency late) the TLP is refused - not delivered,
 *     NEXT_RCV_SEQ unchanged, no ACK - and the sender's timer will replay
 *     it.  Otherwise (spending that credit under refuse_on_full) it is
 *     delivered out of the far port (hops + 1; the engine link adds its
 *     latency), NEXT_RCV_SEQ advances and it is acknowledged.
 * ACK policy (the seed's model): a TLP is acknowledged at once if no ACK
 * of the timer went out in the last bus.ack_timer; otherwise the ACK waits
 * for the end of that interval and then covers every TLP received since.
 * So at most one timer ACK per bus.ack_timer, and no TLP waits longer than
 * that for its ACK (the spec's AckNak latency limit).  Pending DLLPs of a
 * direction coalesce in one slot (a NAK supersedes an ACK); the slot's k is
 * read when the DLLP starts, so it covers everything received until then.
 *
 * Delivery is exactly once: the packet event stays in its replay entry
 * until the receiver accepts it and is sent on from there; later copies
 * are duplicates and carry no packet.  Credits: without refuse_on_full a
 * TLP spends its credit towards the far node when first sent, as on the
 * plain path; with it, when accepted.  Either way once per packet.
 *
 * Timers are lazy: at most one event per timer is outstanding; restarting
 * only moves the due time later (the timeouts are constants), and a timer
 * event that fires early re-arms itself for the rest, one that finds its
 * timer stopped just ends.  Every event here is a self-send, so the
 * engine's lookahead (the links) is untouched.  Nothing is allocated per
 * packet: the replay buffers are one block from init, freed in finish.
 * Cut-through forwarding (switch.forwarding) does not apply with the layer
 * on: a TLP is delivered once its LCRC has been checked, at its tail.
 *
 * Limitation of refuse_on_full: a refused TLP holds back every later one
 * of its direction, whatever their VCs (go-back-N, as in the seed's model,
 * which has one class of traffic), so the independence of VCs that
 * per-VC credits give (cxl_proto.h) is lost on that link.  Meant for
 * PCIe-like trees, where each link direction carries requests only or
 * responses only; on fabrics where one direction carries both, a full
 * request VC can stall responses until it drains.
 */
#include "models/link/bus_int.h"

#include "models/proto/cxl_lat.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/xmalloc.h"

/* --- set-up ---------------------------------------------------------------- */

/* flit_mode - is this bus in PCIe 6 flit mode? */
static int flit_mode(const bus *b)
{
	return b->enc == BUS_ENC_FLIT || (b->enc == BUS_ENC_AUTO && b->gen >= 6);
}

/* register_replay_stats - the layer's counters, <name>_d0 and _d1 (bus_int.h). */
static void register_replay_stats(sim_comp *c, bus *b)
{
	static const char *const names[] = { "tlps", "replays", "replayed_tlps", "replay_timeouts",
					     "naks", "acks", "dllp_bytes", "retrains", "refused",
					     "corrupted", "replayed_ppm" };
	char name[40];

	for (int d = 0; d < 2; d++) {
		uint64_t **slot[] = { &b->dl[d].tlps, &b->dl[d].replays, &b->dl[d].replayed,
				      &b->dl[d].timeouts, &b->dl[d].naks, &b->dl[d].acks,
				      &b->dl[d].dllp_bytes, &b->dl[d].retrains, &b->dl[d].refused,
				      &b->dl[d].corrupted, &b->dl[d].ppm };
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			snprintf(name, sizeof(name), "%s_d%d", names[i], d);
			*slot[i] = sim_stat_counter(c, name);
		}
	}
	b->rb_end = sim_stat_counter(c, "replay_held_at_end");
}

/**
 * bus__replay_init - read the data-link keys into @b; if bus.replay_buffer > 0
 * allocate the replay buffers and register the layer's statistics.
 * Returns 0, or CXL_EINVAL (@err filled) for refuse_on_full or error_rate
 * without a replay buffer (nothing could recover the TLP).  Needs b->gen,
 * lanes, enc and slow already set.
 */
int bus__replay_init(sim_comp *c, bus *b, const cfg *cf, cxl_err *err)
{
	b->rb_cap = (uint32_t)cfg_int(cf, "bus.replay_buffer");
	b->err_rate = cfg_float(cf, "bus.error_rate");
	b->refuse = cfg_bool(cf, "bus.refuse_on_full");
	if (!b->rb_cap) {
		if (b->refuse)
			return cfg_error_at(cf, "bus.refuse_on_full", err,
					    "needs bus.replay_buffer > 0 (a refused TLP is recovered by replay)");
		if (b->err_rate > 0)
			return cfg_error_at(cf, "bus.error_rate", err,
					    "needs bus.replay_buffer > 0 (a corrupted TLP is recovered by replay)");
		return 0;
	}
	b->replay_to = cfg_time(cf, "bus.replay_timeout");
	if (!b->replay_to) /* the formula's symbols are slower on a slowed trunk */
		b->replay_to = b->slow * bus_replay_timeout(b->gen, b->lanes, b->enc,
							    (int)cfg_int(cf, "bus.internal_delay"));
	b->ack_to = cfg_time(cf, "bus.ack_timer");
	if (!b->ack_to)
		b->ack_to = b->replay_to / 3;
	b->dllp_size = flit_mode(b) ? 0 : BUS_DLLP_BYTES;
	b->rb_slots = xcalloc((size_t)2 * b->rb_cap, sizeof(*b->rb_slots));
	b->dl[0].rb = b->rb_slots;
	b->dl[1].rb = b->rb_slots + b->rb_cap;
	register_replay_stats(c, b);
	return 0;
}

/* --- timers ----------------------------------------------------------------- */

/* timer_event - a new self event of @kind for direction @d, due in @delay. */
static void timer_event(sim_comp *c, uint16_t kind, int d, sim_time delay)
{
	cxl_event *ev = sim_event_new(c);

	ev->kind = kind;
	ev->dst_port = (uint16_t)d;
	sim_send_self(c, ev, delay);
}

/* rt_restart - (re)start the replay timer of direction @d: due one timeout from now. */
static void rt_restart(sim_comp *c, bus *b, int d)
{
	bus_dll *l = &b->dl[d];

	l->rt_due = sim_now(c) + b->replay_to;
	if (!l->rt_armed) {
		l->rt_armed = 1;
		timer_event(c, BUS_EV_REPLAY_TIMER, d, b->replay_to);
	}
}

/* --- receiver ---------------------------------------------------------------- */

/* schedule_dllp - queue an ACK/NAK (@type) of direction @d on the reverse wire. */
static void schedule_dllp(sim_comp *c, bus *b, int d, uint8_t type)
{
	bus_dll *l = &b->dl[d];

	if (type == BUS_NAK || !l->dllp)
		l->dllp = type;
	l->ack_owed = 0; /* its k, read when it starts, covers every TLP so far */
	bus__tx_start(c, b, bus__tid(b, 1 - d), NULL);
}

/* ack_accepted - acknowledge an accepted TLP of @d now, or when the ACK timer allows. */
static void ack_accepted(sim_comp *c, bus *b, int d)
{
	bus_dll *l = &b->dl[d];
	sim_time now = sim_now(c);

	if (now >= l->ack_free) {
		l->ack_free = now + b->ack_to;
		schedule_dllp(c, b, d, BUS_ACK);
		return;
	}
	l->ack_owed = 1;
	if (!l->ack_armed) {
		l->ack_armed = 1;
		timer_event(c, BUS_EV_ACK_TIMER, d, l->ack_free - now);
	}
}

/* on_ack_timer - the ACK timer of @d (@ev, re-sent if it fired early). */
static void on_ack_timer(sim_comp *c, bus *b, int d, cxl_event *ev)
{
	bus_dll *l = &b->dl[d];
	sim_time now = sim_now(c);

	if (l->ack_owed && now < l->ack_free) {
		sim_send_self(c, ev, l->ack_free - now);
		return;
	}
	l->ack_armed = 0;
	if (l->ack_owed) {
		l->ack_free = now + b->ack_to;
		schedule_dllp(c, b, d, BUS_ACK);
	}
}

/* rb_entry - the replay entry of sequence number @seq of direction @d (held). */
static bus_rbent *rb_entry(const bus *b, const bus_dll *l, uint64_t seq)
{
	CXL_ASSERT(seq >= l->head_seq && seq - l->head_seq < l->n);
	return &l->rb[(l->head + (uint32_t)(seq - l->head_seq)) % b->rb_cap];
}

/* on_tlp_rx - the tail of TLP @seq of direction @d reaches its receiver. */
static void on_tlp_rx(sim_comp *c, bus *b, int d, uint64_t seq)
{
	bus_dll *l = &b->dl[d];

	if (b->err_rate > 0 && rng_uniform(sim_rng(c)) < b->err_rate) {
		(*l->corrupted)++;
		if (!l->nak_scheduled) {
			l->nak_scheduled = 1;
			schedule_dllp(c, b, d, BUS_NAK);
		}
		return;
	}
	if (seq < l->next_rcv) {
		schedule_dllp(c, b, d, BUS_ACK);
		return;
	}
	if (seq > l->next_rcv)
		return;
	bus_rbent *e = rb_entry(b, l, seq);
	if (b->refuse) {
		if (!cxl_credit_has(c, &b->cr[1 - d], (uint16_t)(1 - d), e->vc)) {
			(*l->refused)++;
			return;
		}
		b->cr[1 - d].n[e->vc]--;
	}
	cxl_event *ev = e->ev;
	CXL_ASSERT(ev != NULL);
	e->ev = NULL;
	ev->pkt.hops++;
	/* from its first start to the end of the serialisation that got through:
	   transmissions, waits in the replay buffer, replays; then the propagation */
	cxl_lat_until(&ev->pkt, CXL_LAT_SER, sim_now(c) - b->latency);
	cxl_lat_add(&ev->pkt, CXL_LAT_LINK, b->latency);
	cxl_pkt_send_port(c, ev, (uint16_t)(1 - d), 0, CXL_LAT_LINK);
	l->next_rcv++;
	l->nak_scheduled = 0;
	ack_accepted(c, b, d);
}

/* --- sender ------------------------------------------------------------------ */

/* start_replay - replay every TLP held by @d's sender, in order (counts REPLAY_NUM). */
static void start_replay(sim_comp *c, bus *b, int d)
{
	bus_dll *l = &b->dl[d];

	if (l->replay_num == 3) {
		(*l->retrains)++;
		l->replay_num = 0;
	} else {
		l->replay_num++;
	}
	l->sent = 0;
	bus__tx_start(c, b, bus__tid(b, d), NULL);
}

/* on_dllp_rx - ACK/NAK @type with k = @k reaches the sender of direction @d. */
static void on_dllp_rx(sim_comp *c, bus *b, int d, uint8_t type, uint64_t k)
{
	bus_dll *l = &b->dl[d];
	uint32_t freed = 0;

	CXL_ASSERT(k <= l->head_seq + l->n);
	while (l->n && l->head_seq < k) {
		CXL_ASSERT(l->rb[l->head].ev == NULL); /* accepted before acknowledged */
		l->head = (l->head + 1) % b->rb_cap;
		l->head_seq++;
		l->n--;
		l->sent -= l->sent ? 1 : 0;
		freed++;
	}
	if (freed) {
		l->replay_num = 0;
		if (l->n)
			rt_restart(c, b, d);
		else
			l->rt_due = 0;
	}
	if (type == BUS_NAK && l->n)
		start_replay(c, b, d);
	bus__tx_start(c, b, bus__tid(b, d), NULL);
}

/* on_replay_timer - the replay timer of @d (@ev, re-sent if it fired early). */
static void on_replay_timer(sim_comp *c, bus *b, int d, cxl_event *ev)
{
	bus_dll *l = &b->dl[d];
	sim_time now = sim_now(c);

	if (l->rt_due && now < l->rt_due) {
		sim_send_self(c, ev, l->rt_due - now);
		return;
	}
	l->rt_armed = 0;
	if (!l->rt_due)
		return;
	l->rt_due = 0;
	if (!l->n)
		return;
	(*l->timeouts)++;
	start_replay(c, b, d);
}

/* --- the transmitter's choices ------------------------------------------------- */

/* start_dllp - transmitter @tx sends, on wire @w, the DLLP waiting for direction 1-w. */
static void start_dllp(bus *b, bus_tx *tx, int w)
{
	bus_dll *l = &b->dl[1 - w];

	tx->what = BUS_TX_DLLP;
	tx->dllp = l->dllp;
	tx->seq = l->next_rcv;
	tx->size = 0;
	tx->cur = NULL;
	l->dllp = 0;
	l->ack_owed = 0;
	bus__occupy(b, tx, w, b->dllp_size);
}

/* start_tlp - @tx sends TLP number @i of @w's replay buffer (@what: new or replay). */
static void start_tlp(bus *b, bus_tx *tx, int w, uint32_t i, uint8_t what)
{
	bus_dll *l = &b->dl[w];
	bus_rbent *e = &l->rb[(l->head + i) % b->rb_cap];

	tx->what = what;
	tx->seq = l->head_seq + i;
	tx->vc = e->vc;
	tx->size = e->size;
	tx->cur = NULL;
	bus__occupy(b, tx, w, b->header + e->size);
}

/* start_new - take the next packet of direction @w from its FIFO into the replay buffer. */
static void start_new(bus *b, bus_tx *tx, int w, int v, sim_time now)
{
	bus_dll *l = &b->dl[w];
	cxl_event *ev = bus__q_pop(b, w, v);
	uint32_t i = l->n++;

	cxl_lat_until(&ev->pkt, CXL_LAT_QUEUE, now); /* waited for the transmitter */
	if (!b->refuse)
		b->cr[1 - w].n[v]--;
	b->rr[w] = (uint8_t)(v + 1 < CXL_NVC ? v + 1 : 0);
	l->rb[(l->head + i) % b->rb_cap] =
		(bus_rbent){ .ev = ev, .size = ev->pkt.size, .vc = (uint8_t)v };
	l->sent++;
	start_tlp(b, tx, w, i, BUS_TX_NEW);
}

/* start_class - start transmitter @t with something of priority class @k on wire @w. */
static int start_class(sim_comp *c, bus *b, int t, int k, int w, sim_time now)
{
	bus_dll *l = &b->dl[w];
	bus_tx *tx = &b->tx[t];

	if (k == BUS_TX_DLLP && b->dl[1 - w].dllp) {
		start_dllp(b, tx, w);
		return 1;
	}
	if (k == BUS_TX_REPLAY && l->sent < l->n) {
		if (!l->rb[(l->head + l->sent) % b->rb_cap].replayed) {
			l->rb[(l->head + l->sent) % b->rb_cap].replayed = 1;
			(*l->replayed)++;
		}
		start_tlp(b, tx, w, l->sent++, BUS_TX_REPLAY);
		return 1;
	}
	if (k == BUS_TX_NEW && l->sent == l->n && l->n < b->rb_cap) {
		int v = bus__pick_vc(c, b, w);
		if (v >= 0) {
			start_new(b, tx, w, v, now);
			return 1;
		}
	}
	return 0;
}

/**
 * bus__replay_start - choose and start what idle transmitter @t sends next:
 * a pending ACK/NAK DLLP, else a TLP to replay, else a new TLP if the
 * replay buffer has room and no replay is under way (half duplex: by class
 * first, then the direction it did not send last first).  Fills b->tx[t];
 * returns 0 if there is nothing to send.
 */
int bus__replay_start(sim_comp *c, bus *b, int t, sim_time now)
{
	static const int order[] = { BUS_TX_DLLP, BUS_TX_REPLAY, BUS_TX_NEW };
	int first = bus__first_dir(b, t);

	for (int k = 0; k < 3; k++)
		for (int j = 0; j < (b->half ? 2 : 1); j++)
			if (start_class(c, b, t, order[k], j ? 1 - first : first, now))
				return 1;
	return 0;
}

/**
 * bus__replay_done - the serialisation of @tx is over: count it and launch it
 * across bus.latency (a BUS_EV_TLP_RX or BUS_EV_DLLP_RX self event).  A
 * TLP's first transmission returns its input credit; any TLP starts the
 * replay timer if it is stopped and TLPs are held.
 */
void bus__replay_done(sim_comp *c, bus *b, const bus_tx *tx)
{
	int w = tx->dir;
	cxl_event *ev = sim_event_new(c);

	b->busy[w] += tx->span;
	series_span(b->ts_busy[w], sim_now(c) - tx->span, sim_now(c));
	ev->pkt.addr = tx->seq;
	if (tx->what == BUS_TX_DLLP) {
		bus_dll *l = &b->dl[1 - w];
		(*(tx->dllp == BUS_NAK ? l->naks : l->acks))++;
		*l->dllp_bytes += b->dllp_size;
		ev->kind = BUS_EV_DLLP_RX;
		ev->dst_port = (uint16_t)(1 - w);
		ev->pkt.opcode = tx->dllp;
		sim_send_self(c, ev, b->latency);
		return;
	}
	bus_dll *l = &b->dl[w];
	b->pkts[w]++;
	b->wire[w] += b->header + tx->size;
	if (tx->what == BUS_TX_NEW) {
		b->payload[w] += tx->size;
		(*l->tlps)++;
		cxl_grant(c, (uint16_t)w, tx->vc, 1);
	} else {
		(*l->replays)++;
	}
	ev->kind = BUS_EV_TLP_RX;
	ev->dst_port = (uint16_t)w;
	sim_send_self(c, ev, b->latency);
	if (!l->rt_due && l->n)
		rt_restart(c, b, w);
}

/**
 * bus__replay_event - handle one of the layer's self events @ev (bus_int.h
 * lists them); an unknown kind is a broken invariant (panic).
 */
void bus__replay_event(sim_comp *c, bus *b, cxl_event *ev)
{
	int d = ev->dst_port;

	CXL_ASSERT(b->rb_cap && d < 2);
	switch (ev->kind) {
	case BUS_EV_TLP_RX:
		on_tlp_rx(c, b, d, ev->pkt.addr);
		break;
	case BUS_EV_DLLP_RX:
		on_dllp_rx(c, b, d, ev->pkt.opcode, ev->pkt.addr);
		break;
	case BUS_EV_REPLAY_TIMER:
		on_replay_timer(c, b, d, ev);
		break;
	case BUS_EV_ACK_TIMER:
		on_ack_timer(c, b, d, ev);
		break;
	default:
		CXL_PANIC("%s: unexpected event kind %u", c->name, ev->kind);
	}
}

/**
 * bus__replay_finish - end of run: set replayed_ppm_d<d> and replay_held_at_end
 * (TLPs still unacknowledged), free the packets never accepted and the
 * replay buffers.  Returns how many packets it freed (for queued_at_end).
 */
uint64_t bus__replay_finish(sim_comp *c, bus *b)
{
	uint64_t freed = 0;

	if (!b->rb_cap)
		return 0;
	for (int d = 0; d < 2; d++) {
		bus_dll *l = &b->dl[d];
		uint64_t all = *l->tlps + *l->replays;
		*l->ppm = all ? *l->replays * 1000000u / all : 0;
		*b->rb_end += l->n;
		for (uint32_t i = 0; i < l->n; i++) {
			bus_rbent *e = &l->rb[(l->head + i) % b->rb_cap];
			if (e->ev) {
				sim_event_free(c, e->ev);
				e->ev = NULL;
				freed++;
			}
		}
	}
	free(b->rb_slots);
	b->rb_slots = NULL;
	return freed;
}
