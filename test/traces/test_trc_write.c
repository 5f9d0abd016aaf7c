/*
 * test/traces/test_trc_write.c - unit tests for traces/trc_write.c and
 * traces/trc_header.c: the writer and the headers it writes.
 *
 * The writer refuses records the format cannot hold (time going back, size
 * 0, unknown op or flags) naming the record; a failed or aborted write
 * leaves nothing behind (the target is untouched, no temporary file stays);
 * the header holds count, capacity, origin and records CRC; origins and
 * capacities are checked; blocks are full but the last; output permissions
 * follow the umask.
 */
#include "traces/trc_int.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test/traces/trc_fixture.h"

static void expect_add_error(const trc_rec *first, const trc_rec *bad, const char *msg)
{
	trc_writer *w;
	cxl_err err = { 0 };
	char want[600];

	ck_assert_int_eq(trc_writer_open(&w, trcf_path("w.cxt"), NULL, 0, &err), 0);
	ck_assert_int_eq(trc_writer_add(w, first, &err), 0);
	ck_assert_int_eq(trc_writer_add(w, bad, &err), CXL_EINVAL);
	snprintf(want, sizeof(want), "%s: record 1: %s", trcf_path("w.cxt"), msg);
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(trc_writer_add(w, first, NULL), CXL_EINVAL); /* stays failed */
	ck_assert_int_eq(trc_writer_close(w, NULL), CXL_EINVAL);
	ck_assert_int_eq(trcf_files_in_tmpdir(), 0);
}

START_TEST(test_trc_write_refuses_bad_records)
{
	trc_rec ok = { .time = 100, .addr = 64, .size = 64 };
	trc_rec t = ok, s = ok, o = ok, f = ok, pad = ok, past = ok, last = ok;

	t.time = 99;
	s.size = 0;
	past.addr = UINT64_MAX - 63; /* 65 bytes from 2^64 - 64: one past the end */
	past.size = 65;
	last.addr = UINT64_MAX - 63; /* 64 bytes: the last byte is 2^64 - 1, fine */
	o.op = 2;
	f.flags = 0x80;
	pad.thread = 1;
	expect_add_error(&ok, &t, "time is before the previous record's (records must be sorted "
			 "by time)");
	expect_add_error(&ok, &s, "size 0");
	expect_add_error(&ok, &o, "op is neither read nor write");
	expect_add_error(&ok, &f, "unknown flags");
	expect_add_error(&ok, &pad, "thread index in a trace without threads (origin lacks "
			 "TRC_ORIGIN_THREADS)");
	/* the requester splits a record into the lines [addr, addr + size): it wrapped */
	expect_add_error(&ok, &past, "address + size past 2^64 (bytes beyond the 64-bit "
			 "address space)");
	trc_rec two[2] = { ok, last };
	trcf_write(trcf_path("last.cxt"), two, 2, 16, NULL);
}
END_TEST

START_TEST(test_trc_write_equal_times_allowed)
{
	trc_rec r[3] = { { .time = 5, .size = 64 }, { .time = 5, .size = 64 }, { .time = 5, .size = 64 } };
	trc_rec out[3];
	cxl_err err = { 0 };
	uint64_t n;

	trcf_write(trcf_path("eq.cxt"), r, 3, 2, NULL);
	ck_assert_int_eq(trcf_read(trcf_path("eq.cxt"), out, 3, &n, &err), 0);
	trcf_assert_recs_eq(r, out, 3);
}
END_TEST

START_TEST(test_trc_write_abort_leaves_nothing)
{
	trc_rec *r = trcf_recs(100, 1);
	const char *p = trcf_path("keep.cxt");
	trc_writer *w;
	size_t len;
	uint8_t *before;

	trcf_write(p, r, 100, 10, NULL);
	before = trcf_slurp(p, &len);
	ck_assert_int_eq(trc_writer_open(&w, p, NULL, 10, NULL), 0);
	for (int i = 0; i < 50; i++)
		ck_assert_int_eq(trc_writer_add(w, &r[i], NULL), 0);
	ck_assert_int_eq(trcf_files_in_tmpdir(), 2); /* target + temporary */
	trc_writer_abort(w);
	ck_assert_int_eq(trcf_files_in_tmpdir(), 1);
	size_t len2;
	uint8_t *after = trcf_slurp(p, &len2);
	ck_assert_uint_eq(len, len2);
	ck_assert_int_eq(memcmp(before, after, len), 0);
	trc_writer_abort(NULL);
	free(before);
	free(after);
	free(r);
}
END_TEST

