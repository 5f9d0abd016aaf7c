/*
 * models/fabric/fab_series.c - timeseries_summary.csv of a fabric run: the
 * fabric's totals per sample period, from the merged time-series table only
 * (core/series.h), so the file is byte-identical for any rank count.
 *
 * Columns, one row per period (periods run from 0 to the last event):
 *   time_ps             start of the period
 *   span_ps             its simulated part: the period, less for the last one
 *                       (it ends at the last event); the rates below are
 *                       over it, empty when it is 0
 *   throughput_GBps     data bytes of the accesses answered in it (every
 *                       requester's `bytes` series) / span
 *   requests            accesses answered in it (`completed`), warm-up included
 *   latency_mean_ns,    over those accesses, from the rank-merged per-period
 *   latency_p50_ns,     histogram `lat_ps` (percentiles within 1.6%, the mean
 *   latency_p99_ns      exact); empty when none was answered
 *   bus_util_mean,      busy / span over the bus transmitters (each direction in
 *   bus_util_max        full duplex, the bus in half) that were busy at some
 *                       time of the run
 *   switch_occupancy_mean  packets queued at a switch output, time-averaged
 *                       over the span, mean over the output ports that
 *                       forwarded a packet during the run: those waiting in
 *                       the switch for the output (p<p>_waiting_ps, when the
 *                       bus behind it has no room) plus those waiting in that
 *                       bus's FIFO of the direction leaving the switch
 *                       (queued_ps_d<d>), which is the output queue proper:
 *                       the switch forwards in no time and the bus serialises
 * Numbers as in stats.json: integers exactly, the rest "%.9g".
 *
 * Cost: one pass over the table and the links to pick the series, then
 * O(periods x series picked); no state beyond the pointer lists.
 */
#include "models/fabric/fab_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/series.h"
#include "core/sim.h"
#include "core/xmalloc.h"

typedef struct ts_list ts_list;
struct ts_list {
	const series **s; /* picked series (borrowed from the table) */
	size_t n;         /* in use */
	size_t cap;       /* allocated */
};

typedef struct ts_cols ts_cols;
struct ts_cols {
	ts_list done;            /* requesters' completed */
	ts_list bytes;           /* requesters' bytes */
	ts_list busy;            /* bus transmitters' busy_ps* that were ever busy */
	ts_list wait;            /* switch outputs' p<p>_waiting_ps that forwarded */
	ts_list bus_q;           /* [same index] the queued_ps_d<d> of the bus behind, or NULL */
	const series_hist *lat;  /* lat_ps, or NULL */
};

static void push(ts_list *l, const series *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->s = xrealloc(l->s, l->cap * sizeof(*l->s));
	}
	l->s[l->n++] = s;
}

static uint64_t total(const series *s)
{
	uint64_t t = 0;

	for (uint32_t k = 0; k < s->n; k++)
		t += s->v[k];
	return t;
}

static unsigned roles_of(const sim_graph *g, uint32_t id)
{
	uint32_t k = fab_kind_of_ops(g->comp[id].ops);

	return k == UINT32_MAX ? 0 : fab_kinds[k].roles;
}

/* Series @fmt (with %u = @n) of component @id in @t, or NULL. */
static const series *named(const series_set *t, uint32_t id, const char *fmt, unsigned n)
{
	const series_comp *c = series_find(t, id);
	char name[32];

	snprintf(name, sizeof(name), fmt, n);
	return c ? series_get(c, name) : NULL;
}

/*
 * Switch @sw's port @p, joined to component @peer's port @pp: if it
 * forwarded a packet, its waiting series and, when @peer is a bus, the
 * bus's queue of the direction away from the switch (it came in on @pp).
 */
static void pick_port(ts_cols *cols, const sim_graph *g, const series_set *t, uint32_t sw,
		      unsigned p, uint32_t peer, unsigned pp)
{
	const series *w = named(t, sw, "p%u_waiting_ps", p), *pk = named(t, sw, "p%u_pkts", p);

	if (!w || !pk || !total(pk))
		return;
	push(&cols->wait, w);
	push(&cols->bus_q, roles_of(g, peer) & FAB_ROLE_BUS ?
			   named(t, peer, "queued_ps_d%u", pp) : NULL);
}

