/*
 * models/device/dev.c - the device component (contract in dev.h): its keys,
 * credits and response rings, the dispatch of arriving packets to the BAR
 * (dev_pio.c), the DMA engine (dev_dma.c) and the homed lines (dev_coh.c),
 * and the end-of-run conservation counters.
 *
 * Flow control (cxl_proto.h): the device grants device.buffer credits per
 * VC.  A BAR read or a coherent request holds its credit until its answer
 * leaves (a held read keeps it longer: that is what holding costs); posted
 * writes, snoop answers and the answers to the device's own DMA requests
 * give theirs back on arrival.  Answers and snoops wait in one ring per VC
 * for the bus's credits; each ring is bounded by the credits that can lead
 * to it, so pushing never overflows.
 *
 * Latency accounting (cxl_lat.h): time the device spends on a request (BAR
 * access, computing, waiting for a computation) counts as memory; directory
 * processing and waiting for a snoop's answer count as coherence.
 *
 * Statistics: bar_reads, bar_read_bytes, bar_writes, bar_write_bytes (posted),
 * held_reads (reads that waited for a reply), pio_rpcs, dma_rpcs, coh_replies;
 * dma_reads, dma_writes, dma_read_bytes, dma_write_bytes, dma_answers (NDRs
 * and DRSs the DMA engine got back: reads + writes at the end); coh_reads,
 * coh_grants (exclusive fetches), coh_snoops, coh_birsp, coh_writebacks;
 * dma_irqs (MSIs raised: the hosts' irqs add up to it at the end); and
 * for the checks responses_waiting, credits_held, held_at_end and dma_busy_at_end (0 at
 * the end of a run that drained).
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/xmalloc.h"
#include "models/device/dev_int.h"

static const cfg_key dev_keys[] = {
	{ "device.latency", CFG_TIME, "50ns", "0ps", NULL, NULL,
	  "a BAR access at the device (its SRAM): a read is answered this long after it "
	  "arrives or its reply is computed; a doorbell takes this long to act" },
	{ "device.clock_MHz", CFG_FLOAT, "250", "1", "100000", NULL,
	  "the device's clock: computing takes whole cycles of it" },
	{ "device.compute_cycles", CFG_INT, "0", "0", "1000000000", NULL,
	  "cycles to compute one RPC's reply (each coherent line is one RPC of 64 bytes)" },
	{ "device.line_cycles", CFG_INT, "0", "0", "1000000", NULL,
	  "cycles more per 64 bytes of the request" },
	{ "device.buffer", CFG_INT, "32", "1", "4096", NULL,
	  "input buffer per VC, packets: the credits the device grants" },
	{ "device.slots", CFG_INT, "64", "1", "65536", NULL,
	  "RPC slots (one per host process using the device; dev.h)" },
	{ "device.dma.read_request", CFG_SIZE, "512B", "64B", "4KiB", NULL,
	  "DMA: bytes per read request (PCIe max read request size), a multiple of 64" },
	{ "device.dma.outstanding", CFG_INT, "16", "1", "4096", NULL,
	  "DMA: read requests in flight (at most device.buffer)" },
	{ "device.coherent.directory", CFG_TIME, "0ps", "0ps", NULL, NULL,
	  "directory processing of each coherent request a host sends the device" },
	{ "device.coherent.grant", CFG_ENUM, "exclusive", NULL, NULL, "exclusive|shared",
	  "state in which a load of a homed line gets it: exclusive (the host may then "
	  "write it without asking) or shared (a later store asks for ownership)" },
};

const cfg_schema cxl_device_schema = { "device", dev_keys, sizeof(dev_keys) / sizeof(dev_keys[0]) };

/* --- shared with the other files ---------------------------------------- */

/* dev__compute - time to compute the reply of a request of @bytes, ps. */
sim_time dev__compute(const dev *d, uint32_t bytes)
{
	uint64_t lines = (bytes + CXL_LINE - 1) / CXL_LINE;

	return d->cycle * (d->compute_cycles + lines * d->line_cycles);
}

/* dev__later - @ev comes back to the device as event @kind after @delay, counted as @cat. */
void dev__later(sim_comp *c, cxl_event *ev, int kind, enum cxl_lat cat, sim_time delay)
{
	cxl_lat_until(&ev->pkt, cat, sim_now(c));
	cxl_lat_add(&ev->pkt, cat, delay);
	ev->kind = (uint8_t)kind;
	cxl_pkt_send_self(c, ev, delay);
}

/**
 * dev__slot - the slot of window offset @off (BAR or homed), used by the
 * host of PBR id @src.  A slot past device.slots, or one two hosts use, is
 * a panic naming it: the layout of dev.h was broken.
 */
