/*
 * models/host/req.c - the requester (host or accelerator): issues CXL.mem reads
 * and writes into its port and measures their latency.
 *
 * Load is set by the two knobs of a loaded-latency sweep (ESF §III-D): the
 * request queue (at most `workload.queue` outstanding requests) and the
 * issue interval (at least `workload.issue_interval` between two issues,
 * or what an offered `workload.rate` gives: req_rate.c).
 * A request leaves `host.latency` after it is issued (ESF Table III
 * requester latency); its latency is measured from issue to the arrival of
 * its response (DRS for a read, NDR for a write).
 *
 * Addresses: requester with PBR id p works on lines [p*F, (p+1)*F) of
 * F = workload.footprint / 64 lines (lines [0, F) for every requester with
 * workload.shared); `stream` walks them in order,
 * `random` draws them uniformly, `hotcold` sends workload.hot_fraction of
 * the requests uniformly to the first workload.hot_footprint x F lines (the
 * hot set) and the rest uniformly to the others (ESF §V-B).  Line L goes to memory device
 * (L / (workload.interleave / 64)) mod M over the M memory devices it can
 * reach, in PBR order (every one behind its switch, or the one it is wired
 * to directly) - the address interleaving of ESF's address translation
 * unit.
 * Reads are drawn with probability workload.read_ratio.  Every draw comes
 * from the component's own stream, in issue order, so the request sequence
 * does not depend on timing or ranks.
 *
 * Flow control (cxl_proto.h): the requester grants `workload.queue`
 * credits per VC (room for the responses of its outstanding requests, so
 * responses always drain) and spends the bus's credits for requests.
 *
 * Caching and coherence (host.cache.*, BISnp/BIRsp): req_coh.c.  Hits
 * count as requests like the rest (their latency is the cache's).
 *
 * Measurement (models/host/README.md "Measurement"): the window runs from
 * simulation.warmup to simulation.end.  Nothing is issued at or after
 * simulation.end; requests in flight then are still answered (the run
 * drains, fab_sys.c), so the latency of every request issued inside the
 * window is measured, and throughput counts the data delivered inside it.
 *
 * Statistics: reads, writes, bytes (data bytes moved), lat_read_ps and
 * lat_write_ps histograms, lat_hops_NN histograms (latency of requests
 * whose round trip crossed NN buses), hops_sum (buses crossed), t_first_ps
 * / t_last_ps (first measured issue, last measured response) - all of the
 * requests issued inside the window and after the first `workload.warmup`
 * ones; window_bytes and window_completed (requests of any issue time
 * answered inside the window: the throughput), drained (answered after
 * simulation.end, so in flight at the window's end), t_done_ps (last
 * answer of any request), cut_by_end (1: simulation.end stopped it with
 * requests left), offered_interval_ps (the issue interval it tries to
 * keep; 0: as fast as it can); issued, completed, outstanding_at_end and
 * credits_held (finish) for conservation checks.  Where the time of the
 * measured requests went (models/proto/cxl_lat.h): lat_<category>_ps, and
 * lat_hops_NN_<category>_ps by hop count, sums over the requests (a cache
 * hit is all requester time); each request's categories add up to its
 * latency exactly (asserted on every response).
 * Time series (simulation.sample_period): register_series() below.
 */
#include "models/host/req.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/xmalloc.h"
#include "models/host/req_int.h"
#include "models/proto/cxl_lat.h"

/* Names of the hop-count histograms; longer round trips share "lat_hops_more". */
static const char *const hop_names[REQ_HOP_NAMES] = {
	"lat_hops_00", "lat_hops_02", "lat_hops_04", "lat_hops_06", "lat_hops_08", "lat_hops_10",
	"lat_hops_12", "lat_hops_14", "lat_hops_16", "lat_hops_18", "lat_hops_20", "lat_hops_22",
	"lat_hops_24", "lat_hops_26", "lat_hops_28", "lat_hops_30", "lat_hops_32", "lat_hops_34",
	"lat_hops_36", "lat_hops_38", "lat_hops_40", "lat_hops_42", "lat_hops_44", "lat_hops_46",
	"lat_hops_48", "lat_hops_50", "lat_hops_52", "lat_hops_54", "lat_hops_56", "lat_hops_58",
	"lat_hops_60", "lat_hops_62",
};

