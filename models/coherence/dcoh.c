/*
 * models/coherence/dcoh.c - the device coherency agent (contract in dcoh.h; the
 * snoop filter in sf.h; the messages in cxl_proto.h).
 *
 * A transaction is a request that waits for BIRsps: for its own line (a
 * conflict: `snp` = its line, the entry locked) or for victims (`snp` = the
 * first victim line, the victims locked by sf_victims()).  A BIRsp is
 * matched to the transaction whose BISnps covered its address; when the
 * last one is in, the snoop filter is updated and the request goes on.
 * Every BISnp this DCOH sends is answered by exactly one BIRsp (checked:
 * bisnp == birsp at the end, and no transaction open).
 *
 * Statistics: sf_hits, sf_misses, conflicts (requests that snooped other
 * owners first), evictions (victim blocks), evicted_lines, bisnp, birsp,
 * birsp_dirty_lines, snoop_wait_ps (time requests waited for BIRsps),
 * parked (requests that found their line busy), and at the end txns_open,
 * bisnp_waiting and sf_entries.
 */
#include "models/coherence/dcoh.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/xmalloc.h"
#include "models/coherence/dcoh_int.h"
#include "models/coherence/sf.h"
#include "models/proto/cxl_lat.h"
#include "models/proto/evring.h"

static const cfg_key dcoh_keys[] = {
	{ "memory.dcoh.entries", CFG_INT, "0", "0", "16777216", NULL,
	  "snoop filter entries of each device's DCOH (HDM-DB); 0: no DCOH (HDM-H)" },
	{ "memory.dcoh.assoc", CFG_INT, "0", "0", "65536", NULL,
	  "snoop filter ways per set; 0: fully associative (ESF's paper)" },
	{ "memory.dcoh.policy", CFG_ENUM, "fifo", NULL, NULL, "fifo|lru|lfi|lifo|mru",
	  "victim policy: first in, least recently used, least frequently inserted, "
	  "last in, most recently used" },
	{ "memory.dcoh.check", CFG_ENUM, "off", NULL, NULL, "off|end|events",
	  "check coherence invariants (models/coherence/coh_check.h) at the end of the run, or after "
	  "every event; needs 1 rank" },
	{ "memory.dcoh.invblk_max", CFG_INT, "1", "1", "4", NULL,
	  "longest InvBlk (contiguous lines one BISnp invalidates); > 1 selects the longest "
	  "run of contiguous entries as victims, ties to the last inserted" },
};

const cfg_schema cxl_dcoh_schema = {
	"memory.dcoh", dcoh_keys, sizeof(dcoh_keys) / sizeof(dcoh_keys[0]),
};

static void register_stats(dcoh *d, sim_comp *c)
{
	d->sf_hits = sim_stat_counter(c, "sf_hits");
	d->sf_misses = sim_stat_counter(c, "sf_misses");
	d->conflicts = sim_stat_counter(c, "conflicts");
	d->evictions = sim_stat_counter(c, "evictions");
	d->evicted_lines = sim_stat_counter(c, "evicted_lines");
	d->bisnp_c = sim_stat_counter(c, "bisnp");
	d->birsp_c = sim_stat_counter(c, "birsp");
	d->birsp_dirty = sim_stat_counter(c, "birsp_dirty_lines");
	d->wait_ps = sim_stat_counter(c, "snoop_wait_ps");
	d->parked_c = sim_stat_counter(c, "parked");
	d->open_end = sim_stat_counter(c, "txns_open");
	d->waiting_end = sim_stat_counter(c, "bisnp_waiting");
	d->entries_end = sim_stat_counter(c, "sf_entries");
}

/**
 * dcoh_create - see dcoh.h.
 */
int dcoh_create(dcoh **out, sim_comp *c, const cfg *cf, uint16_t pbr, cxl_credits *cr,
		const uint16_t *peer_pbr, uint32_t nports, uint32_t buffer, dcoh_go_fn *go,
		dcoh_data_fn *data, void *owner, cxl_err *err)
{
	sf_params p = {
		.entries = (uint32_t)cfg_int(cf, "memory.dcoh.entries"),
		.assoc = (uint32_t)cfg_int(cf, "memory.dcoh.assoc"),
		.policy = (enum sf_policy)cfg_enum(cf, "memory.dcoh.policy"),
		.invblk_max = (uint32_t)cfg_int(cf, "memory.dcoh.invblk_max"),
	};
	char why[64];

	*out = NULL;
	if (!p.entries)
		return 0;
	sf *s = sf_create(&p, why);
	if (!s)
		return cfg_error_at(cf, "memory.dcoh.entries", err, "%s", why);
	dcoh *d = xcalloc(1, sizeof(*d));
	*d = (dcoh){ .sf = s, .pbr = pbr, .cr = cr, .peer_pbr = peer_pbr, .nports = nports,
		     .go = go, .data = data, .owner = owner, .ntxn = 2 * buffer * nports };
	d->txn = xcalloc(d->ntxn, sizeof(*d->txn));
	d->parked = xmalloc(d->ntxn * sizeof(*d->parked));
	uint32_t nb = d->ntxn * SF_MAX_OWNERS;
	d->bisnp_slots = xmalloc(nb * sizeof(*d->bisnp_slots));
	evring_init(&d->bisnp, nb, d->bisnp_slots);
	register_stats(d, c);
	*out = d;
	return 0;
}

