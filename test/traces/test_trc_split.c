/*
 * test/traces/test_trc_split.c - unit tests for traces/trc_split.c.
 *
 * range and roundrobin put every record in exactly one output, in order,
 * with the expected counts (including more hosts than records); outputs keep
 * the origin; output-name patterns are checked (exactly one %d, %% literal);
 * a damaged input leaves no output behind.
 */
#include "traces/trc_ops.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "test/traces/trc_fixture.h"

static void split_ok(const trc_rec *r, uint64_t n, unsigned hosts, int by)
{
	cxl_err err = { 0 };
	char pat[600], name[600];
	trc_rec *out = calloc(n + 1, sizeof(*out));
	uint64_t total = 0;

	snprintf(pat, sizeof(pat), "%s/part-%%d.cxt", trcf_tmpdir);
	ck_assert_msg(trc_split(trcf_path("in.cxt"), pat, hosts, by, 16, 0, &err) == 0, "%s", err.msg);
	for (unsigned h = 0; h < hosts; h++) {
		uint64_t got;
		ck_assert_int_eq(trc_split_name(pat, h, name, sizeof(name)), 0);
		ck_assert_msg(trcf_read(name, out, n + 1, &got, &err) == 0, "%s", err.msg);
		uint64_t want = n / hosts + (h < n % hosts);
		ck_assert_uint_eq(got, want);
		for (uint64_t i = 0; i < got; i++) {
			uint64_t src = by == TRC_SPLIT_ROUNDROBIN ? h + i * hosts :
				       h * (n / hosts) + (h < n % hosts ? h : n % hosts) + i;
			trcf_assert_recs_eq(&r[src], &out[i], 1);
		}
		total += got;
	}
	ck_assert_uint_eq(total, n);
	free(out);
}

START_TEST(test_trc_split_range_and_roundrobin)
{
	trc_origin o = { .fmt = TRC_FMT_DRAMSIM3, .clock_ps = 1000 };
	trc_rec *r = trcf_recs(1001, 3);

	trcf_write(trcf_path("in.cxt"), r, 1001, 100, &o);
	split_ok(r, 1001, 4, TRC_SPLIT_RANGE);
	split_ok(r, 1001, 4, TRC_SPLIT_ROUNDROBIN);
	split_ok(r, 1001, 1, TRC_SPLIT_RANGE);
	split_ok(r, 1001, 7, TRC_SPLIT_ROUNDROBIN);
	free(r);
}
END_TEST

/*
 * --by thread: thread t's records, in order, land in output t mod hosts;
 * --rebase: each output's times start at 0 (also for range); info counts
 * the threads.
 */
START_TEST(test_trc_split_by_thread_and_rebase)
{
	trc_origin o = { .fmt = TRC_FMT_NONE, .flags = TRC_ORIGIN_THREADS };
	trc_rec *r = trcf_recs(500, 5), out[500];
	cxl_err err = { 0 };
	char pat[600], name[600];
	trc_info info;

	for (int i = 0; i < 500; i++)
		r[i].thread = (uint16_t)((i * 7919) % 5); /* threads 0..4 */
	trcf_write(trcf_path("in.cxt"), r, 500, 64, &o);
	ck_assert_int_eq(trc_info_scan(trcf_path("in.cxt"), &info, &err), 0);
	ck_assert_uint_eq(info.threads, 5);
	ck_assert_uint_eq(info.thread_max, 4);
	ck_assert_uint_eq(info.version, 3);
	snprintf(pat, sizeof(pat), "%s/th-%%d.cxt", trcf_tmpdir);
	for (int rebase = 0; rebase < 2; rebase++) {
		uint64_t total = 0;
		ck_assert_msg(trc_split(trcf_path("in.cxt"), pat, 3, TRC_SPLIT_THREAD, 0, rebase,
					&err) == 0, "%s", err.msg);
		for (unsigned h = 0; h < 3; h++) {
			uint64_t got, k = 0, t0 = 0;
			trc_split_name(pat, h, name, sizeof(name));
			ck_assert_msg(trcf_read(name, out, 500, &got, &err) == 0, "%s", err.msg);
			for (int i = 0; i < 500; i++) {
				if (r[i].thread % 3 != h)
					continue;
				trc_rec want = r[i];
				t0 = k ? t0 : r[i].time;
				want.time -= rebase ? t0 : 0;
				ck_assert_uint_lt(k, got);
				trcf_assert_recs_eq(&want, &out[k++], 1);
			}
			ck_assert_uint_eq(k, got);
			ck_assert(!rebase || out[0].time == 0);
			total += got;
		}
		ck_assert_uint_eq(total, 500);
	}
	/* range with rebase: host 1's records start at 0 */
	ck_assert_int_eq(trc_split(trcf_path("in.cxt"), pat, 2, TRC_SPLIT_RANGE, 0, 1, &err), 0);
	trc_split_name(pat, 1, name, sizeof(name));
	uint64_t got;
	ck_assert_int_eq(trcf_read(name, out, 500, &got, &err), 0);
	ck_assert_uint_eq(got, 250);
	ck_assert_uint_gt(r[250].time, 0);
	for (int i = 0; i < 250; i++)
		ck_assert_uint_eq(out[i].time, r[250 + i].time - r[250].time);
	free(r);
}
END_TEST

