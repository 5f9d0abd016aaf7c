/*
 * models/host/req_int.h - internals of the requester model shared by its files:
 *   req.c      parameters, request generation and issue, responses
 *   req_coh.c  the local cache (hcache.h), write-backs and the answers to
 *              back-invalidation snoops (BISnp -> BIRsp)
 *   req_rate.c workload.rate: the offered load as an issue interval
 *   req_trace.c the trace pattern
 *   prog.c     host programs (prog.h): processes that execute operations
 *   req_ckpt.c the checkpoint hook: what the others change while the run runs
 * Contract of the model in req.c; the coherence protocol in cxl_proto.h.
 *
 * Slots: every transaction the requester has in flight (a request, a cache
 * hit being served, a write-back) holds one of `queue` slots, so the queue
 * bounds all of them and the `queue` response credits the requester grants
 * always suffice.  A packet's tag is its slot.
 */
#ifndef CXL_MODELS_REQ_INT_H
#define CXL_MODELS_REQ_INT_H

#include <stdint.h>

#include "core/sim.h"
#include "models/proto/cxl_lat.h"
#include "models/proto/cxl_fc.h"
#include "models/proto/cxl_proto.h"
#include "models/proto/devwin.h"
#include "models/proto/evring.h"
#include "models/proto/flagmap.h"
#include "models/fabric/fab_view.h"
#include "models/host/hcache.h"
#include "traces/trc.h"

/* Latency by round-trip hop count: one histogram per count this requester
 * can see (2 x the buses to each of its targets); longer ones share one. */
#define REQ_HOP_NAMES 32

/* REQ_EV_PROG: a process's timer (pkt.tag = the process; prog.c);
 * REQ_EV_IRQ: an interrupt's handler is done (pkt.tag = the process; prog.c) */
enum { REQ_EV_ISSUE = CXL_EV_MODEL, REQ_EV_HIT, REQ_EV_PROG, REQ_EV_IRQ,
       REQ_EV_FC_TIMER /* batched credits due (cxl_fc.h) */ };
enum { PAT_STREAM, PAT_RANDOM, PAT_HOTCOLD, PAT_TRACE, PAT_PROGRAM, PAT_CMPI, PAT_RPC };
enum req_kind { REQ_FREE, REQ_ACCESS, REQ_HIT, REQ_WRITEBACK };
#define REQ_NOPROC 0xffffu /* req_slot.proc of a transaction no process waits for */

typedef struct req_slot req_slot;
struct req_slot {
	uint64_t index;     /* request number (0, 1, ...); write-backs: none */
	uint64_t line;      /* line number */
	sim_time issue;     /* issue time, ps */
	uint8_t kind;       /* enum req_kind */
	uint8_t write;      /* 1: the access is a write */
	uint8_t snooped;    /* a BISnp took the line while its fill was in flight */
	uint8_t cached;     /* its data fills the cache (a miss of a cached access) */
	uint16_t bytes;     /* data bytes it moves (a line, or a TLP's payload) */
	uint16_t proc;      /* host programs: the process it belongs to, else REQ_NOPROC */
	uint16_t ent;       /* host programs: that process's operation entry (prog.c) */
	uint16_t value;     /* a store that sets a flag line: the value (flag = 1) */
	uint8_t flag;       /* 1: the access sets a flag line's value (set_flag) */
	uint8_t role;       /* host programs: what it is for (prog.c) */
};

