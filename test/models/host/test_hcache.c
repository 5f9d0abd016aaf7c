/*
 * test/models/host/test_hcache.c - unit tests for models/host/hcache.c: hits and
 * misses, LRU victims within a set, write-back state, invalidation, and
 * parameters, against a small reference model on random sequences; a
 * checkpoint round trip (hcache_ckpt).
 */
#include "models/host/hcache.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

START_TEST(test_hcache_lru_and_states)
{
	hcache h;
	char why[128];
	uint64_t v = 0;

	ck_assert_int_eq(hcache_init(&h, 8, 2, why), 0);   /* 4 sets x 2 ways */
	ck_assert_int_eq(hcache_fill(&h, 0, HCACHE_CLEAN, &v), HCACHE_INVALID);
	ck_assert_int_eq(hcache_fill(&h, 4, HCACHE_DIRTY, &v), HCACHE_INVALID);
	ck_assert_int_eq(hcache_lookup(&h, 0), HCACHE_CLEAN);   /* 0 now newer than 4 */
	ck_assert_int_eq(hcache_fill(&h, 8, HCACHE_CLEAN, &v), HCACHE_DIRTY);
	ck_assert_uint_eq(v, 4);
	ck_assert_int_eq(hcache_peek(&h, 4), HCACHE_INVALID);
	ck_assert_int_eq(hcache_peek(&h, 1), HCACHE_INVALID);
	/* peek does not touch LRU: 0 stays older than 8 */
	ck_assert_int_eq(hcache_peek(&h, 0), HCACHE_CLEAN);
	ck_assert_int_eq(hcache_fill(&h, 12, HCACHE_CLEAN, &v), HCACHE_CLEAN);
	ck_assert_uint_eq(v, 0);
	/* refill of a present line changes state only */
	ck_assert_int_eq(hcache_fill(&h, 12, HCACHE_DIRTY, &v), HCACHE_INVALID);
	ck_assert_int_eq(hcache_peek(&h, 12), HCACHE_DIRTY);
	ck_assert_uint_eq(h.nvalid, 2);
	ck_assert_int_eq(hcache_invalidate(&h, 12), HCACHE_DIRTY);
	ck_assert_int_eq(hcache_invalidate(&h, 12), HCACHE_INVALID);
	ck_assert_uint_eq(h.nvalid, 1);
	/* another set is independent */
	ck_assert_int_eq(hcache_fill(&h, 1, HCACHE_CLEAN, &v), HCACHE_INVALID);
	hcache_free(&h);
	ck_assert_int_eq(hcache_init(&h, 6, 4, why), -1);
	ck_assert_str_eq(why, "6 lines are not a multiple of 4 ways");
	ck_assert_int_eq(hcache_init(&h, 0, 4, why), -1);
}
END_TEST

/* Reference: per set an array of (line, state, last use), linear scans. */
START_TEST(test_hcache_matches_reference)
{
	enum { LINES = 64, ASSOC = 4, SETS = LINES / ASSOC, OPS = 20000 };
	struct { uint64_t line; int state; uint64_t used; } ref[SETS][ASSOC];
	hcache h;
	char why[128];
	uint64_t clock = 0;

	memset(ref, 0, sizeof(ref));
	ck_assert_int_eq(hcache_init(&h, LINES, ASSOC, why), 0);
	srand(7);
	for (int op = 0; op < OPS; op++) {
		uint64_t line = (uint64_t)(rand() % 200);
		int kind = rand() % 3, s = (int)(line % SETS), hit = -1;
		for (int w = 0; w < ASSOC; w++)
			if (ref[s][w].state && ref[s][w].line == line)
				hit = w;
		if (kind == 0) {
			ck_assert_int_eq(hcache_lookup(&h, line), hit < 0 ? 0 : ref[s][hit].state);
			if (hit >= 0)
				ref[s][hit].used = ++clock;
		} else if (kind == 1) {
			int st = 1 + rand() % 2, w = hit;
			uint64_t v = 0, want_v = 0;
			int want = 0;
			if (w < 0) {
				w = 0;
				for (int k = 0; k < ASSOC; k++) {
					if (!ref[s][k].state) { w = k; break; }
					if (ref[s][k].used < ref[s][w].used)
						w = k;
				}
				want = ref[s][w].state;
				want_v = ref[s][w].line;
				ref[s][w].line = line;
			}
			ck_assert_int_eq(hcache_fill(&h, line, st, &v), want);
			if (want)
				ck_assert_uint_eq(v, want_v);
			ref[s][w].state = st;
			ref[s][w].used = ++clock;
		} else {
			ck_assert_int_eq(hcache_invalidate(&h, line), hit < 0 ? 0 : ref[s][hit].state);
			if (hit >= 0)
				ref[s][hit].state = 0;
		}
	}
	hcache_free(&h);
}
END_TEST

/*
 * hcache_ckpt: a cache restored from a checkpoint holds the same lines in the
 * same states and evicts the same victims afterwards; a checkpoint of
 * another geometry is refused.
 */
START_TEST(test_hcache_ckpt_round_trip)
{
	hcache a, b, c;
	char why[128];
	pack_w w = { 0 };

	ck_assert_int_eq(hcache_init(&a, 64, 4, why), 0);
	ck_assert_int_eq(hcache_init(&b, 64, 4, why), 0);
	ck_assert_int_eq(hcache_init(&c, 64, 8, why), 0);
	srand(11);
	for (int op = 0; op < 3000; op++) {
		uint64_t v;
		if (rand() % 3)
			hcache_fill(&a, (uint64_t)(rand() % 300), 1 + rand() % 3, &v);
		else
			hcache_invalidate(&a, (uint64_t)(rand() % 300));
	}
	ckpt save = { .loading = 0, .w = &w };
	hcache_ckpt(&a, &save);
	pack_r r = { .p = w.p, .n = w.n };
	ckpt load = { .loading = 1, .r = &r };
	hcache_ckpt(&b, &load);
	ck_assert_msg(!ckpt_failed(&load), "%s", load.why);
	ck_assert_uint_eq(r.off, r.n);
	ck_assert_uint_eq(a.nvalid, b.nvalid);
	for (int op = 0; op < 3000; op++) {
		uint64_t line = (uint64_t)(rand() % 300), va = 0, vb = 0;
		int st = 1 + rand() % 3;
		ck_assert_int_eq(hcache_lookup(&a, line), hcache_lookup(&b, line));
		ck_assert_int_eq(hcache_fill(&a, line, st, &va), hcache_fill(&b, line, st, &vb));
		ck_assert_uint_eq(va, vb);
	}
	r = (pack_r){ .p = w.p, .n = w.n };
	load = (ckpt){ .loading = 1, .r = &r };
	hcache_ckpt(&c, &load);
	ck_assert(ckpt_failed(&load));
	hcache_free(&a);
	hcache_free(&b);
	hcache_free(&c);
	free(w.p);
}
END_TEST

Suite *hcache_suite(void)
{
	Suite *s = suite_create("hcache");
	TCase *tc = tcase_create("hcache");

	tcase_add_test(tc, test_hcache_lru_and_states);
	tcase_add_test(tc, test_hcache_matches_reference);
	tcase_add_test(tc, test_hcache_ckpt_round_trip);
	suite_add_tcase(s, tc);
	return s;
}
