/*
 * models/coherence/dcoh.h - the device coherency agent (DCOH) of a memory device in
 * HDM-DB mode (ESF §II-A, §III-G): an inclusive snoop filter (sf.h) in
 * front of the device's memory, which back-invalidates requesters' caches
 * (BISnp) on conflicts and to make room, and waits for their BIRsps before
 * a request proceeds.  The memory endpoint (mem.c) owns it: requests pass
 * through dcoh_request() on their way to DRAM, BIRsps and credits are
 * handed to it.  Keys: memory.dcoh.* (cxl_dcoh_schema); entries = 0 (the
 * default) means HDM-H, no DCOH.
 *
 * Per request (protocol in cxl_proto.h), for line L from requester h:
 *   - a read marked CXL_PKT_CACHED records h as an owner (exclusively with
 *     CXL_PKT_EXCL); owners that conflict (any other owner for EXCL, another
 *     exclusive owner for a shared read) get a BISnp for L first;
 *   - a line not in the filter needs an entry: a free one of its set, or
 *     the victims sf_victims() picks (an InvBlk of up to
 *     memory.dcoh.invblk_max lines), whose owners each get one BISnp
 *     covering the block; the entries are freed when all BIRsps are in;
 *   - an uncached read goes straight on unless another requester holds L
 *     exclusively (it is snooped first, for the current data);
 *   - a write without CXL_PKT_CACHED is a write-back (h gives the line up:
 *     it stops being an owner) or an uncached write (other owners are
 *     snooped first).
 * A request whose line has a transaction in flight (or whose set has only
 * locked entries) is parked and retried, in arrival order, whenever a
 * transaction ends.  Dirty data in BIRsps is written to memory
 * (dcoh_data_fn), with the value of a flag line the BIRsp carries
 * (CXL_PKT_FLAG, cxl_proto.h).  The memory endpoint passes a request of
 * several lines through the DCOH line by line, one line at a time.
 *
 * Bounds: at most `memory.buffer` requests per VC and port are in the
 * device, each with at most one line in the DCOH at a time (a request of
 * several lines enters line by line), so transactions and parked requests
 * are bounded by 2 x buffer x ports, and BISnps waiting for credits by
 * SF_MAX_OWNERS x that; all arrays are allocated at init (overflow
 * panics).  Statistics are listed in dcoh.c.
 */
#ifndef CXL_MODELS_DCOH_H
#define CXL_MODELS_DCOH_H

#include "core/sim.h"
#include "models/proto/cxl_proto.h"

typedef struct dcoh dcoh;  /* body in dcoh.c */

/* The request @req may go on to memory now. */
typedef void dcoh_go_fn(sim_comp *c, void *owner, cxl_event *req);
/*
 * A BIRsp brought @lines dirty lines from @addr: write them to memory.  With
 * CXL_PKT_FLAG in @flags (the BIRsp's CXL_PKT_FLAG_MASK bits), line
 * CXL_PKT_FLAG_LINE(@flags) of the block is a flag line whose value is now
 * @value.  Called before the request that waited for the BIRsp goes on.
 */
typedef void dcoh_data_fn(sim_comp *c, void *owner, uint64_t addr, uint32_t lines,
			  uint8_t flags, uint16_t value);

extern const cfg_schema cxl_dcoh_schema;

/*
 * dcoh_create - the DCOH of memory component @c (PBR id @pbr), or NULL
 * (and 0 returned) when memory.dcoh.entries is 0.  @cr[p] is the device's
 * credits towards the bus on port p of @nports (BISnps spend them);
 * @peer_pbr[p] the PBR id of the requester wired to port p of a
 * multi-headed device (a BISnp to it leaves there; any other goes out on
 * port 0); @buffer its memory.buffer.
 * Return: 0, or CXL_EINVAL with @err set for bad parameters.
 */
int dcoh_create(dcoh **out, sim_comp *c, const cfg *cf, uint16_t pbr, cxl_credits *cr,
		const uint16_t *peer_pbr, uint32_t nports, uint32_t buffer, dcoh_go_fn *go,
		dcoh_data_fn *data, void *owner, cxl_err *err);

/* dcoh_request - a request arrived at the DCOH (it calls go now or later). */
void dcoh_request(dcoh *d, sim_comp *c, cxl_event *req);

/* dcoh_birsp - a BIRsp arrived (the DCOH returns its credit and frees it). */
void dcoh_birsp(dcoh *d, sim_comp *c, cxl_event *ev);

/* dcoh_drain - send BISnps waiting for credits (call after credits arrive). */
void dcoh_drain(dcoh *d, sim_comp *c);

/* For the coherence checker (coh_check.c): the filter, and the BISnps sent,
   BIRsps received and transactions open (parked requests included) so far. */
struct sf;
struct sf *dcoh_sf(const dcoh *d);
void dcoh_counts(const dcoh *d, uint64_t *bisnp, uint64_t *birsp, uint64_t *open);

/*
 * dcoh_ckpt - save or restore (core/ckpt.h) what the DCOH's events change:
 * the snoop filter, transactions, parked requests and waiting BISnps
 * (dcoh_ckpt.c).  Loading, @d is fresh from dcoh_create() with the same
 * config.  The credits it was given are the caller's to save.
 */
void dcoh_ckpt(dcoh *d, ckpt *k);

/* dcoh_destroy - end-of-run counters (open transactions, waiting BISnps) and free. */
void dcoh_destroy(dcoh *d, sim_comp *c);

#endif
