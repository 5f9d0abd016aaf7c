/*
 * models/proto/cxl_fc.h - batched credit return (UpdateFC-style), the
 * receiver's side of cxl_proto.h's flow control when a link asks for it.
 *
 * Off (the default, bus.credit_batch = 1) a receiver returns each credit
 * as its own CXL_EV_CREDIT event the moment it frees the buffer slot (why
 * it stays the default: models/link/README.md).  On (a batch set, or 0:
 * the bus picks one, bus.c fc_auto_batch),
 * a receiver port holds the credits it frees (per VC, `owed`) and returns
 * them, whichever comes first:
 *   - alone, as one credit event for a VC once `batch` of it are owed
 *     (the count the event carries is the batch);
 *   - all of the port's, as one packed credit event (pkt.mclass =
 *     CXL_VC_PACKED), when the oldest has been held `timer` ps (PCIe's
 *     UpdateFC rule: no freed credit is held for ever);
 *   - with piggyback, on the next packet the receiver sends out of that
 *     port: up to 15 per VC in the event header's crd bytes, 4 bits per VC
 *     (CXL's flit headers carry credit returns the same way).
 * A held credit is never early: it reaches the sender later than it would
 * off, so no buffer can overflow (the conservative direction).  Every held
 * credit has a pending timer that returns it by its due time, so none is
 * lost and none waits for traffic: at the natural end of a run every
 * credit is home, as cxl_proto.h's conservation check wants.
 *
 * Negotiation at time 0 (the grant of CXL_VC_ALL credits, cxl_fc_mark_grant):
 * the bus, which owns the link's keys (bus.credit_batch, bus.credit_timer,
 * bus.credit_piggyback), puts its batch in pkt.tag, its timer (ps) in
 * pkt.addr, and CXL_FC_PIGGY in pkt.flags when it takes credits on
 * packets; a node that batches (switch, requester, memory) sets
 * CXL_FC_PIGGY in its own grant (it always takes them) and configures its
 * port from the bus's grant (cxl_fc_on_grant), capping the batch at the
 * credits it grants itself.  A node that does not (device, DCOH ...)
 * ignores those fields: it never announces CXL_FC_PIGGY, so nothing is
 * piggybacked to it, and it keeps returning every credit at once.  The
 * grant reaches the peer at its link latency, before any packet can.
 *
 * The timer is lazy (one self event of the model's kind `kind` outstanding
 * per component in the common case; `armed` is the earliest): when it runs
 * (cxl_fc_timer) it returns every port whose due time has come and re-arms
 * for the next due time.
 *
 * Models keep one cxl_fc per component; its state is theirs (checkpointed
 * by cxl_fc_ckpt in their hook).  Single-threaded, like every model.
 */
#ifndef CXL_MODELS_PROTO_CXL_FC_H
#define CXL_MODELS_PROTO_CXL_FC_H

#include <stdint.h>

#include "core/sim.h"
#include "models/proto/cxl_proto.h"

#define CXL_FC_PIGGY 0x1u   /* pkt.flags of a time-0 grant: its sender takes credits on packets */
#define CXL_FC_CRD_MAX 15u  /* credits of one VC one packet can carry */

typedef struct cxl_fc_port cxl_fc_port;
struct cxl_fc_port {
	uint16_t owed[CXL_NVC]; /* credits freed here and not yet returned, per VC */
	uint16_t batch;         /* return a VC's credits alone once this many are owed;
				   <= 1: each at once (off) */
	uint8_t piggy;          /* 1: send owed credits on this port's outgoing packets */
	uint8_t peer_piggy;     /* 1: the peer announced CXL_FC_PIGGY */
	sim_time timer;         /* the longest a freed credit is held, ps */
	sim_time due;           /* the oldest owed credit leaves by then, ps; SIM_TIME_MAX: none */
};