static const cfg_key host_keys[] = {
	{ "host.latency", CFG_TIME, "10ns", "0ps", NULL, NULL,
	  "requester latency added to every request it issues (ESF Table III: 10 ns)" },
};

static const cfg_key workload_keys[] = {
	{ "workload.pattern", CFG_ENUM, "random", NULL, NULL,
	  "stream|random|hotcold|trace|program|cmpi|rpc",
	  "address pattern: stream (sequential lines), random (uniform over the footprint), "
	  "hotcold (hot_fraction of requests uniform over the hot set, the rest over the cold), "
	  "trace (the accesses of workload.trace); or a host program (models/host/prog.h): "
	  "program (the operations of workload.program), cmpi (MPI over a shared pool, "
	  "workload.cmpi.*), rpc (remote procedure calls to a device, workload.rpc.*)" },
	{ "workload.trace", CFG_STRING, "", NULL, NULL, NULL,
	  "trace pattern: the .cxt file each requester replays; %d = its index among requesters" },
	{ "workload.replay", CFG_ENUM, "closed", NULL, NULL, "closed|timed",
	  "trace pattern: closed (as fast as the queue allows) or timed (not before each "
	  "record's time x workload.time_scale)" },
	{ "workload.time_scale", CFG_FLOAT, "1.0", "0", NULL, NULL,
	  "timed replay: factor on record times (0.5 replays twice as fast)" },
	{ "workload.trace_hosts", CFG_ENUM, "shared", NULL, NULL, "shared|each",
	  "trace pattern: shared (every requester replays the trace's addresses as they are: "
	  "one region for all, pooled or shared memory) or each (requester i's addresses "
	  "move by i x workload.trace_region: a region of its own; i as in workload.trace's %d)" },
	{ "workload.trace_region", CFG_SIZE, "0B", "0B", NULL, NULL,
	  "trace_hosts = each: bytes between two requesters' regions (a multiple of 64, "
	  "at least the trace's highest address + 1 for disjoint regions)" },
	{ "workload.hot_fraction", CFG_FLOAT, "0.9", "0", "1", NULL,
	  "hotcold: share of requests that go to the hot set" },
	{ "workload.hot_footprint", CFG_FLOAT, "0.1", "0", "1", NULL,
	  "hotcold: hot share of the footprint (at least one line)" },
	{ "workload.read_ratio", CFG_FLOAT, "1.0", "0", "1", NULL,
	  "probability that a request is a read (the rest are writes)" },
	{ "workload.requests", CFG_INT, "1000", "0", NULL, NULL,
	  "requests each requester issues" },
	{ "workload.warmup", CFG_INT, "0", "0", NULL, NULL,
	  "first requests of each requester left out of the latency statistics (throughput "
	  "counts from simulation.warmup)" },
	{ "simulation.warmup", CFG_TIME, "0ps", "0ps", NULL, NULL,
	  "the measurement window opens: requests issued before it are left out of latency, data "
	  "delivered before it out of throughput; the window closes at simulation.end" },
	{ "workload.queue", CFG_INT, "16", "1", "65535", NULL,
	  "outstanding requests per requester (request queue capacity)" },
	{ "workload.issue_interval", CFG_TIME, "0ps", "0ps", NULL, NULL,
	  "minimum time between two issues of one requester" },
	{ "workload.rate", CFG_STRING, "0", NULL, NULL, NULL,
	  "offered load of each requester, instead of issue_interval: bytes per second "
	  "(\"12.5GB/s\") or a share of the data bandwidth of its link (\"50%\"); \"0\": none "
	  "(req_rate.c)" },
	{ "workload.footprint", CFG_SIZE, "1MiB", "64B", NULL, NULL,
	  "bytes each requester touches (a multiple of 64)" },
	{ "workload.interleave", CFG_SIZE, "64B", "64B", NULL, NULL,
	  "address interleaving granularity across memory devices, bytes (a multiple of 64)" },
	{ "workload.shared", CFG_BOOL, "false", NULL, NULL, NULL,
	  "every requester works on the same lines (from address 0) instead of its own "
	  "range, so their caches share lines and the snoop filters see conflicts" },
};

