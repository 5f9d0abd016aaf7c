/*
 * models/proto/cxl_proto.h - what the CXL.mem data-path models (requester, bus,
 * switch, memory) agree on: message classes = virtual channels, event
 * kinds, and the credit-based flow control every port speaks.
 *
 * Message classes (design §5) travel on separate virtual channels, so a
 * full request channel can never block a response: the requester
 * pre-allocates room for the responses of its outstanding requests and
 * always drains them, so no protocol deadlock can form.
 *
 * Flow control, the same on every port of every data-path component:
 *   - a receiver holds, per port and VC, an input buffer of a fixed number
 *     of packets (its own config: bus.buffer, switch.buffer, ...);
 *   - at time 0 every component grants its peer on every port that many
 *     credits for each VC (one CXL_EV_CREDIT event per port, pkt.mclass =
 *     CXL_VC_ALL, pkt.aux = count), so no component needs to know another's
 *     configuration;
 *   - a sender may send a packet on VC v only while it holds a credit for
 *     v on that port, and spends one per packet;
 *   - when a receiver removes a packet from its input buffer (forwards or
 *     consumes it) it returns one credit (CXL_EV_CREDIT, pkt.mclass = v,
 *     pkt.aux = 1) over the port the packet came in on.
 * With bus.credit_batch > 1 receivers hold freed credits and return them
 * in batches, by a timer or on packets going the other way (cxl_fc.h).
 * Credits travel over the links like packets, so they take the link
 * latency: a credit loop costs two link latencies, as on real links.  At
 * the end of a run every credit is back home (checked by the models'
 * finish hooks, counted in their statistics).
 *
 * Event kinds (cxl_event.kind): CXL_EV_PKT for a packet arriving on a
 * port, CXL_EV_CREDIT for credits; models number their own timers from
 * CXL_EV_MODEL up.
 *
 * Packet fields (core/event.h) as used here: mclass = VC, opcode = CXL
 * opcode, size = payload bytes (0, 64, or n x 64 for a request of n lines
 * and its DRS, below), pbr_src / pbr_dst = PBR ids of the source and
 * destination edge ports, tag = requester's tag, issue = issue time at the
 * requester, hops = buses crossed, flags = the bits below, aux = a MemRd's
 * line count or a flag line's value (below).
 */
#ifndef CXL_MODELS_CXL_PROTO_H
#define CXL_MODELS_CXL_PROTO_H

#include <stdint.h>

#include "core/sim.h"

/* Virtual channels = CXL.mem message classes. */
enum cxl_vc {
	CXL_VC_M2S_REQ,   /* host -> device requests without data (MemRd) */
	CXL_VC_M2S_RWD,   /* host -> device requests with data (MemWr) */
	CXL_VC_S2M_NDR,   /* device -> host completions without data (Cmp) */
	CXL_VC_S2M_DRS,   /* device -> host data responses (MemData) */
	CXL_VC_S2M_BISNP, /* device -> host back-invalidation snoops (coherence) */
	CXL_VC_M2S_BIRSP, /* host -> device back-invalidation responses */
	CXL_NVC
};
#define CXL_VC_ALL 0xffu /* pkt.mclass of an initial grant: every VC */
/* pkt.mclass of a packed return (batched credits, cxl_fc.h): 16 bits per VC,
 * VC 0-3 in pkt.addr (VC v at bits 16v), VC 4-5 in pkt.tag (bits 16(v-4)) */
#define CXL_VC_PACKED 0xfeu

/* Opcodes used by the data path (CXL 3.x encodings). */
enum cxl_opcode {
	CXL_OP_MEMRD = 0x1,   /* M2S Req */
	CXL_OP_MEMWR = 0x1,   /* M2S RwD */
	CXL_OP_CMP = 0x0,     /* S2M NDR */
	CXL_OP_MEMDATA = 0x0, /* S2M DRS */
	CXL_OP_BISNPINV = 0x1, /* S2M BISnp: invalidate (with data back if dirty) */
	CXL_OP_BIRSPI = 0x0,   /* M2S BIRsp: the lines are now invalid at the host */
	/* not CXL.mem: a device's interrupt (an MSI, PCIe's posted write to the host's
	 * interrupt address) on M2S RwD, ordered behind the device's earlier writes; a
	 * host sinks it on arrival; pkt.tag = the vector (models/device/dev.h) */
	CXL_OP_MSI = 0xf,
};

