/*
 * models/switch/switch.c - the PBR switch: per-port input buffers per virtual
 * channel, a switching latency, routing over the fabric's tables, and
 * round-robin arbitration at every output.
 *
 * A packet arriving on port i (VC v) enters the switching pipeline and is
 * ready `switch.latency` later; then it joins the FIFO of (i, v) with its
 * output port chosen by `switch.routing`:
 *   oblivious  fab_route_oblivious(): fixed per (source, destination)
 *   adaptive   fab_route_adaptive_by(): the minimal port with the fewest ready
 *              packets waiting for it (ties from the oblivious pick)
 * An output forwards the head of an input FIFO that routes to it when it
 * holds a credit of that VC towards its bus.  Each output keeps the FIFOs
 * whose head routes to it in a list (intrusive: a FIFO's head targets one
 * output at a time) and serves it round-robin: the first FIFO whose VC has
 * a credit sends one packet and goes to the back if its next head routes
 * here too, so no input starves and an output costs O(waiting FIFOs).  Heads block their FIFO (head-of-
 * line blocking, as in real input-queued switches).  Forwarding takes no
 * time here: the bus behind the output serialises (store-and-forward at
 * the bus).  switch.forwarding = cut_through lets the bus in front of a
 * switch deliver a packet once its header is over (see bus.c).
 *
 * Slices (switch.slices = S > 1, fab_view.h): the switch is S components,
 * each owning every S-th port plus one internal port per other slice.  A
 * slice routes a packet when it arrives: bound for its own port it takes
 * the pipeline as above; bound for another slice's port it queues at once
 * for the internal link to that slice, whose latency (switch.latency) is
 * its pipeline, and the egress slice forwards it like any ready packet
 * (adaptive routing then picks among that slice's own minimal ports; at
 * the ingress slice another slice's port counts with the load of the link
 * to it, so congestion at another slice's output shows only once it backs
 * up that link).  Idle latency is the same as a whole switch's; under load the
 * internal links add a stage of buffering (switch.buffer per VC) and
 * output arbitration sees a remote packet only once it has crossed.
 *
 * Flow control (cxl_proto.h): `switch.buffer` credits per port and VC; the
 * credit of (i, v) goes back when its packet leaves.  Memory per switch:
 * ports x VCs x buffer event pointers, allocated at init.
 *
 * Statistics: pkts (forwarded), queue_ps (sum of ready-to-departure times),
 * max_occupancy (most packets held at once), and at the end held_at_end
 * and credits_held for conservation checks; per output port p: p<p>_pkts,
 * p<p>_queue_ps (time its packets waited, ready to departure) and
 * p<p>_max_waiting (most ready packets waiting for it at once).  With
 * simulation.sample_period > 0, per output port the time series
 * p<p>_waiting_ps (packets waiting x ps: / period = mean occupancy; its
 * periods add up to p<p>_queue_ps plus the waits still open at the end) and
 * p<p>_pkts (forwarded); the output's utilisation is that of the bus
 * behind it (forwarding takes no time here).
 *
 * Forwarding in the arrival event (s->ahead): where it is exact, a packet
 * that would leave the moment it is ready is forwarded when it arrives
 * (packet sent with delay switch.latency, its input credit too), saving
 * the ready event.  At its arrival time t it must be certain that at
 * t + latency it will find its input FIFO empty and its output free with a
 * credit of its VC: no packet waits for its output (load 0), none in the
 * pipeline is bound for that output or that FIFO (pipe_out, pipe_in), a
 * credit is held now (credits only grow until then, since nothing else can
 * take one of that output), and no packet arrived at t before it that was
 * not forwarded ahead.  Statistics follow exactly: it counts in `held`
 * until its ready time (the ring `ends`), its forward in pkts and
 * p<p>_pkts (queue time 0).  The order of same-time events at the buses:
 * the switch numbers its sends (sim_send_port_seq) by (time, phase, count),
 * the phase being the handled event's place among the switch's events at
 * that time (from a lower id, then its own ready events, then from a
 * higher id), with the sends made ahead as a phase of their own just
 * before the ready events of that time (they are the ready events of the
 * packets that arrived first); so every send keeps the place it had.  Off
 * (the plain path, unchanged) with slices, adaptive routing, time series,
 * switch.latency = 0, a stop past 2^40 ps or more than 2^20 buffer slots.
 *
 * ESF-compatible port occupancy (switch.esf_port_busy, off by default; ESF
 * switch.hh Switch::sched): the switch is no pipeline but a server per
 * output port.  A packet is routed and queued when it arrives; when its
 * output forwards it (as above, round robin, with credits) it starts at
 * max(now, the port's free time), holds the port switch.latency and
 * arrives at the bus that much later (sw__esf_start): the delay is both
 * the port's occupancy per packet, whatever its size, and the latency.
 * Ports towards hosts and memories are ports like any other.  Waiting for
 * the port counts as queueing, the delay as switching.  Forwarding ahead is
 * off; slices are refused.  Statistics, only then: per output port p,
 * p<p>_esf_wait_ps (time its packets waited for the port) and
 * p<p>_esf_busy_ps (packets x switch.latency).
 */