const cfg_schema cxl_host_schema = { "host", host_keys, sizeof(host_keys) / sizeof(host_keys[0]) };
const cfg_schema cxl_workload_schema = {
	"workload", workload_keys, sizeof(workload_keys) / sizeof(workload_keys[0]),
};

static int check_lines(const cfg *cf, const char *path, cxl_err *err)
{
	if (cfg_size(cf, path) % CXL_LINE)
		return cfg_error_at(cf, path, err, "%llu is not a multiple of %d bytes",
				    (unsigned long long)cfg_size(cf, path), CXL_LINE);
	return 0;
}

static void register_stats(sim_comp *c, req *r)
{
	r->reads = sim_stat_counter(c, "reads");
	r->writes = sim_stat_counter(c, "writes");
	r->bytes = sim_stat_counter(c, "bytes");
	r->hops_sum = sim_stat_counter(c, "hops_sum");
	r->t_first = sim_stat_counter(c, "t_first_ps");
	r->t_last = sim_stat_counter(c, "t_last_ps");
	r->issued_c = sim_stat_counter(c, "issued");
	r->completed = sim_stat_counter(c, "completed");
	r->out_end = sim_stat_counter(c, "outstanding_at_end");
	r->credits_end = sim_stat_counter(c, "credits_held");
	r->win_bytes = sim_stat_counter(c, "window_bytes");
	r->win_done = sim_stat_counter(c, "window_completed");
	r->drained = sim_stat_counter(c, "drained");
	r->t_done = sim_stat_counter(c, "t_done_ps");
	r->cut = sim_stat_counter(c, "cut_by_end");
	r->offered_ps = sim_stat_counter(c, "offered_interval_ps");
	r->lat_read = sim_stat_hist(c, "lat_read_ps");
	r->lat_write = sim_stat_hist(c, "lat_write_ps");
	for (int k = 0; k < CXL_LAT_N; k++) {
		char name[64];
		snprintf(name, sizeof(name), "lat_%s_ps", cxl_lat_name((enum cxl_lat)k));
		r->bd[k] = sim_stat_counter(c, name);
	}
	r->bd_ovf = sim_stat_counter(c, "breakdown_overflow");
	if (r->ndevs) { /* only where there is a device to write to: other outputs unchanged */
		r->posted = sim_stat_counter(c, "posted_writes");
		r->posted_bytes = sim_stat_counter(c, "posted_bytes");
	}
}

/*
 * Time series (off unless simulation.sample_period > 0): per period the
 * accesses answered, their bytes, the sum and the largest of their
 * latencies (so the mean per requester), warm-up included, so warm-up and
 * saturation show; percentiles come from one latency histogram per period
 * shared by the rank's requesters (series.h), merged over all of them.
 */
static void register_series(sim_comp *c, req *r)
{
	r->ts_completed = sim_series(c, "completed", SERIES_SUM);
	r->ts_bytes = sim_series(c, "bytes", SERIES_SUM);
	r->ts_lat_sum = sim_series(c, "lat_sum_ps", SERIES_SUM);
	r->ts_lat_max = sim_series(c, "lat_max_ps", SERIES_MAX);
	r->ts_lat = sim_series_hist(c, "lat_ps");
}

/* An access issued at @issue is answered now: add it to the time series. */
static void series_done(const sim_comp *c, req *r, sim_time issue, uint16_t bytes)
{
	sim_time now = sim_now(c), lat = now - issue;

	if (!r->ts_completed)
		return;
	series_add(r->ts_completed, now, 1);
	series_add(r->ts_bytes, now, bytes);
	series_add(r->ts_lat_sum, now, lat);
	series_max(r->ts_lat_max, now, lat);
	series_hist_add(r->ts_lat, now, lat);
}

/* The memory devices reachable through the requester's one port. */
static void find_targets(sim_comp *c, req *r)
{
	r->targets = xmalloc((fab_view_ntargets(r->fv) + 1) * sizeof(*r->targets));
	r->ntargets = fab_view_targets(r->fv, c->id, r->targets);
	r->devs = xmalloc((fab_view_ndevices(r->fv) + 1) * sizeof(*r->devs));
	r->ndevs = fab_view_devices(r->fv, c->id, r->devs);
	if (r->ndevs > CXL_DEV_MAX)
		r->ndevs = CXL_DEV_MAX;
}