static void pick(ts_cols *cols, const sim_graph *g, const series_set *t)
{
	for (size_t i = 0; i < t->n; i++) {
		const series_comp *c = &t->c[i];
		unsigned roles = roles_of(g, c->id);
		if (roles & FAB_ROLE_REQUESTER) {
			push(&cols->done, series_get(c, "completed"));
			push(&cols->bytes, series_get(c, "bytes"));
		} else if (roles & FAB_ROLE_BUS) {
			for (size_t j = 0; j < c->n; j++)
				if (!strncmp(c->s[j]->name, "busy_ps", 7) && total(c->s[j]))
					push(&cols->busy, c->s[j]);
		}
	}
	for (uint32_t i = 0; i < g->nlink; i++) { /* every switch port has one link */
		const graph_link *l = &g->link[i];
		if (roles_of(g, l->a) & FAB_ROLE_SWITCH)
			pick_port(cols, g, t, l->a, l->aport, l->b, l->bport);
		if (roles_of(g, l->b) & FAB_ROLE_SWITCH)
			pick_port(cols, g, t, l->b, l->bport, l->a, l->aport);
	}
	cols->lat = series_hist_find(t, "lat_ps");
}

static uint64_t sum_at(const ts_list *l, uint32_t k)
{
	uint64_t t = 0;

	for (size_t i = 0; i < l->n; i++)
		t += l->s[i] ? series_at(l->s[i], k) : 0;
	return t;
}

/* ",mean" of the switch outputs' occupancy (empty if none or no span). */
static void occupancy(FILE *f, const ts_cols *cols, uint32_t k, sim_time span)
{
	if (!cols->wait.n || !span) {
		fputc(',', f);
		return;
	}
	uint64_t sum = sum_at(&cols->wait, k) + sum_at(&cols->bus_q, k);
	fprintf(f, ",%.9g", (double)sum / (double)span / (double)cols->wait.n);
}

/* ",mean,max" of cell / span over @l (empty if none or no span). */
static void mean_max(FILE *f, const ts_list *l, uint32_t k, sim_time span)
{
	double sum = 0, max = 0;

	if (!l->n || !span) {
		fputs(",,", f);
		return;
	}
	for (size_t i = 0; i < l->n; i++) {
		double u = (double)series_at(l->s[i], k) / (double)span;
		sum += u;
		max = u > max ? u : max;
	}
	fprintf(f, ",%.9g,%.9g", sum / (double)l->n, max);
}

static void latency(FILE *f, const series_hist *lat, uint32_t k)
{
	const stats_hist *h = lat && k < lat->n ? &lat->p[k] : NULL;

	if (!h || !h->count) {
		fputs(",,,", f);
		return;
	}
	fprintf(f, ",%.9g,%.9g,%.9g", stats_hist_mean(h) / 1e3,
		(double)stats_hist_quantile(h, 0.5) / 1e3,
		(double)stats_hist_quantile(h, 0.99) / 1e3);
}

static void row(FILE *f, const ts_cols *cols, const series_set *t, uint32_t k)
{
	sim_time at = (sim_time)k * t->period;
	sim_time span = t->end > at ? t->end - at : 0;
	uint64_t bytes = sum_at(&cols->bytes, k);

	span = span < t->period ? span : t->period;
	fprintf(f, "%llu,%llu,", (unsigned long long)at, (unsigned long long)span);
	if (span)
		fprintf(f, "%.9g", (double)bytes * 1e3 / (double)span);
	fprintf(f, ",%llu", (unsigned long long)sum_at(&cols->done, k));
	latency(f, cols->lat, k);
	mean_max(f, &cols->busy, k, span);
	occupancy(f, cols, k, span);
	fputc('\n', f);
}

/**
 * fab_write_series_summary - timeseries_summary.csv (columns above) of the
 * merged, sorted series table @t of the fabric @g, to @f.
 */
void fab_write_series_summary(const sim_graph *g, const series_set *t, FILE *f)
{
	ts_cols cols = { 0 };
	uint32_t np = series_nperiods(t);

	pick(&cols, g, t);
	fputs("time_ps,span_ps,throughput_GBps,requests,latency_mean_ns,latency_p50_ns,"
	      "latency_p99_ns,bus_util_mean,bus_util_max,switch_occupancy_mean\n", f);
	for (uint32_t k = 0; k < np; k++)
		row(f, &cols, t, k);
	free(cols.done.s);
	free(cols.bytes.s);
	free(cols.busy.s);
	free(cols.wait.s);
	free(cols.bus_q.s);
}