/*
 * Coherence (HDM-DB, ESF §III-B/G; models/coherence/sf.h, mem.c, req.c):
 *   - a requester with a cache marks its requests CXL_PKT_CACHED (it will
 *     keep the line, so the device's snoop filter records it as an owner)
 *     and write misses CXL_PKT_EXCL (it fetches the line to own and dirty
 *     it); a write-back of a dirty line is an M2S RwD MemWr marked
 *     CXL_PKT_WB (the host gives the line up, and issues no new request
 *     for that line until the write-back is answered);
 *   - BISnp (S2M_BISNP, opcode BISnpInv) asks a requester to invalidate
 *     pkt.tag contiguous lines from pkt.addr (1 line, or an InvBlk of 2-4);
 *   - the requester answers every BISnp with exactly one BIRsp (M2S_BIRSP,
 *     BIRspI, same addr and tag) whose payload is the dirty lines it held
 *     (pkt.size = 64 x dirty lines): as in ESF, dirty data is flushed back
 *     through the BIRsp.
 */
#define CXL_PKT_CACHED 0x1u /* pkt.flags: the requester will cache the line */
#define CXL_PKT_EXCL 0x2u   /* pkt.flags: it wants the line exclusively (a write) */
#define CXL_PKT_WB 0x4u     /* pkt.flags: a write-back (the requester gives the line up) */

/*
 * Flag lines (host programs, models/host/prog.h; their values: flagmap.h):
 * CXL_PKT_FLAG says pkt.aux is the 16-bit value of a flag line - the line of
 * pkt.addr (a one-line MemWr, or the DRS of a one-line MemRd whose line
 * holds a value at the memory), or for a BIRsp, line CXL_PKT_FLAG_LINE(flags)
 * of the block it answers (pkt.addr, pkt.tag lines), whose dirty data it
 * carries.  NDRs never carry it.
 */
#define CXL_PKT_FLAG 0x8u   /* pkt.flags: pkt.aux is a flag line's value */
#define CXL_PKT_FLAG_LINE(f) (((unsigned)(f) >> 4) & 3u)       /* BIRsp: which line */
#define CXL_PKT_FLAG_AT(k) ((uint8_t)(((unsigned)(k) & 3u) << 4)) /* its flags bits */
#define CXL_PKT_FLAG_MASK 0x38u /* CXL_PKT_FLAG and CXL_PKT_FLAG_LINE's two bits */
/* pkt.flags 0x40 is CXL_PKT_LATOVF (cxl_lat.h); 0x80 is the memory model's own (mem.c). */

/*
 * Requests of several lines (uncacheable accesses split into TLPs of up to
 * bus.max_payload, models/link/bus.h): an M2S Req MemRd with pkt.aux = n
 * (0 or 1: one line) reads n <= CXL_MAX_LINES consecutive lines from
 * pkt.addr (64-byte aligned) and is answered by one DRS of n x 64 bytes;
 * an M2S RwD MemWr with pkt.size = n x 64 writes n lines and is answered
 * by one NDR.  Such a request never crosses a workload.interleave granule
 * (one memory device serves it).  A request of one line is as above.
 */
#define CXL_MAX_LINES 64 /* lines of one request: 4 KiB, the largest max payload */

enum cxl_ev_kind {
	CXL_EV_PKT = 1,    /* a packet arrives on dst_port */
	CXL_EV_CREDIT = 2, /* credits arrive on dst_port */
	CXL_EV_MODEL = 16, /* first kind free for a model's own timers */
};

#define CXL_LINE 64 /* bytes of data in RwD and DRS messages */

/* The credits a sender holds towards the peer of one port. */
typedef struct cxl_credits cxl_credits;
struct cxl_credits {
	uint32_t n[CXL_NVC]; /* packets the peer can still take, per VC */
};