#include "models/switch/switch.h"

#include <stdio.h>
#include <string.h>

#include "core/xmalloc.h"
#include "models/proto/cxl_lat.h"
#include "models/proto/cxl_proto.h"
#include "models/proto/evring.h"
#include "models/fabric/fab_view.h"
#include "models/switch/switch_int.h"

enum { SW_EV_READY = CXL_EV_MODEL, SW_EV_FC_TIMER /* batched credits due (cxl_fc.h) */ };
#define NONE UINT32_MAX

/* Ordering phases of the sends at one time (forwarding ahead, see above). */
enum { PH_LOWER, PH_AHEAD, PH_SELF, PH_HIGHER };
#define ORD_SUB_BITS 22

static const cfg_key sw_keys[] = {
	{ "switch.latency", CFG_TIME, "20ns", "0ps", NULL, NULL,
	  "switching latency from arrival to ready at the output (ESF Table III: 20 ns)" },
	{ "switch.routing", CFG_ENUM, "oblivious", NULL, NULL, "oblivious|adaptive",
	  "choice among minimal ports: fixed per flow, or the least-loaded output" },
	{ "switch.buffer", CFG_INT, "32", "1", "4096", NULL,
	  "input buffer per port and VC, packets (credits granted upstream)" },
	{ "switch.slices", CFG_INT, "1", "1", "64", NULL,
	  "components (LPs) a switch is split into, ports dealt round-robin, so one big switch "
	  "can spread over ranks; slices pass packets over internal links of latency "
	  "switch.latency (> 0), which then replaces the pipeline for those packets" },
	{ "switch.forwarding", CFG_ENUM, "store_and_forward", NULL, NULL,
	  "store_and_forward|cut_through",
	  "cut_through: a packet is taken in once its header has crossed the bus (bus.c)" },
	{ "switch.esf_port_busy", CFG_BOOL, "false", NULL, NULL, NULL,
	  "ESF-compatible (ESF switch.hh): each output port serves one packet per "
	  "switch.latency, which is also its latency (no pipeline); needs slices = 1" },
};

const cfg_schema cxl_switch_schema = {
	"switch", sw_keys, sizeof(sw_keys) / sizeof(sw_keys[0]),
};

static void alloc_state(sw *s)
{
	s->pt = xcalloc_lines(s->nports, sizeof(*s->pt));
	s->in = xmalloc(s->nq * sizeof(*s->in));
	s->slots = xmalloc((size_t)s->nq * s->buf * sizeof(*s->slots));
	s->out = xmalloc((size_t)s->nq * s->buf * sizeof(*s->out));
	s->next = xcalloc(s->nq, sizeof(*s->next)); /* zeroed: a checkpoint writes it whole */
	for (uint32_t p = 0; p < s->nports; p++)
		s->pt[p].lhead = NONE;
	s->todo = xmalloc(s->nports * sizeof(*s->todo));
	for (uint32_t q = 0; q < s->nq; q++)
		evring_init(&s->in[q], s->buf, s->slots + (size_t)q * s->buf);
	s->port_queue = xmalloc(s->nports * sizeof(*s->port_queue));
}

