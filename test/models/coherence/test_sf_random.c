/*
 * test/models/coherence/test_sf_random.c - the snoop filter (models/coherence/sf*.c) against a
 * reference model written here on plain arrays (linear search, brute-force InvBlk over every run
 * start and length) for every policy x invblk_max 1..4, on four geometries
 * (32 entries fully associative, 8 x 8, 4 x 4: 6000 operations each; 256
 * fully associative: 4000).  Operations: 40% access (find; hit: touch half
 * the time; miss: insert, or if the set is full check the insert fails and
 * evict, removing the victims 80% of the time), 15% victims of a random
 * set (removed half the time), 5% lock, 15% unlock, 10% remove, 15% touch
 * of a random present entry.  7 in 8 lines continue a sequential stream
 * (so InvBlk runs form), the rest are random, half of them above 2^40.
 * Victims are compared by line, sf_count every step, sf_check() every 8
 * steps; the test also asserts that it reached full sets, all-locked sets
 * (0 victims) and runs of full invblk_max length.
 *
 *
 * Randomness: splitmix64 (rng_mix64) on a counter with fixed seeds.
 */
#include "models/coherence/sf.h"

#include <check.h>
#include <stdint.h>
#include <string.h>

#include "core/rng.h"
#include "models/coherence/sf_int.h"
#include "test/models/coherence/sf_fixture.h"

#define REF_MAX 256          /* entries of the largest geometry */
#define REF_HI (UINT64_C(1) << 40)

typedef struct ref_ent ref_ent;
struct ref_ent {
	uint64_t line;   /* line */
	uint64_t ins;    /* clock at insertion */
	uint64_t use;    /* clock at insertion or last touch */
	uint32_t cnt;    /* insertions of the line, this one included */
	int valid;       /* 1: in use */
	int locked;      /* 1: locked */
};

typedef struct ref ref;
struct ref {
	ref_ent e[REF_MAX];      /* unordered slots */
	uint32_t n;              /* entries */
	uint32_t nsets;          /* sets */
	enum sf_policy pol;      /* policy */
	uint32_t inv;            /* invblk_max */
	uint64_t clock;          /* event counter */
	uint32_t cnt[8 * REF_MAX];  /* insertions per line index (line_idx) */
	uint32_t range;          /* lines drawn: indices 0..range-1 */
};

static uint64_t idx_line(const ref *r, uint32_t k)
{
	uint32_t half = r->range / 2;

	return k < half ? k : REF_HI + (k - half);
}

static uint32_t line_idx(const ref *r, uint64_t line)
{
	return line < REF_HI ? (uint32_t)line : (uint32_t)(line - REF_HI) + r->range / 2;
}

static uint32_t ref_set(const ref *r, uint64_t line)
{
	return (uint32_t)(line / SF_BLOCK % r->nsets);
}

static int ref_find(const ref *r, uint64_t line)
{
	for (uint32_t i = 0; i < r->n; i++)
		if (r->e[i].valid && r->e[i].line == line)
			return (int)i;
	return -1;
}

static uint32_t ref_used(const ref *r, uint32_t set)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < r->n; i++)
		k += r->e[i].valid && ref_set(r, r->e[i].line) == set;
	return k;
}

static void ref_insert(ref *r, uint64_t line)
{
	uint32_t i = 0;

	while (r->e[i].valid)
		i++;
	r->e[i] = (ref_ent){ .line = line, .ins = r->clock, .use = r->clock,
			     .cnt = ++r->cnt[line_idx(r, line)], .valid = 1 };
	r->clock++;
}

/* @a beats @b as a single victim under the policy */
static int ref_single_better(const ref *r, const ref_ent *a, const ref_ent *b)
{
	switch (r->pol) {
	case SF_FIFO: return a->ins < b->ins;
	case SF_LIFO: return a->ins > b->ins;
	case SF_LRU: return a->use < b->use;
	case SF_MRU: return a->use > b->use;
	case SF_LFI: return a->cnt < b->cnt || (a->cnt == b->cnt && a->ins < b->ins);
	default: ck_abort();
	}
	return 0;
}

static int ref_free_line(const ref *r, uint64_t line)
{
	int i = ref_find(r, line);

	return i >= 0 && !r->e[i].locked;
}

