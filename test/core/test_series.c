/*
 * test/core/test_series.c - unit tests for core/series.c.
 *
 * Cells: a value lands in period t / P (a time on a boundary opens the next
 * period); arrays grow by doubling with zero cells between; SERIES_MAX keeps
 * the largest.  Spans: an interval across boundaries is split exactly (each
 * part the overlap, the parts add up to the length), checked against a
 * per-ps reference on random intervals; levels integrate level x time and
 * series_close() ends them at the given time.  NULL handles do nothing.
 * Aggregates: one histogram per period.  Pack/merge: a round trip gives the
 * same table; components and aggregates split over 1, 2 or 3 "ranks" in
 * several ways and merged in any order give byte-identical tables; bad
 * buffers (every truncation, trailing bytes, another period, a component
 * from two ranks) fail with CXL_EINTERNAL.  The bound: series_cells() and
 * its suggested period.  Misuse (a name twice, ids out of order) panics.
 * All randomness comes from a xorshift64* generator seeded here.
 */
#include "core/series.h"
#include "test/core/panic_fixture.h"

#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define P 100 /* the sample period of most tests, ps */

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

/* --- cells ---------------------------------------------------------------- */

START_TEST(test_series_add_lands_in_its_period)
{
	series_set s;

	series_set_init(&s, P);
	series *x = series_new(&s, 3, "n", SERIES_SUM);
	series_add(x, 0, 1);
	series_add(x, 99, 2);
	series_add(x, 100, 4);   /* a boundary opens the next period */
	series_add(x, 1250, 8);  /* period 12: grows past the first 8 cells */
	ck_assert_uint_eq(x->acc, 8); /* the current period's cell, in the struct */
	series_close(&s, 1300);
	ck_assert_uint_eq(x->n, 13);
	ck_assert_uint_ge(x->cap, 13);
	ck_assert_uint_eq(series_at(x, 0), 3);
	ck_assert_uint_eq(series_at(x, 1), 4);
	for (uint32_t k = 2; k < 12; k++)
		ck_assert_uint_eq(series_at(x, k), 0);
	ck_assert_uint_eq(series_at(x, 12), 8);
	ck_assert_uint_eq(series_at(x, 13), 0); /* beyond what it holds */
	ck_assert_uint_eq(series_at(x, 1000), 0);
	series_set_free(&s);
}
END_TEST

START_TEST(test_series_max_keeps_largest)
{
	series_set s;

	series_set_init(&s, P);
	series *x = series_new(&s, 0, "m", SERIES_MAX);
	series_max(x, 10, 5);
	series_max(x, 20, 3);
	series_max(x, 30, 9);
	series_max(x, 150, 1);
	series_close(&s, 150);
	ck_assert_uint_eq(series_at(x, 0), 9);
	ck_assert_uint_eq(series_at(x, 1), 1);
	series_set_free(&s);
}
END_TEST

START_TEST(test_series_null_handles_do_nothing)
{
	series_add(NULL, 5, 1);
	series_max(NULL, 5, 1);
	series_span(NULL, 0, 1000);
	series_level(NULL, 5, 3);
	series_hist_add(NULL, 5, 7);
}
END_TEST

/* --- spans and levels ------------------------------------------------------ */

START_TEST(test_series_span_across_boundaries_splits_exactly)
{
	series_set s;

	series_set_init(&s, P);
	series *x = series_new(&s, 0, "busy", SERIES_TIME);
	series_span(x, 50, 350); /* 50 + 100 + 100 + 50 */
	ck_assert_uint_eq(x->k, 3);
	series_span(x, 400, 500); /* exactly period 4: nothing spills into 5 */
	ck_assert_uint_eq(x->k, 4);
	series_span(x, 420, 420); /* empty */
	series_span(x, 999, 1000); /* the last ps of period 9 */
	series_span(x, 850, 1000); /* began before the current period: 50 + 100 */
	series_close(&s, 1000);
	ck_assert_uint_eq(x->n, 10);
	ck_assert_uint_eq(series_at(x, 0), 50);
	ck_assert_uint_eq(series_at(x, 1), 100);
	ck_assert_uint_eq(series_at(x, 2), 100);
	ck_assert_uint_eq(series_at(x, 3), 50);
	ck_assert_uint_eq(series_at(x, 4), 100);
	ck_assert_uint_eq(series_at(x, 5), 0);
	ck_assert_uint_eq(series_at(x, 8), 50);
	ck_assert_uint_eq(series_at(x, 9), 101);
	series_set_free(&s);
}
END_TEST