static void register_stats(sim_comp *c, sw *s)
{
	char name[32];

	s->pkts = sim_stat_counter(c, "pkts");
	s->queue_ps = sim_stat_counter(c, "queue_ps");
	s->max_occ = sim_stat_counter(c, "max_occupancy");
	s->held_end = sim_stat_counter(c, "held_at_end");
	s->credits_end = sim_stat_counter(c, "credits_held");
	for (uint32_t p = 0; p < s->nports; p++) {
		snprintf(name, sizeof(name), "p%u_pkts", p);
		s->pt[p].pkts = sim_stat_counter(c, name);
		snprintf(name, sizeof(name), "p%u_queue_ps", p);
		s->port_queue[p] = sim_stat_counter(c, name);
		snprintf(name, sizeof(name), "p%u_max_waiting", p);
		s->pt[p].maxw = sim_stat_counter(c, name);
	}
}

/* Per output port: packets waiting (a level over time) and forwarded. */
static void register_series(sim_comp *c, sw *s)
{
	char name[32];

	if (!sim_series_on(c))
		return;
	s->ts_wait = xmalloc(s->nports * sizeof(*s->ts_wait));
	s->ts_pkts = xmalloc(s->nports * sizeof(*s->ts_pkts));
	for (uint32_t p = 0; p < s->nports; p++) {
		snprintf(name, sizeof(name), "p%u_waiting_ps", p);
		s->ts_wait[p] = sim_series(c, name, SERIES_TIME);
		snprintf(name, sizeof(name), "p%u_pkts", p);
		s->ts_pkts[p] = sim_series(c, name, SERIES_SUM);
	}
}

/* esf_init - switch.esf_port_busy: every port free at 0, and its statistics. */
static void esf_init(sim_comp *c, sw *s)
{
	char name[32];

	s->port_free = xcalloc(s->nports, sizeof(*s->port_free));
	s->port_esf_wait = xmalloc(s->nports * sizeof(*s->port_esf_wait));
	s->port_esf_busy = xmalloc(s->nports * sizeof(*s->port_esf_busy));
	for (uint32_t p = 0; p < s->nports; p++) {
		snprintf(name, sizeof(name), "p%u_esf_wait_ps", p);
		s->port_esf_wait[p] = sim_stat_counter(c, name);
		snprintf(name, sizeof(name), "p%u_esf_busy_ps", p);
		s->port_esf_busy[p] = sim_stat_counter(c, name);
	}
}

/**
 * sw__esf_start - see switch_int.h.
 * @free: IN/OUT the output's free time, ps; @now: hand-over time, ps;
 * @delay: switch.latency, ps.
 */
sim_time sw__esf_start(sim_time *free, sim_time now, sim_time delay)
{
	sim_time start = *free > now ? *free : now;

	*free = start + delay;
	return start;
}

/*
 * esf_delay - switch.esf_port_busy: the packet in @ev takes output @o now;
 * account its wait for the port and the delay, and return the delay of
 * its send (start - now + latency).
 */
static sim_time esf_delay(const sim_comp *c, sw *s, cxl_event *ev, uint32_t o)
{
	sim_time now = sim_now(c);
	sim_time start = sw__esf_start(&s->port_free[o], now, s->latency);

	*s->port_esf_wait[o] += start - now;
	*s->port_esf_busy[o] += s->latency;
	cxl_lat_add(&ev->pkt, CXL_LAT_QUEUE, start - now);
	cxl_lat_add(&ev->pkt, CXL_LAT_SWITCH, s->latency);
	return start - now + s->latency;
}

/*
 * order_now - the ordering number of a send made now, in the handled
 * event's phase (forwarding ahead: 40 bits of time, 2 of phase, 22 of count).
 */
static uint64_t order_now(const sim_comp *c, sw *s)
{
	sim_time now = sim_now(c);

	if (now != s->ord_vt || s->phase != s->ord_phase) {
		s->ord_vt = now;
		s->ord_phase = s->phase;
		s->ord_sub = 0;
	}
	CXL_ASSERT(s->ord_sub < (1u << ORD_SUB_BITS));
	return now << (ORD_SUB_BITS + 2) | (uint64_t)s->phase << ORD_SUB_BITS | s->ord_sub++;
}

