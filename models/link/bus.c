/*
 * models/link/bus.c - the bus: one PCIe/CXL link as a component.
 *
 * Design: "buses are components: they own both directions, so half duplex
 * and turnaround are modelled; links carry the port-to-port latency".  A
 * bus has exactly two ports, 0 (node A) and 1 (node B), each joined to its
 * node by an engine link.  A packet (CXL_EV_PKT) arriving on port p travels
 * in direction p -> 1-p; "direction d" below always means "came in on port
 * d, leaves on port 1-d".
 *
 * Contract (cxl_proto.h, followed exactly):
 *   - per direction d and VC v, an input FIFO q[d][v] of bus.buffer
 *     packets; at time 0 the bus grants bus.buffer credits per VC on both
 *     ports (cxl_grant_all_ports), so a sender that respects its credits
 *     can never overflow a FIFO (an overflow is a broken invariant: panic);
 *   - the bus holds the credits its peers grant it (cr[p], from the
 *     CXL_EV_CREDIT events arriving on port p) and sends a packet of VC v
 *     out of port p only while cr[p].n[v] > 0, spending one (with
 *     bus.refuse_on_full the far end of the wire checks and spends it when
 *     the packet arrives, and refuses it without: bus_replay.c);
 *   - when a packet leaves its input FIFO and has been serialised, the bus
 *     returns one credit (VC v, count 1) over the port it came in on.
 *   Buffered packets are the events themselves (sim_event_keep); the FIFO
 *   slots are one allocation made in init, freed in finish: nothing is
 *   allocated per packet.  The model API has no teardown hook, so an engine
 *   destroyed without sim_engine_collect (finish) leaks that one block.
 *
 * Transmitters (bus_tx.c): full duplex has one per direction; half duplex
 * has one shared by both directions and adds bus.turnaround whenever it
 * sends in the other direction than its previous packet (not before its
 * first).  An idle transmitter picks, among the VCs of a direction whose
 * FIFO head can be sent (a credit is held towards the far port), the next
 * one round-robin after the VC it sent last in that direction.  Half duplex
 * tries the direction it did not send last first, so under load in both
 * directions it alternates packet by packet (fair, and the worst case for
 * turnaround).  Sending a packet of `size` payload bytes takes
 *     busy = [turnaround] + ser_time(header_bytes + size)
 * (a self-sent BUS_EV_TX_DONE timer); at its end the packet leaves the far
 * port with delay bus.latency (propagation; the engine link adds the port
 * latency), pkt.hops is incremented, a credit goes back to the sender, and
 * the transmitter tries the next packet.  A packet or credit arrival wakes
 * an idle transmitter.  Idle latency of one packet from node to node:
 *     link(A) + ser_time + bus.latency + link(B).
 *
 * ESF-compatible options (bus_esf.c), all off by default: with
 * bus.esf_frame a packet's wire bytes are ESF's whole frames (rounded to
 * bus.esf_width) instead of header_bytes + size; bus.encoding = none has
 * no line code; bus.esf_half_drain keeps a half-duplex bus's direction
 * while it has packets; bus.esf_write_turnaround doubles a write's turn.
 *
 * Data-link layer (bus_replay.c), off unless bus.replay_buffer > 0: PCIe's
 * ACK/NAK protocol per direction - sequence numbers, a replay buffer of
 * bus.replay_buffer TLPs, the replay timer (bus.replay_timeout, by default
 * the spec formula, bus_replay_timeout()), coalesced ACKs (bus.ack_timer),
 * NAKs for corrupted TLPs (bus.error_rate), ACK/NAK DLLPs on the reverse
 * wire with priority over TLPs, and optionally the PCIe seed's
 * refuse-on-full receiver (bus.refuse_on_full).  Off, the bus is exactly
 * the plain model above: same events, same statistics, same results.
 *
 * Iso-bisection (topology.iso_bisection, fabric runs only): a bus joining
 * two switches serialises trunk_slowdown times slower (the fabric's
 * bisection in links), so every topology has one link's bisection bandwidth.
 *
 * Cut-through (switch.forwarding = cut_through, fabric runs only): a packet
 * headed for a switch leaves once its header is over, [turnaround +]
 * ser_time(header) + bus.latency after it started; the transmitter stays
 * busy for the whole packet and the input credit returns at its end, as
 * in store-and-forward.  The switch can thus forward while the tail is
 * still on the wire (exact when the next link is no faster).
 *
 * Serialisation (bus.h): ser_time(bytes) = ceil(bytes * 8 * 10^6 * den /
 * (MT/s * lanes * num)) ps, MT/s = 2500/5000/8000/16000/32000/64000 for
 * gen 1..6, num/den the encoding efficiency (8b/10b, 128b/130b, or flit
 * mode: 236 TLP bytes per 256-byte flit over the generation's line code).
 * Rounding up per packet costs < 1 ps per packet.  Flit mode is modelled
 * as that average rate (TLPs may span flits; NOP fill is not charged).
 *
 * Per-packet overhead, bus.header_bytes (default 20): non-flit framing is
 * 12 B TLP header (3 DW) + 8 B of STP/sequence number/LCRC/END
 * (link-reference §2.1: 20 B without ECRC, 24 B with a 4 DW header).  In
 * flit mode sequence number and CRC live in the flit (the 236/256 factor),
 * so set header_bytes to the TLP header alone (12-16 B) for gen 6.
 *
 * Parameters (keys below) live in the component state, read in init.
 *
 * Statistics, per direction d (= the port the packets came in on), counted
 * when a serialisation ends: pkts_d<d> (TLPs sent, replays included),
 * wire_bytes_d<d> (their header + payload bytes), payload_bytes_d<d> (first
 * transmissions only: goodput), busy_ps_d<d> (time wire d was busy:
 * serialisation of TLPs and DLLPs plus turnaround, ps).  Without the
 * data-link layer a packet is sent once and wire d carries no DLLP.  All
 * are registered in init; the finish hook sets queued_at_end (packets
 * still held: buffered, mid-serialisation, or never accepted from a replay
 * buffer) and credits_held_p0 / credits_held_p1 (sum over VCs of the
 * credits held towards each port: equal to that peer's grant when every
 * credit is home).  The data-link layer adds its own statistics
 * (bus_replay.c) only when it is on.
 * ESF's figures are derived from them by the system's summary writer, not
 * here: utility = busy_ps / elapsed time, transmission efficiency =
 * payload_bytes / wire_bytes.  With simulation.sample_period > 0 the busy
 * time is also a time series per transmitter (busy_ps_d0 and busy_ps_d1, or
 * busy_ps in half duplex: series.h), each serialisation split over the
 * periods it spans, so its periods add up to the busy_ps counters; and
 * queued_ps_d0 / queued_ps_d1, the packets waiting in each direction's
 * FIFOs x ps (the output queue of the node on port d: / period = mean
 * occupancy).
 *
 * Files: bus.c (this: keys, arithmetic, set-up, dispatch, end), bus_tx.c
 * (transmitters), bus_replay.c (data-link layer), bus_int.h (their state).
 *
 * Not modelled: link retraining (counted only), UpdateFC DLLP bandwidth,
 * SKP ordered sets, PCIe's per-type header/data credits (credits here
 * count packets per VC, as cxl_proto.h).
 */
