/*
 * test/traces/test_trc_import.c - unit tests for traces/trc_import.c: the
 * ESF, DRAMsim3 and CSV importers.
 *
 * Time mapping per format (ESF absolute ticks with "0 = previous time",
 * ESF delays, DRAMsim3 cycles, CSV time units and clocked columns), format
 * detection, canonical input re-printed byte for byte, each accepted
 * non-canonical form normalised and counted (with its first line), gzip
 * input, and every error naming file and line.
 */
#include "traces/trc_text.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "test/traces/trc_fixture.h"

typedef struct imp imp;
struct imp {
	trc_rec rec[64];     /* records read */
	uint64_t n;          /* their number */
	trc_origin origin;   /* detected origin */
	uint64_t noncanon;   /* non-canonical lines */
	uint64_t first;      /* first of them */
	char text[4096];     /* the records exported back in the origin format */
};

/* Import @text (a file named @name) with @o; must succeed. */
static void import_ok(const char *name, const char *text, const trc_import_opts *o, imp *out)
{
	const char *p = trcf_write_text(name, text);
	trc_import *im;
	trc_export ex;
	cxl_err err = { 0 };
	int rc;

	memset(out, 0, sizeof(*out));
	ck_assert_msg(trc_import_open(&im, p, o, &err) == 0, "%s", err.msg);
	while ((rc = trc_import_next(im, &out->rec[out->n], &err)) > 0)
		out->n++;
	ck_assert_msg(rc == 0, "%s", err.msg);
	out->origin = *trc_import_origin(im);
	out->noncanon = trc_import_noncanonical(im, &out->first);
	trc_import_close(im);
	ck_assert_int_eq(trc_export_init(&ex, &out->origin, TRC_FMT_NONE, 0, 0, &err), 0);
	strcpy(out->text, ex.header);
	for (uint64_t i = 0; i < out->n; i++) {
		char line[TRC_EXPORT_LINE_MAX];
		const char *why;
		ck_assert_int_gt(trc_export_line(&ex, &out->rec[i], line, &why), 0);
		strcat(out->text, line);
	}
}

/* Import @text; expect CXL_EINVAL "<path>:<msg>" at open or at a record. */
static void import_fails(const char *text, const trc_import_opts *o, const char *msg)
{
	const char *p = trcf_write_text("bad.txt", text);
	trc_import *im;
	trc_rec r;
	cxl_err err = { 0 };
	char want[700];
	int rc = trc_import_open(&im, p, o, &err);

	if (!rc) {
		while ((rc = trc_import_next(im, &r, &err)) > 0)
			;
		trc_import_close(im);
	}
	snprintf(want, sizeof(want), "%s:%s", p, msg);
	ck_assert_int_eq(rc, CXL_EINVAL);
	ck_assert_str_eq(err.msg, want);
}

START_TEST(test_trc_import_esf_absolute_ticks)
{
	static const char text[] = "0x40 R 0\n0x80 W 0\n0xffc0 R 7\n0x100 R 0\n0x140 W 9\n";
	imp im;

	import_ok("a.trace", text, NULL, &im);
	ck_assert_int_eq(im.origin.fmt, TRC_FMT_ESF);
	ck_assert_uint_eq(im.origin.clock_ps, 1000);
	ck_assert_uint_eq(im.n, 5);
	ck_assert_uint_eq(im.rec[0].time, 0);
	ck_assert_uint_eq(im.rec[0].flags, TRC_REC_NOTIME);
	ck_assert_uint_eq(im.rec[1].op, TRC_WRITE);
	ck_assert_uint_eq(im.rec[2].time, 7000);
	ck_assert_uint_eq(im.rec[2].flags, 0);
	ck_assert_uint_eq(im.rec[2].addr, 0xffc0);
	ck_assert_uint_eq(im.rec[3].time, 7000); /* tick 0: the previous record's time */
	ck_assert_uint_eq(im.rec[3].flags, TRC_REC_NOTIME);
	ck_assert_uint_eq(im.rec[4].time, 9000);
	ck_assert_uint_eq(im.rec[4].size, 64);
	ck_assert_uint_eq(im.noncanon, 0);
	ck_assert_str_eq(im.text, text);
}
END_TEST