/* order_ahead - the ordering number of a send made ahead for virtual time @vt. */
static uint64_t order_ahead(sw *s, sim_time vt)
{
	if (vt != s->ahead_vt) {
		s->ahead_vt = vt;
		s->ahead_sub = 0;
	}
	CXL_ASSERT(s->ahead_sub < (1u << ORD_SUB_BITS));
	return vt << (ORD_SUB_BITS + 2) | (uint64_t)PH_AHEAD << ORD_SUB_BITS | s->ahead_sub++;
}

/* grant - one credit of VC @vc back over @port after @delay, numbered @seq when ahead. */
static void grant(sim_comp *c, sw *s, uint16_t port, uint8_t vc, sim_time delay, uint64_t seq)
{
	uint16_t n = cxl_fc_owe(c, &s->fc, port, vc); /* 1, a full batch, or 0: held */

	if (!n)
		return;
	if (!s->ahead) {
		cxl_grant_lazy(c, port, vc, n);
		return;
	}
	sim_send_port_lazy_seq(c, port, delay, CXL_EV_CREDIT, vc, n, seq);
}

/* fc_send - cxl_fc_send_fn of the switch: a packed return of held credits out of @port now. */
static void fc_send(sim_comp *c, void *state, uint16_t port, cxl_event *ev)
{
	sw *s = state;

	if (s->ahead)
		sim_send_port_seq(c, ev, port, 0, order_now(c, s));
	else
		sim_send_port(c, ev, port, 0);
}

/* send_pkt - packet @ev out of @port after @delay (accounted), numbered @seq when ahead. */
static void send_pkt(sim_comp *c, sw *s, cxl_event *ev, uint16_t port, sim_time delay,
		     enum cxl_lat cat, uint64_t seq)
{
	cxl_fc_piggy(&s->fc, port, ev); /* credits held for @port ride along (cxl_fc.h) */
	if (!s->ahead) {
		cxl_pkt_send_port(c, ev, port, delay, cat);
		return;
	}
	cxl_lat_check(&ev->pkt, sim_now(c), delay);
	cxl_lat_add(&ev->pkt, cat, c->ports[port].latency);
	sim_send_port_seq(c, ev, port, delay, seq);
}

/* ahead_init - whether switch @s forwards in the arrival event, and its state for it. */
static void ahead_init(const sim_comp *c, sw *s)
{
	s->stop = sim_stop_time(c);
	s->ahead = s->slices == 1 && !s->esf && !s->adaptive && !s->ts_wait && s->latency > 0 &&
		   s->stop < ((sim_time)1 << 40) && (uint64_t)s->nq * s->buf <= (1u << 20);
	if (!s->ahead)
		return;
	s->pipe_in = xcalloc(s->nq, sizeof(*s->pipe_in));
	s->ends = xmalloc((size_t)s->nq * s->buf * sizeof(*s->ends));
	s->ord_vt = s->ahead_vt = SIM_TIME_MAX;
}

