/*
 * test/core/test_stats_hist.c - unit tests for core/stats.c's buckets and
 * histograms (registry, pack and merge: test_stats.c).
 *
 * Buckets: stats_bucket / stats_bucket_low / stats_bucket_high agree on every
 * bucket index (0 .. stats_bucket(UINT64_MAX)), buckets tile [0, 2^64)
 * without gaps, values below STATS_SUB (1024) are exact, and each power of
 * two >= 2^10 has 1024 buckets of equal width.  Histograms: count, sum, min,
 * max exact; quantiles within the documented 1/2048 = 2^-(STATS_SUB_BITS+1)
 * relative error of a sorted reference array (random values, a known
 * distribution, one value between 0 and UINT64_MAX for values up to 2^50);
 * merge == adding every value to one histogram, pages far apart included.
 * Memory: pages are allocated on first touch only (one for values within
 * one page, 8 for a power of two, none for an empty histogram).
 * All randomness comes from a xorshift64* generator seeded here.
 */
#include "core/stats.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/core/stats_fixture.h"

#define SHIFT_REL (STATS_SUB_BITS + 1) /* quantile error is <= v >> SHIFT_REL: 1/2048 */

/* Hot loops test with if + ck_abort_msg: each ck_assert costs a pipe write. */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static uint32_t last_bucket(void)
{
	return stats_bucket(UINT64_MAX);
}

/* --- buckets -------------------------------------------------------------- */

START_TEST(test_stats_bucket_small_values_exact)
{
	for (uint64_t v = 0; v < STATS_SUB; v++) {
		ck_assert_uint_eq(stats_bucket(v), v);
		ck_assert_uint_eq(stats_bucket_low((uint32_t)v), v);
		ck_assert_uint_eq(stats_bucket_high((uint32_t)v), v);
	}
	ck_assert_uint_eq(stats_bucket(STATS_SUB), STATS_SUB);
	ck_assert_uint_eq(stats_bucket_low(STATS_SUB), STATS_SUB);
}
END_TEST

/* Every bucket: its bounds map back to it, and bucket i+1 starts after i. */
START_TEST(test_stats_bucket_bounds_every_index)
{
	uint32_t last = last_bucket();

	ck_assert_uint_eq(stats_bucket_low(0), 0);
	ck_assert_uint_eq(stats_bucket_high(last), UINT64_MAX);
	for (uint32_t i = 0; i <= last; i++) {
		uint64_t lo = stats_bucket_low(i), hi = stats_bucket_high(i);
		ck_assert_msg(lo <= hi, "bucket %u: low %lu > high %lu", i,
			      (unsigned long)lo, (unsigned long)hi);
		ck_assert_uint_eq(stats_bucket(lo), i);
		ck_assert_uint_eq(stats_bucket(hi), i);
		ck_assert_uint_eq(stats_bucket(lo + (hi - lo) / 2), i);
		if (i > 0)
			ck_assert_uint_eq(lo, stats_bucket_high(i - 1) + 1);
	}
}
END_TEST

START_TEST(test_stats_bucket_random_values_in_bounds)
{
	uint64_t seed = 0x1234567887654321ULL;

	for (int k = 0; k < 200000; k++) {
		uint64_t v = statsf_rand_value(&seed);
		uint32_t i = stats_bucket(v);
		if (!(stats_bucket_low(i) <= v && v <= stats_bucket_high(i)))
			ck_abort_msg("%lu not in its bucket %u", (unsigned long)v, i);
	}
	for (uint64_t v = 0; v < (1u << 16); v++) {
		uint32_t i = stats_bucket(v);
		if (!(stats_bucket_low(i) <= v && v <= stats_bucket_high(i)))
			ck_abort_msg("%lu not in its bucket %u", (unsigned long)v, i);
	}
}
END_TEST

