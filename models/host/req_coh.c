/*
 * models/host/req_coh.c - the requester's cache coherence management unit (ESF
 * §III-D): a local write-back cache that filters hits, the write-back of
 * dirty victims, and the answers to back-invalidation snoops.  Protocol in
 * cxl_proto.h; the slots and state in req_int.h.
 *
 * With host.cache.size = 0 (the default) nothing here runs: every access
 * goes to memory as before.  With a cache:
 *   - a read of a present line, or a write of a dirty one, is a hit: it is
 *     answered after host.cache.latency, without the fabric;
 *   - any other access is a miss: a MemRd marked CXL_PKT_CACHED (and
 *     CXL_PKT_EXCL for a write, which fetches the line to own it); its DRS
 *     fills the line, clean for a read, dirty for a write; a read's DRS
 *     marked CXL_PKT_EXCL (a device granting its line Exclusive, dev.h)
 *     fills it clean but exclusive, so a store to it hits and dirties it;
 *   - a fill that evicts a dirty line queues a write-back (an RwD MemWr
 *     without CXL_PKT_CACHED, answered by an NDR); clean lines leave
 *     silently, so the device's snoop filter may keep them (it snoops
 *     them later and gets a clean answer);
 *   - a BISnp invalidates its lines and is answered by one BIRsp carrying
 *     the dirty ones.  A line whose fill is still in flight is marked: the
 *     fill then completes its access without installing the line (a write
 *     goes on to memory as a write-back), so the snoop filter stays
 *     inclusive of what the cache holds.
 * Write-backs and BIRsps wait in rings for the bus's credits; write-backs
 * hold a slot, so at most `queue` are in flight; BIRsps are at most the
 * `queue` BISnp credits the requester grants.
 *
 * Statistics: hits, misses, writebacks, bisnp, birsp, birsp_dirty_lines,
 * snoop_invalidations (lines a snoop took from the cache), and at the end
 * birsp_waiting (0) and cached_lines.
 */
#include <stdlib.h>

#include "core/xmalloc.h"
#include "models/host/req.h"
#include "models/host/req_int.h"
#include "models/proto/cxl_lat.h"

static const cfg_key cache_keys[] = {
	{ "host.cache.size", CFG_SIZE, "0B", "0B", NULL, NULL,
	  "local cache of each requester, bytes (a multiple of 64 x assoc); 0: no cache" },
	{ "host.cache.assoc", CFG_INT, "8", "0", "65536", NULL,
	  "ways per set of the local cache; 0: fully associative" },
	{ "host.cache.latency", CFG_TIME, "12ns", "0ps", NULL, NULL,
	  "time to answer a hit from the local cache" },
};

const cfg_schema cxl_host_cache_schema = {
	"host.cache", cache_keys, sizeof(cache_keys) / sizeof(cache_keys[0]),
};

int req_runs(const model_ops *ops)
{
	return ops == &cxl_host_ops || ops == &cxl_accel_ops;
}

void req_each_cached(const void *st, req_line_fn *fn, void *ctx)
{
	const req *r = st;
	const hcache *h = &r->cache;

	for (uint64_t i = 0; r->cached && i < (uint64_t)h->nsets * h->assoc; i++)
		if (h->state[i] != HCACHE_INVALID)
			fn(ctx, h->tag[i], h->state[i] == HCACHE_DIRTY,
			   fab_view_comp_of_pbr(r->fv, req__home(r, h->tag[i])));
}

/**
 * req__coh_init - read host.cache.*, set up the cache and the rings, and
 * register the coherence statistics.
 * Return: 0, or CXL_EINVAL (a size that is not whole sets of lines).
 */