static int sw_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	sw *s = state;
	const fab_view *v = fab_view_of(c);
	fab_view_switch me;

	CXL_ASSERT(v);
	fab_view_switch_of(v, c->id, &me);
	s->route = me.route;
	s->swi = me.index;
	s->nports = c->nports;
	s->slices = me.slices;
	s->slice = me.slice;
	s->gports = me.ports;
	s->next_ext = fab_slice_ext(s->gports, s->slices, s->slice);
	CXL_ASSERT(c->nports == s->next_ext + s->slices - 1);
	s->nq = c->nports * CXL_NVC;
	s->buf = (uint32_t)cfg_int(cf, "switch.buffer");
	s->latency = cfg_time(cf, "switch.latency");
	s->adaptive = cfg_enum(cf, "switch.routing") == 1;
	s->esf = cfg_bool(cf, "switch.esf_port_busy");
	if (s->esf && s->slices > 1)
		return cxl_err_set(err, CXL_EINVAL, "%s: switch.esf_port_busy needs switch.slices = 1 "
				   "(%u slices)", c->name, s->slices);
	alloc_state(s);
	register_stats(c, s);
	if (s->esf)
		esf_init(c, s);
	register_series(c, s);
	ahead_init(c, s);
	cxl_fc_init(&s->fc, c->nports, SW_EV_FC_TIMER);
	if (!s->ahead) {
		cxl_fc_grant_all_ports(c, (uint16_t)s->buf);
		return 0;
	}
	s->phase = PH_LOWER;
	for (uint32_t p = 0; p < c->nports; p++) {
		cxl_event *ev = sim_event_new(c);
		ev->kind = CXL_EV_CREDIT;
		ev->pkt.mclass = CXL_VC_ALL;
		ev->pkt.aux = (uint16_t)s->buf;
		ev->pkt.flags = CXL_FC_PIGGY;
		sim_send_port_seq(c, ev, (uint16_t)p, 0, order_now(c, s));
	}
	return 0;
}

/*
 * want - output @port may forward now (a credit came, or a FIFO's head now
 * routes there): put it on the todo stack for serve_wanted.  An output
 * with no FIFO in its list has nothing to serve, so it is not put there: a
 * credit reaching an idle output (most, with forwarding ahead) costs a
 * test instead of a push, a pop and an empty serve.  A FIFO joining the
 * list later in the event calls want itself (list_append).
 */
static void want(sw *s, uint32_t port)
{
	if (!s->pt[port].queued && s->pt[port].llen) {
		s->pt[port].queued = 1;
		s->todo[s->ntodo++] = (uint16_t)port;
	}
}

/* Output of the packet at the head of FIFO @q. */
static uint32_t head_out(const sw *s, uint32_t q)
{
	return s->out[(size_t)q * s->buf + s->in[q].head];
}

/* Append FIFO @q to output @o's list (its head now routes to @o). */
static void list_append(sw *s, uint32_t o, uint32_t q)
{
	s->next[q] = NONE;
	if (s->pt[o].lhead == NONE)
		s->pt[o].lhead = q;
	else
		s->next[s->pt[o].ltail] = q;
	s->pt[o].ltail = q;
	s->pt[o].llen++;
	want(s, o);
}

/*
 * list_join - FIFO @q's head now routes to output @o: append it; an output
 * whose list was empty is busy from now on, so credits for it may no longer
 * wait (sw_lazy_ok): the waiting ones are queued.
 */
static void list_join(sim_comp *c, sw *s, uint32_t o, uint32_t q)
{
	list_append(s, o, q);
	if (s->pt[o].llen == 1)
		sim_lazy_queue_port(c, (uint16_t)o);
}

static uint32_t list_pop(sw *s, uint32_t o)
{
	uint32_t q = s->pt[o].lhead;

	s->pt[o].lhead = s->next[q];
	s->pt[o].llen--;
	return q;
}

/* The packet at the head of FIFO @q leaves through output @o. */
static void forward(sim_comp *c, sw *s, uint32_t q, uint32_t o)
{
	cxl_event *ev = evring_pop(&s->in[q]);
	uint8_t vc = (uint8_t)(q % CXL_NVC);

	s->pt[o].cr.n[vc]--;
	s->pt[o].load--;
	s->held--;
	(*s->pkts)++;
	(*s->pt[o].pkts)++;
	*s->queue_ps += sim_now(c) - ev->time;
	*s->port_queue[o] += sim_now(c) - ev->time;
	if (s->ts_wait) {
		series_level(s->ts_wait[o], sim_now(c), s->pt[o].load);
		series_add(s->ts_pkts[o], sim_now(c), 1);
	}
	grant(c, s, (uint16_t)(q / CXL_NVC), vc, 0, s->ahead ? order_now(c, s) : 0);
	cxl_lat_until(&ev->pkt, CXL_LAT_QUEUE, sim_now(c));
	/* a slice's internal link is its pipeline (switch.latency) */
	send_pkt(c, s, ev, (uint16_t)o, s->esf ? esf_delay(c, s, ev, o) : 0,
		 o >= s->next_ext ? CXL_LAT_SWITCH : CXL_LAT_LINK, s->ahead ? order_now(c, s) : 0);
	if (s->in[q].n)
		list_join(c, s, head_out(s, q), q);
}

