/*
 * models/memory/mem.c - the memory endpoint (type-3 expander): a device controller
 * latency, then one of two DRAM models, then the response.
 *
 * Request path:  on_request() (CXL_EV_PKT) [-> mem__split() into parts]
 *                [-> DCOH] -> mem__to_dram(): controller latency -> DRAM
 *                -> respond() (MEM_EV_DONE) [-> mem__part_done()] -> mem__reply()
 *                -> drain() to the bus
 * The DCOH (snoop filter, HDM-DB) sits in on_request(), before the request
 * is handed to either DRAM model: both models start from mem__to_dram().
 *
 * Simple model (memory.dram.preset = "simple", the default): one of
 * `memory.channels` channels (device line L on channel L mod channels), each
 * serving one 64-byte line per 64 B / channel_GBps, then a fixed DRAM
 * latency:
 *   request arrives at t:  start = max(t + memory.latency, channel free)
 *                          channel free = start + service
 *                          response ready at start + service + dram_latency
 * Its timing is computed at arrival (one timer per request).
 *
 * Detailed model (a DDR preset): the request enters dram.c's per-channel
 * FR-FCFS queue memory.latency after it arrived and is answered when its
 * data burst ends (reads and writes alike).  Both models decode the host
 * address like a CXL HDM decoder: the requesters interleave lines over the
 * memory devices behind switches in PBR order with granularity
 * workload.interleave (req.c), so this device removes those interleave bits
 * (ways = memory devices behind switches, or 1 for a device wired straight
 * to a requester) and maps the resulting device line to channel, rank,
 * bank group, bank, row and column.  A request that finds its channel's
 * queue full waits in a FIFO per channel (bounded by the credits: 2 x
 * memory.buffer).  Each channel has at most one useful timer
 * (MEM_EV_DRAM, pkt.aux = channel) at dram_next_time(); a timer made stale
 * by an earlier one does a harmless no-op advance.
 *
 * Requests of several lines (cxl_proto.h: a MemRd with pkt.aux = n, a
 * MemWr with pkt.size = n x 64; n <= CXL_MAX_LINES, within one interleave
 * granule, asserted): split on arrival into n one-line parts (internal
 * requests, pkt.tag = the parent's slot).  With a DCOH the parts enter it
 * one at a time, the next when the one before goes on (so the DCOH holds
 * at most one part per request: its tables keep their bound); without one
 * all go on at once.  Each part then takes the one-line path (controller
 * latency, DRAM); the request is answered (one DRS of n x 64 bytes, or one
 * NDR) when its last part is done.  In the detailed model a request keeps
 * at most one part in the wait rings: a part that reaches the DRAM while
 * another of its request waits there is held (counted, its event freed)
 * and made again when that one enters the DRAM queue, so the wait rings'
 * bound holds too.  Parent slots: 2 x buffer x ports, the requests the
 * credits admit; nothing is allocated per request.  Latency: the parent's
 * time in the device is COH for the time its parts were held by the DCOH
 * (one after another, so the intervals add up without overlap: from its
 * arrival to its last part's release), MEMORY for the rest.  A request of
 * one line takes exactly the path it took before.
 *
 * Flag values (flagmap.h): a one-line MemWr carrying CXL_PKT_FLAG records
 * pkt.aux as its line's value when it goes to DRAM (after the DCOH); a
 * one-line MemRd takes its line's value, if any, into its DRS (CXL_PKT_FLAG,
 * pkt.aux) at the same point; a BIRsp's flag line is recorded when its
 * dirty data is written (dcoh_data_fn), before the request that waited for
 * it goes on.  NDRs and the DRS of several lines carry no value.
 *
 * Multi-headed devices (a memory node with several connections, each
 * straight to a requester: the pooled memory of cMPI): every head is a
 * port with its own credits and response queues; a response leaves on the
 * port its request came in on (ev->dst_port, kept through the self-sends);
 * the heads share the controller and the DRAM channels.
 *
 * Flow control (cxl_proto.h): `memory.buffer` credits per port and VC; a request's
 * slot is freed (its credit returned) when its response leaves, so the
 * buffer bounds the requests in the device.  Responses wait per VC for the
 * bus's credits, in order.
 *
 * Statistics: reads, writes (requests), read_lines, write_lines (the lines
 * they moved: equal to reads and writes with one-line requests; BIRsp
 * write-backs are not counted), queue_ps (simple: time waiting for a channel;
 * detailed: from entering the DRAM path to the RD/WR command, including
 * the wait for a queue slot, held parts too), busy_ps (channel data-transfer time, all
 * channels); detailed only: row_hits, row_misses, row_conflicts,
 * activates, precharges, refreshes (those issued up to each channel's last
 * activity: refresh is caught up lazily), read_bytes, write_bytes,
 * ch<N>_busy_ps per channel, and at the end queued_at_end (requests, or
 * parts of requests of several lines, still in the DRAM path); at the end responses_waiting and credits_held for
 * conservation checks.  With simulation.sample_period > 0, the time series
 * requests (reads and writes arrived per period; they add up to reads +
 * writes).
 */
