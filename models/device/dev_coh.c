/*
 * models/device/dev_coh.c - lines the device homes (the second half of its
 * window, devwin.h) and the coherent RPC of seed 004 (CXL.cache / HDM-DB
 * style: the device keeps the directory of its lines and snoops hosts with
 * BISnp, which they answer with BIRsp carrying dirty data).
 *
 * Directory: per homed line, whether the slot's host holds it (Shared or
 * Exclusive; Exclusive also covers a line it has since dirtied silently).
 * Every request a host sends for a homed line first costs
 * device.coherent.directory, then:
 *   - a write-back (MemWr): the host gives the line up; answered by an NDR;
 *   - a fetch for ownership (MemRd, CXL_PKT_EXCL: a store missed): granted
 *     Exclusive at once;
 *   - a load (MemRd): line L of one area of the slot pairs with the line at
 *     the same place in the other area, its request line R.  If the host
 *     holds R, the device holds the load, takes R back (BISnp of one line;
 *     the BIRsp brings the request's data), computes, and then answers L;
 *     else it computes and answers.  The answer grants L Exclusive (the
 *     DRS carries CXL_PKT_EXCL: the host may write it without asking) or
 *     Shared, as device.coherent.grant says.
 * So the RPC "store the request into R, load the reply from L" costs two
 * coherent round trips (load, snoop) plus the directory and the computing;
 * with Shared grants the next RPC, whose request goes into this RPC's reply
 * line, first asks for ownership: one round trip more.
 */
#include "models/device/dev_int.h"

enum { DIR_SHARED = 1, DIR_EXCL = 2 };

/* The homed line paired with homed line @line: the same place in the slot's other area. */
static uint64_t partner(uint64_t line)
{
	const uint64_t area = DEV_AREA_BYTES / CXL_LINE, slot = DEV_SLOT_BYTES / CXL_LINE;
	uint64_t in_slot = line % slot;

	CXL_ASSERT(in_slot < 2 * area);
	return in_slot < area ? line + area : line - area;
}

void dev__coh_request(sim_comp *c, dev *d, cxl_event *ev)
{
	dev__slot(c, d, cxl_dev_offset(ev->pkt.addr), ev->pkt.pbr_src);
	if (ev->pkt.addr % DEV_SLOT_BYTES >= 2 * DEV_AREA_BYTES &&
	    cxl_dev_offset(ev->pkt.addr) >= CXL_DEV_HOMED)
		CXL_PANIC("%s: homed address 0x%llx is outside a slot's two areas", c->name,
			  (unsigned long long)ev->pkt.addr);
	dev__later(c, ev, DEV_EV_DIR, CXL_LAT_COH, d->directory);
}

/* dev__coh_process - the directory has processed request @ev: act on it. */
void dev__coh_process(sim_comp *c, dev *d, cxl_event *ev)
{
	cxl_packet *p = &ev->pkt;
	uint64_t line = p->addr / CXL_LINE;
	uint16_t st = 0;

	if (p->mclass == CXL_VC_M2S_RWD) {
		flagmap_del(&d->dir, line);
		(*d->coh_writebacks)++;
		dev__answer(c, d, ev, 0, 0);
		return;
	}
	(*d->coh_reads)++;
	if (p->flags & CXL_PKT_EXCL) {
		flagmap_set(&d->dir, line, DIR_EXCL);
		(*d->coh_grants)++;
		dev__answer(c, d, ev, CXL_LINE, CXL_PKT_CACHED | CXL_PKT_EXCL);
		return;
	}
	dev_slot *sl = dev__slot(c, d, cxl_dev_offset(p->addr), p->pbr_src);
	uint64_t req = partner(line);
	if (!flagmap_get(&d->dir, req, &st)) {
		dev__later(c, ev, DEV_EV_COH_DONE, CXL_LAT_MEMORY, dev__compute(d, CXL_LINE));
		return;
	}
	if (sl->coh_held)
		CXL_PANIC("%s: two coherent loads held in one RPC slot", c->name);
	sim_event_keep(c, ev);
	sl->coh_held = ev;
	(*d->coh_snoops)++;
	cxl_event *s = sim_event_new(c);
	s->pkt = (cxl_packet){
		.addr = req * CXL_LINE, .issue = sim_now(c), .tag = 1, .pbr_src = d->pbr,
		.pbr_dst = p->pbr_src, .mclass = CXL_VC_S2M_BISNP, .opcode = CXL_OP_BISNPINV,
	};
	dev__send(c, d, s);
}

/* dev__coh_birsp - a host answered a snoop: the request line is back; compute the reply. */
void dev__coh_birsp(sim_comp *c, dev *d, cxl_event *ev)
{
	uint64_t line = ev->pkt.addr / CXL_LINE;
	dev_slot *sl = dev__slot(c, d, cxl_dev_offset(ev->pkt.addr), ev->pkt.pbr_src);
	cxl_event *h = sl->coh_held;

	cxl_grant(c, 0, CXL_VC_M2S_BIRSP, 1);
	(*d->coh_birsp)++;
	flagmap_del(&d->dir, line);
	if (!h || partner(h->pkt.addr / CXL_LINE) != line)
		CXL_PANIC("%s: a snoop answer for line 0x%llx that no held load waits for", c->name,
			  (unsigned long long)ev->pkt.addr);
	sl->coh_held = NULL;
	cxl_lat_until(&h->pkt, CXL_LAT_COH, sim_now(c));
	dev__later(c, h, DEV_EV_COH_DONE, CXL_LAT_MEMORY, dev__compute(d, CXL_LINE));
}

/* dev__coh_computed - the reply line of load @ev is computed: grant it. */
void dev__coh_computed(sim_comp *c, dev *d, cxl_event *ev)
{
	flagmap_set(&d->dir, ev->pkt.addr / CXL_LINE, d->grant_excl ? DIR_EXCL : DIR_SHARED);
	(*d->coh_rpcs)++;
	dev__answer(c, d, ev, CXL_LINE,
		    (uint8_t)(CXL_PKT_CACHED | (d->grant_excl ? CXL_PKT_EXCL : 0)));
}
