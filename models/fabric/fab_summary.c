/*
 * models/fabric/fab_summary.c - the `summary` section of a fabric run (design §1
 * binding keys), from the merged statistics table only (so it is
 * byte-identical for any rank count):
 *
 *   requests, reads, writes     measured requests: issued inside the
 *                               measurement window (fab_window.c), after
 *                               each requester's first workload.warmup
 *   bytes                       their data bytes (64 per request)
 *   bandwidth_GBps              data delivered inside the window / its
 *                               length (fab_window.c), over all requesters
 *   window, in_flight_at_end,   the window and what it left in flight, the
 *   unanswered, offered_GBps,   offered load and the throughput's share of
 *   offered_fraction,           it, per-requester throughput, warnings
 *   requester_GBps, warnings    (fab_window.c)
 *   latency_ns                  {mean, p50, p99, max} of every measured request,
 *   latency_breakdown_ns        where that time went (models/proto/cxl_lat.h):
 *                               the mean per request of each category; they
 *                               add up to latency_ns.mean (each request's
 *                               categories add up to its latency exactly);
 *                               breakdown_overflow counts requests left out
 *   read, write                 and the same per kind ({requests, latency_ns})
 *   hops_mean                   buses crossed per request, both ways
 *   latency_by_hops             {"<buses crossed, both ways>": {requests,
 *                               latency_ns, breakdown_ns}} (ESF Fig. 11)
 *   issued, completed           all requests, warm-up included (conservation)
 *   buses                       {utility_mean, utility_max, efficiency}: ESF's
 *                               bus utility (busy / elapsed, per transmitter:
 *                               each direction in full duplex, the bus in half)
 *                               and transmission efficiency (payload / wire
 *                               bytes), over every bus direction that moved
 *                               data; elapsed = time 0 to the last
 *                               measured response (bus counters include
 *                               warm-up traffic, so the span starts at 0)
 *   cache                       {hits, misses, writebacks} of the requesters'
 *                               caches (only when some requester has one)
 *   bisnp, birsp, sf_evictions, over the DCOHs (only when some device has
 *   sf_conflicts                one): BISnps sent, BIRsps received, victim
 *                               blocks evicted, requests that snooped owners
 *
 * Resolution: mean and max are exact; p50 and p99 are histogram quantiles
 * with 3 significant digits, within 1/2048 of the exact order statistic
 * (exact below 1024 ps; core/stats.h).
 */
#include "models/fabric/fab_int.h"
#include "models/fabric/fab_sum_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"

static void latency(json_w *w, const stats_hist *h);
static void add_breakdown(fab_totals *t, const stats_comp *c);

/* The hop class of a "lat_hops_NN..." or "lat_hops_more..." name, from its 10th character. */
static unsigned hop_class(const char *rest)
{
	unsigned k = strncmp(rest, "more", 4) ? (unsigned)atoi(rest) / 2 : FAB_SUM_HOPS;

	return k < FAB_SUM_HOPS ? k : FAB_SUM_HOPS;
}

/* fab__roles_of - the roles of component @id's kind (by its model; 0 for a model of no kind). */
unsigned fab__roles_of(const sim_graph *g, uint32_t id)
{
	uint32_t k = fab_kind_of_ops(g->comp[id].ops);

	return k == UINT32_MAX ? 0 : fab_kinds[k].roles;
}

/* fab__counter - counter @name of component @c; 0 if it has none. */
uint64_t fab__counter(const stats_comp *c, const char *name)
{
	const stats_entry *e = stats_get(c, name);

	return e && e->kind == STATS_COUNTER ? *e->value : 0;
}

static void merge_hist(stats_hist *dst, const stats_comp *c, const char *name)
{
	const stats_entry *e = stats_get(c, name);

	if (e && e->kind == STATS_HIST)
		stats_hist_merge(dst, &e->h);
}

static void add_requester(fab_totals *t, const stats_comp *c)
{
	t->reads += fab__counter(c, "reads");
	t->writes += fab__counter(c, "writes");
	t->bytes += fab__counter(c, "bytes");
	t->hops_sum += fab__counter(c, "hops_sum");
	t->issued += fab__counter(c, "issued");
	t->completed += fab__counter(c, "completed");
	if (fab__counter(c, "reads") + fab__counter(c, "writes")) {
		uint64_t f = fab__counter(c, "t_first_ps"), l = fab__counter(c, "t_last_ps");
		t->t_first = f < t->t_first ? f : t->t_first;
		t->t_last = l > t->t_last ? l : t->t_last;
	}
	merge_hist(&t->rd, c, "lat_read_ps");
	merge_hist(&t->wr, c, "lat_write_ps");
	add_breakdown(t, c);
	for (size_t i = 0; i < c->n; i++) {
		const stats_entry *e = c->e[i];
		if (e->kind != STATS_HIST || strncmp(e->name, "lat_hops_", 9))
			continue;
		stats_hist_merge(&t->hops[hop_class(e->name + 9)], &e->h);
	}
}