START_TEST(test_stats_bucket_powers_of_two)
{
	for (unsigned e = 0; e < 64; e++) {
		uint64_t p = UINT64_C(1) << e;
		uint32_t i = stats_bucket(p);
		ck_assert_uint_eq(stats_bucket_low(i), p);
		if (e > 0) {
			ck_assert_uint_eq(stats_bucket(p - 1), i - 1);
			ck_assert_uint_eq(stats_bucket_high(i - 1), p - 1);
		}
		ck_assert_uint_eq(stats_bucket(p + 1) - i, e > STATS_SUB_BITS ? 0 : 1);
	}
}
END_TEST

START_TEST(test_stats_bucket_near_uint64_max)
{
	uint32_t last = last_bucket();

	ck_assert_uint_eq(last, (64 - STATS_SUB_BITS + 1) * STATS_SUB - 1);
	for (uint64_t k = 0; k < 4096; k++) {
		uint64_t v = UINT64_MAX - k;
		uint32_t i = stats_bucket(v);
		ck_assert_uint_eq(i, last);
		ck_assert(stats_bucket_low(i) <= v && v <= stats_bucket_high(i));
	}
	ck_assert_uint_eq(stats_bucket(UINT64_C(1) << 63), last - STATS_SUB + 1);
}
END_TEST

/* 3 significant digits: every power of two >= 2^10 has STATS_SUB = 1024
 * buckets, all 2^(e-10) wide; below 1024 every value has its own bucket. */
START_TEST(test_stats_bucket_width_per_power_of_two)
{
	ck_assert_uint_eq(STATS_SUB, 1024);
	ck_assert_uint_eq(STATS_NBUCKETS, last_bucket() + 1);
	for (unsigned e = STATS_SUB_BITS; e < 64; e++) {
		uint32_t first = stats_bucket(UINT64_C(1) << e);
		uint32_t last = stats_bucket(e == 63 ? UINT64_MAX : (UINT64_C(2) << e) - 1);
		ck_assert_uint_eq(last - first + 1, STATS_SUB);
		for (uint32_t i = first; i <= last; i++)
			if (stats_bucket_high(i) - stats_bucket_low(i) + 1 != UINT64_C(1) << (e - 10))
				ck_abort_msg("bucket %u of 2^%u is not 2^%u wide", i, e, e - 10);
	}
}
END_TEST

/* --- histograms ----------------------------------------------------------- */

START_TEST(test_stats_hist_empty)
{
	stats_hist h;

	stats_hist_init(&h);
	ck_assert_uint_eq(h.count, 0);
	ck_assert_uint_eq(h.sum, 0);
	ck_assert_uint_eq(h.min, UINT64_MAX);
	ck_assert_uint_eq(h.max, 0);
	ck_assert_uint_eq(stats_hist_quantile(&h, 0.5), 0);
	ck_assert(stats_hist_mean(&h) == 0.0);
	ck_assert_uint_eq(stats_hist_pages(&h), 0);
	ck_assert_uint_eq(stats_hist_next(&h, 0), STATS_NBUCKETS);
	stats_hist_free(&h);
	ck_assert_ptr_null(h.page);
}
END_TEST

START_TEST(test_stats_hist_exact_summary)
{
	uint64_t seed = 0xabcdef0123456789ULL, sum = 0, mn = UINT64_MAX, mx = 0;
	stats_hist h;
	int n = 100000;

	stats_hist_init(&h);
	for (int k = 0; k < n; k++) {
		uint64_t v = statsf_rand_value(&seed) >> 20; /* keep the sum below 2^64 */
		stats_hist_add(&h, v);
		sum += v;
		mn = v < mn ? v : mn;
		mx = v > mx ? v : mx;
	}
	ck_assert_uint_eq(h.count, (uint64_t)n);
	ck_assert_uint_eq(h.sum, sum);
	ck_assert_uint_eq(h.min, mn);
	ck_assert_uint_eq(h.max, mx);
	ck_assert(stats_hist_mean(&h) == (double)sum / n);
	uint64_t total = 0;
	for (uint32_t i = stats_hist_next(&h, 0); i < STATS_NBUCKETS; i = stats_hist_next(&h, i + 1))
		total += stats_hist_at(&h, i);
	ck_assert_uint_eq(total, (uint64_t)n);
	stats_hist_free(&h);
}
END_TEST

