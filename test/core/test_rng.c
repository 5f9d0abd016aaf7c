/*
 * test/core/test_rng.c - unit tests for core/rng.h.
 *
 * Streams: reproducible from (seed, id); distinct over 10000 ids and 10000
 * seeds; rng_at(k) is the k-th rng_u64 and does not advance.  Distributions:
 * rng_uniform in [0, 1) with mean 1/2 and a 64-bin chi-square; rng_below
 * always < n and uniform (chi-square) for small n, 4096 and n near 2^63;
 * rng_exp mean and variance; Pearson correlation between neighbouring
 * components' streams.  Seeds are fixed here, so every statistical bound is
 * checked against one deterministic sample: thresholds are generous (>= 5
 * standard deviations) to stay meaningful if the generator constants change.
 */
#include "core/rng.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SEED UINT64_C(0x0123456789abcdef)

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Number of adjacent equal values in @v[0..n) after sorting it. */
static size_t duplicates(uint64_t *v, size_t n)
{
	size_t d = 0;

	qsort(v, n, sizeof(*v), cmp_u64);
	for (size_t i = 1; i < n; i++)
		d += v[i] == v[i - 1];
	return d;
}

/* Pearson chi-square of @obs against equal expected counts over @k bins. */
static double chi_square(const uint64_t *obs, size_t k, uint64_t total)
{
	double e = (double)total / (double)k, chi = 0;

	for (size_t i = 0; i < k; i++)
		chi += ((double)obs[i] - e) * ((double)obs[i] - e) / e;
	return chi;
}

/* A generous upper bound for chi-square with @dof degrees of freedom. */
static double chi_limit(size_t dof)
{
	return (double)dof + 7 * sqrt(2.0 * (double)dof) + 10;
}

START_TEST(test_rng_same_seed_same_stream)
{
	cxl_rng a, b;

	rng_seed(&a, SEED, 42);
	rng_seed(&b, SEED, 42);
	for (int k = 0; k < 10000; k++)
		if (rng_u64(&a) != rng_u64(&b))
			ck_abort_msg("streams differ at draw %d", k);
	ck_assert_uint_eq(a.ctr, 10000);
	rng_seed(&a, SEED, 42); /* reseeding restarts the stream */
	rng_seed(&b, SEED, 42);
	ck_assert_uint_eq(a.ctr, 0);
	ck_assert_uint_eq(rng_u64(&a), rng_u64(&b));
}
END_TEST

START_TEST(test_rng_gamma_odd)
{
	cxl_rng r;

	for (uint32_t id = 0; id < 1000; id++) {
		rng_seed(&r, SEED + id, id);
		ck_assert_uint_eq(r.gamma & 1, 1);
	}
}
END_TEST

START_TEST(test_rng_different_ids_differ)
{
	enum { N = 10000 };
	uint64_t *first = malloc(N * sizeof(*first));
	cxl_rng r;

	for (uint32_t id = 0; id < N; id++) {
		rng_seed(&r, SEED, id);
		first[id] = rng_u64(&r);
	}
	ck_assert_uint_eq(duplicates(first, N), 0);
	for (uint32_t k = 0; k < N; k++) { /* ids at the top of the range too */
		rng_seed(&r, SEED, UINT32_MAX - k);
		first[k] = rng_u64(&r);
	}
	ck_assert_uint_eq(duplicates(first, N), 0);
	free(first);
}
END_TEST

START_TEST(test_rng_different_seeds_differ)
{
	enum { N = 10000 };
	uint64_t *first = malloc(N * sizeof(*first));
	cxl_rng r;

	for (uint64_t s = 0; s < N; s++) {
		rng_seed(&r, s, 7);
		first[s] = rng_u64(&r);
	}
	ck_assert_uint_eq(duplicates(first, N), 0);
	/* seed and id are not interchangeable: (s, id) vs (id, s) */
	for (uint32_t k = 0; k < N; k++) {
		rng_seed(&r, k, k + 1);
		first[k] = rng_u64(&r);
		rng_seed(&r, k + 1, k);
		ck_assert_uint_ne(first[k], rng_u64(&r));
	}
	free(first);
}
END_TEST

