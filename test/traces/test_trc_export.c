/*
 * test/traces/test_trc_export.c - unit tests for traces/trc_export.c:
 * records to text lines, and CSV header parsing.
 *
 * Each target format from each origin (the origin's clock, flags and CSV
 * header when the target is the origin; --clock and the default header
 * otherwise), ESF tick 0 for records without time, ESF delays, the records
 * a format cannot express (size other than 64 B, times that are not whole
 * ticks), and CSV header errors; Ramulator and Ramulator2 lines (bubble
 * counts from times), and the origins without text (lackey, ramulator-cpu,
 * drcachesim) printed as CSV.
 */
#include "traces/trc_text.h"

#include <check.h>
#include <string.h>

#include "test/traces/trc_fixture.h"

static const char *line_of(trc_export *ex, const trc_rec *r)
{
	static char buf[TRC_EXPORT_LINE_MAX];
	const char *why = NULL;

	ck_assert_msg(trc_export_line(ex, r, buf, &why) > 0, "%s", why);
	return buf;
}

static void line_fails(trc_export *ex, const trc_rec *r, const char *why_want)
{
	char buf[TRC_EXPORT_LINE_MAX];
	const char *why = NULL;

	ck_assert_int_eq(trc_export_line(ex, r, buf, &why), -1);
	ck_assert_str_eq(why, why_want);
}

START_TEST(test_trc_export_esf)
{
	trc_origin o = { .fmt = TRC_FMT_ESF, .clock_ps = 500 };
	trc_rec a = { .time = 1500, .addr = 0xabc0, .size = 64, .op = TRC_WRITE };
	trc_rec b = { .time = 1500, .addr = 0, .size = 64, .flags = TRC_REC_NOTIME };
	trc_rec c = { .time = 1750, .addr = 64, .size = 64 };
	trc_export ex;

	ck_assert_int_eq(trc_export_init(&ex, &o, TRC_FMT_NONE, 0, 0, NULL), 0);
	ck_assert_str_eq(ex.header, "");
	ck_assert_str_eq(line_of(&ex, &a), "0xabc0 W 3\n");
	ck_assert_str_eq(line_of(&ex, &b), "0x0 R 0\n");
	line_fails(&ex, &c, "time is not a whole number of ticks of the clock (give --clock)");
	c.size = 32;
	line_fails(&ex, &c, "size is not 64 B (ESF text has no size field)");
	o.flags = TRC_ORIGIN_ESF_DELAY;
	ck_assert_int_eq(trc_export_init(&ex, &o, TRC_FMT_ESF, 0, 0, NULL), 0);
	ck_assert_str_eq(line_of(&ex, &a), "0xabc0 W 3\n");
	ck_assert_str_eq(line_of(&ex, &b), "0x0 R 0\n");
	a.time = 2500;
	ck_assert_str_eq(line_of(&ex, &a), "0xabc0 W 2\n");
}
END_TEST

START_TEST(test_trc_export_dramsim3_and_conversions)
{
	trc_origin none = { .fmt = TRC_FMT_NONE }, esf = { .fmt = TRC_FMT_ESF, .clock_ps = 1000 };
	trc_rec a = { .time = 3000, .addr = 0x1000, .size = 64 };
	trc_export ex;

	ck_assert_int_eq(trc_export_init(&ex, &none, TRC_FMT_DRAMSIM3, 750, 0, NULL), 0);
	ck_assert_str_eq(line_of(&ex, &a), "0x1000 READ 4\n");
	a.size = 8;
	line_fails(&ex, &a, "size is not 64 B (DRAMsim3 text has no size field)");
	/* default target of a generated trace: CSV with every column */
	ck_assert_int_eq(trc_export_init(&ex, &none, TRC_FMT_NONE, 0, 0, NULL), 0);
	ck_assert_int_eq(ex.fmt, TRC_FMT_CSV);
	ck_assert_str_eq(ex.header, "time_ps,addr,op,size\n");
	ck_assert_str_eq(line_of(&ex, &a), "3000,0x1000,R,8\n");
	/* ESF origin to another format uses --clock (default 1 ns), not the origin's */
	esf.clock_ps = 3;
	a.size = 64;
	ck_assert_int_eq(trc_export_init(&ex, &esf, TRC_FMT_DRAMSIM3, 0, 0, NULL), 0);
	ck_assert_str_eq(line_of(&ex, &a), "0x1000 READ 3\n");
	/* generated trace to ESF delays */
	ck_assert_int_eq(trc_export_init(&ex, &none, TRC_FMT_ESF, 1000, 1, NULL), 0);
	ck_assert_str_eq(line_of(&ex, &a), "0x1000 R 3\n");
	a.time = 7000;
	ck_assert_str_eq(line_of(&ex, &a), "0x1000 R 4\n");
}
END_TEST