/* cxl_credit_event - a new credit event of @count credits for VC @vc (or CXL_VC_ALL). */
static inline cxl_event *cxl_credit_event(sim_comp *c, uint8_t vc, uint16_t count)
{
	cxl_event *ev = sim_event_new(c);

	ev->kind = CXL_EV_CREDIT;
	ev->pkt.mclass = vc;
	ev->pkt.aux = count;
	return ev;
}

/**
 * cxl_grant - send @count credits for VC @vc (or CXL_VC_ALL) to the peer on
 * @port; it arrives after the link latency.  Allocates one event.
 */
static inline void cxl_grant(sim_comp *c, uint16_t port, uint8_t vc, uint16_t count)
{
	sim_send_port(c, cxl_credit_event(c, vc, count), port, 0);
}

/**
 * cxl_grant_lazy - cxl_grant of freed credits (@vc < CXL_NVC) as a lazy
 * event (sim_send_port_lazy): a peer whose model says nothing waits for
 * them takes them in at its next event, without an event.
 */
static inline void cxl_grant_lazy(sim_comp *c, uint16_t port, uint8_t vc, uint16_t count)
{
	sim_send_port_lazy(c, port, 0, CXL_EV_CREDIT, vc, count);
}

/* cxl_grant_all_ports - the time-0 grant of @count credits per VC on every port. */
static inline void cxl_grant_all_ports(sim_comp *c, uint16_t count)
{
	for (uint32_t p = 0; p < c->nports; p++)
		cxl_grant(c, (uint16_t)p, CXL_VC_ALL, count);
}

/* cxl_credit_apply - add the credits carried by @ev to @cr. */
static inline void cxl_credit_apply(cxl_credits *cr, const cxl_event *ev)
{
	if (ev->pkt.mclass == CXL_VC_PACKED) {
		for (int v = 0; v < CXL_NVC; v++)
			cr->n[v] += (uint16_t)(v < 4 ? ev->pkt.addr >> (16 * v) :
					       ev->pkt.tag >> (16 * (v - 4)));
		return;
	}
	if (ev->pkt.mclass == CXL_VC_ALL) {
		for (int v = 0; v < CXL_NVC; v++)
			cr->n[v] += ev->pkt.aux;
		return;
	}
	CXL_ASSERT(ev->pkt.mclass < CXL_NVC);
	cr->n[ev->pkt.mclass] += ev->pkt.aux;
}

/*
 * cxl_credit_absorb - add (@dir +1) or take back (-1) the credits of the
 * lazy credit event @l (one VC) in @cr: a model's lazy_absorb.
 */
static inline void cxl_credit_absorb(cxl_credits *cr, const sim_lazy *l, int dir)
{
	CXL_ASSERT(l->mclass < CXL_NVC);
	cr->n[l->mclass] += dir > 0 ? l->aux : -(uint32_t)l->aux;
}

/**
 * cxl_credit_has - may a packet of VC @v leave by @port, whose credits @cr
 * counts?  Lazy credits are counted at their send (core/sim_lazy.c), so
 * @cr may run ahead of the true count by those that have not arrived
 * (sim_lazy_early); at most by c->lazy_early, so a count above that is
 * enough.  Every model with lazy_ok reads its counts through this (a
 * count it then spends is a true one).
 */
static inline int cxl_credit_has(sim_comp *c, const cxl_credits *cr, uint16_t port, unsigned v)
{
	return cr->n[v] > c->lazy_early || cr->n[v] > sim_lazy_early(c, port, (uint8_t)v);
}

/* cxl_credits_total - credits held over every VC (conservation checks). */
static inline uint64_t cxl_credits_total(const cxl_credits *cr)
{
	uint64_t t = 0;

	for (int v = 0; v < CXL_NVC; v++)
		t += cr->n[v];
	return t;
}

/* cxl_vc_has_data - does a message of this VC carry a 64-byte line? */
static inline int cxl_vc_has_data(unsigned vc)
{
	return vc == CXL_VC_M2S_RWD || vc == CXL_VC_S2M_DRS;
}

#endif
