/*
 * test/traces/test_trc_info.c - unit tests for traces/trc_info.c.
 *
 * The summary of a hand-made trace (counts, distinct lines with repeats
 * and unaligned addresses in one line, bytes, address range, times, file
 * size), of a generated stream (footprint = footprint option), of an empty
 * trace; the line set across its growth; the block table; damage reported.
 */
#include "traces/trc_ops.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "test/traces/trc_fixture.h"

START_TEST(test_trc_info_hand_made)
{
	trc_rec r[5] = {
		{ .time = 100, .addr = 0x1000, .size = 64 },
		{ .time = 150, .addr = 0x1010, .size = 8, .op = TRC_WRITE },
		{ .time = 150, .addr = 0x1040, .size = 64 },
		{ .time = 900, .addr = 0x40, .size = 64, .op = TRC_WRITE },
		{ .time = 1000, .addr = 0x1000, .size = 128 },
	};
	trc_info in;
	cxl_err err = { 0 };

	trcf_write(trcf_path("i.cxt"), r, 5, 2, NULL);
	ck_assert_int_eq(trc_info_scan(trcf_path("i.cxt"), &in, &err), 0);
	ck_assert_uint_eq(in.records, 5);
	ck_assert_uint_eq(in.reads, 3);
	ck_assert_uint_eq(in.writes, 2);
	ck_assert_uint_eq(in.lines, 3);
	ck_assert_uint_eq(in.bytes, 64 + 8 + 64 + 64 + 128);
	ck_assert_uint_eq(in.addr_min, 0x40);
	ck_assert_uint_eq(in.addr_max, 0x1040);
	ck_assert_uint_eq(in.t_first, 100);
	ck_assert_uint_eq(in.t_last, 1000);
	ck_assert_uint_eq(in.cap, 2);
	ck_assert_uint_eq(in.file_bytes, trcf_file_size(trcf_path("i.cxt")));
}
END_TEST

START_TEST(test_trc_info_generated_stream_footprint)
{
	trc_gen_opts o;
	trc_info in;
	cxl_err err = { 0 };

	trc_gen_defaults(&o);
	o.pattern = TRC_GEN_STREAM;
	o.records = 100000;
	o.footprint = 20000 * 64; /* the set grows well past its first 1024 slots */
	o.read_ratio = 0.75;
	o.interval_ps = 1000;
	ck_assert_int_eq(trc_gen_write(trcf_path("s.cxt"), &o, 0, &err), 0);
	ck_assert_int_eq(trc_info_scan(trcf_path("s.cxt"), &in, &err), 0);
	ck_assert_uint_eq(in.records, 100000);
	ck_assert_uint_eq(in.lines, 20000);
	ck_assert_uint_eq(in.reads + in.writes, 100000);
	ck_assert_uint_eq(in.t_last, 99999 * 1000);
	ck_assert_uint_eq(in.bytes, 100000 * 64);
	ck_assert_uint_lt(in.file_bytes, 100000 * 21 / 10); /* streams compress well */
}
END_TEST

START_TEST(test_trc_info_empty_and_damaged)
{
	trc_rec *r = trcf_recs(40, 1);
	trc_info in;
	cxl_err err = { 0 };
	size_t len;
	uint8_t *buf;

	trcf_write(trcf_path("e.cxt"), NULL, 0, 0, NULL);
	ck_assert_int_eq(trc_info_scan(trcf_path("e.cxt"), &in, &err), 0);
	ck_assert_uint_eq(in.records, 0);
	ck_assert_uint_eq(in.lines, 0);
	trcf_write(trcf_path("d.cxt"), r, 40, 10, NULL);
	buf = trcf_slurp(trcf_path("d.cxt"), &len);
	buf[len - 1] ^= 0x10;
	trcf_spit(trcf_path("d.cxt"), buf, len);
	ck_assert_int_eq(trc_info_scan(trcf_path("d.cxt"), &in, &err), CXL_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "d.cxt: record 30: block checksum mismatch"));
	free(buf);
	free(r);
}
END_TEST

START_TEST(test_trc_info_block_table)
{
	trc_rec *r = trcf_recs(25, 1);
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	trcf_write(trcf_path("b.cxt"), r, 25, 10, NULL);
	ck_assert_int_eq(trc_info_blocks(trcf_path("b.cxt"), f, NULL), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "header 0 48\nblock offset compressed payload records first\n"
				     "block 48 "));
	ck_assert_ptr_nonnull(strstr(text, " 10 0\nblock "));
	ck_assert_ptr_nonnull(strstr(text, " 10 10\nblock "));
	ck_assert_ptr_nonnull(strstr(text, " 5 20\n"));
	free(text);
	free(r);
}
END_TEST

Suite *trc_info_suite(void)
{
	Suite *s = suite_create("trc_info");
	TCase *tc = trcf_case("summary");

	tcase_add_test(tc, test_trc_info_hand_made);
	tcase_add_test(tc, test_trc_info_generated_stream_footprint);
	tcase_add_test(tc, test_trc_info_empty_and_damaged);
	tcase_add_test(tc, test_trc_info_block_table);
	suite_add_tcase(s, tc);
	return s;
}
