/*
 * test/core/test_evpool.c - unit tests for the event free list (core/evpool.c).
 *
 * What is checked: evpool_get() hands out fully zeroed events carrying the
 * requested owner tag, put/get reuse events without growing in steady state
 * (`nslabs` stays 1), growth across slab boundaries and past the initial
 * slab-table capacity, `live`/`peak` accounting, and that a double free
 * panics: CXL_PANIC ends in abort(), so that test expects SIGABRT.
 *
 * Every test gets a fresh pool from the checked fixture (CK_FORK isolates
 * tests, which the SIGABRT test needs).
 */
#include <check.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/event.h"
#include "core/evpool.h"
#include "test/core/panic_fixture.h"

static evpool pool; /* fixture: the pool under test */

static void setup(void)
{
	evpool_init(&pool);
}

static void teardown(void)
{
	evpool_destroy(&pool);
}

/*
 * assert_fresh - every byte of @ev is 0 except `owner`, which is @owner.
 * One assertion per event: Check records every passing assertion.
 */
static void assert_fresh(const cxl_event *ev, uint8_t owner)
{
	const unsigned char *b = (const unsigned char *)ev;
	size_t bad = sizeof(*ev);

	for (size_t i = 0; i < sizeof(*ev) && bad == sizeof(*ev); i++) {
		unsigned char want = i == offsetof(cxl_event, owner) ? owner : 0;
		if (b[i] != want)
			bad = i;
	}
	ck_assert_msg(bad == sizeof(*ev), "byte %zu of a new event is %u", bad,
		      bad < sizeof(*ev) ? b[bad] : 0);
}

START_TEST(test_evpool_get_zeroed_with_owner)
{
	static const uint8_t tags[] = { CXL_OWN_QUEUE, CXL_OWN_OUTBOX,
					CXL_OWN_HANDLER, CXL_OWN_MODEL };

	for (size_t t = 0; t < sizeof(tags); t++) {
		cxl_event *ev = evpool_get(&pool, tags[t]);
		assert_fresh(ev, tags[t]);
		memset(ev, 0xa5, sizeof(*ev));
		ev->owner = tags[t];
		evpool_put(&pool, ev);
		ck_assert_uint_eq(ev->owner, CXL_OWN_POOL);
		cxl_event *again = evpool_get(&pool, tags[t]);
		ck_assert_ptr_eq(again, ev); /* LIFO: the dirty one comes back */
		assert_fresh(again, tags[t]);
		evpool_put(&pool, again);
	}
}
END_TEST

START_TEST(test_evpool_steady_state_no_growth)
{
	enum { LIVE = 1000, CYCLES = 200000 };
	static cxl_event *held[LIVE];
	uint64_t x = 1;

	for (size_t i = 0; i < LIVE; i++)
		held[i] = evpool_get(&pool, CXL_OWN_QUEUE);
	ck_assert_uint_eq(pool.nslabs, 1);
	for (size_t c = 0; c < CYCLES; c++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		size_t i = (x >> 33) % LIVE;
		evpool_put(&pool, held[i]);
		held[i] = evpool_get(&pool, CXL_OWN_HANDLER);
		ck_assert_uint_eq(held[i]->owner, CXL_OWN_HANDLER);
	}
	ck_assert_uint_eq(pool.nslabs, 1);
	ck_assert_uint_eq(pool.live, LIVE);
	ck_assert_uint_eq(pool.peak, LIVE);
	for (size_t i = 0; i < LIVE; i++)
		evpool_put(&pool, held[i]);
	ck_assert_uint_eq(pool.nslabs, 1);
	ck_assert_uint_eq(pool.live, 0);
}
END_TEST

static int ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(cxl_event *const *)a;
	uintptr_t y = (uintptr_t)*(cxl_event *const *)b;

	return (x > y) - (x < y);
}

/* get_many - take @n events into @out; checks each is fresh. */
static void get_many(cxl_event **out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		out[i] = evpool_get(&pool, CXL_OWN_MODEL);
		assert_fresh(out[i], CXL_OWN_MODEL);
		out[i]->seq = i; /* dirty it: a reused event must still come back zeroed */
	}
}