/* One latency histogram and breakdown per round-trip hop count of the targets. */
static void register_hops(sim_comp *c, req *r)
{
	char name[64];

	r->bd_hops = xcalloc(REQ_HOP_NAMES + 1, sizeof(*r->bd_hops));
	for (uint32_t t = 0; t < r->ntargets + r->ndevs; t++) {
		uint16_t pbr = t < r->ntargets ? r->targets[t] : r->devs[t - r->ntargets];
		uint32_t d = fab_view_route_len(r->fv, c->id, pbr);
		uint32_t k = d < REQ_HOP_NAMES ? d : REQ_HOP_NAMES;
		const char *hn = k < REQ_HOP_NAMES ? hop_names[k] : "lat_hops_more";
		if (r->by_hops[k])
			continue;
		r->by_hops[k] = sim_stat_hist(c, hn);
		for (int j = 0; j < CXL_LAT_N; j++) {
			snprintf(name, sizeof(name), "%s_%s_ps", hn, cxl_lat_name((enum cxl_lat)j));
			r->bd_hops[k][j] = sim_stat_counter(c, name);
		}
	}
}

static int req_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	req *r = state;
	int rc = check_lines(cf, "workload.footprint", err);

	if (rc || (rc = check_lines(cf, "workload.interleave", err)))
		return rc;
	r->fv = fab_view_of(c);
	CXL_ASSERT(r->fv && c->nports == 1);
	r->pbr = fab_view_pbr(r->fv, c->id);
	find_targets(c, r);
	r->requests = r->ntargets ? (uint64_t)cfg_int(cf, "workload.requests") : 0;
	r->warmup = (uint64_t)cfg_int(cf, "workload.warmup");
	r->warmup_time = cfg_time(cf, "simulation.warmup");
	r->end = cfg_time(cf, "simulation.end");
	r->queue = (uint32_t)cfg_int(cf, "workload.queue");
	r->pattern = cfg_enum(cf, "workload.pattern");
	r->read_ratio = cfg_float(cf, "workload.read_ratio");
	r->lines = cfg_size(cf, "workload.footprint") / CXL_LINE;
	r->ilv_lines = cfg_size(cf, "workload.interleave") / CXL_LINE;
	r->latency = cfg_time(cf, "host.latency");
	r->interval = cfg_time(cf, "workload.issue_interval");
	r->next_read = -1;
	r->hot_fraction = cfg_float(cf, "workload.hot_fraction");
	r->hot_lines = (uint64_t)((double)r->lines * cfg_float(cf, "workload.hot_footprint"));
	r->hot_lines = r->hot_lines ? r->hot_lines : 1;
	r->base = cfg_bool(cf, "workload.shared") ? 0 : (uint64_t)r->pbr * r->lines;
	if ((rc = req__rate_init(c, r, cf, err)))
		return rc;
	if (r->pattern == PAT_TRACE && r->ntargets && (rc = req__trace_init(c, r, cf, err)))
		return rc;
	if ((r->pattern == PAT_PROGRAM || r->pattern == PAT_CMPI || r->pattern == PAT_RPC) &&
	    (rc = req__prog_init(c, r, cf, err)))
		return rc; /* sets queue: slots for every process */
	r->slot = xcalloc(r->queue, sizeof(*r->slot));
	r->free_slot = xmalloc(r->queue * sizeof(*r->free_slot));
	for (uint32_t k = 0; k < r->queue; k++)
		r->free_slot[r->nfree++] = r->queue - 1 - k;
	register_stats(c, r);
	register_series(c, r);
	register_hops(c, r);
	*r->offered_ps = r->requests && r->pattern < PAT_TRACE ? r->interval : 0;
	if (!r->prog)
		sim_progress_work(c, &r->issued, r->requests);
	if ((rc = req__coh_init(c, r, cf, err)))
		return rc;
	cxl_fc_init(&r->fc, c->nports, REQ_EV_FC_TIMER);
	cxl_fc_grant_all_ports(c, (uint16_t)(r->queue > 65535 ? 65535 : r->queue));
	return 0;
}