START_TEST(test_stats_hist_extremes)
{
	stats_hist h;

	stats_hist_init(&h);
	stats_hist_add(&h, UINT64_MAX);
	stats_hist_add(&h, 0);
	ck_assert_uint_eq(h.min, 0);
	ck_assert_uint_eq(h.max, UINT64_MAX);
	ck_assert_uint_eq(stats_hist_quantile(&h, 0.0), 0);
	/* the midpoint of the last bucket, within the documented error of max */
	ck_assert_uint_eq(stats_hist_quantile(&h, 1.0),
			  stats_bucket_low(last_bucket()) +
			  (UINT64_MAX - stats_bucket_low(last_bucket())) / 2);
	ck_assert_uint_le(UINT64_MAX - stats_hist_quantile(&h, 1.0), UINT64_MAX >> SHIFT_REL);
	ck_assert_uint_eq(stats_hist_at(&h, last_bucket()), 1);
	ck_assert_uint_eq(stats_hist_at(&h, 0), 1);
	ck_assert_uint_eq(stats_hist_pages(&h), 2);
	stats_hist_free(&h);
}
END_TEST

/* |quantile - true| <= true * 2^-(STATS_SUB_BITS+1), checked without overflow. */
static void check_quantiles(const stats_hist *h, const uint64_t *sorted, size_t n)
{
	static const double qs[] = { 0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99,
				     0.999, 1 };

	for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
		uint64_t want = sorted[(size_t)(qs[k] * (double)(n - 1))];
		uint64_t got = stats_hist_quantile(h, qs[k]);
		uint64_t diff = got > want ? got - want : want - got;
		ck_assert_msg((unsigned __int128)diff << SHIFT_REL <= want,
			      "q=%g: got %lu, true %lu", qs[k], (unsigned long)got,
			      (unsigned long)want);
	}
}

START_TEST(test_stats_hist_quantile_relative_error)
{
	size_t n = 100000;
	uint64_t *v = malloc(n * sizeof(*v)), seed = 0x5eed5eed5eed5eedULL;
	static const int shifts[] = { 0, 30, 50, 58, 62 };

	for (size_t d = 0; d < sizeof(shifts) / sizeof(shifts[0]); d++) {
		stats_hist h;
		stats_hist_init(&h);
		for (size_t k = 0; k < n; k++) {
			v[k] = d == 0 ? statsf_rand_value(&seed) : statsf_next_rand(&seed) >> shifts[d];
			stats_hist_add(&h, v[k]);
		}
		qsort(v, n, sizeof(*v), cmp_u64);
		check_quantiles(&h, v, n);
		stats_hist_free(&h);
	}
	free(v);
}
END_TEST