/* Random spans and levels against a per-ps reference array. */
START_TEST(test_series_span_and_level_match_reference)
{
	enum { T = 5000, PER = 37 };
	static uint64_t ref_span[T], ref_level[T];
	uint64_t seed = 0xabcdef12345ULL;
	series_set s;

	memset(ref_span, 0, sizeof(ref_span));
	memset(ref_level, 0, sizeof(ref_level));
	series_set_init(&s, PER);
	series *sp = series_new(&s, 0, "span", SERIES_TIME);
	series *lv = series_new(&s, 0, "level", SERIES_TIME);
	sim_time t = 0;
	uint64_t level = 0;
	for (int i = 0; i < 2000; i++) {
		sim_time a = next_rand(&seed) % T, b = a + next_rand(&seed) % 300;
		b = b > T ? T : b;
		series_span(sp, a, b);
		for (sim_time u = a; u < b; u++)
			ref_span[u]++;
	}
	while (t < T - 400) {
		sim_time next = t + next_rand(&seed) % 200;
		for (sim_time u = t; u < next; u++)
			ref_level[u] += level;
		t = next;
		level = next_rand(&seed) % 5;
		series_level(lv, t, level);
	}
	for (sim_time u = t; u < T; u++)
		ref_level[u] += level;
	series_close(&s, T);
	for (uint32_t k = 0; k * PER < T; k++) {
		uint64_t want_s = 0, want_l = 0;
		for (sim_time u = (sim_time)k * PER; u < (sim_time)(k + 1) * PER && u < T; u++) {
			want_s += ref_span[u];
			want_l += ref_level[u];
		}
		if (series_at(sp, k) != want_s || series_at(lv, k) != want_l)
			ck_abort_msg("period %u: span %llu (want %llu), level %llu (want %llu)", k,
				     (unsigned long long)series_at(sp, k), (unsigned long long)want_s,
				     (unsigned long long)series_at(lv, k), (unsigned long long)want_l);
	}
	ck_assert(s.closed);
	ck_assert_uint_eq(s.end, T);
	series_set_free(&s);
}
END_TEST

START_TEST(test_series_close_ends_levels_at_end)
{
	series_set s;

	series_set_init(&s, P);
	series *x = series_new(&s, 0, "q", SERIES_TIME);
	series_level(x, 30, 2);
	series_close(&s, 250); /* 2 x 70, 2 x 100, 2 x 50 */
	ck_assert_uint_eq(series_at(x, 0), 140);
	ck_assert_uint_eq(series_at(x, 1), 200);
	ck_assert_uint_eq(series_at(x, 2), 100);
	ck_assert_uint_eq(series_nperiods(&s), 3);
	series_set_free(&s);
}
END_TEST

START_TEST(test_series_nperiods_to_the_last_event)
{
	series_set s;

	series_set_init(&s, P);
	series_new(&s, 0, "idle", SERIES_SUM);
	series_close(&s, 0);
	ck_assert_uint_eq(series_nperiods(&s), 1);
	series_close(&s, 100); /* an event at 100 opens period 1 */
	ck_assert_uint_eq(series_nperiods(&s), 2);
	series_close(&s, 199);
	ck_assert_uint_eq(series_nperiods(&s), 2);
	series_set_free(&s);
}
END_TEST

/* --- aggregates ------------------------------------------------------------ */

START_TEST(test_series_hist_per_period_shared_by_name)
{
	series_set s;

	series_set_init(&s, P);
	series_hist *a = series_hist_get(&s, "lat");
	ck_assert_ptr_eq(series_hist_get(&s, "lat"), a);
	ck_assert_ptr_ne(series_hist_get(&s, "other"), a);
	series_hist_add(a, 10, 500);
	series_hist_add(a, 20, 700);
	series_hist_add(a, 950, 9);
	series_hist_add(a, 80, 1); /* an earlier period again */
	ck_assert_uint_eq(a->n, 10);
	ck_assert_uint_eq(a->p[0].count, 3);
	ck_assert_uint_eq(a->p[0].sum, 1201);
	ck_assert_uint_eq(a->p[5].count, 0);
	ck_assert_uint_eq(a->p[9].max, 9);
	series_set_free(&s);
}
END_TEST

/* --- pack and merge -------------------------------------------------------- */