/* req__slot_new - take a free slot for a transaction (one must be free). */
uint32_t req__slot_new(req *r, enum req_kind kind, uint64_t line, int write)
{
	CXL_ASSERT(r->nfree > 0 && r->outstanding < r->queue);
	uint32_t s = r->free_slot[--r->nfree];
	r->slot[s] = (req_slot){ .line = line, .kind = (uint8_t)kind, .write = (uint8_t)write,
				 .cached = (uint8_t)(r->cached && kind == REQ_ACCESS),
				 .bytes = CXL_LINE, .proc = REQ_NOPROC };
	r->outstanding++;
	return s;
}

/* req__line_count - the count @m holds for @line (0: none). */
uint16_t req__line_count(const flagmap *m, uint64_t line)
{
	uint16_t n = 0;

	return m->n && flagmap_get(m, line, &n) ? n : 0;
}

/*
 * req__slot_track - count slot @s in (@d = 1) or out of (-1) the lines in
 * flight of a host program: a write-back in wb_busy, a cached access in
 * fill_busy, so "is a transaction on this line in flight?" costs a lookup,
 * not a scan of every slot.  Other patterns track nothing.
 */
void req__slot_track(req *r, uint32_t s, int d)
{
	const req_slot *sl = &r->slot[s];
	flagmap *m = sl->kind == REQ_WRITEBACK ? &r->wb_busy :
		     sl->kind == REQ_ACCESS && sl->cached ? &r->fill_busy : NULL;

	if (!r->prog || !m)
		return;
	uint16_t n = (uint16_t)(req__line_count(m, sl->line) + d);
	if (n)
		flagmap_set(m, sl->line, n);
	else
		flagmap_del(m, sl->line);
}

/* req__slot_free - the transaction in slot @s is over. */
void req__slot_free(req *r, uint32_t s)
{
	CXL_ASSERT(s < r->queue && r->slot[s].kind != REQ_FREE && r->outstanding > 0);
	req__slot_track(r, s, -1);
	r->slot[s].kind = REQ_FREE;
	r->free_slot[r->nfree++] = s;
	r->outstanding--;
}

/**
 * req__send - send the request of slot @s on VC @vc (a credit for it was
 * checked and is spent here): @size payload bytes at @addr, @flags and
 * @aux as cxl_proto.h and flagmap.h define them.  It leaves host.latency
 * after now, to the device that homes @addr.
 */
void req__send(sim_comp *c, req *r, uint32_t s, uint8_t vc, uint64_t addr, uint16_t size,
	       uint8_t flags, uint16_t aux)
{
	cxl_event *ev = sim_event_new(c);
	int wr = vc == CXL_VC_M2S_RWD;

	CXL_ASSERT(r->cr.n[vc] > 0);
	r->cr.n[vc]--;
	ev->kind = CXL_EV_PKT;
	ev->pkt = (cxl_packet){
		.addr = addr, .issue = sim_now(c), .tag = s, .size = size, .pbr_src = r->pbr,
		.pbr_dst = req__home(r, addr / CXL_LINE), .mclass = vc,
		.opcode = wr ? CXL_OP_MEMWR : CXL_OP_MEMRD, .flags = flags, .aux = aux,
	};
	cxl_lat_add(&ev->pkt, CXL_LAT_REQUESTER, r->latency);
	cxl_fc_piggy(&r->fc, 0, ev);
	cxl_pkt_send_port(c, ev, 0, r->latency, CXL_LAT_LINK);
}

/*
 * req__home - PBR id of the memory device that holds @line (interleaving),
 * or of the device whose window it is in (devwin.h).
 */
uint16_t req__home(const req *r, uint64_t line)
{
	if (cxl_dev_is(line * CXL_LINE)) {
		uint32_t k = cxl_dev_index(line * CXL_LINE);
		if (k >= r->ndevs)
			CXL_PANIC("address 0x%llx is in the window of device %u; the requester "
				  "reaches %u devices", (unsigned long long)(line * CXL_LINE), k,
				  r->ndevs);
		return r->devs[k];
	}
	return r->targets[(line / r->ilv_lines) % r->ntargets];
}