START_TEST(test_rng_at_matches_sequence)
{
	cxl_rng r, s;

	rng_seed(&r, SEED, 3);
	rng_seed(&s, SEED, 3);
	for (uint64_t k = 0; k < 10000; k++) {
		if (rng_at(&r, k) != rng_u64(&s))
			ck_abort_msg("rng_at(%lu) differs from draw %lu", (unsigned long)k,
				     (unsigned long)k);
	}
	ck_assert_uint_eq(r.ctr, 0);
	/* skip ahead: setting the counter resumes the stream at draw k */
	static const uint64_t far[] = { UINT64_C(1) << 40, UINT64_MAX - 1 };
	for (size_t i = 0; i < 2; i++) {
		s.ctr = far[i];
		ck_assert_uint_eq(rng_u64(&s), rng_at(&r, far[i]));
		ck_assert_uint_eq(rng_u64(&s), rng_at(&r, far[i] + 1));
	}
}
END_TEST

START_TEST(test_rng_uniform_range_mean_chi_square)
{
	enum { N = 1000000, BINS = 64 };
	uint64_t bins[BINS] = { 0 };
	double sum = 0;
	cxl_rng r;

	rng_seed(&r, SEED, 11);
	for (int k = 0; k < N; k++) {
		double u = rng_uniform(&r);
		if (!(u >= 0.0 && u < 1.0)) /* not ck_assert: it costs a pipe write */
			ck_abort_msg("rng_uniform = %g", u);
		sum += u;
		bins[(int)(u * BINS)]++;
	}
	/* standard deviation of the mean: 1/sqrt(12 N) = 2.9e-4 */
	ck_assert_double_eq_tol(sum / N, 0.5, 0.002);
	double chi = chi_square(bins, BINS, N);
	ck_assert_msg(chi < chi_limit(BINS - 1), "chi-square %g over %d bins", chi, BINS);
}
END_TEST

/* @draws values of rng_below(@n) into @k bins of width ceil(n / k). */
static void check_below(uint64_t n, size_t k, uint64_t draws, uint32_t id)
{
	uint64_t *bins = calloc(k, sizeof(*bins));
	uint64_t width = n / k + (n % k != 0);
	cxl_rng r;

	ck_assert_uint_eq(n % k, 0); /* equal bins, so chi-square applies */
	rng_seed(&r, SEED, id);
	for (uint64_t d = 0; d < draws; d++) {
		uint64_t x = rng_below(&r, n);
		if (x >= n)
			ck_abort_msg("rng_below(%lu) = %lu", (unsigned long)n, (unsigned long)x);
		bins[x / width]++;
	}
	double chi = chi_square(bins, k, draws);
	ck_assert_msg(chi < chi_limit(k - 1), "n=%lu: chi-square %g over %zu bins",
		      (unsigned long)n, chi, k);
	free(bins);
}

START_TEST(test_rng_below_small_n)
{
	check_below(1, 1, 1000, 1);
	check_below(2, 2, 200000, 2);
	check_below(3, 3, 300000, 3);
	check_below(7, 7, 300000, 4);
}
END_TEST

START_TEST(test_rng_below_4096)
{
	check_below(4096, 4096, 1000000, 5);
}
END_TEST

START_TEST(test_rng_below_near_2_63)
{
	/* n just above 2^63 rejects almost half the draws: the worst case */
	check_below((UINT64_C(1) << 63) + 4096, 64, 200000, 6);
	check_below((UINT64_C(1) << 63) - 64, 64, 200000, 7);
	check_below(UINT64_C(3) << 61, 3, 200000, 8);
	check_below(UINT64_MAX - 15, 16, 200000, 9);
}
END_TEST

