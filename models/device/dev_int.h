/*
 * models/device/dev_int.h - internals of the device model shared by its files:
 *   dev.c      parameters, credits, the response rings, event dispatch,
 *              statistics and the end-of-run checks
 *   dev_pio.c  the BAR: posted writes, doorbells, reads held until the reply
 *   dev_dma.c  the DMA engine: descriptor fetch, request read, reply and
 *              completion writes in host memory
 *   dev_coh.c  device-homed lines: the directory and the coherent RPC
 *   dev_ckpt.c the checkpoint hook (what of this state it saves)
 * The model's contract is in dev.h.
 */
#ifndef CXL_MODELS_DEVICE_DEV_INT_H
#define CXL_MODELS_DEVICE_DEV_INT_H

#include <stdint.h>

#include "core/sim.h"
#include "models/device/dev.h"
#include "models/fabric/fab_view.h"
#include "models/proto/cxl_lat.h"
#include "models/proto/cxl_proto.h"
#include "models/proto/evring.h"
#include "models/proto/flagmap.h"

/* the device's own events (pkt.tag = the slot unless said) */
enum {
	DEV_EV_BAR = CXL_EV_MODEL, /* a BAR read's data is ready: answer it (the read) */
	DEV_EV_BELL,               /* a doorbell was taken in (pkt.aux bytes, pkt.opcode DEV_BELL_*) */
	DEV_EV_DONE,               /* a PIO request is computed */
	DEV_EV_DIR,                /* the directory processed a coherent request (the request) */
	DEV_EV_COH_DONE,           /* a coherent reply line is computed (the held load) */
	DEV_EV_DMA_DONE,           /* a DMA request is computed: write the reply */
};

/* doorbells (DEV_EV_BELL's pkt.opcode) */
enum { DEV_BELL_PIO, DEV_BELL_DMA, DEV_BELL_DMA_IRQ };

/* DMA phases of a slot */
enum { DMA_IDLE, DMA_DESC, DMA_READ, DMA_COMPUTE, DMA_WRITE };

typedef struct dev_slot dev_slot;
struct dev_slot {
	uint16_t owner;        /* PBR id of the host using the slot (FAB_NO_PBR: none yet) */
	uint16_t rx_seq;       /* PIO doorbells taken in (mod 2^16) */
	uint16_t done_seq;     /* PIO requests computed */
	cxl_event *held;       /* a BAR read of a reply not computed yet */
	cxl_event *coh_held;   /* a coherent load waiting for its request line */
	/* DMA */
	uint8_t dma;           /* DMA_* */
	uint8_t queued;        /* on the DMA engine's list of slots with requests to send */
	uint8_t irq;           /* the DMA request ends with an MSI to the owner */
	uint16_t dma_seq;      /* DMA requests completed: the completion record's value */
	uint32_t bytes;        /* the DMA request's payload bytes */
	uint32_t rd_sent;      /* bytes of the request read so far (requests sent) */
	uint32_t rd_out;       /* its read requests in flight */
	uint32_t wr_sent;      /* bytes of the reply written (requests sent) */
	uint64_t host_base;    /* the slot's host memory (workload.rpc.dma_base + slot x size) */
};

typedef struct dev dev;
struct dev {
	const fab_view *fv;
	uint16_t pbr;             /* own PBR id */
	uint32_t nslots;          /* device.slots */
	dev_slot *slot;           /* [nslots] */
	cxl_credits cr;           /* credits towards the bus */
	uint32_t buffer;          /* device.buffer: credits granted per VC */
	evring out[CXL_NVC];      /* responses and snoops waiting for credits, by VC */
	cxl_event **out_slots;    /* their storage */
	sim_time latency;         /* device.latency: a BAR access */
	sim_time cycle;           /* one device clock cycle, ps */
	uint32_t compute_cycles;  /* device.compute_cycles: per request */
	uint32_t line_cycles;     /* device.line_cycles: per 64 bytes of payload */
	sim_time directory;       /* device.coherent.directory: per coherent request */
	int grant_excl;           /* device.coherent.grant = exclusive */
	flagmap dir;              /* homed line -> 1 Shared, 2 Exclusive at its slot's owner */
	/* DMA */
	uint16_t *mem;            /* PBR ids of the memory devices it reaches (host memory) */
	uint32_t nmem;
	uint64_t ilv;             /* workload.interleave, bytes */
	uint32_t mrrs;            /* device.dma.read_request: bytes per read request */
	uint32_t mps;             /* bus.max_payload of its link: bytes per write */
	uint32_t dma_max;         /* device.dma.outstanding: reads in flight */
	uint32_t dma_out;         /* reads in flight */
	uint64_t dma_base;        /* workload.rpc.dma_base */
	uint32_t *active;         /* slots with DMA requests to send, in order (a ring) */
	uint32_t act_head, act_n;
	/* statistics */
	uint64_t *bar_reads, *bar_read_bytes, *bar_writes, *bar_write_bytes, *held_reads;
	uint64_t *pio_rpcs, *dma_rpcs, *coh_rpcs;
	uint64_t *dma_reads, *dma_writes, *dma_read_bytes, *dma_write_bytes, *dma_answers;
	uint64_t *dma_irqs;
	uint64_t *coh_reads, *coh_grants, *coh_snoops, *coh_birsp, *coh_writebacks;
	uint64_t *waiting_end, *credits_end, *held_end, *dma_busy_end;
};

/* dev.c */
void dev__send(sim_comp *c, dev *d, cxl_event *ev);
void dev__answer(sim_comp *c, dev *d, cxl_event *ev, uint16_t bytes, uint8_t flags);
dev_slot *dev__slot(sim_comp *c, dev *d, uint64_t off, uint16_t src);
void dev__later(sim_comp *c, cxl_event *ev, int kind, enum cxl_lat cat, sim_time delay);
sim_time dev__compute(const dev *d, uint32_t bytes);

/* dev_pio.c */
void dev__bar_read(sim_comp *c, dev *d, cxl_event *ev);
void dev__bar_write(sim_comp *c, dev *d, cxl_event *ev);
void dev__bell(sim_comp *c, dev *d, cxl_event *ev);
void dev__pio_done(sim_comp *c, dev *d, const cxl_event *ev);

/* dev_dma.c */
int dev__dma_init(sim_comp *c, dev *d, const cfg *cf, cxl_err *err);
void dev__dma_start(sim_comp *c, dev *d, uint32_t s, uint32_t bytes, int irq);
void dev__dma_answer(sim_comp *c, dev *d, cxl_event *ev);
void dev__dma_computed(sim_comp *c, dev *d, const cxl_event *ev);
void dev__dma_issue(sim_comp *c, dev *d);
void dev__dma_finish(dev *d);

/* dev_coh.c */
void dev__coh_request(sim_comp *c, dev *d, cxl_event *ev);
void dev__coh_process(sim_comp *c, dev *d, cxl_event *ev);
void dev__coh_birsp(sim_comp *c, dev *d, cxl_event *ev);
void dev__coh_computed(sim_comp *c, dev *d, cxl_event *ev);

/* dev_ckpt.c: model_ops.ckpt */
void dev__ckpt(sim_comp *c, void *state, ckpt *k);

#endif