#include "models/link/bus.h"

#include <stdlib.h>

#include "core/numeric.h"
#include "core/xmalloc.h"
#include "models/link/bus_int.h"
#include "models/fabric/fab_view.h"

static const cfg_key bus_keys[] = {
	{ "bus.gen", CFG_INT, "5", "1", "6", NULL,
	  "PCIe generation: 1..6 = 2.5/5/8/16/32/64 GT/s per lane (CXL 1.1/2.0: 5, CXL 3.x: 6)" },
	{ "bus.lanes", CFG_INT, "16", "1", "16", NULL,
	  "link width in lanes: 1, 2, 4, 8 or 16" },
	{ "bus.encoding", CFG_ENUM, "auto", NULL, NULL, "auto|8b10b|128b130b|flit|none",
	  "auto: 8b/10b for gen 1-2, 128b/130b for gen 3-5, flit (236 TLP B per 256 B) for gen 6; "
	  "none: no line code (ESF-compatible: ESF's bus moves width bits per transfer)" },
	{ "bus.header_bytes", CFG_SIZE, "20B", "0B", "256B", NULL,
	  "wire bytes per packet besides payload: 12 B TLP header + 8 B framing/seq/LCRC (non-flit)" },
	{ "bus.duplex", CFG_ENUM, "full", NULL, NULL, "full|half",
	  "full: one transmitter per direction; half: one shared, with turnaround" },
	{ "bus.turnaround", CFG_TIME, "2ns", "0ps", NULL, NULL,
	  "half duplex: time added whenever the bus changes direction" },
	{ "bus.latency", CFG_TIME, "1ns", "0ps", NULL, NULL,
	  "propagation added to every packet after serialisation (ESF Table III bus latency)" },
	{ "bus.buffer", CFG_INT, "32", "1", "4096", NULL,
	  "input buffer per direction and VC, packets (the credits granted to each peer)" },
	{ "bus.replay_buffer", CFG_INT, "0", "0", "2047", NULL,
	  "data-link layer: TLPs held per direction until ACKed (PCIe seed: 4); 0 = off, "
	  "the plain bus (no sequence numbers, DLLPs or replays)" },
	{ "bus.replay_timeout", CFG_TIME, "0ps", "0ps", NULL, NULL,
	  "replay timer; 0ps = the spec: 3 x ((64 + 28) x AckFactor / lanes + internal delay) "
	  "symbol times; flit mode 3 x the Ack/Nak target (150-240 ns)" },
	{ "bus.ack_timer", CFG_TIME, "0ps", "0ps", NULL, NULL,
	  "least time between two ACKs of the ACK timer; 0ps = replay timeout / 3 (use 1ps to "
	  "ACK every TLP at once)" },
	{ "bus.internal_delay", CFG_INT, "-1", "-1", "100000", NULL,
	  "InternalDelay of the replay-timer formula, symbol times; -1 = the spec's 19/70/115 "
	  "for 2.5/5/>=8 GT/s; 0 = the PCIe seed's model" },
	{ "bus.error_rate", CFG_FLOAT, "0", "0", "1", NULL,
	  "probability that a TLP arrives corrupted (discarded, NAKed, replayed); needs "
	  "replay_buffer > 0" },
	{ "bus.refuse_on_full", CFG_BOOL, "false", NULL, NULL, NULL,
	  "PCIe seed: send without waiting for the far node's credits; a TLP arriving when the "
	  "bus holds none is refused (no ACK) and replayed on timeout; needs replay_buffer > 0" },
	{ "bus.esf_frame", CFG_SIZE, "0B", "0B", "4KiB", NULL,
	  "ESF-compatible framing (off: 0B): a packet of P payload bytes costs "
	  "(floor(P / esf_frame) + 1) x esf_frame wire bytes instead of header_bytes + P "
	  "(ESF bus.hh frame_size)" },
	{ "bus.esf_width", CFG_SIZE, "0B", "0B", "4KiB", NULL,
	  "ESF-compatible: with esf_frame, wire bytes rounded up to a multiple of this "
	  "(ESF's whole transfers of its bus width); 0B: no rounding" },
	{ "bus.esf_half_drain", CFG_BOOL, "false", NULL, NULL, NULL,
	  "ESF-compatible half duplex: keep sending in one direction while it has packets, "
	  "turn only when it is empty (default: alternate packet by packet under load)" },
	{ "bus.esf_write_turnaround", CFG_BOOL, "false", NULL, NULL, NULL,
	  "ESF-compatible half duplex: a turn made for a write or its completion costs "
	  "2 x turnaround (ESF bus.hh reverse_time)" },
	{ "bus.max_payload", CFG_SIZE, "256B", "128B", "4KiB", NULL,
	  "Max_Payload_Size: the largest TLP payload a host's uncacheable access uses on this "
	  "link (a power of two, 128 B - 4 KiB); the bus's own timing does not read it" },
	{ "bus.credit_batch", CFG_INT, "1", "0", "4096", NULL,
	  "credit return (UpdateFC-style) at both ends of the link: a receiver returns a VC's "
	  "freed credits together once this many are held, or at bus.credit_timer; 1 = each at "
	  "once (off); 0 = auto: half the smaller of bus.buffer and a switch peer's "
	  "switch.buffer, at most 16; off below 4 credits or with the data-link layer; a number "
	  "set by hand: at most bus.buffer and a switch peer's switch.buffer; a host or memory "
	  "caps it at its own grant" },
	{ "bus.credit_timer", CFG_TIME, "0ps", "0ps", NULL, NULL,
	  "with a batch: the longest a freed credit is held before it goes back alone "
	  "(PCIe's UpdateFC rule: none is held for ever); 0ps = the spec's UpdateFC latency "
	  "(the Ack/Nak formula for 64 B: (92 x UpdateFactor / lanes + internal delay) symbol "
	  "times; flit mode the Ack/Nak target)" },
	{ "bus.credit_piggyback", CFG_BOOL, "false", NULL, NULL, NULL,
	  "with a batch: held credits also go back on the next packet leaving by that "
	  "port, up to 15 per VC (CXL flit headers carry credit returns)" },
};

