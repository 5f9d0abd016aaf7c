/*
 * test/models/memory/dram_check.c - the DRAM command-trace checker (see
 * dram_check.h).  Written from the rules, sharing no code with
 * models/memory/dram_sched.c: it reads only the parameters and the trace records.
 * Cost: O(n x commands within the largest separation) per channel.
 */
#include "test/models/memory/dram_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const cmd_name[DRAM_NCMD] = { "ACT", "PRE", "RD", "WR", "REF" };

typedef struct ck ck;
struct ck {
	const dram_params *p;
	dck_result *out;
};

static void bad(ck *k, const char *fmt, ...)
{
	va_list ap;

	if (!k->out->violations++) {
		va_start(ap, fmt);
		vsnprintf(k->out->first, sizeof(k->out->first), fmt, ap);
		va_end(ap);
	}
}

/* One minimum-separation rule between a (earlier) and b (later). */
static void sep(ck *k, const dram_cmd_rec *a, const dram_cmd_rec *b, uint64_t need,
		const char *rule)
{
	if (b->cycle - a->cycle < need)
		bad(k, "ch%u: %s: %s@%llu -> %s@%llu is %llu cycles (need %llu)", b->ch, rule,
		    cmd_name[a->cmd], (unsigned long long)a->cycle, cmd_name[b->cmd],
		    (unsigned long long)b->cycle, (unsigned long long)(b->cycle - a->cycle),
		    (unsigned long long)need);
}

static int is_col(const dram_cmd_rec *r)
{
	return r->cmd == DRAM_RD || r->cmd == DRAM_WR;
}

static void pair(ck *k, const dram_cmd_rec *a, const dram_cmd_rec *b)
{
	const uint32_t *t = k->p->t;
	int rank = a->rank == b->rank && a->cmd != DRAM_REF && b->cmd != DRAM_REF;
	int ref_rank = a->rank == b->rank;
	int bg = rank && a->bg == b->bg;
	int bank = bg && a->bank == b->bank;
	uint8_t x = a->cmd, y = b->cmd;

	k->out->pairs++;
	if (bank && x == DRAM_ACT && y == DRAM_ACT)
		sep(k, a, b, t[DRAM_tRC], "tRC");
	if (bank && x == DRAM_ACT && is_col(b))
		sep(k, a, b, t[DRAM_tRCD], "tRCD");
	if (bank && x == DRAM_ACT && y == DRAM_PRE)
		sep(k, a, b, t[DRAM_tRAS], "tRAS");
	if (bank && x == DRAM_PRE && y == DRAM_ACT)
		sep(k, a, b, t[DRAM_tRP], "tRP");
	if (bank && x == DRAM_RD && y == DRAM_PRE)
		sep(k, a, b, t[DRAM_tRTP], "tRTP");
	if (bank && x == DRAM_WR && y == DRAM_PRE)
		sep(k, a, b, t[DRAM_tCWL] + t[DRAM_tBL] + t[DRAM_tWR], "tWR");
	if (rank && !bank && x == DRAM_ACT && y == DRAM_ACT)
		sep(k, a, b, bg ? t[DRAM_tRRD_L] : t[DRAM_tRRD_S], bg ? "tRRD_L" : "tRRD_S");
	if (rank && x == DRAM_RD && y == DRAM_RD)
		sep(k, a, b, bg ? t[DRAM_tCCD_L] : t[DRAM_tCCD_S], bg ? "tCCD_L" : "tCCD_S");
	if (rank && x == DRAM_WR && y == DRAM_WR)
		sep(k, a, b, bg ? t[DRAM_tCCD_L_WR] : t[DRAM_tCCD_S], bg ? "tCCD_L_WR" : "tCCD_S");
	if (rank && x == DRAM_WR && y == DRAM_RD)
		sep(k, a, b, t[DRAM_tCWL] + t[DRAM_tBL] + (bg ? t[DRAM_tWTR_L] : t[DRAM_tWTR_S]),
		    bg ? "tWTR_L" : "tWTR_S");
	if (rank && x == DRAM_RD && y == DRAM_WR)
		sep(k, a, b, t[DRAM_tRTW], "tRTW");
	if (rank && x == DRAM_PRE && y == DRAM_PRE)
		sep(k, a, b, t[DRAM_tPPD], "tPPD");
	if (ref_rank && x == DRAM_PRE && y == DRAM_REF)
		sep(k, a, b, t[DRAM_tRP], "tRP (PRE->REF)");
	if (ref_rank && x == DRAM_ACT && y == DRAM_REF)
		sep(k, a, b, t[DRAM_tRC], "tRC (ACT->REF)");
	if (ref_rank && x == DRAM_REF && (y == DRAM_ACT || y == DRAM_REF))
		sep(k, a, b, t[DRAM_tRFC], "tRFC");
}

