/*
 * models/memory/mem_int.h - the memory endpoint's state and the pieces its
 * files share: mem.c (the endpoint: decode, the simple and detailed DRAM
 * paths, the DCOH's callbacks, responses), mem_parts.c (requests of
 * several lines, split into one-line parts) and mem_ckpt.c (the
 * checkpoint hook: what of this state it saves, and why the rest need
 * not be).  Private to models/memory/.
 */
#ifndef CXL_MODELS_MEM_INT_H
#define CXL_MODELS_MEM_INT_H

#include <stdint.h>

#include "core/sim.h"
#include "models/coherence/dcoh.h"
#include "models/memory/dram.h"
#include "models/proto/cxl_fc.h"
#include "models/proto/cxl_proto.h"
#include "models/proto/evring.h"
#include "models/proto/flagmap.h"

enum { MEM_EV_DONE = CXL_EV_MODEL, MEM_EV_ARRIVE, MEM_EV_DRAM,
       MEM_EV_FC_TIMER /* batched credits due (cxl_fc.h) */ };
/* pkt.flags of a request the device makes itself: a write of dirty data a
   BIRsp brought (pkt.tag = MEM_NO_PARENT), answered by nobody, or one line
   of a request of several (pkt.tag = its parent's slot), answered by the
   parent; never leaves the device */
#define MEM_PKT_INTERNAL 0x80u
#define MEM_NO_PARENT UINT32_MAX /* pkt.tag of an internal write of BIRsp data */

/* A request of several lines in the device (the parent of its parts). */
typedef struct mem_parent mem_parent;
struct mem_parent {
	cxl_event *req;  /* the request, kept until it is answered; NULL: slot free */
	sim_time coh_ps; /* time its parts were held by the DCOH (one at a time), ps */
	uint16_t n;      /* its lines = parts */
	uint16_t made;   /* parts made: sent into the DCOH, or to the DRAM */
	uint16_t done;   /* parts the DRAM has served */
	uint16_t ready;  /* detailed: parts that reached the DRAM (in index order) */
	uint16_t queued; /* detailed: of those, parts passed to a wait ring; the
			    others (ready - queued) are held, made again when released */
	uint8_t in_wait; /* detailed: one of its parts is in a wait ring */
};

/* Counters of the detailed model, in registration order. */
enum { DC_HITS, DC_MISSES, DC_CONFLICTS, DC_ACTS, DC_PRES, DC_REFS, DC_RBYTES, DC_WBYTES,
       DC_QUEUED, DC_N };

typedef struct mem mem;
struct mem {
	cxl_credits *cr;        /* [port] credits towards the bus on that port */
	cxl_fc fc;              /* credits held for the buses (bus.credit_batch, cxl_fc.h) */
	uint32_t nports;        /* ports: 1, or the heads of a multi-headed device */
	uint16_t *peer_pbr;     /* [port] PBR id of the requester there (multi-headed) */
	uint16_t pbr;           /* own PBR id */
	sim_time latency;       /* device controller latency, ps */
	/* simple model */
	sim_time dram_latency;  /* DRAM access latency, ps */
	sim_time service;       /* channel occupancy per line, ps */
	uint32_t nch;           /* channels (both models) */
	sim_time *ch_free;      /* [channel] time it is free again */
	/* detailed model (dr == NULL: simple) */
	dram *dr;               /* the DRAM */
	evring *wait;           /* [channel] requests waiting for a queue slot */
	cxl_event **wait_slots; /* storage of the wait rings */
	sim_time *timer_at;     /* [channel] earliest pending MEM_EV_DRAM, SIM_TIME_MAX none */
	uint64_t nwait;         /* requests in the wait rings, and parts held (arrive()) */
	sim_time wait_since;    /* last change of nwait, ps */
	uint64_t wait_area;     /* sum of the waits in the rings so far, ps */
	uint64_t ilv;           /* HDM decode: interleave granularity, lines */
	uint64_t ways;          /* HDM decode: devices in the interleave set */
	dcoh *coh;              /* the DCOH (HDM-DB), NULL for HDM-H */
	uint32_t wait_cap;      /* detailed: capacity of each wait ring */
	evring *resp;           /* [port * 2 + k] responses waiting for credits: NDR, DRS */
	cxl_event **slots;      /* storage of both rings */
	/* requests of several lines */
	uint32_t buffer;        /* memory.buffer: requests per port and VC (credits granted) */
	mem_parent *parent;     /* [nparent] the requests of several lines in the device;
				   NULL until the first arrives */
	uint32_t *parent_free;  /* [nparent] stack of free slots of parent */
	uint32_t nparent;       /* slots: 2 x buffer x ports (the requests the credits admit), 0 before */
	uint32_t nfree;         /* free slots on the stack */
	uint32_t *next_q;       /* [nparent] ring: parents whose next part may enter the DCOH */
	uint32_t next_head;     /* its oldest entry */
	uint32_t next_n;        /* its entries */
	uint64_t kick;          /* detailed: channels to service (bit per channel) */
	flagmap flagv;          /* values of the flag lines this device holds */
	uint64_t *reads, *writes, *queue_ps, *busy_ps, *waiting_end, *credits_end;
	uint64_t *read_lines, *write_lines; /* lines requests moved (reads, writes count requests) */
	uint64_t *dc[DC_N];     /* detailed model's counters */
	uint64_t **ch_busy;     /* [channel] ch<N>_busy_ps */
	series *ts_requests;    /* time series requests: reads and writes arrived; NULL: off */
};


/* Is @ev one line of a request of several (made by the device)? */
static inline int mem__is_part(const cxl_event *ev)
{
	return (ev->pkt.flags & MEM_PKT_INTERNAL) && ev->pkt.tag != MEM_NO_PARENT;
}


/* mem.c */
void mem__to_dram(sim_comp *c, mem *m, cxl_event *ev);
void mem__reply(sim_comp *c, mem *m, cxl_event *ev, uint32_t lines);

/* mem_parts.c (contracts at the definitions) */
uint32_t mem__lines(const cxl_packet *p);
void mem__split(sim_comp *c, mem *m, cxl_event *ev, uint32_t n);
cxl_event *mem__part_new(sim_comp *c, const mem *m, uint32_t s, uint32_t k);
void mem__part_went_on(sim_comp *c, mem *m, const cxl_event *part);
void mem__next_flush(sim_comp *c, mem *m);
void mem__part_done(sim_comp *c, mem *m, cxl_event *ev);
void mem__parts_free(sim_comp *c, mem *m);
void mem__parents_init(mem *m);

/* mem_ckpt.c: model_ops.ckpt */
void mem__ckpt(sim_comp *c, void *state, ckpt *k);

#endif