/* The port a message to requester @pbr leaves on. */
static uint16_t port_to(const dcoh *d, uint16_t pbr)
{
	for (uint32_t p = 1; p < d->nports; p++)
		if (d->peer_pbr[p] == pbr)
			return (uint16_t)p;
	return 0;
}

/* dcoh_drain - send waiting BISnps, in order, while the buses have credits. */
void dcoh_drain(dcoh *d, sim_comp *c)
{
	while (evring_peek(&d->bisnp)) {
		uint16_t p = port_to(d, evring_peek(&d->bisnp)->pkt.pbr_dst);
		if (!d->cr[p].n[CXL_VC_S2M_BISNP])
			return;
		cxl_event *ev = evring_pop(&d->bisnp);
		d->cr[p].n[CXL_VC_S2M_BISNP]--;
		cxl_lat_until(&ev->pkt, CXL_LAT_QUEUE, sim_now(c));
		cxl_pkt_send_port(c, ev, p, 0, CXL_LAT_LINK);
	}
}

/* Send a BISnp for @n lines from @line to requester @to. */
static void send_bisnp(dcoh *d, sim_comp *c, uint16_t to, uint64_t line, uint32_t n)
{
	cxl_event *ev = sim_event_new(c);

	ev->kind = CXL_EV_PKT;
	ev->pkt = (cxl_packet){
		.addr = line * CXL_LINE, .issue = sim_now(c), .tag = n, .pbr_src = d->pbr,
		.pbr_dst = to, .mclass = CXL_VC_S2M_BISNP, .opcode = CXL_OP_BISNPINV,
	};
	(*d->bisnp_c)++;
	evring_push(&d->bisnp, ev);
}

static dcoh_txn *txn_new(dcoh *d, sim_comp *c, cxl_event *req, uint64_t line)
{
	sim_event_hold(c, req);
	for (uint32_t i = 0; i < d->ntxn; i++)
		if (!d->txn[i].req) {
			d->txn[i] = (dcoh_txn){ .req = req, .line = line, .start = sim_now(c),
						.entry = SF_NONE };
			return &d->txn[i];
		}
	CXL_PANIC("%s: more than %u DCOH transactions", c->name, d->ntxn);
}

/* Is @line taken by a transaction (its entry locked, or a miss waiting for room)? */
static int busy(const dcoh *d, uint64_t line)
{
	uint32_t e = sf_find(d->sf, line);

	if (e != SF_NONE && sf_entry_at(d->sf, e)->locked)
		return 1;
	for (uint32_t i = 0; i < d->ntxn; i++)
		if (d->txn[i].req && d->txn[i].line == line)
			return 1;
	return 0;
}

/* Record @h as an owner of entry @e (exclusively if @excl). */
static void own(dcoh *d, uint32_t e, uint16_t h, int excl)
{
	sf_entry *en = sf_entry_at(d->sf, e);

	/* the sole exclusive owner asking again (a read behind its own write
	   miss) stays exclusive: it may hold the line dirty */
	if (en->excl && en->nowners == 1 && en->owner[0] == h)
		excl = 1;
	if (excl) {
		while (en->nowners)
			sf_drop_owner(d->sf, e, en->owner[en->nowners - 1]);
	}
	if (!sf_add_owner(d->sf, e, h))
		CXL_PANIC("snoop filter: no room for another owner of line %llu",
			  (unsigned long long)en->line);
	en->excl = (uint8_t)excl;
}

/*
 * The owners of entry @e that request (@h, @flags) must snoop first, into
 * @out; returns how many.
 */