#include "models/memory/mem.h"

#include "models/coherence/coh_check.h"
#include "models/coherence/dcoh.h"
#include "models/coherence/sf.h"

#include <stdio.h>

#include "core/xmalloc.h"
#include "models/proto/cxl_lat.h"
#include "models/proto/cxl_proto.h"
#include "models/memory/dram.h"
#include "models/memory/dram_cfg.h"
#include "models/memory/mem_int.h"
#include "models/proto/evring.h"
#include "models/proto/flagmap.h"
#include "models/fabric/fab_view.h"

static const char *const dc_names[DC_N] = {
	"row_hits", "row_misses", "row_conflicts", "activates", "precharges", "refreshes",
	"read_bytes", "write_bytes", "queued_at_end",
};

#define DRAM_TIMING_KEY(name, doc) \
	{ "memory.dram." name, CFG_INT, "0", "0", "10000000", NULL, doc " (nCK; 0 = the preset's)" }

static const cfg_key mem_keys[] = {
	{ "memory.latency", CFG_TIME, "40ns", "0ps", NULL, NULL,
	  "device controller latency (ESF Table III: 40 ns)" },
	{ "memory.dram_latency", CFG_TIME, "40ns", "0ps", NULL, NULL,
	  "simple DRAM model: fixed access latency after the channel's service" },
	{ "memory.channels", CFG_INT, "2", "1", "64", NULL,
	  "simple DRAM model: channels, lines interleaved over them" },
	{ "memory.channel_GBps", CFG_FLOAT, "25.6", "0.001", NULL, NULL,
	  "simple DRAM model: bandwidth of one channel, GB/s (25.6: DDR4-3200)" },
	{ "memory.buffer", CFG_INT, "32", "1", "4096", NULL,
	  "requests the device holds per VC (credits it grants)" },
	{ "memory.dram.preset", CFG_ENUM, "simple", NULL, NULL, "simple|DDR4-2400|DDR4-3200|DDR5-4800",
	  "DRAM model: simple (fixed latency + channel bandwidth) or a detailed DDR preset" },
	{ "memory.dram.channels", CFG_INT, "2", "1", "64", NULL,
	  "DDR: channels per device (DDR5: 32-bit subchannels, 2 per DIMM)" },
	{ "memory.dram.ranks", CFG_INT, "1", "1", "16", NULL, "DDR: ranks per channel" },
	{ "memory.dram.bankgroups", CFG_INT, "0", "0", "64", NULL,
	  "DDR: bank groups per rank (0 = the preset's: DDR4 4, DDR5 8)" },
	{ "memory.dram.banks", CFG_INT, "0", "0", "64", NULL,
	  "DDR: banks per bank group (0 = the preset's: 4)" },
	{ "memory.dram.rows", CFG_INT, "0", "0", "4294967295", NULL,
	  "DDR: rows per bank (0 = the preset's: 65536)" },
	{ "memory.dram.row_bytes", CFG_SIZE, "0B", "0B", "1MiB", NULL,
	  "DDR: row buffer per rank and channel, bytes, a multiple of 64 "
	  "(0 = the preset's: DDR4 8192, DDR5 4096)" },
	{ "memory.dram.page", CFG_ENUM, "open", NULL, NULL, "open|closed",
	  "DDR: row buffer policy (closed: precharge once no queued request wants the row)" },
	{ "memory.dram.queue", CFG_INT, "32", "1", "4096", NULL,
	  "DDR: requests in each channel's scheduler queue (FR-FCFS window)" },
	{ "memory.dram.mapping", CFG_STRING, "row:bank:rank:col:bg:ch", NULL, NULL, NULL,
	  "DDR: device line address fields, most significant first" },
	{ "memory.dram.starve", CFG_INT, "16", "0", "65535", NULL,
	  "DDR: FR-FCFS cap: younger requests served before the oldest is forced (0 = no cap)" },
	{ "memory.dram.refresh", CFG_BOOL, "true", NULL, NULL, NULL,
	  "DDR: all-bank refresh every tREFI (false: none, for peak measurements)" },
	{ "memory.dram.rate", CFG_INT, "0", "0", "20000", NULL,
	  "DDR: data rate, MT/s (0 = the preset's); timings stay in cycles" },
	DRAM_TIMING_KEY("tBL", "DDR: data burst"),
	DRAM_TIMING_KEY("tCL", "DDR: RD to data"),
	DRAM_TIMING_KEY("tCWL", "DDR: WR to data"),
	DRAM_TIMING_KEY("tRCD", "DDR: ACT to RD/WR"),
	DRAM_TIMING_KEY("tRP", "DDR: PRE to ACT"),
	DRAM_TIMING_KEY("tRAS", "DDR: ACT to PRE"),
	DRAM_TIMING_KEY("tRC", "DDR: ACT to ACT, same bank"),
	DRAM_TIMING_KEY("tWR", "DDR: end of write data to PRE"),
	DRAM_TIMING_KEY("tRTP", "DDR: RD to PRE"),
	DRAM_TIMING_KEY("tCCD_S", "DDR: column to column, other bank group"),
	DRAM_TIMING_KEY("tCCD_L", "DDR: RD to RD, same bank group"),
	DRAM_TIMING_KEY("tCCD_L_WR", "DDR: WR to WR, same bank group"),
	DRAM_TIMING_KEY("tRRD_S", "DDR: ACT to ACT, other bank group"),
	DRAM_TIMING_KEY("tRRD_L", "DDR: ACT to ACT, same bank group"),
	DRAM_TIMING_KEY("tFAW", "DDR: four-activate window"),
	DRAM_TIMING_KEY("tWTR_S", "DDR: end of write data to RD, other bank group"),
	DRAM_TIMING_KEY("tWTR_L", "DDR: end of write data to RD, same bank group"),
	DRAM_TIMING_KEY("tRTW", "DDR: RD to WR, same rank"),
	DRAM_TIMING_KEY("tRTRS", "DDR: rank-to-rank gap on the data bus"),
	DRAM_TIMING_KEY("tPPD", "DDR: PRE to PRE, same rank"),
	DRAM_TIMING_KEY("tRFC", "DDR: REF to ACT"),
	DRAM_TIMING_KEY("tREFI", "DDR: refresh interval"),
};