START_TEST(test_evpool_grow_across_slabs)
{
	size_t n = 17 * (size_t)EVPOOL_SLAB + 1; /* past the 16-entry slab table */
	cxl_event **ev = malloc(n * sizeof(*ev));

	ck_assert_ptr_nonnull(ev);
	get_many(ev, EVPOOL_SLAB);
	ck_assert_uint_eq(pool.nslabs, 1);
	get_many(ev + EVPOOL_SLAB, 1);
	ck_assert_uint_eq(pool.nslabs, 2);
	get_many(ev + EVPOOL_SLAB + 1, n - EVPOOL_SLAB - 1);
	ck_assert_uint_eq(pool.nslabs, 18);
	ck_assert_uint_ge(pool.cap_slabs, 18);
	qsort(ev, n, sizeof(*ev), ptr_cmp);
	for (size_t i = 1; i < n; i++)
		ck_assert_ptr_ne(ev[i - 1], ev[i]);
	for (size_t i = 0; i < n; i++)
		evpool_put(&pool, ev[i]);
	ck_assert_uint_eq(pool.live, 0);
	get_many(ev, n); /* all from the free list now */
	ck_assert_uint_eq(pool.nslabs, 18);
	free(ev);
}
END_TEST

/* expect_counts - check the pool's live and peak counters. */
static void expect_counts(uint64_t live, uint64_t peak)
{
	ck_assert_uint_eq(pool.live, live);
	ck_assert_uint_eq(pool.peak, peak);
}

START_TEST(test_evpool_live_peak)
{
	cxl_event *ev[15];

	expect_counts(0, 0);
	ev[0] = evpool_get(&pool, CXL_OWN_QUEUE);
	expect_counts(1, 1);
	for (int i = 1; i < 9; i++)
		ev[i] = evpool_get(&pool, CXL_OWN_QUEUE);
	expect_counts(9, 9);
	for (int i = 0; i < 4; i++)
		evpool_put(&pool, ev[i]);
	expect_counts(5, 9);
	for (int i = 0; i < 4; i++)
		ev[i] = evpool_get(&pool, CXL_OWN_QUEUE);
	expect_counts(9, 9);
	for (int i = 9; i < 15; i++)
		ev[i] = evpool_get(&pool, CXL_OWN_QUEUE);
	expect_counts(15, 15);
	for (int i = 0; i < 15; i++)
		evpool_put(&pool, ev[i]);
	expect_counts(0, 15);
}
END_TEST

START_TEST(test_evpool_destroy_resets)
{
	evpool_get(&pool, CXL_OWN_QUEUE);
	evpool_destroy(&pool);
	ck_assert_ptr_null(pool.free);
	ck_assert_ptr_null(pool.slabs);
	ck_assert_uint_eq(pool.nslabs, 0);
	ck_assert_uint_eq(pool.live, 0);
	ck_assert_uint_eq(pool.peak, 0);
	evpool_init(&pool); /* teardown destroys again */
}
END_TEST

START_TEST(test_evpool_double_free_panics)
{
	cxl_event *ev = evpool_get(&pool, CXL_OWN_HANDLER);

	evpool_put(&pool, ev);
	panict_expect("event freed twice");
	evpool_put(&pool, ev); /* must not return */
	ck_abort_msg("double free was not detected");
}
END_TEST

Suite *evpool_suite(void)
{
	Suite *s = suite_create("evpool");
	TCase *get = tcase_create("get_put");
	TCase *grow = tcase_create("growth");
	TCase *misuse = tcase_create("misuse");

	tcase_add_checked_fixture(get, setup, teardown);
	tcase_add_test(get, test_evpool_get_zeroed_with_owner);
	tcase_add_test(get, test_evpool_steady_state_no_growth);
	tcase_add_test(get, test_evpool_live_peak);
	suite_add_tcase(s, get);

	tcase_add_checked_fixture(grow, setup, teardown);
	tcase_set_timeout(grow, 30);
	tcase_add_test(grow, test_evpool_grow_across_slabs);
	tcase_add_test(grow, test_evpool_destroy_resets);
	suite_add_tcase(s, grow);

	tcase_add_checked_fixture(misuse, setup, teardown);
	tcase_add_test_raise_signal(misuse, test_evpool_double_free_panics, SIGABRT);
	suite_add_tcase(s, misuse);
	return s;
}