dev_slot *dev__slot(sim_comp *c, dev *d, uint64_t off, uint16_t src)
{
	uint64_t s = (cxl_dev_homed(off) ? off - CXL_DEV_HOMED : off) / DEV_SLOT_BYTES;

	if (s >= d->nslots)
		CXL_PANIC("%s: an access to RPC slot %llu; the device has device.slots = %u",
			  c->name, (unsigned long long)s, d->nslots);
	dev_slot *sl = &d->slot[s];
	if (sl->owner == FAB_NO_PBR)
		sl->owner = src;
	else if (sl->owner != src)
		CXL_PANIC("%s: RPC slot %llu used by PBR ids %u and %u", c->name,
			  (unsigned long long)s, sl->owner, src);
	return sl;
}

/* Send the oldest waiting answers and snoops while the bus has credits. */
static void drain(sim_comp *c, dev *d)
{
	for (int vc = 0; vc < CXL_NVC; vc++) {
		evring *q = &d->out[vc];
		while (evring_peek(q) && d->cr.n[vc]) {
			cxl_event *ev = evring_pop(q);
			d->cr.n[vc]--;
			if (vc == CXL_VC_S2M_DRS)
				cxl_grant(c, 0, CXL_VC_M2S_REQ, 1);
			else if (vc == CXL_VC_S2M_NDR)
				cxl_grant(c, 0, CXL_VC_M2S_RWD, 1);
			cxl_lat_until(&ev->pkt, CXL_LAT_QUEUE, sim_now(c));
			cxl_pkt_send_port(c, ev, 0, 0, CXL_LAT_LINK);
		}
	}
}

/* dev__send - queue @ev (a packet, accounted up to now) for the bus and drain. */
void dev__send(sim_comp *c, dev *d, cxl_event *ev)
{
	ev->kind = CXL_EV_PKT;
	sim_event_hold(c, ev);
	evring_push(&d->out[ev->pkt.mclass], ev);
	drain(c, d);
}

/**
 * dev__answer - turn request @ev into its answer: a DRS of @bytes (a read)
 * or an NDR (a write), with pkt.flags @flags, back to its sender; queue it.
 */
void dev__answer(sim_comp *c, dev *d, cxl_event *ev, uint16_t bytes, uint8_t flags)
{
	cxl_packet *p = &ev->pkt;
	int read = p->mclass == CXL_VC_M2S_REQ;
	uint16_t src = p->pbr_src;

	p->pbr_src = p->pbr_dst;
	p->pbr_dst = src;
	p->mclass = read ? CXL_VC_S2M_DRS : CXL_VC_S2M_NDR;
	p->opcode = read ? CXL_OP_MEMDATA : CXL_OP_CMP;
	p->size = read ? bytes : 0;
	p->flags = (uint8_t)((p->flags & CXL_PKT_LATOVF) | flags);
	p->aux = 0;
	dev__send(c, d, ev);
}

/* --- the component -------------------------------------------------------- */

static void register_stats(sim_comp *c, dev *d)
{
	static const char *const names[] = {
		"bar_reads", "bar_read_bytes", "bar_writes", "bar_write_bytes", "held_reads",
		"pio_rpcs", "dma_rpcs", "coh_replies", "dma_reads", "dma_writes",
		"dma_read_bytes", "dma_write_bytes", "dma_answers", "coh_reads", "coh_grants",
		"coh_snoops", "coh_birsp", "coh_writebacks", "dma_irqs", "responses_waiting",
		"credits_held", "held_at_end", "dma_busy_at_end",
	};
	uint64_t **const ptrs[] = {
		&d->bar_reads, &d->bar_read_bytes, &d->bar_writes, &d->bar_write_bytes,
		&d->held_reads, &d->pio_rpcs, &d->dma_rpcs, &d->coh_rpcs, &d->dma_reads,
		&d->dma_writes, &d->dma_read_bytes, &d->dma_write_bytes, &d->dma_answers,
		&d->coh_reads, &d->coh_grants, &d->coh_snoops, &d->coh_birsp,
		&d->coh_writebacks, &d->dma_irqs, &d->waiting_end, &d->credits_end, &d->held_end,
		&d->dma_busy_end,
	};
	_Static_assert(sizeof(names) / sizeof(names[0]) == sizeof(ptrs) / sizeof(ptrs[0]),
		       "a name per counter");
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		*ptrs[k] = sim_stat_counter(c, names[k]);
}