const cfg_schema cxl_memory_schema = {
	"memory", mem_keys, sizeof(mem_keys) / sizeof(mem_keys[0]),
};

/* --- the HDM decoder ------------------------------------------------------- */

/* The HDM decoder's interleave set: ways = memory devices behind switches. */
static void hdm_init(mem *m, const fab_view *v, uint32_t self, const cfg *cf)
{
	m->ilv = cfg_size(cf, "workload.interleave") / CXL_LINE;
	m->ways = 1;
	if (fab_view_peer_roles(v, self, 0) & FAB_ROLE_SWITCH)
		m->ways = fab_view_switched_targets(v);
}

/* Device line of host address @addr: the interleave bits removed. */
static uint64_t device_line(const mem *m, uint64_t addr)
{
	uint64_t l = addr / CXL_LINE;

	return l / m->ilv / m->ways * m->ilv + l % m->ilv;
}

/* The counters both models have, in registration order. */
static void register_counts(sim_comp *c, mem *m)
{
	m->reads = sim_stat_counter(c, "reads");
	m->writes = sim_stat_counter(c, "writes");
	m->queue_ps = sim_stat_counter(c, "queue_ps");
	m->busy_ps = sim_stat_counter(c, "busy_ps");
	m->read_lines = sim_stat_counter(c, "read_lines");
	m->write_lines = sim_stat_counter(c, "write_lines");
}

/* --- the simple model ------------------------------------------------------- */

static void simple_init(sim_comp *c, mem *m, const cfg *cf)
{
	m->dram_latency = cfg_time(cf, "memory.dram_latency");
	m->nch = (uint32_t)cfg_int(cf, "memory.channels");
	/* ps per line = 64 B / (GB/s) * 1000, rounded up */
	double ps = (double)CXL_LINE * 1000.0 / cfg_float(cf, "memory.channel_GBps");
	m->service = (sim_time)ps + ((double)(sim_time)ps < ps);
	m->ch_free = xcalloc(m->nch, sizeof(*m->ch_free));
	register_counts(c, m);
}