/* The breakdown counters of requester @c: lat_<cat>_ps, lat_hops_NN_<cat>_ps. */
static void add_breakdown(fab_totals *t, const stats_comp *c)
{
	char name[64];

	for (int j = 0; j < CXL_LAT_N; j++) {
		snprintf(name, sizeof(name), "lat_%s_ps", cxl_lat_name((enum cxl_lat)j));
		t->bd[j] += fab__counter(c, name);
	}
	t->bd_ovf += fab__counter(c, "breakdown_overflow");
	for (size_t i = 0; i < c->n; i++) {
		const stats_entry *e = c->e[i];
		if (e->kind != STATS_COUNTER || strncmp(e->name, "lat_hops_", 9))
			continue;
		const char *cat = strchr(e->name + 9, '_');
		for (int j = 0; cat && j < CXL_LAT_N; j++) {
			snprintf(name, sizeof(name), "_%s_ps", cxl_lat_name((enum cxl_lat)j));
			if (!strcmp(cat, name))
				t->bd_hops[hop_class(e->name + 9)][j] += *e->value;
		}
	}
}

/* A breakdown object: the mean per request of each category, ns. */
static void breakdown(json_w *w, const char *key, const uint64_t *bd, uint64_t n)
{
	json_key(w, key);
	json_obj_inline(w);
	for (int j = 0; j < CXL_LAT_N; j++)
		json_kv_dbl(w, cxl_lat_name((enum cxl_lat)j), n ? (double)bd[j] / (double)n / 1e3 : 0.0);
	json_end(w);
}

/* latency_by_hops: {"<round-trip buses>": {requests, latency_ns}, ...}, ascending. */
static void by_hops(json_w *w, const fab_totals *t)
{
	char key[16];

	json_key(w, "latency_by_hops");
	json_obj(w);
	for (unsigned k = 0; k <= FAB_SUM_HOPS; k++) {
		if (!t->hops[k].count)
			continue;
		if (k < FAB_SUM_HOPS)
			snprintf(key, sizeof(key), "%u", 2 * k);
		else
			snprintf(key, sizeof(key), "more");
		json_key(w, key);
		json_obj_inline(w);
		json_kv_u64(w, "requests", t->hops[k].count);
		latency(w, &t->hops[k]);
		breakdown(w, "breakdown_ns", t->bd_hops[k], t->hops[k].count);
		json_end(w);
	}
	json_end(w);
}

/* One transmitter's utility: busy / span, if it moved data. */
static void add_util(fab_totals *t, uint64_t busy, uint64_t wire, sim_time span)
{
	if (!wire || !span)
		return;
	double u = (double)busy / (double)span;
	t->util_sum += u;
	t->util_max = u > t->util_max ? u : t->util_max;
	t->ndir++;
}

/* A bus: full duplex has a transmitter per direction, half duplex one. */
static void add_bus(fab_totals *t, const stats_comp *c, sim_time span, int half)
{
	uint64_t busy[2] = { fab__counter(c, "busy_ps_d0"), fab__counter(c, "busy_ps_d1") };
	uint64_t wire[2] = { fab__counter(c, "wire_bytes_d0"), fab__counter(c, "wire_bytes_d1") };

	t->wire += wire[0] + wire[1];
	t->payload += fab__counter(c, "payload_bytes_d0") + fab__counter(c, "payload_bytes_d1");
	if (half) {
		add_util(t, busy[0] + busy[1], wire[0] + wire[1], span);
		return;
	}
	add_util(t, busy[0], wire[0], span);
	add_util(t, busy[1], wire[1], span);
}

static void latency(json_w *w, const stats_hist *h)
{
	json_key(w, "latency_ns");
	json_obj_inline(w);
	json_kv_dbl(w, "mean", stats_hist_mean(h) / 1e3);
	json_kv_dbl(w, "p50", (double)stats_hist_quantile(h, 0.5) / 1e3);
	json_kv_dbl(w, "p99", (double)stats_hist_quantile(h, 0.99) / 1e3);
	json_kv_dbl(w, "max", (double)h->max / 1e3);
	json_end(w);
}

static void kind(json_w *w, const char *key, uint64_t n, const stats_hist *h)
{
	json_key(w, key);
	json_obj_inline(w);
	json_kv_u64(w, "requests", n);
	latency(w, h);
	json_end(w);
}

/* The DCOH counters of memory component @c (a device without one has none). */
static void add_memory(fab_totals *t, const stats_comp *c)
{
	if (!stats_get(c, "bisnp"))
		return;
	t->coherent = 1;
	t->bisnp += fab__counter(c, "bisnp");
	t->birsp += fab__counter(c, "birsp");
	t->evictions += fab__counter(c, "evictions");
	t->conflicts += fab__counter(c, "conflicts");
}