START_TEST(test_trc_import_esf_delays_and_clock)
{
	static const char text[] = "0x40 R 2\n0x80 W 0\n0xc0 R 3\n";
	trc_import_opts o = { .esf_delay = 1, .clock_ps = 625 };
	imp im;

	import_ok("d.trace", text, &o, &im);
	ck_assert_uint_eq(im.origin.flags, TRC_ORIGIN_ESF_DELAY);
	ck_assert_uint_eq(im.origin.clock_ps, 625);
	ck_assert_uint_eq(im.rec[0].time, 1250);
	ck_assert_uint_eq(im.rec[1].time, 1250);
	ck_assert_uint_eq(im.rec[1].flags, 0);
	ck_assert_uint_eq(im.rec[2].time, 3125);
	ck_assert_str_eq(im.text, text);
}
END_TEST

START_TEST(test_trc_import_dramsim3)
{
	static const char text[] = "0x1f40 READ 3\n0x0 WRITE 3\n0xdeadbeef00 READ 100\n";
	trc_import_opts o = { .clock_ps = 750 };
	imp im;

	import_ok("t.dram", text, &o, &im);
	ck_assert_int_eq(im.origin.fmt, TRC_FMT_DRAMSIM3);
	ck_assert_uint_eq(im.rec[0].time, 2250);
	ck_assert_uint_eq(im.rec[1].addr, 0);
	ck_assert_uint_eq(im.rec[1].op, TRC_WRITE);
	ck_assert_uint_eq(im.rec[2].time, 75000);
	ck_assert_uint_eq(im.rec[2].flags, 0);
	ck_assert_str_eq(im.text, text);
}
END_TEST

START_TEST(test_trc_import_csv_columns)
{
	static const char a[] = "time_ps,addr,op,size\n5,0x40,R,64\n5,0x41,W,8\n900,0x0,R,4096\n";
	static const char b[] = "op,size,address,time_ns\nW,128,0x1000,1\nR,64,0x2000,3\n";
	static const char c[] = "addr,op\n0x40,R\n0x80,W\n";
	static const char d[] = "cycle,addr,op\n4,0x40,R\n";
	trc_import_opts clk = { .clock_ps = 500 };
	imp im;

	import_ok("a.csv", a, NULL, &im);
	ck_assert_int_eq(im.origin.fmt, TRC_FMT_CSV);
	ck_assert_str_eq(im.origin.text, "time_ps,addr,op,size");
	ck_assert_uint_eq(im.rec[1].addr, 0x41);
	ck_assert_uint_eq(im.rec[1].size, 8);
	ck_assert_uint_eq(im.rec[2].time, 900);
	ck_assert_str_eq(im.text, a);
	import_ok("b.csv", b, NULL, &im);
	ck_assert_uint_eq(im.rec[0].time, 1000);
	ck_assert_uint_eq(im.rec[0].size, 128);
	ck_assert_uint_eq(im.rec[1].time, 3000);
	ck_assert_str_eq(im.text, b);
	import_ok("c.csv", c, NULL, &im);
	ck_assert_uint_eq(im.rec[1].time, 0);
	ck_assert_uint_eq(im.rec[1].flags, TRC_REC_NOTIME);
	ck_assert_uint_eq(im.rec[1].size, 64);
	ck_assert_str_eq(im.text, c);
	import_ok("d.csv", d, &clk, &im);
	ck_assert_uint_eq(im.origin.clock_ps, 500);
	ck_assert_uint_eq(im.rec[0].time, 2000);
	ck_assert_str_eq(im.text, d);
}
END_TEST

