/*
 * models/proto/cxl_fc.c - batched credit return (see cxl_fc.h for the
 * model, the negotiation and the timer).
 */
#include "models/proto/cxl_fc.h"

#include <stdlib.h>

#include "core/xmalloc.h"

/**
 * cxl_fc_init - @f for a component of @nports ports, every port off
 * (credits returned at once) until cxl_fc_setup or cxl_fc_on_grant;
 * @kind is the model's event kind for the timer's self events.
 */
void cxl_fc_init(cxl_fc *f, uint32_t nports, uint16_t kind)
{
	f->nports = nports;
	f->kind = kind;
	f->armed = SIM_TIME_MAX;
	f->port = xcalloc(nports ? nports : 1, sizeof(*f->port));
	for (uint32_t p = 0; p < nports; p++)
		f->port[p].due = SIM_TIME_MAX;
}

/* cxl_fc_destroy - free what cxl_fc_init allocated (the held credits are forgotten). */
void cxl_fc_destroy(cxl_fc *f)
{
	free(f->port);
	f->port = NULL;
	f->nports = 0;
}

/**
 * cxl_fc_setup - port @port returns its credits in batches of @batch
 * (<= 1: at once, off), holding none longer than @timer ps (> 0 when
 * batch > 1), and with @piggy on the packets it sends once the peer has
 * announced it takes them.
 */
void cxl_fc_setup(cxl_fc *f, uint16_t port, uint32_t batch, sim_time timer, int piggy)
{
	cxl_fc_port *p = &f->port[port];

	CXL_ASSERT(port < f->nports && batch <= UINT16_MAX && (batch <= 1 || timer > 0));
	p->batch = (uint16_t)batch;
	p->timer = timer;
	p->piggy = (uint8_t)(piggy && batch > 1);
	if (batch > 1)
		f->batching = 1;
}

/**
 * cxl_fc_mark_grant - make the time-0 grant @ev (mclass CXL_VC_ALL) carry
 * the link's batch, timer and whether its sender takes credits on packets.
 */
void cxl_fc_mark_grant(cxl_event *ev, uint32_t batch, sim_time timer, int piggy)
{
	ev->pkt.tag = batch;
	ev->pkt.addr = timer;
	if (piggy)
		ev->pkt.flags |= CXL_FC_PIGGY;
}

/**
 * cxl_fc_grant_all_ports - a node's time-0 grant of @count credits per VC
 * on every port (cxl_grant_all_ports), announcing that it takes credits on
 * packets.
 */
void cxl_fc_grant_all_ports(sim_comp *c, uint16_t count)
{
	for (uint32_t p = 0; p < c->nports; p++) {
		cxl_event *ev = sim_event_new(c);
		ev->kind = CXL_EV_CREDIT;
		ev->pkt.mclass = CXL_VC_ALL;
		ev->pkt.aux = count;
		ev->pkt.flags = CXL_FC_PIGGY;
		sim_send_port(c, ev, (uint16_t)p, 0);
	}
}

/**
 * cxl_fc__on_grant_all - cxl_fc_on_grant for a grant @ev of CXL_VC_ALL:
 * the negotiation (see there).
 */
void cxl_fc__on_grant_all(cxl_fc *f, const cxl_event *ev, uint32_t cap)
{
	uint16_t port = ev->dst_port;

	if (port >= f->nports)
		return;
	int piggy = ev->pkt.flags & CXL_FC_PIGGY;
	f->port[port].peer_piggy = (uint8_t)(piggy != 0);
	uint32_t batch = ev->pkt.tag;
	if (batch <= 1 || !ev->pkt.addr)
		return;
	cxl_fc_setup(f, port, batch < cap ? batch : cap, ev->pkt.addr, piggy);
}

/* arm - make sure a timer event runs at or before @due. */
static void arm(sim_comp *c, cxl_fc *f, sim_time due)
{
	sim_time now = sim_now(c);

	if (f->armed != SIM_TIME_MAX && f->armed >= now && f->armed <= due)
		return;
	if (due >= sim_stop_time(c))
		return; /* it would never run; the credits stay held, as in flight at a cut-off */
	cxl_event *ev = sim_event_new(c);
	ev->kind = f->kind;
	f->armed = due;
	sim_send_self(c, ev, due - now);
}

/**
 * cxl_fc_owe - port @port has freed a buffer slot of VC @vc.  Returns how
 * many credits of @vc to send back now as one credit event (1 when the port
 * does not batch; the batch when it is full), or 0 if the credit is held
 * (a timer is then pending that returns it within the port's timer).
 */
