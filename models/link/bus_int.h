/*
 * models/link/bus_int.h - the bus model's state, shared by its files and tests.
 *
 * The bus is split along its concerns (SQLite btreeInt.h pattern):
 *   bus.c         the model table, its keys, the serialisation and
 *                 replay-timer arithmetic (bus.h), set-up, the event
 *                 dispatch, the end;
 *   bus_tx.c      the transmitters: picking the next packet, turnaround,
 *                 serialisation, the plain path (no data-link layer);
 *   bus_replay.c  the optional PCIe data-link layer (bus.replay_buffer > 0):
 *                 sequence numbers, replay buffers, replay and ACK timers,
 *                 ACK/NAK DLLPs, error injection, refuse-on-full.
 *   bus_ckpt.c    the checkpoint hook (model_ops.ckpt): what the events
 *                 change, saved and restored;
 *   bus_esf.c     the ESF-compatible options (off by default): ESF's framed
 *                 wire bytes (bus_esf_wire_bytes, used by the inline
 *                 bus__wire_bytes here), its doubled write turns;
 *                 the half-duplex drain is one test in bus__first_dir.
 * Functions shared between them are bus__name; nothing here is for other
 * models (they include bus.h only).
 *
 * Direction d always means "came in on port d, leaves on port 1-d".  The
 * sender of direction d sits at the port-d end of the wire, its receiver
 * at the port-(1-d) end; the receiver's ACK/NAK DLLPs travel on the wire of
 * direction 1-d.  Sequence numbers are 64-bit counters from 0 (PCIe's are
 * 12-bit modulo 4096; a window below 2048 makes the two equivalent), and an
 * ACK/NAK carries k = NEXT_RCV_SEQ: "every TLP below k was received" (the
 * spec's AckNak_Seq_Num is k - 1).
 */
#ifndef CXL_MODELS_BUS_INT_H
#define CXL_MODELS_BUS_INT_H

#include <stdint.h>

#include "core/sim.h"
#include "models/link/bus.h"
#include "models/proto/cxl_fc.h"
#include "models/proto/cxl_proto.h"
#include "models/proto/evring.h"

#define BUS_FC_AUTO_MAX 16u /* bus.credit_batch = 0: the largest batch the bus picks */

/* Event kinds of the bus's own timers (all self-sent). */
enum bus_ev_kind {
	BUS_EV_TX_DONE = CXL_EV_MODEL, /* dst_port = transmitter: its packet is on the wire */
	BUS_EV_TLP_RX,                 /* dst_port = d: a TLP's tail reaches d's receiver;
					  pkt.addr = its sequence number */
	BUS_EV_DLLP_RX,                /* dst_port = d: an ACK/NAK for d reaches d's sender;
					  pkt.opcode = BUS_ACK/BUS_NAK, pkt.addr = k */
	BUS_EV_REPLAY_TIMER,           /* dst_port = d: d's replay timer (lazy: bus_replay.c) */
	BUS_EV_ACK_TIMER,              /* dst_port = d: d's ACK timer (lazy) */
	BUS_EV_FC_TIMER,               /* batched credits due (cxl_fc.h; lazy) */
};

enum { BUS_DUPLEX_FULL, BUS_DUPLEX_HALF }; /* bus.duplex choices */
enum { BUS_ACK = 1, BUS_NAK = 2 };          /* DLLP types (0: none) */

/* What a transmitter is sending. */
enum bus_tx_what {
	BUS_TX_NEW,    /* a TLP, first transmission (also every packet of the plain path) */
	BUS_TX_REPLAY, /* a TLP again, from the replay buffer */
	BUS_TX_DLLP,   /* an ACK/NAK DLLP */
};

typedef struct bus_tx bus_tx;
struct bus_tx {
	cxl_event *cur; /* plain path: packet being serialised (kept); NULL otherwise */
	int busy;       /* 1 while something is being serialised */
	sim_time span;  /* its busy time: serialisation + turnaround, ps */
	uint8_t dir;    /* the wire direction it is sent in */
	uint8_t vc;     /* TLP: its VC */
	uint16_t size;  /* TLP: its payload, B */
	uint8_t what;   /* enum bus_tx_what */
	uint8_t dllp;   /* DLLP: BUS_ACK or BUS_NAK */
	uint64_t seq;   /* TLP: its sequence number; DLLP: k (NEXT_RCV_SEQ when sent) */
	/* early mode only (bus.early, bus_tx.c) */
	sim_time until; /* end of the transmission (busy), ps */
	int armed;      /* a BUS_EV_TX_DONE event is outstanding (at until) */
	sim_time vt;    /* end of its last transmission that sent ahead, ps */
	uint8_t nsent;  /* sends of the bus with that end as their virtual time so far */
};