static void simple_request(sim_comp *c, mem *m, cxl_event *ev)
{
	uint32_t ch = (uint32_t)(device_line(m, ev->pkt.addr) % m->nch);
	sim_time ready = sim_now(c) + m->latency;
	sim_time start = ready > m->ch_free[ch] ? ready : m->ch_free[ch];

	m->ch_free[ch] = start + m->service;
	*m->queue_ps += start - ready;
	*m->busy_ps += m->service;
	ev->kind = MEM_EV_DONE;
	cxl_lat_add(&ev->pkt, CXL_LAT_MEMORY, start + m->service + m->dram_latency - sim_now(c));
	cxl_pkt_send_self(c, ev, start + m->service + m->dram_latency - sim_now(c));
}

/* --- the detailed model ----------------------------------------------------- */

static void detailed_init(sim_comp *c, mem *m, const dram_params *p)
{
	char name[32];

	m->dr = dram_create(p);
	m->nch = p->channels;
	m->wait = xcalloc(m->nch, sizeof(*m->wait));
	m->wait_slots = xmalloc((size_t)m->nch * m->wait_cap * sizeof(*m->wait_slots));
	m->timer_at = xmalloc(m->nch * sizeof(*m->timer_at));
	m->ch_busy = xmalloc(m->nch * sizeof(*m->ch_busy));
	for (uint32_t i = 0; i < m->nch; i++) {
		evring_init(&m->wait[i], m->wait_cap, m->wait_slots + (size_t)i * m->wait_cap);
		m->timer_at[i] = SIM_TIME_MAX;
	}
	register_counts(c, m);
	for (int i = 0; i < DC_N - 1; i++)
		m->dc[i] = sim_stat_counter(c, dc_names[i]);
	for (uint32_t i = 0; i < m->nch; i++) {
		snprintf(name, sizeof(name), "ch%u_busy_ps", i);
		m->ch_busy[i] = sim_stat_counter(c, name);
	}
	m->dc[DC_QUEUED] = sim_stat_counter(c, dc_names[DC_QUEUED]);
}

/* dram_issue_fn: a request's RD/WR issued; its response is ready at @done. */
static void on_issue(void *ctx, uint64_t tag, sim_time done)
{
	sim_comp *c = ctx;
	cxl_event *ev = (cxl_event *)(uintptr_t)tag;

	CXL_ASSERT(done >= sim_now(c));
	ev->kind = MEM_EV_DONE;
	cxl_lat_until(&ev->pkt, CXL_LAT_MEMORY, sim_now(c)); /* the DRAM queue */
	cxl_lat_add(&ev->pkt, CXL_LAT_MEMORY, done - sim_now(c));
	cxl_pkt_send_self(c, ev, done - sim_now(c));
}

static void wait_count(mem *m, sim_time now, int delta)
{
	m->wait_area += m->nwait * (now - m->wait_since);
	m->wait_since = now;
	m->nwait += (uint64_t)(int64_t)delta;
}

static void enqueue(sim_comp *c, mem *m, cxl_event *ev)
{
	dram_enqueue(m->dr, device_line(m, ev->pkt.addr), ev->pkt.mclass == CXL_VC_M2S_RWD,
		     sim_now(c), (uint64_t)(uintptr_t)ev);
}

/*
 * The part of parent @s that was in a wait ring has entered channel @from's
 * queue: the parent's next held part (if any) is made again and takes its
 * place in the wait ring of its channel, which is kicked (serviced next).
 */
static void release(sim_comp *c, mem *m, uint32_t s, uint32_t from)
{
	mem_parent *pa = &m->parent[s];

	CXL_ASSERT(pa->req && pa->in_wait);
	if (pa->queued == pa->ready) {
		pa->in_wait = 0;
		return;
	}
	cxl_event *ev = mem__part_new(c, m, s, pa->queued++);
	uint32_t ch = dram_channel_of(m->dr, device_line(m, ev->pkt.addr));
	evring_push(&m->wait[ch], ev);
	if (ch != from)
		m->kick |= 1ull << ch;
}

/* Issue channel @ch's commands up to now, refill its queue, re-arm its timer. */
static void service_one(sim_comp *c, mem *m, uint32_t ch)
{
	sim_time now = sim_now(c);

	dram_advance(m->dr, ch, now, on_issue, c);
	while (evring_peek(&m->wait[ch]) && !dram_full(m->dr, ch)) {
		cxl_event *ev = evring_pop(&m->wait[ch]);
		int part = mem__is_part(ev);
		uint32_t s = ev->pkt.tag;
		enqueue(c, m, ev);
		wait_count(m, now, -1);
		if (part)
			release(c, m, s, ch);
	}
	sim_time t = dram_next_time(m->dr, ch);
	if (t < m->timer_at[ch]) {
		cxl_event *tm = sim_event_new(c);
		tm->kind = MEM_EV_DRAM;
		tm->pkt.aux = (uint16_t)ch;
		m->timer_at[ch] = t;
		sim_send_self(c, tm, t - now);
	}
}

