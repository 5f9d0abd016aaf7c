/*
 * models/device/dev_dma.c - the device's DMA engine (descriptor DMA, as
 * XDMA does it): on a DMA doorbell for a slot it
 *   1. fetches the slot's descriptor (one line of host memory at
 *      DEV_DMA_DESC; what it says - the request's size - came with the
 *      doorbell, the fetch pays the time),
 *   2. reads the request from the slot's request buffer in read requests
 *      of device.dma.read_request bytes (never across an interleave
 *      granule), at most device.dma.outstanding in flight over all slots,
 *   3. computes (dev__compute),
 *   4. writes the reply to the slot's reply buffer in writes of at most
 *      bus.max_payload bytes, then the completion record: a one-line write
 *      of the flag line DEV_DMA_DONE carrying the slot's count of completed
 *      requests (flagmap.h), which the host polls;
 *   5. if the doorbell asked for it (DEV_BAR_BELL_DMA_IRQ), raises an
 *      interrupt: an MSI to the slot's host, vector = the slot (a posted
 *      write, CXL_OP_MSI on M2S RwD like the engine's other writes, so it
 *      follows the completion record on the link).
 * Writes are posted in PCIe: the completion follows the reply's writes at
 * once (they travel in order), without waiting for their answers, which
 * the memory still sends and the engine counts (dma_answers).  Payloads
 * are whole lines: a request of 8 bytes reads and writes one line.
 *
 * Host memory is every memory device the device reaches, interleaved as the
 * hosts interleave it (workload.interleave), so a host and the device name
 * the same line by the same address.  Slots with requests to send wait in
 * a ring, served in order.
 */
#include <stdlib.h>

#include "core/xmalloc.h"
#include "models/device/dev_int.h"
#include "models/link/bus.h"

int dev__dma_init(sim_comp *c, dev *d, const cfg *cf, cxl_err *err)
{
	uint32_t peer = c->ports[0].peer;

	d->mrrs = (uint32_t)cfg_size(cf, "device.dma.read_request");
	if (d->mrrs % CXL_LINE)
		return cfg_error_at(cf, "device.dma.read_request", err,
				    "%u bytes is not a multiple of %d", d->mrrs, CXL_LINE);
	d->dma_max = (uint32_t)cfg_int(cf, "device.dma.outstanding");
	if (d->dma_max > d->buffer)
		return cfg_error_at(cf, "device.dma.outstanding", err,
				    "%u reads in flight need as many credits for their data; "
				    "device.buffer is %u", d->dma_max, d->buffer);
	d->ilv = cfg_size(cf, "workload.interleave");
	d->dma_base = cfg_size(cf, "workload.rpc.dma_base");
	d->mps = fab_view_roles(d->fv, peer) & FAB_ROLE_BUS ? bus_max_payload(sim_cfg_of(c, peer))
							      : 4096;
	d->mem = xmalloc((fab_view_ntargets(d->fv) + 1) * sizeof(*d->mem));
	d->nmem = fab_view_targets(d->fv, c->id, d->mem);
	d->active = xmalloc(d->nslots * sizeof(*d->active));
	for (uint32_t s = 0; s < d->nslots; s++)
		d->slot[s].host_base = d->dma_base + (uint64_t)s * DEV_SLOT_BYTES;
	return 0;
}

static void activate(dev *d, uint32_t s)
{
	if (d->slot[s].queued)
		return;
	d->slot[s].queued = 1;
	d->active[(d->act_head + d->act_n++) % d->nslots] = s;
}

/* dev__dma_start - a DMA doorbell for slot @s, a request of @bytes (@irq: end with an
 * MSI): fetch its descriptor. */
void dev__dma_start(sim_comp *c, dev *d, uint32_t s, uint32_t bytes, int irq)
{
	dev_slot *sl = &d->slot[s];

	if (sl->dma != DMA_IDLE)
		CXL_PANIC("%s: a DMA doorbell for slot %u while its last request is in progress",
			  c->name, s);
	if (!d->nmem)
		CXL_PANIC("%s: a DMA doorbell, but the device reaches no memory", c->name);
	sl->dma = DMA_DESC;
	sl->irq = (uint8_t)(irq != 0);
	sl->bytes = bytes ? bytes : 1;
	sl->rd_sent = sl->rd_out = sl->wr_sent = 0;
	activate(d, s);
}

/* Bytes of the next piece at host address @a with @left to go, at most @max. */
static uint32_t piece(const dev *d, uint64_t a, uint64_t left, uint32_t max)
{
	uint64_t n = max - a % max;

	if (d->nmem > 1 && d->ilv - a % d->ilv < n)
		n = d->ilv - a % d->ilv;
	return (uint32_t)(n < left ? n : left);
}