/**
 * req__send_posted - a posted write to a device's BAR (@addr in the device
 * window): @size bytes carrying @aux (a doorbell's argument).  PCIe
 * memory writes are posted: it takes no slot and nothing answers it; it
 * needs only a credit (checked by the caller), and counts in posted_writes
 * and posted_bytes, not in the requests.
 */
void req__send_posted(sim_comp *c, req *r, uint64_t addr, uint16_t size, uint16_t aux)
{
	cxl_event *ev = sim_event_new(c);

	CXL_ASSERT(r->cr.n[CXL_VC_M2S_RWD] > 0 && cxl_dev_is(addr));
	r->cr.n[CXL_VC_M2S_RWD]--;
	(*r->posted)++;
	*r->posted_bytes += size;
	ev->kind = CXL_EV_PKT;
	ev->pkt = (cxl_packet){
		.addr = addr, .issue = sim_now(c), .tag = UINT32_MAX, .size = size,
		.pbr_src = r->pbr, .pbr_dst = req__home(r, addr / CXL_LINE),
		.mclass = CXL_VC_M2S_RWD, .opcode = CXL_OP_MEMWR, .aux = aux,
	};
	cxl_lat_add(&ev->pkt, CXL_LAT_REQUESTER, r->latency);
	cxl_fc_piggy(&r->fc, 0, ev);
	cxl_pkt_send_port(c, ev, 0, r->latency, CXL_LAT_LINK);
}

/*
 * Draw the kind and line of the next request (once per request, in order).
 * Return: 0 if there is none (the trace ended).
 */
static int draw_next(sim_comp *c, req *r)
{
	cxl_rng *g = sim_rng(c);

	if (r->pattern == PAT_TRACE)
		return req__trace_next(c, r);
	r->next_read = rng_uniform(g) < r->read_ratio;
	if (r->pattern == PAT_STREAM)
		r->next_line = r->issued % r->lines;
	else if (r->pattern == PAT_RANDOM || r->hot_lines >= r->lines)
		r->next_line = rng_below(g, r->lines);
	else if (rng_uniform(g) < r->hot_fraction)
		r->next_line = rng_below(g, r->hot_lines);
	else
		r->next_line = r->hot_lines + rng_below(g, r->lines - r->hot_lines);
	return 1;
}

/* Start the drawn access: a cache hit, or a request into the fabric. */
static void issue_one(sim_comp *c, req *r)
{
	uint64_t line = r->base + r->next_line;
	int read = r->next_read, hit = req__coh_access(c, r, line, read);

	if (!r->measuring && r->issued >= r->warmup && sim_now(c) >= r->warmup_time) {
		r->measuring = 1;
		*r->t_first = sim_now(c);
	}
	r->issued++;
	r->next_read = -1;
	r->next_issue = sim_now(c) + r->interval;
	(*r->issued_c)++;
	if (hit >= 0) {
		r->slot[hit].index = r->issued - 1;
		r->slot[hit].issue = sim_now(c);
		return;
	}
	/* with a cache a write fetches the line to own it: a read request */
	int rd = read || r->cached;
	uint32_t s = req__slot_new(r, REQ_ACCESS, line, !read);

	r->slot[s].index = r->issued - 1;
	r->slot[s].issue = sim_now(c);
	req__send(c, r, s, rd ? CXL_VC_M2S_REQ : CXL_VC_M2S_RWD, line * CXL_LINE,
		  rd ? 0 : CXL_LINE,
		  (uint8_t)(r->cached ? CXL_PKT_CACHED | (read ? 0 : CXL_PKT_EXCL) : 0), 0);
}