START_TEST(test_trc_write_header_fields)
{
	trc_origin o = { .fmt = TRC_FMT_ESF, .flags = TRC_ORIGIN_ESF_DELAY, .clock_ps = 1000 };
	trc_rec *r = trcf_recs(10, 2);
	size_t len;
	uint8_t *buf;
	trc_hdr h;
	const char *why;

	trcf_write(trcf_path("h.cxt"), r, 10, 4, &o);
	buf = trcf_slurp(trcf_path("h.cxt"), &len);
	ck_assert_int_eq(memcmp(buf, TRC_MAGIC, TRC_MAGIC_LEN), 0);
	ck_assert_uint_eq(trc__header_len(buf, &why), TRC_HDR_MIN);
	ck_assert_int_eq(trc__header_decode(buf, TRC_HDR_MIN, &h, &why), 0);
	ck_assert_uint_eq(h.count, 10);
	ck_assert_uint_eq(h.cap, 4);
	ck_assert_uint_eq(h.crc, trc__rec_crc(0, r, 10));
	ck_assert_int_eq(h.origin.fmt, TRC_FMT_ESF);
	ck_assert_uint_eq(h.origin.flags, TRC_ORIGIN_ESF_DELAY);
	ck_assert_uint_eq(h.origin.clock_ps, 1000);
	/* blocks of 4, 4, 2 records */
	size_t off = TRC_HDR_MIN;
	for (uint32_t k = 0, want[] = { 4, 4, 2 }; k < 3; k++) {
		ck_assert_int_eq(memcmp(buf + off, TRC_BLK_MAGIC, 4), 0);
		ck_assert_uint_eq(trc_get32(buf + off + 8), want[k]);
		ck_assert_uint_eq(trc_get64(buf + off + 16), 4 * k);
		off += TRC_BLK_HDR + trc_get32(buf + off + 4);
	}
	ck_assert_uint_eq(off, len);
	free(buf);
	free(r);
}
END_TEST

START_TEST(test_trc_write_checks_origin_and_capacity)
{
	trc_origin o = { .fmt = TRC_FMT_COUNT };
	trc_writer *w;
	cxl_err err = { 0 };

	ck_assert_int_eq(trc_writer_open(&w, trcf_path("o.cxt"), &o, 0, &err), CXL_EINVAL);
	ck_assert_str_eq(err.msg, "unknown origin format 10");
	o = (trc_origin){ .fmt = TRC_FMT_ESF };
	ck_assert_int_eq(trc_writer_open(&w, trcf_path("o.cxt"), &o, 0, NULL), CXL_EINVAL);
	o = (trc_origin){ .fmt = TRC_FMT_DRAMSIM3, .clock_ps = 1, .flags = TRC_ORIGIN_ESF_DELAY };
	ck_assert_int_eq(trc_writer_open(&w, trcf_path("o.cxt"), &o, 0, NULL), CXL_EINVAL);
	/* the tools' formats: a time per instruction where they count them, none for Ramulator's */
	o = (trc_origin){ .fmt = TRC_FMT_LACKEY };
	err = (cxl_err){ 0 };
	ck_assert_int_eq(trc_writer_open(&w, trcf_path("o.cxt"), &o, 0, &err), CXL_EINVAL);
	ck_assert_str_eq(err.msg, "lackey origin needs a clock");
	o = (trc_origin){ .fmt = TRC_FMT_RAMULATOR, .clock_ps = 1 };
	err = (cxl_err){ 0 };
	ck_assert_int_eq(trc_writer_open(&w, trcf_path("o.cxt"), &o, 0, &err), CXL_EINVAL);
	ck_assert_str_eq(err.msg, "ramulator origin has no clock");
	o = (trc_origin){ .fmt = TRC_FMT_RAMULATOR2 };
	ck_assert_int_eq(trc_writer_open(&w, trcf_path("o.cxt"), &o, 0, NULL), 0);
	trc_writer_abort(w);
	o = (trc_origin){ .fmt = TRC_FMT_NONE };
	strcpy(o.text, "time_ps,addr,op");
	ck_assert_int_eq(trc_writer_open(&w, trcf_path("o.cxt"), &o, 0, NULL), CXL_EINVAL);
	o = (trc_origin){ .fmt = TRC_FMT_CSV };
	memset(o.text, 'a', TRC_ORIGIN_TEXT_MAX);
	ck_assert_int_eq(trc_writer_open(&w, trcf_path("o.cxt"), &o, 0, &err), 0);
	trc_writer_abort(w);
	ck_assert_int_eq(trc_writer_open(&w, trcf_path("o.cxt"), NULL, TRC_CAP_MAX + 1, NULL),
			 CXL_EINVAL);
	err = (cxl_err){ 0 };
	ck_assert_int_eq(trc_writer_open(&w, "/nonexistent-dir/x.cxt", NULL, 0, &err), CXL_EIO);
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent-dir/x.cxt: cannot create: "));
	ck_assert_int_eq(trcf_files_in_tmpdir(), 0);
}
END_TEST