/* One replay-buffer entry: a TLP sent and not yet acknowledged. */
typedef struct bus_rbent bus_rbent;
struct bus_rbent {
	cxl_event *ev;    /* the packet until its receiver accepts it, then NULL */
	uint16_t size;    /* payload, B */
	uint8_t vc;       /* VC */
	uint8_t replayed; /* 1 once it has been retransmitted */
};

/* The data-link layer of one direction d: its sender and its receiver. */
typedef struct bus_dll bus_dll;
struct bus_dll {
	/* sender, at the port-d end */
	bus_rbent *rb;        /* replay buffer: a ring of bus.replay_buffer entries */
	uint32_t head;        /* ring index of the oldest unacknowledged TLP */
	uint32_t n;           /* TLPs held (sent, not acknowledged) */
	uint32_t sent;        /* of those, (re)sent in the current pass; < n: replaying */
	uint64_t head_seq;    /* sequence number of rb[head]; head_seq + n is the next new one */
	unsigned replay_num;  /* REPLAY_NUM: replays since the last forward progress, 0..3 */
	sim_time rt_due;      /* replay timer expiry, ps; 0: stopped */
	int rt_armed;         /* a BUS_EV_REPLAY_TIMER event is outstanding */
	/* receiver, at the port-(1-d) end */
	uint64_t next_rcv;    /* NEXT_RCV_SEQ: every TLP below it was accepted */
	int nak_scheduled;    /* a NAK went out and no good TLP came since */
	uint8_t dllp;         /* DLLP waiting for the reverse transmitter: 0, BUS_ACK, BUS_NAK */
	int ack_owed;         /* TLPs accepted since the last ACK, held by the ACK timer */
	sim_time ack_free;    /* no ACK of the timer before this, ps */
	int ack_armed;        /* a BUS_EV_ACK_TIMER event is outstanding */
	/* statistics of direction d's TLP stream */
	uint64_t *tlps;       /* stat tlps_d<d>: TLPs sent for the first time */
	uint64_t *replays;    /* stat replays_d<d>: retransmissions */
	uint64_t *replayed;   /* stat replayed_tlps_d<d>: TLPs retransmitted at least once */
	uint64_t *timeouts;   /* stat replay_timeouts_d<d>: replay timer expiries */
	uint64_t *naks;       /* stat naks_d<d>: NAK DLLPs sent by d's receiver */
	uint64_t *acks;       /* stat acks_d<d>: ACK DLLPs sent by d's receiver */
	uint64_t *dllp_bytes; /* stat dllp_bytes_d<d>: their wire bytes, B */
	uint64_t *retrains;   /* stat retrains_d<d>: REPLAY_NUM rollovers */
	uint64_t *refused;    /* stat refused_d<d>: TLPs the receiving node had no room for */
	uint64_t *corrupted;  /* stat corrupted_d<d>: TLPs that arrived corrupted */
	uint64_t *ppm;        /* stat replayed_ppm_d<d>: replays per 10^6 TLP transmissions */
};

/*
 * A link's serialisation rate: @bytes take ceil(bytes x mul / div) ps
 * (bus_ser_time's formula, bus.h).  A bus keeps its own, so that a packet
 * costs a multiply and a divide rather than the table look-ups, the gcd and
 * the checks of bus_ser_time (87 instructions, 3% of rack-4096's loop).
 */
typedef struct bus_rate bus_rate;
struct bus_rate {
	uint64_t mul; /* 8 x 10^6 x the efficiency's denominator: bits x ps x MT/s per byte */
	uint64_t div; /* MT/s x lanes x the efficiency's numerator */
};

/* bus__ser - serialisation time of @bytes at rate @r, ps, rounded up. */
static inline sim_time bus__ser(const bus_rate *r, uint32_t bytes)
{
	uint64_t top = (uint64_t)bytes * r->mul; /* < 2^64: (2^32-1) * 8 * 10^6 * 80 */

	return (top + r->div - 1) / r->div;
}