/* A thread column: the trace has threads (version 3) and prints them back. */
START_TEST(test_trc_import_csv_thread_column)
{
	static const char t[] = "thread,time_ps,addr,op\n3,5,0x40,R\n0,6,0x80,W\n65535,7,0xc0,R\n";
	imp im;

	import_ok("t.csv", t, NULL, &im);
	ck_assert_uint_eq(im.origin.flags, TRC_ORIGIN_THREADS);
	ck_assert_uint_eq(im.rec[0].thread, 3);
	ck_assert_uint_eq(im.rec[1].thread, 0);
	ck_assert_uint_eq(im.rec[2].thread, 65535);
	ck_assert_str_eq(im.text, t);
	import_ok("u.csv", "addr,op\n0x40,R\n", NULL, &im);
	ck_assert_uint_eq(im.origin.flags, 0);
	import_fails("addr,op,thread\n0x40,R,65536\n", NULL, "2: bad thread \"65536\" (expected a "
		     "thread index, 0 to 65535)");
	import_fails("addr,op,thread\n0x40,R,-1\n", NULL, "2: bad thread \"-1\" (expected a "
		     "thread index, 0 to 65535)");
	import_fails("addr,thread,op,thread\n", NULL, "1: CSV header: column given twice (at most "
		     "one of each, one time column)");
}
END_TEST

START_TEST(test_trc_import_detection_and_override)
{
	trc_import_opts csv = { .fmt = TRC_FMT_CSV }, esf = { .fmt = TRC_FMT_ESF };
	imp im;

	import_ok("x", "0x40 r 0\n", NULL, &im);
	ck_assert_int_eq(im.origin.fmt, TRC_FMT_ESF);
	import_ok("x", "0x40 write 0\n", NULL, &im);
	ck_assert_int_eq(im.origin.fmt, TRC_FMT_DRAMSIM3);
	import_ok("x", "\n\naddr,op\n0x40,R\n", NULL, &im);
	ck_assert_int_eq(im.origin.fmt, TRC_FMT_CSV);
	ck_assert_uint_eq(im.noncanon, 2);
	ck_assert_uint_eq(im.first, 1);
	/* forced ESF accepts READ/WRITE and prints R/W */
	import_ok("x", "0x40 READ 0\n", &esf, &im);
	ck_assert_int_eq(im.origin.fmt, TRC_FMT_ESF);
	ck_assert_str_eq(im.text, "0x40 R 0\n");
	ck_assert_uint_eq(im.noncanon, 1);
	import_fails("0x40 R 0\n", &csv, "1: CSV header: unknown column (expected time_ps, time_ns, "
		     "time_us, time, cycle, addr, op, size, thread)");
	import_fails("hello world\n", NULL, "1: cannot tell the trace format (expected ESF "
		     "\"0xADDR R|W TICK\", DRAMsim3 \"0xADDR READ|WRITE CYCLE\", a CSV header, "
		     "valgrind lackey, Ramulator, Ramulator2 or drcachesim view output; give "
		     "--from, e.g. --from champsim for a binary ChampSim trace)");
}
END_TEST

START_TEST(test_trc_import_normalises_and_counts)
{
	imp im;

	import_ok("n", "0x40 R 0\n0X80 W 0\n0x00c0 R 0\n0xC0  R\t0\n0x100 R 00\n", NULL, &im);
	ck_assert_uint_eq(im.noncanon, 4);
	ck_assert_uint_eq(im.first, 2);
	ck_assert_str_eq(im.text, "0x40 R 0\n0x80 W 0\n0xc0 R 0\n0xc0 R 0\n0x100 R 0\n");
	import_ok("n", "0x40 R 0\r\n0x80 W 0", NULL, &im);
	ck_assert_uint_eq(im.n, 2);
	ck_assert_uint_eq(im.noncanon, 2);
	ck_assert_str_eq(im.text, "0x40 R 0\n0x80 W 0\n");
	import_ok("n", "addr,op,size\n 0x40 , r , 8\n64,W,064\n", NULL, &im);
	ck_assert_uint_eq(im.noncanon, 2);
	ck_assert_uint_eq(im.first, 2);
	ck_assert_uint_eq(im.rec[1].addr, 64);
	ck_assert_str_eq(im.text, "addr,op,size\n0x40,R,8\n0x40,W,64\n");
	import_ok("n", "  0x40 R 0  \n\n", NULL, &im);
	ck_assert_uint_eq(im.n, 1);
	ck_assert_uint_eq(im.noncanon, 2);
}
END_TEST