static void write_totals(json_w *w, const fab_totals *t)
{
	uint64_t n = t->reads + t->writes, span = t->w1 - t->w0;

	json_kv_u64(w, "requests", n);
	json_kv_u64(w, "reads", t->reads);
	json_kv_u64(w, "writes", t->writes);
	json_kv_u64(w, "bytes", t->bytes);
	json_kv_dbl(w, "bandwidth_GBps", span ? (double)t->win_bytes * 1e3 / (double)span : 0.0);
	latency(w, &t->all);
	breakdown(w, "latency_breakdown_ns", t->bd, n - t->bd_ovf);
	if (t->bd_ovf)
		json_kv_u64(w, "breakdown_overflow", t->bd_ovf);
	kind(w, "read", t->reads, &t->rd);
	kind(w, "write", t->writes, &t->wr);
	json_kv_dbl(w, "hops_mean", n ? (double)t->hops_sum / (double)n : 0.0);
	by_hops(w, t);
	json_kv_u64(w, "issued", t->issued);
	json_kv_u64(w, "completed", t->completed);
	fab__window_json(w, t);
	json_key(w, "buses");
	json_obj_inline(w);
	json_kv_dbl(w, "utility_mean", t->ndir ? t->util_sum / (double)t->ndir : 0.0);
	json_kv_dbl(w, "utility_max", t->util_max);
	json_kv_dbl(w, "efficiency", t->wire ? (double)t->payload / (double)t->wire : 0.0);
	json_end(w);
	if (t->hits + t->misses) {
		json_key(w, "cache");
		json_obj_inline(w);
		json_kv_u64(w, "hits", t->hits);
		json_kv_u64(w, "misses", t->misses);
		json_kv_u64(w, "writebacks", t->writebacks);
		json_end(w);
	}
	if (t->coherent) {
		json_kv_u64(w, "bisnp", t->bisnp);
		json_kv_u64(w, "birsp", t->birsp);
		json_kv_u64(w, "sf_evictions", t->evictions);
		json_kv_u64(w, "sf_conflicts", t->conflicts);
	}
}

/*
 * fab__totals_gather - every figure of the summary from the merged table
 * @table of graph @g (config @cf); free with fab__totals_free().
 */
void fab__totals_gather(fab_totals *t, const cfg *cf, const sim_graph *g,
			const stats_set *table)
{
	*t = (fab_totals){ .t_first = UINT64_MAX };
	stats_hist_init(&t->rd);
	stats_hist_init(&t->wr);
	stats_hist_init(&t->all);
	for (unsigned k = 0; k <= FAB_SUM_HOPS; k++)
		stats_hist_init(&t->hops[k]);
	for (size_t i = 0; i < table->n; i++) {
		const stats_comp *c = &table->c[i];
		unsigned roles = fab__roles_of(g, c->id);
		if (roles & FAB_ROLE_REQUESTER) {
			add_requester(t, c);
			fab__window_add_requester(t, c);
			t->hits += fab__counter(c, "hits");
			t->misses += fab__counter(c, "misses");
			t->writebacks += fab__counter(c, "writebacks");
		} else if (roles & FAB_ROLE_TARGET) {
			add_memory(t, c);
		}
	}
	for (size_t i = 0; i < table->n; i++) /* buses after: their span ends at t_last */
		if (fab__roles_of(g, table->c[i].id) & FAB_ROLE_BUS)
			add_bus(t, &table->c[i], t->t_last, cfg_enum(cf, "bus.duplex") == 1);
	stats_hist_merge(&t->all, &t->rd);
	stats_hist_merge(&t->all, &t->wr);
	fab__window_finish(t, cf, g, table);
}

void fab__totals_free(fab_totals *t)
{
	stats_hist_free(&t->rd);
	stats_hist_free(&t->wr);
	stats_hist_free(&t->all);
	for (unsigned k = 0; k <= FAB_SUM_HOPS; k++)
		stats_hist_free(&t->hops[k]);
}

void fab_write_summary(const cfg *cf, const sim_graph *g, const stats_set *table, json_w *w)
{
	fab_totals t;

	fab__totals_gather(&t, cf, g, table);
	write_totals(w, &t);
	fab__totals_free(&t);
}

/*
 * fab_requests_completed - requests completed in the whole run, warm-up
 * included (summary.completed): the denominator of run.events_per_request.
 */
uint64_t fab_requests_completed(const cfg *cf, const sim_graph *g, const stats_set *table)
{
	uint64_t n = 0;

	(void)cf;
	for (size_t i = 0; i < table->n; i++) /* the requesters' counters alone: cheap */
		if (fab__roles_of(g, table->c[i].id) & FAB_ROLE_REQUESTER)
			n += fab__counter(&table->c[i], "completed");
	return n;
}

void fab_report(const cfg *cf, const sim_graph *g, const stats_set *table, FILE *out,
		FILE *warn)
{
	fab_totals t;

	fab__totals_gather(&t, cf, g, table);
	fab__report(&t, out, warn);
	fab__totals_free(&t);
}