const cfg_schema cxl_bus_schema = {
	"bus", bus_keys, sizeof(bus_keys) / sizeof(bus_keys[0]),
};

/* --- serialisation arithmetic (bus.h) ------------------------------------ */

/**
 * bus_lane_mts - per-lane transfer rate of generation @gen in MT/s; 0 if
 * @gen is outside 1..BUS_GEN_MAX.
 */
uint32_t bus_lane_mts(unsigned gen)
{
	static const uint32_t mts[BUS_GEN_MAX + 1] = { 0, 2500, 5000, 8000, 16000, 32000, 64000 };

	return gen <= BUS_GEN_MAX ? mts[gen] : 0;
}

/**
 * bus_efficiency - encoding efficiency @num / @den (OUT, reduced) of
 * generation @gen (1..6) under @enc; see bus.h for the table.
 */
void bus_efficiency(unsigned gen, enum bus_encoding enc, uint32_t *num, uint32_t *den)
{
	uint32_t n = 1, d = 1; /* the line code: 1b/1b (PAM4, gen 6) */

	if (enc == BUS_ENC_NONE) {
		*num = *den = 1;
		return;
	}
	if (enc == BUS_ENC_8B10B || (enc != BUS_ENC_128B130B && gen <= 2))
		n = 8, d = 10;
	else if (enc == BUS_ENC_128B130B || gen <= 5)
		n = 128, d = 130;
	if (enc == BUS_ENC_FLIT || (enc == BUS_ENC_AUTO && gen >= 6)) {
		n *= BUS_FLIT_TLP;
		d *= BUS_FLIT_BYTES;
	}
	uint32_t g = (uint32_t)cxl_gcd(n, d);
	*num = n / g;
	*den = d / g;
}