/* Send one DMA request of slot @s: a read of @bytes or a write of them (@flag: the completion). */
static void send(sim_comp *c, dev *d, uint32_t s, int write, uint64_t a, uint32_t bytes,
		 int flag)
{
	cxl_event *ev = sim_event_new(c);
	uint32_t lines = (uint32_t)((a % CXL_LINE + bytes + CXL_LINE - 1) / CXL_LINE);
	uint8_t vc = write ? CXL_VC_M2S_RWD : CXL_VC_M2S_REQ;

	CXL_ASSERT(d->cr.n[vc] > 0);
	d->cr.n[vc]--;
	ev->kind = CXL_EV_PKT;
	ev->pkt = (cxl_packet){
		.addr = a / CXL_LINE * CXL_LINE, .issue = sim_now(c), .tag = s,
		.size = (uint16_t)(write ? lines * CXL_LINE : 0), .pbr_src = d->pbr,
		.pbr_dst = d->mem[(a / d->ilv) % d->nmem], .mclass = vc,
		.opcode = write ? CXL_OP_MEMWR : CXL_OP_MEMRD,
		.flags = (uint8_t)(flag ? CXL_PKT_FLAG : 0),
		.aux = (uint16_t)(flag ? d->slot[s].dma_seq + 1u : !write && lines > 1 ? lines : 0u),
	};
	if (write) {
		(*d->dma_writes)++;
		*d->dma_write_bytes += lines * CXL_LINE;
	} else {
		(*d->dma_reads)++;
		*d->dma_read_bytes += lines * CXL_LINE;
		d->dma_out++;
		d->slot[s].rd_out++;
	}
	cxl_pkt_send_port(c, ev, 0, 0, CXL_LAT_LINK);
}

/* Raise slot @s's interrupt: an MSI to its host.  A posted write, on the channel of
 * the engine's writes, so it leaves behind the completion record (PCIe: a posted
 * write never passes an earlier one). */
static void msi(sim_comp *c, dev *d, uint32_t s)
{
	cxl_event *ev = sim_event_new(c);

	ev->pkt = (cxl_packet){
		.issue = sim_now(c), .tag = s, .pbr_src = d->pbr, .pbr_dst = d->slot[s].owner,
		.mclass = CXL_VC_M2S_RWD, .opcode = CXL_OP_MSI,
	};
	(*d->dma_irqs)++;
	dev__send(c, d, ev);
}

/* Send what slot @s has to send now; 1 if it has nothing more to send (leaves the ring). */
static int serve(sim_comp *c, dev *d, uint32_t s)
{
	dev_slot *sl = &d->slot[s];
	int rd_room;

	for (;;) {
		rd_room = d->dma_out < d->dma_max && d->cr.n[CXL_VC_M2S_REQ];
		switch (sl->dma) {
		case DMA_DESC:
			if (!rd_room)
				return 0;
			send(c, d, s, 0, sl->host_base + DEV_DMA_DESC, CXL_LINE, 0);
			return 1; /* its answer moves it on */
		case DMA_READ:
			if (sl->rd_sent >= sl->bytes)
				return 1;
			if (!rd_room)
				return 0;
			uint64_t a = sl->host_base + DEV_DMA_REQ + sl->rd_sent;
			uint32_t n = piece(d, a, sl->bytes - sl->rd_sent, d->mrrs);
			send(c, d, s, 0, a, n, 0);
			sl->rd_sent += n;
			break;
		case DMA_WRITE:
			if (!d->cr.n[CXL_VC_M2S_RWD])
				return 0;
			if (sl->wr_sent < sl->bytes) {
				uint64_t w = sl->host_base + DEV_DMA_REPLY + sl->wr_sent;
				uint32_t m = piece(d, w, sl->bytes - sl->wr_sent, d->mps);
				send(c, d, s, 1, w, m, 0);
				sl->wr_sent += m;
				break;
			}
			send(c, d, s, 1, sl->host_base + DEV_DMA_DONE, CXL_LINE, 1);
			sl->dma_seq++;
			sl->dma = DMA_IDLE;
			(*d->dma_rpcs)++;
			if (sl->irq)
				msi(c, d, s);
			return 1;
		default:
			return 1;
		}
	}
}

/* dev__dma_issue - send DMA requests while credits and the read limit allow, slots in order. */
void dev__dma_issue(sim_comp *c, dev *d)
{
	while (d->act_n) {
		uint32_t s = d->active[d->act_head];
		if (!serve(c, d, s))
			return;
		d->slot[s].queued = 0;
		d->act_head = (d->act_head + 1) % d->nslots;
		d->act_n--;
	}
}

/* dev__dma_answer - the memory answered a DMA request of slot pkt.tag. */
void dev__dma_answer(sim_comp *c, dev *d, cxl_event *ev)
{
	const cxl_packet *p = &ev->pkt;
	dev_slot *sl;

	CXL_ASSERT(p->tag < d->nslots);
	sl = &d->slot[p->tag];
	cxl_grant(c, 0, p->mclass, 1);
	(*d->dma_answers)++;
	if (p->mclass == CXL_VC_S2M_NDR)
		return; /* a posted write's completion: counted */
	CXL_ASSERT(d->dma_out > 0 && sl->rd_out > 0);
	d->dma_out--;
	sl->rd_out--;
	if (sl->dma == DMA_DESC) {
		sl->dma = DMA_READ;
		activate(d, p->tag);
		return;
	}
	CXL_ASSERT(sl->dma == DMA_READ);
	if (sl->rd_out || sl->rd_sent < sl->bytes)
		return;
	sl->dma = DMA_COMPUTE;
	cxl_event *t = sim_event_new(c);
	t->kind = DEV_EV_DMA_DONE;
	t->pkt.tag = p->tag;
	sim_send_self(c, t, dev__compute(d, sl->bytes));
}

/* dev__dma_computed - slot pkt.tag's reply is computed: write it. */
void dev__dma_computed(sim_comp *c, dev *d, const cxl_event *ev)
{
	(void)c;
	d->slot[ev->pkt.tag].dma = DMA_WRITE;
	activate(d, ev->pkt.tag);
}

void dev__dma_finish(dev *d)
{
	free(d->mem);
	free(d->active);
	d->mem = NULL;
	d->active = NULL;
}
