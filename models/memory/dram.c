/*
 * models/memory/dram.c - the DRAM model's interface (see dram.h for the contract):
 * creation, address decoding, the per-channel queues, time conversion, and
 * the advance loop that runs the scheduler step of dram_sched.c.
 *
 * Time: tCK = 2e6 / rate ps is kept as a reduced fraction n / d (625 / 1
 * for 3200 MT/s, 1250 / 3 for 4800 MT/s); conversions split the quotient
 * and the remainder, so they are exact and overflow-free for any time below
 * SIM_TIME_MAX / d.
 *
 * The advance loop: take the scheduler's best command (earliest cycle, then
 * priority) and the next refresh due time; whichever comes first is done if
 * its clock edge is at or before the target time, else the loop stops and
 * remembers that cycle for dram_next_time().  A refresh becoming due is a
 * state change without a command; the scheduler then sees the rank as
 * refreshing.
 */
#include "models/memory/dram.h"

#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/numeric.h"
#include "core/xmalloc.h"
#include "models/memory/dram_int.h"

/**
 * dram_cycle_ps - the time clock cycle @c of @d starts: ceil(c * tCK) ps.
 * Exact for any @c whose result fits in a sim_time.
 */
sim_time dram_cycle_ps(const dram *d, uint64_t c)
{
	return (c / d->tck_d) * d->tck_n + ((c % d->tck_d) * d->tck_n + d->tck_d - 1) / d->tck_d;
}

/* The first cycle that starts strictly after @t ps: floor(t / tCK) + 1. */
static uint64_t cycle_after(const dram *d, sim_time t)
{
	return (t / d->tck_n) * d->tck_d + ((t % d->tck_n) * d->tck_d) / d->tck_n + 1;
}

static void chan_init(dram *d, dram_chan *c)
{
	const dram_params *p = &d->p;
	uint32_t nbg = p->ranks * p->bankgroups;

	memset(c, 0, sizeof(*c));
	c->q = xcalloc(p->queue, sizeof(*c->q));
	c->rk = xcalloc(p->ranks, sizeof(*c->rk));
	c->bg = xcalloc(nbg, sizeof(*c->bg));
	c->bk = xcalloc((size_t)nbg * p->banks, sizeof(*c->bk));
	c->bus_rank = -1;
	for (uint32_t r = 0; r < p->ranks; r++)
		c->rk[r].ref_due = (uint64_t)p->t[DRAM_tREFI] * (r + 1) / p->ranks;
}

/**
 * dram_create - see dram.h.
 * @p: parameters; a set that fails dram_params_check() is a programming
 *     error (panic): configuration errors are caught in dram_cfg.c.
 */
dram *dram_create(const dram_params *p)
{
	char why[128];
	dram *d = xcalloc(1, sizeof(*d));

	if (dram_params_check(p, why, sizeof(why)))
		CXL_PANIC("dram: bad parameters: %s", why);
	d->p = *p;
	d->tck_n = 2000000 / cxl_gcd(2000000, p->rate);
	d->tck_d = p->rate / cxl_gcd(2000000, p->rate);
	d->cnt[DRAM_F_CH] = p->channels;
	d->cnt[DRAM_F_COL] = p->row_lines;
	d->cnt[DRAM_F_BG] = p->bankgroups;
	d->cnt[DRAM_F_BANK] = p->banks;
	d->cnt[DRAM_F_RANK] = p->ranks;
	d->cnt[DRAM_F_ROW] = p->rows;
	d->ch = xcalloc(p->channels, sizeof(*d->ch));
	for (uint32_t i = 0; i < p->channels; i++)
		chan_init(d, &d->ch[i]);
	return d;
}

/* dram_destroy - free @d and everything it holds (NULL is allowed). */
void dram_destroy(dram *d)
{
	if (!d)
		return;
	for (uint32_t i = 0; i < d->p.channels; i++) {
		free(d->ch[i].q);
		free(d->ch[i].rk);
		free(d->ch[i].bg);
		free(d->ch[i].bk);
	}
	free(d->ch);
	free(d);
}

/* dram_params_get - the parameters @d runs with (its own copy). */
const dram_params *dram_params_get(const dram *d)
{
	return &d->p;
}

/* Split @line into its fields (mixed radix, least significant first). */
static void decode(const dram *d, uint64_t line, uint64_t v[DRAM_NFIELD])
{
	for (int i = 0; i < DRAM_NFIELD; i++) {
		uint8_t f = d->p.map[i];
		v[f] = line % d->cnt[f];
		line /= d->cnt[f];
	}
}

/* dram_channel_of - the channel field of @line under @d's mapping. */
uint32_t dram_channel_of(const dram *d, uint64_t line)
{
	uint64_t v[DRAM_NFIELD];

	decode(d, line, v);
	return (uint32_t)v[DRAM_F_CH];
}