typedef struct bus bus;
struct bus {
	/* read or written on the data path (every packet, credit and wake), first and
	   together: a packet touches about 7 of the state's 19 lines (1176 bytes) */
	int half;                 /* 1: one shared transmitter (half duplex) */
	int early;                /* 1: the plain path sends each packet and its credit when
				     its serialisation starts (bus_tx.c); 0: at its end */
	uint32_t header;          /* wire bytes added to each payload, B */
	uint32_t buffer;          /* FIFO depth per direction and VC, packets */
	uint32_t slow;            /* serialisation slowdown (iso-bisection trunks), >= 1 */
	uint32_t rb_cap;          /* bus.replay_buffer: TLPs held per direction */
	uint32_t esf_frame;       /* bus.esf_frame: ESF framing quantum, B; 0: off (bus_esf.c) */
	uint32_t esf_width;       /* bus.esf_width: wire bytes rounded to this, B; 0: none */
	sim_time latency;         /* propagation added to each packet, ps */
	sim_time stop;            /* sim_stop_time(): a transmission ending at or after it
				     never ends (early mode) */
	uint8_t qmask[2];         /* per direction: bit v set iff q[d][v] holds a packet (a
				     cache of q[d][v].n != 0 for bus__pick_vc; rebuilt by
				     bus__q_sync after a checkpoint restore) */
	uint8_t rr[2];            /* per direction: the VC the next pick starts at */
	int last_dir;             /* direction of the last packet started, -1 none */
	int cut[2];               /* 1: the peer on port p forwards cut-through (a switch) */
	bus_rate rate;            /* gen, lanes and enc as a serialisation rate (bus__ser) */
	sim_time turnaround;      /* half duplex: added at each change of direction, ps */
	cxl_fc fc;                /* the bus's own held credits, per port (cxl_fc.h) */
	series *ts_busy[2];       /* time series busy_ps_d<d> (half duplex: both are the
				     transmitter's busy_ps), ps per period; NULL: off */
	/* statistics updated per packet, kept here (sim_stat_counter_at): */
	uint64_t pkts[2];         /* stat pkts_d<d>: TLP transmissions (replays included) */
	uint64_t wire[2];         /* stat wire_bytes_d<d>: their bytes, B */
	uint64_t payload[2];      /* stat payload_bytes_d<d>: payload of first transmissions, B */
	uint64_t busy[2];         /* stat busy_ps_d<d>: wire d busy (TLPs, DLLPs, turnaround), ps */
	cxl_credits cr[2];        /* credits held towards the peer on port p */
	series *ts_queued[2];     /* time series queued_ps_d<d>: packets in direction d's
				     FIFOs x ps (waiting to be sent); NULL: off */
	bus_tx tx[2];             /* transmitters (half duplex: tx[0] only) */
	evring q[2][CXL_NVC];     /* input FIFOs: q[d][v], came in on port d; push and pop
				     through bus__q_push / bus__q_pop (they keep qmask) */
	cxl_event **slots;        /* storage of every FIFO: 2 x CXL_NVC x buffer */
	/* set at init, read at the edges (a turn, a grant, the end); the data-link
	   layer (bus_replay.c): rb_cap above, 0 = off and none of this is used */
	unsigned gen;             /* PCIe generation, 1..6 */
	unsigned lanes;           /* link width, 1/2/4/8/16 */
	enum bus_encoding enc;    /* bus.encoding */
	int esf_drain;            /* bus.esf_half_drain: half duplex keeps its direction while
				     it has packets to send (bus_esf.c) */
	int esf_write_turn;       /* bus.esf_write_turnaround: a write's turn costs twice */
	uint32_t fc_batch;        /* bus.credit_batch resolved: credits returned together; 1: each at once */
	sim_time fc_timer;        /* bus.credit_timer resolved: longest a credit is held, ps */
	int fc_piggy;             /* bus.credit_piggyback: credits ride on reverse packets */
	uint64_t *queued_end;     /* stat queued_at_end (set by finish) */
	uint64_t *held_end[2];    /* stat credits_held_p<p> (set by finish) */
	sim_time replay_to;       /* replay timeout, ps */
	sim_time ack_to;          /* ACK timer: least time between two timer ACKs, ps */
	double err_rate;          /* bus.error_rate: probability a TLP arrives corrupted */
	int refuse;               /* bus.refuse_on_full */
	uint32_t dllp_size;       /* wire bytes of an ACK/NAK DLLP (0 in flit mode), B */
	bus_dll dl[2];            /* per direction */
	bus_rbent *rb_slots;      /* storage of both replay buffers: 2 x rb_cap */
	uint64_t *rb_end;         /* stat replay_held_at_end (set by finish) */
};

/* tx_tid - the transmitter that serves wire direction @d. */
static inline int bus__tid(const bus *b, int d)
{
	return b->half ? 0 : d;
}

/* bus__q_push - append @ev to FIFO q[@d][@v] and mark it non-empty in qmask. */
static inline void bus__q_push(bus *b, int d, int v, cxl_event *ev)
{
	evring_push(&b->q[d][v], ev);
	b->qmask[d] |= (uint8_t)(1u << v);
}

/* bus__q_pop - take the oldest packet of FIFO q[@d][@v] (not empty); keeps qmask. */
static inline cxl_event *bus__q_pop(bus *b, int d, int v)
{
	cxl_event *ev = evring_pop(&b->q[d][v]);

	if (!b->q[d][v].n)
		b->qmask[d] &= (uint8_t)~(1u << v);
	return ev;
}