static int dev_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	dev *d = state;
	int rc;

	d->fv = fab_view_of(c);
	CXL_ASSERT(d->fv && c->nports == 1);
	d->pbr = fab_view_pbr(d->fv, c->id);
	d->latency = cfg_time(cf, "device.latency");
	/* one cycle in ps, rounded to the nearest ps */
	d->cycle = (sim_time)(1e6 / cfg_float(cf, "device.clock_MHz") + 0.5);
	d->compute_cycles = (uint32_t)cfg_int(cf, "device.compute_cycles");
	d->line_cycles = (uint32_t)cfg_int(cf, "device.line_cycles");
	d->buffer = (uint32_t)cfg_int(cf, "device.buffer");
	d->nslots = (uint32_t)cfg_int(cf, "device.slots");
	d->directory = cfg_time(cf, "device.coherent.directory");
	d->grant_excl = cfg_enum(cf, "device.coherent.grant") == 0;
	d->slot = xcalloc(d->nslots, sizeof(*d->slot));
	for (uint32_t s = 0; s < d->nslots; s++)
		d->slot[s].owner = FAB_NO_PBR;
	d->out_slots = xmalloc((size_t)CXL_NVC * d->buffer * sizeof(*d->out_slots));
	for (int vc = 0; vc < CXL_NVC; vc++)
		evring_init(&d->out[vc], d->buffer, d->out_slots + (size_t)vc * d->buffer);
	register_stats(c, d);
	if ((rc = dev__dma_init(c, d, cf, err)))
		return rc;
	cxl_grant_all_ports(c, (uint16_t)d->buffer);
	return 0;
}

/* A packet arrived: a host's request (BAR, homed line, snoop answer) or an answer to DMA. */
static void on_packet(sim_comp *c, dev *d, cxl_event *ev)
{
	cxl_packet *p = &ev->pkt;

	CXL_ASSERT(p->pbr_dst == d->pbr);
	switch (p->mclass) {
	case CXL_VC_S2M_DRS:
	case CXL_VC_S2M_NDR:
		dev__dma_answer(c, d, ev);
		return;
	case CXL_VC_M2S_BIRSP:
		dev__coh_birsp(c, d, ev);
		return;
	case CXL_VC_M2S_REQ:
	case CXL_VC_M2S_RWD:
		break;
	default:
		CXL_PANIC("%s: a packet on VC %u", c->name, p->mclass);
	}
	if (!cxl_dev_is(p->addr))
		CXL_PANIC("%s: a request for address 0x%llx, outside the device window", c->name,
			  (unsigned long long)p->addr);
	if (cxl_dev_homed(cxl_dev_offset(p->addr)))
		dev__coh_request(c, d, ev);
	else if (p->mclass == CXL_VC_M2S_REQ)
		dev__bar_read(c, d, ev);
	else
		dev__bar_write(c, d, ev);
}

static void dev_event(sim_comp *c, void *state, cxl_event *ev)
{
	dev *d = state;

	switch (ev->kind) {
	case CXL_EV_PKT:
		on_packet(c, d, ev);
		break;
	case CXL_EV_CREDIT:
		cxl_credit_apply(&d->cr, ev);
		break;
	case DEV_EV_BAR:
		dev__answer(c, d, ev, ev->pkt.aux ? ev->pkt.aux : CXL_LINE, 0);
		break;
	case DEV_EV_BELL:
		dev__bell(c, d, ev);
		break;
	case DEV_EV_DONE:
		dev__pio_done(c, d, ev);
		break;
	case DEV_EV_DIR:
		dev__coh_process(c, d, ev);
		break;
	case DEV_EV_COH_DONE:
		dev__coh_computed(c, d, ev);
		break;
	case DEV_EV_DMA_DONE:
		dev__dma_computed(c, d, ev);
		break;
	default:
		CXL_PANIC("%s: unexpected event kind %u", c->name, ev->kind);
	}
	drain(c, d);
	dev__dma_issue(c, d);
}

static void dev_finish(sim_comp *c, void *state)
{
	dev *d = state;

	for (int vc = 0; vc < CXL_NVC; vc++)
		*d->waiting_end += evring_free_all(c, &d->out[vc]);
	*d->credits_end = cxl_credits_total(&d->cr);
	for (uint32_t s = 0; s < d->nslots; s++) {
		dev_slot *sl = &d->slot[s];
		if (sl->held) {
			sim_event_free(c, sl->held);
			(*d->held_end)++;
		}
		if (sl->coh_held) {
			sim_event_free(c, sl->coh_held);
			(*d->held_end)++;
		}
		*d->dma_busy_end += sl->dma != DMA_IDLE;
	}
	dev__dma_finish(d);
	flagmap_free(&d->dir);
	free(d->slot);
	free(d->out_slots);
	d->slot = NULL;
	d->out_slots = NULL;
}

const model_ops cxl_device_ops = {
	.name = "device",
	.cfg_groups = "device",
	.state_size = sizeof(dev),
	.init = dev_init,
	.event = dev_event,
	.finish = dev_finish,
	.ckpt = dev__ckpt,
};