/* dram_full - 1 if channel @ch's queue holds params.queue requests. */
int dram_full(const dram *d, uint32_t ch)
{
	CXL_ASSERT(ch < d->p.channels);
	return d->ch[ch].n == d->p.queue;
}

/* dram_queued - requests of channel @ch without a column command yet. */
uint32_t dram_queued(const dram *d, uint32_t ch)
{
	CXL_ASSERT(ch < d->p.channels);
	return d->ch[ch].n;
}

/**
 * dram_enqueue - see dram.h.  The request is visible from the first cycle
 * after @now; the channel's decision cycle moves there (no command can
 * issue before it any more: dram_advance(@now) issued all of those).
 */
void dram_enqueue(dram *d, uint64_t line, int write, sim_time now, uint64_t tag)
{
	uint64_t v[DRAM_NFIELD];
	const dram_params *p = &d->p;

	decode(d, line, v);
	dram_chan *c = &d->ch[v[DRAM_F_CH]];
	CXL_ASSERT(c->upto == now);
	CXL_ASSERT(c->n < p->queue);
	uint32_t bgi = (uint32_t)(v[DRAM_F_RANK] * p->bankgroups + v[DRAM_F_BG]);
	c->q[c->n++] = (dram_req){
		.tag = tag, .arrive = now, .row = (uint32_t)v[DRAM_F_ROW],
		.bank = (uint32_t)(bgi * p->banks + v[DRAM_F_BANK]), .bgi = (uint16_t)bgi,
		.rank = (uint8_t)v[DRAM_F_RANK], .write = (uint8_t)!!write,
	};
	c->nwrites += !!write;
	uint64_t vis = cycle_after(d, now);
	c->cyc = c->cyc > vis ? c->cyc : vis;
	c->next_ok = 0;
}

/* Run channel @c's schedule through @now (see the file comment). */
static void run(dram *d, dram_chan *c, sim_time now, dram_issue_fn *fn, void *ctx)
{
	for (;;) {
		dram_cand k = dram__pick(d, c);
		uint64_t tr = dram__next_refresh(d, c);
		uint64_t tn = k.t < tr ? k.t : tr;

		if (tn == DRAM_NEVER || dram_cycle_ps(d, tn) > now) {
			c->next = tn;
			c->next_ok = 1;
			return;
		}
		if (tr <= k.t) {
			c->cyc = c->cyc > tr ? c->cyc : tr;
			dram__refresh_due(d, c);
			continue;
		}
		dram__issue(d, c, &k, fn, ctx);
		c->cyc = k.t + 1;
	}
}

/**
 * dram_advance - issue channel @ch's commands through @now (see dram.h).
 * @d:   the DRAM
 * @ch:  channel
 * @now: time, ps, not before the previous call's
 * @fn:  called for each RD/WR with its request's tag and burst end
 * @ctx: handed to @fn
 * Cheap when nothing is due: the next command's cycle is cached.
 */
void dram_advance(dram *d, uint32_t ch, sim_time now, dram_issue_fn *fn, void *ctx)
{
	CXL_ASSERT(ch < d->p.channels);
	dram_chan *c = &d->ch[ch];

	CXL_ASSERT(now >= c->upto);
	if (c->next_ok && (c->next == DRAM_NEVER || dram_cycle_ps(d, c->next) > now)) {
		c->upto = now;
		return;
	}
	run(d, c, now, fn, ctx);
	c->upto = now;
}

/**
 * dram_next_time - when channel @ch must next be advanced, ps; SIM_TIME_MAX
 * with an empty queue (pending refreshes and closing PREs are caught up by
 * the next dram_advance without a timer).  Computes and caches the next
 * command after an enqueue.
 */
sim_time dram_next_time(dram *d, uint32_t ch)
{
	CXL_ASSERT(ch < d->p.channels);
	dram_chan *c = &d->ch[ch];

	if (!c->n)
		return SIM_TIME_MAX;
	if (!c->next_ok)
		run(d, c, c->upto, NULL, NULL);
	return c->next == DRAM_NEVER ? SIM_TIME_MAX : dram_cycle_ps(d, c->next);
}

/* dram_foreach_queued - @fn(@ctx, tag) for every queued request, channel by channel, oldest first. */
void dram_foreach_queued(const dram *d, void (*fn)(void *ctx, uint64_t tag), void *ctx)
{
	for (uint32_t i = 0; i < d->p.channels; i++)
		for (uint32_t j = 0; j < d->ch[i].n; j++)
			fn(ctx, d->ch[i].q[j].tag);
}

/* dram_stats_get - channel @ch's statistics (valid until dram_destroy). */
const dram_stats *dram_stats_get(const dram *d, uint32_t ch)
{
	CXL_ASSERT(ch < d->p.channels);
	return &d->ch[ch].st;
}

/* dram_set_trace - call @fn(@ctx, rec) for every command from now on; NULL turns it off. */
void dram_set_trace(dram *d, dram_trace_fn *fn, void *ctx)
{
	d->trace = fn;
	d->trace_ctx = ctx;
}
