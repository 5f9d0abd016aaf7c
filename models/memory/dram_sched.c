/*
 * models/memory/dram_sched.c - the DRAM model's scheduler step and command
 * bookkeeping (the policy is described in dram.h; the state in dram_int.h).
 *
 * dram__pick() looks at the channel as it is at its decision cycle c->cyc:
 *   1. the read/write mode is updated from the queue (write drain with a
 *      high and a low watermark; the update is idempotent, so calling pick
 *      again without a change in between changes nothing);
 *   2. one pass marks the banks whose open row a queued request hits
 *      (any request; and candidates of the current mode);
 *   3. each candidate command gets its earliest cycle, the max of its
 *      constraints; the best is the earliest, then by priority (refresh,
 *      row hits, other request commands, closing PREs), then the oldest.
 * dram__issue() applies one command: state, every _ok it constrains, the
 * statistics, the trace hook and, for RD/WR, the caller's callback.
 *
 * Refresh: dram__next_refresh() is the earliest due time of a rank not yet
 * refreshing; dram__refresh_due() marks every rank due by c->cyc.  A
 * refreshing rank gets PREs for its open banks, then one REF.
 */
#include "models/memory/dram.h"

#include <string.h>

#include "core/err.h"
#include "models/memory/dram_int.h"

static inline uint64_t max2(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Write-drain watermarks of a queue of @q entries (high > low >= 0). */
static uint32_t wr_high(uint32_t q)
{
	return q / 2 ? q / 2 : 1;
}

static uint32_t wr_low(uint32_t q)
{
	return q / 4;
}

static void update_mode(const dram *d, dram_chan *c)
{
	uint32_t w = c->nwrites, r = c->n - c->nwrites;

	if (!c->write_mode && (w >= wr_high(d->p.queue) || (!r && w)))
		c->write_mode = 1;
	else if (c->write_mode && (!w || (w <= wr_low(d->p.queue) && r)))
		c->write_mode = 0;
}

/* Starvation cap reached: only the oldest request may be served. */
static int forced(const dram *d, const dram_chan *c)
{
	return d->p.starve && c->n && c->bypass >= d->p.starve;
}

static int is_cand(const dram *d, const dram_chan *c, uint32_t i)
{
	if (c->rk[c->q[i].rank].ref_pending)
		return 0;
	if (forced(d, c))
		return i == 0;
	return c->q[i].write == c->write_mode;
}

static void mark_hits(const dram *d, dram_chan *c)
{
	c->gen++;
	for (uint32_t i = 0; i < c->n; i++) {
		const dram_req *r = &c->q[i];
		dram_bank *b = &c->bk[r->bank];
		if (b->open && b->row == r->row) {
			b->mark_any = c->gen;
			if (is_cand(d, c, i))
				b->mark_cand = c->gen;
		}
	}
}

/* Earliest cycle of ACT on flat bank @bank of rank @rank. */
static uint64_t act_time(const dram *d, const dram_chan *c, uint32_t rank, uint32_t bank)
{
	const dram_rank *rk = &c->rk[rank];
	uint64_t t = max2(max2(c->cyc, c->cmd_ok), max2(c->bk[bank].act_ok, rk->act_ok));

	t = max2(t, c->bg[bank / d->p.banks].act_ok);
	if (rk->nact == 4)
		t = max2(t, rk->faw[rk->faw_i] + d->p.t[DRAM_tFAW]);
	return t;
}

static uint64_t pre_time(const dram_chan *c, uint32_t rank, uint32_t bank)
{
	return max2(max2(c->cyc, c->cmd_ok), max2(c->bk[bank].pre_ok, c->rk[rank].pre_ok));
}

/* Earliest cycle of the column command of request @r (its row is open). */
static uint64_t col_time(const dram *d, const dram_chan *c, const dram_req *r)
{
	const uint32_t *t = d->p.t;
	const dram_bgrp *g = &c->bg[r->bgi];
	const dram_rank *rk = &c->rk[r->rank];
	uint64_t e = max2(max2(c->cyc, c->cmd_ok), c->bk[r->bank].col_ok);
	uint64_t lat = r->write ? t[DRAM_tCWL] : t[DRAM_tCL];
	uint64_t bus = c->bus_end + (c->bus_rank >= 0 && c->bus_rank != r->rank ? t[DRAM_tRTRS] : 0);

	e = max2(e, r->write ? max2(g->wr_ok, rk->wr_ok) : max2(g->rd_ok, rk->rd_ok));
	return max2(e, bus > lat ? bus - lat : 0);
}

static void consider(dram_cand *best, const dram_cand *k)
{
	if (k->t < best->t || (k->t == best->t && k->prio < best->prio))
		*best = *k;
}

/* The command request @i needs next, as a candidate (t = DRAM_NEVER: none). */
static dram_cand req_cand(const dram *d, const dram_chan *c, uint32_t i)
{
	const dram_req *r = &c->q[i];
	const dram_bank *b = &c->bk[r->bank];
	dram_cand k = { .t = DRAM_NEVER, .qi = i, .rank = r->rank, .bank = r->bank };

	if (b->open && b->row == r->row) {
		k.cmd = r->write ? DRAM_WR : DRAM_RD;
		k.prio = 1;
		k.t = col_time(d, c, r);
	} else if (b->open) {
		if (b->mark_cand == c->gen && !forced(d, c))
			return k;
		k.cmd = DRAM_PRE;
		k.prio = 2;
		k.t = pre_time(c, r->rank, r->bank);
	} else {
		k.cmd = DRAM_ACT;
		k.prio = 2;
		k.t = act_time(d, c, r->rank, r->bank);
	}
	return k;
}

/* Refresh work of a refreshing rank: a PRE of an open bank, else REF. */
static void refresh_cands(const dram *d, const dram_chan *c, uint32_t rank, dram_cand *best)
{
	const dram_rank *rk = &c->rk[rank];
	uint32_t per = d->p.bankgroups * d->p.banks;
	dram_cand k = { .prio = 0, .qi = UINT32_MAX, .rank = rank };

	if (!rk->open) {
		k.cmd = DRAM_REF;
		k.t = max2(max2(c->cyc, c->cmd_ok), rk->ref_ok);
		consider(best, &k);
		return;
	}
	k.cmd = DRAM_PRE;
	for (uint32_t b = rank * per; b < (rank + 1) * per; b++)
		if (c->bk[b].open) {
			k.bank = b;
			k.t = pre_time(c, rank, b);
			consider(best, &k);
		}
}

/* Closed page: PRE every open bank no queued request wants. */
static void closing_cands(const dram *d, const dram_chan *c, dram_cand *best)
{
	uint32_t per = d->p.bankgroups * d->p.banks;
	uint32_t nb = d->p.ranks * per;
	dram_cand k = { .prio = 3, .cmd = DRAM_PRE, .qi = UINT32_MAX };

	for (uint32_t b = 0; b < nb; b++)
		if (c->bk[b].open && c->bk[b].mark_any != c->gen && !c->rk[b / per].ref_pending) {
			k.rank = b / per;
			k.bank = b;
			k.t = pre_time(c, k.rank, b);
			consider(best, &k);
		}
}

/**
 * dram__pick - the command channel @c issues next (see the file comment).
 * Returns a candidate with t = DRAM_NEVER if there is nothing to do.
 */
dram_cand dram__pick(dram *d, dram_chan *c)
{
	dram_cand best = { .t = DRAM_NEVER, .prio = UINT32_MAX, .qi = UINT32_MAX };

	update_mode(d, c);
	mark_hits(d, c);
	for (uint32_t r = 0; r < d->p.ranks; r++)
		if (c->rk[r].ref_pending)
			refresh_cands(d, c, r, &best);
	for (uint32_t i = 0; i < c->n; i++)
		if (is_cand(d, c, i)) {
			dram_cand k = req_cand(d, c, i);
			consider(&best, &k);
		}
	if (d->p.closed_page)
		closing_cands(d, c, &best);
	return best;
}

/* dram__next_refresh - the earliest due cycle of a rank not yet refreshing. */
uint64_t dram__next_refresh(const dram *d, const dram_chan *c)
{
	uint64_t t = DRAM_NEVER;

	if (!d->p.refresh)
		return t;
	for (uint32_t r = 0; r < d->p.ranks; r++)
		if (!c->rk[r].ref_pending && c->rk[r].ref_due < t)
			t = c->rk[r].ref_due;
	return t;
}

/* dram__refresh_due - every rank whose REF is due by c->cyc starts refreshing. */
void dram__refresh_due(const dram *d, dram_chan *c)
{
	for (uint32_t r = 0; r < d->p.ranks; r++)
		if (c->rk[r].ref_due <= c->cyc)
			c->rk[r].ref_pending = 1;
}

static void classify(dram_req *r, uint8_t cls)
{
	if (r->cls == DRAM_CLS_NONE)
		r->cls = cls;
}

static void do_act(const dram *d, dram_chan *c, uint64_t t, uint32_t rank, uint32_t bank,
		   uint32_t row)
{
	const uint32_t *tm = d->p.t;
	dram_bank *b = &c->bk[bank];
	dram_rank *rk = &c->rk[rank];

	CXL_ASSERT(!b->open);
	b->open = 1;
	b->row = row;
	b->col_ok = t + tm[DRAM_tRCD];
	b->pre_ok = max2(b->pre_ok, t + tm[DRAM_tRAS]);
	b->act_ok = max2(b->act_ok, t + tm[DRAM_tRC]);
	c->bg[bank / d->p.banks].act_ok = max2(c->bg[bank / d->p.banks].act_ok, t + tm[DRAM_tRRD_L]);
	rk->act_ok = max2(rk->act_ok, t + tm[DRAM_tRRD_S]);
	rk->ref_ok = max2(rk->ref_ok, t + tm[DRAM_tRC]);
	if (rk->nact < 4) {
		rk->faw[rk->nact++] = t;
	} else {
		rk->faw[rk->faw_i] = t;
		rk->faw_i = (rk->faw_i + 1) % 4;
	}
	rk->open++;
	c->st.activates++;
}

static void do_pre(const dram *d, dram_chan *c, uint64_t t, uint32_t rank, uint32_t bank)
{
	dram_bank *b = &c->bk[bank];
	dram_rank *rk = &c->rk[rank];

	CXL_ASSERT(b->open);
	b->open = 0;
	b->act_ok = max2(b->act_ok, t + d->p.t[DRAM_tRP]);
	rk->pre_ok = max2(rk->pre_ok, t + d->p.t[DRAM_tPPD]);
	rk->ref_ok = max2(rk->ref_ok, t + d->p.t[DRAM_tRP]);
	rk->open--;
	c->st.precharges++;
}

static void do_ref(const dram *d, dram_chan *c, uint64_t t, uint32_t rank)
{
	dram_rank *rk = &c->rk[rank];

	CXL_ASSERT(!rk->open && rk->ref_pending);
	rk->act_ok = max2(rk->act_ok, t + d->p.t[DRAM_tRFC]);
	rk->ref_ok = max2(rk->ref_ok, t + d->p.t[DRAM_tRFC]);
	rk->ref_pending = 0;
	rk->ref_due += d->p.t[DRAM_tREFI];
	c->st.refreshes++;
}

/* RD or WR of request @r at @t: constraints, data bus; returns the burst's end. */
static uint64_t do_col(const dram *d, dram_chan *c, uint64_t t, const dram_req *r)
{
	const uint32_t *tm = d->p.t;
	dram_bank *b = &c->bk[r->bank];
	dram_bgrp *g = &c->bg[r->bgi];
	dram_rank *rk = &c->rk[r->rank];
	uint64_t start = t + (r->write ? tm[DRAM_tCWL] : tm[DRAM_tCL]);
	uint64_t end = start + tm[DRAM_tBL];

	CXL_ASSERT(b->open && b->row == r->row);
	if (r->write) {
		b->pre_ok = max2(b->pre_ok, end + tm[DRAM_tWR]);
		g->wr_ok = max2(g->wr_ok, t + tm[DRAM_tCCD_L_WR]);
		g->rd_ok = max2(g->rd_ok, end + tm[DRAM_tWTR_L]);
		rk->wr_ok = max2(rk->wr_ok, t + tm[DRAM_tCCD_S]);
		rk->rd_ok = max2(rk->rd_ok, end + tm[DRAM_tWTR_S]);
		c->st.writes++;
	} else {
		b->pre_ok = max2(b->pre_ok, t + tm[DRAM_tRTP]);
		g->rd_ok = max2(g->rd_ok, t + tm[DRAM_tCCD_L]);
		rk->rd_ok = max2(rk->rd_ok, t + tm[DRAM_tCCD_S]);
		rk->wr_ok = max2(rk->wr_ok, t + tm[DRAM_tRTW]);
		c->st.reads++;
	}
	c->bus_end = end;
	c->bus_rank = r->rank;
	c->st.busy_cycles += tm[DRAM_tBL];
	return end;
}

/* Remove the request at @qi (its column command issued). */
static void dequeue(dram_chan *c, uint32_t qi)
{
	c->nwrites -= c->q[qi].write;
	memmove(&c->q[qi], &c->q[qi + 1], (c->n - qi - 1) * sizeof(*c->q));
	c->n--;
	c->bypass = qi ? c->bypass + 1 : 0;
}

static void record(dram *d, const dram_chan *c, const dram_cand *k)
{
	uint32_t per = d->p.bankgroups * d->p.banks;
	dram_cmd_rec rec = {
		.cycle = k->t, .ch = (uint32_t)(c - d->ch), .cmd = k->cmd, .rank = (uint8_t)k->rank,
		.bg = (uint8_t)(k->bank % per / d->p.banks), .bank = (uint8_t)(k->bank % d->p.banks),
		.tag = DRAM_NO_TAG,
	};

	if (k->qi != UINT32_MAX) {
		rec.tag = c->q[k->qi].tag;
		rec.row = c->q[k->qi].row;
	}
	if (k->cmd == DRAM_PRE)
		rec.row = c->bk[k->bank].row; /* the row it closes */
	d->trace(d->trace_ctx, &rec);
}

/**
 * dram__issue - issue command @k at cycle k->t on channel @c.
 * @fn, @ctx: the caller's callback for a RD/WR (must not be NULL then)
 */
void dram__issue(dram *d, dram_chan *c, const dram_cand *k, dram_issue_fn *fn, void *ctx)
{
	dram_req *r = k->qi != UINT32_MAX ? &c->q[k->qi] : NULL;

	if (d->trace)
		record(d, c, k);
	c->cmd_ok = k->t + (k->cmd == DRAM_PRE || k->cmd == DRAM_REF ? 1 : d->p.t[DRAM_tCMD]);
	switch (k->cmd) {
	case DRAM_ACT:
		do_act(d, c, k->t, k->rank, k->bank, r->row);
		classify(r, DRAM_CLS_MISS);
		break;
	case DRAM_PRE:
		do_pre(d, c, k->t, k->rank, k->bank);
		if (r)
			classify(r, DRAM_CLS_CONFLICT);
		break;
	case DRAM_REF:
		do_ref(d, c, k->t, k->rank);
		break;
	default: {
		CXL_ASSERT(fn && r);
		uint64_t end = do_col(d, c, k->t, r);
		classify(r, DRAM_CLS_HIT);
		c->st.row_hits += r->cls == DRAM_CLS_HIT;
		c->st.row_misses += r->cls == DRAM_CLS_MISS;
		c->st.row_conflicts += r->cls == DRAM_CLS_CONFLICT;
		c->st.wait_ps += dram_cycle_ps(d, k->t) - r->arrive;
		uint64_t tag = r->tag;
		dequeue(c, k->qi);
		fn(ctx, tag, dram_cycle_ps(d, end));
	}
	}
}