/*
 * Service channel @ch, then every channel a released part was pushed to
 * (service_one() kicks them), lowest first, until none is left.  With
 * requests of one line only this is service_one(@ch) alone.
 */
static void service(sim_comp *c, mem *m, uint32_t ch)
{
	m->kick |= 1ull << ch;
	while (m->kick) {
		for (uint32_t k = 0; k < m->nch; k++) {
			if (m->kick & (1ull << k)) {
				m->kick &= ~(1ull << k);
				service_one(c, m, k);
			}
		}
	}
}

/*
 * The request in @ev reaches the DRAM (after the controller latency).  A
 * part whose parent has another part in a wait ring is held instead (its
 * event freed: release() makes it again), so each request has at most one
 * event in the wait rings and their bound (wait_cap) holds for parts too.
 * Parts reach the DRAM in index order (each is sent the controller latency
 * after the one before went on), so the held ones are [queued, ready).
 */
static void arrive(sim_comp *c, mem *m, cxl_event *ev)
{
	uint32_t ch = dram_channel_of(m->dr, device_line(m, ev->pkt.addr));

	if (mem__is_part(ev)) {
		mem_parent *pa = &m->parent[ev->pkt.tag];
		CXL_ASSERT(pa->req && ev->pkt.addr / CXL_LINE ==
					      pa->req->pkt.addr / CXL_LINE + pa->ready);
		pa->ready++;
		if (pa->in_wait) {
			sim_event_free(c, ev);
			wait_count(m, sim_now(c), 1); /* held: waiting for a queue slot too */
			return;
		}
		pa->in_wait = 1;
		pa->queued++;
	}
	sim_event_keep(c, ev);
	evring_push(&m->wait[ch], ev);
	wait_count(m, sim_now(c), 1);
	service(c, m, ch);
}

static void on_timer(sim_comp *c, mem *m, const cxl_event *ev)
{
	uint32_t ch = ev->pkt.aux;

	CXL_ASSERT(ch < m->nch);
	if (m->timer_at[ch] == sim_now(c))
		m->timer_at[ch] = SIM_TIME_MAX;
	service(c, m, ch);
}

static void free_tag(void *ctx, uint64_t tag)
{
	sim_event_free(ctx, (cxl_event *)(uintptr_t)tag);
}

static void detailed_finish(sim_comp *c, mem *m)
{
	uint64_t queued = 0;

	for (uint32_t i = 0; i < m->nch; i++) {
		const dram_stats *s = dram_stats_get(m->dr, i);
		queued += dram_queued(m->dr, i) + evring_free_all(c, &m->wait[i]);
		*m->ch_busy[i] = dram_cycle_ps(m->dr, s->busy_cycles);
		*m->busy_ps += *m->ch_busy[i];
		*m->queue_ps += s->wait_ps;
		*m->dc[DC_HITS] += s->row_hits;
		*m->dc[DC_MISSES] += s->row_misses;
		*m->dc[DC_CONFLICTS] += s->row_conflicts;
		*m->dc[DC_ACTS] += s->activates;
		*m->dc[DC_PRES] += s->precharges;
		*m->dc[DC_REFS] += s->refreshes;
		*m->dc[DC_RBYTES] += s->reads * CXL_LINE;
		*m->dc[DC_WBYTES] += s->writes * CXL_LINE;
	}
	for (uint32_t s = 0; s < m->nparent; s++) /* parts held, not made again yet */
		if (m->parent[s].req)
			queued += (uint64_t)m->parent[s].ready - m->parent[s].queued;
	*m->queue_ps += m->wait_area;
	*m->dc[DC_QUEUED] = queued;
	dram_foreach_queued(m->dr, free_tag, c);
	dram_destroy(m->dr);
	free(m->wait);
	free(m->wait_slots);
	free(m->timer_at);
	free(m->ch_busy);
	m->dr = NULL;
}

/* --- the endpoint ----------------------------------------------------------- */