/* Output @o serves its list round-robin while some FIFO's VC has a credit. */
static void serve(sim_comp *c, sw *s, uint32_t o)
{
	uint32_t misses = 0;

	while (s->pt[o].llen && misses < s->pt[o].llen) {
		uint32_t q = list_pop(s, o);
		if (cxl_credit_has(c, &s->pt[o].cr, (uint16_t)o, q % CXL_NVC)) {
			forward(c, s, q, o);
			misses = 0;
		} else {
			list_append(s, o, q);
			misses++;
		}
	}
	s->pt[o].queued = 0;
}

static void serve_wanted(sim_comp *c, sw *s)
{
	while (s->ntodo) {
		uint16_t o = s->todo[--s->ntodo];
		serve(c, s, o);
	}
}

/* The local port of switch port @gp: its own, or the internal link to its slice. */
static uint32_t local_port(const sw *s, uint32_t gp)
{
	uint32_t k = gp % s->slices;

	return k == s->slice ? gp / s->slices : fab_slice_int(s->gports, s->slices, s->slice, k);
}

typedef struct load_view load_view;
struct load_view {
	const sw *s;    /* the slice */
	int local_only; /* 1: ports of other slices are not eligible */
};

/* Adaptive routing's load of switch port @gp as a slice sees it. */
static uint32_t slice_load(const void *ctx, uint32_t gp)
{
	const load_view *v = ctx;

	if (v->local_only && gp % v->s->slices != v->s->slice)
		return UINT32_MAX;
	return v->s->pt[local_port(v->s, gp)].load;
}

/* no_route - the packet in @ev has no route here (a broken table): panic. */
static void no_route(const sim_comp *c, const cxl_event *ev)
{
	CXL_PANIC("%s: no route to PBR id %u", c->name, ev->pkt.pbr_dst);
}

/*
 * route_general - route() for adaptive routing or slices (out of line:
 * its load view and checks cost the common case a frame of its own).
 */
static __attribute__((noinline)) uint32_t route_general(sim_comp *c, const sw *s,
							const cxl_event *ev, int local_only)
{
	const fab_route *r = s->route;
	const cxl_packet *p = &ev->pkt;
	load_view v = { s, local_only };
	int o = s->adaptive ?
		fab_route_adaptive_by(r, s->swi, p->pbr_src, p->pbr_dst, slice_load, &v) :
		fab_route_oblivious(r, s->swi, p->pbr_src, p->pbr_dst);

	if (o < 0)
		no_route(c, ev);
	if (s->slices == 1)
		return (uint32_t)o;
	if (local_only && (uint32_t)o % s->slices != s->slice)
		CXL_PANIC("%s: packet for PBR id %u reached the wrong slice", c->name, p->pbr_dst);
	return local_port(s, (uint32_t)o);
}

/*
 * The output (local port) of the packet in @ev.  A whole switch chooses
 * among all minimal ports.  A slice sees other slices' ports as its internal
 * link to them (their load: what waits for that link); with @local_only (a
 * packet that came over an internal link, or one already bound here) it
 * chooses among its own ports only.  Mechanism: a whole switch routing
 * obliviously (every switch that forwards ahead, once per packet) asks the
 * table directly; the rest goes through route_general.
 */
static inline uint32_t route(sim_comp *c, const sw *s, const cxl_event *ev, int local_only)
{
	if (s->adaptive || s->slices != 1)
		return route_general(c, s, ev, local_only);
	int o = fab_route_oblivious(s->route, s->swi, ev->pkt.pbr_src, ev->pkt.pbr_dst);
	if (o < 0)
		no_route(c, ev);
	return (uint32_t)o;
}

