/*
 * test/models/memory/test_dram_ckpt.c - the DRAM model's checkpoint
 * (models/memory/dram_ckpt.c): a DRAM saved in the middle of a run and
 * loaded into a fresh one of the same parameters issues exactly the same
 * commands from then on (every completion's tag and time, every channel's
 * statistics), for DDR4-3200 and DDR5-4800, open and closed page, with
 * refresh (the run passes several tREFI).  Tags are visited through the
 * caller's function (here they are plain numbers, saved as such).
 *
 * The driver: random lines (a stream with random jumps, a third writes)
 * at random gaps, each channel advanced to every arrival, a request that
 * finds its queue full dropped (deterministic, so both copies drop the
 * same), and the time jumping to the earliest dram_next_time() when it
 * comes before the next arrival.
 */
#include "models/memory/dram.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/ckpt.h"
#include "core/rng.h"
#include "models/memory/dram_int.h"

#define CK_LOG 20000 /* completions recorded per copy */

typedef struct ck_run ck_run;
struct ck_run {
	dram *d;              /* the DRAM */
	sim_time now;         /* driver time, ps */
	sim_time next_arr;    /* next arrival, ps */
	uint64_t line;        /* stream position */
	uint64_t tag;         /* next request's tag */
	cxl_rng r;            /* arrivals */
	uint64_t log[CK_LOG]; /* hash of (tag, done) per completion */
	uint32_t nlog;        /* completions */
};

static void on_issue(void *ctx, uint64_t tag, sim_time done)
{
	ck_run *x = ctx;

	ck_assert_uint_lt(x->nlog, CK_LOG);
	x->log[x->nlog++] = rng_mix64(tag * 1000003u + done);
}

/* Run @x until time @until: arrivals, advances, timers. */
static void drive(ck_run *x, sim_time until)
{
	uint32_t nch = dram_params_get(x->d)->channels;

	while (x->now < until) {
		for (uint32_t c = 0; c < nch; c++)
			dram_advance(x->d, c, x->now, on_issue, x);
		if (x->now == x->next_arr) {
			if (!rng_below(&x->r, 6))
				x->line = rng_below(&x->r, UINT64_C(1) << 26);
			uint64_t l = x->line++;
			if (!dram_full(x->d, dram_channel_of(x->d, l)))
				dram_enqueue(x->d, l, !rng_below(&x->r, 3), x->now, x->tag++);
			x->next_arr += 1 + rng_below(&x->r, 12000);
		}
		sim_time t = x->next_arr;
		for (uint32_t c = 0; c < nch; c++) {
			sim_time n = dram_next_time(x->d, c);
			t = n < t ? n : t;
		}
		x->now = t;
	}
}

/* dram_tag_ckpt_fn for tags that are plain numbers. */
static void tag_num(void *ctx, ckpt *k, uint64_t *tag)
{
	(void)ctx;
	CKPT(k, *tag);
}

static void copy_and_compare(const char *preset, int closed)
{
	dram_params p = *dram_preset(preset);
	ck_run *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	pack_w w = { 0 };

	p.closed_page = (uint8_t)closed;
	a->d = dram_create(&p);
	rng_seed(&a->r, 11, (uint32_t)closed);
	drive(a, 9000000); /* 9 us: past tREFI (7.8 us / ranks) */
	ck_assert_uint_gt(a->nlog, 100);
	uint32_t queued = 0;
	for (uint32_t c = 0; c < p.channels; c++)
		queued += dram_queued(a->d, c);
	ck_assert_uint_gt(queued, 0); /* tags to visit */
	ckpt ks = { .loading = 0, .w = &w };
	dram_ckpt(a->d, &ks, tag_num, NULL);

	*b = *a; /* the driver's state; the DRAM is replaced */
	b->d = dram_create(&p);
	pack_r rd = { .p = w.p, .n = w.n };
	ckpt kl = { .loading = 1, .r = &rd };
	dram_ckpt(b->d, &kl, tag_num, NULL);
	ck_assert_msg(!ckpt_failed(&kl), "load: %s", kl.why);
	ck_assert_uint_eq(rd.off, w.n);
	drive(a, 30000000);
	drive(b, 30000000);
	ck_assert_uint_eq(a->nlog, b->nlog);
	ck_assert_int_eq(memcmp(a->log, b->log, a->nlog * sizeof(a->log[0])), 0);
	uint64_t refs = 0;
	for (uint32_t c = 0; c < p.channels; c++) {
		ck_assert_int_eq(memcmp(dram_stats_get(a->d, c), dram_stats_get(b->d, c),
					sizeof(dram_stats)), 0);
		refs += dram_stats_get(a->d, c)->refreshes;
	}
	ck_assert_uint_gt(refs, 0);
	free(w.p);
	dram_destroy(a->d);
	dram_destroy(b->d);
	free(a);
	free(b);
}

START_TEST(test_dram_ckpt_copy_issues_alike)
{
	static const char *const presets[] = { "DDR4-3200", "DDR5-4800" };

	copy_and_compare(presets[_i / 2], _i % 2);
}
END_TEST

Suite *dram_ckpt_suite(void)
{
	Suite *su = suite_create("dram_ckpt");
	TCase *tc = tcase_create("ckpt");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_dram_ckpt_copy_issues_alike, 0, 4);
	suite_add_tcase(su, tc);
	return su;
}