START_TEST(test_trc_write_long_origin_text_round_trips)
{
	trc_origin o = { .fmt = TRC_FMT_CSV };
	trc_rec r = { .addr = 64, .size = 64 };
	trc_reader *rd;

	memset(o.text, 'q', TRC_ORIGIN_TEXT_MAX);
	trcf_write(trcf_path("l.cxt"), &r, 1, 0, &o);
	ck_assert_int_eq(trc_reader_open(&rd, trcf_path("l.cxt"), NULL), 0);
	ck_assert_uint_eq(strlen(trc_reader_origin(rd)->text), TRC_ORIGIN_TEXT_MAX);
	trc_reader_close(rd);
}
END_TEST

START_TEST(test_trc_write_permissions_follow_umask)
{
	trc_rec r = { .addr = 64, .size = 64 };
	struct stat st;

	umask(022);
	trcf_write(trcf_path("p.cxt"), &r, 1, 0, NULL);
	ck_assert_int_eq(stat(trcf_path("p.cxt"), &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0644);
}
END_TEST

START_TEST(test_trc_write_count)
{
	trc_rec r = { .addr = 64, .size = 64 };
	trc_writer *w;

	ck_assert_int_eq(trc_writer_open(&w, trcf_path("c.cxt"), NULL, 2, NULL), 0);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(trc_writer_add(w, &r, NULL), 0);
	ck_assert_uint_eq(trc_writer_count(w), 5);
	ck_assert_int_eq(trc_writer_close(w, NULL), 0);
}
END_TEST

START_TEST(test_trc_write_fmt_names)
{
	ck_assert_str_eq(trc_fmt_name(TRC_FMT_NONE), "none");
	ck_assert_str_eq(trc_fmt_name(TRC_FMT_ESF), "esf");
	ck_assert_str_eq(trc_fmt_name(TRC_FMT_DRAMSIM3), "dramsim3");
	ck_assert_str_eq(trc_fmt_name(TRC_FMT_CSV), "csv");
	ck_assert_str_eq(trc_fmt_name(TRC_FMT_LACKEY), "lackey");
	ck_assert_str_eq(trc_fmt_name(TRC_FMT_RAMULATOR_CPU), "ramulator-cpu");
	ck_assert_str_eq(trc_fmt_name(TRC_FMT_DRCACHESIM), "drcachesim");
	ck_assert_str_eq(trc_fmt_name(TRC_FMT_CHAMPSIM), "champsim");
	ck_assert_str_eq(trc_fmt_name(TRC_FMT_COUNT), "?");
	ck_assert_str_eq(trc_fmt_name(-1), "?");
}
END_TEST

Suite *trc_write_suite(void)
{
	Suite *s = suite_create("trc_write");
	TCase *rec = trcf_case("records");
	TCase *file = trcf_case("file");

	tcase_add_test(rec, test_trc_write_refuses_bad_records);
	tcase_add_test(rec, test_trc_write_equal_times_allowed);
	tcase_add_test(rec, test_trc_write_count);
	tcase_add_test(file, test_trc_write_abort_leaves_nothing);
	tcase_add_test(file, test_trc_write_header_fields);
	tcase_add_test(file, test_trc_write_checks_origin_and_capacity);
	tcase_add_test(file, test_trc_write_long_origin_text_round_trips);
	tcase_add_test(file, test_trc_write_permissions_follow_umask);
	tcase_add_test(file, test_trc_write_fmt_names);
	suite_add_tcase(s, rec);
	suite_add_tcase(s, file);
	return s;
}