/**
 * bus__rate - the serialisation rate of generation @gen, @lanes lanes and
 * encoding @enc (bus_int.h), for bus__ser; panics on a generation outside
 * 1..6 or 0 lanes.
 */
bus_rate bus__rate(unsigned gen, unsigned lanes, enum bus_encoding enc)
{
	uint32_t num, den, mts = bus_lane_mts(gen);

	if (!mts || !lanes)
		CXL_PANIC("bus_ser_time: gen %u lanes %u (gen 1..%d, lanes >= 1)", gen, lanes,
			  BUS_GEN_MAX);
	bus_efficiency(gen, enc, &num, &den);
	return (bus_rate){ .mul = 8u * 1000000u * (uint64_t)den, .div = (uint64_t)mts * lanes * num };
}

/**
 * bus_ser_time - serialisation time of @bytes in ps, rounded up (bus.h).
 * @gen: 1..6 (panics otherwise); @lanes: >= 1 (panics on 0); @enc: encoding.
 * Exact: the numerator is at most (2^32-1) * 8 * 10^6 * 80 < 2^64.
 */
sim_time bus_ser_time(unsigned gen, unsigned lanes, enum bus_encoding enc, uint32_t bytes)
{
	bus_rate r = bus__rate(gen, lanes, enc);

	return bus__ser(&r, bytes);
}

/* --- replay-timer arithmetic (bus.h) ----------------------------------- */

/*
 * ack_factor10 - the AckFactor x 10 for @mps bytes and @lanes lanes
 * (link-reference §4; MPS below 128 B uses the 128/256 B row).
 */
static uint32_t ack_factor10(uint32_t mps, unsigned lanes)
{
	if (mps <= 256)
		return lanes <= 4 ? 14 : lanes <= 8 ? 25 : 30;
	return lanes <= 8 ? 10 : 20;
}

/**
 * bus_acknak_symbols - AckNak_LATENCY in symbol times (bus.h).
 * @mps: max payload, B; @gen: 1..6 (rate for the internal delay);
 * @lanes: >= 1; @internal_delay: symbol times, or -1 for the spec's.
 */
uint32_t bus_acknak_symbols(uint32_t mps, unsigned gen, unsigned lanes, int internal_delay)
{
	uint32_t delay = (uint32_t)internal_delay;

	if (!lanes)
		CXL_PANIC("bus_acknak_symbols: 0 lanes");
	if (internal_delay < 0)
		delay = gen <= 1 ? 19 : gen == 2 ? 70 : 115;
	return (uint32_t)((uint64_t)(mps + BUS_TLP_OVERHEAD) * ack_factor10(mps, lanes) /
			  (10u * lanes)) + delay;
}

/**
 * bus_replay_timeout - the default replay timeout in ps (bus.h): 3 x the
 * AckNak latency for 64 B payloads in symbol times of the line code, or in
 * flit mode 3 x the spec's Ack/Nak target for the width.
 * @gen: 1..6; @lanes: 1..16; @enc: encoding; @internal_delay: as above.
 */
sim_time bus_replay_timeout(unsigned gen, unsigned lanes, enum bus_encoding enc,
			    int internal_delay)
{
	if (enc == BUS_ENC_FLIT || (enc == BUS_ENC_AUTO && gen >= 6)) {
		sim_time target = lanes >= 16 ? 50 : lanes >= 8 ? 52 : lanes >= 4 ? 56 :
				  lanes >= 2 ? 64 : 80;
		return 3 * target * 1000;
	}
	uint32_t sym = 3 * bus_acknak_symbols(CXL_LINE, gen, lanes, internal_delay);
	return bus_ser_time(gen, 1, enc, sym); /* one byte on one lane = one symbol */
}