static uint32_t conflicting(dcoh *d, uint32_t e, uint16_t h, unsigned flags, int write,
			    uint16_t *out)
{
	const sf_entry *en = sf_entry_at(d->sf, e);
	uint32_t n = 0;
	int all = write || (flags & CXL_PKT_EXCL) ||
		  ((flags & CXL_PKT_CACHED) && en->nowners >= SF_MAX_OWNERS);

	for (uint32_t k = 0; k < en->nowners; k++)
		if (en->owner[k] != h && (all || en->excl))
			out[n++] = en->owner[k];
	return n;
}

static void process(dcoh *d, sim_comp *c, cxl_event *req);

/* The last BIRsp of @t is in: update the filter, let its request go. */
static void txn_done(dcoh *d, sim_comp *c, dcoh_txn *t)
{
	cxl_event *req = t->req;

	*d->wait_ps += sim_now(c) - t->start;
	for (uint32_t k = 0; k < t->nvictim; k++)
		sf_remove(d->sf, t->victim[k]);
	if (t->entry != SF_NONE) {
		sf_entry *en = sf_entry_at(d->sf, t->entry);
		uint16_t keep = req->pkt.pbr_src;
		for (uint32_t k = en->nowners; k-- > 0;)
			if (en->owner[k] != keep)
				sf_drop_owner(d->sf, t->entry, en->owner[k]);
		en->excl = 0;
		sf_unlock(d->sf, t->entry);
	}
	t->req = NULL;
	process(d, c, req);
	/* retry parked requests in arrival order: each may now go or wait */
	uint32_t n = d->nparked;
	d->nparked = 0;
	for (uint32_t i = 0; i < n; i++)
		process(d, c, d->parked[i]);
}

/* Snoop @n owners of line @line's entry @e before @req goes on. */
static void snoop_conflict(dcoh *d, sim_comp *c, cxl_event *req, uint32_t e,
			   const uint16_t *who, uint32_t n)
{
	dcoh_txn *t = txn_new(d, c, req, req->pkt.addr / CXL_LINE);

	t->snp = t->line;
	t->entry = e;
	t->waiting = n;
	sf_lock(d->sf, e);
	(*d->conflicts)++;
	for (uint32_t k = 0; k < n; k++)
		send_bisnp(d, c, who[k], t->line, 1);
}

/*
 * Make room for @line by evicting victims; @req waits for their BIRsps.
 * Return: 0 if every entry of the set is locked (the caller parks @req).
 */
static int evict(dcoh *d, sim_comp *c, cxl_event *req, uint64_t line)
{
	uint32_t v[SF_BLOCK], n = sf_victims(d->sf, line, v);
	uint16_t who[SF_BLOCK * SF_MAX_OWNERS];
	uint32_t nwho = 0;

	if (!n)
		return 0;
	for (uint32_t k = 0; k < n; k++) {
		const sf_entry *en = sf_entry_at(d->sf, v[k]);
		for (uint32_t o = 0; o < en->nowners; o++) {
			uint32_t j = 0;
			while (j < nwho && who[j] != en->owner[o])
				j++;
			if (j == nwho)
				who[nwho++] = en->owner[o];
		}
	}
	(*d->evictions)++;
	*d->evicted_lines += n;
	if (!nwho) { /* ownerless entries (cannot happen: kept for safety) */
		for (uint32_t k = 0; k < n; k++)
			sf_remove(d->sf, v[k]);
		process(d, c, req);
		return 1;
	}
	dcoh_txn *t = txn_new(d, c, req, line);
	t->nvictim = n;
	t->snp = sf_entry_at(d->sf, v[0])->line;
	for (uint32_t k = 0; k < n; k++)
		t->victim[k] = v[k];
	t->waiting = nwho;
	for (uint32_t j = 0; j < nwho; j++)
		send_bisnp(d, c, who[j], t->snp, n);
	return 1;
}

/* @req waits for its line (or set) to be free; retried when a transaction ends. */
static void park(dcoh *d, sim_comp *c, cxl_event *req)
{
	if (d->nparked == d->ntxn)
		CXL_PANIC("%s: more than %u parked DCOH requests", c->name, d->ntxn);
	sim_event_hold(c, req);
	d->parked[d->nparked++] = req;
	(*d->parked_c)++;
}