typedef struct cxl_fc cxl_fc;
struct cxl_fc {
	cxl_fc_port *port;      /* [nports] */
	uint32_t nports;        /* ports of the component */
	uint16_t kind;          /* the model's event kind for the timer (a self event) */
	uint8_t batching;       /* 0: no port batches (every batch <= 1), so neither the
				   owe nor the piggyback needs to read `port` (a cache miss
				   per packet on big fabrics); 1: some port may */
	sim_time armed;         /* time of the earliest pending timer event, ps; SIM_TIME_MAX: none */
};

/* cxl_fc_send_fn - send the credit event @ev (built by cxl_fc) out of @port. */
typedef void cxl_fc_send_fn(sim_comp *c, void *state, uint16_t port, cxl_event *ev);

void cxl_fc_init(cxl_fc *f, uint32_t nports, uint16_t kind);
void cxl_fc_destroy(cxl_fc *f);
void cxl_fc_setup(cxl_fc *f, uint16_t port, uint32_t batch, sim_time timer, int piggy);
void cxl_fc_mark_grant(cxl_event *ev, uint32_t batch, sim_time timer, int piggy);
void cxl_fc_grant_all_ports(sim_comp *c, uint16_t count);
uint16_t cxl_fc_owe(sim_comp *c, cxl_fc *f, uint16_t port, uint8_t vc);
void cxl_fc_timer(sim_comp *c, cxl_fc *f, const cxl_event *ev, cxl_fc_send_fn *send,
		  void *state);
uint64_t cxl_fc_owed(const cxl_fc *f);
void cxl_fc_ckpt(ckpt *k, cxl_fc *f);
void cxl_fc__piggy_held(cxl_fc_port *p, cxl_event *ev);
void cxl_fc__on_grant_all(cxl_fc *f, const cxl_event *ev, uint32_t cap);
void cxl_fc__take_crd(cxl_credits *cr, cxl_event *ev);

/* cxl_fc_batching - does port @port hold credits at all (batch > 1)? */
static inline int cxl_fc_batching(const cxl_fc *f, uint16_t port)
{
	return f->batching && f->port[port].batch > 1;
}

/**
 * cxl_fc_on_grant - a node's side of the negotiation: if @ev is a time-0
 * grant (CXL_VC_ALL), note whether its sender takes credits on packets and,
 * if it carries a batch > 1, configure the port it came in on: that batch
 * capped at @cap (the credits the node grants on that port, so a batch is
 * never more than the sender can have out), its timer, and piggyback if
 * the sender takes credits that way.  Inline (every credit event a node
 * receives calls it): only the time-0 grant has work, in
 * cxl_fc__on_grant_all.
 */
static inline void cxl_fc_on_grant(cxl_fc *f, const cxl_event *ev, uint32_t cap)
{
	if (ev->pkt.mclass == CXL_VC_ALL)
		cxl_fc__on_grant_all(f, ev, cap);
}

/**
 * cxl_fc_piggy - the packet @ev leaves by @port: make it carry the credits
 * the port holds (up to CXL_FC_CRD_MAX per VC) if it piggybacks and the
 * peer takes them; clears ev->crd otherwise.  Call just before the send.
 * Inline (every packet sent by a bus or a node calls it): the clear and
 * the tests are all most packets need; cxl_fc__piggy_held moves the
 * credits.
 */
static inline void cxl_fc_piggy(cxl_fc *f, uint16_t port, cxl_event *ev)
{
	ev->crd[0] = ev->crd[1] = ev->crd[2] = 0;
	if (!f->batching || port >= f->nports) /* piggybacking needs a batch */
		return;
	cxl_fc_port *p = &f->port[port];
	if (p->piggy && p->peer_piggy && p->due != SIM_TIME_MAX)
		cxl_fc__piggy_held(p, ev);
}

/**
 * cxl_fc_take - the packet @ev has arrived: add the credits it carries to
 * @cr and clear them.  Returns 1 if it carried any.  Inline (every packet
 * received calls it): most carry none, one test; cxl_fc__take_crd adds them.
 */
static inline int cxl_fc_take(cxl_credits *cr, cxl_event *ev)
{
	if (!(ev->crd[0] | ev->crd[1] | ev->crd[2]))
		return 0;
	cxl_fc__take_crd(cr, ev);
	return 1;
}

#endif