/**
 * bus_updatefc_latency - the default bus.credit_timer in ps (bus.h): the
 * spec's UpdateFC latency for 64 B payloads, the Ack/Nak formula with
 * UpdateFactor = AckFactor, bus_acknak_symbols(64, ...) symbol times; in
 * flit mode the Ack/Nak target for the width (50-80 ns).
 * @gen: 1..6; @lanes: 1..16; @enc: encoding; @internal_delay: as there.
 */
sim_time bus_updatefc_latency(unsigned gen, unsigned lanes, enum bus_encoding enc,
			      int internal_delay)
{
	if (enc == BUS_ENC_FLIT || (enc == BUS_ENC_AUTO && gen >= 6))
		return bus_replay_timeout(gen, lanes, enc, internal_delay) / 3;
	return bus_ser_time(gen, 1, enc, bus_acknak_symbols(CXL_LINE, gen, lanes, internal_delay));
}

/* --- arrivals -------------------------------------------------------------- */

/* on_pkt - buffer a packet that came in on port @ev->dst_port and wake its transmitter. */
static void on_pkt(sim_comp *c, bus *b, cxl_event *ev)
{
	int d = ev->dst_port;
	uint8_t v = ev->pkt.mclass;

	CXL_ASSERT(d < 2 && v < CXL_NVC);
	int got = cxl_fc_take(&b->cr[d], ev); /* credits for sending out of d, on the packet */
	uint32_t src = ev->src; /* the first wake may send @ev on */
	evring *f = &b->q[d][v];
	if (f->n == f->cap)
		CXL_PANIC("%s: packet on port %d VC %u with its buffer full (%u): the sender ignored its credits",
			  c->name, d, v, b->buffer);
	sim_event_keep(c, ev);
	if (!bus__tx_start_now(c, b, d, v, ev, src)) {
		bus__q_push(b, d, v, ev);
		bus__note_queue(c, b, d);
		bus__tx_wake(c, b, bus__tid(b, d), src);
	}
	if (got)
		bus__tx_wake(c, b, bus__tid(b, 1 - d), src);
}

/* on_credit - credits from the peer on port p: wake the transmitter sending out of p. */
static void on_credit(sim_comp *c, bus *b, const cxl_event *ev)
{
	int p = ev->dst_port;

	CXL_ASSERT(p < 2);
	cxl_fc_on_grant(&b->fc, ev, b->buffer); /* time 0: does the peer take credits on packets? */
	cxl_credit_apply(&b->cr[p], ev);
	bus__tx_wake(c, b, bus__tid(b, 1 - p), ev->src);
}

/*
 * port_idle, bus_lazy_ok - may a credit on port @p (lazy, core/sim_lazy.c)
 * wait for the bus's next event?  A credit on port p wakes the transmitter sending out
 * of p (on_credit), which sends only if a packet waits in the FIFOs it
 * serves and it is idle (early mode: idle, or busy with its end event not
 * yet armed).  With no packet waiting, or its end event armed (early) or
 * busy (the end event is pending), the wake sends nothing whatever the
 * credit counts (port_idle); bus_event queues the waiting credits of a
 * port that stops being idle.  Time-0 grants and the data-link layer's
 * credits are never lazy.
 */
static int port_idle(const bus *b, int p)
{
	if (!(b->half ? b->qmask[0] | b->qmask[1] : b->qmask[1 - p]))
		return 1;
	const bus_tx *tx = &b->tx[bus__tid(b, 1 - p)];
	return b->early ? tx->armed : tx->busy;
}

static int bus_lazy_ok(const sim_comp *c, const void *state, const sim_lazy *l)
{
	const bus *b = state;
	int p = l->port;

	(void)c;
	if (l->kind != CXL_EV_CREDIT || l->mclass >= CXL_NVC || b->rb_cap || p > 1)
		return 0;
	return port_idle(b, p);
}

/*
 * bus_lazy_absorb - a credit bus_lazy_ok let wait: only its count changes
 * (@dir -1: taken back, cxl_credit_absorb).
 * The wake on_credit would make sends nothing there; in early mode it may
 * also mark a transmitter past its end idle, which any later wake does by
 * the same rule (bus__tx_wake), so leaving it is the same.
 */
static void bus_lazy_absorb(sim_comp *c, void *state, const sim_lazy *l, int dir)
{
	bus *b = state;

	(void)c;
	cxl_credit_absorb(&b->cr[l->port], l, dir);
}

