/*
 * test/core/stats_fixture.h - helpers shared by the statistics tests
 * (test_stats.c: registry, pack and merge; test_stats_hist.c: buckets and
 * histograms): a seeded generator and histogram equality.
 */
#ifndef CXL_TEST_CORE_STATS_FIXTURE_H
#define CXL_TEST_CORE_STATS_FIXTURE_H

#include <stdint.h>

#include "core/stats.h"

/* statsf_next_rand - xorshift64*: deterministic test values, seeded by each test. */
uint64_t statsf_next_rand(uint64_t *s);
/* statsf_rand_value - a value of random magnitude: 1..64 significant bits, uniform below. */
uint64_t statsf_rand_value(uint64_t *s);
/* statsf_hist_eq - @a and @b hold the same values: summary, buckets and pages (Check asserts). */
void statsf_hist_eq(const stats_hist *a, const stats_hist *b);

#endif