/* Insertion clocks of lines first..first+len-1, newest first. */
static void ref_run_key(const ref *r, uint64_t first, uint32_t len, uint64_t *key)
{
	for (uint32_t i = 0; i < len; i++)
		key[i] = r->e[ref_find(r, first + i)].ins;
	for (uint32_t i = 0; i < len; i++)       /* selection sort, descending */
		for (uint32_t j = i + 1; j < len; j++)
			if (key[j] > key[i]) {
				uint64_t t = key[i];
				key[i] = key[j];
				key[j] = t;
			}
}

/* Brute force over every run start and length; returns the length, first line in *first. */
static uint32_t ref_invblk(const ref *r, uint32_t set, uint64_t *first)
{
	uint32_t best = 0;
	uint64_t bkey[SF_BLOCK] = { 0 }, key[SF_BLOCK];

	for (uint32_t i = 0; i < r->n; i++) {
		const ref_ent *x = &r->e[i];

		if (!x->valid || x->locked || ref_set(r, x->line) != set)
			continue;
		for (uint32_t len = 1; len <= r->inv; len++) {
			uint64_t last = x->line + len - 1;

			if (last / SF_BLOCK != x->line / SF_BLOCK || !ref_free_line(r, last))
				break;
			ref_run_key(r, x->line, len, key);
			int better = len > best;
			for (uint32_t k = 0; len == best && k < len; k++)
				if (key[k] != bkey[k]) {
					better = key[k] > bkey[k];
					break;
				}
			if (better) {
				best = len;
				*first = x->line;
				memcpy(bkey, key, sizeof(key));
			}
		}
	}
	return best;
}

/* The reference victims of @line's set, by line in line order; locks them. */
static uint32_t ref_victims(ref *r, uint64_t line, uint64_t *lines)
{
	uint32_t set = ref_set(r, line), n = 0;

	if (r->inv > 1) {
		uint64_t first = 0;

		n = ref_invblk(r, set, &first);
		for (uint32_t i = 0; i < n; i++)
			lines[i] = first + i;
	} else {
		const ref_ent *best = NULL;

		for (uint32_t i = 0; i < r->n; i++) {
			const ref_ent *x = &r->e[i];

			if (x->valid && !x->locked && ref_set(r, x->line) == set &&
			    (!best || ref_single_better(r, x, best)))
				best = x;
		}
		if (best)
			lines[n++] = best->line;
	}
	for (uint32_t i = 0; i < n; i++)
		r->e[ref_find(r, lines[i])].locked = 1;
	return n;
}

typedef struct drv drv;
struct drv {
	sf *s;          /* under test */
	ref r;          /* reference */
	uint64_t rng;   /* splitmix64 counter */
	uint32_t hits[SF_BLOCK + 1];   /* sf_victims calls by number of victims */
	uint32_t full;  /* inserts refused by a full set */
};

static uint32_t rnd(drv *d, uint32_t n)
{
	return (uint32_t)(rng_mix64(d->rng++) % n);
}

/* Victims from both, compared; then removed from both with probability @pct_remove %. */
static void step_victims(drv *d, uint64_t line, uint32_t pct_remove)
{
	uint32_t out[SF_BLOCK];
	uint64_t want[SF_BLOCK];
	uint32_t n = sf_victims(d->s, line, out);

	REQ_EQ(n, ref_victims(&d->r, line, want));
	d->hits[n]++;
	for (uint32_t i = 0; i < n; i++) {
		REQ_EQ(sfx_line_of(d->s, out[i]), want[i]);
		REQ(sf_entry_at(d->s, out[i])->locked);
	}
	if (rnd(d, 100) >= pct_remove)
		return;
	for (uint32_t i = 0; i < n; i++) {
		d->r.e[ref_find(&d->r, want[i])].valid = 0;
		sf_remove(d->s, out[i]);
	}
}

static void step_access(drv *d, uint64_t line)
{
	int i = ref_find(&d->r, line);
	uint32_t e = sf_find(d->s, line);

	if (i >= 0) {
		REQ_NE(e, SF_NONE);
		REQ_EQ(sfx_line_of(d->s, e), line);
		if (rnd(d, 2)) {
			sf_touch(d->s, e);
			d->r.e[i].use = d->r.clock++;
		}
		return;
	}
	REQ_EQ(e, SF_NONE);
	uint32_t used = ref_used(&d->r, ref_set(&d->r, line));
	REQ_EQ(sf_set_free(d->s, line), d->r.n / d->r.nsets - used);
	if (used < d->r.n / d->r.nsets) {
		sfx_ins(d->s, line);
		ref_insert(&d->r, line);
	} else {
		REQ_EQ(sf_insert(d->s, line), SF_NONE);
		d->full++;
		step_victims(d, line, 80);
	}
}

