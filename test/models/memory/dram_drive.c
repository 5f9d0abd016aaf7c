/*
 * test/models/memory/dram_drive.c - the DRAM test driver (see dram_drive.h).
 */
#include "test/models/memory/dram_drive.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "test/models/memory/dram_check.h"

uint64_t drv_xs(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

void drv_gen_next(gen *g, uint64_t *line, int *wr)
{
	if (g->list)
		*line = g->list[g->i];
	else
		*line = g->pattern == PAT_STREAM ? g->i : drv_xs(&g->rng) % g->footprint;
	*wr = (unsigned)(drv_xs(&g->rng) % 100) < g->wr_pct;
	g->i++;
}

static void on_trace(void *ctx, const dram_cmd_rec *rec)
{
	run *r = ctx;

	if (r->ntr == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 4096;
		r->tr = realloc(r->tr, r->cap * sizeof(*r->tr));
	}
	r->tr[r->ntr++] = *rec;
}

static void on_done(void *ctx, uint64_t tag, sim_time done)
{
	run *r = ctx;

	ck_assert_uint_ge(done, r->now);
	ck_assert_uint_lt(tag, r->nreq);
	r->done[tag] = done;
	r->order[r->ndone++] = tag;
}

void drv_start(run *r, const dram_params *p, uint64_t n)
{
	memset(r, 0, sizeof(*r));
	r->d = dram_create(p);
	r->nreq = n;
	r->done = calloc(n, sizeof(*r->done));
	r->order = calloc(n, sizeof(*r->order));
	dram_set_trace(r->d, on_trace, r);
}

void drv_end(run *r)
{
	dram_destroy(r->d);
	free(r->tr);
	free(r->done);
	free(r->order);
}

void drv_advance_all(run *r)
{
	for (uint32_t c = 0; c < dram_params_get(r->d)->channels; c++)
		dram_advance(r->d, c, r->now, on_done, r);
}

static sim_time next_all(run *r)
{
	sim_time t = SIM_TIME_MAX;

	for (uint32_t c = 0; c < dram_params_get(r->d)->channels; c++) {
		sim_time x = dram_next_time(r->d, c);
		t = x < t ? x : t;
	}
	return t;
}

/* Closed loop: keep the queues full (in request order) until n are served. */
void drv_closed(run *r, gen *g)
{
	uint64_t line = 0, issued = 0;
	int wr = 0, have = 0;

	while (r->ndone < r->nreq) {
		drv_advance_all(r);
		while (issued < r->nreq) {
			if (!have)
				drv_gen_next(g, &line, &wr), have = 1;
			if (dram_full(r->d, dram_channel_of(r->d, line)))
				break;
			dram_enqueue(r->d, line, wr, r->now, issued++);
			have = 0;
		}
		if (r->ndone == r->nreq)
			break;
		r->now = next_all(r);
		ck_assert_uint_ne(r->now, SIM_TIME_MAX);
	}
}

/*
 * Timed arrivals, gaps uniform in [0, 2 * @gap) ps, waiting in one FIFO
 * for a queue slot; with @extra, also advance at random times in between.
 */
void drv_timed(run *r, gen *g, sim_time gap, int extra, uint64_t seed)
{
	uint64_t *line = malloc(r->nreq * sizeof(*line)), head = 0, arrived = 0;
	int *wr = malloc(r->nreq * sizeof(*wr));
	sim_time next_arr = 0, next_extra = 0;
	uint64_t s = seed, s2 = seed ^ 0x9e3779b97f4a7c15ull; /* arrivals, extra advances */

	for (uint64_t i = 0; i < r->nreq; i++)
		drv_gen_next(g, &line[i], &wr[i]);
	while (r->ndone < r->nreq) {
		drv_advance_all(r);
		while (arrived < r->nreq && next_arr == r->now) {
			arrived++;
			next_arr += drv_xs(&s) % (2 * gap);
		}
		while (head < arrived && !dram_full(r->d, dram_channel_of(r->d, line[head]))) {
			dram_enqueue(r->d, line[head], wr[head], r->now, head);
			head++;
		}
		if (extra && next_extra <= r->now)
			next_extra = r->now + 1 + drv_xs(&s2) % 3000;
		sim_time t = next_all(r);
		t = arrived < r->nreq && next_arr < t ? next_arr : t;
		t = extra && next_extra < t ? next_extra : t;
		if (r->ndone == r->nreq)
			break;
		ck_assert_uint_ne(t, SIM_TIME_MAX);
		ck_assert_uint_gt(t, r->now);
		r->now = t;
	}
	free(line);
	free(wr);
}

/* The last cycle the run covered (for the refresh check). */
uint64_t drv_end_cycle(const run *r)
{
	return r->ntr ? r->tr[r->ntr - 1].cycle : 0;
}

void drv_assert_clean(const dram_params *p, const run *r)
{
	dck_result res;

	dck_run(p, r->tr, r->ntr, drv_end_cycle(r), &res);
	ck_assert_msg(res.violations == 0, "%s: %llu violations, first: %s", p->name,
		      (unsigned long long)res.violations, res.first);
	ck_assert_uint_gt(res.pairs, 0);
}

/* Totals over channels. */
dram_stats drv_totals(const dram *d)
{
	dram_stats t = { 0 };

	for (uint32_t c = 0; c < dram_params_get(d)->channels; c++) {
		const dram_stats *s = dram_stats_get(d, c);
		t.reads += s->reads;
		t.writes += s->writes;
		t.row_hits += s->row_hits;
		t.row_misses += s->row_misses;
		t.row_conflicts += s->row_conflicts;
		t.activates += s->activates;
		t.precharges += s->precharges;
		t.refreshes += s->refreshes;
		t.busy_cycles += s->busy_cycles;
	}
	return t;
}

/* Steady-state bandwidth, GB/s: requests served after the first tenth. */
double drv_bandwidth(const run *r)
{
	uint64_t w = r->nreq / 10;
	sim_time t0 = r->done[r->order[w]], t1 = r->done[r->order[r->nreq - 1]];

	return (double)(r->nreq - 1 - w) * DRAM_LINE * 1000.0 / (double)(t1 - t0);
}