/* Keys of the simple model given with a DDR preset: an error (they would be ignored). */
static int check_simple_keys(const cfg *cf, cxl_err *err)
{
	static const char *const keys[] = { "memory.channels", "memory.channel_GBps",
					     "memory.dram_latency" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (cfg_is_set(cf, keys[i]))
			return cfg_error_at(cf, keys[i], err,
					    "applies to the simple DRAM model only (memory.dram.preset "
					    "is \"%s\"; see memory.dram.*)",
					    cfg_str(cf, "memory.dram.preset"));
	return 0;
}

static dcoh_go_fn dcoh_go;
static dcoh_data_fn dcoh_data;

static int mem_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	mem *m = state;
	uint32_t buf = (uint32_t)cfg_int(cf, "memory.buffer");
	dram_params p;
	int detailed;

	int rc = dram_cfg_read(cf, &p, &detailed, err);
	if (rc || (detailed && (rc = check_simple_keys(cf, err))))
		return rc;
	const fab_view *v = fab_view_of(c);
	CXL_ASSERT(v && c->nports >= 1);
	m->nports = c->nports;
	m->cr = xcalloc(m->nports, sizeof(*m->cr));
	m->peer_pbr = xmalloc(m->nports * sizeof(*m->peer_pbr));
	for (uint32_t p = 0; p < m->nports; p++)
		m->peer_pbr[p] = fab_view_peer_pbr(v, c->id, p);
	m->pbr = fab_view_pbr(v, c->id);
	m->latency = cfg_time(cf, "memory.latency");
	hdm_init(m, v, c->id, cf);
	if ((rc = dcoh_create(&m->coh, c, cf, m->pbr, m->cr, m->peer_pbr, m->nports, buf, dcoh_go,
			      dcoh_data, m, err)))
		return rc;
	int check = cfg_enum(cf, "memory.dcoh.check");
	if (check && sim_nranks(c) > 1)
		return cfg_error_at(cf, "memory.dcoh.check", err, "the checker reads every cache and "
				    "snoop filter, so it needs every component on one rank (run it "
				    "on 1 rank)");
	if (check)
		sim_set_hooks(c, check == 2 ? coh_check_now : NULL, coh_check_end);
	/* requests (2 x buffer; a request of several lines keeps at most one
	   part there, arrive()) and, with a DCOH, the dirty lines of BIRsps
	   (at most SF_BLOCK for each BISnp it may have out) */
	m->wait_cap = 2 * buf * m->nports * (m->coh ? 1 + SF_BLOCK * SF_MAX_OWNERS : 1);
	if (detailed) {
		detailed_init(c, m, &p);
	} else {
		simple_init(c, m, cf);
	}
	m->buffer = buf;
	m->slots = xmalloc(2 * (size_t)m->nports * buf * sizeof(*m->slots));
	m->resp = xmalloc(2 * (size_t)m->nports * sizeof(*m->resp));
	for (uint32_t k = 0; k < 2 * m->nports; k++)
		evring_init(&m->resp[k], buf, m->slots + (size_t)k * buf);
	m->waiting_end = sim_stat_counter(c, "responses_waiting");
	m->credits_end = sim_stat_counter(c, "credits_held");
	m->ts_requests = sim_series(c, "requests", SERIES_SUM);
	cxl_fc_init(&m->fc, c->nports, MEM_EV_FC_TIMER);
	cxl_fc_grant_all_ports(c, (uint16_t)buf);
	return 0;
}

/*
 * A one-line request from a requester goes to the DRAM: a write carrying
 * CXL_PKT_FLAG records its value for the line; a read takes the value its
 * line holds, if any, into its DRS (CXL_PKT_FLAG and pkt.aux; else neither).
 */
static void flag_value(mem *m, cxl_packet *p)
{
	uint64_t line = p->addr / CXL_LINE;
	uint16_t v;

	if (p->mclass == CXL_VC_M2S_RWD) {
		if (p->flags & CXL_PKT_FLAG)
			flagmap_set(&m->flagv, line, p->aux);
		return;
	}
	p->flags &= (uint8_t)~CXL_PKT_FLAG_MASK;
	p->aux = 0;
	if (flagmap_get(&m->flagv, line, &v)) {
		p->flags |= CXL_PKT_FLAG;
		p->aux = v;
	}
}

/* A request (or an internal write, or a part) goes on to the DRAM model. */
void mem__to_dram(sim_comp *c, mem *m, cxl_event *ev)
{
	cxl_lat_until(&ev->pkt, CXL_LAT_COH, sim_now(c)); /* what the DCOH held it for */
	if (!(ev->pkt.flags & MEM_PKT_INTERNAL))
		flag_value(m, &ev->pkt);
	if (!m->dr) {
		simple_request(c, m, ev);
		return;
	}
	ev->kind = MEM_EV_ARRIVE;
	cxl_lat_add(&ev->pkt, CXL_LAT_MEMORY, m->latency);
	cxl_pkt_send_self(c, ev, m->latency);
}