START_TEST(test_trc_export_csv_header_and_units)
{
	trc_origin o = { .fmt = TRC_FMT_CSV, .clock_ps = 250 };
	trc_rec a = { .time = 2000000, .addr = 0x40, .size = 64, .op = TRC_WRITE };
	trc_export ex;
	cxl_err err = { 0 };

	strcpy(o.text, "Size, OP ,time_us,Address");
	ck_assert_int_eq(trc_export_init(&ex, &o, TRC_FMT_CSV, 0, 0, &err), 0);
	ck_assert_str_eq(ex.header, "Size, OP ,time_us,Address\n");
	ck_assert_str_eq(line_of(&ex, &a), "64,W,2,0x40\n");
	a.time = 2000001;
	line_fails(&ex, &a, "time is not a whole number of ticks of the clock (give --clock)");
	strcpy(o.text, "cycle,addr,op");
	ck_assert_int_eq(trc_export_init(&ex, &o, TRC_FMT_CSV, 0, 0, &err), 0);
	a.time = 1000;
	ck_assert_str_eq(line_of(&ex, &a), "4,0x40,W\n");
	o.clock_ps = 0;
	ck_assert_int_eq(trc_export_init(&ex, &o, TRC_FMT_CSV, 0, 0, &err), CXL_EINVAL);
	ck_assert_str_eq(err.msg, "CSV header \"cycle,addr,op\": no clock for the time column");
	strcpy(o.text, "addr,op,bogus");
	err = (cxl_err){ 0 };
	ck_assert_int_eq(trc_export_init(&ex, &o, TRC_FMT_CSV, 0, 0, &err), CXL_EINVAL);
}
END_TEST

START_TEST(test_trc_export_csv_columns)
{
	int col[TRC_CSV_COLS];
	const char *bad = NULL;

	ck_assert_int_eq(trc_csv_columns("time_ps,addr,op,size", col, &bad), 4);
	ck_assert_int_eq(col[0], TRC_COL_TIME_PS);
	ck_assert_int_eq(col[3], TRC_COL_SIZE);
	ck_assert_int_eq(trc_csv_columns(" ADDRESS ,Op", col, &bad), 2);
	ck_assert_int_eq(col[0], TRC_COL_ADDR);
	ck_assert_int_eq(trc_csv_columns("addr,op,", col, &bad), -1);
	ck_assert_int_eq(trc_csv_columns("", col, &bad), -1);
	ck_assert_int_eq(trc_csv_columns("addr,op,op", col, &bad), -1);
	ck_assert_str_eq(bad, "column given twice (at most one of each, one time column)");
	ck_assert_int_eq(trc_csv_columns("time_ns,addr,op,time_us", col, &bad), -1);
	ck_assert_int_eq(trc_csv_columns("op,size", col, &bad), -1);
	ck_assert_str_eq(bad, "missing column (addr and op are required)");
}
END_TEST

