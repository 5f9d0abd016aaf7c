/*
 * models/device/dev_pio.c - the device's BAR (dev.h): reads and posted
 * writes at PCIe semantics, the two doorbells, and the PIO RPC.
 *
 * A BAR read (a host's uncacheable load: pkt.aux = the bytes it asks for)
 * is answered with that many bytes device.latency after it arrives, except
 * a read of a reply area that is not ready: the reply of RPC n (n counted
 * from 1 per slot) sits in the area of n's parity and is ready once n is
 * computed and no newer request came; until then the read is held (the
 * seed's device "delays the response"), and answered device.latency after
 * the computation ends.  A write is posted: nothing answers it, its credit
 * goes back at once.  A write to a doorbell acts device.latency later: the
 * PIO doorbell starts computing the slot's request (dev__compute() of
 * pkt.aux bytes), the DMA doorbell hands the slot to the DMA engine.
 */
#include "models/device/dev_int.h"

/* Parity of the reply area at slot offset @so, or -1 if @so is not in one. */
static int reply_parity(uint64_t so)
{
	if (so < DEV_BAR_REPLY(0) || so >= DEV_BAR_REPLY(1) + DEV_AREA_BYTES)
		return -1;
	return so >= DEV_BAR_REPLY(1);
}

/* Is the reply of parity @par ready in slot @sl? */
static int reply_ready(const dev_slot *sl, int par)
{
	return sl->done_seq && sl->done_seq == sl->rx_seq && (sl->done_seq & 1) == par;
}

void dev__bar_read(sim_comp *c, dev *d, cxl_event *ev)
{
	uint64_t off = cxl_dev_offset(ev->pkt.addr);
	dev_slot *sl = dev__slot(c, d, off, ev->pkt.pbr_src);
	int par = reply_parity(off % DEV_SLOT_BYTES);

	(*d->bar_reads)++;
	*d->bar_read_bytes += ev->pkt.aux ? ev->pkt.aux : CXL_LINE;
	if (par >= 0 && !reply_ready(sl, par)) {
		if (sl->held)
			CXL_PANIC("%s: two reads held in one RPC slot (a process reads one TLP at a time)",
				  c->name);
		(*d->held_reads)++;
		cxl_lat_until(&ev->pkt, CXL_LAT_MEMORY, sim_now(c));
		sim_event_keep(c, ev);
		sl->held = ev;
		return;
	}
	dev__later(c, ev, DEV_EV_BAR, CXL_LAT_MEMORY, d->latency);
}

void dev__bar_write(sim_comp *c, dev *d, cxl_event *ev)
{
	const cxl_packet *p = &ev->pkt;
	uint64_t off = cxl_dev_offset(p->addr), so = off % DEV_SLOT_BYTES;
	dev_slot *sl = dev__slot(c, d, off, p->pbr_src);

	cxl_grant(c, 0, CXL_VC_M2S_RWD, 1); /* posted: consumed on arrival */
	(*d->bar_writes)++;
	*d->bar_write_bytes += p->size;
	if (so != DEV_BAR_BELL_PIO && so != DEV_BAR_BELL_DMA && so != DEV_BAR_BELL_DMA_IRQ)
		return;
	cxl_event *t = sim_event_new(c);
	t->kind = DEV_EV_BELL;
	t->pkt.tag = (uint32_t)(sl - d->slot);
	t->pkt.aux = p->aux;
	t->pkt.opcode = so == DEV_BAR_BELL_PIO ? DEV_BELL_PIO :
			so == DEV_BAR_BELL_DMA ? DEV_BELL_DMA : DEV_BELL_DMA_IRQ;
	sim_send_self(c, t, d->latency);
}

void dev__bell(sim_comp *c, dev *d, cxl_event *ev)
{
	dev_slot *sl = &d->slot[ev->pkt.tag];

	if (ev->pkt.opcode != DEV_BELL_PIO) {
		dev__dma_start(c, d, ev->pkt.tag, ev->pkt.aux, ev->pkt.opcode == DEV_BELL_DMA_IRQ);
		return;
	}
	sl->rx_seq++;
	cxl_event *t = sim_event_new(c);
	t->kind = DEV_EV_DONE;
	t->pkt.tag = ev->pkt.tag;
	t->pkt.aux = sl->rx_seq;
	sim_send_self(c, t, dev__compute(d, ev->pkt.aux));
}

/* dev__pio_done - request number pkt.aux of slot pkt.tag is computed: release a held read. */
void dev__pio_done(sim_comp *c, dev *d, const cxl_event *ev)
{
	dev_slot *sl = &d->slot[ev->pkt.tag];

	sl->done_seq = ev->pkt.aux;
	(*d->pio_rpcs)++;
	if (!sl->held)
		return;
	int par = reply_parity(cxl_dev_offset(sl->held->pkt.addr) % DEV_SLOT_BYTES);
	if (!reply_ready(sl, par))
		return;
	cxl_event *h = sl->held;
	sl->held = NULL;
	dev__later(c, h, DEV_EV_BAR, CXL_LAT_MEMORY, d->latency);
}
