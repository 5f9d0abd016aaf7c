/*
 * core/event.h - the event and the packet it carries.
 *
 * One event is exactly 96 bytes (a 32-byte header and a 64-byte packet) and
 * travels between ranks as raw bytes (the ranks of one job run the same
 * binary, so layout is shared).  It was one 64-byte cache line until the
 * packet carried its latency breakdown (models/proto/cxl_lat.h); measured
 * with cachegrind on configs/spine_leaf.cfg, the breakdown costs +6 %
 * instructions and +17 % L1 data misses (+1 % last-level misses).
 * The packet is a value inside the event: models that hold a packet keep the
 * event itself (sim_event_keep) and send it on later, so the event pool is
 * also the packet pool and nothing is allocated per event or per packet.
 *
 * Ordering key (a total order independent of partitioning, see evq.h):
 *     (time, dst, src, seq)
 * `seq` is the per-source-component send counter, so two runs with different
 * rank counts give every event the same key.
 *
 * Ownership: `owner` records which structure holds the event (pool, a rank's
 * queue, an outbound batch, the running handler, a model's buffer); every
 * transfer asserts the expected owner (see evpool.h).
 */
#ifndef CXL_CORE_EVENT_H
#define CXL_CORE_EVENT_H

#include <stdint.h>

#include "core/stime.h"

#define CXL_PKT_LAT 7 /* latency categories a packet accounts (models/proto/cxl_lat.h) */

typedef struct cxl_packet cxl_packet;
struct cxl_packet {
	uint64_t addr;    /* byte address in the host physical space */
	sim_time issue;   /* time the packet's transaction started, ps (cxl_lat.h) */
	uint32_t tag;     /* requester's transaction tag */
	uint16_t size;    /* payload bytes (0 for header-only messages) */
	uint16_t pbr_src; /* 12-bit PBR id of the source edge port */
	uint16_t pbr_dst; /* 12-bit PBR id of the destination edge port */
	uint8_t mclass;   /* message class = virtual channel (M2S Req, S2M DRS, ...) */
	uint8_t opcode;   /* opcode within the class (MemRd, MemWr, BISnp, ...) */
	uint8_t hops;     /* links traversed so far */
	uint8_t flags;    /* model-defined bits */
	uint16_t aux;     /* model-defined small field */
	uint32_t lat[CXL_PKT_LAT]; /* ps since issue, by category (cxl_lat.h) */
	uint32_t lat_sum; /* their sum: the time accounted so far, ps */
};

enum cxl_owner {
	CXL_OWN_POOL = 1, /* on the free list */
	CXL_OWN_QUEUE,    /* in the rank's pending-event set */
	CXL_OWN_OUTBOX,   /* in an outbound batch to another rank */
	CXL_OWN_HANDLER,  /* being handled; freed when the handler returns */
	CXL_OWN_MODEL,    /* kept by a model (sim_event_keep) */
};

typedef struct cxl_event cxl_event;
struct cxl_event {
	union {
		sim_time time;          /* delivery time, ps (while scheduled) */
		cxl_event *next_free;   /* free-list link (while in the pool) */
	};
	uint64_t seq;      /* per-source send counter: last ordering-key field */
	uint32_t dst;      /* destination component id */
	uint32_t src;      /* source component id */
	uint16_t dst_port; /* port of dst the event arrives on (self-sends: model-defined) */
	uint16_t kind;     /* model-defined event kind */
	uint8_t owner;     /* enum cxl_owner */
	uint8_t crd[3];    /* model-defined, zero from the pool: credits a packet carries
			      back (models/proto/cxl_fc.h); keeps the header at 32 bytes */
	cxl_packet pkt;    /* payload */
};

_Static_assert(sizeof(cxl_packet) == 64, "packet must stay 64 bytes");
_Static_assert(sizeof(cxl_event) == 96, "event must stay 96 bytes");

#endif