/* Issue while the window, the queue, the interval and the bus's credits allow. */
static void try_issue(sim_comp *c, req *r)
{
	if (r->prog) {
		req__prog_issue(c, r);
		return;
	}
	while (r->issued < r->requests && r->outstanding < r->queue && !r->wb_n) {
		if (sim_now(c) >= r->end)
			return; /* the window is over: drain */
		if (r->next_read < 0 && !draw_next(c, r)) {
			r->exhausted = 1; /* the trace ended */
			return;
		}
		if (sim_now(c) < r->next_issue) {
			if (!r->timer_armed) {
				cxl_event *t = sim_event_new(c);
				t->kind = REQ_EV_ISSUE;
				r->timer_armed = 1;
				sim_send_self(c, t, r->next_issue - sim_now(c));
			}
			return;
		}
		int rd = r->next_read || r->cached;
		uint64_t line = r->base + r->next_line;
		unsigned vc = rd ? CXL_VC_M2S_REQ : CXL_VC_M2S_RWD;
		if (!req__coh_hits(r, line, r->next_read) &&
		    (req__coh_blocked(r, line) || !cxl_credit_has(c, &r->cr, 0, vc)))
			return; /* a credit arrival or the write-back's answer retries */
		issue_one(c, r);
	}
}

/* Where the time of measured access @p (NULL: a cache hit) of latency @lat went. */
static void add_breakdown(req *r, const cxl_packet *p, uint32_t h, sim_time lat)
{
	if (!p) {
		*r->bd[CXL_LAT_REQUESTER] += lat;
		return;
	}
	if (p->flags & CXL_PKT_LATOVF) {
		(*r->bd_ovf)++;
		return;
	}
	for (int j = 0; j < CXL_LAT_N; j++) {
		*r->bd[j] += p->lat[j];
		*r->bd_hops[h][j] += p->lat[j];
	}
}

/* Access @k is answered (by memory, @p, or by the cache, @p NULL): measure it. */
static void complete(sim_comp *c, req *r, uint32_t k, const cxl_packet *p)
{
	uint8_t hops = p ? p->hops : 0;
	req_slot *s = &r->slot[k];
	sim_time now = sim_now(c);

	(*r->completed)++;
	*r->t_done = now;
	if (now >= r->warmup_time && now < r->end) {
		*r->win_bytes += s->bytes;
		(*r->win_done)++;
	}
	*r->drained += now >= r->end;
	series_done(c, r, s->issue, s->bytes);
	if (s->index >= r->warmup && s->issue >= r->warmup_time) {
		sim_time lat = sim_now(c) - s->issue;
		uint32_t h = hops / 2 < REQ_HOP_NAMES ? hops / 2 : REQ_HOP_NAMES;
		stats_hist_add(s->write ? r->lat_write : r->lat_read, lat);
		if (s->kind == REQ_ACCESS) {
			CXL_ASSERT(r->by_hops[h]);
			stats_hist_add(r->by_hops[h], lat);
		}
		add_breakdown(r, s->kind == REQ_ACCESS ? p : NULL, h, lat);
		(*(s->write ? r->writes : r->reads))++;
		*r->bytes += s->bytes;
		*r->hops_sum += hops;
		*r->t_last = sim_now(c);
	}
	if (s->proc != REQ_NOPROC)
		req__prog_done(c, r, s, p);
	req__slot_free(r, k);
}

static void on_response(sim_comp *c, req *r, const cxl_event *ev)
{
	const cxl_packet *p = &ev->pkt;

	CXL_ASSERT(p->pbr_dst == r->pbr && p->tag < r->queue);
	uint16_t n = cxl_fc_owe(c, &r->fc, 0, p->mclass); /* 1, a full batch, or 0: held */
	if (n)
		cxl_grant_lazy(c, 0, p->mclass, n);
	req_slot *s = &r->slot[p->tag];
	if (s->kind == REQ_WRITEBACK) {
		if (s->proc != REQ_NOPROC) /* a flush's */
			req__prog_done(c, r, s, p);
		req__slot_free(r, p->tag);
		return;
	}
	CXL_ASSERT(s->kind == REQ_ACCESS);
	if (p->mclass == CXL_VC_S2M_DRS && s->cached)
		req__coh_fill(c, r, s, p);
	cxl_lat_check(p, sim_now(c), 0); /* every ps since its issue is accounted */
	complete(c, r, p->tag, p);
}

/* fc_send - cxl_fc_send_fn of the requester: held credits back over @port now. */
static void fc_send(sim_comp *c, void *state, uint16_t port, cxl_event *ev)
{
	(void)state;
	sim_send_port(c, ev, port, 0);
}