START_TEST(test_trc_import_errors_name_the_line)
{
	trc_import_opts o = { 0 };

	import_fails("0x40 R 0\n0x80 X 0\n", NULL, "2: bad op \"X\" (expected R or W)");
	import_fails("0x40 READ 0\n0x80 R 0\n0x80 RD 0\n", NULL,
		     "3: bad op \"RD\" (expected READ or WRITE)");
	import_fails("0x40 R 0\n80 R 0\n", NULL,
		     "2: bad address \"80\" (expected 0x and up to 16 hex digits)");
	import_fails("0x40 R 0\n0x1ffffffffffffffff R 0\n", NULL,
		     "2: bad address \"0x1ffffffffffffffff\" (expected 0x and up to 16 hex digits)");
	import_fails("0x40 R 0\n0x80 R\n", NULL, "2: expected 3 fields: 0xADDR R|W TICK");
	import_fails("0x40 R 0\n0x80 R 1 2\n", NULL, "2: expected 3 fields: 0xADDR R|W TICK");
	import_fails("0x40 READ 1\n0x80 READ\n", NULL, "2: expected 3 fields: 0xADDR READ|WRITE CYCLE");
	import_fails("0x40 R 0\n0x80 R -1\n", NULL,
		     "2: bad time \"-1\" (expected a decimal integer)");
	import_fails("0x40 R 5\n0x80 R 4\n", NULL, "2: time 4000 ps is before the previous record's "
		     "5000 ps (records must be sorted by time; for ESF ticks that are delays give "
		     "--esf-ticks delay)");
	import_fails("0x40 READ 5\n0x80 READ 4\n", NULL, "2: time 4000 ps is before the previous "
		     "record's 5000 ps (records must be sorted by time)");
	import_fails("0x40 R 18446744073709552\n", NULL, "1: time 18446744073709552 overflows 2^64 ps");
	import_fails("0x40 R 0\n0xffffffffffffffc1 R 1\n", NULL,
		     "2: address 0xffffffffffffffc1 + size 64 goes past 2^64");
	o.fmt = TRC_FMT_CSV;
	import_fails("addr,op\n0x40,R,1\n", NULL, "2: expected 2 fields (as the header)");
	import_fails("addr,op\n0x40\n", NULL, "2: expected 2 fields (as the header)");
	import_fails("addr,op,size\n0x40,R,0\n", NULL,
		     "2: bad size \"0\" (expected 1 to 4294967295 bytes)");
	import_fails("addr,op,size\n0xffffffffffffff00,R,257\n", NULL,
		     "2: address 0xffffffffffffff00 + size 257 goes past 2^64");
	import_fails("addr,op,time_ps\n0x40,R,5\n0x40,R,4\n", NULL, "3: time 4 ps is before the "
		     "previous record's 5 ps (records must be sorted by time)");
	import_fails("addr,op,addr\n", NULL,
		     "1: CSV header: column given twice (at most one of each, one time column)");
	import_fails("addr,op,time_ps,cycle\n", NULL,
		     "1: CSV header: column given twice (at most one of each, one time column)");
	import_fails("addr,size\n", NULL, "1: CSV header: missing column (addr and op are required)");
	import_fails("time,addr,op\n1,0x40,R\n", &o, "1: column time or cycle has no unit: give "
		     "--clock (e.g. --clock 1ns) or name it time_ps, time_ns or time_us");
}
END_TEST