/* bus__q_sync - rebuild qmask from the FIFOs (after they were set wholesale). */
static inline void bus__q_sync(bus *b)
{
	for (int d = 0; d < 2; d++) {
		b->qmask[d] = 0;
		for (int v = 0; v < CXL_NVC; v++)
			if (b->q[d][v].n)
				b->qmask[d] |= (uint8_t)(1u << v);
	}
}

/*
 * bus__pick_vc - the next VC of direction @d, round-robin from b->rr[d],
 * whose FIFO head may be sent: it holds a packet and a credit towards the
 * far port is held (refuse-on-full: no credit needed, the far end refuses).
 * Returns the VC, or -1 if none.
 *
 * Mechanism: qmask[d] has a bit per non-empty FIFO (bus_int.h), rotated
 * right by rr so that bit k is VC rr + k (mod CXL_NVC); the set bits are
 * visited lowest first (count trailing zeros), which is the order of the
 * round-robin scan, and only they test a credit.  No packet waiting (most
 * calls: can_send after a start) costs a load and a test instead of a
 * scan of every VC (the scan was 11% of rack-4096's loop).  Inline: the
 * empty test is most of its calls.
 */
static inline int bus__pick_vc(sim_comp *c, const bus *b, int d)
{
	unsigned m = b->qmask[d], r;

	if (!m)
		return -1;
	r = b->rr[d]; /* < CXL_NVC: set by the picks, checked on restore */
	m = (m >> r | m << (CXL_NVC - r)) & ((1u << CXL_NVC) - 1);
	for (; m; m &= m - 1) {
		unsigned v = r + (unsigned)__builtin_ctz(m);
		if (v >= CXL_NVC)
			v -= CXL_NVC;
		if (b->refuse || cxl_credit_has(c, &b->cr[1 - d], (uint16_t)(1 - d), v))
			return (int)v;
	}
	return -1;
}

/*
 * bus__wire_bytes - the wire bytes bus @b sends for a packet of @payload
 * bytes: header + payload by default, ESF's framing with bus.esf_frame
 * (bus_esf.c).  Inline: it runs twice per packet.
 */
static inline uint32_t bus__wire_bytes(const bus *b, uint32_t payload)
{
	if (!b->esf_frame)
		return b->header + payload;
	return bus_esf_wire_bytes(payload, b->esf_frame, b->esf_width);
}

/*
 * bus__esf_turn_extra - the extra busy time of a packet of VC @vc whose
 * transmitter has just turned for it (@turned: the turnaround added, ps;
 * 0 if it did not turn): another turnaround with bus.esf_write_turnaround
 * (bus_esf.c) for a write or a write's completion, else 0.
 */
static inline sim_time bus__esf_turn_extra(const bus *b, int vc, sim_time turned)
{
	if (!b->esf_write_turn || !turned)
		return 0;
	return vc == CXL_VC_M2S_RWD || vc == CXL_VC_S2M_NDR ? turned : 0;
}

/*
 * bus__note_queue - after a packet entered or left direction @d's FIFOs:
 * the time series of how many wait there now (nothing when sampling is off).
 */
static inline void bus__note_queue(const sim_comp *c, bus *b, int d)
{
	uint64_t n = 0;

	if (!b->ts_queued[d])
		return;
	for (int v = 0; v < CXL_NVC; v++)
		n += b->q[d][v].n;
	series_level(b->ts_queued[d], sim_now(c), n);
}

/* bus.c */
bus_rate bus__rate(unsigned gen, unsigned lanes, enum bus_encoding enc);

/* bus_tx.c */
void bus__early_init(const sim_comp *c, bus *b);
void bus__fc_send(sim_comp *c, void *state, uint16_t port, cxl_event *ev);
void bus__credit(sim_comp *c, bus *b, int d, uint8_t vc, sim_time delay, int ahead,
		 uint64_t seq);
void bus__tx_wake(sim_comp *c, bus *b, int t, uint32_t src);
int bus__tx_start_now(sim_comp *c, bus *b, int d, int v, cxl_event *ev, uint32_t src);
void bus__tx_start(sim_comp *c, bus *b, int t, cxl_event *timer);
void bus__tx_done(sim_comp *c, bus *b, int t, cxl_event *timer);
int bus__first_dir(const bus *b, int t);
sim_time bus__occupy(bus *b, bus_tx *tx, int d, uint32_t bytes);

/* bus_replay.c */
int bus__replay_init(sim_comp *c, bus *b, const cfg *cf, cxl_err *err);
int bus__replay_start(sim_comp *c, bus *b, int t, sim_time now);
void bus__replay_done(sim_comp *c, bus *b, const bus_tx *tx);
void bus__replay_event(sim_comp *c, bus *b, cxl_event *ev);
uint64_t bus__replay_finish(sim_comp *c, bus *b);

/* bus_ckpt.c */
void bus__ckpt(sim_comp *c, void *state, ckpt *k);

#endif