/* A random valid reference entry, or -1. */
static int pick_valid(drv *d)
{
	uint32_t start = rnd(d, d->r.n);

	for (uint32_t k = 0; k < d->r.n; k++) {
		uint32_t i = (start + k) % d->r.n;

		if (d->r.e[i].valid)
			return (int)i;
	}
	return -1;
}

static void step_entry_op(drv *d, uint32_t op)
{
	int i = pick_valid(d);

	if (i < 0)
		return;
	ref_ent *x = &d->r.e[i];
	uint32_t e = sf_find(d->s, x->line);

	REQ_NE(e, SF_NONE);
	REQ_EQ(sf_entry_at(d->s, e)->locked, x->locked);
	if (op < 60) {
		sf_lock(d->s, e);
		x->locked = 1;
	} else if (op < 75) {
		sf_unlock(d->s, e);
		x->locked = 0;
	} else if (op < 85) {
		sf_remove(d->s, e);
		x->valid = 0;
	} else {
		sf_touch(d->s, e);
		x->use = d->r.clock++;
	}
}

/* One differential run; adds its sf_victims counts by result to @hits. */
static void run_random(uint32_t entries, uint32_t assoc, enum sf_policy pol, uint32_t inv,
		       uint64_t seed, int ops, uint32_t *hits)
{
	drv d = { .rng = seed };
	uint32_t last = 0;

	d.s = sfx_mk(entries, assoc, pol, inv);
	d.r.n = entries;
	d.r.nsets = assoc ? entries / assoc : 1;
	d.r.pol = pol;
	d.r.inv = inv;
	d.r.range = 4 * entries;   /* half low lines, half above 2^40 */
	for (int k = 0; k < ops; k++) {
		uint32_t op = rnd(&d, 100);
		uint32_t k_line = rnd(&d, 8) ? (last + 1) % d.r.range : rnd(&d, d.r.range);
		uint64_t line = idx_line(&d.r, k_line);

		last = k_line;   /* 7 in 8 lines continue a sequential stream */

		if (op < 40)
			step_access(&d, line);
		else if (op < 55)
			step_victims(&d, line, 50);
		else
			step_entry_op(&d, op);
		uint32_t live = 0;
		for (uint32_t i = 0; i < d.r.n; i++)
			live += (uint32_t)d.r.e[i].valid;
		REQ_EQ(sf_count(d.s), live);
		if (k % 8 == 0)
			sf_check(d.s);
	}
	sf_check(d.s);
	sf_destroy(d.s);
	for (uint32_t n = 0; n <= SF_BLOCK; n++)
		hits[n] += d.hits[n];
	ck_assert_uint_gt(d.full, 0);
}

/* Loop index = policy * SF_BLOCK + invblk_max - 1. */
START_TEST(test_sf_random_vs_reference)
{
	enum sf_policy pol = (enum sf_policy)(_i / SF_BLOCK);
	uint32_t inv = (uint32_t)(_i % SF_BLOCK) + 1;
	uint64_t seed = 0x5f5eed00u + (uint64_t)_i * 1000;

	uint32_t hits[SF_BLOCK + 1] = { 0 };

	run_random(32, 0, pol, inv, seed, 6000, hits);       /* fully associative */
	run_random(64, 8, pol, inv, seed + 1, 6000, hits);   /* 8 sets of 8 */
	run_random(16, 4, pol, inv, seed + 2, 6000, hits);   /* 4 sets of 4 */
	run_random(256, 0, pol, inv, seed + 3, 4000, hits);  /* deeper heaps */
	/* the runs reached what they exist for: all-locked sets, full-length runs */
	ck_assert_uint_gt(hits[0], 0);
	ck_assert_uint_gt(hits[inv], 5);
}
END_TEST

Suite *sf_random_suite(void)
{
	Suite *su = suite_create("sf_random");
	TCase *tc = tcase_create("random");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_sf_random_vs_reference, 0, SF_NPOLICY * SF_BLOCK);
	suite_add_tcase(su, tc);
	return su;
}