START_TEST(test_trc_import_refuses_odd_files)
{
	const char *p;
	trc_import *im;
	cxl_err err = { 0 };
	char want[600], longline[TRC_TEXT_LINE_MAX + 10];

	p = trcf_write_text("empty", "\n \n");
	ck_assert_int_eq(trc_import_open(&im, p, NULL, &err), CXL_EINVAL);
	snprintf(want, sizeof(want), "%s: empty trace (no records)", p);
	ck_assert_str_eq(err.msg, want);

	trc_rec r = { .addr = 64, .size = 64 };
	trcf_write(trcf_path("x.cxt"), &r, 1, 0, NULL);
	err = (cxl_err){ 0 };
	ck_assert_int_eq(trc_import_open(&im, trcf_path("x.cxt"), NULL, &err), CXL_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "x.cxt:1: this is a .cxt trace already, not text"));

	memset(longline, 'a', sizeof(longline) - 1);
	longline[sizeof(longline) - 1] = '\0';
	p = trcf_write_text("long", longline);
	err = (cxl_err){ 0 };
	ck_assert_int_eq(trc_import_open(&im, p, NULL, &err), CXL_EINVAL);
	snprintf(want, sizeof(want), "%s:1: line longer than %d bytes", p, TRC_TEXT_LINE_MAX - 1);
	ck_assert_str_eq(err.msg, want);

	err = (cxl_err){ 0 };
	ck_assert_int_eq(trc_import_open(&im, trcf_path("none"), NULL, &err), CXL_EIO);

	static const char nul[] = "0x40 R 0\n0x80\0 R 0\n";
	p = trcf_path("nul");
	trcf_spit(p, nul, sizeof(nul) - 1);
	err = (cxl_err){ 0 };
	ck_assert_int_eq(trc_import_open(&im, p, NULL, &err), 0);
	ck_assert_int_eq(trc_import_next(im, &r, &err), 1);
	ck_assert_int_eq(trc_import_next(im, &r, &err), CXL_EINVAL);
	snprintf(want, sizeof(want), "%s:2: NUL byte (not a text trace; a binary "
		 "ChampSim trace needs --from champsim)", p);
	ck_assert_str_eq(err.msg, want);
	trc_import_close(im);
}
END_TEST

START_TEST(test_trc_import_gzip)
{
	static const char text[] = "0x40 R 0\n0x80 W 3\n";
	const char *p = trcf_path("t.trace.gz");
	gzFile gz = gzopen(p, "wb9");
	trc_import *im;
	trc_rec r;
	cxl_err err = { 0 };

	ck_assert_ptr_nonnull(gz);
	ck_assert_int_eq(gzputs(gz, text), (int)strlen(text));
	gzclose(gz);
	ck_assert_int_eq(trc_import_open(&im, p, NULL, &err), 0);
	ck_assert_int_eq(trc_import_next(im, &r, &err), 1);
	ck_assert_uint_eq(r.addr, 0x40);
	ck_assert_int_eq(trc_import_next(im, &r, &err), 1);
	ck_assert_uint_eq(r.time, 3000);
	ck_assert_int_eq(trc_import_next(im, &r, &err), 0);
	ck_assert_uint_eq(trc_import_line(im), 2);
	trc_import_close(im);
	trc_import_close(NULL);
}
END_TEST

Suite *trc_import_suite(void)
{
	Suite *s = suite_create("trc_import");
	TCase *fmt = trcf_case("formats");
	TCase *canon = trcf_case("canonical");
	TCase *bad = trcf_case("errors");

	tcase_add_test(fmt, test_trc_import_esf_absolute_ticks);
	tcase_add_test(fmt, test_trc_import_esf_delays_and_clock);
	tcase_add_test(fmt, test_trc_import_dramsim3);
	tcase_add_test(fmt, test_trc_import_csv_columns);
	tcase_add_test(fmt, test_trc_import_csv_thread_column);
	tcase_add_test(fmt, test_trc_import_detection_and_override);
	tcase_add_test(fmt, test_trc_import_gzip);
	tcase_add_test(canon, test_trc_import_normalises_and_counts);
	tcase_add_test(bad, test_trc_import_errors_name_the_line);
	tcase_add_test(bad, test_trc_import_refuses_odd_files);
	suite_add_tcase(s, fmt);
	suite_add_tcase(s, canon);
	suite_add_tcase(s, bad);
	return s;
}