/*
 * dcoh_go_fn: the DCOH lets a request go on.  A part adds the time the DCOH
 * held it to its parent's, and the parent's next part may enter (after the
 * DCOH call in progress returns: mem__next_flush(); mem_parts.c).
 */
static void dcoh_go(sim_comp *c, void *owner, cxl_event *req)
{
	mem *m = owner;

	if (mem__is_part(req))
		mem__part_went_on(c, m, req);
	mem__to_dram(c, m, req);
}

/*
 * dcoh_data_fn: dirty lines from a BIRsp are written to DRAM, one by one;
 * a flag line among them (CXL_PKT_FLAG in @flags: line
 * CXL_PKT_FLAG_LINE(@flags) of the block) now holds @value, before the
 * request that waited for the BIRsp goes on.
 */
static void dcoh_data(sim_comp *c, void *owner, uint64_t addr, uint32_t lines, uint8_t flags,
		      uint16_t value)
{
	mem *m = owner;

	if (flags & CXL_PKT_FLAG)
		flagmap_set(&m->flagv, addr / CXL_LINE + CXL_PKT_FLAG_LINE(flags), value);
	for (uint32_t k = 0; k < lines; k++) {
		cxl_event *ev = sim_event_new(c);
		ev->pkt = (cxl_packet){ .addr = addr + (uint64_t)k * CXL_LINE, .size = CXL_LINE,
					.issue = sim_now(c), .tag = MEM_NO_PARENT,
					.pbr_src = m->pbr, .pbr_dst = m->pbr,
					.mclass = CXL_VC_M2S_RWD, .flags = MEM_PKT_INTERNAL };
		mem__to_dram(c, m, ev);
	}
}

static void on_request(sim_comp *c, mem *m, cxl_event *ev)
{
	int read = ev->pkt.mclass == CXL_VC_M2S_REQ;

	CXL_ASSERT(read || ev->pkt.mclass == CXL_VC_M2S_RWD);
	CXL_ASSERT(ev->pkt.pbr_dst == m->pbr);
	uint32_t n = mem__lines(&ev->pkt);
	(*(read ? m->reads : m->writes))++;
	*(read ? m->read_lines : m->write_lines) += n;
	series_add(m->ts_requests, sim_now(c), 1);
	if (n > 1)
		mem__split(c, m, ev, n);
	else if (m->coh)
		dcoh_request(m->coh, c, ev);
	else
		mem__to_dram(c, m, ev);
}

/* Send the oldest waiting responses while the buses have credits for them. */
static void drain(sim_comp *c, mem *m)
{
	for (uint32_t p = 0; p < m->nports; p++) {
		for (int k = 0; k < 2; k++) {
			evring *q = &m->resp[2 * p + k];
			while (evring_peek(q) &&
			       cxl_credit_has(c, &m->cr[p], (uint16_t)p, evring_peek(q)->pkt.mclass)) {
				cxl_event *ev = evring_pop(q);
				uint8_t vc = ev->pkt.mclass;
				m->cr[p].n[vc]--;
				uint8_t in = vc == CXL_VC_S2M_DRS ? CXL_VC_M2S_REQ : CXL_VC_M2S_RWD;
				uint16_t n = cxl_fc_owe(c, &m->fc, (uint16_t)p, in);
				if (n) /* 1, a full batch; 0: held, and rides on this response */
					cxl_grant_lazy(c, (uint16_t)p, in, n);
				cxl_lat_until(&ev->pkt, CXL_LAT_QUEUE, sim_now(c));
				cxl_fc_piggy(&m->fc, (uint16_t)p, ev);
				cxl_pkt_send_port(c, ev, (uint16_t)p, 0, CXL_LAT_LINK);
			}
		}
	}
}

/*
 * Turn the request of @lines lines in @ev into its response and queue it.
 * Only the DRS of a one-line read may carry a flag value (flag_value()).
 */
void mem__reply(sim_comp *c, mem *m, cxl_event *ev, uint32_t lines)
{
	cxl_packet *p = &ev->pkt;
	int read = p->mclass == CXL_VC_M2S_REQ;
	uint16_t src = p->pbr_src;

	p->pbr_src = p->pbr_dst;
	p->pbr_dst = src;
	p->mclass = read ? CXL_VC_S2M_DRS : CXL_VC_S2M_NDR;
	p->opcode = read ? CXL_OP_MEMDATA : CXL_OP_CMP;
	p->size = read ? (uint16_t)(lines * CXL_LINE) : 0;
	if (!read || lines > 1) {
		p->flags &= (uint8_t)~CXL_PKT_FLAG_MASK;
		p->aux = 0;
	}
	ev->kind = CXL_EV_PKT;
	sim_event_hold(c, ev); /* a request of several lines was kept already */
	CXL_ASSERT(ev->dst_port < m->nports); /* the port the request came in on */
	evring_push(&m->resp[2 * ev->dst_port + read], ev);
	drain(c, m);
}