/*
 * req_lazy_ok - may the credit @l (lazy, core/sim_lazy.c) wait for the
 * requester's next event?  After a credit the requester runs
 * req__coh_drain and try_issue; they send nothing, whatever the credit
 * counts, when no snoop answer waits and the queue is full, or no
 * write-back waits and the requests are all issued, the window is over at
 * @l's time, or the next request is drawn and its issue timer is armed
 * after @l's time.  Programs always take the event.  req_event rechecks
 * after every event (sim_lazy_recheck).
 */
static int req_lazy_ok(const sim_comp *c, const void *state, const sim_lazy *l)
{
	const req *r = state;

	(void)c;
	if (l->kind != CXL_EV_CREDIT || l->mclass >= CXL_NVC || r->prog ||
	    evring_peek(&r->birsp))
		return 0;
	if (r->outstanding >= r->queue)
		return 1;
	if (r->wb_n)
		return 0;
	return r->issued >= r->requests || l->time >= r->end ||
	       (r->next_read >= 0 && r->timer_armed && l->time < r->next_issue);
}

/* req_lazy_absorb - a credit req_lazy_ok let wait: only its count changes (-1: taken back). */
static void req_lazy_absorb(sim_comp *c, void *state, const sim_lazy *l, int dir)
{
	req *r = state;

	(void)c;
	cxl_credit_absorb(&r->cr, l, dir);
}

static void req_event(sim_comp *c, void *state, cxl_event *ev)
{
	req *r = state;

	switch (ev->kind) {
	case CXL_EV_PKT:
		cxl_fc_take(&r->cr, ev); /* credits the packet carries */
		if (ev->pkt.mclass == CXL_VC_S2M_BISNP)
			req__coh_bisnp(c, r, ev);
		else if (ev->pkt.mclass == CXL_VC_M2S_RWD && ev->pkt.opcode == CXL_OP_MSI)
			req__prog_msi(c, r, ev);
		else
			on_response(c, r, ev);
		break;
	case REQ_EV_HIT:
		complete(c, r, ev->pkt.tag, NULL);
		break;
	case CXL_EV_CREDIT:
		cxl_fc_on_grant(&r->fc, ev, r->queue > 65535 ? 65535 : r->queue);
		cxl_credit_apply(&r->cr, ev);
		break;
	case REQ_EV_FC_TIMER:
		cxl_fc_timer(c, &r->fc, ev, fc_send, r);
		break;
	case REQ_EV_ISSUE:
		r->timer_armed = 0;
		break;
	case REQ_EV_PROG:
		req__prog_timer(c, r, ev);
		break;
	case REQ_EV_IRQ:
		req__prog_irq(c, r, ev);
		break;
	default:
		CXL_PANIC("%s: unexpected event kind %u", c->name, ev->kind);
	}
	req__coh_drain(c, r);
	try_issue(c, r);
	sim_lazy_recheck(c); /* req_lazy_ok's answer may have changed */
}

static void req_finish(sim_comp *c, void *state)
{
	req *r = state;

	*r->out_end = r->outstanding;
	*r->credits_end = cxl_credits_total(&r->cr);
	*r->cut = r->prog ? req__prog_unfinished(r) : r->issued < r->requests && !r->exhausted;
	req__prog_finish(c, r);
	req__coh_finish(c, r);
	req__trace_finish(r);
	cxl_fc_destroy(&r->fc);
	free(r->targets);
	free(r->devs);
	free(r->bd_hops);
	free(r->slot);
	free(r->free_slot);
	r->targets = NULL;
	r->devs = NULL;
	r->slot = NULL;
	r->free_slot = NULL;
}

const model_ops cxl_host_ops = {
	.name = "host",
	.cfg_groups = "host workload",
	.state_size = sizeof(req),
	.init = req_init,
	.event = req_event,
	.finish = req_finish,
	.ckpt = req__ckpt,
	.lazy_ok = req_lazy_ok,
	.lazy_absorb = req_lazy_absorb,
};

const model_ops cxl_accel_ops = {
	.name = "accel",
	.cfg_groups = "host workload",
	.state_size = sizeof(req),
	.init = req_init,
	.event = req_event,
	.finish = req_finish,
	.ckpt = req__ckpt,
	.lazy_ok = req_lazy_ok,
	.lazy_absorb = req_lazy_absorb,
};