START_TEST(test_trc_export_ramulator)
{
	trc_origin ram = { .fmt = TRC_FMT_RAMULATOR }, none = { .fmt = TRC_FMT_NONE };
	trc_rec a = { .time = 3000, .addr = 0x1000, .size = 64 };
	trc_rec b = { .time = 3000, .addr = 0x40, .size = 64, .op = TRC_WRITE };
	trc_export ex;

	ck_assert_int_eq(trc_export_init(&ex, &ram, TRC_FMT_NONE, 0, 0, NULL), 0);
	ck_assert_int_eq(ex.fmt, TRC_FMT_RAMULATOR);
	ck_assert_str_eq(ex.header, "");
	ck_assert_str_eq(line_of(&ex, &a), "0x1000 R\n");
	ck_assert_str_eq(line_of(&ex, &b), "0x40 W\n");
	b.size = 32;
	line_fails(&ex, &b, "size is not 64 B (Ramulator text has no size field)");
	/* any trace to ramulator2: times dropped without a clock */
	ck_assert_int_eq(trc_export_init(&ex, &none, TRC_FMT_RAMULATOR2, 0, 0, NULL), 0);
	b.size = 64;
	ck_assert_str_eq(line_of(&ex, &a), "LD 0x1000\n");
	ck_assert_str_eq(line_of(&ex, &b), "ST 0x40\n");
}
END_TEST

START_TEST(test_trc_export_ramulator2_bubbles)
{
	trc_origin r2 = { .fmt = TRC_FMT_RAMULATOR2, .clock_ps = 500 }, none = { 0 };
	trc_rec a = { .time = 1500, .addr = 0x40, .size = 64 };
	trc_export ex;

	/* instruction 3, then 4, then 10: 3, 0 and 5 bubbles */
	ck_assert_int_eq(trc_export_init(&ex, &r2, TRC_FMT_NONE, 0, 0, NULL), 0);
	ck_assert_int_eq(ex.bubbles, 1);
	ck_assert_str_eq(line_of(&ex, &a), "3 LD 0x40\n");
	a.time = 2000;
	a.op = TRC_WRITE;
	ck_assert_str_eq(line_of(&ex, &a), "0 ST 0x40\n");
	a.time = 5000;
	ck_assert_str_eq(line_of(&ex, &a), "5 ST 0x40\n");
	line_fails(&ex, &a, "two accesses in one instruction (a Ramulator2 line is one instruction)");
	a.time = 5100;
	line_fails(&ex, &a, "time is not a whole number of ticks of the clock (give --clock)");
	/* another origin: bubbles when --clock gives the instruction time */
	ck_assert_int_eq(trc_export_init(&ex, &none, TRC_FMT_RAMULATOR2, 100, 0, NULL), 0);
	ck_assert_str_eq(line_of(&ex, &a), "51 ST 0x40\n");
}
END_TEST

START_TEST(test_trc_export_origins_without_text)
{
	static const int fmts[] = { TRC_FMT_LACKEY, TRC_FMT_RAMULATOR_CPU, TRC_FMT_DRCACHESIM };
	trc_rec a = { .time = 3000, .addr = 0x1004, .size = 4, .op = TRC_WRITE };
	trc_export ex;
	cxl_err err = { 0 };

	for (size_t i = 0; i < NELEMS(fmts); i++) {
		trc_origin o = { .fmt = fmts[i], .clock_ps = 1000 };
		ck_assert_int_eq(trc_export_init(&ex, &o, TRC_FMT_NONE, 0, 0, NULL), 0);
		ck_assert_int_eq(ex.fmt, TRC_FMT_CSV);
		ck_assert_str_eq(ex.header, "time_ps,addr,op,size\n");
		ck_assert_str_eq(line_of(&ex, &a), "3000,0x1004,W,4\n");
		err = (cxl_err){ 0 };
		ck_assert_int_eq(trc_export_init(&ex, &o, fmts[i], 0, 0, &err), CXL_EINVAL);
	}
	ck_assert_str_eq(err.msg, "cannot print drcachesim text (the formats printed are esf, "
			 "dramsim3, csv, ramulator and ramulator2)");
}
END_TEST

Suite *trc_export_suite(void)
{
	Suite *s = suite_create("trc_export");
	TCase *tc = tcase_create("lines");

	tcase_add_test(tc, test_trc_export_esf);
	tcase_add_test(tc, test_trc_export_dramsim3_and_conversions);
	tcase_add_test(tc, test_trc_export_csv_header_and_units);
	tcase_add_test(tc, test_trc_export_csv_columns);
	tcase_add_test(tc, test_trc_export_ramulator);
	tcase_add_test(tc, test_trc_export_ramulator2_bubbles);
	tcase_add_test(tc, test_trc_export_origins_without_text);
	suite_add_tcase(s, tc);
	return s;
}
