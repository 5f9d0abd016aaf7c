/*
 * core/rng.h - per-component counter-based random streams.
 *
 * Every random draw in a model comes from its component's own stream, seeded
 * by (run seed, component id) - never from a per-rank stream - so results do
 * not depend on which rank a component lives on.
 *
 * Construction (SplitMix64 with a per-stream key and gamma): draw number k of
 * a stream is  mix64(key + k * gamma),  where key = mix64(seed ^ mix64(id +
 * C1)) and gamma = mix64(key ^ C2) | 1 (odd).  mix64 is a bijection, so a
 * stream never repeats within 2^64 draws; distinct gammas keep streams of
 * different components from being shifted copies of one another.  The state
 * is the pair (key, counter): draw k can be computed directly, which is what
 * "counter-based" buys (a stream can be replayed or skipped without
 * stepping through it).
 *
 * Floating point appears only in the derived distributions (uniform double,
 * exponential); callers convert to integer picoseconds immediately.
 */
#ifndef CXL_CORE_RNG_H
#define CXL_CORE_RNG_H

#include <math.h>
#include <stdint.h>

typedef struct cxl_rng cxl_rng;
struct cxl_rng {
	uint64_t key;   /* stream key, from (seed, id) */
	uint64_t gamma; /* odd stride of the counter, from key */
	uint64_t ctr;   /* number of draws so far */
};

static inline uint64_t rng_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* rng_seed - stream of component @id in a run with seed @seed. */
static inline void rng_seed(cxl_rng *r, uint64_t seed, uint32_t id)
{
	r->key = rng_mix64(seed ^ rng_mix64((uint64_t)id + 0x9e3779b97f4a7c15ULL));
	r->gamma = rng_mix64(r->key ^ 0xd1b54a32d192ed03ULL) | 1;
	r->ctr = 0;
}

/* rng_at - draw number @k of the stream, without advancing it. */
static inline uint64_t rng_at(const cxl_rng *r, uint64_t k)
{
	return rng_mix64(r->key + k * r->gamma);
}

/* rng_u64 - next 64 random bits. */
static inline uint64_t rng_u64(cxl_rng *r)
{
	return rng_at(r, r->ctr++);
}

/* rng_uniform - a double uniform in [0, 1), 53 random bits. */
static inline double rng_uniform(cxl_rng *r)
{
	return (double)(rng_u64(r) >> 11) * 0x1.0p-53;
}

/* rng_below - an integer uniform in [0, n), n > 0 (Lemire, unbiased). */
static inline uint64_t rng_below(cxl_rng *r, uint64_t n)
{
	for (;;) {
		uint64_t x = rng_u64(r);
		__extension__ typedef unsigned __int128 u128;
		u128 m = (u128)x * n;
		uint64_t lo = (uint64_t)m;
		if (lo >= n || lo >= (uint64_t)(-n) % n)
			return (uint64_t)(m >> 64);
	}
}

/* rng_exp - an exponential variate with the given mean (in any unit). */
static inline double rng_exp(cxl_rng *r, double mean)
{
	return -mean * log1p(-rng_uniform(r));
}

#endif