static const char *const names[] = { "completed", "busy_ps", "lat_max_ps" };
static const enum series_kind kinds[] = { SERIES_SUM, SERIES_TIME, SERIES_MAX };

/*
 * Component @id's series in @s, with contents that depend only on @id (a
 * subset of the names, values seeded by id), and its share of the
 * aggregates "lat" and "q" (whose bucket counts add when ranks merge).
 */
static void add_component(series_set *s, uint32_t id)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)id * 0x100000001b3ULL);

	next_rand(&seed);
	for (size_t k = 0; k < 3; k++) {
		if ((id + k) % 4 == 3)
			continue;
		series *x = series_new(s, id, names[k], kinds[k]);
		int n = (int)(next_rand(&seed) % 30); /* 0: an empty series */
		for (int j = 0; j < n; j++) {
			sim_time t = next_rand(&seed) % 2000;
			if (kinds[k] == SERIES_TIME)
				series_span(x, t, t + next_rand(&seed) % 500);
			else if (kinds[k] == SERIES_MAX)
				series_max(x, t, next_rand(&seed) >> 20);
			else
				series_add(x, t, next_rand(&seed) % 1000);
		}
	}
	series_hist *h = series_hist_get(s, id % 2 ? "lat" : "q");
	for (int j = 0; j < 20; j++) /* latency-like values: below 2^30 ps */
		series_hist_add(h, next_rand(&seed) % 2500, next_rand(&seed) >> (34 + j % 30));
}

/* A set made of the components of @ids (ascending), closed at 2600. */
static void build(series_set *s, const uint32_t *ids, size_t n)
{
	series_set_init(s, P);
	for (size_t i = 0; i < n; i++)
		add_component(s, ids[i]);
	series_close(s, 2600);
}

static int pack_into(series_set *t, const series_set *s, cxl_err *err)
{
	size_t len;
	void *buf = series_pack(s, &len);
	int rc = series_table_add(t, buf, len, err);

	free(buf);
	return rc;
}

/* The packed bytes of a table: equal bytes, equal tables. */
static void assert_same_bytes(const series_set *a, const series_set *b)
{
	size_t la, lb;
	void *x = series_pack(a, &la), *y = series_pack(b, &lb);

	ck_assert_uint_eq(la, lb);
	ck_assert_int_eq(memcmp(x, y, la), 0);
	free(x);
	free(y);
}

START_TEST(test_series_pack_round_trip)
{
	static const uint32_t ids[] = { 0, 1, 2, 5, 9, 10, 17 };
	series_set s, t;
	cxl_err err = { 0 };

	build(&s, ids, 7);
	series_set_init(&t, 0);
	ck_assert_int_eq(pack_into(&t, &s, &err), 0);
	ck_assert_int_eq(series_table_sort(&t, &err), 0);
	ck_assert_uint_eq(t.period, P);
	ck_assert_uint_eq(t.end, 2600);
	ck_assert_uint_eq(t.n, s.n);
	for (size_t i = 0; i < s.n; i++) {
		ck_assert_uint_eq(t.c[i].id, s.c[i].id);
		ck_assert_uint_eq(t.c[i].n, s.c[i].n);
		for (size_t j = 0; j < s.c[i].n; j++) {
			const series *a = s.c[i].s[j], *b = t.c[i].s[j];
			ck_assert_str_eq(a->name, b->name);
			ck_assert_int_eq(a->kind, b->kind);
			ck_assert_uint_eq(a->n, b->n);
			for (uint32_t k = 0; k < a->n; k++)
				if (a->v[k] != b->v[k])
					ck_abort_msg("%s cell %u differs", a->name, k);
		}
	}
	for (int k = 0; k < 2; k++) {
		const series_hist *a = series_hist_find(&s, k ? "q" : "lat");
		const series_hist *b = series_hist_find(&t, k ? "q" : "lat");
		ck_assert_ptr_nonnull(b);
		ck_assert_uint_eq(a->n, b->n);
		for (uint32_t p = 0; p < a->n; p++)
			if (a->p[p].count != b->p[p].count || a->p[p].sum != b->p[p].sum ||
			    a->p[p].max != b->p[p].max ||
			    stats_hist_quantile(&a->p[p], 0.5) != stats_hist_quantile(&b->p[p], 0.5))
				ck_abort_msg("aggregate %s period %u differs", a->name, p);
	}
	ck_assert_str_eq(t.h[0]->name, "lat"); /* sorted by name */
	ck_assert_ptr_null(series_hist_find(&t, "none"));
	ck_assert_ptr_nonnull(series_get(series_find(&t, 9), "completed"));
	ck_assert_ptr_null(series_find(&t, 3));
	series_set_free(&s);
	series_set_free(&t);
}
END_TEST