static void bus_event(sim_comp *c, void *state, cxl_event *ev)
{
	bus *b = state;

	switch (ev->kind) {
	case CXL_EV_PKT:
		on_pkt(c, b, ev);
		break;
	case CXL_EV_CREDIT:
		on_credit(c, b, ev);
		break;
	case BUS_EV_TX_DONE:
		CXL_ASSERT(ev->dst_port < 2);
		bus__tx_done(c, b, ev->dst_port, ev);
		break;
	case BUS_EV_FC_TIMER:
		cxl_fc_timer(c, &b->fc, ev, bus__fc_send, b);
		break;
	default:
		bus__replay_event(c, b, ev);
	}
	if (c->lazy_n && (b->qmask[0] | b->qmask[1])) /* a packet waits: a port may be busy */
		for (int p = 0; p < 2; p++)
			if (!port_idle(b, p))
				sim_lazy_queue_port(c, (uint16_t)p);
}

/* --- set-up and end ------------------------------------------------------ */

/* link_params - the keys that set a bus's data rate: gen, lanes, encoding. */
static void link_params(const cfg *cf, unsigned *gen, unsigned *lanes, enum bus_encoding *enc)
{
	*gen = (unsigned)cfg_int(cf, "bus.gen");
	*lanes = (unsigned)cfg_int(cf, "bus.lanes");
	*enc = (enum bus_encoding)cfg_enum(cf, "bus.encoding");
}

/**
 * bus_data_GBps - data bandwidth in GB/s of the bus configured by @cf
 * (bus.h): MT/s x lanes x num / den bits per us, / 8 / 1000.
 */
double bus_data_GBps(const cfg *cf)
{
	unsigned gen, lanes;
	enum bus_encoding enc;
	uint32_t num, den;

	link_params(cf, &gen, &lanes, &enc);
	bus_efficiency(gen, enc, &num, &den);
	return (double)bus_lane_mts(gen) * lanes * num / den / 8e3;
}

/**
 * bus_max_payload - bus.max_payload of the bus configured by @cf (bus.h),
 * bytes; its range (128 B - 4 KiB) is the schema's, the power of two is
 * checked by the bus's init (read_params).
 */
uint32_t bus_max_payload(const cfg *cf)
{
	return (uint32_t)cfg_size(cf, "bus.max_payload");
}

/*
 * fc_auto_batch - the automatic batch for a receiver that grants @credits:
 * half of them (the sender never runs dry waiting for a batch to fill), at
 * most BUS_FC_AUTO_MAX; 1 (off) below 4 credits.
 */
static uint32_t fc_auto_batch(uint64_t credits)
{
	uint64_t half = credits / 2;

	if (half < 2)
		return 1;
	return half < BUS_FC_AUTO_MAX ? (uint32_t)half : BUS_FC_AUTO_MAX;
}

/*
 * read_fc - the credit-return keys into @b: the timer resolved (0ps: the
 * spec's UpdateFC latency, times the iso-bisection slowdown is not applied:
 * it is a receiver's delay, not wire time) and the automatic batch (0:
 * half of bus.buffer, at most BUS_FC_AUTO_MAX, 1 with the data-link layer;
 * fc_init halves it further for a switch peer with a smaller buffer).  A
 * batch set above bus.buffer (the credits this bus grants) or with the
 * data-link layer is refused.
 */
static int read_fc(bus *b, const cfg *cf, cxl_err *err)
{
	int dll = cfg_int(cf, "bus.replay_buffer") > 0;

	b->fc_batch = (uint32_t)cfg_int(cf, "bus.credit_batch");
	b->fc_timer = cfg_time(cf, "bus.credit_timer");
	b->fc_piggy = cfg_bool(cf, "bus.credit_piggyback");
	if (!b->fc_batch)
		b->fc_batch = dll ? 1 : fc_auto_batch(b->buffer);
	if (!b->fc_timer)
		b->fc_timer = bus_updatefc_latency(b->gen, b->lanes, b->enc,
						   (int)cfg_int(cf, "bus.internal_delay"));
	if (b->fc_batch > b->buffer)
		return cfg_error_at(cf, "bus.credit_batch", err,
				    "a batch of %u credits exceeds bus.buffer = %u, the credits a "
				    "sender has (expected at most bus.buffer)", b->fc_batch, b->buffer);
	if (b->fc_batch > 1 && dll)
		return cfg_error_at(cf, "bus.credit_batch", err,
				    "batched credits with the data-link layer (expected "
				    "bus.replay_buffer = 0 or bus.credit_batch = 0 or 1)");
	return 0;
}