typedef struct req req;
struct req {
	const fab_view *fv;       /* the fabric */
	uint16_t pbr;             /* own PBR id */
	uint16_t *targets;        /* PBR ids of the memories it reaches, ascending */
	uint32_t ntargets;        /* their number */
	uint16_t *devs;           /* PBR ids of the devices it reaches (device window, devwin.h) */
	uint32_t ndevs;           /* their number */
	cxl_credits cr;           /* credits towards the bus */
	cxl_fc fc;                /* credits held for the bus (bus.credit_batch, cxl_fc.h) */
	uint64_t requests;        /* to issue in total */
	uint64_t warmup;          /* first requests not measured */
	sim_time warmup_time;     /* requests issued before this are not measured, ps;
				     the measurement window starts here */
	sim_time end;             /* simulation.end: the window ends, nothing is issued
				     at or after it (the run drains), ps */
	int measuring;            /* 1 once a measured request was issued */
	uint64_t issued;          /* issued so far */
	uint32_t queue;           /* slots: outstanding limit */
	uint32_t outstanding;     /* slots in use */
	req_slot *slot;           /* [queue] */
	uint32_t *free_slot;      /* stack of free slot numbers */
	uint32_t nfree;           /* entries of free_slot */
	int pattern;              /* PAT_* */
	double read_ratio;        /* probability of a read */
	uint64_t lines;           /* footprint in lines */
	uint64_t base;            /* first line of the footprint */
	uint64_t ilv_lines;       /* interleaving granularity in lines */
	sim_time latency;         /* requester latency, ps */
	sim_time interval;        /* minimum issue interval, ps */
	sim_time next_issue;      /* earliest time of the next issue, ps */
	int next_read;            /* drawn kind of the next request: -1 none, 0 write, 1 read */
	uint64_t next_line;       /* drawn line of the next request (within the footprint) */
	int timer_armed;          /* an REQ_EV_ISSUE is pending */
	int exhausted;            /* the trace ended: no request is left to draw */
	uint64_t hot_lines;       /* hotcold: lines of the hot set (the first ones) */
	double hot_fraction;      /* hotcold: share of requests to the hot set */
	/* trace replay (req_trace.c) */
	trc_reader *trc;          /* the trace, NULL for other patterns */
	trc_rec rec;              /* its current record */
	uint64_t rec_line;        /* next line of the record */
	uint64_t rec_lines;       /* lines of the record still to issue */
	int timed;                /* 1: honour record times */
	double time_scale;        /* timed: issue at record time x this */
	uint64_t nread;           /* records read from the trace so far */
	uint64_t *trace_records;  /* counter: records in the trace (its header) */
	uint64_t *trace_replayed; /* counter: records read (replayed, the last perhaps in part) */
	/* coherence (req_coh.c) */
	int cached;               /* 1: host.cache.size > 0 */
	hcache cache;             /* the local cache */
	sim_time cache_latency;   /* hit latency, ps */
	uint64_t *wb_line;        /* [queue] ring of write-backs waiting to leave */
	uint32_t wb_head, wb_n;   /* ring head and length */
	evring birsp;             /* BIRsps waiting for credits */
	cxl_event **birsp_slots;  /* its storage */
	/* statistics */
	uint64_t *reads, *writes, *bytes, *hops_sum, *t_first, *t_last;
	uint64_t *issued_c, *completed, *out_end, *credits_end, *posted, *posted_bytes;
	uint64_t *hits, *misses, *wbs, *bisnp, *birsp_c, *birsp_dirty, *snoop_inval;
	uint64_t *waiting_end, *cached_end;
	uint64_t *win_bytes, *win_done, *drained, *t_done, *cut, *offered_ps;
	stats_hist *lat_read, *lat_write;
	stats_hist *by_hops[REQ_HOP_NAMES + 1]; /* [hops / 2], [REQ_HOP_NAMES] = longer */
	uint64_t *bd[CXL_LAT_N];  /* latency breakdown: ps per category, measured requests */
	uint64_t *(*bd_hops)[CXL_LAT_N]; /* [hops / 2] the same by hop count (NULL: no class) */
	uint64_t *bd_ovf;         /* measured requests whose breakdown overflowed */
	/* time series (simulation.sample_period; all NULL when off), warm-up included */
	series *ts_completed;     /* completed: accesses answered in the period */
	series *ts_bytes;         /* bytes: their data bytes, B */
	series *ts_lat_sum;       /* lat_sum_ps: sum of their latencies, ps */
	series *ts_lat_max;       /* lat_max_ps: the longest of them, ps */
	series_hist *ts_lat;      /* lat_ps: the rank's per-period latency histogram, ps */
	/* host programs (prog.c), NULL for the other patterns */
	struct prog_run *prog;
	flagmap vals;             /* values of the flag lines in the cache or on their way back */
	flagmap wb_busy;          /* programs: write-backs in flight per line (counts) */
	flagmap fill_busy;        /* programs: cached accesses (fills) in flight per line */
};

/* req.c */
uint32_t req__slot_new(req *r, enum req_kind kind, uint64_t line, int write);
void req__slot_free(req *r, uint32_t s);
void req__slot_track(req *r, uint32_t s, int d);
uint16_t req__line_count(const flagmap *m, uint64_t line);
uint16_t req__home(const req *r, uint64_t line);
void req__send(sim_comp *c, req *r, uint32_t s, uint8_t vc, uint64_t addr, uint16_t size,
	       uint8_t flags, uint16_t aux);
void req__send_posted(sim_comp *c, req *r, uint64_t addr, uint16_t size, uint16_t aux);

/* prog.c (contracts at the definitions) */
int req__prog_init(sim_comp *c, req *r, const cfg *cf, cxl_err *err);
void req__prog_issue(sim_comp *c, req *r);
void req__prog_done(sim_comp *c, req *r, req_slot *s, const cxl_packet *p);
void req__prog_timer(sim_comp *c, req *r, const cxl_event *ev);
void req__prog_msi(sim_comp *c, req *r, const cxl_event *ev);
void req__prog_irq(sim_comp *c, req *r, const cxl_event *ev);
int req__prog_unfinished(const req *r);
void req__prog_finish(sim_comp *c, req *r);
void req__prog_ckpt(req *r, ckpt *k);

/* req_trace.c */
int req__trace_init(sim_comp *c, req *r, const cfg *cf, cxl_err *err);
int req__trace_next(sim_comp *c, req *r);
void req__trace_finish(req *r);
void req__trace_ckpt(req *r, ckpt *k);

/* req_rate.c (contract at the definition) */
int req__rate_init(sim_comp *c, req *r, const cfg *cf, cxl_err *err);

/* req_coh.c (contracts at the definitions) */
int req__coh_init(sim_comp *c, req *r, const cfg *cf, cxl_err *err);
int req__coh_hits(const req *r, uint64_t line, int read);
int req__coh_blocked(const req *r, uint64_t line);
int req__coh_access(sim_comp *c, req *r, uint64_t line, int read);
void req__coh_fill(sim_comp *c, req *r, req_slot *s, const cxl_packet *p);
int req__coh_flush(sim_comp *c, req *r, uint64_t line, uint16_t *value);
void req__coh_drop(req *r, uint64_t line);
void req__coh_bisnp(sim_comp *c, req *r, cxl_event *ev);
void req__coh_drain(sim_comp *c, req *r);
void req__coh_finish(sim_comp *c, req *r);
void req__coh_ckpt(req *r, ckpt *k);

/* req_ckpt.c (contract at the definition) */
void req__ckpt(sim_comp *c, void *state, ckpt *k);

#endif