/* Queue the packet in @ev at its input FIFO, bound for output @o. */
static void enqueue(sim_comp *c, sw *s, cxl_event *ev, uint32_t o)
{
	uint32_t q = (uint32_t)ev->dst_port * CXL_NVC + ev->pkt.mclass;
	evring *in = &s->in[q];

	s->out[(size_t)q * s->buf + (in->head + in->n) % in->cap] = (uint16_t)o;
	sim_event_keep(c, ev);
	evring_push(in, ev);
	if (++s->pt[o].load > *s->pt[o].maxw)
		*s->pt[o].maxw = s->pt[o].load;
	if (s->ts_wait)
		series_level(s->ts_wait[o], sim_now(c), s->pt[o].load);
	if (in->n == 1)
		list_join(c, s, o, q);
}

/*
 * retire_ahead - the packets forwarded ahead whose ready event would have
 * run before the one being handled (an arrival) leave `held`.
 */
static void retire_ahead(const sim_comp *c, sw *s)
{
	sim_time now = sim_now(c);

	while (s->en) {
		sim_time t = s->ends[s->ehead];
		if (t > now || (t == now && s->phase != PH_HIGHER))
			break;
		s->ehead = (s->ehead + 1) % (s->nq * s->buf);
		s->en--;
		s->held--;
	}
}

/*
 * try_ahead - forward the packet in @ev now if it would leave the moment
 * it is ready (see the file comment); returns 1 if it did.  Otherwise it
 * counts in the pipeline (pipe_out, pipe_in) and the caller sends it
 * through.
 */
static int try_ahead(sim_comp *c, sw *s, cxl_event *ev)
{
	sim_time now = sim_now(c), ready = now + s->latency;
	uint32_t o = route(c, s, ev, 1);
	uint8_t vc = ev->pkt.mclass;
	uint32_t q = (uint32_t)ev->dst_port * CXL_NVC + vc;

	if (ready >= s->stop || s->pt[o].load || s->pt[o].pipe_out || s->pipe_in[q] || s->in[q].n ||
	    !cxl_credit_has(c, &s->pt[o].cr, (uint16_t)o, vc) ||
	    (s->plain_any && s->plain_at == now)) {
		s->pt[o].pipe_out++;
		s->pipe_in[q]++;
		s->plain_any = 1;
		s->plain_at = now;
		return 0;
	}
	s->pt[o].cr.n[vc]--;
	(*s->pkts)++;
	(*s->pt[o].pkts)++;
	if (!*s->pt[o].maxw)
		*s->pt[o].maxw = 1;
	CXL_ASSERT(s->en < s->nq * s->buf); /* each holds an input credit until ready */
	s->ends[(s->ehead + s->en++) % (s->nq * s->buf)] = ready;
	grant(c, s, ev->dst_port, vc, s->latency, order_ahead(s, ready));
	cxl_lat_until(&ev->pkt, CXL_LAT_QUEUE, now);
	cxl_lat_add(&ev->pkt, CXL_LAT_SWITCH, s->latency);
	send_pkt(c, s, ev, (uint16_t)o, s->latency, CXL_LAT_LINK, order_ahead(s, ready));
	return 1;
}

/*
 * A packet arrives on port @ev->dst_port.  A whole switch routes it once it
 * leaves the pipeline (switch.latency).  A slice routes it at once: bound
 * for one of its own ports it takes the pipeline; bound for another slice
 * it queues for the internal link now, and the link's latency
 * (switch.latency) is its pipeline; arriving over an internal link it is
 * ready.  The idle latency through a switch is the same either way.
 */
static void arrive(sim_comp *c, sw *s, cxl_event *ev)
{
	CXL_ASSERT(ev->pkt.mclass < CXL_NVC);
	if (cxl_fc_take(&s->pt[ev->dst_port].cr, ev)) /* credits the packet carries */
		want(s, ev->dst_port);
	if (s->ahead)
		retire_ahead(c, s);
	if (++s->held > *s->max_occ)
		*s->max_occ = s->held;
	if (s->ahead && try_ahead(c, s, ev))
		return;
	if (s->esf) { /* no pipeline: the delay is taken at the output (esf_delay) */
		enqueue(c, s, ev, route(c, s, ev, 1));
		return;
	}
	if (s->slices > 1) {
		int internal = ev->dst_port >= s->next_ext;
		uint32_t o = route(c, s, ev, internal);
		if (internal || o >= s->next_ext) {
			enqueue(c, s, ev, o);
			return;
		}
	}
	ev->kind = SW_EV_READY;
	cxl_lat_until(&ev->pkt, CXL_LAT_QUEUE, sim_now(c));
	cxl_lat_add(&ev->pkt, CXL_LAT_SWITCH, s->latency);
	cxl_pkt_send_self(c, ev, s->latency);
}