START_TEST(test_rng_below_one_is_zero)
{
	cxl_rng r;

	rng_seed(&r, SEED, 0);
	for (int k = 0; k < 1000; k++)
		ck_assert_uint_eq(rng_below(&r, 1), 0);
}
END_TEST

START_TEST(test_rng_exp_mean_variance)
{
	enum { N = 1000000 };
	const double mean = 2.5;
	double sum = 0, sum2 = 0;
	cxl_rng r;

	rng_seed(&r, SEED, 12);
	for (int k = 0; k < N; k++) {
		double x = rng_exp(&r, mean);
		if (!(x >= 0 && isfinite(x)))
			ck_abort_msg("rng_exp = %g", x);
		sum += x;
		sum2 += x * x;
	}
	double m = sum / N, var = sum2 / N - m * m;
	/* sd of the mean: mean/1000; sd of the variance: sqrt(8) mean^2 / 1000 */
	ck_assert_double_eq_tol(m, mean, 0.005 * mean);
	ck_assert_double_eq_tol(var, mean * mean, 0.015 * mean * mean);
}
END_TEST

/* Pearson correlation of @n paired uniforms of streams (sa, ia) and (sb, ib). */
static double correlation(uint64_t sa, uint32_t ia, uint64_t sb, uint32_t ib, int n)
{
	double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
	cxl_rng a, b;

	rng_seed(&a, sa, ia);
	rng_seed(&b, sb, ib);
	for (int k = 0; k < n; k++) {
		double x = rng_uniform(&a), y = rng_uniform(&b);
		sx += x;
		sy += y;
		sxx += x * x;
		syy += y * y;
		sxy += x * y;
	}
	double cov = sxy / n - (sx / n) * (sy / n);
	return cov / sqrt((sxx / n - (sx / n) * (sx / n)) * (syy / n - (sy / n) * (sy / n)));
}

START_TEST(test_rng_neighbour_streams_uncorrelated)
{
	static const uint32_t ids[] = { 0, 1, 2, 100, 4095, 65535, UINT32_MAX - 1 };

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		double c = correlation(SEED, ids[i], SEED, ids[i] + 1, 100000);
		ck_assert_msg(fabs(c) < 0.01, "ids %u,%u: correlation %g", ids[i], ids[i] + 1, c);
	}
	for (uint64_t s = 0; s < 4; s++) { /* neighbouring seeds, same id */
		double c = correlation(s, 5, s + 1, 5, 100000);
		ck_assert_msg(fabs(c) < 0.01, "seeds %lu,%lu: correlation %g",
			      (unsigned long)s, (unsigned long)s + 1, c);
	}
}
END_TEST

Suite *rng_suite(void)
{
	Suite *s = suite_create("rng");
	TCase *streams = tcase_create("streams");
	TCase *dist = tcase_create("distributions");

	tcase_add_test(streams, test_rng_same_seed_same_stream);
	tcase_add_test(streams, test_rng_gamma_odd);
	tcase_add_test(streams, test_rng_different_ids_differ);
	tcase_add_test(streams, test_rng_different_seeds_differ);
	tcase_add_test(streams, test_rng_at_matches_sequence);
	tcase_add_test(streams, test_rng_neighbour_streams_uncorrelated);
	tcase_add_test(dist, test_rng_uniform_range_mean_chi_square);
	tcase_add_test(dist, test_rng_below_small_n);
	tcase_add_test(dist, test_rng_below_4096);
	tcase_add_test(dist, test_rng_below_near_2_63);
	tcase_add_test(dist, test_rng_below_one_is_zero);
	tcase_add_test(dist, test_rng_exp_mean_variance);
	tcase_set_timeout(streams, 30);
	tcase_set_timeout(dist, 30);
	suite_add_tcase(s, streams);
	suite_add_tcase(s, dist);
	return s;
}