int req__coh_init(sim_comp *c, req *r, const cfg *cf, cxl_err *err)
{
	uint64_t bytes = cfg_size(cf, "host.cache.size");
	uint32_t assoc = (uint32_t)cfg_int(cf, "host.cache.assoc");
	char why[128];

	r->hits = sim_stat_counter(c, "hits");
	r->misses = sim_stat_counter(c, "misses");
	r->wbs = sim_stat_counter(c, "writebacks");
	r->bisnp = sim_stat_counter(c, "bisnp");
	r->birsp_c = sim_stat_counter(c, "birsp");
	r->birsp_dirty = sim_stat_counter(c, "birsp_dirty_lines");
	r->snoop_inval = sim_stat_counter(c, "snoop_invalidations");
	r->waiting_end = sim_stat_counter(c, "birsp_waiting");
	r->cached_end = sim_stat_counter(c, "cached_lines");
	r->birsp_slots = xmalloc(r->queue * sizeof(*r->birsp_slots));
	evring_init(&r->birsp, r->queue, r->birsp_slots);
	r->wb_line = xmalloc(r->queue * sizeof(*r->wb_line));
	r->cache_latency = cfg_time(cf, "host.cache.latency");
	if (!bytes)
		return 0;
	if (bytes % CXL_LINE)
		return cfg_error_at(cf, "host.cache.size", err, "%llu is not a multiple of %d bytes",
				    (unsigned long long)bytes, CXL_LINE);
	if (hcache_init(&r->cache, bytes / CXL_LINE, assoc, why))
		return cfg_error_at(cf, "host.cache.size", err, "%s", why);
	r->cached = 1;
	return 0;
}

/* Queue a write-back of @line; it leaves when a slot and a credit allow. */
static void queue_writeback(req *r, uint64_t line)
{
	CXL_ASSERT(r->wb_n < r->queue);
	r->wb_line[(r->wb_head + r->wb_n++) % r->queue] = line;
}

static void send_writeback(sim_comp *c, req *r)
{
	uint64_t line = r->wb_line[r->wb_head];
	uint32_t s = req__slot_new(r, REQ_WRITEBACK, line, 1);
	uint16_t v = 0;

	req__slot_track(r, s, 1);
	int flag = flagmap_get(&r->vals, line, &v);

	r->wb_head = (r->wb_head + 1) % r->queue;
	r->wb_n--;
	if (flag)
		flagmap_del(&r->vals, line);
	(*r->wbs)++;
	req__send(c, r, s, CXL_VC_M2S_RWD, line * CXL_LINE, CXL_LINE,
		  (uint8_t)(CXL_PKT_WB | (flag ? CXL_PKT_FLAG : 0)), v);
}

/*
 * req__coh_drain - send waiting BIRsps, then waiting write-backs, while
 * credits (and slots, for write-backs) allow.  Called on every event.
 */
void req__coh_drain(sim_comp *c, req *r)
{
	while (evring_peek(&r->birsp) && cxl_credit_has(c, &r->cr, 0, CXL_VC_M2S_BIRSP)) {
		cxl_event *ev = evring_pop(&r->birsp);
		r->cr.n[CXL_VC_M2S_BIRSP]--;
		cxl_lat_until(&ev->pkt, CXL_LAT_QUEUE, sim_now(c));
		cxl_lat_add(&ev->pkt, CXL_LAT_REQUESTER, r->latency);
		cxl_pkt_send_port(c, ev, 0, r->latency, CXL_LAT_LINK);
	}
	while (r->wb_n && r->outstanding < r->queue &&
	       cxl_credit_has(c, &r->cr, 0, CXL_VC_M2S_RWD))
		send_writeback(c, r);
}

/*
 * req__coh_blocked - 1 if @line has a write-back waiting or in flight: a
 * new request for it waits until the device has the write-back, so the
 * snoop filter never drops an owner that already asked again.
 */
int req__coh_blocked(const req *r, uint64_t line)
{
	if (!r->cached)
		return 0;
	for (uint32_t k = 0; k < r->wb_n; k++)
		if (r->wb_line[(r->wb_head + k) % r->queue] == line)
			return 1;
	if (r->prog) /* programs count them: no scan of every slot */
		return req__line_count(&r->wb_busy, line) > 0;
	for (uint32_t k = 0; k < r->queue; k++)
		if (r->slot[k].kind == REQ_WRITEBACK && r->slot[k].line == line)
			return 1;
	return 0;
}