/* The same 12 components split over "ranks" in several ways, merged in any order. */
START_TEST(test_series_merge_independent_of_split_and_order)
{
	static const uint32_t all[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
	static const uint32_t a[] = { 0, 3, 6, 9 }, b[] = { 1, 4, 7, 10 }, c[] = { 2, 5, 8, 11 };
	static const uint32_t lo[] = { 0, 1, 2, 3, 4, 5 }, hi[] = { 6, 7, 8, 9, 10, 11 };
	series_set one, r[5], ref, t;
	cxl_err err = { 0 };

	build(&one, all, 12);
	series_set_init(&ref, 0);
	ck_assert_int_eq(pack_into(&ref, &one, &err), 0);
	ck_assert_int_eq(series_table_sort(&ref, &err), 0);
	build(&r[0], a, 4);
	build(&r[1], b, 4);
	build(&r[2], c, 4);
	build(&r[3], lo, 6);
	build(&r[4], hi, 6);
	static const int orders[][3] = { { 0, 1, 2 }, { 2, 1, 0 }, { 1, 2, 0 }, { 4, 3, -1 },
					 { 3, 4, -1 } };
	for (size_t o = 0; o < sizeof(orders) / sizeof(orders[0]); o++) {
		series_set_init(&t, 0);
		for (int k = 0; k < 3 && orders[o][k] >= 0; k++)
			ck_assert_int_eq(pack_into(&t, &r[orders[o][k]], &err), 0);
		ck_assert_int_eq(series_table_sort(&t, &err), 0);
		assert_same_bytes(&ref, &t);
		series_set_free(&t);
	}
	for (int k = 0; k < 5; k++)
		series_set_free(&r[k]);
	series_set_free(&one);
	series_set_free(&ref);
}
END_TEST

START_TEST(test_series_malformed_buffers_fail)
{
	static const uint32_t ids[] = { 1, 2, 4 };
	series_set s, t;
	cxl_err err = { 0 };
	size_t len;

	build(&s, ids, 3);
	unsigned char *buf = series_pack(&s, &len);
	for (size_t cut = 0; cut < len; cut++) {
		series_set_init(&t, 0);
		err = (cxl_err){ 0 };
		if (series_table_add(&t, buf, cut, &err) != CXL_EINTERNAL)
			ck_abort_msg("a buffer cut at %zu of %zu bytes was accepted", cut, len);
		series_set_free(&t);
	}
	unsigned char *longer = malloc(len + 1);
	memcpy(longer, buf, len);
	longer[len] = 0;
	series_set_init(&t, 0);
	ck_assert_int_eq(series_table_add(&t, longer, len + 1, &err), CXL_EINTERNAL);
	series_set_free(&t);
	free(longer);
	free(buf);
	series_set_free(&s);
}
END_TEST

START_TEST(test_series_merge_mismatch_fails)
{
	static const uint32_t ids[] = { 1, 2 };
	series_set s, other, t;
	cxl_err err = { 0 };

	build(&s, ids, 2);
	series_set_init(&other, 2 * P); /* another period */
	series_new(&other, 7, "completed", SERIES_SUM);
	series_close(&other, 2600);
	series_set_init(&t, 0);
	ck_assert_int_eq(pack_into(&t, &s, &err), 0);
	ck_assert_int_eq(pack_into(&t, &other, &err), CXL_EINTERNAL);
	series_set_free(&t);
	series_set_init(&t, 0);
	ck_assert_int_eq(pack_into(&t, &s, &err), 0);
	ck_assert_int_eq(pack_into(&t, &s, &err), 0); /* the same components twice */
	err = (cxl_err){ 0 };
	ck_assert_int_eq(series_table_sort(&t, &err), CXL_EINTERNAL);
	ck_assert(strstr(err.msg, "two ranks") != NULL);
	series_set_free(&t);
	series_set_free(&other);
	series_set_free(&s);
}
END_TEST

/* --- the bound ------------------------------------------------------------- */

START_TEST(test_series_cells_and_suggested_period)
{
	sim_time minp;

	/* 10 periods x 7 series */
	ck_assert_uint_eq(series_cells(100, 1000, 7, 0, &minp), 70);
	ck_assert_uint_eq(minp, 1); /* any period fits */
	/* a partial last period counts: ceil(1001 / 100) = 11 */
	ck_assert_uint_eq(series_cells(100, 1001, 7, 0, NULL), 77);
	/* aggregates count the buckets of one power of two (STATS_SUB) ... */
	ck_assert_uint_eq(series_cells(1000, 1000000, 3, 2, NULL), 1000 * (3 + 2 * STATS_SUB));
	/* ... or of every value below end when those are fewer */
	ck_assert_uint_eq(series_cells(10, 100, 3, 2, NULL), 10 * (3 + 2 * 100));
	/* 1 ms at 100 ns with 1000 series: 10^7 cells exactly fit */
	ck_assert_uint_eq(series_cells(100000, 1000000000, 1000, 0, NULL), SERIES_MAX_CELLS);
	/* 1001 series: 10^7 / 1001 = 9990 periods, 100.1 ns, rounded up to 110 ns */
	ck_assert_uint_gt(series_cells(100000, 1000000000, 1001, 0, &minp), SERIES_MAX_CELLS);
	ck_assert_uint_eq(minp, 110000);
	ck_assert_uint_le(series_cells(minp, 1000000000, 1001, 0, NULL), SERIES_MAX_CELLS);
	/* too wide for even one period; huge numbers saturate */
	ck_assert_uint_gt(series_cells(1, 10, SERIES_MAX_CELLS + 1, 0, &minp), SERIES_MAX_CELLS);
	ck_assert_uint_eq(minp, 0);
	ck_assert_uint_eq(series_cells(1, UINT64_MAX, UINT64_MAX, UINT64_MAX, NULL), UINT64_MAX);
}
END_TEST

/* --- misuse ------------------------------------------------------------------ */

START_TEST(test_series_name_twice_panics)
{
	series_set s;

	series_set_init(&s, P);
	series_new(&s, 0, "x", SERIES_SUM);
	panict_expect("component 0 registers time series \"x\" twice");
	series_new(&s, 0, "x", SERIES_MAX);
}
END_TEST

START_TEST(test_series_ids_out_of_order_panic)
{
	series_set s;

	series_set_init(&s, P);
	series_new(&s, 5, "x", SERIES_SUM);
	panict_expect("component 4 registers time series \"x\" after component 5");
	series_new(&s, 4, "x", SERIES_SUM);
}
END_TEST

Suite *series_suite(void)
{
	Suite *s = suite_create("series");
	TCase *cells = tcase_create("cells");
	TCase *spans = tcase_create("spans");
	TCase *agg = tcase_create("aggregates");
	TCase *merge = tcase_create("pack_merge");
	TCase *bound = tcase_create("bound");
	TCase *misuse = tcase_create("misuse");

	tcase_add_test(cells, test_series_add_lands_in_its_period);
	tcase_add_test(cells, test_series_max_keeps_largest);
	tcase_add_test(cells, test_series_null_handles_do_nothing);
	tcase_add_test(spans, test_series_span_across_boundaries_splits_exactly);
	tcase_add_test(spans, test_series_span_and_level_match_reference);
	tcase_add_test(spans, test_series_close_ends_levels_at_end);
	tcase_add_test(spans, test_series_nperiods_to_the_last_event);
	tcase_add_test(agg, test_series_hist_per_period_shared_by_name);
	tcase_set_timeout(merge, 30); /* every truncation builds a table: ~2 s under ASan */
	tcase_add_test(merge, test_series_pack_round_trip);
	tcase_add_test(merge, test_series_merge_independent_of_split_and_order);
	tcase_add_test(merge, test_series_malformed_buffers_fail);
	tcase_add_test(merge, test_series_merge_mismatch_fails);
	tcase_add_test(bound, test_series_cells_and_suggested_period);
	tcase_add_test_raise_signal(misuse, test_series_name_twice_panics, SIGABRT);
	tcase_add_test_raise_signal(misuse, test_series_ids_out_of_order_panic, SIGABRT);
	suite_add_tcase(s, cells);
	suite_add_tcase(s, spans);
	suite_add_tcase(s, agg);
	suite_add_tcase(s, merge);
	suite_add_tcase(s, bound);
	suite_add_tcase(s, misuse);
	return s;
}