uint16_t cxl_fc_owe(sim_comp *c, cxl_fc *f, uint16_t port, uint8_t vc)
{
	if (!cxl_fc_batching(f, port))
		return 1;
	cxl_fc_port *p = &f->port[port];
	CXL_ASSERT(vc < CXL_NVC && p->owed[vc] < UINT16_MAX);
	if (++p->owed[vc] >= p->batch) {
		uint16_t n = p->owed[vc];
		p->owed[vc] = 0;
		return n;
	}
	if (p->due == SIM_TIME_MAX) {
		p->due = sim_now(c) + p->timer;
		arm(c, f, p->due);
	}
	return 0;
}

/* settle - port @p holds no credit any more: it has no due time. */
static void settle(cxl_fc_port *p)
{
	for (int v = 0; v < CXL_NVC; v++)
		if (p->owed[v])
			return;
	p->due = SIM_TIME_MAX;
}

/**
 * cxl_fc__piggy_held - cxl_fc_piggy's work when port @p piggybacks, its
 * peer takes credits and it holds some: move up to CXL_FC_CRD_MAX per VC
 * into @ev->crd (cleared by the caller).
 */
void cxl_fc__piggy_held(cxl_fc_port *p, cxl_event *ev)
{
	for (int v = 0; v < CXL_NVC; v++) {
		unsigned n = p->owed[v] < CXL_FC_CRD_MAX ? p->owed[v] : CXL_FC_CRD_MAX;
		p->owed[v] = (uint16_t)(p->owed[v] - n);
		ev->crd[v / 2] |= (uint8_t)(n << (4 * (v % 2)));
	}
	settle(p);
}

/**
 * cxl_fc__take_crd - cxl_fc_take's work for a packet @ev that carries
 * credits: add them to @cr and clear them.
 */
void cxl_fc__take_crd(cxl_credits *cr, cxl_event *ev)
{
	for (int v = 0; v < CXL_NVC; v++)
		cr->n[v] += (ev->crd[v / 2] >> (4 * (v % 2))) & 0xfu;
	ev->crd[0] = ev->crd[1] = ev->crd[2] = 0;
}

/* flush - every credit port @port holds, as one packed event sent by @send. */
static void flush(sim_comp *c, cxl_fc *f, uint16_t port, cxl_fc_send_fn *send, void *state)
{
	cxl_fc_port *p = &f->port[port];
	cxl_event *ev = sim_event_new(c);

	ev->kind = CXL_EV_CREDIT;
	ev->pkt.mclass = CXL_VC_PACKED;
	for (int v = 0; v < CXL_NVC; v++) {
		if (v < 4)
			ev->pkt.addr |= (uint64_t)p->owed[v] << (16 * v);
		else
			ev->pkt.tag |= (uint32_t)p->owed[v] << (16 * (v - 4));
		p->owed[v] = 0;
	}
	p->due = SIM_TIME_MAX;
	send(c, state, port, ev);
}

/**
 * cxl_fc_timer - the timer event @ev (kind f->kind) runs: every port whose
 * held credits are due returns them all as one packed credit event, sent
 * by @send (with @state); then the timer is armed for the next due time.
 */
void cxl_fc_timer(sim_comp *c, cxl_fc *f, const cxl_event *ev, cxl_fc_send_fn *send,
		  void *state)
{
	sim_time now = sim_now(c), next = SIM_TIME_MAX;

	CXL_ASSERT(ev->kind == f->kind);
	if (f->armed == now)
		f->armed = SIM_TIME_MAX;
	for (uint32_t q = 0; q < f->nports; q++) {
		cxl_fc_port *p = &f->port[q];
		if (p->due <= now)
			flush(c, f, (uint16_t)q, send, state);
		else if (p->due < next)
			next = p->due;
	}
	if (next != SIM_TIME_MAX)
		arm(c, f, next);
}

/* cxl_fc_owed - credits held over every port and VC (conservation at the end). */
uint64_t cxl_fc_owed(const cxl_fc *f)
{
	uint64_t n = 0;

	for (uint32_t q = 0; q < f->nports; q++)
		for (int v = 0; v < CXL_NVC; v++)
			n += f->port[q].owed[v];
	return n;
}

/**
 * cxl_fc_ckpt - save or restore what events change in @f: each port (its
 * negotiated settings, held credits and due time) and the armed time.  The
 * timer events themselves are the engine's.
 */
void cxl_fc_ckpt(ckpt *k, cxl_fc *f)
{
	ckpt_same(k, f->nports, "credit-return ports");
	for (uint32_t q = 0; q < f->nports && !ckpt_failed(k); q++) {
		cxl_fc_port *p = &f->port[q];
		CKPT(k, p->owed);
		CKPT(k, p->batch);
		CKPT(k, p->piggy);
		CKPT(k, p->peer_piggy);
		CKPT(k, p->timer);
		CKPT(k, p->due);
		if (p->batch > 1)
			f->batching = 1;
	}
	CKPT(k, f->armed);
}