START_TEST(test_stats_hist_quantile_small_values_exact)
{
	size_t n = 10001;
	uint64_t v[10001], seed = 77;
	stats_hist h;

	stats_hist_init(&h);
	for (size_t k = 0; k < n; k++) {
		v[k] = statsf_next_rand(&seed) % STATS_SUB;
		stats_hist_add(&h, v[k]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (int q = 0; q <= 100; q++)
		ck_assert_uint_eq(stats_hist_quantile(&h, q / 100.0),
				  v[(size_t)(q / 100.0 * (double)(n - 1))]);
	stats_hist_free(&h);
}
END_TEST

START_TEST(test_stats_hist_quantile_single_value)
{
	stats_hist h;

	stats_hist_init(&h);
	stats_hist_add(&h, 1000003);
	ck_assert_uint_eq(stats_hist_quantile(&h, 0), 1000003);
	ck_assert_uint_eq(stats_hist_quantile(&h, 0.5), 1000003);
	ck_assert_uint_eq(stats_hist_quantile(&h, 1), 1000003);
	stats_hist_free(&h);
}
END_TEST

/* The median of {0, v, UINT64_MAX} is v's bucket midpoint, unclamped. */
static uint64_t median_between_extremes(uint64_t v)
{
	stats_hist h;

	stats_hist_init(&h);
	stats_hist_add(&h, 0);
	stats_hist_add(&h, v);
	stats_hist_add(&h, UINT64_MAX);
	uint64_t got = stats_hist_quantile(&h, 0.5);
	stats_hist_free(&h);
	return got;
}

/* |quantile - v| <= v / 2048 for values across 1 .. 2^50 (bucket edges and
 * random values of every power of two), exact below 1024; a histogram of
 * one value returns it exactly (clamped to [min, max]). */
START_TEST(test_stats_hist_resolution_to_2_50)
{
	uint64_t seed = 0x3d1ffe5ULL;

	for (unsigned e = 0; e <= 50; e++) {
		uint64_t lo = UINT64_C(1) << e;
		for (int k = 0; k < 203; k++) {
			uint64_t v = k == 0 ? lo : k == 1 ? 2 * lo - 1 : k == 2 ? lo + 1 :
				     lo + statsf_next_rand(&seed) % lo;
			if (k >= 3 && k % 2)
				v = stats_bucket_high(stats_bucket(v));
			uint64_t got = median_between_extremes(v);
			uint64_t diff = got > v ? got - v : v - got;
			if ((unsigned __int128)diff << SHIFT_REL > v || (v < STATS_SUB && diff))
				ck_abort_msg("v=%lu: median %lu", (unsigned long)v, (unsigned long)got);
			stats_hist h;
			stats_hist_init(&h);
			stats_hist_add(&h, v);
			if (stats_hist_quantile(&h, 0.5) != v)
				ck_abort_msg("single value %lu not exact", (unsigned long)v);
			stats_hist_free(&h);
		}
	}
	for (uint64_t v = 0; v < STATS_SUB; v++)
		ck_assert_uint_eq(median_between_extremes(v), v);
}
END_TEST

/* A known distribution: a 600 ns floor with a heavy tail to ~17 us (in ps),
 * every permille against the exact order statistics. */
START_TEST(test_stats_hist_quantile_known_distribution)
{
	size_t n = 200000;
	uint64_t *v = malloc(n * sizeof(*v)), seed = 0xd157ULL;
	stats_hist h;

	stats_hist_init(&h);
	for (size_t k = 0; k < n; k++) {
		unsigned tail = 8 + (unsigned)(statsf_next_rand(&seed) % 17); /* 2^8 .. 2^24 ps */
		v[k] = 600000 + statsf_next_rand(&seed) % (UINT64_C(1) << tail);
		stats_hist_add(&h, v[k]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (int q = 0; q <= 1000; q++) {
		uint64_t want = v[(size_t)(q / 1000.0 * (double)(n - 1))];
		uint64_t got = stats_hist_quantile(&h, q / 1000.0);
		uint64_t diff = got > want ? got - want : want - got;
		if (diff << SHIFT_REL > want)
			ck_abort_msg("q=%g: got %lu, true %lu", q / 1000.0, (unsigned long)got,
				     (unsigned long)want);
	}
	check_quantiles(&h, v, n);
	stats_hist_free(&h);
	free(v);
}
END_TEST

/* Same summary, same non-empty buckets with the same counts, same pages. */
START_TEST(test_stats_hist_merge_equals_single)
{
	uint64_t seed = 0x600dcafe;
	stats_hist part[3], all, merged;

	stats_hist_init(&all);
	stats_hist_init(&merged);
	for (int p = 0; p < 3; p++) {
		stats_hist_init(&part[p]);
		/* differently sized parts, so merge must grow dst */
		for (int k = 0; k < 5000; k++) {
			uint64_t v = statsf_rand_value(&seed) >> (p == 1 ? 0 : 40);
			stats_hist_add(&part[p], v);
			stats_hist_add(&all, v);
		}
	}
	for (int p = 0; p < 3; p++)
		stats_hist_merge(&merged, &part[p]);
	statsf_hist_eq(&merged, &all);
	for (int q = 0; q <= 20; q++)
		ck_assert_uint_eq(stats_hist_quantile(&merged, q / 20.0),
				  stats_hist_quantile(&all, q / 20.0));
	for (int p = 0; p < 3; p++)
		stats_hist_free(&part[p]);
	stats_hist_free(&all);
	stats_hist_free(&merged);
}
END_TEST

START_TEST(test_stats_hist_merge_empty)
{
	stats_hist a, e, copy;

	stats_hist_init(&a);
	stats_hist_init(&e);
	stats_hist_init(&copy);
	stats_hist_add(&a, 5);
	stats_hist_add(&a, 5000);
	stats_hist_add(&copy, 5);
	stats_hist_add(&copy, 5000);
	stats_hist_merge(&a, &e);
	statsf_hist_eq(&a, &copy);
	stats_hist_merge(&e, &a);
	statsf_hist_eq(&e, &copy);
	stats_hist_free(&a);
	stats_hist_free(&e);
	stats_hist_free(&copy);
}
END_TEST

/* Values of part @p (0..3): each part on its own powers of two, far apart,
 * so the merge grows the directory down and up and skips absent pages. */
static uint64_t sparse_value(int p, uint64_t *seed)
{
	static const unsigned exps[4][2] = { { 11, 40 }, { 2, 49 }, { 30, 30 }, { 20, 63 } };
	unsigned e = exps[p][statsf_next_rand(seed) % 2];
	uint64_t lo = UINT64_C(1) << e;

	return e < 10 ? statsf_next_rand(seed) % 1024 : lo + statsf_next_rand(seed) % (e == 63 ? lo : lo / 64);
}

START_TEST(test_stats_hist_merge_sparse_pages)
{
	uint64_t seed = 0x5a55ULL;
	stats_hist part[4], all, fwd, rev;

	stats_hist_init(&all);
	stats_hist_init(&fwd);
	stats_hist_init(&rev);
	for (int p = 0; p < 4; p++) {
		stats_hist_init(&part[p]);
		for (int k = 0; k < 3000; k++) {
			uint64_t v = sparse_value(p, &seed);
			stats_hist_add(&part[p], v);
			stats_hist_add(&all, v);
		}
	}
	for (int p = 0; p < 4; p++) {
		stats_hist_merge(&fwd, &part[p]);
		stats_hist_merge(&rev, &part[3 - p]);
	}
	statsf_hist_eq(&fwd, &all);
	statsf_hist_eq(&rev, &all);
	uint32_t pages = 0;
	for (int p = 0; p < 4; p++)
		pages += stats_hist_pages(&part[p]); /* no page is in two parts */
	ck_assert_uint_eq(stats_hist_pages(&fwd), pages);
	for (int q = 0; q <= 100; q++)
		ck_assert_uint_eq(stats_hist_quantile(&fwd, q / 100.0),
				  stats_hist_quantile(&all, q / 100.0));
	for (int p = 0; p < 4; p++)
		stats_hist_free(&part[p]);
	stats_hist_free(&all);
	stats_hist_free(&fwd);
	stats_hist_free(&rev);
}
END_TEST

/* Pages come on first touch only: values within one page take one page,
 * more values there allocate nothing (the directory stays too), a whole
 * power of two takes STATS_PAGES_PER_POW2 pages, a far value one more. */
START_TEST(test_stats_hist_pages_on_first_touch)
{
	uint64_t seed = 0x9a9eULL, lo = UINT64_C(1) << 19; /* 524 ns, in ps */
	uint64_t span = (uint64_t)STATS_PAGE << (19 - STATS_SUB_BITS); /* one page */
	stats_hist h;

	stats_hist_init(&h);
	for (int k = 0; k < 10000; k++)
		stats_hist_add(&h, lo + statsf_next_rand(&seed) % span);
	ck_assert_uint_eq(stats_hist_pages(&h), 1);
	uint64_t **dir = h.page;
	for (int k = 0; k < 10000; k++)
		stats_hist_add(&h, lo + statsf_next_rand(&seed) % span);
	ck_assert_uint_eq(stats_hist_pages(&h), 1);
	ck_assert_ptr_eq(h.page, dir);
	for (int k = 0; k < 100000; k++)
		stats_hist_add(&h, lo + statsf_next_rand(&seed) % lo);
	ck_assert_uint_eq(stats_hist_pages(&h), STATS_PAGES_PER_POW2);
	ck_assert_ptr_eq(h.page, dir);
	ck_assert_uint_eq(h.npages, STATS_PAGES_PER_POW2);
	stats_hist_add(&h, UINT64_C(1) << 45);
	ck_assert_uint_eq(stats_hist_pages(&h), STATS_PAGES_PER_POW2 + 1);
	ck_assert_uint_eq(h.count, 120001);
	stats_hist_free(&h);
	ck_assert_uint_eq(stats_hist_pages(&h), 0);
	ck_assert_ptr_null(h.page);
	ck_assert_uint_eq(h.npages, 0);
}
END_TEST

/* stats_hist_next walks the non-empty buckets in order, across pages. */
START_TEST(test_stats_hist_next_walks_buckets)
{
	static const uint64_t vals[] = { 0, 1023, 1024, 5000, 5000, UINT64_C(1) << 40,
					 UINT64_MAX };
	stats_hist h;
	uint32_t i, n = 0, prev = 0;

	stats_hist_init(&h);
	for (size_t k = 0; k < sizeof(vals) / sizeof(vals[0]); k++)
		stats_hist_add(&h, vals[k]);
	for (i = stats_hist_next(&h, 0); i < STATS_NBUCKETS; i = stats_hist_next(&h, i + 1)) {
		ck_assert(n == 0 || i > prev);
		ck_assert_uint_eq(stats_hist_at(&h, i), stats_bucket(5000) == i ? 2 : 1);
		prev = i;
		n++;
	}
	ck_assert_uint_eq(n, 6);
	ck_assert_uint_eq(prev, last_bucket());
	ck_assert_uint_eq(stats_hist_next(&h, stats_bucket(1024) + 1), stats_bucket(5000));
	ck_assert_uint_eq(stats_hist_at(&h, stats_bucket(3000)), 0);
	ck_assert_uint_eq(stats_hist_at(&h, stats_bucket(UINT64_C(1) << 50)), 0);
	stats_hist_free(&h);
}
END_TEST

Suite *stats_hist_suite(void)
{
	Suite *s = suite_create("stats_hist");
	TCase *bucket = tcase_create("bucket");
	TCase *hist = tcase_create("hist");

	tcase_add_test(bucket, test_stats_bucket_small_values_exact);
	tcase_add_test(bucket, test_stats_bucket_bounds_every_index);
	tcase_add_test(bucket, test_stats_bucket_random_values_in_bounds);
	tcase_add_test(bucket, test_stats_bucket_powers_of_two);
	tcase_add_test(bucket, test_stats_bucket_near_uint64_max);
	tcase_add_test(bucket, test_stats_bucket_width_per_power_of_two);
	tcase_add_test(hist, test_stats_hist_empty);
	tcase_add_test(hist, test_stats_hist_exact_summary);
	tcase_add_test(hist, test_stats_hist_extremes);
	tcase_add_test(hist, test_stats_hist_quantile_relative_error);
	tcase_add_test(hist, test_stats_hist_quantile_small_values_exact);
	tcase_add_test(hist, test_stats_hist_quantile_single_value);
	tcase_add_test(hist, test_stats_hist_merge_equals_single);
	tcase_add_test(hist, test_stats_hist_resolution_to_2_50);
	tcase_add_test(hist, test_stats_hist_quantile_known_distribution);
	tcase_add_test(hist, test_stats_hist_merge_empty);
	tcase_add_test(hist, test_stats_hist_merge_sparse_pages);
	tcase_add_test(hist, test_stats_hist_pages_on_first_touch);
	tcase_add_test(hist, test_stats_hist_next_walks_buckets);
	tcase_set_timeout(hist, 30);
	suite_add_tcase(s, bucket);
	suite_add_tcase(s, hist);
	return s;
}
