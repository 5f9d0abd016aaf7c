/*
 * test/models/coherence/test_sf_ckpt.c - the snoop filter's checkpoint
 * (models/coherence/sf_ckpt.c): a filter saved after random use and loaded
 * into a fresh one of the same parameters behaves exactly like the
 * original from then on, for every policy x invblk_max 1, 2, 4, fully
 * associative and 4-way.
 *
 * Phase 1 runs random operations on the original only (enough distinct
 * lines that the LFI count table grows past its first size); then it is
 * saved, loaded into the copy (sf_check() must pass), and phase 2 runs the
 * same random operations on both, comparing every result: entries found,
 * inserted, chosen as victims.  Also: a truncated checkpoint fails the
 * visitor, never overruns.
 */
#include "models/coherence/sf.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/ckpt.h"
#include "core/rng.h"
#include "models/coherence/sf_int.h"
#include "test/models/coherence/sf_fixture.h"

#define CK_ENTRIES 64 /* filter size */

/* One random operation on @s with draws from @r; a summary of what it did. */
static uint64_t step(sf *s, cxl_rng *r, uint64_t *stream)
{
	uint32_t op = (uint32_t)rng_below(r, 100);
	uint64_t line = rng_below(r, 8) ? (*stream)++ : rng_below(r, 4096);
	uint32_t v[SF_BLOCK], e = (uint32_t)rng_below(r, sf_entries(s));
	uint64_t h = op;

	if (op < 60) { /* access: hit touches; miss inserts or evicts */
		uint32_t f = sf_find(s, line);
		if (f != SF_NONE) {
			sf_touch(s, f);
			return h * 31 + f;
		}
		f = sf_insert(s, line);
		if (f != SF_NONE)
			return h * 37 + f;
		uint32_t n = sf_victims(s, line, v);
		for (uint32_t k = 0; k < n; k++) {
			h = h * 41 + v[k];
			if (rng_below(r, 5))
				sf_remove(s, v[k]);
		}
		return h;
	}
	if (!sf_entry_at(s, e)->valid)
		return h * 43;
	if (op < 75)
		sf_lock(s, e);
	else if (op < 90)
		sf_unlock(s, e);
	else
		sf_remove(s, e);
	return h * 47 + e;
}

static void save(sf *s, pack_w *w)
{
	ckpt k = { .loading = 0, .w = w };

	sf_ckpt(s, &k);
}

static int load(sf *s, const pack_w *w, size_t n, char *why, size_t whyn)
{
	pack_r rd = { .p = w->p, .n = n };
	ckpt k = { .loading = 1, .r = &rd };

	sf_ckpt(s, &k);
	snprintf(why, whyn, "%s", k.why);
	return ckpt_failed(&k) ? -1 : (rd.off == n ? 0 : -2);
}

START_TEST(test_sf_ckpt_copy_behaves_alike)
{
	static const uint32_t invs[] = { 1, 2, 4 };
	enum sf_policy pol = (enum sf_policy)(_i % SF_NPOLICY);
	uint32_t inv = invs[_i / SF_NPOLICY % 3], assoc = _i / (3 * SF_NPOLICY) ? 4 : 0;
	sf *a = sfx_mk(CK_ENTRIES, assoc, pol, inv), *b = sfx_mk(CK_ENTRIES, assoc, pol, inv);
	cxl_rng ra, rb;
	uint64_t sa = 0, sb;
	pack_w w = { 0 };
	char why[200];

	rng_seed(&ra, 7, _i);
	for (int i = 0; i < 3000; i++)
		step(a, &ra, &sa);
	if (pol == SF_LFI)
		REQ(a->lfi.nslots > 128); /* grown: loading must resize b's */
	save(a, &w);
	REQ_EQ(load(b, &w, w.n, why, sizeof(why)), 0);
	sf_check(b);
	REQ_EQ(sf_count(b), sf_count(a));
	rb = ra;
	sb = sa;
	for (int i = 0; i < 3000; i++) {
		uint64_t x = step(a, &ra, &sa), y = step(b, &rb, &sb);
		REQ_EQ(x, y);
		if (i % 64 == 0)
			REQ_EQ(sf_check(b), sf_check(a));
	}
	REQ_EQ(sf_count(b), sf_count(a));
	free(w.p);
	sf_destroy(a);
	sf_destroy(b);
}
END_TEST

START_TEST(test_sf_ckpt_truncated_fails)
{
	sf *a = sfx_mk(CK_ENTRIES, 4, SF_LFI, 2), *b = sfx_mk(CK_ENTRIES, 4, SF_LFI, 2);
	cxl_rng r;
	uint64_t st = 0;
	pack_w w = { 0 };
	char why[200];

	rng_seed(&r, 3, 0);
	for (int i = 0; i < 500; i++)
		step(a, &r, &st);
	save(a, &w);
	REQ_EQ(load(b, &w, w.n / 2, why, sizeof(why)), (uint64_t)-1);
	ck_assert_msg(why[0], "a reason");
	free(w.p);
	sf_destroy(a);
	sf_destroy(b);
}
END_TEST

Suite *sf_ckpt_suite(void)
{
	Suite *su = suite_create("sf_ckpt");
	TCase *tc = tcase_create("ckpt");

	tcase_add_loop_test(tc, test_sf_ckpt_copy_behaves_alike, 0, SF_NPOLICY * 3 * 2);
	tcase_add_test(tc, test_sf_ckpt_truncated_fails);
	suite_add_tcase(su, tc);
	return su;
}
