/*
 * test/traces/test_trc_convert.c - unit tests for traces/trc_convert.c:
 * text -> .cxt -> text through files, for every importer.
 *
 * Canonical text comes back byte for byte (ESF both tick modes, DRAMsim3,
 * CSV, across several blocks); non-canonical text is counted and comes back
 * canonical; a bad line leaves no output file; cat --to another format;
 * cat reports the record a format cannot express.
 */
#include "traces/trc_ops.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test/traces/trc_fixture.h"

/* convert @in_text, then cat (to @to) into a string (caller frees). */
static char *through(const char *in_text, const trc_import_opts *o, int to, uint64_t *noncanon)
{
	const char *in = trcf_write_text("in.txt", in_text), *out = trcf_path("o.cxt");
	cxl_err err = { 0 };
	char *text = NULL;
	size_t size = 0;
	uint64_t first;
	FILE *f;

	ck_assert_msg(trc_convert(in, out, o, 3, noncanon, &first, &err) == 0, "%s", err.msg);
	f = open_memstream(&text, &size);
	ck_assert_msg(trc_cat(out, f, to, 0, 0, &err) == 0, "%s", err.msg);
	fclose(f);
	return text;
}

static void round_trips(const char *text, const trc_import_opts *o)
{
	uint64_t bad;
	char *back = through(text, o, TRC_FMT_NONE, &bad);

	ck_assert_str_eq(back, text);
	ck_assert_uint_eq(bad, 0);
	free(back);
}

START_TEST(test_trc_convert_round_trip_every_importer)
{
	trc_import_opts delay = { .esf_delay = 1 }, clk = { .clock_ps = 625 };

	round_trips("0x40 R 0\n0x7f2f96fec0 W 0\n0x0 R 12\n0x80 R 0\n0xffffffffffffffc0 W 13\n"
		    "0x1 R 13\n0x2 R 14\n", NULL);
	round_trips("0x40 R 0\n0x80 W 5\n0x0 R 0\n0xc0 R 3\n", &delay);
	round_trips("0x40 READ 0\n0x80 WRITE 5\n0xdead00 READ 5\n0x0 READ 1000000\n", &clk);
	round_trips("time_ns,addr,op,size\n0,0x40,R,64\n1,0x41,W,1\n1,0x0,R,4294967295\n"
		    "2,0x80,W,64\n", NULL);
	round_trips("addr,op\n0x40,R\n0x80,W\n0x0,R\n0x1,R\n", NULL);
}
END_TEST

START_TEST(test_trc_convert_normalises)
{
	uint64_t bad;
	char *back = through("0X40 r 0\r\n0x080 W 0\n\n0xC0 R 1", NULL, TRC_FMT_NONE, &bad);

	ck_assert_str_eq(back, "0x40 R 0\n0x80 W 0\n0xc0 R 1\n");
	ck_assert_uint_eq(bad, 4);
	free(back);
}
END_TEST

START_TEST(test_trc_convert_to_other_formats)
{
	uint64_t bad;
	char *csv = through("0x40 R 0\n0x80 W 2\n", NULL, TRC_FMT_CSV, &bad);
	char *dram = through("time_ps,addr,op\n1000,0x40,R\n3000,0x80,W\n", NULL, TRC_FMT_DRAMSIM3,
			     &bad);
	char *esf = through("0x40 READ 1\n0x80 WRITE 2\n", NULL, TRC_FMT_ESF, &bad);

	ck_assert_str_eq(csv, "time_ps,addr,op,size\n0,0x40,R,64\n2000,0x80,W,64\n");
	ck_assert_str_eq(dram, "0x40 READ 1\n0x80 WRITE 3\n");
	ck_assert_str_eq(esf, "0x40 R 1\n0x80 W 2\n");
	free(csv);
	free(dram);
	free(esf);
}
END_TEST

START_TEST(test_trc_convert_bad_line_leaves_no_output)
{
	const char *in = trcf_write_text("in.txt", "0x40 R 0\n0x80 Q 0\n");
	cxl_err err = { 0 };
	uint64_t bad, first;
	char want[600];

	ck_assert_int_eq(trc_convert(in, trcf_path("o.cxt"), NULL, 0, &bad, &first, &err),
			 CXL_EINVAL);
	snprintf(want, sizeof(want), "%s:2: bad op \"Q\" (expected R or W)", in);
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(access(trcf_path("o.cxt"), F_OK), -1);
}
END_TEST

START_TEST(test_trc_convert_cat_names_unprintable_record)
{
	const char *in = trcf_write_text("in.csv", "time_ps,addr,op,size\n0,0x40,R,64\n7,0x80,W,64\n"
						   "9,0xc0,W,8\n");
	cxl_err err = { 0 };
	uint64_t bad, first;
	char want[600];
	FILE *devnull = fopen("/dev/null", "w");

	ck_assert_int_eq(trc_convert(in, trcf_path("o.cxt"), NULL, 0, &bad, &first, &err), 0);
	ck_assert_int_eq(trc_cat(trcf_path("o.cxt"), devnull, TRC_FMT_ESF, 1, 0, &err), CXL_EINVAL);
	snprintf(want, sizeof(want), "%s: record 2: size is not 64 B (ESF text has no size field)",
		 trcf_path("o.cxt"));
	ck_assert_str_eq(err.msg, want);
	err = (cxl_err){ 0 };
	ck_assert_int_eq(trc_cat(trcf_path("o.cxt"), devnull, TRC_FMT_DRAMSIM3, 2, 0, &err),
			 CXL_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "record 1: time is not a whole number of ticks"));
	fclose(devnull);
}
END_TEST

Suite *trc_convert_suite(void)
{
	Suite *s = suite_create("trc_convert");
	TCase *tc = trcf_case("round_trip");

	tcase_add_test(tc, test_trc_convert_round_trip_every_importer);
	tcase_add_test(tc, test_trc_convert_normalises);
	tcase_add_test(tc, test_trc_convert_to_other_formats);
	tcase_add_test(tc, test_trc_convert_bad_line_leaves_no_output);
	tcase_add_test(tc, test_trc_convert_cat_names_unprintable_record);
	suite_add_tcase(s, tc);
	return s;
}