/*
 * sw_lazy_ok - may the credit @l (lazy, core/sim_lazy.c) wait for the
 * switch's next event?  A credit for output p only puts p on the todo
 * stack if a FIFO waits for it (want), and serving an output with an
 * empty list sends nothing; the todo stack is empty between events.  So
 * with no FIFO waiting for p the credit changes only the counts (the
 * phase it sets is set again by the next event), until a FIFO joins p's
 * list (list_join queues the waiting credits then).
 */
static int sw_lazy_ok(const sim_comp *c, const void *state, const sim_lazy *l)
{
	const sw *s = state;

	(void)c;
	return l->kind == CXL_EV_CREDIT && l->mclass < CXL_NVC && !s->pt[l->port].llen;
}

static void sw_event(sim_comp *c, void *state, cxl_event *ev)
{
	sw *s = state;

	s->phase = ev->src < c->id ? PH_LOWER : ev->src == c->id ? PH_SELF : PH_HIGHER;
	switch (ev->kind) {
	case CXL_EV_PKT:
		arrive(c, s, ev);
		break;
	case SW_EV_READY: {
		uint32_t o = route(c, s, ev, 1);
		ev->kind = CXL_EV_PKT;
		if (s->ahead) {
			s->pt[o].pipe_out--;
			s->pipe_in[(uint32_t)ev->dst_port * CXL_NVC + ev->pkt.mclass]--;
		}
		enqueue(c, s, ev, o);
		break;
	}
	case CXL_EV_CREDIT:
		cxl_fc_on_grant(&s->fc, ev, s->buf);
		cxl_credit_apply(&s->pt[ev->dst_port].cr, ev);
		want(s, ev->dst_port);
		break;
	case SW_EV_FC_TIMER:
		cxl_fc_timer(c, &s->fc, ev, fc_send, s);
		break;
	default:
		CXL_PANIC("%s: unexpected event kind %u", c->name, ev->kind);
	}
	serve_wanted(c, s);
}

/*
 * sw_lazy_absorb - a credit sw_lazy_ok let wait: only its count changes
 * (want, serve: nothing; @dir -1: taken back).
 */
static void sw_lazy_absorb(sim_comp *c, void *state, const sim_lazy *l, int dir)
{
	sw *s = state;

	(void)c;
	cxl_credit_absorb(&s->pt[l->port].cr, l, dir);
}

static void sw_finish(sim_comp *c, void *state)
{
	sw *s = state;

	*s->held_end = s->held - s->en; /* every ready time forwarded ahead is before the stop */
	for (uint32_t q = 0; q < s->nq; q++)
		evring_free_all(c, &s->in[q]);
	for (uint32_t p = 0; p < s->nports; p++)
		*s->credits_end += cxl_credits_total(&s->pt[p].cr);
	free(s->pt);
	free(s->in);
	free(s->slots);
	free(s->out);
	free(s->next);
	free(s->port_queue);
	free(s->ts_wait);
	free(s->ts_pkts);
	free(s->todo);
	free(s->pipe_in);
	free(s->ends);
	free(s->port_free);
	free(s->port_esf_wait);
	free(s->port_esf_busy);
	cxl_fc_destroy(&s->fc);
}

const model_ops cxl_switch_ops = {
	.name = "switch",
	.cfg_groups = "switch",
	.state_size = sizeof(sw),
	.init = sw_init,
	.event = sw_event,
	.finish = sw_finish,
	.ckpt = sw__ckpt,
	.lazy_ok = sw_lazy_ok,
	.lazy_absorb = sw_lazy_absorb,
};
