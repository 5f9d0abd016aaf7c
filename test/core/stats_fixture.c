/*
 * test/core/stats_fixture.c - helpers shared by the statistics tests
 * (stats_fixture.h).
 */
#include "test/core/stats_fixture.h"

#include <check.h>

/* xorshift64*: deterministic test values, seeded by each test. */
uint64_t statsf_next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

/* A value of random magnitude: 1..64 significant bits, uniform below that. */
uint64_t statsf_rand_value(uint64_t *s)
{
	uint64_t r = statsf_next_rand(s);
	unsigned bits = (unsigned)(statsf_next_rand(s) % 64) + 1;

	return bits == 64 ? r : r & ((UINT64_C(1) << bits) - 1);
}

void statsf_hist_eq(const stats_hist *a, const stats_hist *b)
{
	uint32_t i = stats_hist_next(a, 0), j = stats_hist_next(b, 0);

	ck_assert_uint_eq(a->count, b->count);
	ck_assert_uint_eq(a->sum, b->sum);
	ck_assert_uint_eq(a->min, b->min);
	ck_assert_uint_eq(a->max, b->max);
	for (; i < STATS_NBUCKETS || j < STATS_NBUCKETS;
	     i = stats_hist_next(a, i + 1), j = stats_hist_next(b, j + 1))
		if (i != j || stats_hist_at(a, i) != stats_hist_at(b, j))
			ck_abort_msg("buckets differ: %u vs %u", i, j);
	ck_assert_uint_eq(stats_hist_pages(a), stats_hist_pages(b));
}