/* Is an access (@read or a write) to a line in state @st a hit? */
static int is_hit(enum hcache_state st, int read)
{
	return st == HCACHE_DIRTY || st == HCACHE_EXCL || (st == HCACHE_CLEAN && read);
}

/* req__coh_hits - 1 if the access would hit the cache (LRU untouched). */
int req__coh_hits(const req *r, uint64_t line, int read)
{
	return r->cached && is_hit(hcache_peek(&r->cache, line), read);
}

/**
 * req__coh_access - try an access to @line (@read, or a write) in the
 * cache.  Return: the slot of a hit (taken, its answer scheduled), or -1
 * if it must go to memory (counted as a miss).  Without a cache: always
 * -1, nothing counted.
 */
int req__coh_access(sim_comp *c, req *r, uint64_t line, int read)
{
	if (!r->cached)
		return -1;
	enum hcache_state st = hcache_lookup(&r->cache, line);
	if (is_hit(st, read)) {
		uint64_t none;
		if (!read && st == HCACHE_EXCL) /* exclusive: the store dirties it silently */
			hcache_fill(&r->cache, line, HCACHE_DIRTY, &none);
		uint32_t s = req__slot_new(r, REQ_HIT, line, !read);
		cxl_event *t = sim_event_new(c);
		t->kind = REQ_EV_HIT;
		t->pkt.tag = s;
		(*r->hits)++;
		sim_send_self(c, t, r->cache_latency);
		return (int)s;
	}
	(*r->misses)++;
	return -1;
}

/* A line left the cache clean (or never came): its flag value, if any, is stale. */
static void forget(req *r, uint64_t line)
{
	if (r->vals.n)
		flagmap_del(&r->vals, line);
}

/**
 * req__coh_flush - @line leaves the cache (clflush): 0 if it was clean or
 * absent (nothing to send), 1 if it was dirty and must be written back;
 * then *@value is the flag value the write-back carries, and bit 1 of the
 * return says there is one.
 */
int req__coh_flush(sim_comp *c, req *r, uint64_t line, uint16_t *value)
{
	(void)c;
	if (!r->cached || hcache_invalidate(&r->cache, line) != HCACHE_DIRTY) {
		forget(r, line);
		return 0;
	}
	if (!flagmap_get(&r->vals, line, value))
		return 1;
	flagmap_del(&r->vals, line);
	return 3;
}

/* req__coh_drop - @line leaves the cache without a write-back (an nt store overwrites it). */
void req__coh_drop(req *r, uint64_t line)
{
	if (r->cached)
		hcache_invalidate(&r->cache, line);
	forget(r, line);
}

/**
 * req__coh_fill - the data of access @s arrived in @p: install the line
 * (dirty for a write), or, if a snoop took it meanwhile, send a write on to
 * memory.  A dirty victim is queued for write-back.  Flag values: a store
 * that sets a flag gives the line its value; a fill brings the memory's
 * (CXL_PKT_FLAG) or none.
 */
void req__coh_fill(sim_comp *c, req *r, req_slot *s, const cxl_packet *p)
{
	uint64_t victim = 0;

	(void)c;
	if (!r->cached)
		return;
	if (s->flag)
		flagmap_set(&r->vals, s->line, s->value);
	else if (p->flags & CXL_PKT_FLAG && hcache_peek(&r->cache, s->line) != HCACHE_DIRTY)
		flagmap_set(&r->vals, s->line, p->aux);
	if (s->snooped) {
		if (s->write)
			queue_writeback(r, s->line);
		else
			forget(r, s->line);
		return;
	}
	/* a read's fill behind a write's (two misses in flight) keeps it dirty */
	enum hcache_state st = s->write || hcache_peek(&r->cache, s->line) == HCACHE_DIRTY ?
				       HCACHE_DIRTY : p->flags & CXL_PKT_EXCL ? HCACHE_EXCL : HCACHE_CLEAN;
	enum hcache_state vs = hcache_fill(&r->cache, s->line, st, &victim);
	if (vs == HCACHE_DIRTY)
		queue_writeback(r, victim);
	else if (vs == HCACHE_CLEAN)
		forget(r, victim);
}