/* The largest separation any pair rule asks for, plus one (tREFI is no pair rule). */
static uint64_t window(const dram_params *p)
{
	uint64_t w = 0;

	for (int i = 0; i < DRAM_NTIMING; i++)
		if (i != DRAM_tREFI)
			w = p->t[i] > w ? p->t[i] : w;
	uint64_t wr = (uint64_t)p->t[DRAM_tCWL] + p->t[DRAM_tBL] +
		      (p->t[DRAM_tWR] > p->t[DRAM_tWTR_L] ? p->t[DRAM_tWR] : p->t[DRAM_tWTR_L]);
	return (wr > w ? wr : w) + 1;
}

typedef struct burst burst;
struct burst {
	uint64_t start, end; /* data cycles [start, end) */
	uint8_t rank;        /* rank */
};

static int burst_cmp(const void *x, const void *y)
{
	const burst *a = x, *b = y;

	return a->start < b->start ? -1 : a->start > b->start;
}

static void data_bus(ck *k, burst *b, size_t n, uint32_t ch)
{
	qsort(b, n, sizeof(*b), burst_cmp);
	for (size_t i = 1; i < n; i++) {
		uint64_t gap = b[i].rank != b[i - 1].rank ? k->p->t[DRAM_tRTRS] : 0;
		if (b[i].start < b[i - 1].end + gap)
			bad(k, "ch%u: data bus: burst at %llu starts before %llu (previous burst "
			    "ends %llu, rank gap %llu)", ch, (unsigned long long)b[i].start,
			    (unsigned long long)(b[i - 1].end + gap),
			    (unsigned long long)b[i - 1].end, (unsigned long long)gap);
	}
}

typedef struct bstate bstate;
struct bstate {
	uint8_t open; /* 1: a row is open */
	uint32_t row; /* which */
};

/* Bank state machine for command @r; @bs indexed by flat bank. */
static void state(ck *k, const dram_cmd_rec *r, bstate *bs)
{
	const dram_params *p = k->p;
	uint32_t per = p->bankgroups * p->banks;
	bstate *b = &bs[r->rank * per + r->bg * p->banks + r->bank];

	switch (r->cmd) {
	case DRAM_ACT:
		if (b->open)
			bad(k, "ch%u: ACT@%llu to an open bank", r->ch, (unsigned long long)r->cycle);
		b->open = 1;
		b->row = r->row;
		break;
	case DRAM_PRE:
		if (!b->open)
			bad(k, "ch%u: PRE@%llu to a closed bank", r->ch, (unsigned long long)r->cycle);
		b->open = 0;
		break;
	case DRAM_REF:
		for (uint32_t i = 0; i < per; i++)
			if (bs[r->rank * per + i].open) {
				bad(k, "ch%u: REF@%llu with bank %u open", r->ch,
				    (unsigned long long)r->cycle, i);
				break;
			}
		break;
	default:
		if (!b->open || b->row != r->row)
			bad(k, "ch%u: %s@%llu to row %u, open: %s %u", r->ch, cmd_name[r->cmd],
			    (unsigned long long)r->cycle, r->row, b->open ? "row" : "none", b->row);
	}
}