/* A request, part or internal write has been served by the DRAM. */
static void respond(sim_comp *c, mem *m, cxl_event *ev)
{
	if (!(ev->pkt.flags & MEM_PKT_INTERNAL))
		mem__reply(c, m, ev, 1);
	else if (mem__is_part(ev))
		mem__part_done(c, m, ev);
	else
		sim_event_free(c, ev);
}

/* fc_send - cxl_fc_send_fn of the memory: held credits back over @port now. */
static void fc_send(sim_comp *c, void *state, uint16_t port, cxl_event *ev)
{
	(void)state;
	sim_send_port(c, ev, port, 0);
}

static void mem_event(sim_comp *c, void *state, cxl_event *ev)
{
	mem *m = state;

	switch (ev->kind) {
	case CXL_EV_PKT:
		if (cxl_fc_take(&m->cr[ev->dst_port], ev)) /* credits the packet carries */
			drain(c, m);
		if (ev->pkt.mclass == CXL_VC_M2S_BIRSP && m->coh)
			dcoh_birsp(m->coh, c, ev);
		else
			on_request(c, m, ev);
		mem__next_flush(c, m);
		break;
	case MEM_EV_ARRIVE:
		arrive(c, m, ev);
		break;
	case MEM_EV_DRAM:
		on_timer(c, m, ev);
		break;
	case MEM_EV_DONE:
		respond(c, m, ev);
		break;
	case MEM_EV_FC_TIMER:
		cxl_fc_timer(c, &m->fc, ev, fc_send, m);
		break;
	case CXL_EV_CREDIT:
		cxl_fc_on_grant(&m->fc, ev, m->buffer);
		cxl_credit_apply(&m->cr[ev->dst_port], ev);
		drain(c, m);
		if (m->coh)
			dcoh_drain(m->coh, c);
		break;
	default:
		CXL_PANIC("%s: unexpected event kind %u", c->name, ev->kind);
	}
	sim_lazy_recheck(c); /* a response may now wait for credits (mem_lazy_ok) */
}

/*
 * mem_lazy_ok - may the credit @l (lazy, core/sim_lazy.c) wait for the
 * memory's next event?  A credit runs drain (and the DCOH's): with no
 * response waiting on any port and no DCOH, it sends nothing whatever the
 * credit counts.
 */
static int mem_lazy_ok(const sim_comp *c, const void *state, const sim_lazy *l)
{
	const mem *m = state;

	(void)c;
	if (l->kind != CXL_EV_CREDIT || l->mclass >= CXL_NVC || m->coh)
		return 0;
	for (uint32_t q = 0; q < 2 * m->nports; q++)
		if (evring_peek(&m->resp[q]))
			return 0;
	return 1;
}

/* mem_lazy_absorb - a credit mem_lazy_ok let wait: only its count changes (-1: taken back). */
static void mem_lazy_absorb(sim_comp *c, void *state, const sim_lazy *l, int dir)
{
	mem *m = state;

	(void)c;
	cxl_credit_absorb(&m->cr[l->port], l, dir);
}

static void mem_finish(sim_comp *c, void *state)
{
	mem *m = state;

	dcoh_destroy(m->coh, c);
	m->coh = NULL;
	if (m->dr)
		detailed_finish(c, m);
	for (uint32_t k = 0; k < 2 * m->nports; k++)
		*m->waiting_end += evring_free_all(c, &m->resp[k]);
	for (uint32_t p = 0; p < m->nports; p++)
		*m->credits_end += cxl_credits_total(&m->cr[p]);
	mem__parts_free(c, m);
	cxl_fc_destroy(&m->fc);
	flagmap_free(&m->flagv);
	free(m->cr);
	free(m->peer_pbr);
	free(m->resp);
	free(m->ch_free);
	free(m->slots);
	m->ch_free = NULL;
	m->slots = NULL;
}

struct dcoh *mem_dcoh(const void *state)
{
	return ((const mem *)state)->coh;
}

const model_ops cxl_memory_ops = {
	.name = "memory",
	.cfg_groups = "memory",
	.state_size = sizeof(mem),
	.init = mem_init,
	.event = mem_event,
	.finish = mem_finish,
	.ckpt = mem__ckpt,
	.lazy_ok = mem_lazy_ok,
	.lazy_absorb = mem_lazy_absorb,
};
