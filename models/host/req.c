/*
 * models/host/req.c - the requester (host or accelerator): issues CXL.mem reads
 * and writes into its port and measures their latency.
 *
 * Load is set by the two knobs of a loaded-latency sweep (ESF §III-D): the
 * request queue (at most `workload.queue` outstanding requests) and the
 * issue interval (at least `workload.issue_interval` between two issues).
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
 * Statistics: reads, writes, bytes (data bytes moved), lat_read_ps and
 * lat_write_ps histograms, lat_hops_NN histograms (latency of requests
 * whose round trip crossed NN buses), hops_sum (buses crossed), t_first_ps
 * / t_last_ps (first measured issue, last measured response) - all after
 * the first `workload.warmup` requests and those issued before
 * `simulation.warmup` (both apply); issued, completed,
 * outstanding_at_end and credits_held (finish) for conservation checks.
 * Time series (simulation.sample_period): register_series() below.
 */
#include "models/host/req.h"

#include <stdlib.h>

#include "core/xmalloc.h"
#include "models/host/req_int.h"

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
	{ "workload.pattern", CFG_ENUM, "random", NULL, NULL, "stream|random|hotcold|trace",
	  "address pattern: stream (sequential lines), random (uniform over the footprint), "
	  "hotcold (hot_fraction of requests uniform over the hot set, the rest over the cold), "
	  "trace (the accesses of workload.trace)" },
	{ "workload.trace", CFG_STRING, "", NULL, NULL, NULL,
	  "trace pattern: the .cxt file each requester replays; %d = its index among requesters" },
	{ "workload.replay", CFG_ENUM, "closed", NULL, NULL, "closed|timed",
	  "trace pattern: closed (as fast as the queue allows) or timed (not before each "
	  "record's time x workload.time_scale)" },
	{ "workload.time_scale", CFG_FLOAT, "1.0", "0", NULL, NULL,
	  "timed replay: factor on record times (0.5 replays twice as fast)" },
	{ "workload.hot_fraction", CFG_FLOAT, "0.9", "0", "1", NULL,
	  "hotcold: share of requests that go to the hot set" },
	{ "workload.hot_footprint", CFG_FLOAT, "0.1", "0", "1", NULL,
	  "hotcold: hot share of the footprint (at least one line)" },
	{ "workload.read_ratio", CFG_FLOAT, "1.0", "0", "1", NULL,
	  "probability that a request is a read (the rest are writes)" },
	{ "workload.requests", CFG_INT, "1000", "0", NULL, NULL,
	  "requests each requester issues" },
	{ "workload.warmup", CFG_INT, "0", "0", NULL, NULL,
	  "first requests of each requester left out of the statistics" },
	{ "simulation.warmup", CFG_TIME, "0ps", "0ps", NULL, NULL,
	  "requests issued before this time are left out of the statistics (with workload.warmup)" },
	{ "workload.queue", CFG_INT, "16", "1", "65535", NULL,
	  "outstanding requests per requester (request queue capacity)" },
	{ "workload.issue_interval", CFG_TIME, "0ps", "0ps", NULL, NULL,
	  "minimum time between two issues of one requester" },
	{ "workload.footprint", CFG_INT, "1048576", "64", NULL, NULL,
	  "bytes each requester touches (a multiple of 64)" },
	{ "workload.interleave", CFG_INT, "64", "64", NULL, NULL,
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
	if (cfg_int(cf, path) % CXL_LINE)
		return cfg_error_at(cf, path, err, "%lld is not a multiple of %d bytes",
				    (long long)cfg_int(cf, path), CXL_LINE);
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
	r->lat_read = sim_stat_hist(c, "lat_read_ps");
	r->lat_write = sim_stat_hist(c, "lat_write_ps");
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
static void series_done(const sim_comp *c, req *r, sim_time issue)
{
	sim_time now = sim_now(c), lat = now - issue;

	if (!r->ts_completed)
		return;
	series_add(r->ts_completed, now, 1);
	series_add(r->ts_bytes, now, CXL_LINE);
	series_add(r->ts_lat_sum, now, lat);
	series_max(r->ts_lat_max, now, lat);
	series_hist_add(r->ts_lat, now, lat);
}

/* The memory devices reachable through the requester's one port. */
static void find_targets(sim_comp *c, req *r)
{
	r->targets = xmalloc((fab_view_ntargets(r->fv) + 1) * sizeof(*r->targets));
	r->ntargets = fab_view_targets(r->fv, c->id, r->targets);
}

/* One latency histogram per round-trip hop count of the targets. */
static void register_hops(sim_comp *c, req *r)
{
	for (uint32_t t = 0; t < r->ntargets; t++) {
		uint32_t d = fab_view_route_len(r->fv, c->id, r->targets[t]);
		uint32_t k = d < REQ_HOP_NAMES ? d : REQ_HOP_NAMES;
		if (!r->by_hops[k])
			r->by_hops[k] = sim_stat_hist(c, k < REQ_HOP_NAMES ? hop_names[k] : "lat_hops_more");
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
	r->queue = (uint32_t)cfg_int(cf, "workload.queue");
	r->pattern = cfg_enum(cf, "workload.pattern");
	r->read_ratio = cfg_float(cf, "workload.read_ratio");
	r->lines = (uint64_t)cfg_int(cf, "workload.footprint") / CXL_LINE;
	r->ilv_lines = (uint64_t)cfg_int(cf, "workload.interleave") / CXL_LINE;
	r->latency = cfg_time(cf, "host.latency");
	r->interval = cfg_time(cf, "workload.issue_interval");
	r->next_read = -1;
	r->hot_fraction = cfg_float(cf, "workload.hot_fraction");
	r->hot_lines = (uint64_t)((double)r->lines * cfg_float(cf, "workload.hot_footprint"));
	r->hot_lines = r->hot_lines ? r->hot_lines : 1;
	r->base = cfg_bool(cf, "workload.shared") ? 0 : (uint64_t)r->pbr * r->lines;
	if (r->pattern == PAT_TRACE && r->ntargets && (rc = req__trace_init(c, r, cf, err)))
		return rc;
	r->slot = xcalloc(r->queue, sizeof(*r->slot));
	r->free_slot = xmalloc(r->queue * sizeof(*r->free_slot));
	for (uint32_t k = 0; k < r->queue; k++)
		r->free_slot[r->nfree++] = r->queue - 1 - k;
	register_stats(c, r);
	register_series(c, r);
	register_hops(c, r);
	if ((rc = req__coh_init(c, r, cf, err)))
		return rc;
	cxl_grant_all_ports(c, (uint16_t)(r->queue > 65535 ? 65535 : r->queue));
	return 0;
}

/* req__slot_new - take a free slot for a transaction (one must be free). */
uint32_t req__slot_new(req *r, enum req_kind kind, uint64_t line, int write)
{
	CXL_ASSERT(r->nfree > 0 && r->outstanding < r->queue);
	uint32_t s = r->free_slot[--r->nfree];
	r->slot[s] = (req_slot){ .line = line, .kind = (uint8_t)kind, .write = (uint8_t)write };
	r->outstanding++;
	return s;
}

/* req__slot_free - the transaction in slot @s is over. */
void req__slot_free(req *r, uint32_t s)
{
	CXL_ASSERT(s < r->queue && r->slot[s].kind != REQ_FREE && r->outstanding > 0);
	r->slot[s].kind = REQ_FREE;
	r->free_slot[r->nfree++] = s;
	r->outstanding--;
}

/* req__home - PBR id of the memory device that holds @line (interleaving). */
uint16_t req__home(const req *r, uint64_t line)
{
	return r->targets[(line / r->ilv_lines) % r->ntargets];
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
	int read = r->next_read, hit = req__coh_access(c, r);

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
	uint8_t vc = rd ? CXL_VC_M2S_REQ : CXL_VC_M2S_RWD;
	uint32_t s = req__slot_new(r, REQ_ACCESS, line, !read);
	cxl_event *ev = sim_event_new(c);

	r->slot[s].index = r->issued - 1;
	r->slot[s].issue = sim_now(c);
	ev->kind = CXL_EV_PKT;
	ev->pkt = (cxl_packet){
		.addr = line * CXL_LINE, .issue = sim_now(c), .tag = s,
		.size = rd ? 0 : CXL_LINE, .pbr_src = r->pbr,
		.pbr_dst = req__home(r, line), .mclass = vc,
		.opcode = rd ? CXL_OP_MEMRD : CXL_OP_MEMWR,
		.flags = (uint8_t)(r->cached ? CXL_PKT_CACHED | (read ? 0 : CXL_PKT_EXCL) : 0),
	};
	r->cr.n[vc]--;
	sim_send_port(c, ev, 0, r->latency);
}

/* Issue while the queue, the interval and the bus's credits allow. */
static void try_issue(sim_comp *c, req *r)
{
	while (r->issued < r->requests && r->outstanding < r->queue && !r->wb_n) {
		if (r->next_read < 0 && !draw_next(c, r))
			return;
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
		if (!req__coh_hits(r) && (req__coh_blocked(r) ||
					  !r->cr.n[rd ? CXL_VC_M2S_REQ : CXL_VC_M2S_RWD]))
			return; /* a credit arrival or the write-back's answer retries */
		issue_one(c, r);
	}
}

/* Access @s is answered (by memory or by the cache): measure it. */
static void complete(sim_comp *c, req *r, uint32_t k, uint8_t hops)
{
	req_slot *s = &r->slot[k];

	(*r->completed)++;
	series_done(c, r, s->issue);
	if (s->index >= r->warmup && s->issue >= r->warmup_time) {
		sim_time lat = sim_now(c) - s->issue;
		uint32_t h = hops / 2 < REQ_HOP_NAMES ? hops / 2 : REQ_HOP_NAMES;
		stats_hist_add(s->write ? r->lat_write : r->lat_read, lat);
		if (s->kind == REQ_ACCESS) {
			CXL_ASSERT(r->by_hops[h]);
			stats_hist_add(r->by_hops[h], lat);
		}
		(*(s->write ? r->writes : r->reads))++;
		*r->bytes += CXL_LINE;
		*r->hops_sum += hops;
		*r->t_last = sim_now(c);
	}
	req__slot_free(r, k);
}

static void on_response(sim_comp *c, req *r, const cxl_event *ev)
{
	const cxl_packet *p = &ev->pkt;

	CXL_ASSERT(p->pbr_dst == r->pbr && p->tag < r->queue);
	cxl_grant(c, 0, p->mclass, 1);
	req_slot *s = &r->slot[p->tag];
	if (s->kind == REQ_WRITEBACK) {
		req__slot_free(r, p->tag);
		return;
	}
	CXL_ASSERT(s->kind == REQ_ACCESS);
	if (p->mclass == CXL_VC_S2M_DRS)
		req__coh_fill(c, r, s);
	complete(c, r, p->tag, p->hops);
}

static void req_event(sim_comp *c, void *state, cxl_event *ev)
{
	req *r = state;

	switch (ev->kind) {
	case CXL_EV_PKT:
		if (ev->pkt.mclass == CXL_VC_S2M_BISNP)
			req__coh_bisnp(c, r, ev);
		else
			on_response(c, r, ev);
		break;
	case REQ_EV_HIT:
		complete(c, r, ev->pkt.tag, 0);
		break;
	case CXL_EV_CREDIT:
		cxl_credit_apply(&r->cr, ev);
		break;
	case REQ_EV_ISSUE:
		r->timer_armed = 0;
		break;
	default:
		CXL_PANIC("%s: unexpected event kind %u", c->name, ev->kind);
	}
	req__coh_drain(c, r);
	try_issue(c, r);
}

static void req_finish(sim_comp *c, void *state)
{
	req *r = state;

	*r->out_end = r->outstanding;
	*r->credits_end = cxl_credits_total(&r->cr);
	req__coh_finish(c, r);
	req__trace_finish(r);
	free(r->targets);
	free(r->slot);
	free(r->free_slot);
	r->targets = NULL;
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
};

const model_ops cxl_accel_ops = {
	.name = "accel",
	.cfg_groups = "host workload",
	.state_size = sizeof(req),
	.init = req_init,
	.event = req_event,
	.finish = req_finish,
};