/* Decide what request @req needs (see dcoh.h) and let it go or wait. */
static void process(dcoh *d, sim_comp *c, cxl_event *req)
{
	const cxl_packet *p = &req->pkt;
	uint64_t line = p->addr / CXL_LINE;
	int write = p->mclass == CXL_VC_M2S_RWD, cached = (p->flags & CXL_PKT_CACHED) != 0;
	uint16_t who[SF_MAX_OWNERS];

	if (write && (p->flags & CXL_PKT_WB)) {
		/* a write-back: its owner gives the line up, nobody is snooped */
		uint32_t e = sf_find(d->sf, line);
		if (e != SF_NONE && !sf_entry_at(d->sf, e)->locked) {
			sf_drop_owner(d->sf, e, p->pbr_src);
			if (!sf_entry_at(d->sf, e)->nowners)
				sf_remove(d->sf, e);
		}
		d->go(c, d->owner, req);
		return;
	}
	if (busy(d, line)) {
		park(d, c, req);
		return;
	}
	uint32_t e = sf_find(d->sf, line);
	if (e != SF_NONE) {
		sf_touch(d->sf, e);
		uint32_t n = conflicting(d, e, p->pbr_src, p->flags, write, who);
		if (n) {
			snoop_conflict(d, c, req, e, who, n);
			return;
		}
		if (cached)
			own(d, e, p->pbr_src, (p->flags & CXL_PKT_EXCL) != 0);
		else if (!sf_entry_at(d->sf, e)->nowners)
			sf_remove(d->sf, e);
		d->go(c, d->owner, req);
		return;
	}
	if (!cached) {
		d->go(c, d->owner, req);
		return;
	}
	e = sf_insert(d->sf, line);
	if (e != SF_NONE) {
		own(d, e, p->pbr_src, (p->flags & CXL_PKT_EXCL) != 0);
		d->go(c, d->owner, req);
		return;
	}
	if (!evict(d, c, req, line))
		park(d, c, req);
}

/**
 * dcoh_request - see dcoh.h.  sf_hits and sf_misses count each request
 * once, by whether its line had an entry when it arrived.
 */
void dcoh_request(dcoh *d, sim_comp *c, cxl_event *req)
{
	(*(sf_find(d->sf, req->pkt.addr / CXL_LINE) != SF_NONE ? d->sf_hits : d->sf_misses))++;
	process(d, c, req);
	dcoh_drain(d, c);
}

/**
 * dcoh_birsp - see dcoh.h.  Panics on a BIRsp no transaction waits for:
 * every BISnp is answered exactly once.
 */
void dcoh_birsp(dcoh *d, sim_comp *c, cxl_event *ev)
{
	const cxl_packet *p = &ev->pkt;
	uint64_t line = p->addr / CXL_LINE;
	uint32_t dirty = p->size / CXL_LINE;

	CXL_ASSERT(p->mclass == CXL_VC_M2S_BIRSP && p->pbr_dst == d->pbr);
	cxl_grant(c, ev->dst_port, CXL_VC_M2S_BIRSP, 1);
	(*d->birsp_c)++;
	*d->birsp_dirty += dirty;
	/* a flag line's value names a line of the block the BISnp covered */
	CXL_ASSERT(!(p->flags & CXL_PKT_FLAG) || CXL_PKT_FLAG_LINE(p->flags) < p->tag);
	if (dirty || (p->flags & CXL_PKT_FLAG))
		d->data(c, d->owner, p->addr, dirty, p->flags & CXL_PKT_FLAG_MASK, p->aux);
	for (uint32_t i = 0; i < d->ntxn; i++) {
		dcoh_txn *t = &d->txn[i];
		if (t->req && t->waiting && t->snp == line) {
			if (!--t->waiting)
				txn_done(d, c, t);
			dcoh_drain(d, c);
			return;
		}
	}
	CXL_PANIC("%s: BIRsp from PBR id %u for line %llu that no BISnp asked for", c->name,
		  p->pbr_src, (unsigned long long)line);
}

struct sf *dcoh_sf(const dcoh *d)
{
	return d->sf;
}

void dcoh_counts(const dcoh *d, uint64_t *bisnp, uint64_t *birsp, uint64_t *open)
{
	*bisnp = *d->bisnp_c;
	*birsp = *d->birsp_c;
	*open = d->nparked;
	for (uint32_t i = 0; i < d->ntxn; i++)
		*open += d->txn[i].req != NULL;
}

/**
 * dcoh_destroy - see dcoh.h; @d may be NULL.
 */
void dcoh_destroy(dcoh *d, sim_comp *c)
{
	if (!d)
		return;
	uint64_t open = d->nparked;
	for (uint32_t i = 0; i < d->ntxn; i++)
		open += d->txn[i].req != NULL;
	*d->open_end = open;
	*d->waiting_end = evring_free_all(c, &d->bisnp);
	*d->entries_end = sf_count(d->sf);
	sf_destroy(d->sf);
	free(d->txn);
	free(d->parked);
	free(d->bisnp_slots);
	free(d);
}