/**
 * req__coh_bisnp - a BISnp arrived in @ev: invalidate its lines, mark
 * fills in flight for them, and answer with one BIRsp (the event reused)
 * carrying the dirty lines.
 */
void req__coh_bisnp(sim_comp *c, req *r, cxl_event *ev)
{
	cxl_packet *p = &ev->pkt;
	uint64_t first = p->addr / CXL_LINE;
	uint32_t dirty = 0;
	uint8_t flag = 0;
	uint16_t v = 0;

	CXL_ASSERT(p->pbr_dst == r->pbr && p->tag >= 1 && p->tag <= 4);
	cxl_grant(c, 0, CXL_VC_S2M_BISNP, 1);
	(*r->bisnp)++;
	for (uint64_t l = first; l < first + p->tag; l++) {
		enum hcache_state st = r->cached ? hcache_invalidate(&r->cache, l) : HCACHE_INVALID;
		*r->snoop_inval += st != HCACHE_INVALID;
		dirty += st == HCACHE_DIRTY;
		/* flag lines are PROG_FLAG_ALIGN apart: at most one per block */
		if (st == HCACHE_DIRTY && flagmap_get(&r->vals, l, &v))
			flag = (uint8_t)(CXL_PKT_FLAG | CXL_PKT_FLAG_AT(l - first));
		forget(r, l);
		for (uint32_t k = 0; k < r->queue; k++)
			if (r->slot[k].kind == REQ_ACCESS && r->slot[k].line == l)
				r->slot[k].snooped = 1;
	}
	p->pbr_dst = p->pbr_src;
	p->pbr_src = r->pbr;
	p->mclass = CXL_VC_M2S_BIRSP;
	p->opcode = CXL_OP_BIRSPI;
	p->size = (uint16_t)(dirty * CXL_LINE);
	p->flags = (uint8_t)((p->flags & ~(CXL_PKT_FLAG | CXL_PKT_FLAG_AT(3))) | flag);
	p->aux = flag ? v : 0;
	p->hops = 0;
	(*r->birsp_c)++;
	*r->birsp_dirty += dirty;
	sim_event_keep(c, ev);
	evring_push(&r->birsp, ev);
}

/* req__coh_finish - conservation counters and freeing. */
void req__coh_finish(sim_comp *c, req *r)
{
	*r->waiting_end = evring_free_all(c, &r->birsp) + r->wb_n;
	*r->cached_end = r->cache.nvalid;
	free(r->birsp_slots);
	free(r->wb_line);
	r->birsp_slots = NULL;
	r->wb_line = NULL;
	if (r->cached)
		hcache_free(&r->cache);
	flagmap_free(&r->vals);
	flagmap_free(&r->wb_busy);
	flagmap_free(&r->fill_busy);
}

/**
 * req__coh_ckpt - save or restore the coherence unit's state (core/ckpt.h):
 * the cache's contents (hcache_ckpt), the write-backs waiting to leave and
 * the BIRsps waiting for credits (kept events: ckpt_event).  Restoring,
 * the rings are rebuilt from their first entry; a checkpoint of a host
 * with(out) a cache restored on one without (with) it fails the visitor.
 */
void req__coh_ckpt(req *r, ckpt *k)
{
	uint8_t cached = (uint8_t)r->cached;

	ckpt_mark(k, 0x434f4845u, "requester cache"); /* "COHE" */
	CKPT(k, cached);
	if (ckpt_loading(k) && cached != r->cached) {
		ckpt_fail(k, "the checkpoint's requester %s a cache, this one %s",
			  cached ? "had" : "had no", r->cached ? "has" : "has none");
		return;
	}
	if (r->cached)
		hcache_ckpt(&r->cache, k);
	uint32_t n = ckpt_count(k, r->wb_n, r->queue);
	if (ckpt_loading(k)) {
		r->wb_head = 0;
		r->wb_n = n;
	}
	for (uint32_t i = 0; i < n; i++)
		CKPT(k, r->wb_line[(r->wb_head + i) % r->queue]);
	evring_ckpt(&r->birsp, k);
}
