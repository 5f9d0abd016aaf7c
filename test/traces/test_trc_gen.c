/*
 * test/traces/test_trc_gen.c - unit tests for traces/trc_gen.c, the
 * synthetic trace generator.
 *
 * Determinism in the seed; the three patterns' address sets (stream order
 * and wrap, random within the footprint, hotcold shares within a few
 * standard deviations); read ratio; interval timing; base and size; option
 * checks naming the option.
 */
#include "traces/trc_ops.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "test/traces/trc_fixture.h"

static trc_gen make(const trc_gen_opts *o)
{
	trc_gen g;
	cxl_err err = { 0 };

	ck_assert_msg(trc_gen_init(&g, o, &err) == 0, "%s", err.msg);
	return g;
}

START_TEST(test_trc_gen_deterministic_in_seed)
{
	trc_gen_opts o;
	trc_rec a, b;
	int same = 0;

	trc_gen_defaults(&o);
	o.read_ratio = 0.5;
	trc_gen g1 = make(&o), g2 = make(&o);
	o.seed = 2;
	trc_gen g3 = make(&o);
	for (int i = 0; i < 1000; i++) {
		trc_gen_next(&g1, &a);
		trc_gen_next(&g2, &b);
		trcf_assert_recs_eq(&a, &b, 1);
		trc_gen_next(&g3, &b);
		same += a.addr == b.addr;
	}
	ck_assert_int_lt(same, 10);
}
END_TEST

START_TEST(test_trc_gen_stream_wraps)
{
	trc_gen_opts o;
	trc_rec r;

	trc_gen_defaults(&o);
	o.pattern = TRC_GEN_STREAM;
	o.footprint = 4 * 64;
	o.base = 0x10000;
	o.interval_ps = 2500;
	o.size = 32;
	trc_gen g = make(&o);
	for (uint64_t i = 0; i < 10; i++) {
		trc_gen_next(&g, &r);
		ck_assert_uint_eq(r.addr, 0x10000 + (i % 4) * 64);
		ck_assert_uint_eq(r.time, i * 2500);
		ck_assert_uint_eq(r.size, 32);
		ck_assert_uint_eq(r.op, TRC_READ);
		ck_assert_uint_eq(r.flags, 0);
	}
}
END_TEST

START_TEST(test_trc_gen_random_and_read_ratio)
{
	trc_gen_opts o;
	trc_rec r;
	int reads = 0, seen[64] = { 0 }, distinct = 0;

	trc_gen_defaults(&o);
	o.footprint = 64 * 64;
	o.read_ratio = 0.25;
	trc_gen g = make(&o);
	for (int i = 0; i < 20000; i++) {
		trc_gen_next(&g, &r);
		ck_assert_uint_lt(r.addr, 64 * 64);
		ck_assert_uint_eq(r.addr % 64, 0);
		reads += r.op == TRC_READ;
		distinct += !seen[r.addr / 64]++;
	}
	ck_assert_int_eq(distinct, 64);
	ck_assert_int_gt(reads, 5000 - 300); /* sd ~61 */
	ck_assert_int_lt(reads, 5000 + 300);
}
END_TEST

START_TEST(test_trc_gen_hotcold_shares)
{
	trc_gen_opts o;
	trc_rec r;
	int hot = 0;

	trc_gen_defaults(&o);
	o.pattern = TRC_GEN_HOTCOLD;
	o.footprint = 1000 * 64;
	o.hot_fraction = 0.8;
	o.hot_footprint = 0.1;
	trc_gen g = make(&o);
	for (int i = 0; i < 20000; i++) {
		trc_gen_next(&g, &r);
		ck_assert_uint_lt(r.addr, 1000 * 64);
		hot += r.addr < 100 * 64;
	}
	ck_assert_int_gt(hot, 16000 - 300); /* sd ~57 */
	ck_assert_int_lt(hot, 16000 + 300);
	o.footprint = 64; /* one line: everything is hot */
	g = make(&o);
	trc_gen_next(&g, &r);
	ck_assert_uint_eq(r.addr, 0);
}
END_TEST

static void gen_fails(void (*tweak)(trc_gen_opts *), const char *msg)
{
	trc_gen_opts o;
	trc_gen g;
	cxl_err err = { 0 };

	trc_gen_defaults(&o);
	tweak(&o);
	ck_assert_int_eq(trc_gen_init(&g, &o, &err), CXL_EINVAL);
	ck_assert_str_eq(err.msg, msg);
}

static void fp_odd(trc_gen_opts *o) { o->footprint = 100; }
static void fp_zero(trc_gen_opts *o) { o->footprint = 0; }
static void base_odd(trc_gen_opts *o) { o->base = 3; }
static void ratio(trc_gen_opts *o) { o->read_ratio = 1.5; }
static void size0(trc_gen_opts *o) { o->size = 0; }
static void overflow(trc_gen_opts *o) { o->interval_ps = UINT64_MAX / 10; o->records = 100; }
static void pattern(trc_gen_opts *o) { o->pattern = 7; }

START_TEST(test_trc_gen_checks_options)
{
	gen_fails(fp_odd, "--footprint 100: not a positive multiple of 64 bytes");
	gen_fails(fp_zero, "--footprint 0: not a positive multiple of 64 bytes");
	gen_fails(base_odd, "--base 0x3: not a multiple of 64, or base + footprint above 2^64");
	gen_fails(ratio, "--read-ratio 1.5: out of range [0, 1]");
	gen_fails(size0, "--size 0: a record has at least 1 byte");
	gen_fails(overflow, "--interval: the last record's time overflows 2^64 ps");
	gen_fails(pattern, "--pattern: unknown pattern (expected stream|random|hotcold)");
}
END_TEST

START_TEST(test_trc_gen_write_reads_back)
{
	trc_gen_opts o;
	trc_rec out[300], r;
	cxl_err err = { 0 };
	uint64_t n;

	trc_gen_defaults(&o);
	o.records = 300;
	o.pattern = TRC_GEN_HOTCOLD;
	o.interval_ps = 1000;
	ck_assert_int_eq(trc_gen_write(trcf_path("g.cxt"), &o, 64, &err), 0);
	ck_assert_int_eq(trcf_read(trcf_path("g.cxt"), out, 300, &n, &err), 0);
	ck_assert_uint_eq(n, 300);
	trc_gen g = make(&o);
	for (int i = 0; i < 300; i++) {
		trc_gen_next(&g, &r);
		trcf_assert_recs_eq(&r, &out[i], 1);
	}
}
END_TEST

Suite *trc_gen_suite(void)
{
	Suite *s = suite_create("trc_gen");
	TCase *tc = trcf_case("patterns");

	tcase_add_test(tc, test_trc_gen_deterministic_in_seed);
	tcase_add_test(tc, test_trc_gen_stream_wraps);
	tcase_add_test(tc, test_trc_gen_random_and_read_ratio);
	tcase_add_test(tc, test_trc_gen_hotcold_shares);
	tcase_add_test(tc, test_trc_gen_checks_options);
	tcase_add_test(tc, test_trc_gen_write_reads_back);
	suite_add_tcase(s, tc);
	return s;
}