/* read_params - the bus.* keys into @b; 0 or CXL_EINVAL (@err filled). */
static int read_params(bus *b, const cfg *cf, cxl_err *err)
{
	link_params(cf, &b->gen, &b->lanes, &b->enc);
	b->rate = bus__rate(b->gen, b->lanes, b->enc); /* the schema keeps gen 1..6, lanes >= 1 */
	b->header = (uint32_t)cfg_size(cf, "bus.header_bytes");
	b->half = cfg_enum(cf, "bus.duplex") == BUS_DUPLEX_HALF;
	b->turnaround = cfg_time(cf, "bus.turnaround");
	b->latency = cfg_time(cf, "bus.latency");
	b->buffer = (uint32_t)cfg_int(cf, "bus.buffer");
	b->esf_frame = (uint32_t)cfg_size(cf, "bus.esf_frame");
	b->esf_width = (uint32_t)cfg_size(cf, "bus.esf_width");
	b->esf_drain = cfg_bool(cf, "bus.esf_half_drain");
	b->esf_write_turn = cfg_bool(cf, "bus.esf_write_turnaround");
	if (b->esf_width && !b->esf_frame)
		return cfg_error_at(cf, "bus.esf_width", err,
				    "esf_width without esf_frame (expected bus.esf_frame > 0 too)");
	if (b->esf_frame && cfg_int(cf, "bus.replay_buffer") > 0)
		return cfg_error_at(cf, "bus.esf_frame", err,
				    "ESF framing with the data-link layer (expected "
				    "bus.replay_buffer = 0)");
	if (b->lanes & (b->lanes - 1))
		return cfg_error_at(cf, "bus.lanes", err,
				    "%u lanes is not a power of two (expected 1, 2, 4, 8 or 16)",
				    b->lanes);
	uint32_t mps = bus_max_payload(cf);
	if (mps & (mps - 1))
		return cfg_error_at(cf, "bus.max_payload", err,
				    "%u bytes is not a power of two (expected 128B, 256B, 512B, "
				    "1KiB, 2KiB or 4KiB)", mps);
	return read_fc(b, cf, err);
}

static void register_stats(sim_comp *c, bus *b)
{
	sim_stat_counter_at(c, "pkts_d0", &b->pkts[0]);
	sim_stat_counter_at(c, "pkts_d1", &b->pkts[1]);
	sim_stat_counter_at(c, "wire_bytes_d0", &b->wire[0]);
	sim_stat_counter_at(c, "wire_bytes_d1", &b->wire[1]);
	sim_stat_counter_at(c, "payload_bytes_d0", &b->payload[0]);
	sim_stat_counter_at(c, "payload_bytes_d1", &b->payload[1]);
	sim_stat_counter_at(c, "busy_ps_d0", &b->busy[0]);
	sim_stat_counter_at(c, "busy_ps_d1", &b->busy[1]);
	b->queued_end = sim_stat_counter(c, "queued_at_end");
	b->held_end[0] = sim_stat_counter(c, "credits_held_p0");
	b->held_end[1] = sim_stat_counter(c, "credits_held_p1");
	if (b->half) { /* one transmitter: its busy time, both directions */
		b->ts_busy[0] = b->ts_busy[1] = sim_series(c, "busy_ps", SERIES_TIME);
	} else {
		b->ts_busy[0] = sim_series(c, "busy_ps_d0", SERIES_TIME);
		b->ts_busy[1] = sim_series(c, "busy_ps_d1", SERIES_TIME);
	}
	b->ts_queued[0] = sim_series(c, "queued_ps_d0", SERIES_TIME);
	b->ts_queued[1] = sim_series(c, "queued_ps_d1", SERIES_TIME);
}

/*
 * fabric_params - what the fabric (fab_view_of(), NULL in unit tests) adds:
 * the iso-bisection slowdown of a switch-to-switch bus, and, with
 * switch.forwarding = cut_through, the ports whose peer is a switch
 * (packets towards them leave once their header has crossed).
 */
static void fabric_params(const sim_comp *c, bus *b)
{
	const fab_view *v = fab_view_of(c);

	b->slow = 1;
	if (!v)
		return;
	b->slow = fab_view_bus_slowdown(v, c->id);
	for (int p = 0; p < 2; p++) {
		uint32_t peer = c->ports[p].peer;
		b->cut[p] = (fab_view_roles(v, peer) & FAB_ROLE_SWITCH) &&
			    cfg_enum(sim_cfg_of(c, peer), "switch.forwarding") == 1;
	}
}

/*
 * fc_init - the bus's credit return (cxl_fc.h): its own two ports batch as
 * configured (the automatic batch at most half a switch peer's buffer); a
 * batch set by hand must fit a switch on either side (its
 * switch.buffer, the credits it grants the bus), else CXL_EINVAL.  The
 * time-0 grants carry the batch, timer and piggyback to both nodes.
 */
