/*
 * models/coherence/dcoh_int.h - the DCOH's state (dcoh.h), shared by dcoh.c
 * (the agent) and dcoh_ckpt.c (its checkpoint).  Private to
 * models/coherence/.
 *
 * Kept events: a transaction's request (txn[i].req), a parked request
 * (parked[]) and a BISnp waiting for credits (the bisnp ring); each event
 * the DCOH keeps is in exactly one of those places.
 */
#ifndef CXL_MODELS_DCOH_INT_H
#define CXL_MODELS_DCOH_INT_H

#include <stdint.h>

#include "core/sim.h"
#include "models/coherence/dcoh.h"
#include "models/coherence/sf.h"
#include "models/proto/cxl_proto.h"
#include "models/proto/evring.h"

typedef struct dcoh_txn dcoh_txn;
struct dcoh_txn {
	cxl_event *req;              /* the waiting request, NULL if the slot is free */
	uint64_t line;               /* its line */
	uint64_t snp;                /* first line its BISnps covered */
	uint32_t victim[SF_BLOCK];   /* victim entries (eviction), in line order */
	uint32_t nvictim;            /* their number; 0 for a conflict */
	uint32_t entry;              /* conflict: the locked entry of line */
	uint32_t waiting;            /* BIRsps still to come */
	sim_time start;              /* when it began waiting, ps */
};

struct dcoh {
	sf *sf;                      /* the snoop filter */
	uint16_t pbr;                /* the device's PBR id */
	cxl_credits *cr;             /* [port] the device's credits towards its buses */
	const uint16_t *peer_pbr;    /* [port] requester wired there (multi-headed) */
	uint32_t nports;             /* the device's ports */
	dcoh_go_fn *go;              /* request may proceed */
	dcoh_data_fn *data;          /* dirty lines to memory */
	void *owner;                 /* argument of go and data */
	dcoh_txn *txn;               /* [ntxn] transactions */
	uint32_t ntxn;               /* slots of txn: 2 x buffer */
	cxl_event **parked;          /* [ntxn] requests waiting for a busy line, in order */
	uint32_t nparked;            /* used entries of parked */
	evring bisnp;                /* BISnps waiting for credits */
	cxl_event **bisnp_slots;     /* its storage */
	uint64_t *sf_hits, *sf_misses, *conflicts, *evictions, *evicted_lines;
	uint64_t *bisnp_c, *birsp_c, *birsp_dirty, *wait_ps, *parked_c;
	uint64_t *open_end, *waiting_end, *entries_end;
};

#endif
