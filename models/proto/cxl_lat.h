/*
 * models/proto/cxl_lat.h - where a packet's time goes: every picosecond
 * from the start of its transaction (pkt.issue) to now is attributed to one
 * category, in the packet itself (pkt.lat[], ps per category).
 *
 *   REQUESTER  the requester's latency (host.latency), a cache hit's
 *   LINK       the links between components and the buses' propagation
 *              (link.latency, bus.latency)
 *   SER        serialisation on a bus: header + payload, half-duplex
 *              turnaround, and with the data-link layer on, retransmissions
 *   SWITCH     a switch's pipeline (switch.latency, or a slice's internal link)
 *   QUEUE      waiting in a bus, switch or device buffer for a transmitter,
 *              an output, or the next component's credits
 *   MEMORY     inside a memory device: controller latency, DRAM queue and
 *              access (memory.latency, the DRAM model)
 *   COH        held by a device's DCOH while back-invalidation snoops of the
 *              line are answered (BISnp/BIRsp round trips)
 *
 * A packet starts its accounting when it is made: pkt.issue = now and
 * every lat[] zero (a zero-initialised packet with .issue set).
 *
 * The accounting is exact by construction: the time accounted so far is
 * mark = issue + lat_sum (lat_sum = sum(lat), kept as it grows), and every send of a packet checks that the
 * model accounted up to the moment the packet arrives (mark == now + delay,
 * then the link's latency is added for a send over a port).  A model
 * therefore, before it sends a packet on, attributes the gap since it got
 * it (cxl_lat_until: up to now, to one category) and its delay
 * (cxl_lat_add), then sends with cxl_pkt_send_port / cxl_pkt_send_self.
 * When the response reaches the requester, sum(lat) == now - issue, which
 * the requester asserts for every request.
 *
 * A packet accounts at most 2^32 - 1 ps (4.29 ms) in all; one that would
 * exceed it is marked CXL_PKT_LATOVF and accounted no further (the
 * requester counts it in breakdown_overflow instead).
 */
#ifndef CXL_MODELS_PROTO_CXL_LAT_H
#define CXL_MODELS_PROTO_CXL_LAT_H

#include <stdint.h>

#include "core/sim.h"

enum cxl_lat {
	CXL_LAT_REQUESTER, CXL_LAT_LINK, CXL_LAT_SER, CXL_LAT_SWITCH, CXL_LAT_QUEUE,
	CXL_LAT_MEMORY, CXL_LAT_COH, CXL_LAT_N,
};
_Static_assert(CXL_LAT_N == CXL_PKT_LAT, "the packet holds every category");

#define CXL_PKT_LATOVF 0x40u /* pkt.flags: a category overflowed; no accounting */

/* cxl_lat_name - category @cat's name, as in stats.json and components.csv. */
static inline const char *cxl_lat_name(enum cxl_lat cat)
{
	switch (cat) {
	case CXL_LAT_REQUESTER: return "requester";
	case CXL_LAT_LINK: return "link";
	case CXL_LAT_SER: return "serialisation";
	case CXL_LAT_SWITCH: return "switch";
	case CXL_LAT_QUEUE: return "queueing";
	case CXL_LAT_MEMORY: return "memory";
	case CXL_LAT_COH: return "coherence";
	case CXL_LAT_N: break;
	}
	return "?";
}

/* cxl_lat_mark - the time up to which @p's latency is accounted, ps. */
static inline sim_time cxl_lat_mark(const cxl_packet *p)
{
	return p->issue + p->lat_sum;
}

/* cxl_lat_add - @ps more in category @cat. */
static inline void cxl_lat_add(cxl_packet *p, enum cxl_lat cat, sim_time ps)
{
	if (p->flags & CXL_PKT_LATOVF)
		return;
	if (ps > UINT32_MAX - p->lat_sum) { /* lat[cat] <= lat_sum: no category overflows */
		p->flags |= CXL_PKT_LATOVF;
		return;
	}
	p->lat[cat] += (uint32_t)ps;
	p->lat_sum += (uint32_t)ps;
}

/* cxl_lat_until - everything from the mark up to @t goes to category @cat. */
static inline void cxl_lat_until(cxl_packet *p, enum cxl_lat cat, sim_time t)
{
	if (p->flags & CXL_PKT_LATOVF)
		return;
	sim_time m = cxl_lat_mark(p);
	CXL_ASSERT(t >= m);
	cxl_lat_add(p, cat, t - m);
}

/* The model accounted @p up to now + @delay (unless it overflowed). */
static inline void cxl_lat_check(const cxl_packet *p, sim_time now, sim_time delay)
{
	CXL_ASSERT((p->flags & CXL_PKT_LATOVF) || cxl_lat_mark(p) == now + delay);
}

/**
 * cxl_pkt_send_port - send packet @ev over @port after @delay (already
 * accounted by the caller up to now + @delay); the link's latency goes to
 * @link_cat (CXL_LAT_LINK; CXL_LAT_SWITCH for a sliced switch's internal
 * link, which is its pipeline).
 */
static inline void cxl_pkt_send_port(sim_comp *c, cxl_event *ev, uint16_t port, sim_time delay,
				     enum cxl_lat link_cat)
{
	cxl_lat_check(&ev->pkt, sim_now(c), delay);
	cxl_lat_add(&ev->pkt, link_cat, c->ports[port].latency);
	sim_send_port(c, ev, port, delay);
}

/* cxl_pkt_send_self - the same for a packet a model sends to itself (no link). */
static inline void cxl_pkt_send_self(sim_comp *c, cxl_event *ev, sim_time delay)
{
	cxl_lat_check(&ev->pkt, sim_now(c), delay);
	sim_send_self(c, ev, delay);
}

#endif