static int fc_init(sim_comp *c, bus *b, const cfg *cf, cxl_err *err)
{
	const fab_view *v = fab_view_of(c);
	int automatic = cfg_int(cf, "bus.credit_batch") == 0;

	for (int p = 0; p < 2 && v && b->fc_batch > 1; p++) {
		uint32_t peer = c->ports[p].peer;
		if (!(fab_view_roles(v, peer) & FAB_ROLE_SWITCH))
			continue;
		int64_t sb = cfg_int(sim_cfg_of(c, peer), "switch.buffer");
		if (automatic && b->fc_batch > fc_auto_batch((uint64_t)sb))
			b->fc_batch = fc_auto_batch((uint64_t)sb);
		if (b->fc_batch > sb)
			return cfg_error_at(cf, "bus.credit_batch", err,
					    "a batch of %u credits exceeds the switch.buffer = %lld "
					    "of %s's peer (expected at most the switch's buffer)",
					    b->fc_batch, (long long)sb, c->name);
	}
	cxl_fc_init(&b->fc, 2, BUS_EV_FC_TIMER);
	for (uint16_t p = 0; p < 2; p++) {
		cxl_fc_setup(&b->fc, p, b->fc_batch, b->fc_timer, b->fc_piggy);
		cxl_event *ev = sim_event_new(c);
		ev->kind = CXL_EV_CREDIT;
		ev->pkt.mclass = CXL_VC_ALL;
		ev->pkt.aux = (uint16_t)b->buffer;
		if (b->fc_batch > 1)
			cxl_fc_mark_grant(ev, b->fc_batch, b->fc_timer, b->fc_piggy);
		sim_send_port(c, ev, p, 0);
	}
	return 0;
}

/*
 * bus_init - read the parameters, check the two ports, allocate the FIFOs,
 * register statistics, set up the data-link layer (bus_replay.c) and grant
 * bus.buffer credits per VC on both ports.
 * Errors (CXL_EINVAL): lanes or max_payload not a power of two; not
 * exactly two linked ports; refuse_on_full or error_rate without a replay buffer.
 */
static int bus_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	bus *b = state;
	int rc = read_params(b, cf, err);

	if (rc)
		return rc;
	if (c->nports != 2 || !c->ports[0].latency || !c->ports[1].latency)
		return cxl_err_set(err, CXL_EINVAL,
				   "bus %s: a bus joins exactly two linked ports (0 and 1), it has %u",
				   c->name, c->nports);
	b->slots = xcalloc((size_t)2 * CXL_NVC * b->buffer, sizeof(*b->slots));
	for (int d = 0; d < 2; d++)
		for (int v = 0; v < CXL_NVC; v++)
			evring_init(&b->q[d][v], b->buffer,
				    b->slots + ((size_t)d * CXL_NVC + (size_t)v) * b->buffer);
	b->last_dir = -1;
	fabric_params(c, b);
	register_stats(c, b);
	rc = bus__replay_init(c, b, cf, err);
	if (rc)
		goto free_slots;
	bus__early_init(c, b);
	rc = fc_init(c, b, cf, err);
	if (rc)
		goto free_slots;
	return 0;

free_slots:
	free(b->slots);
	b->slots = NULL;
	return rc;
}

/* drop - free the packets still held; returns how many there were. */
static uint64_t drop(sim_comp *c, bus *b)
{
	uint64_t n = 0;

	for (int d = 0; d < 2; d++) {
		for (int v = 0; v < CXL_NVC; v++) {
			n += evring_free_all(c, &b->q[d][v]);
		}
		b->qmask[d] = 0;
		if (b->tx[d].cur) {
			sim_event_free(c, b->tx[d].cur);
			b->tx[d].cur = NULL;
			n++;
		}
	}
	return n;
}

/*
 * bus_finish - the end-of-run counters; releases the held packets, the
 * FIFOs and the replay buffers.
 */
static void bus_finish(sim_comp *c, void *state)
{
	bus *b = state;

	*b->held_end[0] = cxl_credits_total(&b->cr[0]);
	*b->held_end[1] = cxl_credits_total(&b->cr[1]);
	*b->queued_end = drop(c, b) + bus__replay_finish(c, b);
	cxl_fc_destroy(&b->fc);
	free(b->slots);
	b->slots = NULL;
}

const model_ops cxl_bus_ops = {
	.name = "bus",
	.cfg_groups = "bus link", /* link: the latency of its two links (fab_sys.c) */
	.state_size = sizeof(bus),
	.init = bus_init,
	.event = bus_event,
	.finish = bus_finish,
	.ckpt = bus__ckpt,
	.lazy_ok = bus_lazy_ok,
	.lazy_absorb = bus_lazy_absorb,
};
