/*
 * test/traces/test_trc_tidmap.c - unit tests for traces/trc_tidmap.c: thread
 * ids to dense indices in order of first appearance, across table growth,
 * and the limit of TRC_THREADS_MAX ids.
 */
#include "traces/trc_tidmap.h"

#include <check.h>

#include "test/traces/trc_fixture.h"

START_TEST(test_trc_tidmap_first_appearance_order)
{
	trc_tidmap m = { 0 };
	uint16_t idx;

	ck_assert_int_eq(trc_tidmap_index(&m, 2765543, &idx), 0);
	ck_assert_uint_eq(idx, 0);
	ck_assert_int_eq(trc_tidmap_index(&m, 7, &idx), 0);
	ck_assert_uint_eq(idx, 1);
	ck_assert_int_eq(trc_tidmap_index(&m, 2765543, &idx), 0);
	ck_assert_uint_eq(idx, 0);
	ck_assert_int_eq(trc_tidmap_index(&m, UINT64_MAX, &idx), 0);
	ck_assert_uint_eq(idx, 2);
	ck_assert_uint_eq(m.n, 3);
	trc_tidmap_free(&m);
	ck_assert_int_eq(trc_tidmap_index(&m, 7, &idx), 0); /* reusable empty */
	ck_assert_uint_eq(idx, 0);
	trc_tidmap_free(&m);
}
END_TEST

/* 65536 ids (keys spread and clustered) keep their indices through every growth; one more fails. */
START_TEST(test_trc_tidmap_limit)
{
	trc_tidmap m = { 0 };
	uint16_t idx;

	for (uint64_t i = 0; i < TRC_THREADS_MAX; i++) {
		uint64_t key = (i & 1) ? (i + 1) << 32 : i + 1;
		ck_assert_int_eq(trc_tidmap_index(&m, key, &idx), 0);
		ck_assert_uint_eq(idx, i);
	}
	for (uint64_t i = 0; i < TRC_THREADS_MAX; i += 997) {
		uint64_t key = (i & 1) ? (i + 1) << 32 : i + 1;
		ck_assert_int_eq(trc_tidmap_index(&m, key, &idx), 0);
		ck_assert_uint_eq(idx, i);
	}
	ck_assert_uint_le(m.cap, 2 * TRC_THREADS_MAX);
	ck_assert_int_eq(trc_tidmap_index(&m, 1ull << 62, &idx), -1);
	ck_assert_int_eq(trc_tidmap_index(&m, 1, &idx), 0); /* known ids still found */
	ck_assert_uint_eq(idx, 0);
	trc_tidmap_free(&m);
}
END_TEST

Suite *trc_tidmap_suite(void)
{
	Suite *s = suite_create("trc_tidmap");
	TCase *tc = trcf_case("tidmap");

	tcase_add_test(tc, test_trc_tidmap_first_appearance_order);
	tcase_add_test(tc, test_trc_tidmap_limit);
	suite_add_tcase(s, tc);
	return s;
}
