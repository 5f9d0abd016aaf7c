/*
 * models/fab_summary.c - the `summary` section of a fabric run (design §1
 * binding keys), from the merged statistics table only (so it is
 * byte-identical for any rank count):
 *
 *   requests, reads, writes     measured (after warm-up) requests
 *   bytes                       data bytes moved (64 per request)
 *   bandwidth_GBps              bytes / (last measured response - first
 *                               measured issue), over all requesters
 *   latency_ns                  {mean, p50, p99, max} of every request,
 *   read, write                 and the same per kind ({requests, latency_ns})
 *   hops_mean                   buses crossed per request, both ways
 *   issued, completed           all requests, warm-up included (conservation)
 *   buses                       {utility_mean, utility_max, efficiency}: ESF's
 *                               bus utility (busy / elapsed, per direction)
 *                               and transmission efficiency (payload / wire
 *                               bytes), over every bus direction that moved
 *                               data; elapsed = time 0 to the last
 *                               measured response (bus counters include
 *                               warm-up traffic, so the span starts at 0)
 */
#include "models/fabric.h"

#include <string.h>

#include "core/sim.h"

typedef struct totals totals;
struct totals {
	uint64_t reads, writes, bytes, hops, issued, completed;
	uint64_t t_first, t_last;     /* ps */
	stats_hist rd, wr, all;       /* latency, ps */
	uint64_t wire, payload;       /* bus bytes */
	double util_sum, util_max;    /* over bus directions */
	uint64_t ndir;                /* bus directions that moved data */
};

static uint64_t counter(const stats_comp *c, const char *name)
{
	const stats_entry *e = stats_get(c, name);

	return e && e->kind == STATS_COUNTER ? e->value : 0;
}

static void merge_hist(stats_hist *dst, const stats_comp *c, const char *name)
{
	const stats_entry *e = stats_get(c, name);

	if (e && e->kind == STATS_HIST)
		stats_hist_merge(dst, &e->h);
}

static void add_requester(totals *t, const stats_comp *c)
{
	t->reads += counter(c, "reads");
	t->writes += counter(c, "writes");
	t->bytes += counter(c, "bytes");
	t->hops += counter(c, "hops_sum");
	t->issued += counter(c, "issued");
	t->completed += counter(c, "completed");
	if (counter(c, "reads") + counter(c, "writes")) {
		uint64_t f = counter(c, "t_first_ps"), l = counter(c, "t_last_ps");
		t->t_first = f < t->t_first ? f : t->t_first;
		t->t_last = l > t->t_last ? l : t->t_last;
	}
	merge_hist(&t->rd, c, "lat_read_ps");
	merge_hist(&t->wr, c, "lat_write_ps");
}

static void add_bus(totals *t, const stats_comp *c, sim_time span)
{
	static const char *const busy[2] = { "busy_ps_d0", "busy_ps_d1" };
	static const char *const wire[2] = { "wire_bytes_d0", "wire_bytes_d1" };
	static const char *const pay[2] = { "payload_bytes_d0", "payload_bytes_d1" };

	for (int d = 0; d < 2; d++) {
		t->wire += counter(c, wire[d]);
		t->payload += counter(c, pay[d]);
		if (!counter(c, wire[d]) || !span)
			continue;
		double u = (double)counter(c, busy[d]) / (double)span;
		t->util_sum += u;
		t->util_max = u > t->util_max ? u : t->util_max;
		t->ndir++;
	}
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

static void write_totals(json_w *w, const totals *t)
{
	uint64_t n = t->reads + t->writes;
	sim_time span = t->t_last > t->t_first ? t->t_last - t->t_first : 0;

	json_kv_u64(w, "requests", n);
	json_kv_u64(w, "reads", t->reads);
	json_kv_u64(w, "writes", t->writes);
	json_kv_u64(w, "bytes", t->bytes);
	json_kv_dbl(w, "bandwidth_GBps", span ? (double)t->bytes * 1e3 / (double)span : 0.0);
	latency(w, &t->all);
	kind(w, "read", t->reads, &t->rd);
	kind(w, "write", t->writes, &t->wr);
	json_kv_dbl(w, "hops_mean", n ? (double)t->hops / (double)n : 0.0);
	json_kv_u64(w, "issued", t->issued);
	json_kv_u64(w, "completed", t->completed);
	json_key(w, "buses");
	json_obj_inline(w);
	json_kv_dbl(w, "utility_mean", t->ndir ? t->util_sum / (double)t->ndir : 0.0);
	json_kv_dbl(w, "utility_max", t->util_max);
	json_kv_dbl(w, "efficiency", t->wire ? (double)t->payload / (double)t->wire : 0.0);
	json_end(w);
}

void fab_write_summary(const sim_graph *g, const stats_set *table, json_w *w)
{
	totals t = { .t_first = UINT64_MAX };

	stats_hist_init(&t.rd);
	stats_hist_init(&t.wr);
	stats_hist_init(&t.all);
	for (size_t i = 0; i < table->n; i++) {
		const stats_comp *c = &table->c[i];
		const char *type = g->comp[c->id].ops->name;
		if (!strcmp(type, "host") || !strcmp(type, "accel"))
			add_requester(&t, c);
	}
	for (size_t i = 0; i < table->n; i++)
		if (!strcmp(g->comp[table->c[i].id].ops->name, "bus"))
			add_bus(&t, &table->c[i], t.t_last);
	stats_hist_merge(&t.all, &t.rd);
	stats_hist_merge(&t.all, &t.wr);
	write_totals(w, &t);
	stats_hist_free(&t.rd);
	stats_hist_free(&t.wr);
	stats_hist_free(&t.all);
}