/* tFAW and refresh cadence for one rank's ACT and REF cycles. */
static void rank_rules(ck *k, const uint64_t *act, size_t nact, const uint64_t *ref,
		       size_t nref, uint64_t end, uint32_t ch)
{
	const uint32_t *t = k->p->t;
	uint64_t hi = (uint64_t)t[DRAM_tREFI] * 11 / 10, lo = (uint64_t)t[DRAM_tREFI] * 9 / 10;

	for (size_t i = 4; i < nact; i++)
		if (act[i] - act[i - 4] < t[DRAM_tFAW])
			bad(k, "ch%u: tFAW: 5 ACTs in %llu cycles (%llu..%llu, need %u)", ch,
			    (unsigned long long)(act[i] - act[i - 4]),
			    (unsigned long long)act[i - 4], (unsigned long long)act[i], t[DRAM_tFAW]);
	if (!k->p->refresh) {
		if (nref)
			bad(k, "ch%u: REF with refresh off", ch);
		return;
	}
	if (end > hi && (!nref || ref[0] > hi))
		bad(k, "ch%u: first REF late (%llu)", ch, nref ? (unsigned long long)ref[0] : 0ull);
	for (size_t i = 1; i < nref; i++)
		if (ref[i] - ref[i - 1] > hi || ref[i] - ref[i - 1] < lo)
			bad(k, "ch%u: REF interval %llu (tREFI %u)", ch,
			    (unsigned long long)(ref[i] - ref[i - 1]), t[DRAM_tREFI]);
	if (nref && end > ref[nref - 1] + hi)
		bad(k, "ch%u: no REF from %llu to the end %llu", ch,
		    (unsigned long long)ref[nref - 1], (unsigned long long)end);
}

static void channel(ck *k, const dram_cmd_rec *rec, size_t n, uint32_t ch, uint64_t end)
{
	const dram_params *p = k->p;
	uint32_t per = p->bankgroups * p->banks;
	bstate *bs = calloc((size_t)p->ranks * per, sizeof(*bs));
	const dram_cmd_rec **c = malloc((n + 1) * sizeof(*c));
	burst *b = malloc((n + 1) * sizeof(*b));
	uint64_t *act = malloc((n + 1) * sizeof(*act)), *ref = malloc((n + 1) * sizeof(*ref));
	size_t m = 0, nb = 0;
	uint64_t w = window(p);

	for (size_t i = 0; i < n; i++)
		if (rec[i].ch == ch)
			c[m++] = &rec[i];
	for (size_t j = 0; j < m; j++) {
		const dram_cmd_rec *r = c[j];
		if (j) {
			const dram_cmd_rec *q = c[j - 1];
			uint64_t occ = q->cmd == DRAM_PRE || q->cmd == DRAM_REF ? 1 : p->t[DRAM_tCMD];
			if (r->cycle < q->cycle + occ)
				bad(k, "ch%u: command bus: %s@%llu after %s@%llu", ch, cmd_name[r->cmd],
				    (unsigned long long)r->cycle, cmd_name[q->cmd],
				    (unsigned long long)q->cycle);
		}
		state(k, r, bs);
		for (size_t i = j; i-- > 0 && r->cycle - c[i]->cycle < w;)
			pair(k, c[i], r);
		if (is_col(r)) {
			uint64_t s = r->cycle + (r->cmd == DRAM_RD ? p->t[DRAM_tCL] : p->t[DRAM_tCWL]);
			b[nb++] = (burst){ s, s + p->t[DRAM_tBL], r->rank };
		}
	}
	data_bus(k, b, nb, ch);
	for (uint32_t rk = 0; rk < p->ranks; rk++) {
		size_t na = 0, nr = 0;
		for (size_t j = 0; j < m; j++) {
			if (c[j]->rank != rk)
				continue;
			if (c[j]->cmd == DRAM_ACT)
				act[na++] = c[j]->cycle;
			if (c[j]->cmd == DRAM_REF)
				ref[nr++] = c[j]->cycle;
		}
		k->out->refs += nr;
		rank_rules(k, act, na, ref, nr, end, ch);
	}
	free(bs);
	free(c);
	free(b);
	free(act);
	free(ref);
}

void dck_run(const dram_params *p, const dram_cmd_rec *rec, size_t n, uint64_t end_cycle,
	     dck_result *out)
{
	ck k = { p, out };

	memset(out, 0, sizeof(*out));
	for (uint32_t ch = 0; ch < p->channels; ch++)
		channel(&k, rec, n, ch, end_cycle);
}