START_TEST(test_trc_split_more_hosts_than_records)
{
	trc_rec *r = trcf_recs(3, 3);
	trc_reader *rd;

	trcf_write(trcf_path("in.cxt"), r, 3, 0, NULL);
	split_ok(r, 3, 5, TRC_SPLIT_RANGE);
	split_ok(r, 3, 5, TRC_SPLIT_ROUNDROBIN);
	ck_assert_int_eq(trc_reader_open(&rd, trcf_path("part-4.cxt"), NULL), 0);
	ck_assert_uint_eq(trc_reader_count(rd), 0);
	trc_reader_close(rd);
	free(r);
}
END_TEST

START_TEST(test_trc_split_keeps_origin)
{
	trc_origin o = { .fmt = TRC_FMT_CSV };
	trc_rec *r = trcf_recs(10, 3);
	trc_reader *rd;
	char pat[600];

	strcpy(o.text, "time_ps,addr,op,size");
	trcf_write(trcf_path("in.cxt"), r, 10, 0, &o);
	snprintf(pat, sizeof(pat), "%s/h%%d-100%%%%.cxt", trcf_tmpdir);
	ck_assert_int_eq(trc_split(trcf_path("in.cxt"), pat, 2, TRC_SPLIT_RANGE, 0, 0, NULL), 0);
	ck_assert_int_eq(trc_reader_open(&rd, trcf_path("h1-100%.cxt"), NULL), 0);
	ck_assert_str_eq(trc_reader_origin(rd)->text, "time_ps,addr,op,size");
	trc_reader_close(rd);
	free(r);
}
END_TEST

START_TEST(test_trc_split_names)
{
	char buf[64];

	ck_assert_int_eq(trc_split_name("a-%d.cxt", 12, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "a-12.cxt");
	ck_assert_int_eq(trc_split_name("%%%d", 3, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "%3");
	ck_assert_int_eq(trc_split_name("a.cxt", 1, buf, sizeof(buf)), -1);
	ck_assert_int_eq(trc_split_name("%d-%d", 1, buf, sizeof(buf)), -1);
	ck_assert_int_eq(trc_split_name("%s-%d", 1, buf, sizeof(buf)), -1);
	ck_assert_int_eq(trc_split_name("%d%", 1, buf, sizeof(buf)), -1);
	ck_assert_int_eq(trc_split_name("0123456789-%d", 1, buf, 8), -1);
}
END_TEST

START_TEST(test_trc_split_damaged_input_leaves_nothing)
{
	trc_rec *r = trcf_recs(100, 3);
	const char *in = trcf_path("in.cxt");
	char pat[600];
	cxl_err err = { 0 };
	size_t len;
	uint8_t *buf;

	trcf_write(in, r, 100, 10, NULL);
	buf = trcf_slurp(in, &len);
	buf[len - 3] ^= 1; /* last block */
	trcf_spit(in, buf, len);
	snprintf(pat, sizeof(pat), "%s/p%%d.cxt", trcf_tmpdir);
	for (int by = 0; by < 2; by++) {
		err = (cxl_err){ 0 };
		ck_assert_int_eq(trc_split(in, pat, 3, by, 0, 0, &err), CXL_EINVAL);
		ck_assert_ptr_nonnull(strstr(err.msg, "in.cxt: record 90: block checksum mismatch"));
		ck_assert_int_eq(trcf_files_in_tmpdir(), 1);
	}
	err = (cxl_err){ 0 };
	ck_assert_int_eq(trc_split(in, "nohole.cxt", 3, 0, 0, 0, &err), CXL_EINVAL);
	ck_assert_str_eq(err.msg, "output pattern \"nohole.cxt\": needs exactly one %d (and no "
			 "other % but %%)");
	ck_assert_int_eq(trc_split(in, pat, 0, 0, 0, 0, NULL), CXL_EINVAL);
	free(buf);
	free(r);
}
END_TEST

Suite *trc_split_suite(void)
{
	Suite *s = suite_create("trc_split");
	TCase *tc = trcf_case("split");

	tcase_add_test(tc, test_trc_split_range_and_roundrobin);
	tcase_add_test(tc, test_trc_split_by_thread_and_rebase);
	tcase_add_test(tc, test_trc_split_more_hosts_than_records);
	tcase_add_test(tc, test_trc_split_keeps_origin);
	tcase_add_test(tc, test_trc_split_names);
	tcase_add_test(tc, test_trc_split_damaged_input_leaves_nothing);
	suite_add_tcase(s, tc);
	return s;
}
